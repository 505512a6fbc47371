package shell

import (
	"strings"
)

// Exfiltration, mass deletion through other tools, and git clean.
//
// A command line exfiltrates when it uploads one of the agent's protected
// or secret files, or when it archives, copies or encodes one (or a
// directory holding one) and uploads anything: the archive need not be
// named again, as `tar c ~/.aws | curl -T - …` and `zip -r x ~/.ssh; curl
// -F f=@x …` show.

// transfer notes what the command does toward exfiltration: packing a
// protected path, uploading. An upload that names a protected path itself
// is reported at once.
func (a *analyzer) transfer(x *call, name string, args []Word) {
	if packs(name) || treeReader(name, args) {
		for _, w := range args[1:] {
			a.pack(w.Value)
			if _, secret := a.rel(w.Value, nil); secret&relSame != 0 {
				a.add(ReadSecrets, "secret directory")
			}
		}
	}
	if !a.uploads(x, name, args) {
		return
	}
	a.upload = true
	for _, w := range args[1:] {
		if a.exposes(w.Value) {
			a.add(Exfiltrate, "upload protected file")
			return
		}
	}
	for _, r := range x.c.Redirects {
		if (r.Op == "<" || r.Op == "<>") && a.exposes(r.Target.Value) {
			a.add(Exfiltrate, "upload protected file")
			return
		}
	}
}

// pack notes an operand of an archiving or copying command. Whether it
// exposes anything matters only if the command line uploads, which is
// rare: it is kept to be checked then (packedAny).
func (a *analyzer) pack(v string) {
	if a.packed {
		return
	}
	if a.npacks < maxPacks {
		a.packs[a.npacks] = packWord{v: v, cwd: a.cwd}
		a.npacks++
		return
	}
	a.packed = a.exposes(v)
}

// packedAny reports whether the command line archived, copied or encoded
// something it may not send out.
func (a *analyzer) packedAny() bool {
	saved := a.cwd
	defer func() { a.cwd = saved }()
	for _, p := range a.packs[:a.npacks] {
		if a.packed {
			break
		}
		a.cwd = p.cwd
		a.packed = a.exposes(p.v)
	}
	return a.packed
}

// packs reports commands that archive, compress, copy or encode the files
// they are given.
func packs(name string) bool {
	switch name {
	case "tar", "bsdtar", "zip", "7z", "7za", "7zr", "rar", "gzip", "bzip2", "xz", "zstd", "lz4", "pigz",
		"pixz", "compress", "cpio", "pax", "ar", "shar", "ditto", "cp", "rsync", "install", "dd", "cat", "tac",
		"base64", "base32", "basenc", "xxd", "od", "hexdump", "uuencode", "openssl", "gpg", "gpg2", "age",
		"sqlite3", "split", "head", "tail", "rclone", "scp":
		return true
	}
	return false
}

// treeReader reports a command that reads every file under a directory
// it is given.
func treeReader(name string, args []Word) bool {
	switch name {
	case "rg", "ag", "ack", "zip", "7z", "7za":
		return true
	case "grep", "egrep", "fgrep", "zgrep":
		return hasFlag(args, 'r', "--recursive") || hasFlag(args, 'R', "--dereference-recursive")
	}
	return false
}

// uploads reports a command that sends data over the network.
func (a *analyzer) uploads(x *call, name string, args []Word) bool {
	switch name {
	case "curl":
		for i := 1; i < len(args); i++ {
			v := args[i].Value
			switch {
			case strings.HasPrefix(v, "--upload-file"), strings.HasPrefix(v, "--form"), strings.HasPrefix(v, "--data"),
				strings.HasPrefix(v, "--json"), strings.HasPrefix(v, "--post"):
				return true
			case strings.HasPrefix(v, "--request") || strings.HasPrefix(v, "-X"):
				m := strings.TrimLeft(strings.TrimPrefix(strings.TrimPrefix(v, "--request"), "-X"), "=")
				if m == "" && i+1 < len(args) {
					m = args[i+1].Value
				}
				switch strings.ToUpper(m) {
				case "POST", "PUT", "PATCH":
					return true
				}
			case len(v) > 1 && v[0] == '-' && v[1] != '-':
				// A cluster of short options up to one that takes a value.
				for _, c := range v[1:] {
					if c == 'T' || c == 'F' || c == 'd' {
						return true
					}
					if strings.ContainsRune("AbcCDeEHKmoPQrtuUwxXyYz", c) {
						break
					}
				}
			}
		}
	case "wget", "wget2":
		for _, w := range args[1:] {
			for _, o := range [...]string{"--post-file", "--body-file", "--post-data", "--body-data", "--method"} {
				if strings.HasPrefix(w.Value, o) {
					return true
				}
			}
		}
	case "scp", "sftp", "rsync":
		for _, w := range args[1:] {
			if remotePath(w.Value) {
				return true
			}
		}
		return name == "sftp"
	case "nc", "ncat", "netcat", "nc.traditional", "nc.openbsd", "socat", "telnet", "ssh", "ftp", "lftp", "tftp",
		"smbclient", "azcopy", "s3cmd", "rclone", "mc", "b2":
		return true
	case "aws", "gsutil", "gcloud", "az", "gh":
		for _, w := range args[1:] {
			switch w.Value {
			case "cp", "mv", "sync", "rsync", "put-object", "upload", "upload-batch", "create", "gist":
				return true
			}
		}
	}
	return a.net
}

// remotePath reports an scp or rsync operand on another host:
// [user@]host:path or host::module.
func remotePath(v string) bool {
	i := strings.IndexByte(v, ':')
	if i <= 0 || v[0] == '-' || strings.Contains(v, "://") {
		return strings.HasPrefix(v, "rsync://")
	}
	return strings.IndexByte(v[:i], '/') < 0
}

// hasRecursive reports rm's recursive option in any spelling.
func hasRecursive(args []Word) bool {
	for _, w := range args[1:] {
		v := w.Value
		switch {
		case v == "--":
			return false
		case v == "--recursive" || strings.HasPrefix(v, "--recursive="):
			return true
		case len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.ContainsAny(v, "rR"):
			return true
		}
	}
	return false
}

// guessItems returns the operands xargs would read from the command that
// feeds it, when that command says what it lists: ls lists the entries of
// its operands ("*" of the current directory by default), find every file
// under its starting points (tree) or, when it filters, files with the
// names it asks for. ok is false when nothing is known of them.
func (a *analyzer) guessItems(x *call, args []Word) (items []string, tree, ok bool) {
	if _, file := optValue(args, 'a', "--arg-file"); file || x.feed == nil || len(x.feed.Args) == 0 {
		return nil, false, false
	}
	return listed(x.feed.Args)
}

// listed returns what the command args prints, if it is a command that
// lists files and says which (see guessItems).
func listed(feed []Word) (items []string, tree, ok bool) {
	switch cmdName(feed[0].Value) {
	case "ls", "dir", "vdir", "exa", "eza":
		ops := operands(feed, "ITw", []string{"--ignore", "--hide", "--tabsize", "--width", "--format", "--sort", "--time", "--time-style", "--color", "--indicator-style", "--quoting-style", "--block-size"})
		if len(ops) == 0 {
			return []string{"*"}, false, true
		}
		for _, w := range ops {
			items = append(items, w.Value)
		}
		return items, hasFlag(feed, 'R', "--recursive"), true
	case "find", "gfind":
		f := parseFind(feed)
		if f.filtered {
			for _, w := range f.names {
				items = append(items, w.Value)
			}
			return items, false, len(items) > 0
		}
		for _, w := range f.starts {
			items = append(items, w.Value)
		}
		return items, true, true
	}
	return nil, false, false
}

// substItems returns the operands a command substitution in w stands for,
// when it is a command that lists files (ls, find): `rm -rf $(ls -d w*)`
// removes what ls lists. ok is false for any other word.
func (a *analyzer) substItems(w Word, depth int) (items []string, tree, ok bool) {
	if !w.Subst {
		return nil, false, false
	}
	v := w.Value
	var inner string
	switch {
	case strings.HasPrefix(v, "$(") && strings.HasSuffix(v, ")"):
		inner = v[2 : len(v)-1]
	case len(v) > 1 && v[0] == '`' && v[len(v)-1] == '`':
		inner = v[1 : len(v)-1]
	default:
		return nil, false, false
	}
	s, err := parse(inner, depth, a.st, nil)
	if err != nil || len(s.Commands) != 1 || len(s.Commands[0].Args) == 0 {
		return nil, false, false
	}
	return listed(s.Commands[0].Args)
}

// gitClean checks git clean, which deletes the files git does not track
// (-d: and directories; -x, -X: and ignored files, where state, secrets and
// local configuration usually are) under the current directory or the
// paths it is given. Only a dry run (-n) deletes nothing; without -f git
// refuses by default, but the configuration may allow it.
func (a *analyzer) gitClean(args []Word) {
	i := skipOptions(args, 1, "Cc", gitLong[:])
	if i >= len(args) || args[i].Value != "clean" {
		return
	}
	dir := a.cwd
	for k := 1; k+1 < i; k++ {
		if args[k].Value == "-C" {
			if args[k+1].Opaque {
				return
			}
			dir = a.resolve(args[k+1].Value, dir)
			if dir != "" && dir[0] != '/' {
				return // relative to an unknown directory
			}
		}
	}
	var paths []Word
	end := false
	for k := i + 1; k < len(args); k++ {
		v := args[k].Value
		switch {
		case end || len(v) < 2 || v[0] != '-':
			paths = append(paths, args[k])
		case v == "--":
			end = true
		case v == "--dry-run":
			return
		case v == "--exclude":
			k++
		case v[1] == '-':
		default:
			if strings.IndexByte(v, 'n') > 0 {
				return
			}
			if e := strings.IndexByte(v, 'e'); e > 0 && e == len(v)-1 {
				k++
			}
		}
	}
	saved := a.cwd
	a.cwd = dir
	defer func() { a.cwd = saved }()
	if len(paths) == 0 {
		if dir == "" {
			return
		}
		paths = []Word{{Value: "."}}
	}
	for _, w := range paths {
		if cls, ok := a.dangerTarget(w); ok {
			a.add(DestroyFiles, "git clean "+cls)
		} else if a.ownTree(w) {
			a.add(DestroyState, "git clean protected path")
		}
	}
}
