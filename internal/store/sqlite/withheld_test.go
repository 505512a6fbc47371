package sqlite_test

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/store/sqlite"
)

var withheldTime = time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)

func newWithheld(size int) *store.WithheldOutput {
	ct := make([]byte, size+16)
	rand.Read(ct)
	return &store.WithheldOutput{
		Key:        id.New(withheldTime),
		SessionID:  "child-1",
		Tool:       "web_fetch",
		Time:       withheldTime,
		Size:       int64(size),
		Nonce:      bytes.Repeat([]byte{7}, 12),
		Ciphertext: ct,
		Wraps:      map[string][]byte{"reviewer-a": bytes.Repeat([]byte{1}, 60), "judge": bytes.Repeat([]byte{2}, 60)},
	}
}

// What the columns hold, and the CHECKs, trigger and foreign key that
// refuse changing a decided output behind the store's back.
func TestWithheldStorage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ward.db")
	s := openStore(t, sqlite.Config{Path: path})
	ctx := t.Context()
	pending, promoted := newWithheld(10), newWithheld(10)
	for _, w := range []*store.WithheldOutput{pending, promoted} {
		if err := s.PutWithheld(ctx, w); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PromoteWithheld(ctx, promoted.Key, "judge", withheldTime, []byte("released")); err != nil {
		t.Fatal(err)
	}
	c := rawConn(t, path)
	mustExec(t, c, `PRAGMA foreign_keys = ON`)
	got := queryRows(t, c, `SELECT key, typeof(parent_id), status, typeof(decided_by), typeof(decided_ns), typeof(plain), typeof(nonce), typeof(ciphertext)
FROM withheld_outputs ORDER BY status DESC`)
	want := [][]string{
		{pending.Key, "null", "withheld", "null", "null", "null", "blob", "blob"},
		{promoted.Key, "null", "promoted", "text", "integer", "blob", "blob", "blob"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("stored\n %v\nwant\n %v", got, want)
	}
	if n := queryRows(t, c, `SELECT COUNT(*) FROM withheld_wraps`)[0][0]; n != "4" {
		t.Errorf("%s wraps stored, want 4", n)
	}
	for _, sql := range []string{
		`UPDATE withheld_outputs SET status = 'withheld', decided_ns = NULL, decided_by = NULL, plain = NULL WHERE key = '` + promoted.Key + `'`,
		`UPDATE withheld_outputs SET plain = x'00' WHERE key = '` + promoted.Key + `'`,
		`UPDATE withheld_outputs SET status = 'promoted', decided_ns = 1 WHERE key = '` + pending.Key + `'`,
		`UPDATE withheld_outputs SET status = 'rejected', decided_ns = 1, plain = x'00' WHERE key = '` + pending.Key + `'`,
		`UPDATE withheld_outputs SET decided_ns = 1 WHERE key = '` + pending.Key + `'`,
		`UPDATE withheld_outputs SET status = 'released', decided_ns = 1 WHERE key = '` + pending.Key + `'`,
		`INSERT INTO withheld_wraps (key, reviewer, wrap) VALUES ('no-such-output', 'r', x'00')`,
	} {
		if err := c.Exec(sql); err == nil {
			t.Errorf("%s: no constraint failed", sql)
		}
	}
}

// Two stores on one file, as two processes would be, race to decide one
// output: exactly one decision wins.
func TestWithheldDecideAcrossStores(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ward.db")
	stores := []*sqlite.Store{openStore(t, sqlite.Config{Path: path}), openStore(t, sqlite.Config{Path: path})}
	ctx := t.Context()
	for range 20 {
		w := newWithheld(10)
		if err := stores[0].PutWithheld(ctx, w); err != nil {
			t.Fatal(err)
		}
		var (
			wg   sync.WaitGroup
			mu   sync.Mutex
			won  []string
			lost int
		)
		for i := range 8 {
			wg.Go(func() {
				s, by := stores[i%2], fmt.Sprintf("judge-%d", i)
				var err error
				if i%4 == 3 {
					err = s.RejectWithheld(ctx, w.Key, by, withheldTime)
				} else {
					err = s.PromoteWithheld(ctx, w.Key, by, withheldTime, []byte(by))
				}
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					won = append(won, by)
				case errors.Is(err, store.ErrWithheldDecided):
					lost++
				default:
					t.Errorf("%s: %v", by, err)
				}
			})
		}
		wg.Wait()
		if len(won) != 1 || lost != 7 {
			t.Fatalf("%d decisions won (%v), %d lost; want 1 and 7", len(won), won, lost)
		}
		got, err := stores[1].Withheld(ctx, w.Key)
		if err != nil {
			t.Fatal(err)
		}
		if got.PromotedBy+got.RejectedBy != won[0] || (got.Status == store.WithheldPromoted) != (string(got.Plain) == won[0]) {
			t.Fatalf("stored %s by %q/%q with plain %q, want decided by %s", got.Status, got.PromotedBy, got.RejectedBy, got.Plain, won[0])
		}
	}
}

// A refused withheld write answers its own caller: the batch it shared
// with other writes commits them.
func TestWithheldRefusalSparesBatch(t *testing.T) {
	s := openStore(t, sqlite.Config{})
	ctx := t.Context()
	taken := newWithheld(10)
	if err := s.PutWithheld(ctx, taken); err != nil {
		t.Fatal(err)
	}
	if err := s.PromoteWithheld(ctx, taken.Key, "judge", withheldTime, nil); err != nil {
		t.Fatal(err)
	}
	const n = 64
	var wg sync.WaitGroup
	fresh := make([]*store.WithheldOutput, n)
	for i := range n {
		fresh[i] = newWithheld(i)
		wg.Go(func() {
			if err := s.PutWithheld(ctx, fresh[i]); err != nil {
				t.Errorf("PutWithheld(new): %v", err)
			}
		})
		wg.Go(func() {
			dup := newWithheld(1)
			dup.Key = taken.Key
			if err := s.PutWithheld(ctx, dup); !errors.Is(err, store.ErrWithheldExists) {
				t.Errorf("PutWithheld(existing key) = %v, want %v", err, store.ErrWithheldExists)
			}
		})
		wg.Go(func() {
			if err := s.PromoteWithheld(ctx, taken.Key, "judge-2", withheldTime, nil); !errors.Is(err, store.ErrWithheldPromoted) {
				t.Errorf("PromoteWithheld(promoted) = %v, want %v", err, store.ErrWithheldPromoted)
			}
		})
		wg.Go(func() {
			if err := s.AddWithheldWrap(ctx, taken.Key, "judge", []byte{9}); !errors.Is(err, store.ErrWithheldWrapped) {
				t.Errorf("AddWithheldWrap(existing reviewer) = %v, want %v", err, store.ErrWithheldWrapped)
			}
		})
	}
	wg.Wait()
	got, err := s.WithheldBySession(ctx, "child-1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != n+1 {
		t.Errorf("%d outputs stored, want %d", len(got), n+1)
	}
	if s.DroppedRecords() != 0 {
		t.Errorf("%d records dropped", s.DroppedRecords())
	}
}

// The largest output and plaintext round-trip through a close and reopen.
func TestWithheldLargest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ward.db")
	s := openStore(t, sqlite.Config{Path: path})
	ctx := t.Context()
	w := newWithheld(store.MaxWithheldSize)
	if err := s.PutWithheld(ctx, w); err != nil {
		t.Fatal(err)
	}
	plain := []byte(strings.Repeat("withheld\x00", store.MaxWithheldSize/9))
	if err := s.PromoteWithheld(ctx, w.Key, "judge", withheldTime, plain); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openStore(t, sqlite.Config{Path: path})
	got, err := s.Withheld(ctx, w.Key)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Ciphertext, w.Ciphertext) || !bytes.Equal(got.Plain, plain) {
		t.Errorf("after reopen: ciphertext of %d bytes (equal: %v), plain of %d bytes (equal: %v)",
			len(got.Ciphertext), bytes.Equal(got.Ciphertext, w.Ciphertext), len(got.Plain), bytes.Equal(got.Plain, plain))
	}
}
