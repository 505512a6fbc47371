package storetest

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
)

func heldCall(at time.Time, session, argsHash string) *store.HeldCall {
	return &store.HeldCall{
		ID: id.Opaque(at), PrincipalID: "p1", SessionID: session, Time: at, Expires: at.Add(time.Hour), InputSource: "agent",
		Tool: "uniswap_execute_swap", Tier: tool.Write, Args: []byte(`{"amount":"5"}`), ArgsHash: argsHash,
		Reason: "SWAP_REVIEW", Message: "big swaps wait", Reviews: []byte(`[{"by":"rules-judge"}]`),
	}
}

func testHeldCalls(t *testing.T, h *harness) {
	c := testHeldHold(t, h)
	testHeldDecide(t, h, c)
	testHeldOutcome(t, h, c)
	testHeldRefused(t, h)
}

// testHeldHold holds calls of session s1 up to its limit, a repeated call
// once, checks the first survives a reopen and returns it.
func testHeldHold(t *testing.T, h *harness) *store.HeldCall {
	ctx := t.Context()
	c := heldCall(t0, "s1", "h1")
	if existing, err := h.s.HoldCall(ctx, c, store.HoldLimits{MaxPending: 2}, action(t0, store.ActionQuarantined, "")); err != nil || existing != "" {
		t.Fatalf("HoldCall = %q, %v", existing, err)
	}
	// The same call again: held once.
	again := heldCall(t0.Add(time.Second), "s1", "h1")
	if existing, err := h.s.HoldCall(ctx, again, store.HoldLimits{MaxPending: 2}, action(t0.Add(time.Second), store.ActionQuarantined, "")); err != nil || existing != c.ID {
		t.Errorf("holding the same call again = %q, %v; want the first item %s", existing, err, c.ID)
	}
	if _, err := h.s.HoldCall(ctx, heldCall(t0, "s1", "h2"), store.HoldLimits{MaxPending: 2}, action(t0, store.ActionQuarantined, "")); err != nil {
		t.Fatal(err)
	}
	if _, err := h.s.HoldCall(ctx, heldCall(t0, "s1", "h3"), store.HoldLimits{MaxPending: 2}, action(t0, store.ActionQuarantined, "")); !errors.Is(err, store.ErrHeldLimit) {
		t.Errorf("a third pending call of a session holding 2: %v, want ErrHeldLimit", err)
	}
	h.reopen()
	got, err := h.s.HeldCall(ctx, c.ID)
	if err != nil || got.PrincipalID != "p1" || got.SessionID != "s1" || got.Tier != tool.Write || string(got.Args) != `{"amount":"5"}` ||
		got.Status != store.HeldPending || !sameTime(got.Expires, c.Expires) || string(got.Reviews) != string(c.Reviews) {
		t.Fatalf("HeldCall after a reopen = %+v, %v", got, err)
	}
	return c
}

// testHeldDecide decides c from concurrent callers, of whom exactly one
// wins, and refuses to decide an unknown or an expired call.
func testHeldDecide(t *testing.T, h *harness, c *store.HeldCall) {
	ctx := t.Context()
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := 0
	for i := range 8 {
		wg.Go(func() {
			st := store.HeldApproved
			if i%2 == 1 {
				st = store.HeldRejected
			}
			at := t0.Add(time.Minute)
			err := h.s.DecideHeldCall(ctx, c.ID, st, "owner:x", "ok", at, action(at.Add(time.Duration(i)), store.ActionQuarantineApproved, ""))
			switch {
			case err == nil:
				mu.Lock()
				wins++
				mu.Unlock()
			case !errors.Is(err, store.ErrHeldDecided):
				t.Errorf("DecideHeldCall: %v", err)
			}
		})
	}
	wg.Wait()
	if wins != 1 {
		t.Fatalf("%d concurrent decisions won, want 1", wins)
	}
	if recs, _ := h.s.Actions(ctx, store.ActionFilter{Kind: store.ActionQuarantineApproved}); len(recs) != 1 {
		t.Errorf("%d decision records, want the winner's alone", len(recs))
	}
	if err := h.s.DecideHeldCall(ctx, "nobody", store.HeldApproved, "x", "", t0, action(t0, store.ActionQuarantineApproved, "")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deciding nobody: %v", err)
	}
	late := heldCall(t0, "s2", "h9")
	if _, err := h.s.HoldCall(ctx, late, store.HoldLimits{MaxPending: 2}, action(t0, store.ActionQuarantined, "")); err != nil {
		t.Fatal(err)
	}
	at := late.Expires
	if err := h.s.DecideHeldCall(ctx, late.ID, store.HeldApproved, "x", "", at, action(at, store.ActionQuarantineApproved, "")); !errors.Is(err, store.ErrHeldExpired) {
		t.Errorf("deciding an expired call: %v, want ErrHeldExpired", err)
	}
}

// testHeldOutcome records c's outcome, once, only if it was approved, and
// checks the other call of s1 is still pending.
func testHeldOutcome(t *testing.T, h *harness, c *store.HeldCall) {
	ctx := t.Context()
	d, _ := h.s.HeldCall(ctx, c.ID)
	out := []byte(`{"ok":true}`)
	err := h.s.SetHeldOutcome(ctx, c.ID, out, action(t0.Add(2*time.Minute), store.ActionQuarantineOutcome, ""))
	switch {
	case d.Status == store.HeldApproved && err != nil:
		t.Errorf("outcome of an approved call: %v", err)
	case d.Status == store.HeldRejected && !errors.Is(err, store.ErrHeldDecided):
		t.Errorf("outcome of a rejected call: %v", err)
	}
	if d.Status == store.HeldApproved {
		if err := h.s.SetHeldOutcome(ctx, c.ID, out, action(t0.Add(3*time.Minute), store.ActionQuarantineOutcome, "")); !errors.Is(err, store.ErrHeldDecided) {
			t.Errorf("a second outcome: %v", err)
		}
	}
	list, err := h.s.HeldCalls(ctx, store.HeldFilter{SessionID: "s1", ByStatus: true, Status: store.HeldPending})
	if err != nil || len(list) != 1 {
		t.Errorf("pending calls of s1 = %d, %v; want the one undecided", len(list), err)
	}
}

// testHeldRefused refuses to hold a call without a principal, with
// arguments that are not JSON, already decided, already expired or of
// the read tier.
func testHeldRefused(t *testing.T, h *harness) {
	ctx := t.Context()
	for name, mut := range map[string]func(c *store.HeldCall){
		"no principal":  func(c *store.HeldCall) { c.PrincipalID = "" },
		"args not JSON": func(c *store.HeldCall) { c.Args = []byte("{") },
		"decided":       func(c *store.HeldCall) { c.Status = store.HeldApproved },
		"expired":       func(c *store.HeldCall) { c.Expires = c.Time },
		"read tier 0":   func(c *store.HeldCall) { c.Tier = 0 },
	} {
		bad := heldCall(t0, "s3", name)
		mut(bad)
		if _, err := h.s.HoldCall(ctx, bad, store.HoldLimits{MaxPending: 9}, action(t0, store.ActionQuarantined, "")); err == nil {
			t.Errorf("%s: held", name)
		}
	}
}

// testHeldRetry: a call the owner rejected is refused when its principal
// sends it again (ErrHeldRejected, with the rejected call's id), within
// the window and for that principal only; the description is kept.
func testHeldRetry(t *testing.T, h *harness) {
	ctx := t.Context()
	c := heldCall(t0, "s1", "h1")
	c.RetryKey, c.Description = "k1", []byte(`{"summary":"send 5 USDC"}`)
	lim := store.HoldLimits{MaxPending: 9, RejectedSince: t0.Add(-time.Hour)}
	if _, err := h.s.HoldCall(ctx, c, lim, action(t0, store.ActionQuarantined, "")); err != nil {
		t.Fatal(err)
	}
	at := t0.Add(time.Minute)
	if err := h.s.DecideHeldCall(ctx, c.ID, store.HeldRejected, "owner:x", "", at, action(at, store.ActionQuarantineRejected, "")); err != nil {
		t.Fatal(err)
	}
	h.reopen()
	got, err := h.s.HeldCall(ctx, c.ID)
	if err != nil || got.RetryKey != "k1" || string(got.Description) != string(c.Description) {
		t.Fatalf("HeldCall = %+v, %v; want the retry key and description kept", got, err)
	}
	for _, tc := range []struct {
		name      string
		principal string
		session   string
		key       string
		since     time.Time
		refused   bool
	}{
		{"same principal, another session", "p1", "s9", "k1", t0, true},
		{"another principal", "p2", "s1", "k1", t0, false},
		{"other arguments", "p1", "s1", "k2", t0, false},
		{"rejected before the window", "p1", "s1", "k1", t0.Add(2 * time.Minute), false},
		{"no window", "p1", "s1", "k1", time.Time{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			when := t0.Add(3 * time.Minute)
			again := heldCall(when, tc.session, "h-"+tc.name)
			again.PrincipalID, again.RetryKey = tc.principal, tc.key
			existing, err := h.s.HoldCall(ctx, again, store.HoldLimits{MaxPending: 9, RejectedSince: tc.since}, action(when, store.ActionQuarantined, ""))
			switch {
			case tc.refused && (!errors.Is(err, store.ErrHeldRejected) || existing != c.ID):
				t.Errorf("HoldCall = %q, %v; want ErrHeldRejected citing %s", existing, err, c.ID)
			case !tc.refused && (err != nil || existing != ""):
				t.Errorf("HoldCall = %q, %v; want it held", existing, err)
			}
		})
	}
}
