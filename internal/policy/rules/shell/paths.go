package shell

import (
	"path"
	"strings"
)

// homeDir stands for the home directory in resolved paths, so that "~/.."
// resolves to "/home".
const homeDir = "/home/~"

// sysDirs are the system directories whose recursive deletion is DestroyFiles.
var sysDirs = [...]string{
	"/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/libx32",
	"/media", "/mnt", "/opt", "/proc", "/root", "/sbin", "/snap", "/srv", "/sys", "/usr", "/var",
	"/usr/bin", "/usr/sbin", "/usr/lib", "/usr/lib32", "/usr/lib64", "/usr/libexec",
	"/usr/local", "/usr/share", "/usr/include", "/var/lib", "/var/log",
}

// maxSysDir is the length of the longest of sysDirs.
const maxSysDir = len("/usr/libexec")

// home maps a leading ~ or ~user to an absolute path.
func (a *analyzer) home(p string) string {
	if p == "" || p[0] != '~' {
		return p
	}
	user, tail := p[1:], ""
	if i := strings.IndexByte(user, '/'); i >= 0 {
		user, tail = user[:i], user[i:]
	}
	switch user {
	case "":
		return path.Clean(homeDir + tail)
	case "root":
		return path.Clean("/root" + tail)
	case "+":
		if a.cwd != "" {
			return path.Join(a.cwd, tail)
		}
		return ""
	}
	return path.Clean("/home/" + user + tail)
}

// abs resolves v against the current directory; ok is false when v is
// relative and the current directory is unknown.
func (a *analyzer) abs(v string) (string, bool) {
	for _, pwd := range [...]string{"${PWD}", "$PWD", "$(pwd)", "`pwd`"} {
		if rest, ok := strings.CutPrefix(v, pwd); ok && a.cwd != "" {
			v = a.cwd + rest
		}
	}
	v = a.home(v)
	if v == "" {
		return "", false
	}
	if v[0] == '/' {
		return clean(v), true
	}
	if a.cwd == "" {
		return "", false
	}
	return join(a.cwd, v), true
}

// clean returns path.Clean(p), without its work if p is already clean.
func clean(p string) string {
	if isClean(p) {
		return p
	}
	return path.Clean(p)
}

// isClean reports a path that path.Clean returns unchanged: not empty, with
// no empty, "." or ".." element and no trailing slash. (It is false for a
// few clean paths, such as "." and "../x".)
func isClean(p string) bool {
	if p == "/" {
		return true
	}
	if p == "" || p[len(p)-1] == '/' {
		return false
	}
	start := 0 // of the current element
	for i := 0; i <= len(p); i++ {
		if i < len(p) && p[i] != '/' {
			continue
		}
		if e := p[start:i]; e == "" && i > 0 || e == "." || e == ".." {
			return false
		}
		start = i + 1
	}
	return true
}

// join returns path.Join(dir, rel) for a cleaned absolute dir and a relative
// rel. When rel is clean but for leading "./", as it usually is, it
// allocates only the result.
func join(dir, rel string) string {
	r := rel
	for strings.HasPrefix(r, "./") {
		r = strings.TrimLeft(r[2:], "/")
	}
	if r == "" || r[0] == '/' || !isClean(r) {
		return path.Join(dir, rel)
	}
	if dir == "/" {
		return "/" + r
	}
	return dir + "/" + r
}

// danger classifies an absolute cleaned path whose recursive deletion is
// DestroyFiles.
func (a *analyzer) danger(p string) (string, bool) {
	switch {
	case p == "/":
		return "/", true
	case p == homeDir:
		return "~", true
	}
	if len(p) <= maxSysDir {
		for _, d := range sysDirs {
			if p == d {
				return d, true
			}
		}
	}
	if a.root != "" && (p == a.root || strings.HasPrefix(a.root, p+"/")) {
		return "agent root", true
	}
	if rest, ok := strings.CutPrefix(p, "/home/"); ok && rest != "" && strings.IndexByte(rest, '/') < 0 {
		return "/home", true // path.Dir(p) == "/home", as p is clean
	}
	return "", false
}

// matchAll reports a glob that matches every name, such as * or .*.
func matchAll(base string) bool {
	return base != "" && strings.ContainsAny(base, "*?") && strings.Trim(base, "*?.") == ""
}

// dangerTarget classifies a word naming something whose recursive deletion
// is DestroyFiles: /, ~, system directories, the agent root or an ancestor
// of it, globs matching any of those, and $VAR/ with VAR unknown.
func (a *analyzer) dangerTarget(w Word) (string, bool) {
	if w.Opaque {
		if unguardedVarSlash(w.Value) {
			return "$VAR/", true
		}
	}
	p, ok := a.abs(w.Value)
	if !ok {
		return "", false
	}
	if cls, ok := a.danger(p); ok {
		return cls, true
	}
	if !w.Glob && !hasGlobMeta(w.Value) {
		return "", false
	}
	dir, base := path.Split(p)
	if matchAll(base) {
		if cls, ok := a.danger(path.Clean(dir)); ok {
			return cls, true
		}
	}
	try := func(cand string) bool {
		ok, err := path.Match(p, cand)
		return err == nil && ok
	}
	if try("/") {
		return "/", true
	}
	if try(homeDir) {
		return "~", true
	}
	for _, d := range sysDirs {
		if try(d) {
			return d, true
		}
	}
	for r := a.root; r != "" && r != "/"; r = path.Dir(r) {
		if try(r) {
			return "agent root", true
		}
	}
	return "", false
}

// unguardedVarSlash reports "$X/", "${X}/*" and the like: a path that is /
// when X is empty, without a ${X:?} guard.
func unguardedVarSlash(v string) bool {
	if !strings.HasPrefix(v, "$") {
		return false
	}
	var rest string
	if strings.HasPrefix(v, "${") {
		end := strings.IndexByte(v, '}')
		if end < 0 || !validName(v[2:end]) {
			return false
		}
		rest = v[end+1:]
	} else {
		j := 1
		for j < len(v) && isNameChar(v[j]) {
			j++
		}
		if j == 1 {
			return false
		}
		rest = v[j:]
	}
	return rest != "" && rest[0] == '/' && strings.Trim(rest, "/*.") == ""
}

// isDisk reports a path under /dev that is not a harmless pseudo-device.
func isDisk(p string) bool {
	if !strings.Contains(p, "/dev/") {
		return false // cleaning removes elements, so a cleaned path has no /dev/ either
	}
	rest, ok := strings.CutPrefix(clean(p), "/dev/")
	if !ok || rest == "" {
		return false
	}
	for _, pre := range [...]string{"null", "zero", "full", "random", "urandom", "stdin", "stdout", "stderr", "tty", "pts/", "fd/", "shm/", "ptmx", "console", "tcp/", "udp/", "kmsg", "log", "mqueue/"} {
		if strings.HasPrefix(rest, pre) {
			return false
		}
	}
	return true
}

func isSysrq(p string) bool {
	return strings.Contains(p, "sysrq-trigger") && clean(p) == "/proc/sysrq-trigger"
}

func isProcEnviron(p string) bool {
	return strings.HasPrefix(p, "/proc/") && strings.HasSuffix(p, "/environ")
}

// pathsIn calls f with the strings in v that may name a file: v itself,
// the value of --opt=value, the part after = or @, and the parts around a
// colon. It reports whether f returned true.
func pathsIn(v string, f func(string) bool) bool {
	return findMarks(v).pathsIn(v, f)
}

// pathsIn is pathsIn(v, f) for the marks of v.
func (m marks) pathsIn(v string, f func(string) bool) bool {
	if v == "" || m.blank {
		return false
	}
	if v[0] == '-' {
		if m.eq < 0 {
			return false
		}
		v = v[m.eq+1:]
		m = findMarks(v)
	}
	if m.url {
		if !strings.HasPrefix(v, "file://") {
			return false
		}
		v = v[len("file://"):]
		m = findMarks(v)
	}
	if m.eq < 0 && m.at < 0 && m.colon < 0 && v != "" && v[0] != '<' {
		return f(v) // the usual case: v is all there is
	}
	try := func(s string) bool {
		for s != "" && (s[0] == '@' || s[0] == '<') {
			s = s[1:]
		}
		return s != "" && f(s)
	}
	return try(v) ||
		m.eq >= 0 && try(v[m.eq+1:]) ||
		m.at > 0 && try(v[m.at+1:]) ||
		m.colon > 0 && (try(v[:m.colon]) || try(v[m.lastColon+1:]))
}

// marks are what pathsIn and probe look for in a word: the index of the
// first =, the first @, the first and last colon (-1 if none), whether
// "://" occurs, whether a glob metacharacter (*, ? or [) does, and whether
// a blank does. findMarks stops at a blank, which leaves the others unset.
type marks struct {
	eq, at, colon, lastColon int
	url, glob, blank         bool
}

// markBytes are the bytes findMarks looks at.
var markBytes = [256]bool{' ': true, '\t': true, '\n': true, '=': true, '@': true, ':': true, '*': true, '?': true, '[': true}

// findMarks returns the marks of v, found in one pass.
func findMarks(v string) marks {
	m := marks{eq: -1, at: -1, colon: -1, lastColon: -1}
	for i := 0; i < len(v); i++ {
		if !markBytes[v[i]] {
			continue
		}
		switch v[i] {
		case ' ', '\t', '\n':
			m.blank = true
			return m
		case '*', '?', '[':
			m.glob = true
		case '=':
			if m.eq < 0 {
				m.eq = i
			}
		case '@':
			if m.at < 0 {
				m.at = i
			}
		case ':':
			if m.colon < 0 {
				m.colon = i
			}
			m.lastColon = i
			m.url = m.url || strings.HasPrefix(v[i+1:], "//")
		}
	}
	return m
}

// hasGlobMeta reports *, ? or [ in s.
func hasGlobMeta(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '*' || c == '?' || c == '[' {
			return true
		}
	}
	return false
}

// probeNames are file names tried against a glob, since Env can only be
// asked about names: ward's own files and common key and secret files.
var probeNames = [...]string{
	"ward.db", "ward.db-wal", "ward.db-shm", "ward.toml", "wallet.json", "audit.log", "state.db",
	"CONSTITUTION.md", ".env", ".env.local", "id_rsa", "id_ed25519", "id_ecdsa", "credentials",
	"private.key", "key.pem", ".netrc", ".npmrc", ".pgpass", ".git-credentials", "secrets.json",
}

// probe reports whether the glob v, whose marks are m, matches a probe
// name for which f is true. With all false, a glob that matches every name
// is not probed.
func probe(v string, m marks, all bool, f func(string) bool) bool {
	if !m.glob || m.blank {
		return false
	}
	dir, base := path.Split(v)
	if base == "" || !all && matchAll(base) {
		return false
	}
	prefix, suffix := literalEnds(base)
	for _, n := range probeNames {
		if n[0] == '.' && base[0] != '.' || !strings.HasPrefix(n, prefix) || !strings.HasSuffix(n, suffix) {
			continue
		}
		if ok, err := path.Match(base, n); err == nil && ok && f(dir+n) {
			return true
		}
	}
	return false
}

// literalEnds returns what a name matching the pattern pat (as path.Match
// reads it) must start and end with: the bytes before the first
// metacharacter and those after the last one, which match only themselves.
func literalEnds(pat string) (prefix, suffix string) {
	i := strings.IndexAny(pat, "*?[\\")
	if i < 0 {
		return pat, pat
	}
	return pat[:i], pat[strings.LastIndexAny(pat, "*?[]\\")+1:]
}

// protected reports whether v names a protected file: one Env.Protected
// reports, or one of Env.Own or something inside one.
func (a *analyzer) protected(v string) bool {
	m := findMarks(v)
	if own, _ := a.rel(v, &m); own&(relSame|relInside) != 0 {
		return true
	}
	if a.env.Protected == nil {
		return false
	}
	return m.pathsIn(v, a.isProtected) || m.glob && probe(v, m, a.probeAll(v), a.isProtected)
}

// probeAll reports whether a glob matching every name, such as "*", is
// probed for protected names: only in the agent's root (or where the
// directory is unknown), where the agent's own files are. Elsewhere,
// `rm -rf build/*` deletes only what the build made; ward's own files are
// found there by Env.Own, which knows where they are.
func (a *analyzer) probeAll(v string) bool {
	dir, base := path.Split(v)
	if !matchAll(base) || a.root == "" {
		return true
	}
	if dir == "" {
		dir = "."
	}
	p, ok := a.abs(dir)
	return !ok || p == a.root
}

// secretPath reports v if it names a sensitive file.
func (a *analyzer) secretPath(v string) {
	sensitive := a.env.Sensitive != nil
	proc, sens := false, false
	m := findMarks(v)
	m.pathsIn(v, func(s string) bool {
		proc = proc || isProcEnviron(s)
		sens = sens || sensitive && a.isSensitive(s)
		return proc && (sens || !sensitive)
	})
	if proc {
		a.add(ReadSecrets, "/proc/*/environ")
	}
	if _, secret := a.rel(v, &m); sensitive && (sens || probe(v, m, false, a.isSensitive)) || secret&relInside != 0 {
		a.add(ReadSecrets, "sensitive file")
	}
}

// memo remembers the answers of Env.Protected and Env.Sensitive during one
// Analyze call, so that each is asked about a string at most once (for the
// first memoSize strings asked).
type memo struct {
	n       int
	keys    [memoSize]string
	asked   [memoSize]uint8 // askProtected and askSensitive bits
	answers [memoSize]uint8
}

const memoSize = 16

const (
	askProtected uint8 = 1 << iota
	askSensitive
)

func (a *analyzer) isProtected(p string) bool {
	return a.ask(a.envPath(p), askProtected, a.env.Protected)
}

func (a *analyzer) isSensitive(p string) bool {
	return a.ask(a.envPath(p), askSensitive, a.env.Sensitive)
}

// envPath returns p as Env.Protected and Env.Sensitive are asked about it:
// as written, unless it is relative and the command line has changed to a
// known directory other than Root, against which it is then resolved
// ("~/" standing for homeDir).
func (a *analyzer) envPath(p string) string {
	if a.cwd == a.root || a.cwd == "" || p == "" || !plainStart(p[0]) || p[0] == '/' {
		return p
	}
	j := join(a.cwd, p)
	if rest, ok := strings.CutPrefix(j, homeDir); ok && (rest == "" || rest[0] == '/') {
		return "~" + rest
	}
	return j
}

// ask returns f(p), which is the answer of Env func which, from the memo if
// it was asked before.
func (a *analyzer) ask(p string, which uint8, f func(string) bool) bool {
	m := &a.memo
	i := 0
	for i < m.n && m.keys[i] != p {
		i++
	}
	if i < m.n && m.asked[i]&which != 0 {
		return m.answers[i]&which != 0
	}
	ok := f(p)
	if i == m.n {
		if i == len(m.keys) {
			return ok
		}
		m.keys[i] = p
		m.n++
	}
	m.asked[i] |= which
	if ok {
		m.answers[i] |= which
	}
	return ok
}

func (a *analyzer) secrets(words []Word) {
	for i := range words {
		a.secretPath(words[i].Value)
	}
}

func (a *analyzer) secretVars(names []string) {
	for _, n := range names {
		if secretName(n) {
			a.add(ReadSecrets, "print secret variable")
			return
		}
	}
}

// secretName reports variable names that look like they hold secrets.
func secretName(n string) bool {
	for _, k := range [...]string{"KEY", "SECRET", "TOKEN", "PASSWORD", "PASSWD", "MNEMONIC", "SEED", "PRIVATE", "CREDENTIAL"} {
		if indexFold(n, k) >= 0 {
			return true
		}
	}
	return false
}

// indexFold returns the index of upper, an upper-case ASCII string, in s
// ignoring ASCII case, or -1.
func indexFold[T string | []byte](s T, upper string) int {
	n := len(upper)
	for i := 0; i+n <= len(s); i++ {
		if hasFoldAt(s, i, upper) {
			return i
		}
	}
	return -1
}

func hasFoldAt[T string | []byte](s T, i int, upper string) bool {
	if i+len(upper) > len(s) {
		return false
	}
	for k := 0; k < len(upper); k++ {
		c := s[i+k]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c != upper[k] {
			return false
		}
	}
	return true
}
