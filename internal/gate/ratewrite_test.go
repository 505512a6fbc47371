package gate

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
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
	swap := json.RawMessage(`{"token":"` + tokA.Hex() + `","amount":"1000","amount_cents":1000}`)
	for range 3 {
		if _, err := f.tools.Preview(ctx, f.session, "uniswap_execute_swap", swap); err != nil {
			t.Fatalf("preview without commits: %v", err)
		}
	}
	for i := range 2 {
		pv, err := f.tools.Preview(ctx, f.session, "uniswap_execute_swap", swap)
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

// TestSpendWindowCountsCommittedWrites: the policy's spend windows count
// what committed writes spent. With swaps metered as transfers (1000c
// each, by their amount_cents) against an hourly transfer limit of 2500c, two commit and the
// third preview is denied HOURLY_TRANSFER_LIMIT_EXCEEDED; previews never
// committed spend nothing; and `ward policy check` on the same data
// directory (the ledger restored into a fresh tracker, the same request
// evaluated) denies the third swap for the same reason.
func TestSpendWindowCountsCommittedWrites(t *testing.T) {
	f := newFixture(t, fixtureOpts{policy: func(c *rules.Config) {
		c.Treasury.TransferTools = []string{"uniswap_execute_swap"}
		c.Treasury.MaxTransferHourlyCents = 2500
		c.Treasury.MaxTransfersPerTurn = 100
	}})
	ctx := t.Context()
	const balance = 1_000_000
	f.tools.decider.tracker.SetBalance(balance)
	if err := f.store.SetBalance(ctx, balance, time.Now()); err != nil {
		t.Fatal(err)
	}
	swap := json.RawMessage(`{"token":"` + tokA.Hex() + `","amount":"1000","amount_cents":1000}`)
	for range 3 {
		if _, err := f.tools.Preview(ctx, f.session, "uniswap_execute_swap", swap); err != nil {
			t.Fatalf("preview without commits: %v", err)
		}
	}
	for i := range 2 {
		pv, err := f.tools.Preview(ctx, f.session, "uniswap_execute_swap", swap)
		if err != nil {
			t.Fatalf("swap %d preview: %v", i+1, err)
		}
		if _, err := f.tools.Commit(ctx, f.session, CommitRequest{PermitID: pv.PermitID}); err != nil {
			t.Fatalf("swap %d commit: %v", i+1, err)
		}
	}
	_, err := f.tools.Preview(ctx, f.session, "uniswap_execute_swap", swap)
	wantRefusal(t, err, reason.HourlyTransferLimit)

	// ward policy check: gate.Restore from the store, then Evaluate.
	snap := f.engine.Snapshot()
	restored := policy.NewTracker()
	if err := Restore(ctx, f.store, restored, snap, time.Now()); err != nil {
		t.Fatal(err)
	}
	args, err := tool.ParseArgs(swap)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := f.session.View.Get("uniswap_execute_swap")
	d := snap.Evaluate(&policy.Request{Tool: e.Def.Ref(), Args: args, State: restored,
		Turn: policy.Turn{ID: "check", SessionID: "check", Source: policy.Agent}})
	if d.Action() != policy.Deny || d.Code() != reason.HourlyTransferLimit {
		t.Errorf("policy check on the same history: %s %s (%s), want deny %s", d.Action(), d.Code(), d.Message(), reason.HourlyTransferLimit)
	}
}
