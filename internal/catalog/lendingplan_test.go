package catalog_test

import (
	"bytes"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/tool"
)

// TestLendingPlans pins the whole plan of the lending writes that pay
// into a market (Compound III and Morpho Blue supply and collateral),
// which compound and morpho build with the shared native.Lending: every
// step's target, label and calldata, the token use and the summary. It
// only plans, so the shared chain is left as it was.
func TestLendingPlans(t *testing.T) {
	f := base(t)
	c := f.c
	market := chain.DevMorphoMarket(c)
	mid := chain.MorphoMarketID(market).Hex()
	erc20 := chain.ERC20ABI()
	pack := func(a *chain.ABI, method string, args ...any) []byte {
		t.Helper()
		b, err := a.Pack(method, args...)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, tc := range []struct {
		name, tool, args string
		token, spender   common.Address
		amount           *big.Int
		call             []byte // the market's own step, after the approvals
		label, summary   string
	}{
		{"compound supply", "compound_supply_base", argsOf("amount", units(100, 6)), c.USDC, c.CometUSDC, units(100, 6),
			pack(chain.CometABI(), "supply", c.USDC, units(100, 6)), "supply",
			"supply 100 USDC on the Compound III USDC market " + c.CometUSDC.Hex()},
		{"compound collateral", "compound_supply_collateral", argsOf("asset", c.WETH, "amount", units(1, 18)), c.WETH, c.CometUSDC, units(1, 18),
			pack(chain.CometABI(), "supply", c.WETH, units(1, 18)), "supply collateral",
			"post 1 WETH as collateral on the Compound III USDC market " + c.CometUSDC.Hex()},
		{"morpho supply", "morpho_supply_market", argsOf("market_id", mid, "amount", units(100, 6)), c.USDC, c.MorphoBlue, units(100, 6),
			pack(chain.MorphoBlueABI(), "supply", market, units(100, 6), new(big.Int), f.wallet(), []byte{}), "supply",
			"supply 100 USDC in Morpho Blue market " + mid + " (WETH/USDC, LLTV 86%)"},
		{"morpho collateral", "morpho_supply_collateral", argsOf("market_id", mid, "amount", units(1, 18)), c.WETH, c.MorphoBlue, units(1, 18),
			pack(chain.MorphoBlueABI(), "supplyCollateral", market, units(1, 18), f.wallet(), []byte{}), "supply collateral",
			"post 1 WETH as collateral in Morpho Blue market " + mid + " (WETH/USDC, LLTV 86%)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _, err := f.plan(t, tc.tool, tc.args)
			if err != nil {
				t.Fatalf("plan: %v", err)
			}
			// The approvals: an exact approve, after a reset when a finite
			// allowance is left (native.SpendApprovals).
			var want []tool.Tx
			have := f.call(t, erc20, tc.token, "allowance", f.wallet(), tc.spender)[0].(*big.Int)
			if have.Sign() > 0 {
				want = append(want, tool.Tx{To: tool.Address(tc.token), Label: "reset approval", Data: pack(erc20, "approve", tc.spender, new(big.Int))})
			}
			want = append(want, tool.Tx{To: tool.Address(tc.token), Label: "approve", Data: pack(erc20, "approve", tc.spender, tc.amount)},
				tool.Tx{To: tool.Address(tc.spender), Label: tc.label, Data: tc.call})
			if len(p.Txs) != len(want) {
				t.Fatalf("%d steps %+v, want %d %+v", len(p.Txs), p.Txs, len(want), want)
			}
			for i, w := range want {
				g := p.Txs[i]
				if g.To != w.To || g.Label != w.Label || !bytes.Equal(g.Data, w.Data) || (g.Value != nil && g.Value.Sign() != 0) {
					t.Errorf("step %d = %s %q %x, want %s %q %x", i, g.To, g.Label, []byte(g.Data), w.To, w.Label, []byte(w.Data))
				}
			}
			if len(p.Tokens) != 1 || p.Tokens[0].Token != tool.Address(tc.token) || p.Tokens[0].Amount.Cmp(tc.amount) != 0 || !p.Tokens[0].Out {
				t.Errorf("tokens = %+v, want %s %s out", p.Tokens, tc.amount, tc.token)
			}
			// The collateral plans add the health factor, which depends on
			// what earlier tests left; the rest is exact.
			if p.Summary != tc.summary && !strings.HasPrefix(p.Summary, tc.summary+" (health factor ") {
				t.Errorf("summary = %q, want %q", p.Summary, tc.summary)
			}
			if p.ValueCents <= 0 {
				t.Errorf("value = %d cents, want a price", p.ValueCents)
			}
		})
	}
}
