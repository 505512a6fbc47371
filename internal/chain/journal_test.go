package chain

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/wardhq/ward/internal/tool"
)

// memJournal is a Journal in memory that keeps the store's rule: two
// live records of one wallet never share a nonce.
type memJournal struct {
	mu  sync.Mutex
	txs []SentTx
}

func (j *memJournal) JournalTx(_ context.Context, t *SentTx) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, o := range j.txs {
		live := o.State == TxInFlight || o.State == TxMined || o.State == TxReverted
		if o.Hash == t.Hash || live && o.ChainID == t.ChainID && o.From == t.From && o.Nonce == t.Nonce {
			return fmt.Errorf("journal: nonce %d or hash %s taken", t.Nonce, t.Hash)
		}
	}
	c := *t
	c.Raw = slices.Clone(t.Raw)
	j.txs = append(j.txs, c)
	return nil
}

func (j *memJournal) SettleTx(_ context.Context, chainID uint64, hash common.Hash, state TxState, block uint64) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	for i, o := range j.txs {
		if o.Hash == hash && o.ChainID == chainID {
			if o.State.Final() {
				return errors.New("journal: settled")
			}
			j.txs[i].State, j.txs[i].Block = state, block
			return nil
		}
	}
	return errors.New("journal: not found")
}

func (j *memJournal) OpenTxs(_ context.Context, chainID uint64, from common.Address) ([]SentTx, uint64, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	var open []SentTx
	var next uint64
	for _, o := range j.txs {
		if o.ChainID != chainID || o.From != from {
			continue
		}
		if o.State == TxInFlight {
			open = append(open, o)
		}
		if o.State == TxInFlight || o.State == TxMined || o.State == TxReverted {
			next = max(next, o.Nonce+1)
		}
	}
	slices.SortFunc(open, func(a, b SentTx) int { return int(a.Nonce) - int(b.Nonce) })
	return open, next, nil
}

func (j *memJournal) all() []SentTx {
	j.mu.Lock()
	defer j.mu.Unlock()
	return slices.Clone(j.txs)
}

// killedJournal passes the first writes to j and then fails every write
// without making it: what a journal looks like to a process killed at
// that point (nothing after it reaches the disk).
type killedJournal struct {
	j      *memJournal
	writes atomic.Int32 // writes left before the kill
}

var errKilled = errors.New("the process was killed")

func (k *killedJournal) JournalTx(ctx context.Context, t *SentTx) error {
	if k.writes.Add(-1) < 0 {
		return errKilled
	}
	return k.j.JournalTx(ctx, t)
}

func (k *killedJournal) SettleTx(ctx context.Context, chainID uint64, hash common.Hash, state TxState, block uint64) error {
	if k.writes.Add(-1) < 0 {
		return errKilled
	}
	return k.j.SettleTx(ctx, chainID, hash, state, block)
}

func (k *killedJournal) OpenTxs(ctx context.Context, chainID uint64, from common.Address) ([]SentTx, uint64, error) {
	return k.j.OpenTxs(ctx, chainID, from)
}

func killedAfter(j *memJournal, writes int32) *killedJournal {
	k := &killedJournal{j: j}
	k.writes.Store(writes)
	return k
}

// Modes of a sendProxy for eth_sendRawTransaction.
const (
	proxyForward          = iota // pass it on
	proxySwallow                 // answer its hash and drop it: a node that lost it, or holds it in a mempool that never mines
	proxyForwardThenDie          // pass it on, then answer 502: an endpoint that accepted it and died
	proxyForwardThenStall        // pass it on, then answer nothing, ever: an endpoint that took it and stalled
)

// sendProxy serves the dev chain's JSON-RPC over HTTP and records the raw
// transactions sent through it.
type sendProxy struct {
	*httptest.Server
	mode atomic.Int32
	// hideReceipts: eth_getTransactionReceipt answers null, as a node
	// whose receipts lag its blocks does.
	hideReceipts atomic.Bool
	sent         chan []byte   // each raw transaction it saw (buffered)
	polled       chan struct{} // a receipt was asked for (at most one pending)
}

func newSendProxy(t *testing.T, d *DevChain, mode int32) *sendProxy {
	t.Helper()
	h, err := d.sim.stack.RPCHandler()
	if err != nil {
		t.Fatal(err)
	}
	sp := &sendProxy{sent: make(chan []byte, 16), polled: make(chan struct{}, 1)}
	sp.mode.Store(mode)
	sp.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			ID     json.RawMessage   `json:"id"`
			Method string            `json:"method"`
			Params []json.RawMessage `json:"params"`
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		err := json.Unmarshal(body, &req)
		if err == nil && req.Method == "eth_getTransactionReceipt" {
			select {
			case sp.polled <- struct{}{}:
			default:
			}
			if sp.hideReceipts.Load() {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":null}`, req.ID)
				return
			}
		}
		if err != nil || req.Method != "eth_sendRawTransaction" || len(req.Params) != 1 {
			h.ServeHTTP(w, r)
			return
		}
		var raw hexutil.Bytes
		if err := json.Unmarshal(req.Params[0], &raw); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		sp.sent <- raw
		switch sp.mode.Load() {
		case proxySwallow:
			tx := new(types.Transaction)
			if err := tx.UnmarshalBinary(raw); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":"%s"}`, req.ID, tx.Hash().Hex())
		case proxyForwardThenDie:
			h.ServeHTTP(httptest.NewRecorder(), r)
			http.Error(w, "bad gateway", http.StatusBadGateway)
		case proxyForwardThenStall:
			h.ServeHTTP(httptest.NewRecorder(), r)
			<-r.Context().Done()
		default:
			h.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(sp.Close)
	return sp
}

// dialDev dials the dev chain through urls (proxies in front of it).
func dialDev(t *testing.T, urls ...string) *Provider {
	t.Helper()
	p, err := DialEndpoints(t.Context(), urls, ProviderConfig{ChainID: DevChainID, Attempts: 1, PollMin: 200_000, PollMax: 5_000_000})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

func journalWallet(t *testing.T, d *DevChain, p *Provider, j Journal) *Wallet {
	t.Helper()
	w, err := NewWallet(d.walletS, p, WalletConfig{Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// transfer is a one-transaction plan: 1 USDC to to.
func transfer(t *testing.T, c *DevContracts, to common.Address) []tool.Tx {
	return []tool.Tx{{To: tool.Address(c.USDC), Data: pack(t, ERC20ABI(), "transfer", to, units(1, 6)), Label: "transfer"}}
}

// sendAs sends txs with a fresh capability for the permit named permit.
func sendAs(t *testing.T, ctx context.Context, w *Wallet, permit string, txs []tool.Tx) ([]*types.Receipt, error) {
	args := [32]byte{}
	copy(args[:], permit)
	return w.Send(ctx, capFor(permit, args), scopeFor(permit, args), txs)
}

// TestSendCrashAfterBroadcast: ward signs and broadcasts, the endpoint
// takes the transaction but it never reaches the chain, and ward dies
// before the receipt. After the restart a new Wallet over the same
// journal refuses a new plan while that transaction is unresolved,
// rebroadcasts the same signed bytes, records it mined under its first
// hash, and only then sends the next plan at the next nonce: one effect
// per authorisation, one transaction per nonce.
func TestSendCrashAfterBroadcast(t *testing.T) {
	d, c := startDev(t)
	me, to := d.WalletAddress(), common.HexToAddress("0x000000000000000000000000000000000000d00d")
	j := &memJournal{}
	proxy := newSendProxy(t, d, proxySwallow)
	w1 := journalWallet(t, d, dialDev(t, proxy.URL), j)

	ctx, kill := context.WithCancel(t.Context())
	var broadcast []byte
	done := make(chan struct{})
	go func() {
		defer close(done)
		broadcast = <-proxy.sent
		<-proxy.polled
		kill() // ward dies waiting for the receipt
	}()
	_, err := sendAs(t, ctx, w1, "first", transfer(t, c, to))
	<-done
	var se *SendError
	if !errors.As(err, &se) || se.Hash == (common.Hash{}) {
		t.Fatalf("send = %v, want a SendError naming the broadcast transaction", err)
	}
	first := se.Hash
	open, _, _ := j.OpenTxs(t.Context(), DevChainID, me)
	if len(open) != 1 || open[0].Hash != first || !bytes.Equal(open[0].Raw, broadcast) || open[0].PermitID != "permit-first" {
		t.Fatalf("journal = %+v, want the broadcast transaction in flight, its bytes as sent", open)
	}
	if n := nonceOf(t, d.Provider(), me); n != 0 {
		t.Fatalf("chain nonce = %d, want 0: the transaction should not have reached the chain", n)
	}

	w2 := journalWallet(t, d, d.Provider(), j) // the restarted ward
	_, err = sendAs(t, t.Context(), w2, "retry", transfer(t, c, to))
	var ife *InFlightError
	if !errors.Is(err, ErrInFlight) || !errors.As(err, &ife) || ife.Hash != first {
		t.Fatalf("a new plan while the first is in flight: %v, want InFlightError for %s", err, first.Hex())
	}
	if _, err := d.Provider().WaitReceipt(t.Context(), first); err != nil {
		t.Fatalf("the rebroadcast transaction was not mined under its hash: %v", err)
	}
	settled, err := w2.Reconcile(t.Context())
	if err != nil || len(settled) != 1 || settled[0].Tx.Hash != first || settled[0].Tx.State != TxMined || settled[0].Receipt == nil {
		t.Fatalf("reconcile = %+v, %v; want %s mined", settled, err, first.Hex())
	}
	rs, err := sendAs(t, t.Context(), w2, "second", transfer(t, c, to))
	if err != nil {
		t.Fatalf("send after reconciliation: %v", err)
	}
	tx, _, err := d.Provider().eps[0].ec.TransactionByHash(t.Context(), rs[0].TxHash)
	if err != nil || tx.Nonce() != 1 {
		t.Errorf("second plan's nonce = %v (%v), want 1", tx.Nonce(), err)
	}
	if n := nonceOf(t, d.Provider(), me); n != 2 {
		t.Errorf("chain nonce = %d, want 2: one transaction per plan", n)
	}
	wantBig(t, "recipient USDC", tokenBalance(t, d.Provider(), c.USDC, to), units(2, 6))
	if open, next, _ := j.OpenTxs(t.Context(), DevChainID, me); len(open) != 0 || next != 2 {
		t.Errorf("journal: %d open, next %d; want 0, 2", len(open), next)
	}
}

// TestSendKilledAfterReceipt: the transaction is mined but ward dies
// before its outcome is recorded. The Send does not report success; after
// the restart reconciliation finds the receipt and sends nothing again.
func TestSendKilledAfterReceipt(t *testing.T) {
	d, c := startDev(t)
	me, to := d.WalletAddress(), common.HexToAddress("0x000000000000000000000000000000000000d00e")
	j := &memJournal{}
	w1 := journalWallet(t, d, d.Provider(), killedAfter(j, 1))
	rs, err := sendAs(t, t.Context(), w1, "first", transfer(t, c, to))
	if !errors.Is(err, ErrJournal) || len(rs) != 1 {
		t.Fatalf("send whose outcome was not recorded = %d receipts, %v; want the receipt and an ErrJournal error", len(rs), err)
	}
	var told []Settled
	w2, err := NewWallet(d.walletS, d.Provider(), WalletConfig{Journal: j, Settled: func(_ context.Context, s Settled) { told = append(told, s) }})
	if err != nil {
		t.Fatal(err)
	}
	settled, err := w2.Reconcile(t.Context())
	if len(told) != 1 || told[0].Tx.Hash != rs[0].TxHash || told[0].Tx.State != TxMined {
		t.Errorf("Settled hook told %+v, want the mined transaction", told)
	}
	if err != nil || len(settled) != 1 || settled[0].Tx.Hash != rs[0].TxHash || settled[0].Tx.State != TxMined ||
		settled[0].Rebroadcast || settled[0].Tx.Block != rs[0].BlockNumber.Uint64() {
		t.Fatalf("reconcile = %+v, %v; want %s mined in block %d", settled, err, rs[0].TxHash.Hex(), rs[0].BlockNumber)
	}
	if n := nonceOf(t, d.Provider(), me); n != 1 {
		t.Errorf("chain nonce = %d, want 1", n)
	}
	if again, err := w2.Reconcile(t.Context()); err != nil || len(again) != 0 {
		t.Errorf("second reconcile = %+v, %v; want nothing left", again, err)
	}
}

// TestSendKilledBetweenPlanTxs: an approve is mined, ward dies before the
// swap is journaled. The swap is never sent, after the restart either;
// reconciliation reports the plan incomplete.
func TestSendKilledBetweenPlanTxs(t *testing.T) {
	d, c := startDev(t)
	me, to := d.WalletAddress(), common.HexToAddress("0x000000000000000000000000000000000000d00f")
	plan := []tool.Tx{
		{To: tool.Address(c.USDC), Data: pack(t, ERC20ABI(), "approve", c.UniswapV2Router, units(1, 6)), Label: "approve"},
		transfer(t, c, to)[0],
	}
	j := &memJournal{}
	w1 := journalWallet(t, d, d.Provider(), killedAfter(j, 1))
	rs, err := sendAs(t, t.Context(), w1, "plan", plan)
	var se *SendError
	if !errors.Is(err, ErrJournal) || !errors.As(err, &se) || se.Index != 1 || se.Hash != (common.Hash{}) || len(rs) != 1 {
		t.Fatalf("send = %d receipts, %v; want the approve's receipt and tx 1 stopped before broadcast", len(rs), err)
	}
	w2 := journalWallet(t, d, d.Provider(), j)
	settled, err := w2.Reconcile(t.Context())
	if err != nil || len(settled) != 1 || settled[0].Tx.Index != 0 || settled[0].Tx.State != TxMined || !settled[0].Incomplete {
		t.Fatalf("reconcile = %+v, %v; want the approve mined and the plan incomplete", settled, err)
	}
	if n := nonceOf(t, d.Provider(), me); n != 1 {
		t.Errorf("chain nonce = %d, want 1: the swap must never be sent", n)
	}
	wantBig(t, "recipient USDC", tokenBalance(t, d.Provider(), c.USDC, to), new(big.Int))
}

// TestSendJournalFailureSendsNothing: a journal that cannot be written
// stops the Send before the broadcast.
func TestSendJournalFailureSendsNothing(t *testing.T) {
	d, c := startDev(t)
	proxy := newSendProxy(t, d, proxyForward)
	w := journalWallet(t, d, dialDev(t, proxy.URL), killedAfter(&memJournal{}, 0))
	rs, err := sendAs(t, t.Context(), w, "first", transfer(t, c, common.Address{0xd0}))
	var se *SendError
	if !errors.Is(err, ErrJournal) || !errors.As(err, &se) || se.Hash != (common.Hash{}) || len(rs) != 0 {
		t.Fatalf("send = %d receipts, %v; want ErrJournal before any broadcast", len(rs), err)
	}
	if len(proxy.sent) != 0 {
		t.Error("a transaction was broadcast without its journal record")
	}
	if n := nonceOf(t, d.Provider(), d.WalletAddress()); n != 0 {
		t.Errorf("chain nonce = %d, want 0", n)
	}
}

// TestSendFailoverSameBytes: the first endpoint takes the transaction and
// dies before answering; the second gets the same signed bytes, and one
// transaction is mined.
func TestSendFailoverSameBytes(t *testing.T) {
	d, c := startDev(t)
	a, b := newSendProxy(t, d, proxyForwardThenDie), newSendProxy(t, d, proxyForward)
	j := &memJournal{}
	w := journalWallet(t, d, dialDev(t, a.URL, b.URL), j)
	rs, err := sendAs(t, t.Context(), w, "first", transfer(t, c, common.Address{0xd1}))
	if err != nil {
		t.Fatalf("send across a failover: %v", err)
	}
	if len(a.sent) != 1 || len(b.sent) != 1 {
		t.Fatalf("endpoints saw %d and %d sends, want 1 each", len(a.sent), len(b.sent))
	}
	rawA, rawB := <-a.sent, <-b.sent
	recs := j.all()
	if !bytes.Equal(rawA, rawB) || len(recs) != 1 || !bytes.Equal(recs[0].Raw, rawA) || recs[0].Hash != rs[0].TxHash || recs[0].State != TxMined {
		t.Errorf("failover sent other bytes or the journal disagrees: journal %+v", recs)
	}
	if n := nonceOf(t, d.Provider(), d.WalletAddress()); n != 1 {
		t.Errorf("chain nonce = %d, want 1", n)
	}
}

// TestReconcileDroppedAndRefused: a journaled transaction whose nonce
// another transaction took is recorded dropped; one the node refuses on
// rebroadcast is recorded refused. Neither blocks the next plan, and
// neither is ever re-signed.
func TestReconcileDroppedAndRefused(t *testing.T) {
	d, c := startDev(t)
	me := d.WalletAddress()
	chainID := big.NewInt(DevChainID)
	signAt := func(nonce, gas uint64) *types.Transaction {
		to := common.Address{0xd2}
		tx, err := d.walletS.SignTx(t.Context(), chainID, types.NewTx(&types.DynamicFeeTx{ChainID: chainID, Nonce: nonce, Gas: gas,
			GasFeeCap: big.NewInt(1e12), GasTipCap: big.NewInt(1e9), To: &to, Value: big.NewInt(1)}))
		if err != nil {
			t.Fatal(err)
		}
		return tx
	}
	journal := func(j *memJournal, tx *types.Transaction) {
		raw, _ := tx.MarshalBinary()
		if err := j.JournalTx(t.Context(), &SentTx{ChainID: DevChainID, From: me, Nonce: tx.Nonce(), Hash: tx.Hash(), Raw: raw, PermitID: "p", PlanLen: 1}); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("dropped", func(t *testing.T) {
		j := &memJournal{}
		journal(j, signAt(0, 21000))
		// Another transaction takes nonce 0 (the key used elsewhere).
		if _, err := sendAs(t, t.Context(), d.Wallet(), "elsewhere", transfer(t, c, common.Address{0xd3})); err != nil {
			t.Fatal(err)
		}
		settled, err := journalWallet(t, d, d.Provider(), j).Reconcile(t.Context())
		if err != nil || len(settled) != 1 || settled[0].Tx.State != TxDropped || settled[0].Rebroadcast {
			t.Fatalf("reconcile = %+v, %v; want dropped", settled, err)
		}
	})
	t.Run("refused", func(t *testing.T) {
		j := &memJournal{}
		journal(j, signAt(nonceOf(t, d.Provider(), me), 1000)) // below intrinsic gas: no node takes it
		w := journalWallet(t, d, d.Provider(), j)
		settled, err := w.Reconcile(t.Context())
		if err != nil || len(settled) != 1 || settled[0].Tx.State != TxRefused {
			t.Fatalf("reconcile = %+v, %v; want refused", settled, err)
		}
		if _, err := sendAs(t, t.Context(), w, "next", transfer(t, c, common.Address{0xd4})); err != nil {
			t.Errorf("send after a refused transaction: %v", err)
		}
	})
}

// TestReconcileMinedWithoutReceipt: a journaled transaction that is
// mined, on an endpoint that does not serve its receipt yet, is not taken
// for dropped (its nonce is used, but by itself): it stays in flight,
// the wallet refuses a new plan, and it is recorded mined once its
// receipt is served. Before the fix it was recorded dropped, an outcome
// record saying an executed transfer failed.
func TestReconcileMinedWithoutReceipt(t *testing.T) {
	d, c := startDev(t)
	sp := newSendProxy(t, d, proxyForward)
	p := dialDev(t, sp.URL)
	j := &memJournal{}
	w := journalWallet(t, d, p, j)
	ctx, cancel := context.WithCancel(t.Context())
	sp.hideReceipts.Store(true)
	done := make(chan struct{})
	go func() {
		defer close(done)
		sendAs(t, ctx, w, "first", transfer(t, c, common.Address{0xd5}))
	}()
	raw := <-sp.sent
	tx := new(types.Transaction)
	if err := tx.UnmarshalBinary(raw); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Provider().WaitReceipt(t.Context(), tx.Hash()); err != nil {
		t.Fatal(err)
	}
	cancel() // the process dies waiting for the receipt
	<-done

	w = journalWallet(t, d, p, j)
	settled, err := w.Reconcile(t.Context())
	if err != nil || len(settled) != 1 || settled[0].Tx.State != TxInFlight || settled[0].Rebroadcast {
		t.Fatalf("reconcile without the receipt = %+v, %v; want in flight, not rebroadcast", settled, err)
	}
	if _, err := sendAs(t, t.Context(), w, "second", transfer(t, c, common.Address{0xd5})); !errors.Is(err, ErrInFlight) {
		t.Fatalf("a new plan while the receipt is not served: %v, want ErrInFlight", err)
	}
	sp.hideReceipts.Store(false)
	settled, err = w.Reconcile(t.Context())
	if err != nil || len(settled) != 1 || settled[0].Tx.State != TxMined || settled[0].Tx.Hash != tx.Hash() {
		t.Fatalf("reconcile with the receipt = %+v, %v; want %s mined", settled, err, tx.Hash().Hex())
	}
	if recs := j.all(); len(recs) != 1 || recs[0].State != TxMined {
		t.Errorf("journal = %+v, want the one transaction mined", recs)
	}
}

// TestSendJournalHammer: concurrent sends on one journaled wallet each
// get their own nonce and record, and every record ends mined.
func TestSendJournalHammer(t *testing.T) {
	d, c := startDev(t)
	j := &memJournal{}
	w := journalWallet(t, d, d.Provider(), j)
	const n = 8
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			_, err := sendAs(t, t.Context(), w, fmt.Sprintf("hammer-%d", i), transfer(t, c, common.Address{0xd5}))
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	recs := j.all()
	nonces := map[uint64]bool{}
	for _, r := range recs {
		if r.State != TxMined {
			t.Errorf("record %d: %s, want mined", r.Nonce, r.State)
		}
		nonces[r.Nonce] = true
	}
	if len(recs) != n || len(nonces) != n {
		t.Errorf("%d records over %d nonces, want %d of each", len(recs), len(nonces), n)
	}
	if got := nonceOf(t, d.Provider(), d.WalletAddress()); got != n {
		t.Errorf("chain nonce = %d, want %d", got, n)
	}
}

// TestSendStalledEndpoint: the only endpoint takes a transaction and
// stalls before it answers. The Send gives up after one request timeout
// with the transaction in flight (it may be on chain: it is), the chain's
// circuit opens, and a new plan is refused at once, before anything is
// signed, because the journal's transaction cannot be settled. Once the
// endpoint answers again the journal finds the transaction mined and the
// next plan takes the next nonce: one transaction per plan.
func TestSendStalledEndpoint(t *testing.T) {
	d, c := startDev(t)
	me, to := d.WalletAddress(), common.Address{0xd5}
	j := &memJournal{}
	proxy := newSendProxy(t, d, proxyForwardThenStall)
	p, err := DialEndpoints(t.Context(), []string{proxy.URL}, ProviderConfig{ChainID: DevChainID, RequestTimeout: 200 * time.Millisecond, PollMin: 200_000, PollMax: 5_000_000})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	w := journalWallet(t, d, p, j)

	start := time.Now()
	_, err = sendAs(t, t.Context(), w, "first", transfer(t, c, to))
	var se *SendError
	if !errors.As(err, &se) || se.Hash == (common.Hash{}) || !errors.Is(err, ErrChainDown) {
		t.Fatalf("send through a stall = %v, want a SendError naming the transaction, the chain down", err)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("send through a stall took %s, want about one request timeout", took)
	}
	if open, _, _ := j.OpenTxs(t.Context(), DevChainID, me); len(open) != 1 || open[0].Hash != se.Hash {
		t.Fatalf("journal = %+v, want the transaction in flight", open)
	}

	start = time.Now()
	if _, err := sendAs(t, t.Context(), w, "second", transfer(t, c, to)); !errors.Is(err, ErrChainDown) || time.Since(start) > 100*time.Millisecond {
		t.Errorf("a new plan while the chain is down: %v in %s, want ErrChainDown at once", err, time.Since(start))
	}
	if len(proxy.sent) != 1 || len(j.all()) != 1 {
		t.Errorf("%d broadcasts, %d journaled; want 1 and 1: nothing signed while the chain is down", len(proxy.sent), len(j.all()))
	}

	proxy.mode.Store(proxyForward)
	expireRests(p)
	rs, err := sendAs(t, t.Context(), w, "third", transfer(t, c, to))
	if err != nil {
		t.Fatalf("send after the endpoint came back: %v", err)
	}
	recs := j.all()
	if len(recs) != 2 || recs[0].Hash != se.Hash || recs[0].State != TxMined || recs[1].Hash != rs[0].TxHash || recs[1].Nonce != 1 {
		t.Errorf("journal = %+v, want the first mined under its hash and the next at nonce 1", recs)
	}
	if n := nonceOf(t, d.Provider(), me); n != 2 {
		t.Errorf("chain nonce = %d, want 2: one transaction per plan", n)
	}
	wantBig(t, "recipient USDC", tokenBalance(t, d.Provider(), c.USDC, to), units(2, 6))
}
