package validate

import "testing"

// TestChecksumMisuse: a mixed-case address whose case is not its EIP-55
// checksum was edited after checksumming (one digit changed, case kept),
// and is false even where the book does not know the original; an
// unchecksummed (one-case) address, a correct checksum, and a book
// address in the wrong case are not.
func TestChecksumMisuse(t *testing.T) {
	v := NewBookVerifier(nil)
	const storage = "0x1d8f8f00cfa6758d7bE78336684788Fb0ee0Fa46" // Rocket Pool's RocketStorage, not in the book
	edited := storage[:30] + "9" + storage[31:]                  // one digit changed, the case pattern kept
	for _, tc := range []struct {
		name, text string
		false_     bool
	}{
		{"one digit edited, case kept", "Rocket Pool's RocketStorage on mainnet: " + edited + ".", true},
		{"the true checksum", "Rocket Pool's RocketStorage on mainnet: " + storage + ".", false},
		{"lower case carries no checksum", "Rocket Pool's RocketStorage on mainnet: 0x1d8f8f00cfa6758d7be78336684788fb0ee0fa47.", false},
		{"a book address in the wrong case", "USDC on Ethereum is 0xA0B86991c6218b36c1d19D4a2e9Eb0cE3606eB48.", false},
		{"a warning", "Scam: " + edited + " is a fake RocketStorage.", false},
		// The book knows Compound III's USDC market (compound_v3_comet), so
		// one nibble off it is a look-alike, whatever its case.
		{"a lower-case look-alike of a book address", "Compound III USDC market (Comet) on mainnet: 0xc3d688b66703497daa19211eedff47f25484cdc3.", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := v.Check(tc.text)
			if got := len(r.False) > 0; got != tc.false_ {
				t.Errorf("Check(%q): false claims %q, want any: %v", tc.text, r.False, tc.false_)
			}
		})
	}
}
