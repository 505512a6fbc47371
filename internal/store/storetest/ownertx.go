package storetest

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/store"
)

// ownerTxOf is a pending grant prepared for the owner, with an unsigned
// transaction for an EOA owner.
func ownerTxOf(id string, created time.Time) *store.OwnerTx {
	return &store.OwnerTx{
		ID: id, ChainID: 1, Account: "0x00000000000000000000000000000000000000a0", Owner: "0x00000000000000000000000000000000000000a1",
		Kind: store.GrantSessionKey, SessionKey: "0x00000000000000000000000000000000000000a2", Data: []byte{0x12, 0x34, 0x56, 0x78, 9},
		Unsigned: []byte{0x02, 0xf8, 1, 2}, FromBlock: 42, PermitID: "permit-owner", Created: created,
	}
}

// testOwnerTxs: a transaction prepared for the owner round-trips across
// a reopen, leaves the pending list when done, is done once; invalid
// records, duplicate ids and unknown ids are refused with nothing
// written.
func testOwnerTxs(t *testing.T, h *harness) {
	if _, ok := h.s.(store.OwnerTxs); !ok {
		t.Fatalf("%T does not keep owner transactions (store.OwnerTxs)", h.s)
	}
	a := holdOwnerTxs(t, h)
	h.reopen()
	ownerTxsReopened(t, h, a)
	at := t0.Add(time.Minute)
	ownerTxsDone(t, h, at)
	ownerTxsStale(t, h, at)
}

// ownerTxDoneHash is the transaction the owner's grant is seen done in.
const ownerTxDoneHash = "0x00000000000000000000000000000000000000000000000000000000000000d1"

// holdOwnerTxs holds a grant otx-a and a revocation otx-b and returns
// otx-a; the same id again and invalid records are refused, with nothing
// written.
func holdOwnerTxs(t *testing.T, h *harness) *store.OwnerTx {
	ctx := t.Context()
	q := h.s.(store.OwnerTxs)
	a, b := ownerTxOf("otx-a", t0), ownerTxOf("otx-b", t0.Add(time.Second))
	b.Kind, b.Unsigned = store.RevokeSessionKey, nil
	for _, x := range []*store.OwnerTx{a, b} {
		if err := q.HoldOwnerTx(ctx, x); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.HoldOwnerTx(ctx, ownerTxOf("otx-a", t0)); err == nil {
		t.Error("the same id was held twice")
	}
	for name, bad := range map[string]func(*store.OwnerTx){
		"no id":            func(x *store.OwnerTx) { x.ID = "" },
		"no kind":          func(x *store.OwnerTx) { x.Kind = 0 },
		"unknown kind":     func(x *store.OwnerTx) { x.Kind = 9 },
		"upper-case owner": func(x *store.OwnerTx) { x.Owner = "0x00000000000000000000000000000000000000AA" },
		"short call data":  func(x *store.OwnerTx) { x.Data = []byte{1} },
		"no permit":        func(x *store.OwnerTx) { x.PermitID = "" },
		"already done":     func(x *store.OwnerTx) { x.Done = "0x01" },
		"already stale":    func(x *store.OwnerTx) { x.Stale = time.Unix(1, 0) },
		"no creation time": func(x *store.OwnerTx) { x.Created = time.Time{} },
		"no chain":         func(x *store.OwnerTx) { x.ChainID = 0 },
		"bad session key":  func(x *store.OwnerTx) { x.SessionKey = "0x1" },
	} {
		x := ownerTxOf("otx-bad", t0)
		bad(x)
		if err := q.HoldOwnerTx(ctx, x); err == nil {
			t.Errorf("%s: held", name)
		}
	}
	if _, err := q.OwnerTx(ctx, "otx-bad"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a refused record: %v, want ErrNotFound", err)
	}
	return a
}

// ownerTxsReopened: after a reopen both records are pending, in the
// order they were held, with every field of a kept.
func ownerTxsReopened(t *testing.T, h *harness, a *store.OwnerTx) {
	q := h.s.(store.OwnerTxs)
	p, err := q.PendingOwnerTxs(t.Context())
	if err != nil || len(p) != 2 || p[0].ID != "otx-a" || p[1].ID != "otx-b" {
		t.Fatalf("pending after reopen: %+v, %v; want otx-a then otx-b", p, err)
	}
	got := p[0]
	if got.ChainID != 1 || got.Account != a.Account || got.Owner != a.Owner || got.Kind != store.GrantSessionKey ||
		got.SessionKey != a.SessionKey || !bytes.Equal(got.Data, a.Data) || !bytes.Equal(got.Unsigned, a.Unsigned) ||
		got.FromBlock != 42 || got.PermitID != a.PermitID || !got.Created.Equal(t0) || got.Done != "" || !got.DoneAt.IsZero() {
		t.Errorf("after reopen: %+v, want %+v", got, a)
	}
	if p[1].Kind != store.RevokeSessionKey || p[1].Unsigned != nil {
		t.Errorf("revocation after reopen: kind %v, unsigned %x", p[1].Kind, p[1].Unsigned)
	}
}

// ownerTxsDone: otx-a is done once, at, and leaves the pending list; an
// unknown id and a missing transaction are refused.
func ownerTxsDone(t *testing.T, h *harness, at time.Time) {
	ctx := t.Context()
	q := h.s.(store.OwnerTxs)
	if err := q.OwnerTxDone(ctx, "otx-unknown", ownerTxDoneHash, at); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown id done: %v, want ErrNotFound", err)
	}
	if err := q.OwnerTxDone(ctx, "otx-a", "", at); err == nil {
		t.Error("done without a transaction")
	}
	if err := q.OwnerTxDone(ctx, "otx-a", ownerTxDoneHash, at); err != nil {
		t.Fatal(err)
	}
	if err := q.OwnerTxDone(ctx, "otx-a", ownerTxDoneHash, at); !errors.Is(err, store.ErrOwnerTxDone) {
		t.Errorf("done twice: %v, want ErrOwnerTxDone", err)
	}
	if p, err := q.PendingOwnerTxs(ctx); err != nil || len(p) != 1 || p[0].ID != "otx-b" {
		t.Errorf("pending after done: %+v, %v; want otx-b", p, err)
	}
	if got, err := q.OwnerTx(ctx, "otx-a"); err != nil || got.Done != ownerTxDoneHash || !got.DoneAt.Equal(at) {
		t.Errorf("done record %q at %v, %v", got.Done, got.DoneAt, err)
	}
}

// ownerTxsStale: the first stale time is kept across a reopen, a done
// record is not stale, and a stale record still lists and may still be
// seen done.
func ownerTxsStale(t *testing.T, h *harness, at time.Time) {
	ctx := t.Context()
	q := h.s.(store.OwnerTxs)
	if err := q.OwnerTxStale(ctx, "otx-unknown", at); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown id stale: %v, want ErrNotFound", err)
	}
	if err := q.OwnerTxStale(ctx, "otx-a", at); !errors.Is(err, store.ErrOwnerTxDone) {
		t.Errorf("a done record stale: %v, want ErrOwnerTxDone", err)
	}
	if err := q.OwnerTxStale(ctx, "otx-b", time.Time{}); err == nil {
		t.Error("stale without a time")
	}
	if err := q.OwnerTxStale(ctx, "otx-b", at); err != nil {
		t.Fatal(err)
	}
	if err := q.OwnerTxStale(ctx, "otx-b", at.Add(time.Hour)); err != nil {
		t.Errorf("stale twice: %v, want nil", err)
	}
	h.reopen()
	q = h.s.(store.OwnerTxs)
	if p, err := q.PendingOwnerTxs(ctx); err != nil || len(p) != 1 || p[0].ID != "otx-b" || !p[0].Stale.Equal(at) || p[0].Done != "" {
		t.Errorf("pending after stale: %+v, %v; want otx-b stale at %v", p, err, at)
	}
	if got, err := q.OwnerTx(ctx, "otx-a"); err != nil || !got.Stale.IsZero() {
		t.Errorf("the done record: stale %v, %v; want never", got.Stale, err)
	}
	if err := q.OwnerTxDone(ctx, "otx-b", ownerTxDoneHash, at.Add(2*time.Hour)); err != nil {
		t.Errorf("a stale record seen done: %v", err)
	}
	if p, err := q.PendingOwnerTxs(ctx); err != nil || len(p) != 0 {
		t.Errorf("pending after the stale record was done: %+v, %v; want none", p, err)
	}
}
