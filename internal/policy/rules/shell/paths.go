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
		return path.Clean(v), true
	}
	if a.cwd == "" {
		return "", false
	}
	return path.Join(a.cwd, v), true
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
	for _, d := range sysDirs {
		if p == d {
			return d, true
		}
	}
	if a.root != "" && (p == a.root || strings.HasPrefix(a.root, p+"/")) {
		return "agent root", true
	}
	if path.Dir(p) == "/home" {
		return "/home", true
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
	rest, ok := strings.CutPrefix(path.Clean(p), "/dev/")
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

func isSysrq(p string) bool { return path.Clean(p) == "/proc/sysrq-trigger" }

func isProcEnviron(p string) bool {
	return strings.HasPrefix(p, "/proc/") && strings.HasSuffix(p, "/environ")
}

// pathsIn calls f with the strings in v that may name a file: v itself,
// the value of --opt=value, the part after = or @, and the parts around a
// colon. It reports whether f returned true.
func pathsIn(v string, f func(string) bool) bool {
	if v == "" || hasBlank(v) {
		return false
	}
	if v[0] == '-' {
		i := strings.IndexByte(v, '=')
		if i < 0 {
			return false
		}
		v = v[i+1:]
	}
	if i := strings.Index(v, "://"); i >= 0 {
		if !strings.HasPrefix(v, "file://") {
			return false
		}
		v = v[len("file://"):]
	}
	try := func(s string) bool {
		for s != "" && (s[0] == '@' || s[0] == '<') {
			s = s[1:]
		}
		return s != "" && f(s)
	}
	if try(v) {
		return true
	}
	if i := strings.IndexByte(v, '='); i >= 0 && try(v[i+1:]) {
		return true
	}
	if i := strings.IndexByte(v, '@'); i > 0 && try(v[i+1:]) {
		return true
	}
	if i := strings.IndexByte(v, ':'); i > 0 {
		if try(v[:i]) {
			return true
		}
		if j := strings.LastIndexByte(v, ':'); try(v[j+1:]) {
			return true
		}
	}
	return false
}

// hasBlank reports a space, tab or newline in s.
func hasBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		if isIFS(s[i]) {
			return true
		}
	}
	return false
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

// probe reports whether the glob v matches a probe name for which f is
// true. With all false, a glob that matches every name is not probed.
func probe(v string, all bool, f func(string) bool) bool {
	if !hasGlobMeta(v) || hasBlank(v) {
		return false
	}
	dir, base := path.Split(v)
	if base == "" || !all && matchAll(base) {
		return false
	}
	for _, n := range probeNames {
		if n[0] == '.' && base[0] != '.' {
			continue
		}
		if ok, err := path.Match(base, n); err == nil && ok && f(dir+n) {
			return true
		}
	}
	return false
}

// protected reports whether v names a protected file.
func (a *analyzer) protected(v string) bool {
	if a.env.Protected == nil {
		return false
	}
	return pathsIn(v, a.env.Protected) || probe(v, true, a.env.Protected)
}

// secretPath reports v if it names a sensitive file.
func (a *analyzer) secretPath(v string) {
	if pathsIn(v, isProcEnviron) {
		a.add(ReadSecrets, "/proc/*/environ")
	}
	if a.env.Sensitive != nil && (pathsIn(v, a.env.Sensitive) || probe(v, false, a.env.Sensitive)) {
		a.add(ReadSecrets, "sensitive file")
	}
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
