package chain

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/wardhq/ward/internal/tool"
)

// accountFixture is a dev chain with an ERC-4337 account owned by the
// operator, the dev wallet's key as its session key, and a Wallet sending
// from it.
type accountFixture struct {
	d      *DevChain
	c      *DevContracts
	dep    AccountDeployment
	wallet *Wallet
	key    common.Address
}

func newAccountFixture(t *testing.T) *accountFixture {
	t.Helper()
	d, c := startDev(t)
	w, dep, err := d.AccountWallet(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return &accountFixture{d: d, c: c, dep: dep, wallet: w, key: d.WalletAddress()}
}

func (f *accountFixture) transfer(t *testing.T, token, to common.Address, amount *big.Int) tool.Tx {
	t.Helper()
	return tool.Tx{To: tool.Address(token), Data: pack(t, ERC20ABI(), "transfer", to, amount), Label: "transfer"}
}

func (f *accountFixture) send(t *testing.T, name string, txs ...tool.Tx) ([]*types.Receipt, error) {
	t.Helper()
	args := sha256.Sum256([]byte(name))
	return f.wallet.Send(t.Context(), capFor("erc20_transfer", args), scopeFor("erc20_transfer", args), txs)
}

// userOpNonce is the account's nonce at the EntryPoint: it moves only
// when a UserOperation is included.
func (f *accountFixture) userOpNonce(t *testing.T) *big.Int {
	t.Helper()
	return view(t, f.d.Provider(), f.dep.EntryPoint, EntryPointABI(), "getNonce", f.dep.Account, new(big.Int))[0].(*big.Int)
}

func TestAccountTransferGoesThroughEntryPoint(t *testing.T) {
	f := newAccountFixture(t)
	p := f.d.Provider()
	to := common.HexToAddress("0x00000000000000000000000000000000000Aa401")
	if got := f.wallet.Address(); got != f.dep.Account {
		t.Fatalf("Address() = %s, want the account %s", got.Hex(), f.dep.Account.Hex())
	}
	accBefore, keyBefore := tokenBalance(t, p, f.c.USDC, f.dep.Account), tokenBalance(t, p, f.c.USDC, f.key)
	depBefore := view(t, p, f.dep.EntryPoint, EntryPointABI(), "balanceOf", f.dep.Account)[0].(*big.Int)

	receipts, err := f.send(t, "4337 transfer", f.transfer(t, f.c.USDC, to, big.NewInt(250e6)))
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	if len(receipts) != 1 || receipts[0].Status != 1 {
		t.Fatalf("receipts %+v, want one successful", receipts)
	}
	ev, _ := EntryPointABI().Event("UserOperationEvent")
	if !slices.ContainsFunc(receipts[0].Logs, func(l *types.Log) bool {
		return l.Address == f.dep.EntryPoint && l.Topics[0] == ev && common.BytesToAddress(l.Topics[2][:]) == f.dep.Account
	}) {
		t.Error("the handleOps receipt has no UserOperationEvent of the account")
	}
	wantBig(t, "account USDC", tokenBalance(t, p, f.c.USDC, f.dep.Account), new(big.Int).Sub(accBefore, big.NewInt(250e6)))
	wantBig(t, "session key USDC", tokenBalance(t, p, f.c.USDC, f.key), keyBefore)
	wantBig(t, "recipient USDC", tokenBalance(t, p, f.c.USDC, to), big.NewInt(250e6))
	wantBig(t, "userOp nonce", f.userOpNonce(t), big.NewInt(1))
	if depAfter := view(t, p, f.dep.EntryPoint, EntryPointABI(), "balanceOf", f.dep.Account)[0].(*big.Int); depAfter.Cmp(depBefore) >= 0 {
		t.Errorf("the account's deposit %s did not pay for the operation (was %s)", depAfter, depBefore)
	}
}

func TestAccountSwapGoesThroughEntryPoint(t *testing.T) {
	f := newAccountFixture(t)
	p := f.d.Provider()
	amount := big.NewInt(1_000e6)
	usdcBefore, wethBefore := tokenBalance(t, p, f.c.USDC, f.dep.Account), tokenBalance(t, p, f.c.WETH, f.dep.Account)
	deadline := big.NewInt(time.Now().Add(365 * 24 * time.Hour).Unix())
	approve := tool.Tx{To: tool.Address(f.c.USDC), Data: pack(t, ERC20ABI(), "approve", f.c.UniswapV2Router, amount), Label: "approve"}
	swap := tool.Tx{To: tool.Address(f.c.UniswapV2Router), Label: "swap",
		Data: pack(t, UniswapV2Router02ABI(), "swapExactTokensForTokens", amount, big.NewInt(1), []common.Address{f.c.USDC, f.c.WETH}, f.dep.Account, deadline)}
	receipts, err := f.send(t, "4337 swap", approve, swap)
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	if len(receipts) != 2 {
		t.Fatalf("%d receipts, want 2", len(receipts))
	}
	wantBig(t, "account USDC", tokenBalance(t, p, f.c.USDC, f.dep.Account), new(big.Int).Sub(usdcBefore, amount))
	if got := tokenBalance(t, p, f.c.WETH, f.dep.Account); got.Cmp(wethBefore) <= 0 {
		t.Errorf("account WETH %s, want more than %s", got, wethBefore)
	}
	wantBig(t, "userOp nonce", f.userOpNonce(t), big.NewInt(2))
	// Each operation's callGasLimit is its own estimate, the swap's made
	// after the approval: not a fixed allowance, and enough.
	for i, r := range receipts {
		tx, _, err := p.eps[0].ec.TransactionByHash(t.Context(), r.TxHash)
		if err != nil {
			t.Fatal(err)
		}
		ops, err := unpackOps(tx.Data()[4:])
		if err != nil || len(ops) != 1 {
			t.Fatalf("handleOps %d: %d ops, %v", i, len(ops), err)
		}
		callGas := new(big.Int).SetBytes(ops[0].AccountGasLimits[16:]).Uint64()
		if callGas < 60_000 || callGas > 400_000 || callGas == 1_500_000 {
			t.Errorf("op %d (%s): callGasLimit %d, want an estimate of the call (60,000 to 400,000)", i, r.TxHash.Hex(), callGas)
		}
		t.Logf("op %d: callGasLimit %d, handleOps gas used %d", i, callGas, r.GasUsed)
	}
}

// refused checks a send was refused before anything was signed or sent.
func (f *accountFixture) refused(t *testing.T, err error, want string) {
	t.Helper()
	if !errors.Is(err, ErrSessionScope) || !strings.Contains(err.Error(), want) {
		t.Fatalf("send: %v, want ErrSessionScope saying %q", err, want)
	}
	wantBig(t, "userOp nonce", f.userOpNonce(t), new(big.Int))
	n, nerr := f.d.Provider().Nonce(t.Context(), f.key)
	if nerr != nil {
		t.Fatal(nerr)
	}
	if n != 0 {
		t.Errorf("the session key sent %d transactions", n)
	}
}

func TestAccountRefusesOutOfScope(t *testing.T) {
	f := newAccountFixture(t)
	p := f.d.Provider()
	to := common.HexToAddress("0x00000000000000000000000000000000000Aa402")
	if err := f.d.Fund(t.Context(), f.dep.Account, f.c.WBTC, big.NewInt(1e8)); err != nil {
		t.Fatal(err)
	}
	_, err := f.send(t, "wbtc", f.transfer(t, f.c.WBTC, to, big.NewInt(1e6)))
	f.refused(t, err, "not in the session key's scope")
	wantBig(t, "recipient WBTC", tokenBalance(t, p, f.c.WBTC, to), new(big.Int))

	// A selector not granted on a granted target.
	_, err = f.send(t, "transferFrom", tool.Tx{To: tool.Address(f.c.USDC),
		Data: pack(t, ERC20ABI(), "transferFrom", f.dep.Account, to, big.NewInt(1))})
	f.refused(t, err, "not in the session key's scope")

	// More ether than the per-call cap (1 ETH).
	_, err = f.send(t, "ether", tool.Tx{To: tool.Address(f.c.WETH), Value: ether(2), Data: pack(t, WETH9ABI(), "deposit")})
	f.refused(t, err, "cap")

	// The account itself, even with a granted selector.
	_, err = f.send(t, "self", tool.Tx{To: tool.Address(f.dep.Account),
		Data: pack(t, SessionKeyAccountABI(), "revokeSessionKey", f.key)})
	f.refused(t, err, "cannot call the account")
}

func TestAccountRefusesExpiredAndRevokedKey(t *testing.T) {
	f := newAccountFixture(t)
	to := common.HexToAddress("0x00000000000000000000000000000000000Aa403")
	head, err := f.d.Provider().HeaderLatest(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	scope, err := f.d.DevSessionScope()
	if err != nil {
		t.Fatal(err)
	}
	scope.ValidUntil = time.Unix(int64(head.Time), 0).Add(time.Hour)
	if err := f.d.GrantSessionKey(t.Context(), f.dep.Account, f.key, scope); err != nil {
		t.Fatal(err)
	}
	if err := f.d.AdjustTime(2 * time.Hour); err != nil {
		t.Fatal(err)
	}
	_, err = f.send(t, "expired", f.transfer(t, f.c.USDC, to, big.NewInt(1e6)))
	f.refused(t, err, "expired")

	if err := f.d.RevokeSessionKey(t.Context(), f.dep.Account, f.key); err != nil {
		t.Fatal(err)
	}
	_, err = f.send(t, "revoked", f.transfer(t, f.c.USDC, to, big.NewInt(1e6)))
	f.refused(t, err, "not granted")
	wantBig(t, "recipient USDC", tokenBalance(t, f.d.Provider(), f.c.USDC, to), new(big.Int))
}

// A plan whose later call would revert after the earlier ones (the first
// transfer leaves too little for the second) is refused before anything
// is signed: the calls are estimated in sequence from the account.
func TestAccountPlanLaterCallRevertSendsNothing(t *testing.T) {
	f := newAccountFixture(t)
	p := f.d.Provider()
	to := common.HexToAddress("0x00000000000000000000000000000000000Aa404")
	bal := tokenBalance(t, p, f.c.USDC, f.dep.Account)
	receipts, err := f.send(t, "overdraw",
		f.transfer(t, f.c.USDC, to, new(big.Int).Sub(bal, big.NewInt(1))),
		f.transfer(t, f.c.USDC, to, big.NewInt(2)))
	var se *SendError
	if !errors.As(err, &se) || se.Index != 1 || !errors.Is(err, ErrReverted) {
		t.Fatalf("send: %v, want a SendError at tx 1 wrapping a revert", err)
	}
	if len(receipts) != 0 {
		t.Fatalf("receipts %v: want none", receipts)
	}
	wantBig(t, "userOp nonce", f.userOpNonce(t), new(big.Int))
	if n, err := p.Nonce(t.Context(), f.key); err != nil || n != 0 {
		t.Errorf("the session key sent %d transactions (%v), want none", n, err)
	}
	wantBig(t, "recipient USDC", tokenBalance(t, p, f.c.USDC, to), new(big.Int))
}

// A handleOps that is mined but whose operation's call reverted in the
// account (the owner emptied it between signing and mining) is a failed
// send, not a success, and is journaled reverted, not mined.
func TestAccountInnerRevertFailsTheSend(t *testing.T) {
	f := newAccountFixture(t)
	j := &memJournal{}
	w, err := NewWallet(f.d.walletS, f.d.Provider(), WalletConfig{Account: f.dep.Account, EntryPoint: f.dep.EntryPoint,
		Journal: &beforeJournal{Journal: j, before: func() { f.ownerDrains(t, f.c.USDC) }}})
	if err != nil {
		t.Fatal(err)
	}
	to := common.HexToAddress("0x00000000000000000000000000000000000Aa406")
	rs, err := sendAs(t, t.Context(), w, "drained", []tool.Tx{f.transfer(t, f.c.USDC, to, big.NewInt(1e6))})
	var se *SendError
	if !errors.As(err, &se) || se.Index != 0 || !errors.Is(err, ErrReverted) {
		t.Fatalf("send: %v, want a SendError at tx 0 wrapping a revert", err)
	}
	if len(rs) != 1 || rs[0].Status != types.ReceiptStatusSuccessful {
		t.Fatalf("receipts %v: want the handleOps mined with status 1", rs)
	}
	if all := j.all(); len(all) != 1 || all[0].State != TxReverted {
		t.Errorf("journal = %+v, want the handleOps reverted", all)
	}
	wantBig(t, "recipient USDC", tokenBalance(t, f.d.Provider(), f.c.USDC, to), new(big.Int))
}

func TestAccountSetupErrors(t *testing.T) {
	f := newAccountFixture(t)
	p := f.d.Provider()
	ctx := t.Context()
	if err := AccountSetup(ctx, p, f.dep.Account, f.dep.EntryPoint, f.key); err != nil {
		t.Fatalf("a good account: %v", err)
	}
	nobody := common.HexToAddress("0x00000000000000000000000000000000000Aa405")
	for _, c := range []struct {
		name                string
		account, entry, key common.Address
		want                string
	}{
		{"missing account", common.Address{}, f.dep.EntryPoint, f.key, "account_address is required"},
		{"missing entry point", f.dep.Account, common.Address{}, f.key, "entry_point is required"},
		{"account without code", nobody, f.dep.EntryPoint, f.key, "has no code"},
		{"entry point mismatch", f.dep.Account, f.c.USDC, f.key, "uses the entry point"},
		{"key not a session key", f.dep.Account, f.dep.EntryPoint, nobody, "is not a session key"},
	} {
		err := AccountSetup(ctx, p, c.account, c.entry, c.key)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
	if _, err := NewWallet(f.d.walletS, p, WalletConfig{Account: f.dep.Account}); err == nil {
		t.Error("NewWallet took an account without its entry point")
	}
}

// beforeJournal runs before on each JournalTx, after the transaction is
// signed and before it is broadcast, then passes the write to j.
type beforeJournal struct {
	Journal
	before func()
}

func (b *beforeJournal) JournalTx(ctx context.Context, t *SentTx) error {
	if b.before != nil {
		b.before()
	}
	return b.Journal.JournalTx(ctx, t)
}

// ownerDrains has the account's owner (the operator) send the account's
// whole balance of token away by calling account.execute directly.
func (f *accountFixture) ownerDrains(t *testing.T, token common.Address) {
	t.Helper()
	ctx := t.Context()
	bal := tokenBalance(t, f.d.Provider(), token, f.dep.Account)
	b, err := newBatch(ctx, f.d, f.d.operator)
	if err != nil {
		t.Fatal(err)
	}
	b.call("owner drains", f.dep.Account, nil, SessionKeyAccountABI(), "execute", token, new(big.Int),
		[]byte(pack(t, ERC20ABI(), "transfer", common.Address{0xdd}, bal)))
	if err := b.run(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestAccountReconcileReadsUserOperationEvent: ward dies after a handleOps
// is mined and before its outcome is recorded. After the restart,
// reconciliation records it mined only if its UserOperationEvent says the
// operation succeeded: a handleOps whose transfer reverted in the account
// (the owner emptied the account between signing and mining) is mined
// with receipt status 1 and is recorded reverted, with the reason.
func TestAccountReconcileReadsUserOperationEvent(t *testing.T) {
	f := newAccountFixture(t)
	p := f.d.Provider()
	to := common.HexToAddress("0x00000000000000000000000000000000000Aa405")
	for _, tc := range []struct {
		name  string
		drain bool
		want  TxState
	}{
		{"inner call succeeds", false, TxMined},
		{"inner call reverts", true, TxReverted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := &memJournal{}
			jb := &beforeJournal{Journal: killedAfter(j, 1)} // journaled, then killed before the outcome
			if tc.drain {
				jb.before = func() { f.ownerDrains(t, f.c.USDC) }
			}
			w1, err := NewWallet(f.d.walletS, p, WalletConfig{Account: f.dep.Account, EntryPoint: f.dep.EntryPoint, Journal: jb})
			if err != nil {
				t.Fatal(err)
			}
			rs, err := sendAs(t, t.Context(), w1, tc.name, []tool.Tx{f.transfer(t, f.c.USDC, to, big.NewInt(1e6))})
			if !errors.Is(err, ErrJournal) || len(rs) != 1 || rs[0].Status != types.ReceiptStatusSuccessful {
				t.Fatalf("send = %d receipts, %v; want the handleOps mined with status 1 and its outcome unrecorded", len(rs), err)
			}
			if open, _, _ := j.OpenTxs(t.Context(), DevChainID, f.key); len(open) != 1 {
				t.Fatalf("journal has %d in flight, want the handleOps", len(open))
			}

			w2, err := NewWallet(f.d.walletS, p, WalletConfig{Account: f.dep.Account, EntryPoint: f.dep.EntryPoint, Journal: j}) // the restart
			if err != nil {
				t.Fatal(err)
			}
			settled, err := w2.Reconcile(t.Context())
			if err != nil || len(settled) != 1 || settled[0].Tx.Hash != rs[0].TxHash {
				t.Fatalf("reconcile = %+v, %v; want the handleOps settled", settled, err)
			}
			if got := settled[0].Tx.State; got != tc.want {
				t.Errorf("state = %s, want %s (failure: %v)", got, tc.want, settled[0].Failure)
			}
			if tc.drain != (settled[0].Failure != nil) {
				t.Errorf("failure = %v, want one only when the inner call reverted", settled[0].Failure)
			}
			if tc.drain && !strings.Contains(fmt.Sprint(settled[0].Failure), "failed in the account") {
				t.Errorf("failure = %v, want the account's failure", settled[0].Failure)
			}
			if all := j.all(); len(all) != 1 || all[0].State != tc.want {
				t.Errorf("journal = %+v, want the handleOps %s", all, tc.want)
			}
		})
	}
}
