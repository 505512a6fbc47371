package daemon

import (
	"context"
	"math/big"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
)

// beforeNth runs f before the nth JournalTx (from 1): after that
// transaction is signed, before it is broadcast.
type beforeNth struct {
	chain.Journal
	n, seen int
	f       func() error
}

func (b *beforeNth) JournalTx(ctx context.Context, t *chain.SentTx) error {
	if b.seen++; b.seen == b.n {
		if err := b.f(); err != nil {
			return err
		}
	}
	return b.Journal.JournalTx(ctx, t)
}

// TestReconcileSendsReadsUserOperationEvent: an ERC-4337 wallet journaling
// into the store sends an approve and a swap as two handleOps; the chain's
// clock jumps past the swap's deadline after it is signed, so its handleOps
// is mined with status 1 but the swap reverts in the account
// (UserOperationEvent success = false), and the process dies before either
// outcome is recorded. After a restart on the same database,
// reconcileSends records the approve executed and the swap failed.
func TestReconcileSendsReadsUserOperationEvent(t *testing.T) {
	ctx := t.Context()
	d, err := chain.StartDev(ctx, chain.DevConfig{Seed: "daemon send journal 4337", AutoCommit: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	dc, err := d.Deploy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	key, err := chain.NewLocalSigner(strings.Repeat("4c", 32))
	if err != nil {
		t.Fatal(err)
	}
	defer key.Close()
	dep, err := d.DeployAccount(ctx, common.Address{}, new(big.Int).Mul(big.NewInt(10), big.NewInt(1e18)))
	if err != nil {
		t.Fatal(err)
	}
	scope, err := d.DevSessionScope()
	if err != nil {
		t.Fatal(err)
	}
	if err := d.GrantSessionKey(ctx, dep.Account, key.Address(), scope); err != nil {
		t.Fatal(err)
	}
	amount := big.NewInt(100e6)
	if err := d.Fund(ctx, dep.Account, dc.USDC, amount); err != nil {
		t.Fatal(err)
	}
	if err := d.Fund(ctx, key.Address(), common.Address{}, big.NewInt(1e18)); err != nil {
		t.Fatal(err)
	}

	path := filepath.Join(t.TempDir(), "ward.db")
	st, err := OpenStore(ctx, path, "")
	if err != nil {
		t.Fatal(err)
	}
	jumpAfterSwapSigned := &beforeNth{n: 2, f: func() error { return d.AdjustTime(time.Hour) },
		Journal: &diesAfter{Journal: sendJournal{s: st, now: time.Now}, writes: 2}} // both journaled, no outcome recorded
	w1, err := chain.NewWallet(key, d.Provider(), chain.WalletConfig{Account: dep.Account, EntryPoint: dep.EntryPoint, Journal: jumpAfterSwapSigned})
	if err != nil {
		t.Fatal(err)
	}
	deadline := big.NewInt(time.Now().Add(10 * time.Minute).Unix())
	approve, err := chain.ERC20ABI().Pack("approve", dc.UniswapV2Router, amount)
	if err != nil {
		t.Fatal(err)
	}
	swap, err := chain.UniswapV2Router02ABI().Pack("swapExactTokensForTokens", amount, big.NewInt(1), []common.Address{dc.USDC, dc.WETH}, dep.Account, deadline)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := sendOnce(t, w1, "permit-4337", []tool.Tx{{To: tool.Address(dc.USDC), Data: approve, Label: "approve"}, {To: tool.Address(dc.UniswapV2Router), Data: swap, Label: "swap"}})
	if err == nil || len(rs) != 2 || rs[1].Status != 1 {
		t.Fatalf("send = %d receipts, %v; want both handleOps mined with status 1 and the send failed", len(rs), err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	st2 := restartAndReconcile(t, path, key, d.Provider(), chain.WalletConfig{Account: dep.Account, EntryPoint: dep.EntryPoint})

	if open, _, err := st2.OpenTxs(ctx, chain.DevChainID, strings.ToLower(key.Address().Hex())); err != nil || len(open) != 0 {
		t.Errorf("journal after reconciliation: %d open, %v; want none", len(open), err)
	}
	acts, err := st2.Actions(ctx, store.ActionFilter{Kind: store.ActionTxSettled})
	if err != nil || len(acts) != 2 {
		t.Fatalf("tx_settled records = %+v, %v; want two", acts, err)
	}
	want := map[string]store.ActionStatus{rs[0].TxHash.Hex(): store.StatusExecuted, rs[1].TxHash.Hex(): store.StatusFailed}
	for _, a := range acts {
		if w, ok := want[a.TxHash]; !ok || a.Status != w {
			t.Errorf("record %s: status %v, want %v", a.TxHash, a.Status, w)
		}
		if a.TxHash == rs[1].TxHash.Hex() && !strings.Contains(string(a.Detail), "failed in the account") {
			t.Errorf("the swap's record detail %s does not say it failed in the account", a.Detail)
		}
	}
}
