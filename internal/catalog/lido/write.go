package lido

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// maxRequestsPerCall bounds the withdrawal requests one
// lido_request_withdrawal makes (each at most MAX_STETH_WITHDRAWAL_AMOUNT).
const maxRequestsPerCall = 32

var stake = native.WriteTool{
	Name: "lido_stake_eth",
	Description: "Stake native ETH with Lido for stETH in the agent's wallet (stETH's submit, paying the amount). stETH is rebasing: the wallet receives shares, " +
		"and its stETH balance (shares x pooled ether / shares) grows as Lido reports rewards. The plan checks that staking is not paused, the stake limit " +
		"and the wallet's ETH, and expects at least the stETH the minted shares are worth (a wei or two under the amount by share rounding). " +
		"Keep some ETH for gas. Does not wrap into wstETH (lido_wrap_steth) and cannot be undone at once: exiting is a withdrawal request " +
		"(lido_request_withdrawal) that Lido finalizes later, or a swap.",
	Category: tool.CatStaking, Risk: tool.Layer2, Effect: tool.EffectOpen,
	Steps:    []string{"Reading Lido", "Previewing the shares", "Sending submit", "Confirming"},
	Snippet:  "lido_stake_eth stakes ETH with Lido for rebasing stETH.",
	Required: []string{"amount"},
	Params: []string{native.PAmount("amount", "How much ETH to stake, in wei (1 ETH = \"1000000000000000000\")"),
		native.PClaims("steth", "stETH (what the stake mints)")},
	Action: "stake", Venue: "lido", When: hasLido,
	Plan: planStake,
}

func planStake(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	a := native.ArgsOf(in)
	amount := a.Positive("amount")
	owner := a.Wallet(env)
	if err := a.Err(); err != nil {
		return nil, err
	}
	in.Step(0)
	d, err := resolve(ctx, env)
	if err != nil {
		return nil, err
	}
	st, err := readStakeLimit(ctx, env, d)
	if err != nil {
		return nil, err
	}
	switch {
	case st.paused:
		return nil, errors.New("staking with Lido is paused: submit refuses every stake now")
	case amount.Cmp(st.limit) > 0:
		return nil, fmt.Errorf("the stake limit of Lido allows at most %s ETH now", st.text())
	}
	if err := native.NeedETH(ctx, env, owner, amount, "staking"); err != nil {
		return nil, err
	}
	in.Step(1)
	shares, err := call(ctx, env, d.stETH, "getSharesByPooledEth", amount)
	if err != nil {
		return nil, err
	}
	if shares.Sign() == 0 {
		return nil, errors.New("the stake is too small to mint any stETH share")
	}
	minted, err := call(ctx, env, d.stETH, "getPooledEthByShares", shares)
	if err != nil {
		return nil, err
	}
	t, err := tx(d.stETH, "stake", "submit", common.Address{})
	if err != nil {
		return nil, err
	}
	t.Value = amount
	return native.NewPlan(ctx, env, []tool.Tx{t},
		[]tool.TokenUse{native.ETHUse(amount, true), native.Claimed(in, d.stETH, minted, false, "steth")},
		native.ETHCents(ctx, env, amount),
		fmt.Sprintf("stake %s ETH with Lido (%s) for %s stETH shares, worth %s stETH now",
			native.FormatUnits(amount, 18), d.stETH.Hex(), native.FormatUnits(shares, 18), native.FormatUnits(minted, 18))), nil
}

var wrap = native.WriteTool{
	Name: "lido_wrap_steth",
	Description: "Wrap stETH into wstETH (wstETH's wrap): wstETH is not rebasing, one token per stETH share, so its balance stays fixed while its stETH value grows. " +
		"\"max\" wraps the whole stETH balance. The plan checks the balance, adds an exact approve of wstETH when needed, and expects exactly the wstETH " +
		"getWstETHByStETH gives now. Use it to hold staked ETH where rebasing tokens are not supported. Does not stake ETH (lido_stake_eth) or swap.",
	Category: tool.CatStaking, Risk: tool.Layer2, Effect: tool.EffectOpen,
	Steps:    []string{"Reading Lido", "Previewing the wrap", "Sending approve and wrap", "Confirming"},
	Snippet:  "lido_wrap_steth wraps stETH into non-rebasing wstETH.",
	Required: []string{"amount"},
	Params: []string{native.PAmountMax("amount", "How much stETH to wrap, in wei"),
		native.PClaims("steth", "stETH (what you wrap)")},
	Action: "wrap_steth", Venue: "lido", When: hasLido,
	Plan: planWrap,
}

var unwrap = native.WriteTool{
	Name: "lido_unwrap_wsteth",
	Description: "Unwrap wstETH into stETH (wstETH's unwrap): each wstETH pays the stETH one share is worth now (getStETHByWstETH). \"max\" unwraps the whole " +
		"wstETH balance. The plan checks the balance and expects at least the stETH of the shares the transfer moves. Use it before requesting a withdrawal " +
		"of wrapped stake (lido_request_withdrawal takes stETH). Does not withdraw ETH from Lido and does not swap.",
	Category: tool.CatStaking, Risk: tool.Layer2, Effect: tool.EffectClose,
	Steps:    []string{"Reading Lido", "Previewing the unwrap", "Sending unwrap", "Confirming"},
	Snippet:  "lido_unwrap_wsteth unwraps wstETH into stETH.",
	Required: []string{"amount"},
	Params: []string{native.PAmountMax("amount", "How much wstETH to unwrap, in wei"),
		native.PClaims("wsteth", "wstETH (what you unwrap)")},
	Action: "unwrap_wsteth", Venue: "lido", When: hasLido,
	Plan: planUnwrap,
}

// spent names the token a Lido write spends from the wallet.
type spent uint8

const (
	spendStETH spent = iota
	spendWstETH
)

// beginSpend is what every Lido write that spends a token of the wallet
// (wrap, unwrap, withdrawal request) reads first: the deployment, then
// the amount argument, which may be "max" (the wallet's balance of the
// token): positive, and at most that balance.
func beginSpend(ctx context.Context, env *native.Env, in *registry.Input, which spent) (deployment, *big.Int, error) {
	in.Step(0)
	d, err := resolve(ctx, env)
	if err != nil {
		return d, nil, err
	}
	tok, symbol := d.stETH, "stETH"
	if which == spendWstETH {
		tok, symbol = d.wstETH, "wstETH"
	}
	a := native.ArgsOf(in)
	amount := a.AmountOrMax("amount")
	owner := a.Wallet(env)
	if err := a.Err(); err != nil {
		return d, nil, err
	}
	bal, err := call(ctx, env, tok, "balanceOf", owner)
	if err != nil {
		return d, nil, err
	}
	amount, err = native.Held(amount, bal, symbol, 18, symbol)
	return d, amount, err
}

func planWrap(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	d, amount, err := beginSpend(ctx, env, in, spendStETH)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	wst, err := call(ctx, env, d.wstETH, "getWstETHByStETH", amount)
	if err != nil {
		return nil, err
	}
	if wst.Sign() == 0 {
		return nil, errors.New("the amount is too small to wrap into any wstETH")
	}
	txs, err := native.SpendApprovals(ctx, env, d.stETH, d.wstETH, amount)
	if err != nil {
		return nil, err
	}
	w, err := tx(d.wstETH, "wrap", "wrap", amount)
	if err != nil {
		return nil, err
	}
	return native.NewPlan(ctx, env, append(txs, w),
		[]tool.TokenUse{native.Claimed(in, d.stETH, amount, true, "steth"), {Token: tool.Address(d.wstETH), Decimals: -1, Amount: wst}},
		native.ETHCents(ctx, env, amount),
		fmt.Sprintf("wrap %s stETH into %s wstETH (%s)", native.FormatUnits(amount, 18), native.FormatUnits(wst, 18), d.wstETH.Hex())), nil
}

func planUnwrap(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	d, amount, err := beginSpend(ctx, env, in, spendWstETH)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	stETH, err := call(ctx, env, d.wstETH, "getStETHByWstETH", amount)
	if err != nil {
		return nil, err
	}
	// unwrap transfers stETH by amount, which moves the shares that amount
	// buys (rounded down): the wallet gains at least their pooled ether.
	moved, err := call(ctx, env, d.stETH, "getSharesByPooledEth", stETH)
	if err != nil {
		return nil, err
	}
	least, err := call(ctx, env, d.stETH, "getPooledEthByShares", moved)
	if err != nil {
		return nil, err
	}
	if least.Sign() == 0 {
		return nil, errors.New("the amount is too small to unwrap into any stETH")
	}
	u, err := tx(d.wstETH, "unwrap", "unwrap", amount)
	if err != nil {
		return nil, err
	}
	return native.NewPlan(ctx, env, []tool.Tx{u},
		[]tool.TokenUse{native.Claimed(in, d.wstETH, amount, true, "wsteth"), {Token: tool.Address(d.stETH), Decimals: -1, Amount: least}},
		native.ETHCents(ctx, env, stETH),
		fmt.Sprintf("unwrap %s wstETH (%s) into about %s stETH", native.FormatUnits(amount, 18), d.wstETH.Hex(), native.FormatUnits(stETH, 18))), nil
}

var requestWithdrawal = native.WriteTool{
	Name: "lido_request_withdrawal",
	Description: "Request a withdrawal of stETH from Lido's withdrawal queue, owned by the agent's wallet (requestWithdrawals): the stETH leaves the wallet now " +
		"and ETH can be claimed once Lido finalizes the request (typically days; lido_get_withdrawal_requests shows it), with lido_claim_withdrawal. " +
		"\"max\" requests the whole stETH balance. Each request holds between the queue's minimum (100 wei) and maximum (1,000 stETH); a larger amount is split " +
		"into several requests in one transaction (at most 32). The claim pays the stETH requested, or less if Lido's share rate falls: rewards earned while " +
		"waiting are not paid. Does not take wstETH (lido_unwrap_wsteth first) and cannot be cancelled.",
	Category: tool.CatStaking, Risk: tool.Layer2, Effect: tool.EffectClose,
	Steps:    []string{"Reading Lido", "Splitting the requests", "Sending approve and requestWithdrawals", "Confirming"},
	Snippet:  "lido_request_withdrawal queues stETH for withdrawal to ETH (claim later with lido_claim_withdrawal).",
	Required: []string{"amount"},
	Params: []string{native.PAmountMax("amount", "How much stETH to withdraw, in wei"),
		native.PClaims("steth", "stETH (what you withdraw)")},
	Action: "request_withdrawal", Venue: "lido", When: hasLido,
	Plan: planRequest,
}

func planRequest(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	d, amount, err := beginSpend(ctx, env, in, spendStETH)
	if err != nil {
		return nil, err
	}
	paused, err := callBool(ctx, env, d.queue, "isPaused")
	if err != nil {
		return nil, err
	}
	if paused {
		return nil, errors.New("the withdrawal queue of Lido is paused: it refuses every request now")
	}
	minAmt, err := call(ctx, env, d.queue, "MIN_STETH_WITHDRAWAL_AMOUNT")
	if err != nil {
		return nil, err
	}
	maxAmt, err := call(ctx, env, d.queue, "MAX_STETH_WITHDRAWAL_AMOUNT")
	if err != nil {
		return nil, err
	}
	in.Step(1)
	parts, err := split(amount, minAmt, maxAmt)
	if err != nil {
		return nil, err
	}
	owner, err := native.Owner(env)
	if err != nil {
		return nil, err
	}
	txs, err := native.SpendApprovals(ctx, env, d.stETH, d.queue, amount)
	if err != nil {
		return nil, err
	}
	r, err := tx(d.queue, "request withdrawal", "requestWithdrawals", parts, owner)
	if err != nil {
		return nil, err
	}
	return native.NewPlan(ctx, env, append(txs, r),
		[]tool.TokenUse{native.Claimed(in, d.stETH, amount, true, "steth")},
		native.ETHCents(ctx, env, amount),
		fmt.Sprintf("request the withdrawal of %s stETH from Lido's queue (%s) in %d request(s), claimable as ETH once finalized",
			native.FormatUnits(amount, 18), d.queue.Hex(), len(parts))), nil
}

// split divides amount into withdrawal requests of min to max each: as
// many of max as fit, then the rest, which borrows from the request
// before it when it is under min.
func split(amount, minAmt, maxAmt *big.Int) ([]*big.Int, error) {
	if amount.Cmp(minAmt) < 0 {
		return nil, fmt.Errorf("a Lido withdrawal request takes at least %s wei of stETH", minAmt)
	}
	if maxAmt.Cmp(minAmt) < 0 || maxAmt.Sign() <= 0 {
		return nil, errors.New("the withdrawal queue's bounds are inconsistent")
	}
	n, rest := new(big.Int).QuoRem(amount, maxAmt, new(big.Int))
	count := n.Int64()
	if rest.Sign() > 0 {
		count++
	}
	if !n.IsInt64() || count > maxRequestsPerCall {
		return nil, fmt.Errorf("at most %s stETH can be requested in one call (%d requests)",
			native.FormatUnits(new(big.Int).Mul(maxAmt, big.NewInt(maxRequestsPerCall)), 18), maxRequestsPerCall)
	}
	var parts []*big.Int
	for range n.Int64() {
		parts = append(parts, new(big.Int).Set(maxAmt))
	}
	if rest.Sign() > 0 {
		if rest.Cmp(minAmt) < 0 {
			// n >= 1 here, since amount >= min: move the shortfall over.
			short := new(big.Int).Sub(minAmt, rest)
			parts[len(parts)-1].Sub(parts[len(parts)-1], short)
			rest = new(big.Int).Set(minAmt)
		}
		parts = append(parts, rest)
	}
	return parts, nil
}

var claim = native.WriteTool{
	Name: "lido_claim_withdrawal",
	Description: "Claim the ETH of finalized Lido withdrawal requests to the agent's wallet (claimWithdrawals with the checkpoint hints the queue gives). " +
		"Without request_ids it claims every finalized, unclaimed request the wallet owns (up to 50). The plan refuses a request that is not finalized, " +
		"already claimed or owned by someone else, and expects at least the claimable ETH getClaimableEther reports. Use lido_get_withdrawal_requests first " +
		"to see what is claimable. Does not request withdrawals (lido_request_withdrawal) or speed up finalization.",
	Category: tool.CatStaking, Risk: tool.Layer2, Effect: tool.EffectClose,
	Steps:   []string{"Reading the withdrawal queue", "Checking the requests", "Sending claimWithdrawals", "Confirming"},
	Snippet: "lido_claim_withdrawal claims the ETH of finalized Lido withdrawal requests.",
	Params: []string{pRequestIDs("Request ids to claim (default: every finalized, unclaimed request of the wallet)"),
		native.PClaims("eth", "the native currency paid out")},
	Action: "claim_withdrawal", Venue: "lido", When: hasLido,
	Plan: planClaim,
}

func planClaim(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	ids, err := argRequestIDs(in)
	if err != nil {
		return nil, err
	}
	owner, err := native.Owner(env)
	if err != nil {
		return nil, err
	}
	in.Step(0)
	d, err := resolve(ctx, env)
	if err != nil {
		return nil, err
	}
	named := ids != nil
	if !named {
		if ids, err = requestIDs(ctx, env, d, owner); err != nil {
			return nil, err
		}
		// The oldest first: the queue finalizes in order.
		if len(ids) > maxRequestIDs {
			ids = ids[:maxRequestIDs]
		}
	} else {
		last, err := call(ctx, env, d.queue, "getLastRequestId")
		if err != nil {
			return nil, err
		}
		if top := ids[len(ids)-1]; top.Cmp(last) > 0 {
			return nil, fmt.Errorf("there is no withdrawal request %s: the last one is %s", top, last)
		}
	}
	in.Step(1)
	rs, err := readQueue(ctx, env, d, ids)
	if err != nil {
		return nil, err
	}
	var claimIDs, hints []*big.Int
	total := new(big.Int)
	for _, r := range rs {
		switch {
		case named && r.status.Owner != owner:
			return nil, fmt.Errorf("withdrawal request %s is owned by %s, not the wallet", r.id, r.status.Owner.Hex())
		case named && r.status.IsClaimed:
			return nil, fmt.Errorf("withdrawal request %s is already claimed", r.id)
		case named && !r.status.IsFinalized:
			return nil, fmt.Errorf("withdrawal request %s is not finalized yet: Lido has not paid it out", r.id)
		case !r.status.IsFinalized || r.status.IsClaimed:
			continue
		case r.hint.Sign() == 0:
			return nil, fmt.Errorf("the queue gives no checkpoint for finalized request %s", r.id)
		}
		claimIDs, hints = append(claimIDs, r.id), append(hints, r.hint)
		total.Add(total, r.claimable)
		if len(claimIDs) == maxRequestIDs {
			break
		}
	}
	if len(claimIDs) == 0 {
		if len(ids) == 0 {
			return nil, errors.New("the wallet has no withdrawal request to claim")
		}
		return nil, fmt.Errorf("none of the wallet's %d withdrawal request(s) is finalized yet", len(ids))
	}
	c, err := tx(d.queue, "claim", "claimWithdrawals", claimIDs, hints)
	if err != nil {
		return nil, err
	}
	return native.NewPlan(ctx, env, []tool.Tx{c},
		[]tool.TokenUse{native.Claimed(in, common.Address{}, total, false, "eth")},
		native.ETHCents(ctx, env, total),
		fmt.Sprintf("claim %s ETH from %d finalized Lido withdrawal request(s) %v", native.FormatUnits(total, 18), len(claimIDs), claimIDs)), nil
}
