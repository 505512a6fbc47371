package shell

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// Folding computes the output of commands whose output depends only on their
// arguments and input: echo, printf, base64 -d, xxd -r -p, rev, tr, cat,
// which. It is how `$(printf '\x72m')`, `echo cm0gLXJmIC8= | base64 -d | sh`
// and `echo / | xargs rm -rf` are seen through.

// foldScript returns the output of a command substitution's script.
func foldScript(s *Script, st *state) (string, bool) {
	if len(s.Funcs) > 0 || len(s.Subs) > 0 || len(s.Commands) == 0 {
		return "", false
	}
	return foldCommands(s.Commands, st)
}

// foldCommands returns the concatenated output of cmds, run in order, each
// pipeline feeding its commands' output to the next.
func foldCommands(cmds []Command, st *state) (string, bool) {
	var out strings.Builder
	for i := 0; i < len(cmds); {
		j := i + 1
		for j < len(cmds) && cmds[j].Pipeline == cmds[i].Pipeline {
			j++
		}
		in := ""
		for k := i; k < j; k++ {
			c := &cmds[k]
			if c.Position != k-i || (k == i && c.Piped) || len(c.Args) == 0 {
				return "", false
			}
			for _, r := range c.Redirects {
				switch {
				case r.Fd == 2 || r.Op == ">&" && r.Target.Value == "1":
				case (r.Op == "<<<" || r.Op == "<<" || r.Op == "<<-") && k == i && !r.Target.Opaque:
					in = r.Target.Value
					if r.Op == "<<<" {
						in += "\n"
					}
				default:
					return "", false
				}
			}
			o, ok := foldOne(c.Args, in)
			if !ok || st.charge(len(o)) != nil {
				return "", false
			}
			in = o
		}
		if i == 0 && j == len(cmds) {
			return in, true // one pipeline: its output, not a copy
		}
		out.WriteString(in)
		i = j
	}
	return out.String(), true
}

// foldOutput returns what c writes to its standard output, ignoring its
// output redirections.
func foldOutput(c *Command, st *state) (string, bool) {
	d := *c
	d.Redirects = nil
	d.Piped = false
	d.Position = 0
	for _, r := range c.Redirects {
		switch r.Op {
		case "<<", "<<-", "<<<":
			d.Redirects = append(d.Redirects, r)
		case "<", "<>", "<&":
			return "", false
		}
	}
	if c.Piped {
		return "", false
	}
	return foldCommands([]Command{d}, st)
}

// foldOne returns the output of one command given its input: the command
// is folded only when none of its words is opaque and it is one of those
// below, with options whose effect is known.
func foldOne(args []Word, in string) (string, bool) {
	for _, w := range args {
		if w.Opaque {
			return "", false
		}
	}
	rest := args[1:]
	switch cmdName(args[0].Value) {
	case "echo":
		return foldEcho(rest), true
	case "printf":
		return foldPrintf(rest)
	case "base64":
		return foldBase64(rest, in)
	case "xxd":
		return foldXxd(rest, in)
	case "rev":
		return foldRev(rest, in)
	case "cat":
		return foldCat(rest, in)
	case "tr":
		return foldTr(rest, in)
	case "which", "command", "type":
		return foldWhich(rest), true
	case "true", ":":
		return "", true
	}
	return "", false
}

// foldPrintf returns what printf prints; printf -v prints nothing.
func foldPrintf(args []Word) (string, bool) {
	if len(args) == 0 || args[0].Value == "-v" {
		return "", false
	}
	if args[0].Value == "--" {
		args = args[1:]
		if len(args) == 0 {
			return "", false
		}
	}
	vals := make([]string, len(args)-1)
	for i, w := range args[1:] {
		vals[i] = w.Value
	}
	return printf(args[0].Value, vals)
}

// foldBase64 returns what base64 -d decodes from in.
func foldBase64(args []Word, in string) (string, bool) {
	decode := false
	for _, w := range args {
		switch v := w.Value; {
		case v == "-d" || v == "--decode" || v == "-D" || v == "-di" || v == "-id" || v == "-i" || v == "--ignore-garbage":
			decode = decode || v != "-i" && v != "--ignore-garbage"
		case v == "-":
		default:
			return "", false
		}
	}
	if !decode {
		return "", false
	}
	return decodeBase64(in)
}

// foldXxd returns what xxd -r -p decodes from the hex in in.
func foldXxd(args []Word, in string) (string, bool) {
	r, p := false, false
	for _, w := range args {
		v := w.Value
		if len(v) < 2 || v[0] != '-' {
			return "", false
		}
		for _, c := range v[1:] {
			switch c {
			case 'r':
				r = true
			case 'p':
				p = true
			case 's':
			default:
				return "", false
			}
		}
	}
	if !r || !p {
		return "", false
	}
	h := strings.Map(func(r rune) rune {
		if isIFS(byte(r)) || r == '\r' {
			return -1
		}
		return r
	}, in)
	b, err := hex.DecodeString(h)
	return string(b), err == nil
}

// foldRev returns in with each line reversed.
func foldRev(args []Word, in string) (string, bool) {
	if len(args) > 0 {
		return "", false
	}
	lines := strings.SplitAfter(in, "\n")
	var b strings.Builder
	for _, l := range lines {
		nl := strings.HasSuffix(l, "\n")
		l = strings.TrimSuffix(l, "\n")
		r := []byte(l)
		for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
			r[i], r[j] = r[j], r[i]
		}
		b.Write(r)
		if nl {
			b.WriteByte('\n')
		}
	}
	return b.String(), true
}

// foldCat returns in when cat reads only its standard input.
func foldCat(args []Word, in string) (string, bool) {
	for _, w := range args {
		if w.Value != "-" {
			return "", false
		}
	}
	return in, true
}

// foldWhich returns the path which, command -v and type would print,
// assuming every command is in /usr/bin.
func foldWhich(args []Word) string {
	var b strings.Builder
	for _, w := range args {
		if strings.HasPrefix(w.Value, "-") {
			continue
		}
		b.WriteString("/usr/bin/" + cmdName(w.Value) + "\n")
	}
	return b.String()
}

func foldEcho(args []Word) string {
	newline, escapes := true, false
	i := 0
	for ; i < len(args); i++ {
		v := args[i].Value
		if len(v) < 2 || v[0] != '-' || strings.Trim(v[1:], "neE") != "" {
			break
		}
		for _, c := range v[1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
	}
	if !escapes {
		n := 1
		for _, w := range args[i:] {
			n += len(w.Value) + 1
		}
		var b strings.Builder
		b.Grow(n)
		for k, w := range args[i:] {
			if k > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(w.Value)
		}
		if newline {
			b.WriteByte('\n')
		}
		return b.String()
	}
	var out []byte
	for k, w := range args[i:] {
		if k > 0 {
			out = append(out, ' ')
		}
		var stop bool
		out, stop = unescapeAll(out, w.Value, escEcho)
		if stop {
			return string(out)
		}
	}
	if newline {
		out = append(out, '\n')
	}
	return string(out)
}

// unescapeAll decodes backslash escapes in s; stop reports echo's \c.
func unescapeAll(out []byte, s string, style escStyle) ([]byte, bool) {
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			out = append(out, s[i])
			i++
			continue
		}
		var n int
		out, n = unescapeOne(out, s[i+1:], style)
		if n < 0 {
			return out, true
		}
		i += 1 + n
	}
	return out, false
}

// printf implements the subset of printf(1) used to spell commands.
func printf(format string, args []string) (string, bool) {
	var out []byte
	for pass := 0; pass < 64; pass++ {
		used := 0
		for i := 0; i < len(format); {
			c := format[i]
			switch {
			case c == '\\':
				var n int
				out, n = unescapeOne(out, format[i+1:], escPrintf)
				i += 1 + n
			case c == '%' && i+1 < len(format) && format[i+1] == '%':
				out = append(out, '%')
				i += 2
			case c == '%':
				j := i + 1
				for j < len(format) && strings.IndexByte("-+ #0123456789.", format[j]) >= 0 {
					j++
				}
				if j >= len(format) {
					return "", false
				}
				arg := ""
				if used < len(args) {
					arg = args[used]
				}
				used++
				spec := format[i:j]
				switch verb := format[j]; verb {
				case 's':
					out = fmt.Appendf(out, spec+"s", arg)
				case 'b':
					var stop bool
					out, stop = unescapeAll(out, arg, escEcho)
					if stop {
						return string(out), true
					}
				case 'c':
					if arg != "" {
						out = append(out, arg[0])
					}
				case 'd', 'i', 'x', 'X', 'o', 'u':
					n, err := strconv.ParseInt(arg, 0, 64)
					if arg == "" {
						n, err = 0, nil
					}
					if err != nil {
						return "", false
					}
					v := verb
					if v == 'i' || v == 'u' {
						v = 'd'
					}
					out = fmt.Appendf(out, spec+string(v), n)
				default:
					return "", false
				}
				i = j + 1
			default:
				out = append(out, c)
				i++
			}
			if len(out) > MaxLen {
				return "", false
			}
		}
		if used == 0 || used >= len(args) {
			return string(out), true
		}
		args = args[used:]
	}
	return "", false
}

func decodeBase64(in string) (string, bool) {
	if out, ok, done := decodeBase64Short(in); done {
		return out, ok
	}
	return decodeBase64Any(in)
}

// decodeBase64Any is decodeBase64's definition, for any input: whitespace
// removed, then standard, unpadded or URL-safe alphabet.
func decodeBase64Any(in string) (string, bool) {
	s := strings.Map(func(r rune) rune {
		if isIFS(byte(r)) || r == '\r' {
			return -1
		}
		return r
	}, in)
	if b, err := base64.StdEncoding.DecodeString(s); err == nil {
		return string(b), true
	}
	if b, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "=")); err == nil {
		return string(b), true
	}
	if b, err := base64.URLEncoding.DecodeString(s); err == nil {
		return string(b), true
	}
	return "", false
}

// decodeBase64Short is decodeBase64 for short ASCII input, decoded in
// buffers on the stack. It reports done false for other input.
func decodeBase64Short(in string) (out string, ok, done bool) {
	var src [256]byte
	var dst [192]byte
	if len(in) > len(src) {
		return "", false, false
	}
	s := src[:0]
	for i := 0; i < len(in); i++ {
		switch c := in[i]; {
		case c >= 0x80:
			return "", false, false // decodeBase64 maps runes, not bytes
		case !isIFS(c) && c != '\r':
			s = append(s, c)
		}
	}
	if n, err := base64.StdEncoding.Decode(dst[:], s); err == nil {
		return string(dst[:n]), true, true
	}
	if n, err := base64.RawStdEncoding.Decode(dst[:], bytes.TrimRight(s, "=")); err == nil {
		return string(dst[:n]), true, true
	}
	if n, err := base64.URLEncoding.Decode(dst[:], s); err == nil {
		return string(dst[:n]), true, true
	}
	return "", false, true
}

// foldTr implements tr SET1 SET2 and tr -d SET1 over single bytes.
func foldTr(args []Word, in string) (string, bool) {
	del := false
	var sets []string
	for _, w := range args {
		switch v := w.Value; {
		case v == "-d":
			del = true
		case len(v) > 1 && v[0] == '-':
			return "", false
		default:
			sets = append(sets, v)
		}
	}
	if len(sets) == 0 {
		return "", false
	}
	s1, ok := trSet(sets[0])
	if !ok {
		return "", false
	}
	if del {
		if len(sets) != 1 {
			return "", false
		}
		var drop [256]bool
		for _, c := range s1 {
			drop[c] = true
		}
		out := make([]byte, 0, len(in))
		for i := 0; i < len(in); i++ {
			if !drop[in[i]] {
				out = append(out, in[i])
			}
		}
		return string(out), true
	}
	if len(sets) != 2 {
		return "", false
	}
	s2, ok := trSet(sets[1])
	if !ok || len(s2) == 0 {
		return "", false
	}
	var m [256]byte
	for i := range m {
		m[i] = byte(i)
	}
	for i, c := range s1 {
		if i < len(s2) {
			m[c] = s2[i]
		} else {
			m[c] = s2[len(s2)-1]
		}
	}
	out := make([]byte, len(in))
	for i := 0; i < len(in); i++ {
		out[i] = m[in[i]]
	}
	return string(out), true
}

func trSet(s string) ([]byte, bool) {
	var out []byte
	for i := 0; i < len(s); {
		if strings.HasPrefix(s[i:], "[:") {
			end := strings.Index(s[i:], ":]")
			if end < 0 {
				return nil, false
			}
			name := s[i+2 : i+end]
			for c := 0; c < 256; c++ {
				if inClass(name, byte(c)) {
					out = append(out, byte(c))
				}
			}
			i += end + 2
			continue
		}
		c := s[i]
		n := 1
		if c == '\\' && i+1 < len(s) {
			var b []byte
			var k int
			b, k = unescapeOne(nil, s[i+1:], escPrintf)
			if len(b) != 1 {
				return nil, false
			}
			c, n = b[0], 1+k
		}
		if i+n+1 < len(s) && s[i+n] == '-' {
			hi := s[i+n+1]
			if hi < c {
				return nil, false
			}
			for x := int(c); x <= int(hi); x++ {
				out = append(out, byte(x))
			}
			i += n + 2
			continue
		}
		out = append(out, c)
		i += n
	}
	return out, true
}
