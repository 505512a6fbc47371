package native

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/tool"
)

func TestUSDCents(t *testing.T) {
	usd8 := Price{Answer: big.NewInt(1e8), Decimals: 8}
	for _, c := range []struct {
		name     string
		amount   *big.Int
		decimals uint8
		p        Price
		want     int64
		ok       bool
	}{
		{"1000 USDC", big.NewInt(1_000_000_000), 6, usd8, 100_000, true},
		{"dust rounds down", big.NewInt(9_999), 6, usd8, 0, true},
		{"1.5 ETH at 3000", new(big.Int).Mul(big.NewInt(15), big.NewInt(1e17)), 18, Price{Answer: big.NewInt(3000e8), Decimals: 8}, 450_000, true},
		{"overflow", new(big.Int).Lsh(big.NewInt(1), 255), 6, usd8, 0, false},
		{"zero answer", big.NewInt(1), 6, Price{Answer: new(big.Int), Decimals: 8}, 0, false},
		{"negative answer", big.NewInt(1), 6, Price{Answer: big.NewInt(-1), Decimals: 8}, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := UsdCents(c.amount, c.decimals, c.p)
			if got != c.want || ok != c.ok {
				t.Errorf("usdCents = %d, %v; want %d, %v", got, ok, c.want, c.ok)
			}
		})
	}
}

func TestCompareNativeGas(t *testing.T) {
	eth := common.Address{}
	weth := common.HexToAddress("0x2222222222222222222222222222222222222222")
	gas := big.NewInt(1_000)
	amount := big.NewInt(1_000_000)
	unwrap := &tool.Plan{Tokens: []tool.TokenUse{
		{Token: tool.Address(weth), Amount: amount, Out: true},
		{Token: tool.Address(eth), Amount: amount},
	}}
	tokens := []common.Address{weth, eth}
	before := []*big.Int{big.NewInt(5_000_000), big.NewInt(9_000_000)}
	for _, c := range []struct {
		name     string
		after    []*big.Int
		verified bool
	}{
		{"exact less gas", []*big.Int{big.NewInt(4_000_000), big.NewInt(9_000_000 + 1_000_000 - 1_000)}, true},
		{"short of gas", []*big.Int{big.NewInt(4_000_000), big.NewInt(9_000_000 + 1_000_000 - 1_001)}, false},
		{"took more WETH", []*big.Int{big.NewInt(3_999_999), big.NewInt(10_000_000)}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, _, ok := compare(unwrap, tokens, before, c.after, gas); ok != c.verified {
				t.Errorf("verified = %v, want %v", ok, c.verified)
			}
		})
	}
}
