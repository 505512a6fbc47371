package storetest

import (
	"bytes"
	"errors"
	"sync"
	"testing"

	"github.com/wardhq/ward/internal/store"
)

// testKeyChecks: the first check stored under a name stays; a later one
// gets it back; of concurrent first checks one wins and every caller sees
// it; it survives a reopen; bad arguments are refused and store nothing.
func testKeyChecks(t *testing.T, h *harness) {
	ctx := t.Context()
	a, b := bytes.Repeat([]byte{0xa1}, 32), bytes.Repeat([]byte{0xb2}, 32)
	for _, tc := range []struct {
		name  string
		check []byte
	}{{"", a}, {string(bytes.Repeat([]byte("n"), 65)), a}, {"vault", a[:15]}, {"vault", bytes.Repeat(a, 3)}} {
		if _, err := h.s.KeyCheck(ctx, tc.name, tc.check); !errors.Is(err, store.ErrInvalidRecord) {
			t.Errorf("KeyCheck(%d-byte name, %d-byte check) = %v, want ErrInvalidRecord", len(tc.name), len(tc.check), err)
		}
	}
	got, err := h.s.KeyCheck(ctx, "vault", a)
	if err != nil || !bytes.Equal(got, a) {
		t.Fatalf("first KeyCheck = %x, %v; want the check itself", got, err)
	}
	if got, err := h.s.KeyCheck(ctx, "vault", b); err != nil || !bytes.Equal(got, a) {
		t.Errorf("a second, different KeyCheck = %x, %v; want the first", got, err)
	}
	if got, err := h.s.KeyCheck(ctx, "other", b); err != nil || !bytes.Equal(got, b) {
		t.Errorf("KeyCheck under another name = %x, %v; want its own", got, err)
	}
	h.reopen()
	if got, err := h.s.KeyCheck(ctx, "vault", b); err != nil || !bytes.Equal(got, a) {
		t.Errorf("after a reopen KeyCheck = %x, %v; want the first", got, err)
	}
	var wg sync.WaitGroup
	results := make([][]byte, 16)
	for i := range results {
		wg.Go(func() {
			c := bytes.Repeat([]byte{byte(i + 1)}, 32)
			r, err := h.s.KeyCheck(ctx, "race", c)
			if err != nil {
				t.Error(err)
			}
			results[i] = r
		})
	}
	wg.Wait()
	for i, r := range results {
		if !bytes.Equal(r, results[0]) || len(r) != 32 {
			t.Errorf("concurrent KeyCheck %d saw %x, caller 0 %x: want one winner for all", i, r, results[0])
		}
	}
}
