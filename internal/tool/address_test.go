package tool

import "testing"

func TestParseAddress(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		ok       bool
	}{
		{"lower", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", true},
		{"mixed", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", true},
		{"upper prefix", "0X5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED", true},
		{"no prefix", "005aaeb6053f3e94c9b9a09f33669435e7ef1beaed", false},
		{"short", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1bea", false},
		{"non-hex", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaeg", false},
		{"empty", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := ParseAddress(tc.in)
			if (err == nil) != tc.ok {
				t.Fatalf("ParseAddress(%q) error %v, want ok %v", tc.in, err, tc.ok)
			}
			if tc.ok && a.IsZero() {
				t.Errorf("ParseAddress(%q) = zero address", tc.in)
			}
		})
	}
}

func TestClaimsChecksum(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", true},
		{"0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", false},
		{"0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED", false},
		{"0X5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", false}, // the prefix is not a digit
		{"0x1234567890123456789012345678901234567890", false},
		{"", false},
	} {
		if got := ClaimsChecksum(tc.in); got != tc.want {
			t.Errorf("ClaimsChecksum(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
