package identity

import (
	"math/big"
	"strings"
	"testing"
)

func TestParseScore(t *testing.T) {
	for _, c := range []struct {
		in       string
		value    string
		decimals uint8
		err      string
	}{
		{in: "87", value: "87"},
		{in: "0", value: "0"},
		{in: "-3", value: "-3"},
		{in: "99.5", value: "995", decimals: 1},
		{in: "0.000000000000000001", value: "1", decimals: 18},
		{in: "1" + strings.Repeat("0", 38), value: "1" + strings.Repeat("0", 38)},
		{in: "1" + strings.Repeat("0", 38) + ".5", err: "too large"},
		{in: "1.0000000000000000001", err: "more than 18 decimals"},
		{in: "", err: "decimal number"},
		{in: "1.", err: "decimal number"},
		{in: ".5", err: "decimal number"},
		{in: "1.2.3", err: "decimal number"},
		{in: "--1", err: "decimal number"},
		{in: "1e3", err: "decimal number"},
	} {
		t.Run(c.in, func(t *testing.T) {
			got, err := parseScore(c.in)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("parseScore(%q) = %v, %v; want an error with %q", c.in, got, err, c.err)
				}
				return
			}
			if err != nil || got.value.String() != c.value || got.decimals != c.decimals {
				t.Fatalf("parseScore(%q) = %v/%d, %v; want %s/%d", c.in, got.value, got.decimals, err, c.value, c.decimals)
			}
			if s := got.String(); s != strings.TrimPrefix(c.in, "+") {
				t.Errorf("String() = %q, want %q", s, c.in)
			}
		})
	}
}

// FuzzParseScore: whatever the agent sends, an accepted score is within
// ERC-8004's bounds and prints back as it was written.
func FuzzParseScore(f *testing.F) {
	for _, s := range []string{"87", "-3", "99.5", "0.000000000000000001", "1e3", "", "-", "1.", "-0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseScore(s)
		if err != nil {
			return
		}
		if got.decimals > maxDecimals || new(big.Int).Abs(got.value).Cmp(maxAbsValue) > 0 {
			t.Fatalf("parseScore(%q) = %v/%d: out of bounds", s, got.value, got.decimals)
		}
		back, err := parseScore(got.String())
		if err != nil || back.value.Cmp(got.value) != 0 || back.decimals != got.decimals {
			t.Fatalf("parseScore(%q) prints as %q, which parses to %v/%d (%v)", s, got.String(), back.value, back.decimals, err)
		}
	})
}
