package upstream

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/wardhq/ward/internal/tool"
)

// FuzzToolName checks that any upstream tool name yields a valid ward tool
// name of at most 64 bytes, or none.
func FuzzToolName(f *testing.F) {
	for _, s := range []string{"get_note", "setNote", "getHTTPStatus", "search-docs.v2", "__x__", "Ünïcode", "---", strings.Repeat("abc_", 40), "a\x00b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		local := Sanitize(s)
		name := ToolName("srv_1", s)
		if local == "" {
			return
		}
		if len(name) > 64 || !tool.ValidDefName(name) || !strings.HasPrefix(name, "mcp_srv_1_") {
			t.Errorf("ToolName(%q) = %q: not a valid ward name", s, name)
		}
	})
}

// FuzzClean checks that cleaned upstream text is valid UTF-8, bounded and
// free of control and bidirectional-override characters.
func FuzzClean(f *testing.F) {
	for _, s := range []string{"plain", "a\x1b[31mred", "\u202eevil", "line\nnext\ttab", "\xff\xfe", strings.Repeat("é", 600)} {
		f.Add(s, 40)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n < 1 || n > 4096 {
			return
		}
		c := clean(s, n)
		if !utf8.ValidString(c) || len(c) > n+len("…") {
			t.Errorf("clean(%q, %d) = %q: invalid or too long", s, n, c)
		}
		for _, r := range c {
			if (unicode.IsControl(r) && r != '\n' && r != '\t') || (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069') {
				t.Errorf("clean(%q) kept %U", s, r)
			}
		}
	})
}
