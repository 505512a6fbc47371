package shell

import (
	"strings"
)

// The seed's forbidden patterns, matched by hand rather than with regexp so
// that a benign command costs one pass over its bytes:
//
//	/rm\s+-rf\s+\//        DestroyFiles "rm -rf /" (only / as a whole word, see below)
//	/DROP\s+TABLE/i        SQLDrop "DROP TABLE" (also DATABASE, SCHEMA; TRUNCATE TABLE)
//	/kill\s+-9/            KillProcess "kill -9"
//	/shutdown/i, /reboot/i Shutdown (as words)
//	/mkfs/                 RawDisk "mkfs"
//	/dd\s+if=.*of=\/dev/   RawDisk "dd of=/dev/*" (not /dev/null and other pseudo-devices)
//	/>\s*\/dev\/(sda|hda|nvme)/ RawDisk "> /dev/*"
//
// Two are narrowed so that common benign commands pass: "rm -rf /" requires
// the slash to end the word (the seed's pattern also denied rm -rf /tmp/x),
// and dd's target must be a disk. shutdown and reboot must be whole words
// (so graceful_shutdown passes) but are otherwise denied anywhere, even in
// `echo reboot`, because too many wrappers run words as commands.

// scan matches the raw patterns against s and its normalised form.
func (a *analyzer) scan(s string) {
	if a.noRaw {
		return
	}
	scanRaw(a, s)
	if !needsNormal(s) {
		return
	}
	var buf [256]byte
	scanRaw(a, normalize(buf[:0], s))
}

// needsNormal reports whether normalize changes s: whether s has quotes,
// backslashes, $IFS or ${IFS}. If it does not, the normalised form has
// nothing new to match.
func needsNormal(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'', '"', '\\':
			return true
		case '$':
			if hasAt(s, i, "$IFS") || hasAt(s, i, "${IFS}") {
				return true
			}
		}
	}
	return false
}

// normalBytes are the bytes normalize may change.
var normalBytes = [256]bool{'\'': true, '"': true, '\\': true, '$': true}

// normalize removes quotes and backslashes and turns $IFS and ${IFS} into
// a space.
func normalize(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		j := i
		for j < len(s) && !normalBytes[s[j]] {
			j++
		}
		dst = append(dst, s[i:j]...)
		if i = j; i == len(s) {
			break
		}
		c := s[i]
		switch c {
		case '\'', '"', '\\':
			continue
		case '$':
			if strings.HasPrefix(s[i:], "${IFS}") {
				dst = append(dst, ' ')
				i += 5
				continue
			}
			if strings.HasPrefix(s[i:], "$IFS") {
				dst = append(dst, ' ')
				i += 3
				continue
			}
		}
		dst = append(dst, c)
	}
	return dst
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func isWordByte(c byte) bool { return isNameChar(c) }

// skipSpace returns the index after the whitespace at s[i:], and whether
// there was any.
func skipSpace[T string | []byte](s T, i int) (int, bool) {
	j := i
	for j < len(s) && isSpace(s[j]) {
		j++
	}
	return j, j > i
}

func hasAt[T string | []byte](s T, i int, lit string) bool {
	if i+len(lit) > len(s) {
		return false
	}
	for k := 0; k < len(lit); k++ {
		if s[i+k] != lit[k] {
			return false
		}
	}
	return true
}

// wordAt reports an upper-case ASCII word at s[i:] bounded by non-word bytes.
func wordAt[T string | []byte](s T, i int, upper string) bool {
	if !hasFoldAt(s, i, upper) {
		return false
	}
	if i > 0 && isWordByte(s[i-1]) {
		return false
	}
	j := i + len(upper)
	return j == len(s) || !isWordByte(s[j])
}

// rawLeads are the bytes that may start a raw pattern.
var rawLeads = [256]bool{
	'r': true, 'R': true, 's': true, 'S': true, 'd': true, 'D': true, 'k': true, 'K': true,
	'm': true, 'M': true, 't': true, 'T': true, '>': true,
}

// rawStart reports whether a raw pattern may start with the bytes c, next:
// a quick test that spares the full comparisons at most bytes.
func rawStart(c, next byte) bool {
	switch c | 0x20 {
	case 'r':
		return next == 'm' || next|0x20 == 'e'
	case 's':
		return next|0x20 == 'h'
	case 'd':
		return next|0x20 == 'r' || next == 'd'
	case 'k':
		return next == 'i'
	case 'm':
		return next == 'k'
	case 't':
		return next|0x20 == 'r'
	}
	return c == '>'
}

func scanRaw[T string | []byte](a *analyzer, s T) {
	// Every pattern is at least two bytes long.
	for i := 0; i+1 < len(s); i++ {
		if !rawLeads[s[i]] || !rawStart(s[i], s[i+1]) {
			continue
		}
		switch s[i] | 0x20 {
		case 'r':
			if hasAt(s, i, "rm") {
				if j, ok := skipSpace(s, i+2); ok && hasAt(s, j, "-rf") {
					if k, ok := skipSpace(s, j+3); ok && k < len(s) && s[k] == '/' && rootEnd(s, k+1) {
						a.addRaw(DestroyFiles, "rm -rf /")
					}
				}
			}
			if wordAt(s, i, "REBOOT") {
				a.addRaw(Shutdown, "reboot")
			}
		case 's':
			if wordAt(s, i, "SHUTDOWN") {
				a.addRaw(Shutdown, "shutdown")
			}
		case 'd':
			if hasFoldAt(s, i, "DROP") {
				if j, ok := skipSpace(s, i+4); ok {
					for _, w := range [...]struct{ word, pattern string }{
						{"TABLE", "DROP TABLE"}, {"DATABASE", "DROP DATABASE"}, {"SCHEMA", "DROP SCHEMA"},
					} {
						if hasFoldAt(s, j, w.word) {
							a.addRaw(SQLDrop, w.pattern)
						}
					}
				}
			}
			if hasAt(s, i, "dd") {
				if j, ok := skipSpace(s, i+2); ok && hasAt(s, j, "if=") {
					for k := j + 3; k < len(s) && s[k] != '\n'; k++ {
						if s[k] == 'o' && hasAt(s, k, "of=/dev/") && isDisk(string(s[k+3:tokenEnd(s, k+3)])) {
							a.addRaw(RawDisk, "dd of=/dev/*")
							break
						}
					}
				}
			}
		case 'k':
			if hasAt(s, i, "kill") {
				if j, ok := skipSpace(s, i+4); ok && hasAt(s, j, "-9") {
					a.addRaw(KillProcess, "kill -9")
				}
			}
		case 'm':
			if hasAt(s, i, "mkfs") {
				a.addRaw(RawDisk, "mkfs")
			}
		case 't':
			if hasFoldAt(s, i, "TRUNCATE") {
				if j, ok := skipSpace(s, i+8); ok && hasFoldAt(s, j, "TABLE") {
					a.addRaw(SQLDrop, "TRUNCATE TABLE")
				}
			}
		case '>':
			if s[i] != '>' {
				continue
			}
			j, _ := skipSpace(s, i+1)
			if hasAt(s, j, "/dev/") && (hasAt(s, j+5, "sda") || hasAt(s, j+5, "hda") || hasAt(s, j+5, "nvme")) {
				a.addRaw(RawDisk, "> /dev/*")
			}
		}
	}
}

// rootEnd reports whether the path "/" ends at s[i:]: the word ends, or
// only globs, dots and slashes follow.
func rootEnd[T string | []byte](s T, i int) bool {
	for ; i < len(s); i++ {
		switch c := s[i]; c {
		case '*', '.', '/':
		case ' ', '\t', '\n', '\r', ';', '&', '|', ')', '\'', '"', '`', '}':
			return true
		default:
			return false
		}
	}
	return true
}

func tokenEnd[T string | []byte](s T, i int) int {
	for i < len(s) && !isSpace(s[i]) && s[i] != ';' && s[i] != '&' && s[i] != '|' && s[i] != '\'' && s[i] != '"' && s[i] != ')' {
		i++
	}
	return i
}

// maxLiterals bounds the string literals taken from one piece of code.
const maxLiterals = 256

// code analyses inline code for an interpreter (python -c, perl -e, node -e,
// awk programs...): the raw patterns over the code, and its string literals,
// which are run as shell commands when the code calls system() or the like.
func (a *analyzer) code(src string, depth int) error {
	if err := a.st.charge(len(src)); err != nil {
		return err
	}
	a.scan(src)
	lits, groups, shellLits := literals(src)
	execs := containsAny(src, execTokens[:])
	for _, g := range groups {
		a.scan(g)
		if execs {
			if err := a.data(g, depth); err != nil {
				return err
			}
		}
		if !strings.ContainsAny(g, " \t\n") {
			a.codePath(src, g) // a path built by concatenation: 'ward' + '-data'
		}
	}
	sqlExec := containsAny(src, sqlTokens[:])
	for _, l := range lits {
		a.scan(l)
		if strings.ContainsAny(l, " \t\n") {
			if sqlExec {
				if err := a.sql(l, depth); err != nil {
					return err
				}
			}
			if execs {
				if err := a.data(l, depth); err != nil {
					return err
				}
			}
			continue
		}
		a.codePath(src, l)
		if execs {
			if err := a.data(l, depth); err != nil {
				return err
			}
		}
		if containsAny(src, envTokens[:]) && secretName(l) {
			a.add(ReadSecrets, "print secret variable")
		}
	}
	for _, l := range shellLits {
		if err := a.data(l, depth); err != nil {
			return err
		}
	}
	if containsAny(src, evalTokens[:]) && containsAny(src, decodeTokens[:]) {
		a.add(OpaqueExec, "exec of decoded code")
	}
	if containsAny(src, []string{"SIGKILL", "kill 9", "kill(9", "kill -9", "Signal::KILL"}) || strings.Contains(src, "KILL") && strings.Contains(src, "kill") {
		a.add(KillProcess, "kill -9")
	}
	if strings.Contains(src, "fork") && containsAny(src, []string{"while", "for(;;)", "for (;;)", "loop", "until"}) {
		a.add(ForkBomb, "fork loop")
	}
	if containsAny(src, envDumpTokens[:]) {
		a.add(ReadSecrets, "env dump")
	}
	if containsAny(src, deleteTokens[:]) && containsAny(src, listTokens[:]) {
		a.add(DestroyFiles, "inline code deleting listed files")
	}
	if containsAny(src, netTokens[:]) {
		a.upload = true
	}
	return nil
}

var (
	execTokens   = [...]string{"system", "popen", "subprocess", "exec", "spawn", "call(", "run(", "check_output", "getoutput", "shell_exec", "passthru", "proc_open", "child_process", "Popen", "Open3", "qx", "%x", "getline", "| \"", "|\"", "pty", "Process", "Runtime", "do shell script"}
	writeTokens  = [...]string{"write", "unlink", "remove", "rmtree", "truncate", "rename", "replace", "delete", "chmod", "chown", "sqlite", "connect", "execute", "rmSync", "move", "copy", "'w", "\"w", "'a", "\"a", "'r+", "\"r+", ">", "Write", "Remove", "Delete", "Truncate", "Rename"}
	rmtreeTokens = [...]string{"rmtree", "rm_rf", "rm_r", "rmSync", "rmdirSync", "remove_dir_all", "rimraf", "recursive", "RemoveAll", "remove_tree", "rmdir"}
	evalTokens   = [...]string{"exec(", "eval(", "eval ", "Function(", "compile(", "system(", "popen(", "spawn("}
	decodeTokens = [...]string{"b64decode", "base64", "fromCharCode", "atob(", "unhexlify", "fromhex", "urlopen", "requests.get", "fetch(", "zlib", "marshal", "chr(", "decode('rot", "decode(\"rot", "pack(", "reverse"}
	envTokens    = [...]string{"environ", "getenv", "process.env", "ENV", "$_ENV", "os.Getenv"}
	// deleteTokens delete a file or a tree; listTokens list a directory:
	// code doing both deletes what it lists.
	deleteTokens = [...]string{"os.remove", "unlink", "rmtree", "rmSync", "rmdirSync", "rm_rf", "rm_r", ".rm(", "FileUtils.rm", "RemoveAll", "remove_file", "remove_dir_all", "remove_tree", "rimraf", "File.delete", "Files.delete", "delete_file", "os.Remove", "send2trash"}
	listTokens   = [...]string{"listdir", "scandir", "walk", "glob", "readdir", "Dir.", "Dir[", "opendir", "iterdir", "ReadDir", "Find.find"}
	// netTokens send data over the network.
	netTokens = [...]string{"requests.post", "requests.put", "urlopen", "urllib.request", "http.client", "httpx.", "fetch(", "axios", "XMLHttpRequest", "socket", "Net::HTTP", "LWP::", "HTTP::Tiny", "IO::Socket", "curl_exec", "ftplib", "smtplib", "paramiko", "http.request", "https.request", "net.Dial"}
	// sqlTokens run SQL.
	sqlTokens     = [...]string{"execute", "executescript", "query(", "exec(", ".run(", "sqlite", "psycopg", "mysql", "cursor", "prepare("}
	envDumpTokens = [...]string{"os.environ)", "os.environ,", "environ.items", "environ.copy", "dict(os.environ", "process.env)", "process.env,", "ENV.to_h", "ENV.each", "ENV.inspect", "%ENV", "printenv", "getenv()", "$_ENV)", "$_SERVER"}
)

// codePath checks a string literal of inline code src that may be a path:
// read, written, deleted as a tree, or packed for an upload.
func (a *analyzer) codePath(src, l string) {
	a.secretPath(l)
	if a.protected(l) && containsAny(src, writeTokens[:]) {
		a.add(DestroyState, "inline code on protected file")
	}
	a.pack(l)
	if containsAny(src, rmtreeTokens[:]) {
		w := Word{Value: l, Glob: strings.ContainsAny(l, "*?")}
		if cls, ok := a.dangerTarget(w); ok {
			a.add(DestroyFiles, "rmtree "+cls)
		} else if a.ownTree(w) {
			a.add(DestroyState, "inline code on protected file")
		}
	}
}

func containsAny(s string, toks []string) bool {
	for _, t := range toks {
		if strings.Contains(s, t) {
			return true
		}
	}
	return false
}

// literals extracts the string literals of code in Python, Perl, Ruby,
// JavaScript, PHP or awk, decoding common escapes. It also returns groups:
// adjacent literals joined by +, . or nothing are concatenated and literals
// in a list (separated by commas) are joined with spaces, so that
// ["rm", "-rf", "/"] and "r" + "m -rf /" both read as a command. Backquoted
// literals are returned as shell: in Perl, Ruby and PHP they run a command.
func literals(code string) (lits, groups, shell []string) {
	var cur []byte
	parts := 0
	sep := ""
	gapStart := 0
	flush := func() {
		if parts > 1 && len(groups) < maxLiterals {
			groups = append(groups, string(cur))
		}
		cur, parts = cur[:0], 0
	}
	for i := 0; i < len(code); {
		c := code[i]
		if c != '\'' && c != '"' && c != '`' {
			i++
			continue
		}
		switch gap := strings.TrimSpace(code[gapStart:i]); gap {
		case "+", ".", "":
			sep = ""
		case ",":
			sep = " "
		default:
			flush()
		}
		q := code[i : i+1]
		if strings.HasPrefix(code[i:], q+q+q) {
			q = q + q + q
		}
		j := i + len(q)
		var lit []byte
		for j < len(code) && !strings.HasPrefix(code[j:], q) {
			if code[j] == '\\' && j+1 < len(code) {
				var n int
				lit, n = unescapeOne(lit, code[j+1:], escANSI)
				j += 1 + max(n, 0)
				continue
			}
			lit = append(lit, code[j])
			j++
		}
		if c == '`' {
			flush()
			if len(shell) < maxLiterals {
				shell = append(shell, string(lit))
			}
		} else {
			if parts > 0 {
				cur = append(cur, sep...)
			}
			cur = append(cur, lit...)
			parts++
			if len(lits) < maxLiterals {
				lits = append(lits, string(lit))
			}
		}
		i = min(j+len(q), len(code))
		gapStart = i
	}
	flush()
	return lits, groups, shell
}
