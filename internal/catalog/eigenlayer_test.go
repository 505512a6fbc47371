package catalog_test

import (
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/chain"
)

type restakeOut struct {
	DelegatedTo string `json:"delegated_to"`
	Strategies  []struct {
		Strategy   string   `json:"strategy"`
		Token      tokenOut `json:"token"`
		Shares     string   `json:"shares"`
		Underlying amt      `json:"underlying"`
	} `json:"strategies"`
}

type withdrawalsOut struct {
	Block       uint64 `json:"block"`
	Delay       uint64 `json:"delay_blocks"`
	Withdrawals []struct {
		Root        string `json:"withdrawal_root"`
		StartBlock  uint64 `json:"start_block"`
		From        uint64 `json:"completable_from_block"`
		Completable bool   `json:"completable"`
		DelegatedTo string `json:"delegated_to"`
		Strategies  []struct {
			Shares     string `json:"shares"`
			Underlying amt    `json:"underlying"`
		} `json:"strategies"`
	} `json:"withdrawals"`
}

// TestEigenLayer restakes WETH, delegates to the dev operator, queues a
// withdrawal, waits out the delay and completes it, committing each write
// and checking receipts, balances and the managers' state; refused calls
// change nothing.
func TestEigenLayer(t *testing.T) {
	f := base(t)
	c := f.c
	me := f.wallet()
	sm, dm := chain.EigenStrategyManagerABI(), chain.EigenDelegationManagerABI()
	shares := func(t *testing.T) *big.Int {
		t.Helper()
		return f.call(t, sm, c.EigenStrategyManager, "stakerDepositShares", me, c.EigenStrategyWETH)[0].(*big.Int)
	}
	opShares := func(t *testing.T) *big.Int {
		t.Helper()
		return f.call(t, dm, c.EigenDelegationManager, "operatorShares", c.EigenOperator, c.EigenStrategyWETH)[0].(*big.Int)
	}
	weth := func(t *testing.T) *big.Int { t.Helper(); return f.balance(t, c.WETH, me) }

	var pos restakeOut
	f.read(t, "eigenlayer_get_position", `{}`, &pos)
	if pos.DelegatedTo != "" || len(pos.Strategies) != 1 || pos.Strategies[0].Shares != "0" || common.HexToAddress(pos.Strategies[0].Token.Address) != c.WETH {
		t.Fatalf("fresh position = %+v", pos)
	}

	weth0 := weth(t)
	for _, bad := range []struct{ tool, args, want string }{
		{"eigenlayer_deposit_strategy", argsOf("amount", "0"), "amount"},
		{"eigenlayer_deposit_strategy", argsOf("amount", units(1, 18), "strategy", c.VaultUSDC), "not one of the configured"},
		{"eigenlayer_deposit_strategy", argsOf("amount", units(1_000_000, 18)), "WETH"},
		{"eigenlayer_delegate_operator", argsOf("operator", recipient), "not a registered"},
		{"eigenlayer_delegate_operator", argsOf("operator", me), "itself"},
		{"eigenlayer_queue_withdrawal", argsOf("shares", "max"), "no position"},
		{"eigenlayer_complete_withdrawal", `{}`, "no queued"},
	} {
		if _, _, err := f.plan(t, bad.tool, bad.args); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s %s: %v, want an error with %q", bad.tool, bad.args, err, bad.want)
		}
	}
	if shares(t).Sign() != 0 || weth(t).Cmp(weth0) != 0 {
		t.Fatal("refused calls changed the position")
	}

	// Deposit 2 WETH: the plan approves the StrategyManager exactly and deposits.
	var out writeOut
	p := f.commit(t, "eigenlayer_deposit_strategy", argsOf("amount", units(2, 18), "token_symbol", "WETH"), &out)
	if len(p.Txs) != 2 || common.Address(p.Txs[1].To) != c.EigenStrategyManager || p.ValueCents != 600_000 || !out.Verified {
		t.Fatalf("deposit plan %+v (verified %v)", p, out.Verified)
	}
	f.receiptOf(t, writeOut{TxHashes: out.TxHashes[1:]}, c.EigenStrategyManager, sm, "Deposit")
	if d := new(big.Int).Sub(weth0, weth(t)); d.Cmp(units(2, 18)) != 0 {
		t.Errorf("deposit took %s WETH, want 2", d)
	}
	got := shares(t)
	if got.Sign() <= 0 {
		t.Fatalf("no shares after the deposit")
	}
	f.read(t, "eigenlayer_get_position", `{}`, &pos)
	if pos.Strategies[0].Shares != got.String() || pos.Strategies[0].Underlying.big(t).Cmp(units(2, 18)) != 0 {
		t.Errorf("position after deposit = %+v, want %s shares worth 2 WETH", pos, got)
	}

	// Delegate to the dev operator: its shares grow by the wallet's.
	op0 := opShares(t)
	p = f.commit(t, "eigenlayer_delegate_operator", argsOf("operator", c.EigenOperator), &out)
	if p.ValueCents != 600_000 || !out.Verified {
		t.Errorf("delegate plan %+v (verified %v): the value at stake is the 2 WETH restaked", p, out.Verified)
	}
	f.receiptOf(t, out, c.EigenDelegationManager, dm, "StakerDelegated")
	if to := f.call(t, dm, c.EigenDelegationManager, "delegatedTo", me)[0].(common.Address); to != c.EigenOperator {
		t.Fatalf("delegated to %s, want the operator", to.Hex())
	}
	if d := new(big.Int).Sub(opShares(t), op0); d.Cmp(got) != 0 {
		t.Errorf("operator shares grew by %s, want %s", d, got)
	}
	if _, _, err := f.plan(t, "eigenlayer_delegate_operator", argsOf("operator", c.EigenOperator)); err == nil || !strings.Contains(err.Error(), "already delegated") {
		t.Errorf("second delegation: %v", err)
	}
	f.read(t, "eigenlayer_get_position", `{}`, &pos)
	if pos.DelegatedTo != c.EigenOperator.Hex() {
		t.Errorf("position delegated to %q", pos.DelegatedTo)
	}

	// Queue half the shares: they leave the position and the operator.
	half := new(big.Int).Quo(got, big.NewInt(2))
	f.commit(t, "eigenlayer_queue_withdrawal", argsOf("shares", half), &out)
	if !out.Verified {
		t.Errorf("queue not verified: %+v", out)
	}
	f.receiptOf(t, out, c.EigenDelegationManager, dm, "SlashingWithdrawalQueued")
	if s := shares(t); new(big.Int).Sub(got, s).Cmp(half) != 0 {
		t.Errorf("shares %s after queueing %s of %s", s, half, got)
	}
	if d := new(big.Int).Sub(op0, opShares(t)); new(big.Int).Add(d, got).Cmp(half) != 0 {
		t.Errorf("operator shares moved by %s, want +%s then -%s", d, got, half)
	}
	var ws withdrawalsOut
	f.read(t, "eigenlayer_get_withdrawals", `{}`, &ws)
	if len(ws.Withdrawals) != 1 || ws.Withdrawals[0].Completable || ws.Delay != chain.DevEigenWithdrawalDelay ||
		ws.Withdrawals[0].From != ws.Withdrawals[0].StartBlock+ws.Delay+1 || ws.Withdrawals[0].Strategies[0].Shares != half.String() ||
		ws.Withdrawals[0].DelegatedTo != c.EigenOperator.Hex() {
		t.Fatalf("withdrawals = %+v", ws)
	}
	if _, _, err := f.plan(t, "eigenlayer_complete_withdrawal", `{}`); err == nil || !strings.Contains(err.Error(), "ready") {
		t.Errorf("completing before the delay: %v", err)
	}
	if _, _, err := f.plan(t, "eigenlayer_complete_withdrawal", argsOf("withdrawal_root", ws.Withdrawals[0].Root)); err == nil || !strings.Contains(err.Error(), "completes from block") {
		t.Errorf("completing by root before the delay: %v", err)
	}

	// After the delay the tokens come back.
	for range chain.DevEigenWithdrawalDelay + 1 {
		if _, err := f.dev.Commit(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	f.read(t, "eigenlayer_get_withdrawals", `{}`, &ws)
	if len(ws.Withdrawals) != 1 || !ws.Withdrawals[0].Completable {
		t.Fatalf("withdrawal after the delay = %+v", ws)
	}
	want := ws.Withdrawals[0].Strategies[0].Underlying.big(t)
	before := weth(t)
	f.commit(t, "eigenlayer_complete_withdrawal", argsOf("withdrawal_root", ws.Withdrawals[0].Root), &out)
	if !out.Verified {
		t.Errorf("complete not verified: %+v", out)
	}
	f.receiptOf(t, out, c.EigenDelegationManager, dm, "SlashingWithdrawalCompleted")
	if d := new(big.Int).Sub(weth(t), before); d.Cmp(want) != 0 || d.Sign() <= 0 {
		t.Errorf("completion paid %s WETH, previewed %s", d, want)
	}
	f.read(t, "eigenlayer_get_withdrawals", `{}`, &ws)
	if len(ws.Withdrawals) != 0 {
		t.Errorf("withdrawals left after completing = %+v", ws)
	}
	if _, _, err := f.plan(t, "eigenlayer_queue_withdrawal", argsOf("shares", new(big.Int).Add(shares(t), big.NewInt(1)))); err == nil || !strings.Contains(err.Error(), "fewer than") {
		t.Errorf("queueing more shares than held: %v", err)
	}
}
