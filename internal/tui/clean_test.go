package tui

import (
	"testing"
	"unicode/utf8"
)

func TestClean(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		max      int
		want     string
	}{
		{"plain", "uniswap_swap_exact", 0, "uniswap_swap_exact"},
		{"unicode kept", "swap → ✓ ÉTH 日本", 0, "swap → ✓ ÉTH 日本"},
		{"csi", "a\x1b[31mred\x1b[0m", 0, "ared"},
		{"csi clear screen", "x\x1b[2J\x1b[1;1Hy", 0, "xy"},
		{"osc title bel", "a\x1b]0;pwned\x07b", 0, "ab"},
		{"osc hyperlink st", "a\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\b", 0, "alinkb"},
		{"dcs", "a\x1bPq#0;2;0;0;0\x1b\\b", 0, "ab"},
		{"apc", "a\x1b_payload\x07b", 0, "ab"},
		{"two-char escape", "a\x1bcb", 0, "ab"},
		{"charset designation", "a\x1b(0b", 0, "ab"},
		{"lone esc at end", "ab\x1b", 0, "ab"},
		{"unterminated osc", "ab\x1b]0;title", 0, "ab"},
		{"8-bit csi", "a\u009b31mb", 0, "ab"},
		{"8-bit osc", "a\u009d0;t\u009cb", 0, "ab"},
		{"raw 0x9b byte", "a\x9b31m", 0, "a\uFFFD31m"},
		{"c0 and del", "a\x00\x07\x08\x7fb", 0, "ab"},
		{"newlines become spaces", "a\r\nb\tc", 0, "a  b c"},
		{"bidi override", "file\u202eexe.txt", 0, "fileexe.txt"},
		{"zero width", "a\u200bb\u2060c\ufeff", 0, "abc"},
		{"line separator", "a\u2028b\u2029c", 0, "abc"},
		{"invalid utf8", "a\xffb", 0, "a\uFFFDb"},
		{"cut", "abcdefgh", 5, "abcd…"},
		{"exact fit", "abcde", 5, "abcde"},
		{"cut counts runes", "ééééééé", 3, "éé…"},
		{"empty", "", 5, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := clean(tc.in, tc.max); got != tc.want {
				t.Errorf("clean(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
			}
		})
	}
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{"", "a\x1b[31mb", "\x1b]0;x\x07", "\u009b1m", "\u202e", "\x1bP\x1b\\", "a\xffb", "\x1b[", "\x1b"} {
		f.Add(s, 0)
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		max %= 1000
		got := clean(s, max)
		if !utf8.ValidString(got) {
			t.Fatalf("clean(%q) = %q: invalid UTF-8", s, got)
		}
		n := 0
		for _, r := range got {
			n++
			if r < 0x20 || (r >= 0x7f && r <= 0x9f) {
				t.Fatalf("clean(%q) = %q: control %U", s, got, r)
			}
		}
		if max > 0 && n > max {
			t.Fatalf("clean(%q, %d) = %q: %d runes", s, max, got, n)
		}
		if again := clean(got, 0); again != got {
			t.Fatalf("clean is not idempotent: %q → %q → %q", s, got, again)
		}
	})
}
