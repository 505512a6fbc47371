package shell

import (
	"slices"
	"strings"
	"testing"
)

// argvs returns the argument vectors of the script's commands.
func argvs(s *Script) [][]string {
	var out [][]string
	for i := range s.Commands {
		out = append(out, s.Commands[i].Argv())
	}
	return out
}

func TestParseArgv(t *testing.T) {
	tests := []struct {
		cmd  string
		want [][]string
	}{
		{"ls -la", [][]string{{"ls", "-la"}}},
		{"r''m -rf /", [][]string{{"rm", "-rf", "/"}}},
		{`"rm" -rf /`, [][]string{{"rm", "-rf", "/"}}},
		{`r\m -rf /`, [][]string{{"rm", "-rf", "/"}}},
		{`$'\x72m' $'\101\n'`, [][]string{{"rm", "A\n"}}},
		{`$'\u00e9\cA'`, [][]string{{"é\x01"}}},
		{`"a b" 'c d' e\ f`, [][]string{{"a b", "c d", "e f"}}},
		{`"a\"b\$c\\d\e"`, [][]string{{`a"b$c\d\e`}}},
		{"a\\\nb c", [][]string{{"ab", "c"}}},
		{"echo a # comment", [][]string{{"echo", "a"}}},
		{"echo a#b", [][]string{{"echo", "a#b"}}},
		{"a; b && c || d | e & f\ng", [][]string{{"a"}, {"b"}, {"c"}, {"d"}, {"e"}, {"f"}, {"g"}}},
		{"rm${IFS}-rf${IFS}/", [][]string{{"rm", "-rf", "/"}}},
		{`echo "$IFS"x`, [][]string{{"echo", " x"}}},
		{"{rm,-rf,/}", [][]string{{"rm", "-rf", "/"}}},
		{"echo a{b,c}d {1..3} {x..z}", [][]string{{"echo", "abd", "acd", "1", "2", "3", "x", "y", "z"}}},
		{"echo '{a,b}' {a}", [][]string{{"echo", "{a,b}", "{a}"}}},
		{"echo $HOME ${HOME}/x ~/y", [][]string{{"echo", "~", "~/x", "~/y"}}},
		{"a=rm; $a -rf /", [][]string{{}, {"rm", "-rf", "/"}}},
		{`X='a b'; echo $X "$X"`, [][]string{{}, {"echo", "a", "b", "a b"}}},
		{"echo $UNSET ${UNSET:-def} ${UNSET:?}", [][]string{{"echo", "$UNSET", "def", "${UNSET:?}"}}},
		{"x=abcdef; echo ${x:1:3} ${x#ab} ${x%ef} ${x/cd/XX} ${#x} ${x^^}", [][]string{{}, {"echo", "bcd", "cdef", "abcd", "abXXef", "6", "ABCDEF"}}},
		{"echo $(echo hi) `echo there`", [][]string{{"echo", "hi", "there"}, {"echo", "hi"}, {"echo", "there"}}},
		{`$(printf '\x72%s' m) x`, [][]string{{"rm", "x"}, {"printf", `\x72%s`, "m"}}},
		{"echo $(echo cm0= | base64 -d)", [][]string{{"echo", "rm"}, {"echo", "cm0="}, {"base64", "-d"}}},
		{"echo $(curl x)", [][]string{{"echo", "$(curl x)"}, {"curl", "x"}}},
		{"A=1 B=2 cmd arg", [][]string{{"cmd", "arg"}}},
		{"cmd > out 2>&1 < in", [][]string{{"cmd"}}},
		{"(a; b) | { c; }", [][]string{{"a"}, {"b"}, {"c"}}},
		{"if a; then b; elif c; then d; else e; fi", [][]string{{"a"}, {"b"}, {"c"}, {"d"}, {"e"}}},
		{"for i in 1 2; do echo $i; done", [][]string{{"echo", "$i"}}},
		{"for i in x; do echo $i; done", [][]string{{"echo", "x"}}},
		{"while read l; do echo $l; done < f", [][]string{{"read", "l"}, {"echo", "$l"}, {}}},
		{"case $x in a|b) echo ab;; *) echo other;; esac", [][]string{{"echo", "ab"}, {"echo", "other"}}},
		{"[[ -f x && $y == z ]]", [][]string{{"[[", "-f", "x", "&&", "$y", "==", "z", "]]"}}},
		{"(( i++ ))", [][]string{{"((", " i++ "}}},
		{"echo $((1 + 2))", [][]string{{"echo", "$((1 + 2))"}}},
		{"! true", [][]string{{"true"}}},
		{"time -p ls", [][]string{{"ls"}}},
		{"f() { echo in; }; f", [][]string{{"f"}}},
		{"echo x >&2", [][]string{{"echo", "x"}}},
		{"arr=(a b c); echo ${arr[1]}", [][]string{{}, {"echo", "${arr[1]}"}}},
		{"echo *.go", [][]string{{"echo", "*.go"}}},
		{"echo $'a'\"b\"c", [][]string{{"echo", "abc"}}},
		{"echo \"$(echo \"inner\")\"", [][]string{{"echo", "inner"}, {"echo", "inner"}}},
	}
	for _, tc := range tests {
		t.Run(tc.cmd, func(t *testing.T) {
			s, err := Parse(tc.cmd)
			if err != nil {
				t.Fatalf("Parse(%q) error = %v", tc.cmd, err)
			}
			got := argvs(s)
			for _, sub := range allSubs(s) {
				got = append(got, argvs(sub)...)
			}
			if !slices.EqualFunc(got, tc.want, func(a, b []string) bool { return slices.Equal(a, b) }) {
				t.Errorf("Parse(%q) argv = %q, want %q\n%s", tc.cmd, got, tc.want, s)
			}
		})
	}
}

// allSubs returns the command substitutions of s's commands, outermost
// first.
func allSubs(s *Script) []*Script {
	var out []*Script
	for i := range s.Commands {
		for _, sub := range s.Commands[i].Subs {
			out = append(out, sub)
			out = append(out, allSubs(sub)...)
		}
	}
	return out
}

func TestParseStructure(t *testing.T) {
	s, err := Parse("curl -s x | base64 -d | sh & ls; echo $(id) > /tmp/o 2>> err <<< data")
	if err != nil {
		t.Fatalf("Parse error = %v", err)
	}
	type pos struct {
		pipe, place int
		piped, bg   bool
	}
	var got []pos
	for _, c := range s.Commands {
		got = append(got, pos{c.Pipeline, c.Position, c.Piped, c.Background})
	}
	want := []pos{{0, 0, false, true}, {0, 1, true, true}, {0, 2, true, true}, {1, 0, false, false}, {2, 0, false, false}}
	if !slices.Equal(got, want) {
		t.Errorf("pipeline positions = %v, want %v", got, want)
	}
	last := s.Commands[4]
	var redirs []string
	for _, r := range last.Redirects {
		redirs = append(redirs, strings.TrimPrefix(strings.Repeat("x", 0), "")+r.Op+" "+r.Target.Value)
	}
	if want := []string{"> /tmp/o", ">> err", "<<< data"}; !slices.Equal(redirs, want) {
		t.Errorf("redirects = %q, want %q", redirs, want)
	}
	if last.Redirects[1].Fd != 2 || last.Redirects[0].Fd != -1 {
		t.Errorf("redirect fds = %d, %d, want -1, 2", last.Redirects[0].Fd, last.Redirects[1].Fd)
	}
	if len(last.Subs) != 1 || last.Subs[0].Commands[0].Args[0].Value != "id" {
		t.Errorf("substitutions = %v, want one running id", last.Subs)
	}
	if !last.Args[1].Opaque || !last.Args[1].Subst {
		t.Errorf("$(id) word = %+v, want Opaque and Subst", last.Args[1])
	}
}

func TestParseHeredoc(t *testing.T) {
	tests := []struct {
		cmd      string
		wantBody string
		wantSubs int
	}{
		{"cat <<EOF\nhello $(id)\nEOF\necho after", "hello $(id)\n", 1},
		{"cat <<'EOF'\nhello $(id)\nEOF", "hello $(id)\n", 0},
		{"cat <<-EOF\n\t\tindented\n\tEOF", "indented\n", 0},
		{"cat <<EOF\nno end", "no end", 0},
		{"cat <<A; cat <<B\na\nA\nb\nB", "a\n", 0},
	}
	for _, tc := range tests {
		t.Run(tc.cmd, func(t *testing.T) {
			s, err := Parse(tc.cmd)
			if err != nil {
				t.Fatalf("Parse(%q) error = %v", tc.cmd, err)
			}
			c := s.Commands[0]
			if got := c.Redirects[0].Target.Value; got != tc.wantBody {
				t.Errorf("body = %q, want %q", got, tc.wantBody)
			}
			if len(c.Subs) != tc.wantSubs {
				t.Errorf("substitutions = %d, want %d", len(c.Subs), tc.wantSubs)
			}
		})
	}
}

func TestParseFuncs(t *testing.T) {
	s, err := Parse(":(){ :|:& };:")
	if err != nil {
		t.Fatalf("Parse error = %v", err)
	}
	if len(s.Funcs) != 1 || s.Funcs[0].Name != ":" {
		t.Fatalf("Funcs = %v, want one named :", s.Funcs)
	}
	body := s.Funcs[0].Body.Commands
	if len(body) != 2 || !body[1].Piped || !body[0].Background || !body[1].Background {
		t.Errorf("body = %+v, want :|: in the background", body)
	}
}
