package shell

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestNormalize checks normalize against its definition, byte by byte.
func TestNormalize(t *testing.T) {
	want := func(s string) string {
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			switch {
			case s[i] == '\'' || s[i] == '"' || s[i] == '\\':
			case strings.HasPrefix(s[i:], "${IFS}"):
				b.WriteByte(' ')
				i += 5
			case strings.HasPrefix(s[i:], "$IFS"):
				b.WriteByte(' ')
				i += 3
			default:
				b.WriteByte(s[i])
			}
		}
		return b.String()
	}
	r := rand.New(rand.NewPCG(7, 8))
	parts := []string{"a", "rm", " ", "'", `"`, `\`, "$", "$IFS", "${IFS}", "${IFS", "$I", "{", "}", "-rf", "/"}
	for range 20000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		s := b.String()
		if got := string(normalize(nil, s)); got != want(s) {
			t.Errorf("normalize(%q) = %q, want %q", s, got, want(s))
		}
		if needsNormal(s) != (want(s) != s) {
			t.Errorf("needsNormal(%q) = %v, want %v", s, needsNormal(s), want(s) != s)
		}
	}
}

// TestRawStart checks that rawStart admits the first two bytes of every
// raw pattern, in any case where the pattern ignores case.
func TestRawStart(t *testing.T) {
	for _, p := range []string{"rm", "re", "RE", "rE", "Re", "sh", "SH", "dr", "DR", "dd", "ki", "mk", "tr", "TR", ">/", "> "} {
		if !rawLeads[p[0]] || !rawStart(p[0], p[1]) {
			t.Errorf("rawStart(%q, %q) = false, want true", p[0], p[1])
		}
	}
}
