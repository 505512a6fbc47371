package privileged

import "testing"

// TestEIP55 pins the spellings a session-key grant accepts: 0x (lower
// case), 40 hex digits in their EIP-55 checksummed case, not zero.
func TestEIP55(t *testing.T) {
	for _, tc := range []struct {
		s  string
		ok bool
	}{
		{"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", true},
		{"0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", false},
		{"0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", false},
		{"5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", false},
		{"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA", false},
		{"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAedz", false},
		{"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg", false},
		{"0x0000000000000000000000000000000000000000", false},
		{"", false},
	} {
		a, err := eip55("key", tc.s)
		if (err == nil) != tc.ok {
			t.Errorf("eip55(%q) = %v, %v; want ok %v", tc.s, a, err, tc.ok)
		}
		if err == nil && a.Hex() != tc.s {
			t.Errorf("eip55(%q) = %s", tc.s, a.Hex())
		}
	}
}
