package shell

import (
	"regexp"
	"slices"
	"strings"
)

// remove checks rm, srm, wipe and shred; tree says that the operands
// stand for every file under them (as find lists them for xargs).
func (a *analyzer) remove(name string, args []Word, tree bool) {
	recursive := tree
	end := false
	for _, w := range args[1:] {
		v := w.Value
		if end || len(v) < 2 || v[0] != '-' {
			if name == "shred" && isDisk(v) {
				a.add(RawDisk, "shred /dev/*")
			}
			continue
		}
		switch {
		case v == "--":
			end = true
		case v == "--no-preserve-root":
			a.add(DestroyFiles, "rm --no-preserve-root")
		case v == "--recursive" || strings.HasPrefix(v, "--recursive="):
			recursive = true
		case v[1] != '-' && (strings.IndexByte(v, 'r') > 0 || strings.IndexByte(v, 'R') > 0):
			recursive = true
		}
	}
	if !recursive {
		return
	}
	end = false
	for _, w := range args[1:] {
		v := w.Value
		if !end && len(v) > 1 && v[0] == '-' {
			end = v == "--"
			continue
		}
		if items, _, ok := a.substItems(w, 1); ok {
			for _, it := range items {
				a.removed(Word{Value: it, Glob: hasGlobMeta(it)})
			}
			continue
		}
		a.removed(w)
	}
}

// removed checks an operand of a recursive removal.
func (a *analyzer) removed(w Word) {
	if cls, ok := a.dangerTarget(w); ok {
		a.add(DestroyFiles, rmLabel(cls))
	} else if a.ownTree(w) {
		a.add(DestroyState, "rm -r protected path")
	}
}

// rmLabel returns "rm -rf " + cls, without allocating for the usual classes.
func rmLabel(cls string) string {
	switch cls {
	case "/":
		return "rm -rf /"
	case "~":
		return "rm -rf ~"
	case "agent root":
		return "rm -rf agent root"
	}
	return "rm -rf " + cls
}

// move checks mv: moving away / or a system directory destroys it.
func (a *analyzer) move(args []Word) {
	ops := operands(args, "tS", []string{"--target-directory", "--suffix"})
	srcs := ops
	if _, ok := optValue(args, 't', "--target-directory"); !ok && len(ops) > 1 {
		srcs = ops[:len(ops)-1]
	}
	for _, w := range srcs {
		if cls, ok := a.dangerTarget(w); ok {
			a.add(DestroyFiles, "mv "+cls)
		} else if a.ownTree(w) {
			a.add(DestroyState, "mv protected path")
		}
	}
}

// copy checks commands that write their last operand: cp, install, scp, ln,
// rsync.
func (a *analyzer) copy(name string, args []Word) {
	var withArg string
	var long []string
	switch name {
	case "cp":
		withArg, long = "St", []string{"--target-directory", "--suffix"}
	case "install":
		withArg, long = "gmoSt", []string{"--group", "--mode", "--owner", "--target-directory", "--suffix"}
	case "scp":
		withArg = "cFiJlLoPSDX"
	case "ln":
		withArg, long = "St", []string{"--target-directory", "--suffix"}
	case "rsync":
		withArg, long = "eBfTM", []string{"--rsh", "--rsync-path", "--exclude", "--include", "--filter", "--temp-dir", "--partial-dir", "--chmod", "--chown", "--log-file", "--password-file", "--exclude-from", "--include-from", "--files-from"}
	}
	ops := operands(args, withArg, long)
	var dests []Word
	if t, ok := optValue(args, 't', "--target-directory"); ok && name != "rsync" && name != "scp" {
		dests = append(dests, t)
	} else if len(ops) > 1 || name == "ln" && len(ops) == 1 {
		dests = ops[len(ops)-1:]
		ops = ops[:len(ops)-1]
	}
	for _, d := range dests {
		disk, prot := copyLabels(name)
		a.written(d.Value, disk, prot)
	}
	if name == "rsync" {
		del := false
		for _, w := range args[1:] {
			if strings.HasPrefix(w.Value, "--del") {
				del = true
			}
		}
		for _, d := range dests {
			if cls, ok := a.dangerTarget(d); del && ok {
				a.add(DestroyFiles, "rsync --delete "+cls)
			} else if del && a.ownTree(d) {
				a.add(DestroyState, "rsync --delete protected path")
			}
		}
		if hasFlag(args, 0, "--remove-source-files") {
			for _, w := range ops {
				if a.protected(w.Value) {
					a.add(DestroyState, "rsync protected file")
				}
			}
		}
	}
}

// copyLabels returns the patterns reported for a copy command writing to a
// block device or a protected file.
func copyLabels(name string) (disk, prot string) {
	switch name {
	case "cp":
		return "cp /dev/*", "cp over protected file"
	case "install":
		return "install /dev/*", "install over protected file"
	case "scp":
		return "scp /dev/*", "scp over protected file"
	case "ln":
		return "ln /dev/*", "ln over protected file"
	case "rsync":
		return "rsync /dev/*", "rsync over protected file"
	}
	return name + " /dev/*", name + " over protected file"
}

// perms checks chmod, chown, chgrp, chattr and setfacl: recursive changes
// to / or system directories.
func (a *analyzer) perms(name string, args []Word) {
	if !hasFlag(args, 'R', "--recursive") {
		return
	}
	ops := operands(args, "", []string{"--reference"})
	if _, ref := optValue(args, 0, "--reference"); !ref && name != "chattr" && name != "setfacl" && len(ops) > 0 {
		ops = ops[1:]
	}
	for _, w := range ops {
		if strings.HasPrefix(w.Value, "+") || strings.HasPrefix(w.Value, "=") {
			continue
		}
		if cls, ok := a.dangerTarget(w); ok {
			a.add(DestroyFiles, name+" -R "+cls)
		} else if a.ownTree(w) {
			a.add(DestroyState, name+" -R protected path")
		}
	}
}

// isKillSignal reports SIGKILL written as 9, KILL or SIGKILL.
func isKillSignal(s string) bool {
	if s == "9" {
		return true
	}
	if hasFoldAt(s, 0, "SIG") {
		s = s[3:]
	}
	return len(s) == 4 && hasFoldAt(s, 0, "KILL")
}

// kill checks kill(1) and the shell builtin.
func (a *analyzer) kill(x *call, args []Word) {
	sig := ""
	i := 1
	for i < len(args) {
		v := args[i].Value
		switch {
		case v == "--":
			i++
		case v == "-s" || v == "-n" || v == "--signal":
			if i+1 < len(args) {
				sig = args[i+1].Value
			}
			i += 2
			continue
		case strings.HasPrefix(v, "--signal="):
			sig = v[len("--signal="):]
			i++
			continue
		case v == "-l" || v == "-L" || v == "--list" || v == "--table":
			return
		case len(v) > 1 && v[0] == '-' && sig == "":
			sig = strings.TrimPrefix(v[1:], "s")
			if v[1] != 's' || len(v) == 2 {
				sig = v[1:]
			}
			i++
			continue
		}
		break
	}
	if isKillSignal(sig) {
		a.add(KillProcess, "kill -9")
	}
	for _, w := range args[min(i, len(args)):] {
		switch w.Value {
		case "1":
			a.add(KillProcess, "kill 1")
		case "-1":
			a.add(KillProcess, "kill -1")
		case "0":
			a.add(KillProcess, "kill 0")
		case "-0":
			a.add(KillProcess, "kill -0")
		}
		for _, n := range w.Vars {
			switch n {
			case "$", "PPID", "BASHPID":
				a.add(KillProcess, "kill $$")
			}
		}
	}
	for _, sub := range x.c.Subs {
		if a.findsAgent(sub.Commands) {
			a.add(KillProcess, "kill agent process")
		}
	}
	if x.feed != nil && a.findsAgent([]Command{*x.feed}) {
		a.add(KillProcess, "kill agent process")
	}
}

// findsAgent reports pgrep or pidof of one of the agent's processes.
func (a *analyzer) findsAgent(cmds []Command) bool {
	for i := range cmds {
		c := &cmds[i]
		if len(c.Args) == 0 {
			continue
		}
		switch cmdName(c.Args[0].Value) {
		case "pgrep", "pidof":
			for _, w := range operands(c.Args, "gGPstuUFd", nil) {
				if a.agentProcess(w.Value, true) {
					return true
				}
			}
		}
	}
	return false
}

// agentProcess reports whether a process pattern matches one of the agent's
// process names.
func (a *analyzer) agentProcess(pat string, regex bool) bool {
	if pat == "" {
		return false
	}
	for _, n := range a.env.ProcessNames {
		if n == "" {
			continue
		}
		if pat == n || strings.Contains(n, pat) && regex || strings.TrimSuffix(pat, ".service") == n {
			return true
		}
	}
	if !regex || len(pat) > 256 {
		return false
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		return false
	}
	for _, n := range a.env.ProcessNames {
		if n != "" && re.MatchString(n) {
			return true
		}
	}
	return false
}

// pkill checks pkill, killall, skill and snice.
func (a *analyzer) pkill(name string, args []Word) {
	regex := name == "pkill" || hasFlag(args, 'r', "--regexp")
	var withArg string
	var long []string
	switch name {
	case "pkill":
		withArg, long = "gGPstuUFdn", []string{"--signal", "--group", "--parent", "--session", "--terminal", "--euid", "--uid", "--pidfile", "--ns", "--nslist"}
	case "killall":
		withArg, long = "sunoyZ", []string{"--signal", "--user", "--older-than", "--younger-than", "--context", "--ns"}
	}
	var ops []Word
	end := false
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		if end || len(v) < 2 || v[0] != '-' {
			ops = append(ops, args[i])
			continue
		}
		switch {
		case v == "--":
			end = true
		case v == "-s" || v == "--signal" || v == "-n" && name == "skill":
			if i+1 < len(args) && isKillSignal(args[i+1].Value) {
				a.add(KillProcess, "kill -9")
			}
			i++
		case strings.HasPrefix(v, "--signal="):
			if isKillSignal(v[len("--signal="):]) {
				a.add(KillProcess, "kill -9")
			}
		case isKillSignal(v[1:]):
			a.add(KillProcess, "kill -9")
		case v[1] == '-':
			if !strings.Contains(v, "=") && slices.Contains(long, v) {
				i++
			}
		default:
			for k := 1; k < len(v); k++ {
				if strings.IndexByte(withArg, v[k]) >= 0 {
					if k == len(v)-1 {
						i++
					}
					break
				}
			}
		}
	}
	for _, w := range ops {
		if a.agentProcess(w.Value, regex) || a.agentProcess(cmdName(w.Value), false) {
			a.add(KillProcess, "kill agent process")
		}
	}
}

// shutdownTargets are systemd units and verbs that take the machine down.
var shutdownTargets = [...]string{"poweroff", "reboot", "halt", "kexec", "rescue", "emergency", "soft-reboot", "shutdown", "ctrl-alt-del"}

// services checks systemctl, service and process managers.
func (a *analyzer) services(name string, args []Word) {
	ops := operands(args, "tspHMnoP", []string{"--type", "--signal", "--property", "--host", "--machine", "--lines", "--output", "--kill-whom", "--root"})
	if len(ops) == 0 {
		return
	}
	verb := ops[0].Value
	units := ops[1:]
	if name == "service" || name == "rc-service" {
		if len(ops) < 2 {
			return
		}
		verb, units = ops[1].Value, ops[:1]
	}
	switch name {
	case "systemctl", "loginctl":
		for _, t := range shutdownTargets {
			if verb == t {
				a.add(Shutdown, name+" "+t)
			}
		}
		if verb == "isolate" || verb == "start" {
			for _, u := range units {
				for _, t := range shutdownTargets {
					if u.Value == t+".target" {
						a.add(Shutdown, "systemctl "+t)
					}
				}
			}
		}
		if verb == "kill" {
			if s, ok := optValue(args, 's', "--signal"); ok && isKillSignal(s.Value) {
				a.add(KillProcess, "kill -9")
			}
		}
	case "pm2":
		if verb == "kill" {
			a.add(KillProcess, "kill agent process")
		}
	}
	switch verb {
	case "stop", "kill", "disable", "mask", "delete", "remove":
		for _, u := range units {
			v := u.Value
			if i := strings.IndexByte(v, '@'); i > 0 {
				v = v[:i]
			}
			if v == "all" || a.agentProcess(strings.TrimSuffix(v, ".service"), false) {
				a.add(KillProcess, "stop agent service")
			}
		}
	}
}

// disk checks formatting and partitioning tools.
func (a *analyzer) disk(name string, args []Word) {
	devArg := func() bool {
		for _, w := range args[1:] {
			if isDisk(w.Value) {
				return true
			}
		}
		return false
	}
	switch {
	case strings.HasPrefix(name, "mkfs") || name == "mke2fs" || name == "mkdosfs" || name == "mkntfs" || name == "mkexfatfs" || name == "newfs":
		a.add(RawDisk, "mkfs")
	case name == "mkswap" && devArg():
		a.add(RawDisk, "mkswap")
	case name == "wipefs":
		a.add(RawDisk, "wipefs")
	case name == "fdisk" || name == "sfdisk" || name == "cfdisk" || name == "parted" || name == "gdisk" || name == "sgdisk":
		if devArg() && !hasFlag(args, 'l', "--list") && !hasFlag(args, 0, "--print") {
			for _, w := range args {
				if w.Value == "print" {
					return
				}
			}
			a.add(RawDisk, name)
		}
	case name == "blkdiscard" || name == "badblocks" && hasFlag(args, 'w', ""):
		if devArg() {
			a.add(RawDisk, name+" /dev/*")
		}
	case name == "hdparm":
		for _, w := range args[1:] {
			for _, o := range [...]string{"--security-erase", "--trim-sector-ranges", "--write-sector", "--make-bad-sector", "--fwdownload"} {
				if strings.HasPrefix(w.Value, o) {
					a.add(RawDisk, "hdparm "+o)
				}
			}
		}
	case name == "nvme" || name == "cryptsetup" || name == "zpool" || name == "mdadm":
		for _, w := range args[1:] {
			switch w.Value {
			case "format", "sanitize", "luksFormat", "erase", "luksErase", "destroy", "labelclear", "--zero-superblock":
				a.add(RawDisk, name+" "+w.Value)
			}
		}
	case name == "pvremove" || name == "vgremove" || name == "lvremove":
		a.add(RawDisk, name)
	}
}

// chdir follows cd so that later relative paths resolve.
func (a *analyzer) chdir(args []Word) {
	ops := operands(args, "", nil)
	if len(ops) == 0 {
		a.cwd = homeDir
		return
	}
	w := ops[0]
	if w.Opaque || w.Value == "-" {
		a.cwd = ""
		return
	}
	if p, ok := a.abs(w.Value); ok {
		a.cwd = p
	} else {
		a.cwd = ""
	}
}

func isFindExpr(v string) bool {
	return len(v) > 1 && v[0] == '-' || v == "(" || v == ")" || v == "!" || v == ","
}

// isRemover reports commands that delete their operands.
func isRemover(name string) bool {
	switch name {
	case "rm", "srm", "wipe", "shred", "unlink", "rmdir", "truncate":
		return true
	}
	return false
}

// findPlan is what a find(1) command line says: where it starts, the
// names it filters on, whether anything narrows what it lists, and what it
// does with each file.
type findPlan struct {
	starts   []Word
	names    []Word
	filtered bool
	del      bool
	execs    [][]Word
}

// parseFind reads the arguments of find.
func parseFind(args []Word) findPlan {
	i := 1
	for i < len(args) {
		switch v := args[i].Value; {
		case v == "-H" || v == "-L" || v == "-P" || strings.HasPrefix(v, "-O"):
			i++
			continue
		case v == "-D":
			i += 2
			continue
		}
		break
	}
	start := i
	for i < len(args) && !isFindExpr(args[i].Value) {
		i++
	}
	var f findPlan
	f.starts = args[start:min(i, len(args))]
	if len(f.starts) == 0 {
		f.starts = []Word{{Value: "."}}
	}
	for i < len(args) {
		v := args[i].Value
		switch v {
		case "-delete":
			f.del = true
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(args) && args[j].Value != ";" && args[j].Value != "+" {
				j++
			}
			f.execs = append(f.execs, args[i+1:j])
			i = j
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname", "-ilname":
			if i+1 < len(args) {
				f.names = append(f.names, args[i+1])
				if strings.Trim(args[i+1].Value, "*") != "" {
					f.filtered = true
				}
			}
			i++
		case "-fprint", "-fprint0", "-fls", "-fprintf", "-newer", "-user", "-group", "-size", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-perm", "-inum", "-links", "-samefile", "-uid", "-gid", "-used", "-newermt":
			if !strings.HasPrefix(v, "-f") {
				f.filtered = true
			}
			i++
		case "-empty":
			f.filtered = true
		}
		i++
	}
	return f
}

// find checks find(1): -delete and -exec rm on dangerous starting points,
// and the commands run by -exec with {} replaced.
func (a *analyzer) find(x *call, args []Word) error {
	f := parseFind(args)
	for i := 1; i+1 < len(args); i++ {
		switch args[i].Value {
		case "-fprint", "-fprint0", "-fls", "-fprintf":
			a.written(args[i+1].Value, "find -fprint /dev/*", "find -fprint protected file")
		}
	}
	label := ""
	switch {
	case f.del:
		label = " -delete"
	default:
		for _, e := range f.execs {
			if len(e) > 0 && isRemover(cmdName(e[0].Value)) {
				label = " -exec rm"
			}
		}
	}
	if label != "" {
		for _, s := range f.starts {
			cls, danger := a.dangerTarget(s)
			if danger && (cls != "agent root" || !f.filtered) {
				a.add(DestroyFiles, "find "+cls+label)
			}
			if a.protected(s.Value) || !f.filtered && !danger && a.ownTree(s) {
				a.add(DestroyState, "find"+label+" protected file")
			}
		}
		for _, n := range f.names {
			if a.protected(n.Value) {
				a.add(DestroyState, "find"+label+" protected file")
			}
		}
	}
	subs := append(slices.Clone(f.starts), f.names...)
	if len(subs) > maxItems {
		subs = subs[:maxItems]
	}
	inner := &call{s: x.s, c: x.c}
	for _, e := range f.execs {
		if len(e) == 0 {
			continue
		}
		for _, s := range subs {
			next := make([]Word, len(e))
			for k, w := range e {
				if strings.Contains(w.Value, "{}") {
					w.Value = strings.ReplaceAll(w.Value, "{}", s.Value)
					w.Glob = w.Glob || s.Glob
				}
				next[k] = w
			}
			if err := a.run(inner, next); err != nil {
				return err
			}
		}
	}
	return nil
}

// protect reports a command that would modify a protected file named in its
// arguments. Known readers are exempt; unknown commands are not.
func (a *analyzer) protect(name string, args []Word) {
	if a.env.Protected == nil && len(a.env.Own) == 0 {
		return
	}
	check := func(words []Word) {
		for _, w := range words {
			if a.protected(w.Value) {
				a.add(DestroyState, writerLabel(name))
				return
			}
		}
	}
	switch name {
	case "cp", "install", "scp", "ln", "rsync", "dd", "tee", "find", "cd", "pushd", "mkdir":
		return
	case "curl":
		a.protectOutputs(name, args, "ocD", curlOutputs[:])
		return
	case "wget":
		a.protectOutputs(name, args, "Ooa", wgetOutputs[:])
		return
	case "sort", "uniq":
		if w, ok := optValue(args, 'o', "--output"); ok {
			check([]Word{w})
		}
		if name == "uniq" {
			if ops := operands(args, "fsw", nil); len(ops) == 2 {
				check(ops[1:])
			}
		}
		return
	case "sed":
		if hasFlag(args, 'i', "--in-place") {
			a.protectAll("sed -i protected file", name, args)
		}
		return
	case "git":
		if len(args) < 2 || !gitReader(args) {
			a.protectAll("", name, args)
		}
		return
	case "tar", "bsdtar":
		if tarCreates(args) {
			if w, ok := optValue(args, 'f', "--file"); ok {
				check([]Word{w})
			}
			if v := args[1].Value; v[0] != '-' && strings.IndexByte(v, 'f') >= 0 && len(args) > 2 {
				check(args[2:3])
			}
			if !hasFlag(args, 0, "--remove-files") {
				return
			}
		}
	case "zip":
		ops := operands(args, "bnPtx", nil)
		if !hasFlag(args, 'm', "--move") {
			check(ops[:min(1, len(ops))])
			return
		}
	}
	if !isReader(name) {
		a.protectAll("", name, args)
	}
}

var (
	curlOutputs = [...]string{"--output", "--cookie-jar", "--dump-header", "--trace", "--trace-ascii", "--stderr"}
	wgetOutputs = [...]string{"--output-document", "--output-file", "--append-output"}
)

// protectOutputs reports DestroyState if a file given to one of the output
// options is protected: -o FILE, -oFILE, --output FILE, --output=FILE.
func (a *analyzer) protectOutputs(name string, args []Word, short string, long []string) {
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		if len(v) < 2 || v[0] != '-' {
			continue
		}
		val := ""
		if v[1] == '-' {
			opt, rest, eq := strings.Cut(v, "=")
			if !slices.Contains(long, opt) {
				continue
			}
			if eq {
				val = rest
			} else if i+1 < len(args) {
				val = args[i+1].Value
			}
		} else if strings.IndexByte(short, v[len(v)-1]) >= 0 && i+1 < len(args) {
			val = args[i+1].Value
		} else if strings.IndexByte(short, v[1]) >= 0 && len(v) > 2 {
			val = v[2:]
		}
		if val != "" && a.protected(val) {
			a.add(DestroyState, writerLabel(name))
			return
		}
	}
}

// protectAll reports DestroyState if any argument names a protected file,
// with label or else the writer label of name.
func (a *analyzer) protectAll(label, name string, args []Word) {
	for _, w := range args[1:] {
		if a.protected(w.Value) {
			if label == "" {
				label = writerLabel(name)
			}
			a.add(DestroyState, label)
			return
		}
	}
}

// gitReader reports git subcommands that do not modify the work tree.
func gitReader(args []Word) bool {
	i := skipOptions(args, 1, "Cc", gitLong[:])
	if i >= len(args) {
		return true
	}
	switch args[i].Value {
	case "status", "log", "diff", "show", "blame", "ls-files", "grep", "add", "commit", "cat-file", "check-ignore", "shortlog", "annotate", "whatchanged", "describe", "rev-parse", "config", "remote", "branch", "tag", "fetch", "push":
		return true
	}
	return false
}

var gitLong = [...]string{"--git-dir", "--work-tree", "--namespace"}

func tarCreates(args []Word) bool {
	if len(args) < 2 || args[1].Value == "" {
		return false
	}
	if v := args[1].Value; v[0] != '-' {
		return strings.ContainsAny(v, "ct")
	}
	return hasFlag(args, 'c', "--create") || hasFlag(args, 't', "--list")
}

// isReader reports commands that only read their file operands.
func isReader(name string) bool {
	switch name {
	case "cat", "tac", "nl", "less", "more", "most", "head", "tail", "grep", "egrep", "fgrep",
		"zgrep", "rg", "ag", "ack", "wc", "ls", "dir", "vdir", "stat", "file", "sha1sum",
		"sha224sum", "sha256sum", "sha384sum", "sha512sum", "md5sum", "b2sum", "cksum", "sum",
		"diff", "diff3", "sdiff", "cmp", "comm", "du", "df", "test", "[", "[[", "((", "readlink",
		"realpath", "basename", "dirname", "strings", "xxd", "hexdump", "od", "jq", "yq", "uniq",
		"cut", "column", "fold", "fmt", "pr", "paste", "join", "look", "zcat", "zless", "bzcat",
		"xzcat", "zstdcat", "lz4cat", "base64", "base32", "echo", "printf", "print", "which",
		"type", "whereis", "lsof", "source", ".", "sort", "awk", "gawk", "mawk", "nawk", "sed",
		"tree", "bat", "batcat", "view", "true", "false", ":", "exit", "return", "wait", "sleep",
		"date", "pwd", "whoami", "id", "hostname", "uname", "env", "printenv", "expr", "seq",
		"ssh-keygen", "unset", "local", "export", "declare", "typeset", "let", "read", "shift",
		"getopts", "hash", "help", "history", "jobs", "umask", "ulimit":
		return true
	}
	return false
}

// writerLabel is the pattern reported for a command that modifies a
// protected file: "NAME protected file" for the writers, built once.
func writerLabel(name string) string {
	for i, w := range writers {
		if w == name {
			return writerLabels[i]
		}
	}
	return "modify protected file"
}

// writers are the commands writerLabel names.
var writers = [...]string{
	"rm", "mv", "truncate", "shred", "chmod", "chown", "chgrp", "chattr", "setfacl", "sqlite3",
	"psql", "mysql", "touch", "unlink", "git", "tar", "bsdtar", "unzip", "gzip", "bzip2", "xz",
	"zip", "perl", "python", "ruby", "node", "php", "vim", "vi", "nano", "emacs", "ed", "ex",
	"patch", "awk", "curl", "wget", "sort", "uniq", "sudoedit", "srm", "wipe", "openssl",
}

var writerLabels = func() (labels [len(writers)]string) {
	for i, w := range writers {
		labels[i] = w + " protected file"
	}
	return labels
}()
