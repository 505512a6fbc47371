package catalog_test

import (
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/tool"
)

// stakeOut is a staking write's data: its transactions, their gas cost
// and the balance check.
type stakeOut struct {
	TxHashes   []string          `json:"tx_hashes"`
	GasCostWei string            `json:"gas_cost_wei"`
	Deltas     map[string]string `json:"balance_deltas"`
	Verified   bool              `json:"verified"`
}

// mined checks that each of out's transactions has a successful receipt
// and returns the gas they cost.
func (f *baseFixture) mined(t *testing.T, name string, out stakeOut) *big.Int {
	t.Helper()
	if len(out.TxHashes) == 0 || !out.Verified {
		t.Fatalf("%s: %d transactions, balance check verified %v (%v)", name, len(out.TxHashes), out.Verified, out.Deltas)
	}
	for _, h := range out.TxHashes {
		r, err := f.env.Chain.Receipt(t.Context(), common.HexToHash(h))
		if err != nil {
			t.Fatalf("%s: receipt of %s: %v", name, h, err)
		}
		if r.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("%s: transaction %s reverted", name, h)
		}
	}
	gas, ok := new(big.Int).SetString(out.GasCostWei, 10)
	if !ok || gas.Sign() <= 0 {
		t.Fatalf("%s: gas cost %q", name, out.GasCostWei)
	}
	return gas
}

// lidoViews reads stETH's and the queue's own getters, independently of
// the tools.
var lidoViews = func() *chain.ABI {
	a, err := chain.ParseABI(`[
{"type":"function","name":"sharesOf","stateMutability":"view","inputs":[{"name":"a","type":"address"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"getSharesByPooledEth","stateMutability":"view","inputs":[{"name":"e","type":"uint256"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"getPooledEthByShares","stateMutability":"view","inputs":[{"name":"s","type":"uint256"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"getWstETHByStETH","stateMutability":"view","inputs":[{"name":"e","type":"uint256"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"getLastRequestId","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"getWithdrawalRequests","stateMutability":"view","inputs":[{"name":"o","type":"address"}],"outputs":[{"name":"","type":"uint256[]"}]}]`)
	if err != nil {
		panic(err)
	}
	return a
}()

func (f *baseFixture) view(t *testing.T, a *chain.ABI, to common.Address, method string, args ...any) any {
	t.Helper()
	data, err := a.Pack(method, args...)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := f.env.Chain.Call(t.Context(), ethereum.CallMsg{To: &to, Data: data})
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	v, err := a.Unpack(method, raw)
	if err != nil {
		t.Fatal(err)
	}
	return v[0]
}

func (f *baseFixture) viewBig(t *testing.T, a *chain.ABI, to common.Address, method string, args ...any) *big.Int {
	t.Helper()
	return f.view(t, a, to, method, args...).(*big.Int)
}

type lidoRequest struct {
	RequestID    uint64 `json:"request_id"`
	Owner        string `json:"owner"`
	AmountStETH  amt    `json:"amount_steth"`
	Finalized    bool   `json:"finalized"`
	Claimed      bool   `json:"claimed"`
	ClaimableETH amt    `json:"claimable_eth"`
}

type lidoRequests struct {
	Requests []lidoRequest `json:"requests"`
	Total    amt           `json:"total_claimable_eth"`
}

// TestLido stakes, wraps, unwraps, requests a withdrawal and claims it on
// ward's same-ABI Lido, committing each write and checking its receipt
// and the balances it moved, and refuses what Lido would refuse.
func TestLido(t *testing.T) {
	f := base(t)
	c, me, ctx := f.c, f.wallet(), t.Context()
	stETH, wstETH, queue := c.LidoStETH, c.LidoWstETH, c.LidoWithdrawalQueue
	eth := func(n int64) *big.Int { return units(n, 18) }

	var info struct {
		StETH        string  `json:"steth"`
		WstETH       string  `json:"wsteth"`
		Pooled       amt     `json:"total_pooled_ether"`
		PerShare     string  `json:"eth_per_share"`
		PerWstETH    string  `json:"steth_per_wsteth"`
		Paused       bool    `json:"staking_paused"`
		Limit        string  `json:"stake_limit"`
		Min          amt     `json:"withdrawal_min_steth"`
		Max          amt     `json:"withdrawal_max_steth"`
		LastFinal    uint64  `json:"last_finalized_request_id"`
		TVLUSD       float64 `json:"tvl_usd"`
		Unfinalized  amt     `json:"unfinalized_steth"`
		LastRequest  uint64  `json:"last_request_id"`
		WithdrawalsP bool    `json:"withdrawals_paused"`
		LastReport   *struct {
			Block   uint64  `json:"block"`
			Elapsed uint64  `json:"time_elapsed_seconds"`
			APR     float64 `json:"apr_percent"`
		} `json:"last_report"`
	}
	f.read(t, "lido_get_staking_info", `{}`, &info)
	// The deployment reported 30 ETH on 1,000 as a year's rewards: 3 %.
	if r := info.LastReport; r == nil || r.Elapsed != 365*24*3600 || !near(r.APR, 3, 1e-9) {
		t.Errorf("the deployment's report = %+v, want 3 %% over a year", r)
	}
	if common.HexToAddress(info.StETH) != stETH || common.HexToAddress(info.WstETH) != wstETH || info.Paused || info.Limit != "unlimited" ||
		info.Min.Raw != "100" || info.Max.big(t).Cmp(eth(1_000)) != 0 || info.PerShare != "1.03" || info.PerWstETH != "1.03" ||
		info.Pooled.big(t).Cmp(eth(1_030)) != 0 || !near(info.TVLUSD, 1_030*3_000, 1e-6) {
		t.Fatalf("staking info = %+v", info)
	}

	// Stake 10 ETH: the wallet gets the shares 10 ETH buys, worth at most
	// 10 stETH and at least what the plan expected.
	amount := eth(10)
	wantShares := f.viewBig(t, lidoViews, stETH, "getSharesByPooledEth", amount)
	eth0, st0, sh0 := f.balance(t, common.Address{}, me), f.balance(t, stETH, me), f.viewBig(t, lidoViews, stETH, "sharesOf", me)
	var out stakeOut
	p := f.commit(t, "lido_stake_eth", argsOf("amount", amount, "steth_symbol", "stETH", "steth_decimals", 18), &out)
	gas := f.mined(t, "lido_stake_eth", out)
	if d := new(big.Int).Sub(eth0, f.balance(t, common.Address{}, me)); d.Cmp(new(big.Int).Add(amount, gas)) != 0 {
		t.Errorf("staking cost %s wei, want %s + %s gas", d, amount, gas)
	}
	if d := new(big.Int).Sub(f.viewBig(t, lidoViews, stETH, "sharesOf", me), sh0); d.Cmp(wantShares) != 0 {
		t.Errorf("staking minted %s shares, want %s", d, wantShares)
	}
	gotSt := new(big.Int).Sub(f.balance(t, stETH, me), st0)
	if gotSt.Cmp(amount) > 0 || gotSt.Cmp(p.Tokens[1].Amount) < 0 || new(big.Int).Sub(amount, gotSt).Cmp(big.NewInt(2)) > 0 {
		t.Errorf("staking 10 ETH gave %s stETH, plan expected at least %s", gotSt, p.Tokens[1].Amount)
	}
	if p.ValueCents != 3_000_000 || p.Tokens[1].Symbol != "stETH" || p.Txs[0].Value.Cmp(amount) != 0 {
		t.Errorf("stake plan = %+v", p)
	}

	// A reward report raises the balance and leaves the shares.
	shares := f.viewBig(t, lidoViews, stETH, "sharesOf", me)
	before := f.balance(t, stETH, me)
	if err := f.dev.ReportLido(ctx, eth(103), 0); err != nil {
		t.Fatal(err)
	}
	var pos struct {
		StETH       amt     `json:"steth"`
		Shares      amt     `json:"steth_shares"`
		WstETH      amt     `json:"wsteth"`
		Total       amt     `json:"total_steth"`
		ValueUSD    float64 `json:"value_usd"`
		OpenRequest int     `json:"open_withdrawal_requests"`
	}
	f.read(t, "lido_get_position", `{}`, &pos)
	if pos.Shares.big(t).Cmp(shares) != 0 || pos.StETH.big(t).Cmp(before) <= 0 || pos.StETH.big(t).Cmp(f.balance(t, stETH, me)) != 0 || pos.OpenRequest != 0 {
		t.Errorf("after a rebase: position %+v, shares were %s and balance %s", pos, shares, before)
	}
	f.read(t, "lido_get_staking_info", `{}`, &info)
	// The report's APR: 103 ETH on 1,040 (the shares unchanged) over a
	// day, annualised.
	head := freshHead(t, f.env.Chain)
	if r := info.LastReport; r == nil || r.Block != head.Number.Uint64() || r.Elapsed != 24*3600 || !near(r.APR, 103.0/1040*365*100, 1e-9) {
		t.Errorf("last report = %+v, head %d", r, head.Number)
	}
	// 1,040 ETH on 1,009.7 shares, plus 103 ETH of rewards.
	if r := fl(info.PerShare); r <= 1.13 || r >= 1.14 || info.PerWstETH != info.PerShare {
		t.Errorf("after 103 ETH of rewards: %s ETH per share, %s stETH per wstETH; want about 1.132 each", info.PerShare, info.PerWstETH)
	}

	// Wrap 5 stETH: exactly the wstETH previewed, at most 5 stETH out.
	wrapAmt := eth(5)
	wantWst := f.viewBig(t, lidoViews, wstETH, "getWstETHByStETH", wrapAmt)
	st1, wst1 := f.balance(t, stETH, me), f.balance(t, wstETH, me)
	f.commit(t, "lido_wrap_steth", argsOf("amount", wrapAmt, "steth_symbol", "stETH"), &out)
	f.mined(t, "lido_wrap_steth", out)
	if d := new(big.Int).Sub(f.balance(t, wstETH, me), wst1); d.Cmp(wantWst) != 0 {
		t.Errorf("wrapping 5 stETH gave %s wstETH, want %s", d, wantWst)
	}
	if d := new(big.Int).Sub(st1, f.balance(t, stETH, me)); d.Cmp(wrapAmt) > 0 || new(big.Int).Sub(wrapAmt, d).Cmp(big.NewInt(2)) > 0 {
		t.Errorf("wrapping 5 stETH took %s stETH", d)
	}

	// Unwrap all of it back.
	st2 := f.balance(t, stETH, me)
	p = f.commit(t, "lido_unwrap_wsteth", argsOf("amount", "max", "wsteth_symbol", "wstETH"), &out)
	f.mined(t, "lido_unwrap_wsteth", out)
	if w := f.balance(t, wstETH, me); w.Sign() != 0 {
		t.Errorf("%s wstETH left after unwrapping max", w)
	}
	if d := new(big.Int).Sub(f.balance(t, stETH, me), st2); d.Cmp(p.Tokens[1].Amount) < 0 || new(big.Int).Sub(wrapAmt, d).Cmp(big.NewInt(3)) > 0 {
		t.Errorf("unwrapping gave %s stETH, plan expected at least %s, wrapped %s", d, p.Tokens[1].Amount, wrapAmt)
	}

	// Request the withdrawal of 2 stETH: the stETH goes to the queue and
	// the wallet owns a new request.
	reqAmt := eth(2)
	st3, q3 := f.balance(t, stETH, me), f.balance(t, stETH, queue)
	f.commit(t, "lido_request_withdrawal", argsOf("amount", reqAmt, "steth_symbol", "stETH"), &out)
	f.mined(t, "lido_request_withdrawal", out)
	if d := new(big.Int).Sub(st3, f.balance(t, stETH, me)); d.Cmp(reqAmt) > 0 || new(big.Int).Sub(reqAmt, d).Cmp(big.NewInt(2)) > 0 {
		t.Errorf("requesting 2 stETH took %s stETH", d)
	}
	if d := new(big.Int).Sub(f.balance(t, stETH, queue), q3); new(big.Int).Sub(reqAmt, d).CmpAbs(big.NewInt(2)) > 0 {
		t.Errorf("the queue received %s stETH", d)
	}
	ids := f.view(t, lidoViews, queue, "getWithdrawalRequests", me).([]*big.Int)
	if len(ids) != 1 {
		t.Fatalf("the wallet owns requests %v", ids)
	}
	id := ids[0]
	var reqs lidoRequests
	f.read(t, "lido_get_withdrawal_requests", `{}`, &reqs)
	if len(reqs.Requests) != 1 || reqs.Requests[0].RequestID != id.Uint64() || reqs.Requests[0].Finalized || reqs.Requests[0].Claimed ||
		reqs.Requests[0].AmountStETH.big(t).Cmp(reqAmt) != 0 || reqs.Requests[0].ClaimableETH.Raw != "0" || common.HexToAddress(reqs.Requests[0].Owner) != me {
		t.Fatalf("requests = %+v", reqs)
	}

	// Nothing is claimable before Lido finalizes.
	for _, args := range []string{`{}`, argsOf("request_ids", []uint64{id.Uint64()})} {
		if _, _, err := f.plan(t, "lido_claim_withdrawal", args); err == nil || !strings.Contains(err.Error(), "finalized") {
			t.Errorf("claim %s before finalization: %v", args, err)
		}
	}

	// Rewards then finalization: the claim pays the 2 stETH requested,
	// not the rewards earned while waiting.
	if err := f.dev.ReportLido(ctx, eth(10), id.Uint64()); err != nil {
		t.Fatal(err)
	}
	f.read(t, "lido_get_withdrawal_requests", argsOf("request_ids", []uint64{id.Uint64()}), &reqs)
	if len(reqs.Requests) != 1 || !reqs.Requests[0].Finalized || reqs.Requests[0].Claimed || reqs.Requests[0].ClaimableETH.big(t).Cmp(reqAmt) != 0 {
		t.Fatalf("finalized request = %+v", reqs)
	}
	eth1 := f.balance(t, common.Address{}, me)
	f.commit(t, "lido_claim_withdrawal", `{}`, &out)
	gas = f.mined(t, "lido_claim_withdrawal", out)
	if d := new(big.Int).Sub(f.balance(t, common.Address{}, me), eth1); new(big.Int).Add(d, gas).Cmp(reqAmt) != 0 {
		t.Errorf("the claim paid %s wei (less %s gas), want %s", d, gas, reqAmt)
	}
	f.read(t, "lido_get_withdrawal_requests", argsOf("request_ids", []uint64{id.Uint64()}), &reqs)
	if !reqs.Requests[0].Claimed || reqs.Requests[0].ClaimableETH.Raw != "0" {
		t.Errorf("claimed request = %+v", reqs.Requests[0])
	}
	if ids := f.view(t, lidoViews, queue, "getWithdrawalRequests", me).([]*big.Int); len(ids) != 0 {
		t.Errorf("the wallet still owns requests %v after claiming", ids)
	}

	// Refusals: each is refused at planning, with a specific reason, and
	// moves nothing.
	last := f.viewBig(t, lidoViews, queue, "getLastRequestId")
	ethN, stN := f.balance(t, common.Address{}, me), f.balance(t, stETH, me)
	refuse := func(name, args, want string) {
		t.Helper()
		_, _, err := f.plan(t, name, args)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s %s: %v, want an error about %q", name, args, err, want)
		}
	}
	refuse("lido_claim_withdrawal", argsOf("request_ids", []uint64{id.Uint64()}), "already claimed")
	refuse("lido_claim_withdrawal", argsOf("request_ids", []uint64{last.Uint64() + 1}), "no withdrawal request")
	refuse("lido_claim_withdrawal", `{}`, "no withdrawal request to claim")
	refuse("lido_stake_eth", argsOf("amount", "0"), "greater than 0")
	refuse("lido_stake_eth", argsOf("amount", eth(1_000_000)), "insufficient ETH")
	refuse("lido_wrap_steth", argsOf("amount", eth(1_000_000)), "the wallet holds")
	refuse("lido_unwrap_wsteth", argsOf("amount", "max"), "holds no wstETH")
	refuse("lido_request_withdrawal", argsOf("amount", "99"), "at least 100 wei")
	refuse("lido_request_withdrawal", argsOf("amount", eth(1_000_000)), "the wallet holds")
	if err := f.dev.PauseLidoStaking(ctx, true); err != nil {
		t.Fatal(err)
	}
	refuse("lido_stake_eth", argsOf("amount", eth(1)), "paused")
	if err := f.dev.PauseLidoStaking(ctx, false); err != nil {
		t.Fatal(err)
	}
	if e, s := f.balance(t, common.Address{}, me), f.balance(t, stETH, me); e.Cmp(ethN) != 0 || s.Cmp(stN) != 0 {
		t.Errorf("refused plans moved funds: ETH %s → %s, stETH %s → %s", ethN, e, stN, s)
	}
	if l := f.viewBig(t, lidoViews, queue, "getLastRequestId"); l.Cmp(last) != 0 {
		t.Errorf("refused plans made requests: last id %s → %s", last, l)
	}

	// A request the wallet paid for but someone else owns is not the
	// wallet's to claim, even once finalized.
	erc20 := chain.ERC20ABI()
	in := input(t, `{}`)
	if _, err := f.env.Wallet.Send(ctx, capFor("test_send", in), chain.Scope{Tool: "test_send", ArgsHash: in.Args.Hash(), Tick: in.Tick, Now: in.Now}, []tool.Tx{
		mustTx(t, erc20, stETH, "approve", queue, eth(1)),
		mustTx(t, lidoQueueWrites, queue, "requestWithdrawals", []*big.Int{eth(1)}, recipient),
	}); err != nil {
		t.Fatal(err)
	}
	theirs := f.viewBig(t, lidoViews, queue, "getLastRequestId")
	if err := f.dev.ReportLido(ctx, nil, theirs.Uint64()); err != nil {
		t.Fatal(err)
	}
	refuse("lido_claim_withdrawal", argsOf("request_ids", []uint64{theirs.Uint64()}), "owned by "+recipient.Hex())
	refuse("lido_claim_withdrawal", `{}`, "no withdrawal request to claim")
}

var lidoQueueWrites = func() *chain.ABI {
	a, err := chain.ParseABI(`[{"type":"function","name":"requestWithdrawals","stateMutability":"nonpayable","inputs":[{"name":"_amounts","type":"uint256[]"},{"name":"_owner","type":"address"}],"outputs":[{"name":"requestIds","type":"uint256[]"}]}]`)
	if err != nil {
		panic(err)
	}
	return a
}()

// TestLidoLargeWithdrawalSplits requests more stETH than one request
// takes and checks that the queue made two requests adding up to it,
// leaving the wallet's wstETH alone.
func TestLidoLargeWithdrawalSplits(t *testing.T) {
	f := base(t)
	c, me := f.c, f.wallet()
	if err := f.dev.Fund(t.Context(), me, common.Address{}, units(1_500, 18)); err != nil {
		t.Fatal(err)
	}
	var out stakeOut
	f.commit(t, "lido_stake_eth", argsOf("amount", units(1_200, 18)), &out)
	f.mined(t, "lido_stake_eth", out)
	f.commit(t, "lido_wrap_steth", argsOf("amount", units(1, 18)), &out)
	f.mined(t, "lido_wrap_steth", out)
	wst := f.balance(t, c.LidoWstETH, me)
	before := f.view(t, lidoViews, c.LidoWithdrawalQueue, "getWithdrawalRequests", me).([]*big.Int)
	bal := f.balance(t, c.LidoStETH, me)
	p := f.commit(t, "lido_request_withdrawal", argsOf("amount", "max"), &out)
	f.mined(t, "lido_request_withdrawal", out)
	after := f.view(t, lidoViews, c.LidoWithdrawalQueue, "getWithdrawalRequests", me).([]*big.Int)
	if len(after)-len(before) != 2 || !strings.Contains(p.Summary, "2 request(s)") {
		t.Errorf("requesting %s stETH made %d requests (%s)", bal, len(after)-len(before), p.Summary)
	}
	var reqs lidoRequests
	f.read(t, "lido_get_withdrawal_requests", `{}`, &reqs)
	sum := new(big.Int)
	for _, r := range reqs.Requests {
		sum.Add(sum, r.AmountStETH.big(t))
	}
	if sum.Cmp(bal) != 0 {
		t.Errorf("the requests hold %s stETH, the wallet had %s", sum, bal)
	}
	if left := f.balance(t, c.LidoStETH, me); left.Cmp(big.NewInt(2)) > 0 {
		t.Errorf("%s stETH left after requesting max", left)
	}
	if w := f.balance(t, c.LidoWstETH, me); w.Cmp(wst) != 0 {
		t.Errorf("requesting stETH moved wstETH: %s → %s", wst, w)
	}
}
