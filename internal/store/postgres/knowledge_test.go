package postgres_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/store"
)

func quarantined(at time.Time, agent, content string) *store.QuarantinedEntry {
	return &store.QuarantinedEntry{
		Entry: knowledge.Entry{
			ID:         id.New(at),
			Content:    content,
			Type:       knowledge.TypeInsight,
			Confidence: 0.5,
			Source: knowledge.Source{
				Provenance: knowledge.Purchased,
				Agent:      agent,
				Signature:  make([]byte, knowledge.SignatureSize),
				Timestamp:  time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC),
			},
		},
		QuarantinedAt: at,
	}
}

// TestQuarantineCapAcrossInstances puts MaxQuarantinePending+extra entries
// of one agent through three instances at once: exactly extra are
// evicted, each once, and the agent keeps exactly the cap; the same
// content put through every instance at once is stored once.
func TestQuarantineCapAcrossInstances(t *testing.T) {
	_, ss := instances(t, 3)
	ctx := t.Context()
	const (
		agent   = "0xCAFE000000000000000000000000000000000001"
		extra   = 45
		total   = store.MaxQuarantinePending + extra
		workers = 12
	)
	now := time.Now()
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		put     = map[string]bool{}
		evicted = map[string]int{}
	)
	next := atomic.Int32{}
	for w := range workers {
		s := ss[w%len(ss)]
		wg.Go(func() {
			for {
				n := int(next.Add(1)) - 1
				if n >= total {
					return
				}
				q := quarantined(now.Add(time.Duration(n)), agent, fmt.Sprintf("entry %d", n))
				ev, err := s.PutQuarantined(ctx, q)
				if err != nil {
					t.Errorf("put %d: %v", n, err)
					return
				}
				mu.Lock()
				put[q.Entry.ID] = true
				for _, e := range ev {
					evicted[e]++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	if len(evicted) != extra {
		t.Errorf("%d distinct entries evicted, want %d", len(evicted), extra)
	}
	for e, n := range evicted {
		if n != 1 || !put[e] {
			t.Errorf("entry %s evicted %d times (put: %v), want once", e, n, put[e])
		}
	}
	for i, s := range ss {
		pending, err := s.ListQuarantined(ctx, store.QuarantineFilter{Agent: agent, Status: store.QuarantinePending})
		if err != nil {
			t.Fatal(err)
		}
		if len(pending) != store.MaxQuarantinePending {
			t.Errorf("instance %d sees %d pending entries, want the cap %d", i, len(pending), store.MaxQuarantinePending)
		}
		for _, q := range pending {
			if evicted[q.Entry.ID] > 0 {
				t.Errorf("instance %d still lists evicted %s", i, q.Entry.ID)
			}
		}
	}

	// The replay guard: one content, new ids, every instance at once.
	var stored, refused atomic.Int32
	for w := range workers {
		s := ss[w%len(ss)]
		wg.Go(func() {
			q := quarantined(time.Now(), strings.ToLower(agent), "the same poisoned content")
			switch _, err := s.PutQuarantined(ctx, q); {
			case err == nil:
				stored.Add(1)
			case errors.Is(err, store.ErrQuarantineExists):
				refused.Add(1)
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if stored.Load() != 1 || refused.Load() != workers-1 {
		t.Errorf("one content put %d times at once: %d stored, %d refused; want 1 and %d", workers, stored.Load(), refused.Load(), workers-1)
	}
	pending, err := ss[0].ListQuarantined(ctx, store.QuarantineFilter{Agent: agent, Status: store.QuarantinePending})
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) != store.MaxQuarantinePending {
		t.Errorf("%d pending entries after the replay, want the cap %d", len(pending), store.MaxQuarantinePending)
	}
}

// TestQuarantineDecideAcrossInstances decides one entry through three
// instances at once, passed and failed: exactly one decision lands.
func TestQuarantineDecideAcrossInstances(t *testing.T) {
	_, ss := instances(t, 3)
	ctx := t.Context()
	q := quarantined(time.Now(), "0x00000000000000000000000000000000000000aa", "decide me once")
	if _, err := ss[0].PutQuarantined(ctx, q); err != nil {
		t.Fatal(err)
	}
	var (
		wg      sync.WaitGroup
		won     atomic.Int32
		decided atomic.Int32
	)
	for g := range 24 {
		s := ss[g%len(ss)]
		wg.Go(func() {
			status, attack := store.QuarantinePassed, knowledge.NoAttack
			if g%2 == 1 {
				status, attack = store.QuarantineFailed, knowledge.ContentInjection
			}
			switch err := s.SetQuarantineStatus(ctx, q.Entry.ID, status, fmt.Sprint("decider ", g), attack, time.Now()); {
			case err == nil:
				won.Add(1)
			case errors.Is(err, store.ErrQuarantineDecided):
				decided.Add(1)
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if won.Load() != 1 || decided.Load() != 23 {
		t.Errorf("24 deciders: %d won, %d refused as decided; want 1 and 23", won.Load(), decided.Load())
	}
}

// TestCladeVotesAcrossInstances has every member vote on one entry twice,
// through two different instances, while all of them also try to demote
// the sharer: each member is counted once, with its later vote, and the
// sharer is demoted once.
func TestCladeVotesAcrossInstances(t *testing.T) {
	_, ss := instances(t, 3)
	ctx := t.Context()
	const members = 30
	at := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	var (
		wg      sync.WaitGroup
		demoted atomic.Int32
	)
	for m := range members {
		wg.Go(func() {
			member := fmt.Sprintf("0xm%02d", m)
			d := &store.CladeDemotion{EntryID: "shared", Member: "0xsharer", By: 0.2, At: at}
			for i, rejected := range []bool{true, false} {
				s := ss[(m+i)%len(ss)]
				ok, err := s.VoteClade(ctx, store.CladeVote{EntryID: "shared", Member: member, Rejected: rejected, At: at.Add(time.Duration(i) * time.Second)}, d)
				if err != nil {
					t.Error(err)
					return
				}
				if ok {
					demoted.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if n := demoted.Load(); n != 1 {
		t.Errorf("sharer demoted %d times, want once", n)
	}
	for i, s := range ss {
		votes, err := s.CladeVotes(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(votes) != members {
			t.Errorf("instance %d: %d votes of %d members, want one each", i, len(votes), members)
		}
		for j, v := range votes {
			if want := fmt.Sprintf("0xm%02d", j); v.Member != want || v.Rejected || !v.At.Equal(at.Add(time.Second)) {
				t.Errorf("instance %d: vote %d = %+v, want %s's later vote (not rejected)", i, j, v, want)
			}
		}
		dems, err := s.CladeDemotions(ctx)
		if err != nil || len(dems) != 1 {
			t.Errorf("instance %d: demotions %v, %v; want one", i, dems, err)
		}
	}
}

// TestPinsAcrossInstances pins one tool with different hashes through two
// instances at once (exactly one pin is created and everyone is told the
// same one), then repins it from that hash through both at once (exactly
// one repin), then approves one pending definition through both at once
// (exactly one approval).
func TestPinsAcrossInstances(t *testing.T) {
	_, ss := instances(t, 2)
	ctx := t.Context()
	at := time.Date(2026, 11, 3, 0, 0, 0, 0, time.UTC)
	hash := func(n int) string { return fmt.Sprintf("%064x", n+1) }
	const callers = 20
	var (
		wg      sync.WaitGroup
		created atomic.Int32
		mu      sync.Mutex
		seen    = map[string]bool{}
	)
	for g := range callers {
		wg.Go(func() {
			got, ok, err := ss[g%2].PinTool(ctx, store.PinnedTool{Server: "notes", Tool: "get_note", Hash: hash(g), Approved: at})
			if err != nil {
				t.Error(err)
				return
			}
			if ok {
				created.Add(1)
			}
			mu.Lock()
			seen[got.Hash] = true
			mu.Unlock()
		})
	}
	wg.Wait()
	if created.Load() != 1 || len(seen) != 1 {
		t.Fatalf("%d pins created, %d distinct hashes returned; want 1 and 1", created.Load(), len(seen))
	}
	pinned, err := ss[1].PinnedTool(ctx, "notes", "get_note")
	if err != nil || !seen[pinned.Hash] {
		t.Fatalf("PinnedTool = %+v, %v; want the created pin", pinned, err)
	}

	var repinned atomic.Int32
	for g := range callers {
		wg.Go(func() {
			ok, err := ss[g%2].RepinTool(ctx, store.PinnedTool{Server: "notes", Tool: "get_note", Hash: hash(100 + g), Approved: at, By: "owner"}, pinned.Hash)
			if err != nil {
				t.Error(err)
			}
			if ok {
				repinned.Add(1)
			}
		})
	}
	wg.Wait()
	if repinned.Load() != 1 {
		t.Errorf("%d repins from one hash took effect, want 1", repinned.Load())
	}

	p := store.PendingTool{Server: "notes", Tool: "set_note", Hash: hash(7), ApprovedHash: hash(6), Seen: at, Def: []byte(`{"name": "set_note"}`)}
	if err := ss[0].SetPendingTools(ctx, "notes", []store.PendingTool{p}); err != nil {
		t.Fatal(err)
	}
	var approved, missing atomic.Int32
	for g := range callers {
		wg.Go(func() {
			switch got, err := ss[g%2].ApproveTool(ctx, "notes", "set_note", fmt.Sprint("owner", g), at); {
			case err == nil:
				approved.Add(1)
				if string(got.Def) != `{"name":"set_note"}` {
					t.Errorf("approved definition %s, want it compacted", got.Def)
				}
			case errors.Is(err, store.ErrNotFound):
				missing.Add(1)
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if approved.Load() != 1 || missing.Load() != callers-1 {
		t.Errorf("%d approvals of one pending definition, %d found none; want 1 and %d", approved.Load(), missing.Load(), callers-1)
	}
	pins, err := ss[0].PinnedTools(ctx, "notes")
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.IndexFunc(pins, func(p store.PinnedTool) bool { return p.Tool == "set_note" }); i < 0 || pins[i].Hash != hash(7) {
		t.Errorf("pins after approval = %+v, want set_note at the pending hash", pins)
	}
}
