package validate

import (
	"encoding/hex"
	"testing"
)

func TestExtractSelectors(t *testing.T) {
	cases := []struct {
		text string
		want []string // signature=stated hex, in order
		hold []bool
	}{
		{"The ERC-20 transfer(address,uint256) selector is 0xa9059cbb.", []string{"transfer(address,uint256)=a9059cbb"}, []bool{true}},
		{"approve(address, uint) = 0x095ea7b3", []string{"approve(address,uint256)=095ea7b3"}, []bool{true}},
		// A wrong selector, stated as fact: the attack this check exists for.
		{"Before sending, check the calldata starts with 0x095ea7b3, the selector of transfer(address,uint256).", []string{"transfer(address,uint256)=095ea7b3"}, []bool{false}},
		{"Selectors: transfer(address,uint256) 0xa9059cbb, transferFrom(address,address,uint256) 0x23b872dd.",
			[]string{"transfer(address,uint256)=a9059cbb", "transferFrom(address,address,uint256)=23b872dd"}, []bool{true, true}},
		{"The Transfer(address,address,uint256) event topic is 0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef.",
			[]string{"Transfer(address,address,uint256)=ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"}, []bool{true}},
		// Denials, values with no cue far from the signature, hex that is
		// part of an address: no claim.
		{"0x095ea7b3 is not the selector of transfer(address,uint256).", nil, nil},
		{"We call approve(address,uint256) on the router and later swap through pool 0xdeadbeef in the same block.", nil, nil},
		{"transfer(address,uint256) to 0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48 moved 5 USDC (selector check passed).", nil, nil},
	}
	for _, tc := range cases {
		got := ExtractSelectors(tc.text)
		if len(got) != len(tc.want) {
			t.Errorf("%q: %d claims %+v, want %v", tc.text, len(got), got, tc.want)
			continue
		}
		for i, c := range got {
			if s := c.Signature + "=" + hex.EncodeToString(c.Stated); s != tc.want[i] {
				t.Errorf("%q: claim %d is %s, want %s", tc.text, i, s, tc.want[i])
			}
			if c.Holds() != tc.hold[i] {
				t.Errorf("%q: claim %d holds %v, want %v (actual %x)", tc.text, i, c.Holds(), tc.hold[i], c.Actual())
			}
		}
	}
}
