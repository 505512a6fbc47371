package daemon

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"math/big"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/wardhq/ward/internal/capability/mint"
	"github.com/wardhq/ward/internal/catalog"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
)

// diesAfter is a journal that makes its first writes and then fails every
// write without making it, as a journal does for a process killed there.
type diesAfter struct {
	chain.Journal
	writes int
}

func (d *diesAfter) JournalTx(ctx context.Context, t *chain.SentTx) error {
	if d.writes--; d.writes < 0 {
		return errors.New("killed")
	}
	return d.Journal.JournalTx(ctx, t)
}

func (d *diesAfter) SettleTx(ctx context.Context, chainID uint64, hash common.Hash, state chain.TxState, block uint64) error {
	if d.writes--; d.writes < 0 {
		return errors.New("killed")
	}
	return d.Journal.SettleTx(ctx, chainID, hash, state, block)
}

func sendOnce(t *testing.T, w *chain.Wallet, permit string, txs []tool.Tx) ([]*types.Receipt, error) {
	t.Helper()
	args := [32]byte{}
	copy(args[:], permit)
	c := mint.Capability(mint.Fields{PermitID: permit, Tool: "eth_transfer", ArgsHash: args, ExpiresAt: time.Now().Add(time.Minute), ExpiryTick: 10})
	return w.Send(t.Context(), c, chain.Scope{Tool: "eth_transfer", ArgsHash: args, Tick: 1, Now: time.Now()}, txs)
}

// TestReconcileSendsAtStart: a wallet journaling into the store sends a
// transaction that is mined, and the process dies before its outcome is
// recorded. After a restart on the same database, reconcileSends finds
// it mined, settles it in the journal and records a tx_settled action
// naming the transaction; nothing is sent again.
func TestReconcileSendsAtStart(t *testing.T) {
	ctx := t.Context()
	d, err := chain.StartDev(ctx, chain.DevConfig{Seed: "daemon send journal", AutoCommit: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	key, err := chain.NewLocalSigner(strings.Repeat("4b", 32))
	if err != nil {
		t.Fatal(err)
	}
	defer key.Close()
	if _, err := sendOnce(t, d.Wallet(), "fund", []tool.Tx{{To: tool.Address(key.Address()), Value: big.NewInt(1e18)}}); err != nil {
		t.Fatalf("fund: %v", err)
	}

	path := filepath.Join(t.TempDir(), "ward.db")
	st, err := OpenStore(ctx, path, "")
	if err != nil {
		t.Fatal(err)
	}
	w1, err := chain.NewWallet(key, d.Provider(), chain.WalletConfig{Journal: &diesAfter{Journal: sendJournal{s: st, now: time.Now}, writes: 1}})
	if err != nil {
		t.Fatal(err)
	}
	to := common.Address{0xee}
	rs, err := sendOnce(t, w1, "permit-1", []tool.Tx{{To: tool.Address(to), Value: big.NewInt(1000), Label: "pay"}})
	if !errors.Is(err, chain.ErrJournal) || len(rs) != 1 {
		t.Fatalf("send = %d receipts, %v; want the receipt and the unrecorded outcome as an error", len(rs), err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	st2 := restartAndReconcile(t, path, key, d.Provider(), chain.WalletConfig{})

	from := strings.ToLower(key.Address().Hex())
	if open, next, err := st2.OpenTxs(ctx, chain.DevChainID, from); err != nil || len(open) != 0 || next != 1 {
		t.Errorf("journal after reconciliation: %d open, next %d, %v; want 0, 1", len(open), next, err)
	}
	acts, err := st2.Actions(ctx, store.ActionFilter{Kind: store.ActionTxSettled})
	if err != nil || len(acts) != 1 {
		t.Fatalf("tx_settled records = %+v, %v; want one", acts, err)
	}
	a := acts[0]
	if a.TxHash != rs[0].TxHash.Hex() || a.PermitID != "permit-1" || a.ChainID != chain.DevChainID || a.Status != store.StatusExecuted || a.GasUsed == 0 {
		t.Errorf("record = %+v, want %s executed", a, rs[0].TxHash.Hex())
	}
	if n, err := d.Provider().Nonce(ctx, key.Address()); err != nil || n != 1 {
		t.Errorf("nonce = %d, %v; want 1: nothing sent again", n, err)
	}
}

// restartAndReconcile is ward's start after a crash: it opens the store at
// path again, makes key's wallet over p with cfg (its send journal and
// settlement in that store) and reconciles the journal as ward serve
// does before serving. The store is closed when the test ends.
func restartAndReconcile(t *testing.T, path string, key *chain.LocalSigner, p *chain.Provider, cfg chain.WalletConfig) Backend {
	t.Helper()
	ctx := t.Context()
	st, err := OpenStore(ctx, path, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s := &Stack{Store: st}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg.Journal = sendJournal{s: st, now: time.Now}
	cfg.Settled = func(ctx context.Context, set chain.Settled) { s.recordSettled(ctx, log, set) }
	w, err := chain.NewWallet(key, p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.reconcileSends(ctx, log, []*catalog.Env{{Wallet: w}})
	return st
}

// oneSent is a send journal store whose open transactions are rec.
type oneSent struct {
	store.SentTxs
	rec store.SentTx
}

func (o oneSent) OpenTxs(context.Context, uint64, string) ([]store.SentTx, uint64, error) {
	return []store.SentTx{o.rec}, 0, nil
}

// TestOpenTxsMalformed: a journal record whose sender is not 0x and 40 hex
// digits (as ward writes it), or whose hash is not 32 bytes of hex, is an
// error, not a transaction of some other address.
func TestOpenTxsMalformed(t *testing.T) {
	const from = "0x52908400098527886e0f7030069857d2e4169ee7"
	hash := "0x" + strings.Repeat("ab", 32)
	for _, tc := range []struct {
		name, from, hash string
		ok               bool
	}{
		{"as written", from, hash, true},
		{"no 0x", from[2:], hash, false},
		{"short", from[:40], hash, false},
		{"not hex", from[:41] + "g", hash, false},
		{"short hash", from, hash[:64], false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := sendJournal{s: oneSent{rec: store.SentTx{ChainID: 1, From: tc.from, Hash: tc.hash, State: store.SentInFlight}}, now: time.Now}
			txs, _, err := j.OpenTxs(t.Context(), 1, common.HexToAddress(from))
			if (err == nil) != tc.ok {
				t.Fatalf("OpenTxs = %v, %v; want ok %v", txs, err, tc.ok)
			}
			if tc.ok && (len(txs) != 1 || txs[0].From != common.HexToAddress(from)) {
				t.Errorf("OpenTxs = %+v", txs)
			}
		})
	}
}
