package gate

import (
	"testing"
	"time"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules"
	"github.com/wardhq/ward/internal/reason"
)

// TestRateLimitCountsCommittedWrites: a [[policy.rate_limits]] rule on a
// write tool counts commits. Two swaps against a limit of two commit; the
// third preview is denied; previews that were never committed count for
// nothing; and a tracker restored from the ledger (a restart, or `ward
// policy check` on the same data directory) reaches the same count.
func TestRateLimitCountsCommittedWrites(t *testing.T) {
	f := newFixture(t, fixtureOpts{rates: []rules.RateLimit{{
		ID: "two-swaps", Priority: 50, AppliesTo: policy.Names("uniswap_execute_swap"),
		Scope: "window", Window: time.Hour, Max: 2, Code: reason.RateLimitExceeded, Message: "two swaps an hour",
	}}})
	ctx := t.Context()
	// Previews alone execute nothing: three of them leave the window empty.
	for range 3 {
		if _, err := f.tools.Preview(ctx, f.session, "uniswap_execute_swap", swapArgs(tokA, 1_000)); err != nil {
			t.Fatalf("preview without commits: %v", err)
		}
	}
	for i := range 2 {
		pv, err := f.tools.Preview(ctx, f.session, "uniswap_execute_swap", swapArgs(tokA, 1_000))
		if err != nil {
			t.Fatalf("swap %d preview: %v", i+1, err)
		}
		if _, err := f.tools.Commit(ctx, f.session, CommitRequest{PermitID: pv.PermitID}); err != nil {
			t.Fatalf("swap %d commit: %v", i+1, err)
		}
	}
	_, err := f.tools.Preview(ctx, f.session, "uniswap_execute_swap", swapArgs(tokA, 1_000))
	wantRefusal(t, err, reason.RateLimitExceeded)

	// Decisions count by the engine's clock (the fixture's clock is only
	// the gate's ticks and permits), and so does the restore.
	restored := policy.NewTracker()
	if err := Restore(ctx, f.store, restored, f.engine.Snapshot(), time.Now()); err != nil {
		t.Fatal(err)
	}
	q := policy.CountQuery{Tools: []string{"uniswap_execute_swap"}, Scope: policy.ScopeWindow, Window: time.Hour}
	if n := restored.Count(q, time.Now()); n != 2 {
		t.Errorf("executions restored from the ledger = %d, want the 2 commits", n)
	}
}
