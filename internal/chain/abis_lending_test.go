package chain

import (
	"encoding/hex"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// TestMorphoBlueSelectors pins MorphoBlueABI to the selectors solc gives
// the IMorpho interface that @morpho-org/morpho-blue 1.0.0 publishes (the
// ABI of the contract at 0xBBBBBbbBBb9cC5e90e3b3Af64bdAF62C37EEFFCb).
func TestMorphoBlueSelectors(t *testing.T) {
	for method, want := range map[string]string{
		"supply": "a99aad89", "withdraw": "5c2bea49", "borrow": "50d8cd4b", "repay": "20b76e81",
		"supplyCollateral": "238d6579", "withdrawCollateral": "8720316d", "accrueInterest": "151c1ade",
		"setAuthorization": "eecea000", "isAuthorized": "65e4ad9e",
		"market": "5c60e39a", "position": "93c52062", "idToMarketParams": "2c3c9157",
	} {
		sel, ok := MorphoBlueABI().Selector(method)
		if !ok || hex.EncodeToString(sel[:]) != want {
			t.Errorf("%s selector = %x (%v), want %s", method, sel, ok, want)
		}
	}
}

// TestMorphoMarketID: the id is keccak256 over the five parameters
// ABI-encoded as words, as Morpho Blue's MarketParamsLib computes it.
func TestMorphoMarketID(t *testing.T) {
	p := MorphoMarketParams{LoanToken: common.Address{1}, CollateralToken: common.Address{2}, Oracle: common.Address{3}, Irm: common.Address{4}, Lltv: big.NewInt(860_000_000_000_000_000)}
	a, err := ParseABI(`[{"type":"function","name":"f","inputs":[{"name":"p","type":"tuple","components":[{"name":"loanToken","type":"address"},{"name":"collateralToken","type":"address"},{"name":"oracle","type":"address"},{"name":"irm","type":"address"},{"name":"lltv","type":"uint256"}]}],"outputs":[]}]`)
	if err != nil {
		t.Fatal(err)
	}
	data, err := a.Pack("f", p)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := MorphoMarketID(p), crypto.Keccak256Hash(data[4:]); got != want {
		t.Errorf("MorphoMarketID = %s, want keccak256(abi.encode(params)) = %s", got, want)
	}
	other := p
	other.Lltv = big.NewInt(945_000_000_000_000_000)
	if MorphoMarketID(other) == MorphoMarketID(p) {
		t.Error("two LLTVs give one market id")
	}
}
