package storetest

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
)

// trust returns a trust record of kind at t.
func trust(t time.Time, kind store.TrustKind, n int) *store.TrustRecord {
	return &store.TrustRecord{
		ID:        id.New(t),
		Time:      t,
		Kind:      kind,
		SessionID: "sess-a",
		Actor:     fmt.Sprintf("reviewer-%d", n),
		Target:    fmt.Sprintf("memory/%d", n),
		Detail:    []byte(fmt.Sprintf(`{"n":%d,"label":"untrusted"}`, n)),
	}
}

func (h *harness) appendTrust(recs ...*store.TrustRecord) {
	h.t.Helper()
	for _, r := range recs {
		if err := h.s.AppendTrust(h.t.Context(), r); err != nil {
			h.t.Fatalf("AppendTrust(%s): %v", r.ID, err)
		}
	}
}

func (h *harness) trustRecords(from int64, limit int) []store.TrustRecord {
	h.t.Helper()
	got, err := h.s.TrustRecords(h.t.Context(), from, limit)
	if err != nil {
		h.t.Fatalf("TrustRecords(%d, %d): %v", from, limit, err)
	}
	return got
}

func (h *harness) verifyTrust(wantRows int64) {
	h.t.Helper()
	got, err := h.s.VerifyTrust(h.t.Context())
	if err != nil {
		h.t.Fatalf("VerifyTrust: %v", err)
	}
	if want := (store.TrustVerify{Rows: wantRows, OK: true}); got != want {
		h.t.Fatalf("VerifyTrust = %+v, want %+v", got, want)
	}
}

// checkTrust compares a stored record with the appended one: every field
// exactly, Time to the nanosecond (the hash covers it), Detail byte for
// byte (nil and empty alike).
func checkTrust(t *testing.T, got, want store.TrustRecord) {
	t.Helper()
	if !got.Time.Equal(want.Time) || got.Time.Location() != time.UTC {
		t.Errorf("seq %d: Time = %v, want %v in UTC", want.Seq, got.Time, want.Time)
	}
	if !bytes.Equal(got.Detail, want.Detail) {
		t.Errorf("seq %d: Detail = %q, want %q", want.Seq, got.Detail, want.Detail)
	}
	got.Time, want.Time, got.Detail, want.Detail = time.Time{}, time.Time{}, nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("seq %d: got %+v, want %+v", want.Seq, got, want)
	}
}

// checkChain checks that recs are rows 1..n, each linked to the one before
// and hashed with store.TrustHash.
func checkChain(t *testing.T, recs []store.TrustRecord) {
	t.Helper()
	var prev [32]byte
	for i := range recs {
		r := &recs[i]
		if r.Seq != int64(i+1) {
			t.Fatalf("row %d has seq %d", i+1, r.Seq)
		}
		if r.Prev != prev {
			t.Errorf("seq %d: Prev = %x, want %x", r.Seq, r.Prev, prev)
		}
		if h := store.TrustHash(r); r.Hash != h {
			t.Errorf("seq %d: Hash = %x, want TrustHash %x", r.Seq, r.Hash, h)
		}
		prev = r.Hash
	}
}

func testTrustRoundTrip(t *testing.T, h *harness) {
	h.verifyTrust(0)
	base := time.Date(2026, 11, 22, 10, 0, 0, 123456789, time.UTC)
	kinds := []store.TrustKind{store.TrustTaintAssigned, store.TrustAccessDenied, store.TrustReviewVerdict, store.TrustPromotion, store.TrustDecryptionGrant}
	var want []store.TrustRecord
	for i, k := range kinds {
		r := trust(base.Add(time.Duration(i)*time.Second), k, i)
		if i == 2 {
			r.SessionID, r.Actor, r.Target, r.Detail = "", "", "", nil
		}
		h.appendTrust(r)
		if r.Seq != int64(i+1) || r.Hash == ([32]byte{}) {
			t.Fatalf("append %d: Seq %d, Hash %x: not filled in", i, r.Seq, r.Hash)
		}
		want = append(want, *r)
	}
	checkChain(t, want)
	got := h.trustRecords(1, 0)
	if len(got) != len(want) {
		t.Fatalf("TrustRecords(1, 0) returned %d rows, want %d", len(got), len(want))
	}
	for i := range got {
		checkTrust(t, got[i], want[i])
	}
	if got := h.trustRecords(2, 2); len(got) != 2 || got[0].Seq != 2 || got[1].Seq != 3 {
		t.Errorf("TrustRecords(2, 2) = %d rows from %v, want seqs 2, 3", len(got), got)
	}
	if got := h.trustRecords(6, 0); len(got) != 0 {
		t.Errorf("TrustRecords(6, 0) = %d rows, want 0", len(got))
	}
	h.verifyTrust(5)
	h.reopen()
	h.verifyTrust(5)
}

func testTrustInvalid(t *testing.T, h *harness) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	h.appendTrust(trust(now, store.TrustPromotion, 0))
	tests := []struct {
		name string
		edit func(r *store.TrustRecord)
	}{
		{"empty id", func(r *store.TrustRecord) { r.ID = "" }},
		{"zero time", func(r *store.TrustRecord) { r.Time = time.Time{} }},
		{"empty kind", func(r *store.TrustRecord) { r.Kind = "" }},
		{"unknown kind", func(r *store.TrustRecord) { r.Kind = "nice_things_said" }},
		{"long kind", func(r *store.TrustRecord) { r.Kind = store.TrustKind(strings.Repeat("k", store.MaxTrustKind+1)) }},
		{"detail not JSON", func(r *store.TrustRecord) { r.Detail = []byte(`{"open":`) }},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := trust(now.Add(time.Duration(i+1)*time.Millisecond), store.TrustAccessDenied, i)
			tt.edit(r)
			if err := h.s.AppendTrust(t.Context(), r); err == nil {
				t.Errorf("AppendTrust accepted an invalid record: %+v", r)
			}
		})
	}
	t.Run("every kind of the set", func(t *testing.T) {
		for i, k := range []store.TrustKind{store.TrustOutputWithheld, store.TrustOutputRead} {
			h.appendTrust(trust(now.Add(time.Second+time.Duration(i)), k, 1))
		}
	})
	t.Run("duplicate id", func(t *testing.T) {
		r := trust(now.Add(2*time.Second), store.TrustReviewVerdict, 2)
		h.appendTrust(r)
		dup := *r
		dup.Kind = store.TrustPromotion
		if err := h.s.AppendTrust(t.Context(), &dup); err == nil {
			t.Errorf("AppendTrust accepted a duplicate id %s", r.ID)
		}
	})
	// Nothing refused was written, and the chain has no gap.
	h.appendTrust(trust(now.Add(3*time.Second), store.TrustPromotion, 3))
	got := h.trustRecords(1, 0)
	if len(got) != 5 {
		t.Fatalf("log has %d rows, want 5", len(got))
	}
	checkChain(t, got)
	h.verifyTrust(5)
}

func testTrustConcurrent(t *testing.T, h *harness) {
	const n = 200
	base := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	recs := make([]*store.TrustRecord, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		recs[i] = trust(base.Add(time.Duration(i)*time.Microsecond), store.TrustTaintAssigned, i)
		wg.Go(func() { errs[i] = h.s.AppendTrust(t.Context(), recs[i]) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatalf("AppendTrust: %v", err)
	}
	got := h.trustRecords(1, 0)
	if len(got) != n {
		t.Fatalf("log has %d rows, want %d", len(got), n)
	}
	checkChain(t, got)
	seen := make(map[int64]bool, n)
	for _, r := range recs {
		if seen[r.Seq] || r.Seq < 1 || r.Seq > n {
			t.Fatalf("record %s got seq %d (duplicate or out of 1..%d)", r.ID, r.Seq, n)
		}
		seen[r.Seq] = true
		checkTrust(t, got[r.Seq-1], *r)
	}
	h.verifyTrust(n)
}

func testTrustReopen(t *testing.T, h *harness) {
	base := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	for i := range 5 {
		h.appendTrust(trust(base.Add(time.Duration(i)*time.Second), store.TrustAccessDenied, i))
	}
	h.reopen()
	for i := 5; i < 10; i++ {
		h.appendTrust(trust(base.Add(time.Duration(i)*time.Second), store.TrustPromotion, i))
	}
	got := h.trustRecords(1, 0)
	if len(got) != 10 {
		t.Fatalf("log has %d rows, want 10", len(got))
	}
	checkChain(t, got)
	h.verifyTrust(10)
	if err := h.s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	r := trust(base.Add(time.Minute), store.TrustPromotion, 11)
	if err := h.s.AppendTrust(t.Context(), r); !errors.Is(err, store.ErrClosed) {
		t.Errorf("AppendTrust after Close = %v, want ErrClosed", err)
	}
	if _, err := h.s.TrustRecords(t.Context(), 1, 0); !errors.Is(err, store.ErrClosed) {
		t.Errorf("TrustRecords after Close = %v, want ErrClosed", err)
	}
	if _, err := h.s.VerifyTrust(t.Context()); !errors.Is(err, store.ErrClosed) {
		t.Errorf("VerifyTrust after Close = %v, want ErrClosed", err)
	}
	h.s = h.mustOpen()
	h.verifyTrust(10)
}
