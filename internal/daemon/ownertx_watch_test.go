package daemon

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/policy/rules"
	"github.com/wardhq/ward/internal/store"
)

// TestOwnerTxWatch: two grants held for the dev account's owner at the
// same owner nonce; the owner sends the first. With no listing call, the
// daemon's periodic check marks the first done (by the owner's
// transaction) and the second stale (its nonce was passed, its change
// never made), and a listing then shows the stale one as such.
func TestOwnerTxWatch(t *testing.T) {
	ctx := t.Context()
	snap, err := rules.Compile(rules.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	st, err := Open(ctx, Config{DB: DefaultDB(t.TempDir()), Policy: snap, DevSeed: "ward-owner-tx-watch", AnnounceDelay: -1, DevAccount: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, q, o := st.Wallet.Provider(), st.Store.(store.OwnerTxs), ownerCalls{s: st, now: time.Now}
	sentID, sentCall := holdGrant(t, st, "0x00000000000000000000000000000000000a11ce")
	staleID, staleCall := holdGrant(t, st, "0x0000000000000000000000000000000000000b0b")
	if sentCall.Tx == nil || staleCall.Tx == nil || sentCall.Tx.Nonce() != staleCall.Tx.Nonce() {
		t.Fatalf("want two unsigned owner's transactions at one nonce: %v %v", sentCall.Tx, staleCall.Tx)
	}

	// The baseline, before the owner sends anything: a check leaves
	// both pending.
	for _, id := range []string{sentID, staleID} {
		rec, err := q.OwnerTx(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if v, err := o.observe(ctx, q, rec); err != nil || v.Status != "awaiting_owner" {
			t.Fatalf("%s before the owner sent anything: %+v %v", id, v, err)
		}
	}

	var wg sync.WaitGroup
	watching, stop := context.WithCancel(ctx)
	defer func() { stop(); wg.Wait() }()
	wg.Go(func() {
		watchOwnerTxs(watching, st, 5*time.Millisecond, slog.New(slog.NewTextHandler(io.Discard, nil)))
	})

	signed, err := st.Dev.SignAsOwner(ctx, sentCall.Tx)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.SendTransaction(ctx, signed); err != nil {
		t.Fatal(err)
	}
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(30 * time.Second)
	for {
		done, errA := q.OwnerTx(ctx, sentID)
		stale, errB := q.OwnerTx(ctx, staleID)
		if errA != nil || errB != nil {
			t.Fatal(errA, errB)
		}
		if done.Done != "" && !stale.Stale.IsZero() {
			if done.Done != signed.Hash().Hex() || !done.Stale.IsZero() || stale.Done != "" {
				t.Fatalf("done %q (want the owner's %s), stale %v; the other: done %q", done.Done, signed.Hash().Hex(), done.Stale, stale.Done)
			}
			break
		}
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("not marked within 30s of the owner's transaction: done %q stale %v; the other: done %q stale %v", done.Done, done.Stale, stale.Done, stale.Stale)
		}
	}
	stop()
	wg.Wait()
	ps, err := st.OwnerTxsPending(ctx)
	if err != nil || len(ps) != 1 || ps[0].ID != staleID || ps[0].Status != "stale" {
		t.Fatalf("listed after the check: %+v %v; want %s only, stale", ps, err, staleID)
	}
	if v, err := st.OwnerTx(ctx, sentID); err != nil || v.Status != "done" {
		t.Fatalf("%s: %+v %v, want done", sentID, v, err)
	}
	// Each mark has its audit record, written before it: the done one
	// executed in the owner's transaction, the stale one failed.
	acts, err := st.Store.Actions(ctx, store.ActionFilter{Kind: store.ActionOwnerTxObserved})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]store.ActionRecord{}
	for _, a := range acts {
		var d struct {
			OwnerTx string `json:"owner_tx"`
			Status  string `json:"status"`
		}
		if err := json.Unmarshal(a.Detail, &d); err != nil {
			t.Fatalf("record %s detail %s: %v", a.ID, a.Detail, err)
		}
		got[d.OwnerTx+" "+d.Status] = a
	}
	if a, ok := got[sentID+" done"]; !ok || a.Status != store.StatusExecuted || !strings.EqualFold(a.TxHash, signed.Hash().Hex()) || a.Tool != "wallet_grant_session_key" {
		t.Errorf("the done observation's record = %+v (found %v); records %d", a, ok, len(acts))
	}
	if a, ok := got[staleID+" stale"]; !ok || a.Status != store.StatusFailed || a.TxHash != "" {
		t.Errorf("the stale observation's record = %+v (found %v)", a, ok)
	}
}

// holdGrant prepares and holds, as a committed wallet_grant_session_key
// does, the grant to key of USDC transfers for a day on st's account.
func holdGrant(t *testing.T, st *Stack, key string) (string, *chain.OwnerCall) {
	t.Helper()
	ctx := t.Context()
	head, err := st.Wallet.Provider().HeaderLatest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	o := ownerCalls{s: st, now: time.Now}
	transferSel, _ := chain.ERC20ABI().Selector("transfer")
	call, err := o.PrepareSessionKey(ctx, chain.SessionKeyChange{Key: common.HexToAddress(key), Scope: chain.SessionScope{
		ValidUntil: time.Unix(int64(head.Time)+86400, 0), ValueCap: new(big.Int),
		Targets: []common.Address{st.Dev.Contracts().USDC}, Selectors: [][4]byte{transferSel},
	}})
	if err != nil {
		t.Fatal(err)
	}
	id, err := o.HoldOwnerCall(ctx, "permit-"+key[len(key)-4:], call)
	if err != nil {
		t.Fatal(err)
	}
	return id, call
}

// TestOwnerTxWatchInServe: ward serve with the dev chain's ERC-4337
// account runs the periodic check itself: a grant the owner sends is
// marked done with no listing call.
func TestOwnerTxWatchInServe(t *testing.T) {
	f, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	f.Chain.Wallet = config.WalletERC4337
	srv, err := Start(context.Background(), ServeConfig{Addr: "127.0.0.1:0", Data: t.TempDir(), File: f, OwnerTxSweep: 5 * time.Millisecond})
	if err != nil {
		t.Fatalf("serve did not start: %v", err)
	}
	defer func() {
		if err := srv.Stop(); err != nil {
			t.Errorf("serve returned %v", err)
		}
	}()
	st := srv.Stack
	if st.Wallet == nil || st.Wallet.Account() == (common.Address{}) {
		t.Fatal("serve's dev wallet sends from no ERC-4337 account")
	}
	ctx, q := t.Context(), st.Store.(store.OwnerTxs)
	id, call := holdGrant(t, st, "0x00000000000000000000000000000000000ca201")
	// The baseline: held, not done, before the owner sends anything.
	if rec, err := q.OwnerTx(ctx, id); err != nil || rec.Done != "" || !rec.Stale.IsZero() {
		t.Fatalf("held grant before the owner sent it: %+v %v", rec, err)
	}
	signed, err := st.Dev.SignAsOwner(ctx, call.Tx)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Wallet.Provider().SendTransaction(ctx, signed); err != nil {
		t.Fatal(err)
	}
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(30 * time.Second)
	for {
		rec, err := q.OwnerTx(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Done != "" {
			if rec.Done != signed.Hash().Hex() {
				t.Fatalf("done by %s, want the owner's %s", rec.Done, signed.Hash().Hex())
			}
			return
		}
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatal("serve did not mark the owner's grant done within 30s")
		}
	}
}
