package ingest

import (
	"testing"

	"github.com/wardhq/ward/internal/addrbook"
	"github.com/wardhq/ward/internal/tool"
	"github.com/wardhq/ward/internal/validate"
)

// OnChain checks with the BookVerifier it is given, the index the daemon
// builds once and gives the pipeline too, rather than indexing a book of
// its own; without one it indexes Book (nil: the shipped book).
func TestOnChainSharedVerifier(t *testing.T) {
	mine, err := tool.ParseAddress("0x1234567890AbcdEF1234567890aBcdef12345678")
	if err != nil {
		t.Fatal(err)
	}
	b, err := addrbook.Shipped().With(addrbook.Overrides{Chains: []*addrbook.Chain{{ID: 8453,
		Tokens: []addrbook.Token{{Address: mine, Symbol: "USDC", Decimals: 6}}}}})
	if err != nil {
		t.Fatal(err)
	}
	content := "USDC on Base: " + mine.Hex() + "."
	for _, c := range []struct {
		name     string
		cfg      OnChainConfig
		decisive bool
	}{
		{"shipped book", OnChainConfig{}, true},
		{"the operator's verifier", OnChainConfig{Verifier: validate.NewBookVerifier(b)}, false},
		{"the verifier over Book", OnChainConfig{Book: addrbook.Shipped(), Verifier: validate.NewBookVerifier(b)}, false},
		{"the operator's book", OnChainConfig{Book: b}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, err := onChainVote(t, OnChain(nil, c.cfg), content)
			if err != nil || v.Decisive != c.decisive {
				t.Fatalf("vote %+v, error %v, want decisive %v", v, err, c.decisive)
			}
		})
	}
}
