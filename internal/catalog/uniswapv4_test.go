package catalog_test

import (
	"bytes"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/wardhq/ward/internal/addrbook"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/tool"
)

// TestUniswapV4 drives the V4 tools against the published PoolManager,
// StateView, V4Quoter, Universal Router and Permit2 deployed by
// deploy.Deploy, with the catalogue configured from the deployment's book:
// reads of the plain and the hooked WETH/USDC pools, a quote, a swap in
// each direction committed on chain (receipts and balances checked), the
// hooked pool's swap only through the Layer3 tool, both directions of the
// native ETH/USDC pool (ETH paid as the call's value), and refusals of
// bad pool keys that change nothing.
func TestUniswapV4(t *testing.T) {
	f := newNPMFixture(t)
	ctx := t.Context()
	for _, role := range []string{addrbook.UniswapV4PoolManager, addrbook.UniswapV4StateView, addrbook.UniswapV4Quoter, addrbook.UniversalRouter} {
		if _, ok := f.r.Contract(role); !ok {
			t.Fatalf("the deployment's book has no %s", role)
		}
	}
	router, _ := f.r.Contract(addrbook.UniversalRouter)
	p2, _ := f.r.Contract(addrbook.Permit2)
	key := func(kv ...any) string {
		return argsOf(append([]any{"fee", chain.DevV4Fee, "tick_spacing", chain.DevV4TickSpacing}, kv...)...)
	}
	type poolRead struct {
		PoolID      string   `json:"pool_id"`
		Currency0   string   `json:"currency0"`
		Hooked      bool     `json:"hooked"`
		Permissions []string `json:"hook_permissions"`
		SqrtPrice   string   `json:"sqrt_price_x96"`
		LPFee       uint32   `json:"lp_fee"`
		Liquidity   string   `json:"liquidity"`
		Price       string   `json:"price"`
		Risk        string   `json:"risk"`
	}

	t.Run("pool reads", func(t *testing.T) {
		var plain, hooked poolRead
		f.read(t, "uniswap_get_v4_pool", key("token_a", f.usdc, "token_b", f.weth), &plain)
		f.read(t, "uniswap_get_v4_pool", key("token_a", f.weth, "token_b", f.usdc, "hooks", chain.DevV4Hook), &hooked)
		low := f.usdc
		if bytes.Compare(f.weth[:], f.usdc[:]) < 0 {
			low = f.weth
		}
		if plain.Currency0 != low.Hex() || plain.Hooked || plain.Risk != "standard" || len(plain.Permissions) != 0 || plain.LPFee != chain.DevV4Fee || plain.Liquidity == "0" {
			t.Errorf("plain pool %+v", plain)
		}
		if !hooked.Hooked || hooked.Risk != "high" || !slices.Equal(hooked.Permissions, []string{"before_donate"}) || hooked.PoolID == plain.PoolID || hooked.SqrtPrice != plain.SqrtPrice {
			t.Errorf("hooked pool %+v (plain %+v)", hooked, plain)
		}
		// $3,000 per ETH either way round.
		want := "3000"
		if low == f.usdc {
			want = "0.00033333"
		}
		if !strings.HasPrefix(plain.Price, want[:4]) {
			t.Errorf("price %s, want about %s", plain.Price, want)
		}
	})

	amount := units(1, 18)
	var quoted struct {
		AmountOut string `json:"amount_out"`
		Hooked    bool   `json:"hooked"`
	}
	f.read(t, "uniswap_get_v4_quote", key("token_in", f.weth, "token_out", f.usdc, "amount_in", amount), &quoted)
	q, _ := new(big.Int).SetString(quoted.AmountOut, 10)
	// 1 WETH in a 50 WETH pool at $3,000 with 0.3 %: a little under 2,934 USDC.
	if q == nil || q.Cmp(units(2_900, 6)) < 0 || q.Cmp(units(2_991, 6)) > 0 {
		t.Fatalf("quote of 1 WETH: %s USDC base units", quoted.AmountOut)
	}

	t.Run("swap WETH for USDC through the Universal Router", func(t *testing.T) {
		wethBefore, usdcBefore := f.balance(t, f.weth), f.balance(t, f.usdc)
		var out writeOut
		p := f.commit(t, "uniswap_execute_v4_swap", key("token_in", f.weth, "token_out", f.usdc, "amount_in", amount, "token_in_symbol", "WETH", "token_in_decimals", 18), &out)
		if n := len(p.Txs); n < 3 || common.Address(p.Txs[n-1].To) != router || common.Address(p.Txs[n-2].To) != p2 || common.Address(p.Txs[0].To) != f.weth {
			t.Fatalf("plan txs %+v: want approve(Permit2) on WETH, Permit2.approve, router.execute", p.Txs)
		}
		if len(p.Grants) != 1 || common.Address(p.Grants[0].Spender) != router || p.Grants[0].Amount.Cmp(amount) != 0 {
			t.Errorf("grants %+v: want the router's Permit2 allowance of exactly the amount", p.Grants)
		}
		if len(out.TxHashes) != len(p.Txs) || !out.Verified {
			t.Fatalf("write %+v", out)
		}
		for i, h := range out.TxHashes {
			r, err := f.env.Chain.Receipt(ctx, common.HexToHash(h))
			if err != nil || r.Status != types.ReceiptStatusSuccessful {
				t.Fatalf("receipt %s: %+v %v", h, r, err)
			}
			t.Logf("%s: %d gas", p.Txs[i].Label, r.GasUsed)
		}
		gotWETH := new(big.Int).Sub(wethBefore, f.balance(t, f.weth))
		gotUSDC := new(big.Int).Sub(f.balance(t, f.usdc), usdcBefore)
		if gotWETH.Cmp(amount) != 0 || gotUSDC.Cmp(q) != 0 {
			t.Errorf("spent %s WETH and received %s USDC, want %s and the quote %s", gotWETH, gotUSDC, amount, q)
		}
		// The router keeps no allowance: Permit2's to it is spent.
		v := f.callAt(t, chain.Permit2ABI(), p2, "allowance", f.wallet.Address(), f.weth, router)
		if v[0].(*big.Int).Sign() != 0 {
			t.Errorf("router's Permit2 allowance after the swap: %s, want 0", v[0])
		}
	})

	t.Run("swap USDC back", func(t *testing.T) {
		in := units(1_000, 6)
		wethBefore, usdcBefore := f.balance(t, f.weth), f.balance(t, f.usdc)
		var out writeOut
		f.commit(t, "uniswap_execute_v4_swap", key("token_in", f.usdc, "token_out", f.weth, "amount_in", in, "slippage_bps", 100), &out)
		if !out.Verified {
			t.Fatalf("write %+v", out)
		}
		if got := new(big.Int).Sub(usdcBefore, f.balance(t, f.usdc)); got.Cmp(in) != 0 {
			t.Errorf("spent %s USDC, want %s", got, in)
		}
		// About a third of an ETH (a little more: the first swap lowered the
		// price of ETH in this 50 WETH pool by about 4 %).
		if got := new(big.Int).Sub(f.balance(t, f.weth), wethBefore); got.Cmp(units(32, 16)) < 0 || got.Cmp(units(35, 16)) > 0 {
			t.Errorf("received %s WETH for 1,000 USDC", got)
		}
	})

	t.Run("hooked pool only through the Layer3 tool", func(t *testing.T) {
		if d := f.entry(t, "uniswap_execute_v4_hooked_swap").Def; d.RiskTier != tool.Layer3 {
			t.Errorf("hooked swap is %s, want layer3", d.RiskTier)
		}
		if d := f.entry(t, "uniswap_execute_v4_swap").Def; d.RiskTier != tool.Layer2 {
			t.Errorf("plain swap is %s, want layer2", d.RiskTier)
		}
		before := f.balance(t, f.weth)
		_, _, err := f.plan(t, "uniswap_execute_v4_swap", key("token_in", f.weth, "token_out", f.usdc, "amount_in", amount, "hooks", chain.DevV4Hook))
		if err == nil || !strings.Contains(err.Error(), "uniswap_execute_v4_hooked_swap") {
			t.Errorf("plain tool on the hooked pool: %v", err)
		}
		_, _, err = f.plan(t, "uniswap_execute_v4_hooked_swap", key("token_in", f.weth, "token_out", f.usdc, "amount_in", amount, "hooks", common.Address{}))
		if err == nil || !strings.Contains(err.Error(), "uniswap_execute_v4_swap") {
			t.Errorf("hooked tool on the plain pool: %v", err)
		}
		var out writeOut
		p := f.commit(t, "uniswap_execute_v4_hooked_swap", key("token_in", f.weth, "token_out", f.usdc, "amount_in", amount, "hooks", chain.DevV4Hook), &out)
		if !out.Verified || !strings.Contains(p.Summary, "HOOK "+chain.DevV4Hook.Hex()) {
			t.Errorf("hooked swap %+v, summary %q", out, p.Summary)
		}
		if got := new(big.Int).Sub(before, f.balance(t, f.weth)); got.Cmp(amount) != 0 {
			t.Errorf("hooked swap spent %s WETH, want %s", got, amount)
		}
	})

	t.Run("native ETH pool", func(t *testing.T) {
		eth := common.Address{}
		var pool poolRead
		f.read(t, "uniswap_get_v4_pool", key("token_a", f.usdc, "token_b", eth), &pool)
		if pool.Currency0 != eth.Hex() || pool.Hooked || pool.Liquidity == "0" || !strings.HasPrefix(pool.Price, "3000") ||
			pool.PoolID != chain.DevV4NativePool(f.usdc).ID().Hex() {
			t.Fatalf("native pool %+v", pool)
		}
		var nq struct {
			AmountOut string `json:"amount_out"`
		}
		f.read(t, "uniswap_get_v4_quote", key("token_in", eth, "token_out", f.usdc, "amount_in", amount), &nq)
		q, _ := new(big.Int).SetString(nq.AmountOut, 10)
		if q == nil || q.Cmp(units(2_900, 6)) < 0 || q.Cmp(units(2_991, 6)) > 0 {
			t.Fatalf("quote of 1 ETH: %s USDC base units", nq.AmountOut)
		}

		// Sell 1 ETH: one transaction, the router's execute carrying the
		// ETH as its value, no approval and no allowance.
		ethBefore, usdcBefore, wethBefore := f.ethBalance(t), f.balance(t, f.usdc), f.balance(t, f.weth)
		var out writeOut
		p := f.commit(t, "uniswap_execute_v4_swap", key("token_in", eth, "token_out", f.usdc, "amount_in", amount, "token_in_symbol", "ETH", "token_in_decimals", 18), &out)
		if len(p.Txs) != 1 || common.Address(p.Txs[0].To) != router || p.Txs[0].Value == nil || p.Txs[0].Value.Cmp(amount) != 0 || len(p.Grants) != 0 {
			t.Fatalf("plan txs %+v grants %+v: want one router.execute paying 1 ETH as its value, no grant", p.Txs, p.Grants)
		}
		if !out.Verified || len(out.TxHashes) != 1 {
			t.Fatalf("write %+v", out)
		}
		spent := new(big.Int).Sub(ethBefore, f.ethBalance(t))
		if gotUSDC := new(big.Int).Sub(f.balance(t, f.usdc), usdcBefore); gotUSDC.Cmp(q) != 0 {
			t.Errorf("received %s USDC for 1 ETH, want the quote %s", gotUSDC, q)
		}
		if spent.Cmp(amount) <= 0 || spent.Cmp(new(big.Int).Add(amount, units(1, 16))) > 0 {
			t.Errorf("the wallet's ETH fell by %s, want 1 ETH plus gas", spent)
		}
		if f.balance(t, f.weth).Cmp(wethBefore) != 0 {
			t.Error("a native ETH swap moved WETH")
		}

		// Buy ETH with 1,000 USDC: approve and Permit2 as for any token,
		// the ETH paid straight to the wallet.
		in := units(1_000, 6)
		ethBefore, usdcBefore = f.ethBalance(t), f.balance(t, f.usdc)
		p = f.commit(t, "uniswap_execute_v4_swap", key("token_in", f.usdc, "token_out", eth, "amount_in", in, "slippage_bps", 100), &out)
		if n := len(p.Txs); n < 2 || common.Address(p.Txs[n-1].To) != router || p.Txs[n-1].Value != nil || !out.Verified {
			t.Fatalf("plan txs %+v, write %+v", p.Txs, out)
		}
		if got := new(big.Int).Sub(usdcBefore, f.balance(t, f.usdc)); got.Cmp(in) != 0 {
			t.Errorf("spent %s USDC, want %s", got, in)
		}
		// About a third of an ETH, less the gas of two or three transactions.
		if got := new(big.Int).Sub(f.ethBalance(t), ethBefore); got.Cmp(units(31, 16)) < 0 || got.Cmp(units(35, 16)) > 0 {
			t.Errorf("the wallet's ETH rose by %s for 1,000 USDC", got)
		}

		// More ETH than the wallet holds is refused before anything is sent.
		ethBefore = f.ethBalance(t)
		if _, _, err := f.plan(t, "uniswap_execute_v4_swap", key("token_in", eth, "token_out", f.usdc, "amount_in", units(1_000_000, 18))); err == nil || !strings.Contains(err.Error(), "the wallet holds") {
			t.Errorf("selling more ETH than held: %v", err)
		}
		if f.ethBalance(t).Cmp(ethBefore) != 0 {
			t.Error("a refused plan changed the wallet's ETH")
		}
	})

	t.Run("bad pool keys are refused and change nothing", func(t *testing.T) {
		wethBefore, usdcBefore := f.balance(t, f.weth), f.balance(t, f.usdc)
		for _, c := range []struct {
			name, args, want string
		}{
			{"no pool at this fee", argsOf("token_in", f.weth, "token_out", f.usdc, "amount_in", amount, "fee", 500, "tick_spacing", 10), "no Uniswap V4 pool with this key is initialized"},
			{"same token twice", key("token_in", f.weth, "token_out", f.weth, "amount_in", amount), "two different currencies"},
			{"native ETH and WETH", key("token_in", common.Address{}, "token_out", f.weth, "amount_in", amount), "no Uniswap V4 pool with this key is initialized"},
			{"dynamic fee without a hook", argsOf("token_in", f.weth, "token_out", f.usdc, "amount_in", amount, "fee", 0x800000, "tick_spacing", 60), "needs a hook"},
			{"fee over 100 %", argsOf("token_in", f.weth, "token_out", f.usdc, "amount_in", amount, "fee", 1_000_001, "tick_spacing", 60), "fee must be"},
			{"more than the wallet holds", key("token_in", f.weth, "token_out", f.usdc, "amount_in", units(1_000_000, 18)), "the wallet holds"},
			{"amount over 128 bits", key("token_in", f.weth, "token_out", f.usdc, "amount_in", new(big.Int).Lsh(big.NewInt(1), 128)), "128 bits"},
		} {
			t.Run(c.name, func(t *testing.T) {
				_, _, err := f.plan(t, "uniswap_execute_v4_swap", c.args)
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Errorf("error %v, want one saying %q", err, c.want)
				}
			})
		}
		var hookless struct{}
		err := f.readErr(t, "uniswap_get_v4_pool", argsOf("token_a", f.weth, "token_b", f.usdc, "fee", 3000, "tick_spacing", 60,
			"hooks", common.HexToAddress("0x0000000000000000000000000000000000010000")), &hookless)
		if err == nil || !strings.Contains(err.Error(), "no permission bits") {
			t.Errorf("hooks without permission bits: %v", err)
		}
		if f.balance(t, f.weth).Cmp(wethBefore) != 0 || f.balance(t, f.usdc).Cmp(usdcBefore) != 0 {
			t.Error("a refused plan changed the wallet's balances")
		}
	})
}

// callAt calls a view of the contract at to and returns its outputs.
func (f *npmFixture) callAt(t *testing.T, a *chain.ABI, to common.Address, method string, args ...any) []any {
	t.Helper()
	data, err := a.Pack(method, args...)
	if err != nil {
		t.Fatal(err)
	}
	out, err := f.env.Chain.Call(t.Context(), callMsg(to, data))
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	v, err := a.Unpack(method, out)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	return v
}

// ethBalance is the agent's wallet's native ETH.
func (f *npmFixture) ethBalance(t *testing.T) *big.Int {
	t.Helper()
	b, err := f.env.Chain.BalanceOf(t.Context(), f.wallet.Address())
	if err != nil {
		t.Fatal(err)
	}
	return b
}
