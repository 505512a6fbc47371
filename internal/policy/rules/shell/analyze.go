package shell

import (
	"errors"
	"slices"
	"strings"
)

// analyzer holds the state of one Analyze call.
type analyzer struct {
	env      Env
	root     string // Env.Root, cleaned, with ~ mapped to homeDir
	cwd      string // current directory if known, else ""
	st       *state
	findings []Finding      // structural findings
	raw      []Finding      // raw-pattern findings
	first    *scratch       // storage for the first script parsed
	files    [maxFiles]file // files the command line writes, for when it runs them
	nfiles   int
	memo     memo    // answers of env.Protected and env.Sensitive
	noRaw    bool    // skip the raw patterns (tests of the structural checks)
	fast     bool    // try fastParse before the general parser
	net      bool    // a redirection opens a network socket (/dev/tcp)
	input    *string // the command line's standard input, if given (AnalyzeInput)
	packed   bool    // a protected or secret path was archived, copied or encoded
	upload   bool    // something is sent over the network
	// packs are the operands of archiving and copying commands, checked
	// only if the command line uploads (see transfer); npacks counts them.
	packs  [maxPacks]packWord
	npacks int
	// relMemo keeps answers of rel.
	relMemo relMemo
	// ownTab and secretTab are Env.Own and Env.Secret seen from the
	// current directory (see table).
	ownTab, secretTab relTable
}

// packWord is an operand of an archiving or copying command and the
// directory it was relative to.
type packWord struct{ v, cwd string }

// maxPacks bounds the operands kept for the exfiltration check; beyond it,
// they are checked at once.
const maxPacks = 16

// file is a file written earlier in the command line.
type file struct {
	path    string // as written
	cwd     string // the current directory when it was written
	content string
	known   bool // content is known; otherwise it was downloaded
}

// maxFiles bounds the files remembered.
const maxFiles = 16

// resolve returns p resolved against cwd, if possible.
func (a *analyzer) resolve(p, cwd string) string {
	saved := a.cwd
	a.cwd = cwd
	if r, ok := a.abs(p); ok {
		p = r
	}
	a.cwd = saved
	return p
}

func (a *analyzer) remember(p, content string, known bool) {
	f := file{path: p, cwd: a.cwd, content: content, known: known}
	for i := range a.nfiles {
		if a.files[i].path == p && a.files[i].cwd == a.cwd {
			a.files[i] = f
			return
		}
	}
	if a.nfiles < maxFiles {
		a.files[a.nfiles] = f
		a.nfiles++
	}
}

// runFile analyses running the script file p, if the command line wrote it.
func (a *analyzer) runFile(p string, depth int, lang string) error {
	if a.nfiles == 0 {
		return nil
	}
	p = a.resolve(p, a.cwd)
	for _, f := range a.files[:a.nfiles] {
		if a.resolve(f.path, f.cwd) != p {
			continue
		}
		if !f.known {
			a.add(OpaqueExec, "run downloaded file")
			return nil
		}
		if lang == "sh" {
			return a.text(f.content, depth, nil)
		}
		return a.code(f.content, depth)
	}
	return nil
}

// call is the context of one simple command being analysed.
type call struct {
	s     *Script
	c     *Command
	piped bool     // standard input is a pipe
	feed  *Command // for a command run by xargs: the command feeding xargs
	// items says where the operands xargs appends come from: itemsGiven
	// (none, or computed), itemsUnknown, or itemsTree (every file under
	// the directories given, as find lists them).
	items itemSource
}

// itemSource is where the operands of a command run by xargs come from.
type itemSource uint8

const (
	itemsGiven itemSource = iota
	itemsUnknown
	itemsTree
)

func (a *analyzer) add(k Kind, pattern string) {
	for _, f := range a.findings {
		if f.Kind == k && f.Pattern == pattern {
			return
		}
	}
	a.findings = append(a.findings, Finding{Kind: k, Pattern: pattern})
}

func (a *analyzer) addRaw(k Kind, pattern string) {
	for _, f := range a.raw {
		if f.Kind == k && f.Pattern == pattern {
			return
		}
	}
	for _, f := range a.findings {
		if f.Kind == k && f.Pattern == pattern {
			return
		}
	}
	a.raw = append(a.raw, Finding{Kind: k, Pattern: pattern})
}

// text scans and parses src and analyses the script; depth is the nesting
// of src within the command line and vars holds known parameters. The
// script lives in a scratch that is reused once it has been analysed.
func (a *analyzer) text(src string, depth int, vars map[string]string) error {
	sc := a.first
	a.first = nil
	if sc == nil {
		sc = getScratch()
		defer putScratch(sc)
	}
	if a.fast && depth <= MaxDepth {
		if s, quoted := sc.fastParse(src, a.st); s != nil {
			s.depth = depth
			if quoted {
				a.scan(src)
			} else if !a.noRaw {
				scanRaw(a, src) // a line without quotes is its own normal form
			}
			return a.script(s)
		}
	}
	a.scan(src)
	s, err := parseInto(sc.mem(), src, depth, a.st, vars)
	if err != nil {
		return err
	}
	return a.script(s)
}

// data analyses src that may be a shell script but need not be: parse
// errors other than exhausted limits are ignored.
func (a *analyzer) data(src string, depth int) error {
	err := a.text(src, depth, nil)
	if err != nil && !errors.Is(err, ErrTooLong) {
		return nil
	}
	return err
}

func (a *analyzer) script(s *Script) error {
	for i := range s.Commands {
		if err := a.command(s, &s.Commands[i]); err != nil {
			return err
		}
	}
	for _, sub := range s.Subs {
		if err := a.script(sub); err != nil {
			return err
		}
	}
	for i := range s.Funcs {
		f := &s.Funcs[i]
		if selfSpawning(f.Name, f.Body) {
			a.add(ForkBomb, "fork bomb")
		}
		if err := a.script(f.Body); err != nil {
			return err
		}
	}
	return nil
}

// selfSpawning reports a function body that calls the function twice or in
// a pipe or in the background.
func selfSpawning(name string, body *Script) bool {
	calls := 0
	var walk func(s *Script) bool
	walk = func(s *Script) bool {
		for i := range s.Commands {
			c := &s.Commands[i]
			if len(c.Args) > 0 && c.Args[0].Value == name {
				calls++
				if c.Background || c.Piped || calls > 1 {
					return true
				}
			}
			for _, sub := range c.Subs {
				if walk(sub) {
					return true
				}
			}
		}
		for _, sub := range s.Subs {
			if walk(sub) {
				return true
			}
		}
		return false
	}
	return walk(body)
}

func (a *analyzer) command(s *Script, c *Command) error {
	for _, sub := range c.Subs {
		if err := a.script(sub); err != nil {
			return err
		}
	}
	a.redirects(c)
	for _, as := range c.Assigns {
		if commandVar(as.Name) {
			if err := a.data(strings.TrimPrefix(as.Value.Value, "!"), s.depth+1); err != nil {
				return err
			}
		}
	}
	if len(c.Args) == 0 {
		return nil
	}
	derived := false
	for i := range c.Args {
		derived = derived || c.Args[i].derived
	}
	if derived {
		a.scan(strings.Join(c.Argv(), " "))
	}
	a.secrets(c.Args[1:])
	return a.run(&call{s: s, c: c, piped: c.Piped}, c.Args)
}

func (a *analyzer) redirects(c *Command) {
	for _, r := range c.Redirects {
		t := r.Target.Value
		if strings.HasPrefix(t, "/dev/tcp/") || strings.HasPrefix(t, "/dev/udp/") {
			a.net = true
		}
		switch r.Op {
		case ">", ">>", ">|", "&>", "&>>", "<>", ">&":
			if r.Op == ">&" && (t == "-" || allDigits(t)) {
				continue
			}
			a.written(t, "> /dev/*", "redirect to protected file")
			if (r.Fd < 0 || r.Fd == 1) && len(c.Args) > 0 && !r.Target.Opaque {
				switch cmdName(c.Args[0].Value) {
				case "curl", "wget", "fetch", "aria2c", "nc", "ncat":
					a.remember(t, "", false)
				default:
					if out, ok := foldOutput(c, a.st); ok {
						a.remember(t, out, true)
					}
				}
			}
		}
		switch r.Op {
		case "<", "<>":
			a.secretPath(t)
		case "<<<", "<<", "<<-":
			if len(c.Args) > 0 {
				switch cmdName(c.Args[0].Value) {
				case "cat", "tee", "echo", "printf", "base64", "xxd", "od", "hexdump", "curl", "wget", "nc", "ncat":
					a.secretVars(r.Target.Vars)
				}
			}
		}
	}
}

// written checks a path a command writes to.
func (a *analyzer) written(t, diskLabel, protLabel string) {
	switch {
	case isDisk(t):
		a.add(RawDisk, diskLabel)
	case isSysrq(t):
		a.add(Shutdown, "sysrq-trigger")
	}
	if a.protected(t) {
		a.add(DestroyState, protLabel)
	}
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// cmdName returns the base name of a command word.
func cmdName(v string) string {
	return v[strings.LastIndexByte(v, '/')+1:]
}

// maxHops bounds the wrappers looked through in one command; hopCost is
// what each costs of the work budget, which bounds the commands analysed
// through globs, find -exec and xargs.
const (
	maxHops = 32
	hopCost = 64
)

// run analyses the command args of x, looking through wrappers.
func (a *analyzer) run(x *call, args []Word) error {
	for hop := 0; len(args) > 0 && hop < maxHops; hop++ {
		if err := a.st.charge(hopCost); err != nil {
			return err
		}
		w := args[0]
		name := cmdName(w.Value)
		if w.Opaque {
			a.opaqueCommand(x, args)
			return nil
		}
		if w.Glob && hasGlobMeta(name) {
			return a.globCommand(x, name, args)
		}
		rest, done, err := a.wrapper(x, name, args)
		if err != nil || done {
			return err
		}
		if rest == nil {
			return a.exec(x, name, args)
		}
		args = rest
	}
	return nil
}

// globNames are the commands a glob in command position is tried against.
var globNames = [...]string{
	"rm", "shred", "srm", "wipe", "mv", "dd", "kill", "pkill", "killall", "killall5",
	"shutdown", "reboot", "halt", "poweroff", "init", "telinit", "mkfs", "mkfs.ext4",
	"mkfs.ext3", "mkfs.xfs", "mkfs.vfat", "mkfs.btrfs", "mke2fs", "wipefs", "fdisk",
	"sfdisk", "parted", "sh", "bash", "dash", "zsh", "ksh", "python", "python3", "perl",
	"ruby", "node", "sudo", "env", "find", "xargs", "chmod", "chown", "systemctl",
	"eval", "sqlite3", "truncate", "tee", "cp", "ln", "sed", "printenv", "busybox",
}

// maxGlobNames bounds the commands one glob is analysed as.
const maxGlobNames = 8

func (a *analyzer) globCommand(x *call, pat string, args []Word) error {
	n := 0
	for _, name := range globNames {
		if !globMatch(pat, name) {
			continue
		}
		if n++; n > maxGlobNames {
			break
		}
		next := slices.Clone(args)
		next[0] = Word{Value: name}
		if err := a.run(x, next); err != nil {
			return err
		}
	}
	if n == 0 {
		return a.exec(x, pat, args)
	}
	return nil
}

// opaqueCommand analyses a command whose name is unknown: it might be rm or
// kill, and it is not a known reader.
func (a *analyzer) opaqueCommand(x *call, args []Word) {
	a.remove("rm", args, x.items == itemsTree)
	for _, w := range args[1:] {
		if len(w.Value) > 1 && w.Value[0] == '-' && isKillSignal(w.Value[1:]) {
			a.add(KillProcess, "kill -9")
		}
	}
	if args[0].Subst {
		for _, sub := range x.c.Subs {
			if fetches(sub) {
				a.add(OpaqueExec, "$(…) as command")
			}
		}
	}
	a.protect("", args)
}

// fetches reports a script that downloads something.
func fetches(s *Script) bool {
	for i := range s.Commands {
		if len(s.Commands[i].Args) > 0 {
			switch cmdName(s.Commands[i].Args[0].Value) {
			case "curl", "wget", "nc", "ncat", "socat", "fetch", "http", "aria2c":
				return true
			}
		}
	}
	return false
}

// values returns the values of words joined by spaces.
func values(words []Word) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0].Value
	}
	parts := make([]string, len(words))
	for i, w := range words {
		parts[i] = w.Value
	}
	return strings.Join(parts, " ")
}

func anySubst(words []Word) bool {
	for _, w := range words {
		if w.Subst {
			return true
		}
	}
	return false
}

// feeders returns the commands before x.c in its pipeline, if they are all
// simple commands. The result may share memory with x.s.Commands and must
// not be modified.
func (x *call) feeders() []Command {
	c := x.c
	if c.Position == 0 {
		return nil
	}
	n, last, adjacent := 0, -1, true
	for i := range x.s.Commands {
		d := &x.s.Commands[i]
		if d == c {
			break
		}
		if d.Pipeline == c.Pipeline && d.Position < c.Position {
			adjacent = adjacent && (n == 0 || i == last+1)
			n, last = n+1, i
		}
	}
	if n != c.Position {
		return nil
	}
	if adjacent {
		return x.s.Commands[last+1-n : last+1 : last+1]
	}
	out := make([]Command, 0, n)
	for i := range x.s.Commands[:last+1] {
		if d := &x.s.Commands[i]; d.Pipeline == c.Pipeline && d.Position < c.Position {
			out = append(out, *d)
		}
	}
	return out
}

// stdin returns the computable data on x's standard input, if any.
func (a *analyzer) stdin(x *call) (string, bool) {
	for _, r := range x.c.Redirects {
		if (r.Op == "<<<" || r.Op == "<<" || r.Op == "<<-") && !r.Target.Opaque {
			if r.Op == "<<<" {
				return r.Target.Value + "\n", true
			}
			return r.Target.Value, true
		}
	}
	if !x.piped {
		return a.given(x)
	}
	f := x.feeders()
	if f == nil {
		return "", false
	}
	return foldCommands(f, a.st)
}

// given returns the command line's standard input (AnalyzeInput) if x
// reads it: x is at the top level, first in its pipeline, and does not
// redirect its standard input. Here-documents and here-strings are read
// by the caller first.
func (a *analyzer) given(x *call) (string, bool) {
	if a.input == nil || x.piped || x.s.depth != 0 {
		return "", false
	}
	for _, r := range x.c.Redirects {
		switch r.Op {
		case "<", "<>", "<&":
			if r.Fd <= 0 {
				return "", false
			}
		}
	}
	return *a.input, true
}

// stdinScript handles an interpreter that reads its program from standard
// input: lang is "sh" or an interpreter family.
func (a *analyzer) stdinScript(x *call, lang string) error {
	for _, r := range x.c.Redirects {
		switch r.Op {
		case "<<<", "<<", "<<-":
			if r.Target.Subst {
				a.add(OpaqueExec, lang+" <<< $(…)")
			}
			if lang == "sh" {
				return a.text(r.Target.Value, x.s.depth+1, nil)
			}
			return a.code(r.Target.Value, x.s.depth+1)
		case "<":
			if r.Target.Subst {
				a.add(OpaqueExec, lang+" <(…)")
			}
			return nil
		}
	}
	if a.net {
		a.add(OpaqueExec, lang+" /dev/tcp")
	}
	if in, ok := a.given(x); ok {
		if lang == "sh" {
			return a.text(in, x.s.depth+1, nil)
		}
		return a.code(in, x.s.depth+1)
	}
	if !x.piped {
		return nil
	}
	if lang == "sh" {
		a.add(OpaqueExec, "| sh") // the common case, without allocating
	} else {
		a.add(OpaqueExec, "| "+lang)
	}
	f := x.feeders()
	if f == nil {
		return nil
	}
	if src, ok := foldCommands(f, a.st); ok {
		if lang == "sh" {
			return a.data(src, x.s.depth+1)
		}
		return a.code(src, x.s.depth+1)
	}
	return nil
}

// exec analyses a command that is not a wrapper: a script it runs by path,
// the files it transfers, the command itself by name (a shell or another
// interpreter, or one of the commands checked below), and last the hosts
// it reaches and the protected files it names.
func (a *analyzer) exec(x *call, name string, args []Word) error {
	depth := x.s.depth + 1
	if strings.IndexByte(args[0].Value, '/') >= 0 {
		if err := a.runFile(args[0].Value, depth, "sh"); err != nil {
			return err
		}
	}
	a.transfer(x, name, args)
	if name == "git" {
		a.gitClean(args)
	}
	if lang := interpreter(name); lang != "" {
		if lang == "sh" {
			return a.shell(x, args)
		}
		return a.interp(x, lang, args)
	}
	if done, err := a.byName(x, name, args, depth); done || err != nil {
		return err
	}
	if err := a.hosted(name, args, depth); err != nil {
		return err
	}
	a.protect(name, args)
	return nil
}

// byName analyses a command by its name. It reports done when nothing is
// left to check: the command's hosts and protected files are either
// checked here or not checked at all.
func (a *analyzer) byName(x *call, name string, args []Word, depth int) (done bool, err error) {
	switch name {
	case "eval":
		return false, a.eval(args, depth)
	case "source", ".":
		return false, a.source(x, args, depth)
	case "trap":
		return false, a.trap(args, depth)
	case "alias":
		return false, a.alias(args, depth)
	case "find":
		return false, a.find(x, args)
	case "rm", "srm", "wipe", "shred":
		a.remove(name, args, x.items == itemsTree)
		if x.items == itemsUnknown && hasRecursive(args) {
			a.add(DestroyFiles, "xargs rm -r")
		}
	case "mv":
		a.move(args)
	case "cp", "install", "scp", "ln", "rsync":
		a.copy(name, args)
		return true, a.hosted(name, args, depth)
	case "dd":
		a.ddOutput(args)
		return true, nil
	case "tee":
		a.tee(args)
		return true, nil
	case "chmod", "chown", "chgrp", "chattr", "setfacl":
		a.perms(name, args)
	case "kill":
		a.kill(x, args)
	case "pkill", "killall", "skill", "snice":
		a.pkill(name, args)
	case "killall5":
		a.add(KillProcess, "killall5")
	case "systemctl", "service", "supervisorctl", "pm2", "loginctl", "rc-service":
		a.services(name, args)
	case "shutdown", "reboot", "halt", "poweroff", "openrc-shutdown":
		a.add(Shutdown, name)
	case "init", "telinit":
		a.runlevel(name, args)
	case "nc", "ncat", "netcat", "nc.traditional", "nc.openbsd":
		a.netcat(args)
	case "socat":
		a.socat(args)
	case "curl", "wget":
		a.downloads(name, args)
	case "kexec":
		if hasFlag(args, 'e', "--exec") {
			a.add(Shutdown, "kexec")
		}
	case "cd", "pushd":
		a.chdir(args)
		return true, nil
	case "echo", "printf", "print", "say":
		for _, w := range args[1:] {
			a.secretVars(w.Vars)
		}
	case "printenv":
		a.printenv(args)
	case "export", "declare", "typeset", "readonly":
		if len(args) == 1 || hasFlag(args, 'p', "") && len(operands(args, "", nil)) == 0 {
			a.add(ReadSecrets, "env dump")
		}
		return true, nil
	case "set", "compgen":
		if len(args) == 1 || name == "compgen" && (hasFlag(args, 'e', "") || hasFlag(args, 'v', "")) {
			a.add(ReadSecrets, "env dump")
		}
		return true, nil
	case "gpg", "gpg2":
		a.gpg(args)
	case "ps":
		a.psEnv(args)
	case "sqlite3", "sqlite", "duckdb", "psql", "mysql", "mariadb", "clickhouse-client", "sqlcmd", "cockroach":
		return false, a.sqlClient(x, name, args)
	default:
		a.disk(name, args)
	}
	return false, nil
}

// eval analyses the text eval runs.
func (a *analyzer) eval(args []Word, depth int) error {
	if anySubst(args[1:]) {
		a.add(OpaqueExec, "eval $(…)")
	}
	return a.text(values(args[1:]), depth, nil)
}

// source analyses the script source and . run, from a file or stdin.
func (a *analyzer) source(x *call, args []Word, depth int) error {
	if len(args) < 2 {
		return nil
	}
	v := args[1].Value
	if args[1].Subst && strings.HasPrefix(v, "<(") {
		a.add(OpaqueExec, "source <(…)")
	}
	if isStdinPath(v) {
		return a.stdinScript(x, "sh")
	}
	return a.runFile(v, depth, "sh")
}

// trap analyses the text a trap runs.
func (a *analyzer) trap(args []Word, depth int) error {
	if len(args) > 2 && !strings.HasPrefix(args[1].Value, "-") {
		return a.text(args[1].Value, depth, nil)
	}
	return nil
}

// alias analyses the text of the aliases defined, as data.
func (a *analyzer) alias(args []Word, depth int) error {
	for _, w := range args[1:] {
		if _, v, ok := strings.Cut(w.Value, "="); ok {
			if err := a.data(v, depth); err != nil {
				return err
			}
		}
	}
	return nil
}

// ddOutput checks the file dd writes.
func (a *analyzer) ddOutput(args []Word) {
	for _, w := range args[1:] {
		if v, ok := strings.CutPrefix(w.Value, "of="); ok {
			a.written(v, "dd of=/dev/*", "dd of=protected file")
		}
	}
}

// tee checks the files tee writes.
func (a *analyzer) tee(args []Word) {
	for _, w := range operands(args, "", nil) {
		a.written(w.Value, "tee /dev/*", "tee protected file")
	}
}

// runlevel flags init and telinit switching to a runlevel that halts,
// reboots or leaves multi-user mode.
func (a *analyzer) runlevel(name string, args []Word) {
	for _, w := range args[1:] {
		switch w.Value {
		case "0", "6", "1", "s", "S":
			a.add(Shutdown, name+" "+w.Value)
		}
	}
}

// netcat flags nc running a program.
func (a *analyzer) netcat(args []Word) {
	if _, ok := optValue(args, 'e', "--exec"); ok {
		a.add(OpaqueExec, "nc -e")
	} else if _, ok := optValue(args, 'c', "--sh-exec"); ok {
		a.add(OpaqueExec, "nc -e")
	}
}

// socat flags socat running a program.
func (a *analyzer) socat(args []Word) {
	for _, w := range args[1:] {
		if hasFoldAt(w.Value, 0, "EXEC:") || hasFoldAt(w.Value, 0, "SYSTEM:") || strings.Contains(w.Value, ",EXEC:") {
			a.add(OpaqueExec, "socat exec")
		}
	}
}

// printenv flags printing the whole environment or a secret variable.
func (a *analyzer) printenv(args []Word) {
	ops := operands(args, "", nil)
	if len(ops) == 0 {
		a.add(ReadSecrets, "env dump")
	}
	for _, w := range ops {
		if secretName(w.Value) {
			a.add(ReadSecrets, "print secret variable")
		}
	}
}

// gpg flags exporting secret keys.
func (a *analyzer) gpg(args []Word) {
	for _, w := range args[1:] {
		if strings.HasPrefix(w.Value, "--export-secret") {
			a.add(ReadSecrets, "gpg --export-secret-keys")
		}
	}
}

// psEnv flags ps printing the environment of processes (BSD-style e).
func (a *analyzer) psEnv(args []Word) {
	for _, w := range args[1:] {
		if v := w.Value; v != "" && v[0] != '-' && strings.IndexByte(v, 'e') >= 0 && strings.Trim(v, "auxewfjlrTvhcmnSs") == "" {
			a.add(ReadSecrets, "ps e")
		}
	}
}

// downloads remembers the files curl and wget save.
func (a *analyzer) downloads(name string, args []Word) {
	short, long := "o", "--output"
	if name == "wget" {
		short, long = "O", "--output-document"
	}
	if w, ok := optValue(args, short[0], long); ok {
		a.remember(w.Value, "", false)
		return
	}
	if name == "curl" && !hasFlag(args, 'O', "--remote-name") {
		return
	}
	for _, w := range args[1:] {
		if i := strings.Index(w.Value, "://"); i > 0 {
			u := w.Value[i+3:]
			if j := strings.IndexAny(u, "?#"); j >= 0 {
				u = u[:j]
			}
			if j := strings.LastIndexByte(u, '/'); j >= 0 && j+1 < len(u) {
				a.remember(u[j+1:], "", false)
			}
		}
	}
}

func isStdinPath(v string) bool {
	switch v {
	case "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "-":
		return true
	}
	return false
}

// interpreter returns "sh" for shells, the family name for other
// interpreters whose inline code is scanned, or "".
func interpreter(name string) string {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "yash", "posh", "fish", "csh", "tcsh", "rbash", "lksh", "pdksh", "oksh", "ksh93":
		return "sh"
	case "node", "nodejs", "bun", "deno":
		return "node"
	case "awk", "gawk", "mawk", "nawk":
		return "awk"
	case "Rscript", "osascript", "lua", "luajit", "tclsh", "pwsh":
		return name
	}
	if name == "" || strings.IndexByte("pPrl", name[0]) < 0 {
		return ""
	}
	for _, fam := range [...]string{"python", "pypy", "perl", "ruby", "php", "lua"} {
		if rest, ok := strings.CutPrefix(name, fam); ok && isVersion(rest) {
			if fam == "pypy" {
				return "python"
			}
			return fam
		}
	}
	return ""
}

// isVersion reports a string of digits and dots, such as "3.12" or "".
func isVersion(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) && s[i] != '.' {
			return false
		}
	}
	return true
}

// shell analyses sh, bash and friends.
func (a *analyzer) shell(x *call, args []Word) error {
	i := 1
	cflag, stdin := false, false
	for i < len(args) {
		v := args[i].Value
		if v == "--" || v == "-" {
			stdin = stdin || v == "-"
			i++
			break
		}
		if len(v) < 2 || (v[0] != '-' && v[0] != '+') {
			break
		}
		i++
		if v[1] == '-' {
			switch v {
			case "--rcfile", "--init-file":
				i++
			case "--command":
				cflag = true
			}
			continue
		}
		for _, c := range v[1:] {
			switch c {
			case 'c':
				cflag = true
			case 's':
				stdin = true
			case 'o', 'O':
				i++
			}
		}
	}
	depth := x.s.depth + 1
	if cflag {
		if i >= len(args) {
			return nil
		}
		script := args[i]
		if script.Subst {
			a.add(OpaqueExec, "sh -c $(…)")
		}
		return a.text(script.Value, depth, positional(args[i+1:]))
	}
	if !stdin && i < len(args) {
		f := args[i]
		if f.Subst && strings.HasPrefix(f.Value, "<(") {
			a.add(OpaqueExec, "sh <(…)")
			return nil
		}
		if !isStdinPath(f.Value) {
			return a.runFile(f.Value, depth, "sh")
		}
	}
	return a.stdinScript(x, "sh")
}

// positional returns $0, $1, ... for sh -c.
func positional(args []Word) map[string]string {
	if len(args) == 0 {
		return nil
	}
	m := make(map[string]string, len(args)+2)
	for i, w := range args {
		if !w.Opaque && i < 10 {
			m[string(rune('0'+i))] = w.Value
		}
	}
	if len(args) > 1 {
		m["@"] = values(args[1:])
		m["*"] = m["@"]
	}
	return m
}

// interp analyses python, perl, ruby, node, php, awk and similar: it reads
// the options for what the interpreter runs, then analyses the inline code,
// or the script it runs from a file or stdin, and the protected files its
// arguments name.
func (a *analyzer) interp(x *call, lang string, args []Word) error {
	var buf [2]string
	run := a.interpArgs(lang, args, buf[:0])
	depth := x.s.depth + 1
	if len(run.codes) == 0 && !run.module && !run.file {
		if i := run.next; i >= len(args) || isStdinPath(args[i].Value) {
			if err := a.stdinScript(x, lang); err != nil {
				return err
			}
		} else if err := a.runFile(args[i].Value, depth, lang); err != nil {
			return err
		}
	}
	for _, code := range run.codes {
		if err := a.code(code, depth); err != nil {
			return err
		}
	}
	if lang != "awk" {
		a.protect(lang, args)
	}
	return nil
}

// interpRun is what an interpreter's arguments say it runs: inline code,
// a module, a program file, or else the script named at args[next] or
// read from stdin.
type interpRun struct {
	codes        []string
	next         int
	file, module bool
}

// interpArgs reads an interpreter's options, appending the inline code
// they give to codes. It flags awk -i inplace, which rewrites the files
// named.
func (a *analyzer) interpArgs(lang string, args []Word, codes []string) interpRun {
	run := interpRun{codes: codes, next: 1}
	if lang == "node" && cmdName(args[0].Value) == "deno" {
		if len(args) > 2 && args[1].Value == "eval" {
			run.codes = append(run.codes, args[2].Value)
		}
		run.next, run.file = len(args), true
		return run
	}
	codeOpt, argOpt := interpOptions(lang)
	i := 1
opts:
	for i < len(args) {
		v := args[i].Value
		if v == "--" {
			i++
			break
		}
		if v == "-" {
			break
		}
		if len(v) < 2 || v[0] != '-' {
			break
		}
		i++
		if v[1] == '-' {
			name, val, hasVal := strings.Cut(v, "=")
			if isLongCodeOption(lang, name) {
				if hasVal {
					run.codes = append(run.codes, val)
				} else if i < len(args) {
					run.codes = append(run.codes, args[i].Value)
					i++
				}
				if lang == "python" {
					break opts
				}
			}
			continue
		}
		for k := 1; k < len(v); k++ {
			c := v[k]
			attached := v[k+1:]
			switch {
			case strings.IndexByte(codeOpt, c) >= 0:
				if attached != "" {
					run.codes = append(run.codes, attached)
				} else if i < len(args) {
					run.codes = append(run.codes, args[i].Value)
					i++
				}
				if lang == "python" {
					break opts
				}
				continue opts
			case strings.IndexByte(argOpt, c) >= 0:
				if c == 'm' && lang == "python" {
					run.module = true
				}
				if c == 'f' && (lang == "awk" || lang == "php") {
					run.file = true
				}
				if attached == "" && !(lang == "perl" || lang == "ruby") {
					i++
				}
				if c == 'i' && lang == "awk" && attached == "" && i-1 < len(args) && args[i-1].Value == "inplace" {
					a.protectAll("", "awk", args)
				}
				if lang == "python" && c == 'm' {
					break opts
				}
				continue opts
			}
		}
	}
	if lang == "awk" && len(run.codes) == 0 && !run.file && i < len(args) {
		run.codes = append(run.codes, args[i].Value)
		run.file = true
	}
	run.next = i
	return run
}

// interpOptions returns an interpreter's short options whose value is
// inline code (codeOpt) and those that take another value (argOpt).
func interpOptions(lang string) (codeOpt, argOpt string) {
	switch lang {
	case "python":
		return "c", "mWXQ"
	case "perl":
		return "eE", "IMmxdDC0lFi"
	case "ruby":
		return "e", "rICxiEKTW"
	case "node":
		return "ep", "rC"
	case "php":
		return "rBRE", "fdcz"
	case "awk":
		return "e", "fvFi"
	}
	return "e", ""
}

// isLongCodeOption reports a long option whose value is inline code.
func isLongCodeOption(lang, name string) bool {
	switch lang {
	case "node":
		return name == "--eval" || name == "--print"
	case "awk":
		return name == "--source"
	}
	return false
}
