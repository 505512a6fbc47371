package shell

import (
	"math/rand/v2"
	"path"
	"slices"
	"strings"
	"testing"
)

// randomPaths returns path-like strings made of the bytes that matter to
// path.Clean, path.Match and pathsIn.
func randomPaths(n int, alphabet string) []string {
	r := rand.New(rand.NewPCG(3, 4))
	out := []string{"", ".", "..", "/", "//", "./", "../", "a", "/a", "a/", "./a", "../a", "a/./b", "a//b", "/a/..", "~/x"}
	for range n {
		b := make([]byte, r.IntN(10))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		out = append(out, string(b))
	}
	return out
}

func TestClean(t *testing.T) {
	for _, p := range randomPaths(20000, "/./ab") {
		if got, want := clean(p), path.Clean(p); got != want {
			t.Errorf("clean(%q) = %q, want %q", p, got, want)
		}
	}
}

func TestJoin(t *testing.T) {
	dirs := []string{"/", "/work", "/work/agent", "/home/~"}
	for _, rel := range randomPaths(20000, "/./ab") {
		if rel == "" || rel[0] == '/' {
			continue
		}
		for _, dir := range dirs {
			if got, want := join(dir, rel), path.Join(dir, rel); got != want {
				t.Errorf("join(%q, %q) = %q, want %q", dir, rel, got, want)
			}
		}
	}
}

// TestLiteralEnds checks that every name path.Match accepts starts and ends
// as literalEnds says, so that probe may skip the others.
func TestLiteralEnds(t *testing.T) {
	names := append(randomPaths(300, "ab.*?[]\\-"), probeNames[:]...)
	for _, pat := range randomPaths(3000, "ab.*?[]\\-^!") {
		prefix, suffix := literalEnds(pat)
		for _, n := range names {
			if ok, err := path.Match(pat, n); err == nil && ok && (!strings.HasPrefix(n, prefix) || !strings.HasSuffix(n, suffix)) {
				t.Errorf("path.Match(%q, %q) = true, but literalEnds = %q, %q", pat, n, prefix, suffix)
			}
		}
	}
}

func TestPathsIn(t *testing.T) {
	tests := []struct {
		word string
		want []string
	}{
		{"", nil},
		{"ward.db", []string{"ward.db"}},
		{"-la", nil},
		{"--out=data/ward.db", []string{"data/ward.db"}},
		{"-o", nil},
		{"a b", nil},
		{"f=@wallet.json", []string{"f=@wallet.json", "wallet.json", "wallet.json"}},
		{"@.env", []string{".env"}},
		{"user@host:/etc/x", []string{"user@host:/etc/x", "host:/etc/x", "user@host", "/etc/x"}},
		{"https://x/y", nil},
		{"file:///etc/shadow", []string{"/etc/shadow"}},
		{"--x=file://a:b", []string{"a:b", "a", "b"}},
		{"a=b=c", []string{"a=b=c", "b=c"}},
	}
	for _, tc := range tests {
		var got []string
		pathsIn(tc.word, func(s string) bool {
			got = append(got, s)
			return false
		})
		if !slices.Equal(got, tc.want) {
			t.Errorf("pathsIn(%q) asks %q, want %q", tc.word, got, tc.want)
		}
	}
}

// TestEnvAskedOnce checks that Analyze asks Env about each string at most
// once per call.
func TestEnvAskedOnce(t *testing.T) {
	base := testEnv()
	var cmds []string
	for _, tc := range forbidden {
		cmds = append(cmds, tc.cmd)
	}
	cmds = append(cmds, benign...)
	for _, cmd := range cmds {
		asked := map[string]int{}
		env := *base
		env.Protected = func(p string) bool { asked["protected "+p]++; return base.Protected(p) }
		env.Sensitive = func(p string) bool { asked["sensitive "+p]++; return base.Sensitive(p) }
		want, _ := Analyze(cmd, base)
		got, _ := Analyze(cmd, &env)
		if !slices.Equal(got, want) {
			t.Errorf("Analyze(%q) = %v, want %v", cmd, got, want)
		}
		if len(asked) > memoSize {
			continue
		}
		for q, n := range asked {
			if n > 1 {
				t.Errorf("Analyze(%q) asks %s %d times", cmd, q, n)
			}
		}
	}
}

func TestMaxSysDir(t *testing.T) {
	longest := 0
	for _, d := range sysDirs {
		longest = max(longest, len(d))
	}
	if maxSysDir != longest {
		t.Errorf("maxSysDir = %d, want %d, the length of the longest of sysDirs", maxSysDir, longest)
	}
}
