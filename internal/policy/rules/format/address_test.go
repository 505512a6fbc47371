package format

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

var addressCases = []formatCase{
	{"eip55 all caps 1", "0x52908400098527886E0F7030069857D2E4169EE7", nil},
	{"eip55 all caps 2", "0x8617E340B3D01FA5F11F306F4090FD50E238070D", nil},
	{"eip55 all lower 1", "0xde709f2102306220921060314715629080e2fb77", nil},
	{"eip55 all lower 2", "0x27b1fdb04752bbc536007a920d24acb045561c26", nil},
	{"eip55 normal 1", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", nil},
	{"eip55 normal 2", "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", nil},
	{"eip55 normal 3", "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", nil},
	{"eip55 normal 4", "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb", nil},
	{"unchecksummed lower", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", nil},
	{"unchecksummed upper", "0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED", nil},
	{"zero", "0x0000000000000000000000000000000000000000", nil},
	{"digits only", "0x1234567890123456789012345678901234567890", nil},

	{"bad checksum 1", "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", errAddressChecksum},
	{"bad checksum 2", "0xFB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", errAddressChecksum},
	{"bad checksum 3", "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6Fb", errAddressChecksum},
	{"bad checksum 4", "0xd1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb", errAddressChecksum},
	{"bad checksum all flipped", "0x5AaEB6053f3e94c9B9a09F33669435e7eF1bEaED", errAddressChecksum},
	{"empty", "", errAddressLen},
	{"no prefix", "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", errAddressLen},
	{"no prefix 42 hex", "005aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", errAddressPrefix},
	{"upper prefix", "0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", errAddressPrefix},
	{"too short", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe", errAddressLen},
	{"too long", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed0", errAddressLen},
	{"32 byte", "0x" + strings.Repeat("ab", 32), errAddressLen},
	{"non-hex", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg", errAny},
	{"space", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA d", errAny},
	{"trailing newline", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe\n", errAny},
	{"ens name", "vitalik.eth", errAddressLen},
	{"cyrillic a", "0x5\u0430eb6053F3E94C9b9A09f33669435E7Ef1BeA", errAny},
}

func TestAddress(t *testing.T) {
	runCases(t, Address, addressCases)
}

func TestZeroAddress(t *testing.T) {
	zeros := strings.Repeat("0", 40)
	tests := []struct {
		in   string
		want bool
	}{
		{"0x" + zeros, true},
		{"0X" + zeros, true},
		{"0x" + zeros[1:] + "1", false},
		{"0x" + zeros + "0", false},
		{"0x" + zeros[1:], false},
		{"00" + zeros, false},
		{zeros, false},
		{"0x0", false},
		{"", false},
		{"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", false},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := ZeroAddress(tc.in); got != tc.want {
				t.Errorf("ZeroAddress(%q) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
}

func FuzzAddress(f *testing.F) {
	seedCases(f, addressCases)
	f.Fuzz(func(t *testing.T, s string) {
		err := Address(s)
		checkMessage(t, s, err, fuzzMinEcho)
		if err == nil {
			c := common.HexToAddress(s).Hex()
			if Address(c) != nil || !strings.EqualFold(c, s) {
				t.Fatalf("EIP-55 form of %q = %q, not a valid form of the input", s, c)
			}
			if again := common.HexToAddress(c).Hex(); again != c {
				t.Fatalf("EIP-55 form of %q = %q, want it unchanged", c, again)
			}
			if ZeroAddress(s) != (strings.Trim(s[2:], "0") == "") {
				t.Fatalf("ZeroAddress(%q) = %v disagrees with the digits", s, ZeroAddress(s))
			}
		}

		// Any 20 bytes make an address whose checksummed form is valid and
		// whose one-letter case flips are not.
		if len(s) < 20 {
			return
		}
		lower := "0x" + hex.EncodeToString([]byte(s[:20]))
		c := common.HexToAddress(lower).Hex()
		if err := Address(c); err != nil {
			t.Fatalf("Address(%q), the EIP-55 form of %q: %v", c, lower, err)
		}
		for i := 2; i < len(c); i++ {
			if !isLower(c[i] | 0x20) {
				continue
			}
			flipped := c[:i] + string(c[i]^0x20) + c[i+1:]
			mixed := strings.ToLower(flipped) != flipped && strings.ToUpper(flipped[2:]) != flipped[2:]
			if mixed && Address(flipped) == nil {
				t.Fatalf("Address(%q) = nil, a case flip of checksummed %q", flipped, c)
			}
		}
	})
}
