package storetest

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/store"
)

const (
	sentFrom  = "0x00000000000000000000000000000000000000a1"
	sentOther = "0x00000000000000000000000000000000000000b2"
)

// sentTx is an in-flight record of nonce n of sentFrom on chain 1.
func sentTx(n uint64, permit string, index, planLen int) *store.SentTx {
	return &store.SentTx{
		ChainID: 1, From: sentFrom, Nonce: n, Hash: fmt.Sprintf("0x%064x", 0x1000+n*16+uint64(index)),
		Raw: []byte{0x02, byte(n), 0x00, 0xff}, PermitID: permit, Index: index, PlanLen: planLen, Label: "swap", Created: t0,
	}
}

func (h *harness) openTxs(chainID uint64, from string) ([]store.SentTx, uint64) {
	h.t.Helper()
	open, next, err := h.s.OpenTxs(h.t.Context(), chainID, from)
	if err != nil {
		h.t.Fatalf("OpenTxs: %v", err)
	}
	return open, next
}

// testSentJournal: a journaled transaction round-trips exactly across a
// reopen, is open until settled, settles once, and the next nonce counts
// every nonce a live record holds.
func testSentJournal(t *testing.T, h *harness) {
	a, b := journalSent(t, h)
	at := t0.Add(time.Minute)
	settleSent(t, h, a, b, at)
	ctx := t.Context()
	if err := h.s.SettleTx(ctx, 1, b.Hash, store.SentDropped, 0, at); err != nil {
		t.Fatal(err)
	}
	h.reopen()
	open, next := h.openTxs(1, sentFrom)
	if len(open) != 0 || next != 5 {
		t.Errorf("after settling: %d open, next %d; want 0, 5 (the dropped nonce 5 is free)", len(open), next)
	}
	// A dropped or refused record frees its nonce; a mined one holds it.
	again := sentTx(5, "permit-c", 0, 1)
	again.Hash = fmt.Sprintf("0x%064x", 0xc5)
	if err := h.s.JournalTx(ctx, again); err != nil {
		t.Errorf("journal at a dropped nonce: %v", err)
	}
	reuse := sentTx(4, "permit-d", 0, 1)
	reuse.Hash = fmt.Sprintf("0x%064x", 0xd4)
	if err := h.s.JournalTx(ctx, reuse); err == nil {
		t.Error("a second record at a mined nonce was accepted")
	}
}

// journalSent journals two records of sentFrom out of order and one of
// another sender, and checks that they round-trip across a reopen.
func journalSent(t *testing.T, h *harness) (a, b *store.SentTx) {
	ctx := t.Context()
	if open, next := h.openTxs(1, sentFrom); len(open) != 0 || next != 0 {
		t.Fatalf("empty journal: open %v, next %d; want none, 0", open, next)
	}
	a, b = sentTx(4, "permit-a", 0, 2), sentTx(5, "permit-a", 1, 2)
	for _, tx := range []*store.SentTx{b, a} {
		if err := h.s.JournalTx(ctx, tx); err != nil {
			t.Fatalf("JournalTx(%d): %v", tx.Nonce, err)
		}
	}
	if err := h.s.JournalTx(ctx, &store.SentTx{ChainID: 1, From: sentOther, Nonce: 9, Hash: fmt.Sprintf("0x%064x", 0xbeef), Raw: []byte{1}, PermitID: "permit-b", PlanLen: 1, Created: t0}); err != nil {
		t.Fatal(err)
	}
	h.reopen()
	open, next := h.openTxs(1, sentFrom)
	if len(open) != 2 || next != 6 {
		t.Fatalf("after a reopen: %d open, next %d; want 2, 6", len(open), next)
	}
	if !reflect.DeepEqual(open[0], *a) || !reflect.DeepEqual(open[1], *b) {
		t.Errorf("open = %+v\nwant by nonce %+v, %+v", open, *a, *b)
	}
	if open, next := h.openTxs(2, sentFrom); len(open) != 0 || next != 0 {
		t.Errorf("another chain: open %v, next %d", open, next)
	}
	return a, b
}

// settleSent settles a as mined at at, and checks that settling it again
// the same is idempotent and that every other settlement is refused.
func settleSent(t *testing.T, h *harness, a, b *store.SentTx, at time.Time) {
	ctx := t.Context()
	if err := h.s.SettleTx(ctx, 1, a.Hash, store.SentMined, 77, at); err != nil {
		t.Fatalf("settle: %v", err)
	}
	if err := h.s.SettleTx(ctx, 1, a.Hash, store.SentMined, 77, at.Add(time.Second)); err != nil {
		t.Errorf("settling again the same: %v, want nil", err)
	}
	for _, tc := range []struct {
		name  string
		chain uint64
		hash  string
		state store.SentState
		block uint64
		want  error
	}{
		{"another outcome", 1, a.Hash, store.SentDropped, 0, store.ErrSentSettled},
		{"another block", 1, a.Hash, store.SentMined, 78, store.ErrSentSettled},
		{"unknown hash", 1, fmt.Sprintf("0x%064x", 1), store.SentMined, 1, store.ErrNotFound},
		{"another chain", 2, b.Hash, store.SentMined, 1, store.ErrNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := h.s.SettleTx(ctx, tc.chain, tc.hash, tc.state, tc.block, at); !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
		})
	}
	for _, tc := range []struct {
		name  string
		state store.SentState
		block uint64
	}{
		{"in flight", store.SentInFlight, 0},
		{"mined without block", store.SentMined, 0},
		{"dropped with block", store.SentDropped, 3},
		{"out of range", store.SentState(99), 0},
	} {
		t.Run("invalid "+tc.name, func(t *testing.T) {
			if err := h.s.SettleTx(ctx, 1, b.Hash, tc.state, tc.block, at); err == nil {
				t.Error("accepted")
			}
		})
	}
}

// testSentInvalid: an invalid record is refused whole.
func testSentInvalid(t *testing.T, h *harness) {
	ctx := t.Context()
	for _, tc := range []struct {
		name string
		mod  func(*store.SentTx)
	}{
		{"no chain", func(s *store.SentTx) { s.ChainID = 0 }},
		{"upper-case sender", func(s *store.SentTx) { s.From = "0x00000000000000000000000000000000000000A1" }},
		{"short hash", func(s *store.SentTx) { s.Hash = "0x1234" }},
		{"no bytes", func(s *store.SentTx) { s.Raw = nil }},
		{"no permit", func(s *store.SentTx) { s.PermitID = "" }},
		{"index past plan", func(s *store.SentTx) { s.Index = 2 }},
		{"settled", func(s *store.SentTx) { s.State = store.SentMined; s.Block = 1 }},
		{"no time", func(s *store.SentTx) { s.Created = time.Time{} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := sentTx(1, "permit-x", 0, 2)
			tc.mod(s)
			if err := h.s.JournalTx(ctx, s); err == nil {
				t.Error("accepted")
			}
		})
	}
	first := sentTx(1, "permit-x", 0, 1)
	if err := h.s.JournalTx(ctx, first); err != nil {
		t.Fatal(err)
	}
	dupHash := sentTx(2, "permit-y", 0, 1)
	dupHash.Hash = first.Hash
	if err := h.s.JournalTx(ctx, dupHash); err == nil {
		t.Error("a second record with the same hash was accepted")
	}
	if open, next := h.openTxs(1, sentFrom); len(open) != 1 || next != 2 {
		t.Errorf("open %d, next %d; want only the first record", len(open), next)
	}
}

// testSentConcurrent: of 8 goroutines journaling different transactions
// at one nonce of one wallet, exactly one is kept.
func testSentConcurrent(t *testing.T, h *harness) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := 0
	for i := range 8 {
		wg.Go(func() {
			s := sentTx(3, fmt.Sprintf("permit-%d", i), 0, 1)
			s.Hash = fmt.Sprintf("0x%064x", 0x3000+i)
			if err := h.s.JournalTx(t.Context(), s); err == nil {
				mu.Lock()
				wins++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if wins != 1 {
		t.Errorf("%d of 8 journaled nonce 3, want exactly 1", wins)
	}
}

// testPermitTxs: a permit's journaled transactions come back in every
// state, by nonce, and no other permit's.
func testPermitTxs(t *testing.T, h *harness) {
	ctx := t.Context()
	a, b, other := sentTx(7, "permit-x", 0, 2), sentTx(8, "permit-x", 1, 2), sentTx(9, "permit-y", 0, 1)
	for _, tx := range []*store.SentTx{b, other, a} {
		if err := h.s.JournalTx(ctx, tx); err != nil {
			t.Fatalf("JournalTx(%d): %v", tx.Nonce, err)
		}
	}
	at := t0.Add(time.Minute)
	if err := h.s.SettleTx(ctx, 1, a.Hash, store.SentMined, 12, at); err != nil {
		t.Fatal(err)
	}
	h.reopen()
	got, err := h.s.PermitTxs(ctx, "permit-x")
	if err != nil {
		t.Fatalf("PermitTxs: %v", err)
	}
	if len(got) != 2 || got[0].Hash != a.Hash || got[0].State != store.SentMined || got[0].Block != 12 || got[1].Hash != b.Hash || got[1].State != store.SentInFlight {
		t.Errorf("PermitTxs(permit-x) = %+v\nwant %s mined in block 12, then %s in flight", got, a.Hash, b.Hash)
	}
	if none, err := h.s.PermitTxs(ctx, "permit-z"); err != nil || len(none) != 0 {
		t.Errorf("PermitTxs(unknown) = %v, %v; want none", none, err)
	}
}
