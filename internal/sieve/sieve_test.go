package sieve

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestNeed holds the literals read from an expression's syntax.
func TestNeed(t *testing.T) {
	tests := []struct {
		expr string
		want string // clauses joined by " & ", literals by "|", ~ for fold
	}{
		{`\b(?:stop|cease)\s+following`, "following & cease|stop & \t|\n|\f|\r| "},
		{`(?:ai|bot)s?\s*:`, "ai|bot & :"},
		{`(?i)treat\s+as`, "~treat & ~a & \t|\n|\f|\r| "}, // s also folds to the long s
		{`(?i)keystore`, "~tore"},                         // k to the Kelvin sign
		{`(?i)swap`, "~wap"},
		{`(?:x|y*)z`, "z"}, // an alternative may be empty
		{`a?b*`, ""},       // nothing required
		{`[.!?]\s+system`, "system & !|.|? & \t|\n|\f|\r| "},
		{`[a-z]+_[a-z]+`, "_"},
		{`(?:send){2,3}to`, "send & to"},
		{`\x{FFFD}x`, "x"},                                 // U+FFFD also matches invalid bytes
		{`(?:тест|проба)\s`, "проба|тест & \t|\n|\f|\r| "}, // not under fold: exact bytes
		{`(?i)(?:тест)x`, "~x"},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			var cs []string
			for _, c := range MustCompile(tt.expr).need {
				var ls []string
				for _, l := range c {
					ls = append(ls, map[bool]string{true: "~"}[l.fold]+l.s)
				}
				slices.Sort(ls)
				cs = append(cs, strings.Join(ls, "|"))
			}
			if got := strings.Join(cs, " & "); got != tt.want {
				t.Errorf("need(%q) = %q, want %q", tt.expr, got, tt.want)
			}
		})
	}
}

// TestSameAsRegexp checks a Regexp's answers against regexp's on texts
// that hold, lack, or fold-match its literals.
func TestSameAsRegexp(t *testing.T) {
	exprs := []string{`\b(?:stop|cease)\s+following`, `(?i)treat\s+as`, `(?i)keystore`, `(?i)swap`, `\x{FFFD}x`, `(?i)(?:тест)x`, `[.!?]\s+system`, `(?m)^\s*(?://+|#+)\s*agent:`}
	texts := []string{"", "stop following", "STOP FOLLOWING", "Treat it as", "TREAT AS", "\u212Aeystore", "KEYSTORE", "\u017Fwap", "SWAP", "\xffx", "\uFFFDx",
		"ТЕСТx", "тестX", "ok. system", "ok.\tsystem", "  // agent: go", "a\n# agent:", "nothing here"}
	for _, expr := range exprs {
		s, r := MustCompile(expr), regexp.MustCompile(expr)
		for _, text := range texts {
			if got, want := fmt.Sprint(s.FindAllStringIndex(text, -1)), fmt.Sprint(r.FindAllStringIndex(text, -1)); got != want {
				t.Errorf("%q on %q: %s, regexp %s", expr, text, got, want)
			}
		}
	}
}

// FuzzSameAsRegexp checks that a Regexp answers as regexp does.
func FuzzSameAsRegexp(f *testing.F) {
	f.Add(`\b(?:stop|cease)\s+following`, "please stop  following it")
	f.Add(`(?i)key(?:store|file)s?`, "KEYSTORE")
	f.Add(`(?i)s`, "\u017F")
	f.Add(`[.!?]\s+(?:system|assistant)\s*:`, "done. assistant: x")
	f.Fuzz(func(t *testing.T, expr, text string) {
		r, err := regexp.Compile(expr)
		if err != nil {
			return
		}
		s := MustCompile(expr)
		if got, want := fmt.Sprint(s.FindAllStringIndex(text, -1)), fmt.Sprint(r.FindAllStringIndex(text, -1)); got != want {
			t.Errorf("%q on %q: %s, regexp %s", expr, text, got, want)
		}
		if s.MatchString(text) != r.MatchString(text) {
			t.Errorf("%q on %q: MatchString differs", expr, text)
		}
	})
}
