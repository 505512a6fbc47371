package catalog_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/catalog"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

type perpOut struct {
	Positions []struct {
		Key         string  `json:"key"`
		IsLong      bool    `json:"is_long"`
		SizeUSD     string  `json:"size_usd"`
		Collateral  amt     `json:"collateral"`
		Entry       string  `json:"entry_price_usd"`
		Mark        string  `json:"mark_price_usd"`
		PnL         string  `json:"pnl_usd"`
		Leverage    float64 `json:"leverage"`
		Liquidation string  `json:"liquidation_price_usd"`
	} `json:"positions"`
	Orders []string `json:"pending_orders"`
}

type perpMarketOut struct {
	OILong      string  `json:"open_interest_long_usd"`
	OIShort     string  `json:"open_interest_short_usd"`
	Funding     string  `json:"funding_factor"`
	MaxLeverage float64 `json:"max_leverage"`
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q is not a number: %v", s, err)
	}
	return f
}

// TestGMX opens a GMX V2 long, cancels a pending order, has the dev
// keeper execute the others, decreases and closes the position after the
// price rises, committing each write and checking receipts, the
// wallet's USDC and the positions the Reader returns; refused calls
// change nothing.
func TestGMX(t *testing.T) {
	f := base(t)
	c := f.c
	me := f.wallet()
	er := chain.GmxExchangeRouterABI()
	usdc := func(t *testing.T) *big.Int { t.Helper(); return f.balance(t, c.USDC, me) }
	eth := func(t *testing.T) *big.Int { t.Helper(); return f.balance(t, common.Address{}, me) }
	var pos perpOut
	var mkt perpMarketOut
	read := func(t *testing.T) {
		t.Helper()
		f.read(t, "gmx_get_positions", `{}`, &pos)
		f.read(t, "gmx_get_market", `{}`, &mkt)
	}
	execute := func(t *testing.T) {
		t.Helper()
		read(t)
		if len(pos.Orders) != 1 {
			t.Fatalf("pending orders = %v, want 1", pos.Orders)
		}
		if err := f.dev.ExecuteGmxOrder(t.Context(), common.HexToHash(pos.Orders[0])); err != nil {
			t.Fatal(err)
		}
		read(t)
	}
	t.Cleanup(func() {
		if err := f.dev.SetFeedAnswer(context.Background(), c.FeedETHUSD, big.NewInt(3_000e8)); err != nil {
			t.Error(err)
		}
	})

	read(t)
	if len(pos.Positions) != 0 || len(pos.Orders) != 0 || mkt.OILong != "0" || mkt.MaxLeverage != 10 {
		t.Fatalf("fresh: positions %+v market %+v", pos, mkt)
	}
	usdc0 := usdc(t)
	for _, bad := range []struct{ tool, args, want string }{
		{"gmx_open_position", argsOf("is_long", true, "size_usd", "100000", "collateral", units(1_000, 6)), "above the cap of 10x"},
		{"gmx_open_position", argsOf("is_long", true, "size_usd", "1000", "collateral", units(10_000_000, 6)), "USDC"},
		{"gmx_open_position", argsOf("is_long", true, "size_usd", "0", "collateral", units(100, 6)), "size_usd must be positive"},
		{"gmx_open_position", argsOf("is_long", true, "size_usd", "1000", "collateral", units(100, 6), "market", c.WETH), "not one of the configured"},
		{"gmx_close_position", argsOf("is_long", true, "size_usd", "max"), "no position"},
		{"gmx_cancel_order", argsOf("order_key", common.Hash{1}), "no pending GMX order"},
	} {
		if _, _, err := f.plan(t, bad.tool, bad.args); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s %s: %v, want an error with %q", bad.tool, bad.args, err, bad.want)
		}
	}
	if usdc(t).Cmp(usdc0) != 0 {
		t.Fatal("refused calls moved USDC")
	}

	// An order that is cancelled returns its collateral and its whole
	// execution fee.
	var out gmxWriteOut
	eth0 := eth(t)
	open := argsOf("is_long", true, "size_usd", "20000", "collateral", units(4_000, 6))
	p := f.commit(t, "gmx_open_position", open, &out)
	fee := gmxFee(t, p)
	if !out.Verified || common.Address(p.Txs[len(p.Txs)-1].To) != c.GmxV2 || p.ValueCents != 2_000_000+feeCents(fee) {
		t.Fatalf("open plan to %s worth %d cents (verified %v), want %d cents", p.Txs[len(p.Txs)-1].To, p.ValueCents, out.Verified, 2_000_000+feeCents(fee))
	}
	f.receiptOf(t, writeOut{TxHashes: out.TxHashes[len(out.TxHashes)-1:]}, c.GmxV2, er, "OrderCreated")
	if d := new(big.Int).Sub(usdc0, usdc(t)); d.Cmp(units(4_000, 6)) != 0 {
		t.Fatalf("the order took %s USDC, want 4000", d)
	}
	gas := out.gas(t)
	if d := new(big.Int).Sub(eth0, eth(t)); d.Cmp(new(big.Int).Add(fee, gas)) != 0 {
		t.Fatalf("the order took %s wei of ETH, want the fee %s and gas %s", d, fee, gas)
	}
	read(t)
	if len(pos.Orders) != 1 || len(pos.Positions) != 0 {
		t.Fatalf("after the order: %+v", pos)
	}
	f.commit(t, "gmx_cancel_order", argsOf("order_key", pos.Orders[0]), &out)
	f.receiptOf(t, writeOut{TxHashes: out.TxHashes}, c.GmxV2, er, "OrderCancelled")
	gas.Add(gas, out.gas(t))
	read(t)
	if !out.Verified || len(pos.Orders) != 0 || usdc(t).Cmp(usdc0) != 0 {
		t.Fatalf("after cancelling: orders %v, USDC %s of %s", pos.Orders, usdc(t), usdc0)
	}
	if d := new(big.Int).Sub(eth0, eth(t)); d.Cmp(gas) != 0 {
		t.Fatalf("after cancelling the wallet is down %s wei of ETH, want only the gas %s", d, gas)
	}

	// Open 20,000 USD long with 4,000 USDC at 3,000: 5x, liquidation where
	// 4,000 + PnL falls to 1 % of 20,000 (2,430 USD). The keeper keeps
	// the gas it used of the fee and refunds the rest to the wallet.
	p = f.commit(t, "gmx_open_position", open, &out)
	fee = gmxFee(t, p)
	eth1 := eth(t)
	execute(t)
	if r := new(big.Int).Sub(eth(t), eth1); r.Sign() <= 0 || r.Cmp(fee) >= 0 {
		t.Errorf("the keeper refunded %s wei of a %s fee, want some but not all", r, fee)
	}
	if len(pos.Positions) != 1 || !pos.Positions[0].IsLong || num(t, pos.Positions[0].SizeUSD) != 20_000 || pos.Positions[0].Collateral.big(t).Cmp(units(4_000, 6)) != 0 ||
		num(t, pos.Positions[0].Entry) < 2_999.99 || num(t, pos.Positions[0].Entry) > 3_000.01 || pos.Positions[0].Leverage != 5 ||
		num(t, pos.Positions[0].Liquidation) < 2_429.9 || num(t, pos.Positions[0].Liquidation) > 2_430.1 || num(t, pos.Positions[0].PnL) > 0.01 {
		t.Fatalf("position = %+v", pos.Positions)
	}
	if num(t, mkt.OILong) != 20_000 || mkt.OIShort != "0" {
		t.Errorf("open interest after the open = %+v", mkt)
	}

	// The price rises 10 %: 2,000 USD of PnL.
	if err := f.dev.SetFeedAnswer(t.Context(), c.FeedETHUSD, big.NewInt(3_300e8)); err != nil {
		t.Fatal(err)
	}
	read(t)
	if pnl := num(t, pos.Positions[0].PnL); pnl < 1_999.99 || pnl > 2_000.01 {
		t.Fatalf("PnL at 3,300 = %v", pnl)
	}
	// Growing the position to 80,000 USD on 4,000 USDC and 2,000 USD of
	// PnL (13.3x), or withdrawing more collateral than the position holds
	// after PnL, is refused at preview.
	if _, _, err := f.plan(t, "gmx_open_position", argsOf("is_long", true, "size_usd", "60000", "collateral", "0")); err == nil || !strings.Contains(err.Error(), "13.33x leverage, above the cap") {
		t.Errorf("increase above the cap: %v", err)
	}
	if _, _, err := f.plan(t, "gmx_close_position", argsOf("is_long", true, "size_usd", "1000", "collateral", units(4_500, 6))); err == nil || !strings.Contains(err.Error(), "exceeds what the position holds") {
		t.Errorf("over-withdrawing decrease: %v", err)
	}
	// A decrease pays a fee too: createOrder refuses one short of the
	// keeper's estimate at the transaction's gas price, or more than the
	// ETH sent.
	t.Run("underpaid fee", func(t *testing.T) {
		p, _, err := f.plan(t, "gmx_close_position", argsOf("is_long", true, "size_usd", "10000"))
		if err != nil {
			t.Fatal(err)
		}
		fee := gmxFee(t, p)
		tx := p.Txs[0]
		price := new(big.Int).Quo(fee, big.NewInt(2_450_000))
		call := func(value, gasPrice *big.Int, data []byte) error {
			to := common.Address(tx.To)
			_, err := f.env.Chain.Call(t.Context(), ethereum.CallMsg{From: me, To: &to, Value: value, GasPrice: gasPrice, Data: data})
			return err
		}
		if err := call(fee, price, tx.Data); err != nil {
			t.Fatalf("the planned fee at the planned gas price: %v", err)
		}
		if err := call(fee, new(big.Int).Add(price, big.NewInt(1)), tx.Data); !revertsWith(err, "InsufficientExecutionFee(uint256,uint256)") {
			t.Errorf("the fee at a higher gas price: %v, want InsufficientExecutionFee", err)
		}
		args, err := abiArgs(er, "multicall", tx.Data)
		if err != nil {
			t.Fatal(err)
		}
		calls := args[0].([][]byte)
		less := new(big.Int).Sub(fee, big.NewInt(1))
		wnt, err := er.Pack("sendWnt", c.GmxV2, less)
		if err != nil {
			t.Fatal(err)
		}
		data, err := er.Pack("multicall", append([][]byte{wnt}, calls[1:]...))
		if err != nil {
			t.Fatal(err)
		}
		if err := call(less, price, data); !revertsWith(err, "InsufficientWntAmountForExecutionFee(uint256,uint256)") {
			t.Errorf("sendWnt short of the executionFee: %v, want InsufficientWntAmountForExecutionFee", err)
		}
		if err := call(new(big.Int).Sub(less, big.NewInt(1)), price, data); err == nil {
			t.Error("sendWnt of more than the value sent was accepted")
		}
	})

	// Halve the position: half the PnL is realized into the collateral.
	f.commit(t, "gmx_close_position", argsOf("is_long", true, "size_usd", "10000"), &out)
	f.receiptOf(t, out.writeOut, c.GmxV2, er, "OrderCreated")
	execute(t)
	if len(pos.Positions) != 1 || num(t, pos.Positions[0].SizeUSD) != 10_000 || num(t, mkt.OILong) != 10_000 {
		t.Fatalf("after halving: %+v, market %+v", pos.Positions, mkt)
	}
	if c := pos.Positions[0].Collateral.big(t); c.Cmp(units(4_999, 6)) < 0 || c.Cmp(units(5_001, 6)) > 0 {
		t.Errorf("collateral after realizing 1,000 USD = %s", c)
	}

	// Close: collateral and the rest of the PnL come back, 2,000 USD up.
	before := usdc(t)
	f.commit(t, "gmx_close_position", argsOf("is_long", true, "size_usd", "max"), &out)
	execute(t)
	if len(pos.Positions) != 0 || mkt.OILong != "0" {
		t.Fatalf("after closing: %+v, market %+v", pos.Positions, mkt)
	}
	back := new(big.Int).Sub(usdc(t), before)
	if back.Cmp(units(5_999, 6)) < 0 || back.Cmp(units(6_001, 6)) > 0 {
		t.Errorf("closing paid %s USDC, want about 6,000", back)
	}
	if gain := new(big.Int).Sub(usdc(t), usdc0); gain.Cmp(units(1_999, 6)) < 0 || gain.Cmp(units(2_001, 6)) > 0 {
		t.Errorf("the trade made %s USDC, want about 2,000", gain)
	}

	// A 3,000 USD short on 1,000 USDC at 3,300: liquidation where 1,000 -
	// loss falls to 30 USD, at (1,000 + 3,000 - 30) / (3,000 / 3,300) =
	// 4,367 USD. Closed at the same price, the collateral comes back.
	before = usdc(t)
	f.commit(t, "gmx_open_position", argsOf("is_long", false, "size_usd", "3000", "collateral", units(1_000, 6)), &out)
	if !out.Verified {
		t.Errorf("short order not verified: %+v", out)
	}
	execute(t)
	if len(pos.Positions) != 1 || pos.Positions[0].IsLong || num(t, pos.Positions[0].SizeUSD) != 3_000 || num(t, mkt.OIShort) != 3_000 ||
		num(t, pos.Positions[0].Liquidation) < 4_366.9 || num(t, pos.Positions[0].Liquidation) > 4_367.1 {
		t.Fatalf("short = %+v, market %+v", pos.Positions, mkt)
	}
	f.commit(t, "gmx_close_position", argsOf("is_long", false, "size_usd", "max"), &out)
	f.receiptOf(t, out.writeOut, c.GmxV2, er, "OrderCreated")
	if !out.Verified {
		t.Errorf("short close not verified: %+v", out)
	}
	execute(t)
	if d := new(big.Int).Sub(usdc(t), before); len(pos.Positions) != 0 || mkt.OIShort != "0" || d.Cmp(big.NewInt(-1)) < 0 || d.Sign() > 0 {
		t.Errorf("after closing the short: positions %+v, market %+v, USDC moved by %s", pos.Positions, mkt, d)
	}
}

// TestGMXPhases checks the phase gate on the GMX tools: opening is layer 3,
// refused from conservation down, previews included; decreasing, closing
// and cancelling are closes, allowed in conservation and declining.
func TestGMXPhases(t *testing.T) {
	f := base(t)
	g, err := hook.NewPhaseGate(hook.PhaseGateConfig{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tool    string
		phase   hook.Phase
		preview bool
		allowed bool
	}{
		{"gmx_open_position", hook.Thriving, false, true},
		{"gmx_open_position", hook.Stable, false, true},
		{"gmx_open_position", hook.Conservation, true, false},
		{"gmx_open_position", hook.Conservation, false, false},
		{"gmx_open_position", hook.Declining, false, false},
		{"gmx_open_position", hook.Terminal, false, false},
		{"gmx_close_position", hook.Conservation, false, true},
		{"gmx_close_position", hook.Declining, false, true},
		{"gmx_close_position", hook.Terminal, false, false},
		{"gmx_cancel_order", hook.Conservation, false, true},
		{"gmx_cancel_order", hook.Declining, false, true},
		{"gmx_get_positions", hook.Terminal, false, true},
	} {
		v := g.Check(t.Context(), &hook.Call{Def: f.entry(t, tc.tool).Def, Phase: tc.phase, Preview: tc.preview})
		if v.Veto == tc.allowed {
			t.Errorf("%s in %s (preview %v): veto %v, want allowed %v", tc.tool, tc.phase, tc.preview, v.Veto, tc.allowed)
		}
	}
}

// gmxTools are the GMX tools with their tier, risk, effect and adapter.
var gmxTools = map[string]struct {
	tier          tool.Tier
	risk          tool.RiskTier
	effect        tool.Effect
	action, venue string
}{
	"gmx_get_positions":  {tool.Read, tool.Layer1, tool.EffectNone, "perp_positions", "gmx"},
	"gmx_get_market":     {tool.Read, tool.Layer1, tool.EffectNone, "perp_market", "gmx"},
	"gmx_open_position":  {tool.Write, tool.Layer3, tool.EffectOpen, "perp_open", "gmx"},
	"gmx_close_position": {tool.Write, tool.Layer2, tool.EffectClose, "perp_close", "gmx"},
	"gmx_cancel_order":   {tool.Write, tool.Layer2, tool.EffectClose, "perp_cancel", "gmx"},
}

// TestGMXDefs checks the GMX tools' definitions and which of seed 002's
// profiles offer them: the derivatives category is loaded only by the
// profiles that load everything; without the contracts none registers.
func TestGMXDefs(t *testing.T) {
	f := base(t)
	for name, want := range gmxTools {
		e := f.entry(t, name)
		d := e.Def
		if d.Category != tool.CatDerivatives || d.Tier != want.tier || d.RiskTier != want.risk || d.Effect != want.effect || e.Action != want.action || e.Venue != want.venue {
			t.Errorf("%s: category %v tier %v risk %v effect %v adapter (%s, %s); want %+v", name, d.Category, d.Tier, d.RiskTier, d.Effect, e.Action, e.Venue, want)
		}
	}
	for _, profile := range []string{"dev", "full", "active", "golem", "observatory", "conservative", "trader", "data"} {
		v, err := f.reg.Select(registry.Selection{Profiles: []string{profile}, Have: []tool.Requirement{tool.NeedsWallet}})
		if err != nil {
			t.Fatal(err)
		}
		all := profile == "dev" || profile == "full" || profile == "active" || profile == "golem"
		for name := range gmxTools {
			if v.Has(name) != all {
				t.Errorf("profile %s offers %s: %v, want %v", profile, name, v.Has(name), all)
			}
		}
	}
	env := *f.env
	env.Venues.GmxMarkets = nil
	for _, tl := range catalog.Tools(&env) {
		if _, ok := gmxTools[tl.Def.Name]; ok {
			t.Errorf("%s registered without a GMX market", tl.Def.Name)
		}
	}
}

// gmxWriteOut is a GMX write's result with its gas cost.
type gmxWriteOut struct {
	writeOut
	GasCostWei string `json:"gas_cost_wei"`
}

func (o gmxWriteOut) gas(t *testing.T) *big.Int {
	t.Helper()
	g, ok := new(big.Int).SetString(o.GasCostWei, 10)
	if !ok {
		t.Fatalf("gas_cost_wei %q", o.GasCostWei)
	}
	return g
}

// gmxFee checks a GMX order plan pays its execution fee (the dev
// DataStore's 500,000 + 3 x 50,000 + 1,500,000 x 1.2 = 2,450,000 gas)
// with sendWnt in the multicall and as the transaction's value, and
// counts it as ETH out; it returns the fee.
func gmxFee(t *testing.T, p *tool.Plan) *big.Int {
	t.Helper()
	tx := p.Txs[len(p.Txs)-1]
	fee := tx.Value
	if fee == nil || fee.Sign() <= 0 || new(big.Int).Rem(fee, big.NewInt(2_450_000)).Sign() != 0 {
		t.Fatalf("the order's value %v is not a fee of 2,450,000 gas", fee)
	}
	er := chain.GmxExchangeRouterABI()
	args, err := abiArgs(er, "multicall", tx.Data)
	if err != nil {
		t.Fatal(err)
	}
	calls := args[0].([][]byte)
	// On the dev chain the OrderVault is the ExchangeRouter's contract.
	wnt, err := er.Pack("sendWnt", common.Address(tx.To), fee)
	if err != nil {
		t.Fatal(err)
	}
	if string(calls[0]) != string(wnt) {
		t.Errorf("the multicall does not start with sendWnt(order vault, %s)", fee)
	}
	out := false
	for _, u := range p.Tokens {
		out = out || (u.Token == tool.Address{} && u.Out && u.Amount.Cmp(fee) == 0)
	}
	if !out {
		t.Errorf("the plan's tokens %+v do not count the fee as ETH out", p.Tokens)
	}
	return fee
}

// feeCents is wei at the dev chain's 3,000 USD per ETH, in cents,
// rounded up as ValueCents rounds.
func feeCents(wei *big.Int) int64 {
	c := new(big.Int).Mul(wei, big.NewInt(300_000))
	c.Add(c, big.NewInt(1e18-1)) // rounded up, as a plan values what it spends
	return c.Quo(c, big.NewInt(1e18)).Int64()
}

// revertsWith reports whether err is a revert with the custom error sig.
func revertsWith(err error, sig string) bool {
	var re *chain.RevertError
	if !errors.As(err, &re) {
		return false
	}
	return bytes.HasPrefix(re.Data, crypto.Keccak256([]byte(sig))[:4])
}

// abiArgs decodes the arguments of a call to method.
func abiArgs(a *chain.ABI, method string, data []byte) ([]any, error) {
	name, args, err := a.UnpackArgs(data)
	if err == nil && name != method {
		err = fmt.Errorf("the call is %s, not %s", name, method)
	}
	return args, err
}
