package hook

import "testing"

func TestValidChecksum(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     bool
	}{
		{"eip55", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", true},
		{"bad checksum", "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", false},
		{"lower case", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", true},
		{"upper case", "0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED", true},
		{"0X prefix claims nothing", "0X5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", true},
		{"not hex", "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg", true},
		{"short", "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAe", true},
		{"prose", "Send It", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := validChecksum(tc.in); got != tc.want {
				t.Errorf("validChecksum(%q) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
}
