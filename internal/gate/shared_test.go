package gate

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/trust"
)

// sharedStore is a backend that says it is shared with other processes
// (store.Watcher); its Watch delivers nothing, so a test drives Forget
// itself.
type sharedStore struct{ backend }

func (sharedStore) Watch(ctx context.Context) (<-chan store.Change, error) {
	ch := make(chan store.Change)
	go func() { <-ctx.Done(); close(ch) }()
	return ch, nil
}

// TestSharedStoreSessions: two gates on one database, as two ward
// instances. A session the second gate caches is put under review through
// the first: on a shared store the second rereads the session before using
// it and sees the review; a change notification makes it reread the
// principal, so the principal's other cached session acts under review
// too. The same two gates without a shared store keep their stale cache,
// which is what the shared mode is for.
func TestSharedStoreSessions(t *testing.T) {
	for _, shared := range []bool{true, false} {
		db := filepath.Join(t.TempDir(), "ward.db")
		a := newFixture(t, fixtureOpts{db: db, shared: shared})
		b := newFixture(t, fixtureOpts{db: db, shared: shared})
		ctx := t.Context()
		x := a.open(t, "x", TrustOptions{Level: trust.Tainted, Reviewers: []string{RulesReviewer}, Judge: RulesJudge})
		view, err := b.tools.view()
		if err != nil {
			t.Fatal(err)
		}
		bx, err := b.tools.OpenSession(ctx, agentOwner, "x", view)
		if err != nil {
			t.Fatal(err)
		}
		if got := b.tools.Level(bx); got != trust.Tainted {
			t.Fatalf("shared=%t: the second gate loads x at %v, want tainted", shared, got)
		}
		if err := a.tools.SetLevel(ctx, x, trust.Review, "owner"); err != nil {
			t.Fatal(err)
		}
		bx, err = b.tools.OpenSession(ctx, agentOwner, "x", view)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := b.tools.trustOf(bx).Level(), map[bool]trust.Level{true: trust.Review, false: trust.Tainted}[shared]; got != want {
			t.Errorf("shared=%t: after a review set through the first gate, the second uses x at %v, want %v", shared, got, want)
		}
		if !shared {
			continue
		}
		// The principal's fixture session s1 is cached on b from before:
		// the notification of x's change makes b reread the principal.
		t.Logf("before the notification: %v", b.tools.Level(b.session))
		if err := b.tools.Forget(ctx, store.Change{Kind: store.ChangeSession, ID: x.ID}); err != nil {
			t.Fatal(err)
		}
		if got := b.tools.Level(b.session); got != trust.Review {
			t.Errorf("after the change notification the principal's other session acts at %v, want review", got)
		}
		// A session deleted through the first gate is gone from the second.
		if err := b.tools.Forget(ctx, store.Change{Kind: store.ChangeAll}); err != nil {
			t.Fatal(err)
		}
		if b.tools.sessions.get(bx.ID) != nil {
			t.Error("ChangeAll left a session cached")
		}
	}
}

// TestSharedStoreReviewBeforeNotification: a review set through one ward
// instance binds a write through another at once, before the change
// notification reaches it (the window in which a stale view would decide
// the write): the write rereads its principal. Reads keep the notified
// view.
func TestSharedStoreReviewBeforeNotification(t *testing.T) {
	db := filepath.Join(t.TempDir(), "ward.db")
	a := newFixture(t, fixtureOpts{db: db, shared: true})
	b := newFixture(t, fixtureOpts{db: db, shared: true})
	ctx := t.Context()
	if _, err := b.tools.Preview(ctx, b.session, "uniswap_execute_swap", swapArgs(tokA, 1_000)); err != nil {
		t.Fatalf("a write before the review: %v", err)
	}
	x := a.open(t, "x", TrustOptions{Level: trust.Tainted, Reviewers: []string{RulesReviewer}, Judge: RulesJudge})
	if err := a.tools.SetLevel(ctx, x, trust.Review, "owner"); err != nil {
		t.Fatal(err)
	}
	if got := b.tools.Level(b.session); got == trust.Review {
		t.Fatal("the second gate already sees the review: the test does not exercise the window")
	}
	_, err := b.tools.Preview(ctx, b.session, "uniswap_execute_swap", swapArgs(tokA, 1_001))
	if err == nil {
		t.Fatal("a write through the second gate was permitted while its principal is under review")
	}
	if got := b.tools.Level(b.session); got != trust.Review {
		t.Errorf("after the write the second gate decides at %v, want review", got)
	}
	t.Logf("refused: %v", err)
}
