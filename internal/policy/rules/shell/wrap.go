package shell

import (
	"slices"
	"strings"
)

// wrapOpts describes a command that runs another command given after its
// options: withArg are the short options that take a value, long the long
// options that take a value when not written --opt=value, and skip the
// number of operands (a duration, a directory, a user) before the command.
type wrapOpts struct {
	withArg string
	long    []string
	skip    int
}

// wrapperOpts returns the options of a command that runs the command given
// after them, such as nohup, nice or timeout.
func wrapperOpts(name string) (wrapOpts, bool) {
	switch name {
	case "sudo":
		return wrapOpts{withArg: "CDghpRrtTUu", long: sudoLong}, true
	case "doas":
		return wrapOpts{withArg: "uC"}, true
	case "pkexec":
		return wrapOpts{long: pkexecLong}, true
	case "nohup", "builtin", "setsid", "unbuffer", "firejail", "eatmydata", "nocache", "catchsegv", "coproc", "valgrind":
		return wrapOpts{}, true
	case "nice":
		return wrapOpts{withArg: "n", long: niceLong}, true
	case "ionice":
		return wrapOpts{withArg: "cnpPtu", long: ioniceLong}, true
	case "timeout":
		return wrapOpts{withArg: "sk", long: timeoutLong, skip: 1}, true
	case "time":
		return wrapOpts{withArg: "fo", long: timeLong}, true
	case "exec":
		return wrapOpts{withArg: "a"}, true
	case "stdbuf":
		return wrapOpts{withArg: "ioe", long: stdbufLong}, true
	case "chroot":
		return wrapOpts{long: chrootLong, skip: 1}, true
	case "strace":
		return wrapOpts{withArg: "abeEIoOpPsSuX"}, true
	case "ltrace":
		return wrapOpts{withArg: "aAeEfFlnopsSuX"}, true
	case "taskset", "chrt", "gosu", "su-exec":
		return wrapOpts{skip: 1}, true
	case "unshare":
		return wrapOpts{withArg: "SG", long: unshareLong}, true
	case "nsenter":
		return wrapOpts{withArg: "tSGwr", long: nsenterLong}, true
	case "systemd-run":
		return wrapOpts{withArg: "pEuMH", long: systemdRunLong}, true
	case "proxychains", "proxychains4":
		return wrapOpts{withArg: "f"}, true
	case "torsocks":
		return wrapOpts{withArg: "uaP"}, true
	case "caffeinate":
		return wrapOpts{withArg: "tw"}, true
	case "setpriv":
		return wrapOpts{long: setprivLong}, true
	case "fakeroot":
		return wrapOpts{withArg: "ils"}, true
	case "faketime":
		return wrapOpts{withArg: "f", skip: 1}, true
	}
	return wrapOpts{}, false
}

// Long options that take a value, for wrapperOpts.
var (
	sudoLong       = []string{"--chdir", "--close-from", "--group", "--host", "--prompt", "--chroot", "--role", "--type", "--command-timeout", "--other-user", "--user"}
	pkexecLong     = []string{"--user"}
	niceLong       = []string{"--adjustment"}
	ioniceLong     = []string{"--class", "--classdata"}
	timeoutLong    = []string{"--signal", "--kill-after"}
	timeLong       = []string{"--format", "--output"}
	stdbufLong     = []string{"--input", "--output", "--error"}
	chrootLong     = []string{"--userspec", "--groups"}
	unshareLong    = []string{"--setuid", "--setgid", "--propagation", "--setgroups", "--wd", "--root"}
	nsenterLong    = []string{"--target", "--setuid", "--setgid", "--wd", "--root"}
	systemdRunLong = []string{"--unit", "--property", "--description", "--slice", "--uid", "--gid", "--working-directory", "--setenv", "--machine", "--host"}
	setprivLong    = []string{"--reuid", "--regid", "--groups", "--inh-caps", "--ambient-caps", "--bounding-set", "--securebits", "--selinux-label", "--apparmor-profile"}
)

// skipOptions returns the index of the first operand at or after i, at
// most len(args).
func skipOptions(args []Word, i int, withArg string, long []string) int {
	return min(skipOpts(args, i, withArg, long), len(args))
}

func skipOpts(args []Word, i int, withArg string, long []string) int {
	for i < len(args) {
		v := args[i].Value
		if v == "--" {
			return i + 1
		}
		if len(v) < 2 || v[0] != '-' {
			return i
		}
		i++
		if optionTakesNext(v, withArg, long) {
			i++
		}
	}
	return i
}

// optionTakesNext reports whether the option word v (at least two bytes,
// starting with '-') consumes the next word as its argument: a long option
// in long written without "=value", or a cluster of short options whose
// first one in withArg is its last letter.
func optionTakesNext(v, withArg string, long []string) bool {
	if v[1] == '-' {
		return !strings.Contains(v, "=") && slices.Contains(long, v)
	}
	for k := 1; k < len(v); k++ {
		if strings.IndexByte(withArg, v[k]) >= 0 {
			return k == len(v)-1
		}
	}
	return false
}

// operands returns the operands of args[1:], skipping options.
func operands(args []Word, withArg string, long []string) []Word {
	var ops []Word
	end := false
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		if end || len(v) < 2 || v[0] != '-' {
			ops = append(ops, args[i])
			continue
		}
		if v == "--" {
			end = true
			continue
		}
		if optionTakesNext(v, withArg, long) {
			i++
		}
	}
	return ops
}

// hasFlag reports a short option letter in any cluster, or the long option.
func hasFlag(args []Word, short byte, long string) bool {
	for _, w := range args[1:] {
		v := w.Value
		if v == "--" {
			return false
		}
		if len(v) < 2 || v[0] != '-' {
			continue
		}
		if v[1] == '-' {
			if _, ok := cutOption(v, long); long != "" && (v == long || ok) {
				return true
			}
			continue
		}
		if short != 0 && strings.IndexByte(v[1:], short) >= 0 {
			return true
		}
	}
	return false
}

// cutOption returns the value of v if it is --long=value; it is
// strings.CutPrefix(v, long+"=") without building long+"=".
func cutOption(v, long string) (string, bool) {
	if len(v) > len(long) && v[len(long)] == '=' && v[:len(long)] == long {
		return v[len(long)+1:], true
	}
	return "", false
}

// optValue returns the value of -s VALUE, -sVALUE, --long=VALUE or --long VALUE.
func optValue(args []Word, short byte, long string) (Word, bool) {
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		if v == "--" {
			break
		}
		if long != "" {
			if v == long && i+1 < len(args) {
				return args[i+1], true
			}
			if rest, ok := cutOption(v, long); ok {
				w := args[i]
				w.Value = rest
				return w, true
			}
		}
		if short != 0 && len(v) >= 2 && v[0] == '-' && v[1] == short {
			if len(v) > 2 {
				w := args[i]
				w.Value = v[2:]
				return w, true
			}
			if i+1 < len(args) {
				return args[i+1], true
			}
		}
	}
	return Word{}, false
}

// wrapper looks through a command that runs another command. It returns the
// inner command, or done when it analysed the command itself, or neither
// when name is not a wrapper.
func (a *analyzer) wrapper(x *call, name string, args []Word) ([]Word, bool, error) {
	depth := x.s.depth + 1
	switch name {
	case "sudo":
		return a.sudo(x, args)
	case "command":
		if hasFlag(args, 'v', "") || hasFlag(args, 'V', "") {
			return nil, true, nil
		}
		return args[skipOptions(args, 1, "", nil):], false, nil
	case "env":
		return a.env1(x, args)
	case "xargs":
		return nil, true, a.xargs(x, args)
	case "busybox", "toybox":
		if len(args) < 2 || strings.HasPrefix(args[1].Value, "-") {
			return nil, true, nil
		}
		return args[1:], false, nil
	case "watch":
		i := skipOptions(args, 1, "nqd", []string{"--interval", "--differences"})
		if hasFlag(args, 'x', "--exec") {
			return args[i:], false, nil
		}
		return nil, true, a.text(values(args[i:]), depth, nil)
	case "ssh":
		return nil, true, a.ssh(args, depth)
	case "flock":
		i := skipOptions(args, 1, "Ewc", []string{"--exit-code", "--timeout", "--wait", "--conflict-exit-code"})
		if s, ok := optValue(args, 'c', "--command"); ok {
			return nil, true, a.text(s.Value, depth, nil)
		}
		if i+1 < len(args) {
			return args[i+1:], false, nil
		}
		return nil, true, nil
	case "su", "runuser", "sg", "script":
		return a.su(x, name, args, depth)
	case "parallel":
		return nil, true, a.parallel(x, args)
	}
	o, ok := wrapperOpts(name)
	if !ok {
		return nil, false, nil
	}
	i := skipOptions(args, 1, o.withArg, o.long) + o.skip
	if i >= len(args) {
		return nil, true, nil
	}
	return args[i:], false, nil
}

// sudo looks through sudo(8): sudo -e edits files, sudo -s or -i without
// a command reads a script from its input.
func (a *analyzer) sudo(x *call, args []Word) ([]Word, bool, error) {
	if hasFlag(args, 'e', "--edit") {
		a.protect("sudoedit", args)
		return nil, true, nil
	}
	o, _ := wrapperOpts("sudo")
	i := skipOptions(args, 1, o.withArg, o.long)
	if i >= len(args) && (hasFlag(args, 's', "--shell") || hasFlag(args, 'i', "--login")) {
		return nil, true, a.stdinScript(x, "sh")
	}
	return args[i:], false, nil
}

// ssh analyses what ssh runs: the commands in its options and the remote
// command, which is shell text. Whatever it runs, its input and arguments
// leave the machine.
func (a *analyzer) ssh(args []Word, depth int) error {
	a.upload = true
	if err := a.hosted("ssh", args, depth); err != nil {
		return err
	}
	i := skipOptions(args, 1, "BbcDEeFIiJLlmOoPpQRSWw", nil)
	if i+1 >= len(args) {
		return nil
	}
	return a.text(values(args[i+1:]), depth, nil)
}

// su looks through su, runuser, sg and script: a -c command (or a short
// option cluster ending in c) is shell text, runuser -u runs its
// operands, sg its group's command, and su or runuser without one reads
// a script from its input.
func (a *analyzer) su(x *call, name string, args []Word, depth int) ([]Word, bool, error) {
	if s, ok := optValue(args, 'c', "--command"); ok {
		if s.Subst {
			a.add(OpaqueExec, "sh -c $(…)")
		}
		return nil, true, a.text(s.Value, depth, nil)
	}
	for k := 1; k < len(args); k++ {
		if v := args[k].Value; len(v) > 2 && v[0] == '-' && v[1] != '-' && strings.HasSuffix(v, "c") && k+1 < len(args) {
			return nil, true, a.text(args[k+1].Value, depth, nil)
		}
	}
	switch name {
	case "runuser":
		if _, ok := optValue(args, 'u', "--user"); ok {
			return args[skipOptions(args, 1, "ugGs", []string{"--user", "--group", "--supp-group", "--shell"}):], false, nil
		}
	case "sg":
		if len(args) > 2 {
			return nil, true, a.text(values(args[2:]), depth, nil)
		}
		return nil, true, nil
	case "script":
		return nil, true, nil
	}
	return nil, true, a.stdinScript(x, "sh")
}

// env1 looks through env(1), including -S "string".
func (a *analyzer) env1(x *call, args []Word) ([]Word, bool, error) {
	var split []Word
	i := 1
loop:
	for i < len(args) {
		v := args[i].Value
		switch {
		case v == "--":
			i++
			break loop
		case v == "-" || v == "-i" || v == "--ignore-environment" || v == "-0" || v == "--null" || v == "-v" || v == "--debug":
			i++
		case v == "-u" || v == "-C" || v == "-P" || v == "--unset" || v == "--chdir":
			i += 2
		case strings.HasPrefix(v, "--unset=") || strings.HasPrefix(v, "--chdir=") || strings.HasPrefix(v, "--default-signal") || strings.HasPrefix(v, "--ignore-signal") || strings.HasPrefix(v, "--block-signal"):
			i++
		case v == "-S" || v == "--split-string" || strings.HasPrefix(v, "-S") || strings.HasPrefix(v, "--split-string="):
			s := ""
			switch {
			case v == "-S" || v == "--split-string":
				if i+1 < len(args) {
					s = args[i+1].Value
				}
				i += 2
			case strings.HasPrefix(v, "-S"):
				s = v[2:]
				i++
			default:
				s = strings.TrimPrefix(v, "--split-string=")
				i++
			}
			words, ok, err := a.splitString(s, x.s.depth+1)
			if err != nil {
				return nil, true, err
			}
			if !ok {
				return nil, true, a.text(s+" "+values(args[min(i, len(args)):]), x.s.depth+1, nil)
			}
			split = append(split, words...)
			break loop
		case len(v) > 1 && v[0] == '-' && v[1] != '-':
			i++
			if strings.ContainsAny(v[len(v)-1:], "uCP") {
				i++
			}
		case strings.IndexByte(v, '=') > 0 && validName(v[:strings.IndexByte(v, '=')]):
			i++
		default:
			break loop
		}
	}
	rest := args[min(i, len(args)):]
	if len(split) > 0 {
		rest = append(split, rest...)
	}
	if len(rest) == 0 {
		a.add(ReadSecrets, "env dump")
		return nil, true, nil
	}
	return rest, false, nil
}

// splitString splits s into words the way a shell would, if it is a single
// simple command.
func (a *analyzer) splitString(s string, depth int) ([]Word, bool, error) {
	sc, err := parse(s, depth, a.st, nil)
	if err != nil {
		return nil, false, err
	}
	if len(sc.Commands) != 1 || len(sc.Funcs) > 0 || len(sc.Subs) > 0 {
		return nil, false, nil
	}
	c := &sc.Commands[0]
	if len(c.Redirects) > 0 || len(c.Assigns) > 0 || len(c.Subs) > 0 {
		return nil, false, nil
	}
	return c.Args, true, nil
}

// maxItems bounds the input items substituted into a command.
const maxItems = 64

// xargs analyses the command xargs runs, with its input if computable.
func (a *analyzer) xargs(x *call, args []Word) error {
	i := skipOptions(args, 1, "aEdILnPs", []string{"--arg-file", "--delimiter", "--eof", "--max-lines", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"})
	cmd := args[i:]
	if len(cmd) == 0 {
		cmd = []Word{{Value: "echo"}}
	}
	inner := &call{s: x.s, c: x.c}
	if f := x.feeders(); f != nil && x.piped {
		inner.feed = &f[len(f)-1]
	}
	var items []string
	if in, ok := a.stdin(x); ok {
		switch d, hasD := optValue(args, 'd', "--delimiter"); {
		case hasFlag(args, '0', "--null"):
			items = strings.Split(in, "\x00")
		case hasD && len(d.Value) == 1:
			items = strings.Split(in, d.Value)
		default:
			items = strings.Fields(in)
		}
	} else {
		guessed, tree, known := a.guessItems(inner, args)
		if !known {
			inner.items = itemsUnknown
			return a.run(inner, cmd)
		}
		if tree {
			inner.items = itemsTree
		}
		items = guessed
	}
	items = slices.DeleteFunc(items, func(s string) bool { return s == "" })
	if len(items) > maxItems {
		items = items[:maxItems]
	}
	repl, hasRepl := optValue(args, 'I', "--replace")
	if !hasRepl && hasFlag(args, 'i', "") {
		repl, hasRepl = Word{Value: "{}"}, true
	}
	if hasRepl && repl.Value != "" {
		for _, it := range items {
			next := make([]Word, len(cmd))
			for k, w := range cmd {
				w.Value = strings.ReplaceAll(w.Value, repl.Value, it)
				next[k] = w
			}
			if err := a.run(inner, next); err != nil {
				return err
			}
		}
		return nil
	}
	next := slices.Clone(cmd)
	for _, it := range items {
		next = append(next, Word{Value: it})
	}
	a.secrets(next[len(cmd):])
	return a.run(inner, next)
}

// parallel analyses GNU parallel: the command is a shell script run once per
// input, with {} replaced or the input appended.
func (a *analyzer) parallel(x *call, args []Word) error {
	i := skipOptions(args, 1, "jSIdEaXnNsLlP", []string{"--jobs", "--sshlogin", "--delimiter", "--arg-file", "--max-args", "--joblog", "--results", "--tmpdir", "--workdir"})
	var cmd []Word
	var items []string
	k := i
	for ; k < len(args) && args[k].Value != ":::" && args[k].Value != "::::"; k++ {
		cmd = append(cmd, args[k])
	}
	if k < len(args) {
		for _, w := range args[k+1:] {
			if w.Value != ":::" {
				items = append(items, w.Value)
			}
		}
	} else if in, ok := a.stdin(x); ok {
		items = strings.Fields(in)
	} else if f := x.feeders(); f != nil && x.piped {
		items, _, _ = a.guessItems(&call{s: x.s, c: x.c, feed: &f[len(f)-1]}, nil)
	}
	if len(items) > maxItems {
		items = items[:maxItems]
	}
	script := values(cmd)
	depth := x.s.depth + 1
	if len(items) == 0 {
		return a.text(script, depth, nil)
	}
	for _, it := range items {
		s := script
		if strings.Contains(s, "{}") {
			s = strings.ReplaceAll(s, "{}", it)
		} else {
			s += " " + it
		}
		if err := a.text(s, depth, nil); err != nil {
			return err
		}
	}
	return nil
}
