package shell

import (
	"strings"
)

// Commands that run shell commands given in their options or
// configuration: git -c alias.x=!cmd, ssh -o ProxyCommand=cmd, tar
// --to-command=cmd, vim -c '!cmd', sed s/x/cmd/e, rsync -e cmd, and
// variables such as GIT_SSH_COMMAND or PAGER.

// hosted analyses the command lines carried by args, for the commands
// that have them. The lines are data until run, so malformed ones are
// ignored.
func (a *analyzer) hosted(name string, args []Word, depth int) error {
	var buf [4]string // the helpers append here, not to a new array
	cmds := buf[:0]
	switch name {
	case "git":
		cmds = gitHosted(cmds, args)
	case "ssh", "scp", "sftp":
		cmds = sshHosted(cmds, args)
	case "tar", "bsdtar":
		cmds = tarHosted(cmds, args)
	case "rsync":
		if w, ok := optValue(args, 'e', "--rsh"); ok {
			cmds = append(cmds, w.Value)
		}
	case "zip":
		cmds = zipHosted(cmds, args)
	case "vim", "vi", "nvim", "ex", "view", "vimdiff", "rvim":
		return a.vimHosted(args, depth)
	case "sed", "gsed":
		cmds = sedHosted(cmds, args)
	}
	for _, c := range cmds {
		if err := a.data(c, depth); err != nil {
			return err
		}
	}
	return nil
}

// gitHosted appends the values of git -c name=value options (an alias's
// leading ! dropped).
func gitHosted(cmds []string, args []Word) []string {
	for i := 1; i+1 < len(args); i++ {
		if args[i].Value == "-c" {
			if _, v, ok := strings.Cut(args[i+1].Value, "="); ok {
				cmds = append(cmds, strings.TrimPrefix(v, "!"))
			}
		}
	}
	return cmds
}

// sshHosted appends the commands of ssh -o options (ProxyCommand,
// LocalCommand, KnownHostsCommand, RemoteCommand), as -o key=value,
// -o "key value" or -okey=value.
func sshHosted(cmds []string, args []Word) []string {
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		if v == "-o" && i+1 < len(args) {
			v = args[i+1].Value
		} else if o, ok := strings.CutPrefix(v, "-o"); ok {
			v = o
		} else {
			continue
		}
		key, val, ok := strings.Cut(v, "=")
		if !ok {
			key, val, _ = strings.Cut(v, " ")
		}
		switch strings.ToLower(strings.TrimSpace(key)) {
		case "proxycommand", "localcommand", "knownhostscommand", "remotecommand":
			cmds = append(cmds, val)
		}
	}
	return cmds
}

// tarHosted appends the commands of tar's long options that run one and
// of -I and -F.
func tarHosted(cmds []string, args []Word) []string {
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		if strings.HasPrefix(v, "--") {
			for _, o := range [...]string{"--checkpoint-action=exec=", "--to-command=", "--use-compress-program=", "--info-script=", "--new-volume-script=", "--rsh-command="} {
				if c, ok := strings.CutPrefix(v, o); ok {
					cmds = append(cmds, c)
				}
			}
		}
		if (v == "-I" || v == "-F") && i+1 < len(args) {
			cmds = append(cmds, args[i+1].Value)
		}
	}
	return cmds
}

// zipHosted appends the commands of zip --unzip-command and -TT.
func zipHosted(cmds []string, args []Word) []string {
	if w, ok := optValue(args, 0, "--unzip-command"); ok {
		cmds = append(cmds, w.Value)
	}
	for i := 1; i+1 < len(args); i++ {
		if args[i].Value == "-TT" {
			cmds = append(cmds, args[i+1].Value)
		}
	}
	return cmds
}

// vimHosted analyses the Ex commands of vim's -c, --cmd and + options as
// code, then the shell commands (:!cmd) among them.
func (a *analyzer) vimHosted(args []Word, depth int) error {
	var cmds []string
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		switch {
		case (v == "-c" || v == "--cmd") && i+1 < len(args):
			v = args[i+1].Value
		case strings.HasPrefix(v, "+"):
			v = v[1:]
		default:
			continue
		}
		v = strings.TrimLeft(v, ": ")
		if c, ok := strings.CutPrefix(v, "!"); ok {
			cmds = append(cmds, c)
		} else if err := a.code(v, depth); err != nil {
			return err
		}
	}
	for _, c := range cmds {
		if err := a.data(c, depth); err != nil {
			return err
		}
	}
	return nil
}

// sedHosted appends the commands of sed's -e scripts and of its first
// operand, taken as a script.
func sedHosted(cmds []string, args []Word) []string {
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		if (v == "-e" || v == "--expression") && i+1 < len(args) {
			cmds = append(cmds, sedCommands(args[i+1].Value)...)
			i++
		} else if len(v) > 0 && v[0] != '-' {
			cmds = append(cmds, sedCommands(v)...)
			break
		}
	}
	return cmds
}

// sedCommands returns the shell commands a GNU sed script runs: the e
// command and the replacement of s///e.
func sedCommands(script string) []string {
	var out []string
	for _, line := range strings.FieldsFunc(script, func(r rune) bool { return r == '\n' || r == ';' }) {
		l := strings.TrimLeft(line, " \t0123456789,$/!")
		if c, ok := strings.CutPrefix(l, "e "); ok {
			out = append(out, c)
			continue
		}
		if len(l) < 2 || l[0] != 's' {
			continue
		}
		d := l[1]
		parts := splitUnescaped(l[2:], d)
		if len(parts) == 3 && strings.IndexByte(parts[2], 'e') >= 0 {
			out = append(out, parts[1])
		}
	}
	return out
}

func splitUnescaped(s string, d byte) []string {
	var parts []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case d:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// commandVar reports variables whose value some program runs as a command.
func commandVar(name string) bool {
	switch name {
	case "PAGER", "EDITOR", "VISUAL", "GIT_SSH", "GIT_ASKPASS", "SSH_ASKPASS", "LESSOPEN", "LESSCLOSE",
		"PROMPT_COMMAND", "BASH_ENV", "ENV", "MANPAGER", "SYSTEMD_PAGER", "GIT_PAGER", "GIT_EDITOR", "SUDO_ASKPASS":
		return true
	}
	return strings.HasSuffix(name, "_COMMAND") || strings.HasSuffix(name, "_CMD")
}
