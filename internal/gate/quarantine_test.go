package gate

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
)

const reviewCode reason.Code = "SWAP_REVIEW"

// reviewPolicy is the default policy plus user rules: swaps above
// 1,000,000 base units and every balance read are quarantined; extra rules
// are added after them.
func reviewPolicy(t *testing.T, f *fixture, extra ...rules.UserRule) {
	t.Helper()
	cfg := rules.DefaultConfig()
	cfg.Rules = append([]rules.UserRule{
		{ID: "test.review-big-swaps", Priority: 100, AppliesTo: policy.Names("uniswap_execute_swap"),
			When: `int(args.amount) > 1000000`, Action: policy.Quarantine, Code: reviewCode, Message: "big swaps wait for the owner"},
		{ID: "test.review-balances", Priority: 100, AppliesTo: policy.Names("data_get_token_balance"),
			When: `true`, Action: policy.Quarantine, Code: "READ_REVIEW", Message: "balance reads wait for the owner"},
	}, extra...)
	snap, err := rules.Compile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.engine.Swap(snap); err != nil {
		t.Fatal(err)
	}
}

// held previews a big swap and returns the quarantine item id of its
// refusal.
func (f *fixture) held(t *testing.T, amount int64) string {
	t.Helper()
	_, err := f.tools.Preview(t.Context(), f.session, "uniswap_execute_swap", swapArgs(tokA, amount))
	r := wantRefusal(t, err, reviewCode)
	if r.Quarantine == "" {
		t.Fatalf("refusal %q names no quarantine item", r.Message)
	}
	return r.Quarantine
}

// queryHeld is the agent's query_state of an item, as the facade answers
// it (internal/facade).
func (f *fixture) queryHeld(t *testing.T, s *Session, itemID string) (*Quarantined, error) {
	t.Helper()
	held, err := f.tools.LookupHeld(t.Context(), s, itemID)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(held)
	if err != nil {
		t.Fatal(err)
	}
	var it Quarantined
	if err := json.Unmarshal(raw, &it); err != nil {
		t.Fatalf("query_state answer %s: %v", raw, err)
	}
	return &it, nil
}

func TestQuarantineApproveWrite(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	reviewPolicy(t, f)
	ctx := t.Context()

	// A small swap passes; a big one is held, and held once however often
	// the agent repeats it.
	if _, err := f.tools.Preview(ctx, f.session, "uniswap_execute_swap", swapArgs(tokA, 1_000_000)); err != nil {
		t.Fatalf("small swap: %v", err)
	}
	qid := f.held(t, 2_000_000)
	if again := f.held(t, 2_000_000); again != qid {
		t.Errorf("the repeated call was queued again as %s, want %s", again, qid)
	}
	it, err := f.queryHeld(t, f.session, qid)
	if err != nil {
		t.Fatal(err)
	}
	if it.Status != QuarantinePending || it.Tool != "uniswap_execute_swap" || it.Reason != reviewCode || it.Outcome != nil ||
		it.Tier != tool.Write || it.SessionID != f.session.ID || !it.ExpiresAt.Equal(it.Time.Add(DefaultQuarantineTTL)) {
		t.Errorf("held item = %+v", it)
	}
	if f.executed.Load() != 0 {
		t.Fatal("a held call executed")
	}

	// The owner approves: the preview runs with the quarantine lifted and
	// its permit is the outcome.
	got, err := f.tools.Approve(ctx, qid, "owner:abc", "fine this once")
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != QuarantineApproved || got.DecidedBy != "owner:abc" || got.Outcome == nil || !got.Outcome.OK || got.Outcome.Permit == nil {
		t.Fatalf("approved item = %+v (outcome %+v)", got, got.Outcome)
	}
	if f.executed.Load() != 0 {
		t.Fatal("approval executed the write: it must only preview it")
	}
	// The agent reads the permit and commits it.
	it, err = f.queryHeld(t, f.session, qid)
	if err != nil {
		t.Fatal(err)
	}
	if it.Status != QuarantineApproved || it.Outcome == nil || it.Outcome.Permit == nil || it.DecidedBy != "" || it.Note != "fine this once" {
		t.Fatalf("agent's view = %+v", it)
	}
	if _, err := f.tools.Commit(ctx, f.session, CommitRequest{PermitID: it.Outcome.Permit.PermitID}); err != nil {
		t.Fatalf("commit the approved permit: %v", err)
	}
	if f.executed.Load() != 1 {
		t.Errorf("executed %d, want 1", f.executed.Load())
	}
	// The lift was for that call only.
	f.held(t, 2_000_000)
	if _, err := f.tools.Approve(ctx, qid, "owner:abc", ""); !errors.Is(err, ErrQuarantineDecided) {
		t.Errorf("second approval: %v, want ErrQuarantineDecided", err)
	}

	// The action log has the hold, the review (under the item's id, naming
	// the owner) and the outcome.
	recs, err := f.store.Actions(ctx, store.ActionFilter{SessionID: f.session.ID})
	if err != nil {
		t.Fatal(err)
	}
	var review *store.ActionRecord
	kinds := map[store.ActionKind]int{}
	for i, r := range recs {
		kinds[r.Kind]++
		if r.Kind == actionApproved {
			review = &recs[i]
		}
	}
	if kinds[actionHeld] != 2 || kinds[actionApproved] != 1 || kinds[actionOutcome] != 1 {
		t.Errorf("action kinds = %v", kinds)
	}
	var detail map[string]string
	if review == nil || json.Unmarshal(review.Detail, &detail) != nil || detail["quarantine_id"] != qid || review.PrincipalID != agentOwner.PrincipalID {
		t.Fatalf("review record = %+v, want one of item %s by its principal", review, qid)
	}
	if detail["by"] != "owner:abc" || detail["note"] != "fine this once" {
		t.Errorf("review detail = %s (%v)", review.Detail, err)
	}
}

func TestQuarantineReject(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	reviewPolicy(t, f)
	ctx := t.Context()
	qid := f.held(t, 3_000_000)
	got, err := f.tools.Reject(ctx, qid, "owner:abc", "no")
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != QuarantineRejected || got.Outcome != nil {
		t.Errorf("rejected item = %+v", got)
	}
	if _, err := f.tools.Approve(ctx, qid, "owner:abc", ""); !errors.Is(err, ErrQuarantineDecided) {
		t.Errorf("approval after rejection: %v, want ErrQuarantineDecided", err)
	}
	it, err := f.queryHeld(t, f.session, qid)
	if err != nil || it.Status != QuarantineRejected {
		t.Errorf("agent's view = %+v, %v", it, err)
	}
	if n := f.executed.Load(); n != 0 {
		t.Errorf("a rejected call executed %d times", n)
	}
	// A rejected call sent again is refused with the rejection, not
	// queued again (TestRejectedRetry has the cases).
	_, err = f.tools.Preview(ctx, f.session, "uniswap_execute_swap", swapArgs(tokA, 3_000_000))
	if r := wantRefusal(t, err, reason.RetryRejected); !strings.Contains(r.Message, qid) {
		t.Errorf("the retry's refusal %q does not cite %s", r.Message, qid)
	}
}

func TestQuarantineApprovalKeepsOtherChecks(t *testing.T) {
	ctx := t.Context()
	t.Run("a deny still denies", func(t *testing.T) {
		f := newFixture(t, fixtureOpts{})
		reviewPolicy(t, f)
		qid := f.held(t, 2_000_000)
		// The owner's policy changes: the call is now also denied.
		reviewPolicy(t, f, rules.UserRule{ID: "test.deny-swaps", Priority: 200, AppliesTo: policy.Names("uniswap_execute_swap"),
			When: `true`, Action: policy.Deny, Code: "NO_SWAPS", Message: "no swaps today"})
		got, err := f.tools.Approve(ctx, qid, "owner:abc", "")
		if err != nil {
			t.Fatal(err)
		}
		if got.Outcome == nil || got.Outcome.OK || got.Outcome.Code != "NO_SWAPS" {
			t.Errorf("outcome = %+v, want refused NO_SWAPS", got.Outcome)
		}
	})
	t.Run("the hooks still veto", func(t *testing.T) {
		f := newFixture(t, fixtureOpts{})
		reviewPolicy(t, f)
		qid := f.held(t, 600_000_000) // $60,000: over the $500 daily limit
		got, err := f.tools.Approve(ctx, qid, "owner:abc", "")
		if err != nil {
			t.Fatal(err)
		}
		if got.Outcome == nil || got.Outcome.Code != reason.SpendDailyLimit {
			t.Errorf("outcome = %+v, want %s", got.Outcome, reason.SpendDailyLimit)
		}
	})
	t.Run("no write approval while halted", func(t *testing.T) {
		f := newFixture(t, fixtureOpts{})
		reviewPolicy(t, f)
		qid := f.held(t, 2_000_000)
		if err := f.tools.Halt(ctx, f.session, "stop"); err != nil {
			t.Fatal(err)
		}
		_, err := f.tools.Approve(ctx, qid, "owner:abc", "")
		wantRefusal(t, err, reason.Halted)
		if it, err := f.tools.Quarantined(ctx, qid); err != nil || it.Status != QuarantinePending {
			t.Errorf("item after a refused approval = %+v, %v; want pending", it, err)
		}
	})
}

func TestQuarantineRead(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	reviewPolicy(t, f)
	ctx := t.Context()
	// query_state {"kind":"balance","params":{"token":"x"}}, as the facade
	// runs it (internal/facade).
	e, _ := f.session.View.Adapter("balance", "")
	_, err := f.tools.Read(WithFacade(ctx, "query_state"), f.session, e.Def.Name, json.RawMessage(`{"token":"x"}`))
	r := wantRefusal(t, err, "READ_REVIEW")
	got, err := f.tools.Approve(ctx, r.Quarantine, "owner:abc", "")
	if err != nil {
		t.Fatal(err)
	}
	if got.Facade != "query_state" || got.Tier != tool.Read || got.Outcome == nil || !got.Outcome.OK || len(got.Outcome.Result) == 0 {
		t.Fatalf("approved read = %+v (outcome %+v)", got, got.Outcome)
	}
	var res tool.Result
	if err := json.Unmarshal(got.Outcome.Result, &res); err != nil || res.IsError {
		t.Errorf("stored result %s: %v", got.Outcome.Result, err)
	}
}

func TestQuarantineAnotherSessionCannotRead(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	reviewPolicy(t, f)
	qid := f.held(t, 2_000_000)
	other := f.open(t, "s2", TrustOptions{})
	_, err := f.queryHeld(t, other, qid)
	wantRefusal(t, err, QuarantineNotFound)
	_, err = f.queryHeld(t, f.session, "01JD3K7ZQ4Y7K3M9XW2V5T8R00")
	wantRefusal(t, err, QuarantineNotFound)
}

func TestQuarantineExpires(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	reviewPolicy(t, f)
	qid := f.held(t, 2_000_000)
	f.advance(DefaultQuarantineTTL)
	if it, err := f.tools.Quarantined(t.Context(), qid); err != nil || it.Status != QuarantineExpired {
		t.Fatalf("item after its TTL = %+v, %v", it, err)
	}
	if _, err := f.tools.Approve(t.Context(), qid, "owner:abc", ""); !errors.Is(err, ErrQuarantineExpired) {
		t.Errorf("approval of an expired item: %v, want ErrQuarantineExpired", err)
	}
	// Expired, it no longer blocks queuing the same call again.
	if again := f.held(t, 2_000_000); again == qid {
		t.Error("the expired item was reused")
	}
}

// TestQuarantineApprovedAfterRestart: the gate that held the call is gone
// (a restart: a new gate over the same store, nothing in memory). The
// owner's approval loads the session from the store and runs the call as
// it; the agent, back on the new gate, reads the outcome.
func TestQuarantineApprovedAfterRestart(t *testing.T) {
	db := filepath.Join(t.TempDir(), "ward.db")
	first := newFixture(t, fixtureOpts{db: db})
	reviewPolicy(t, first)
	qid := first.held(t, 2_000_000)
	name := first.session.Name
	f := newFixture(t, fixtureOpts{db: db})
	reviewPolicy(t, f)
	if f.session.Name != name {
		t.Fatal("the fixtures opened different sessions")
	}
	if f.tools.sessions.get(first.session.ID) != f.session {
		t.Fatal("the second gate did not load the first gate's session from the store")
	}
	f.tools.sessions.drop(f.session) // nothing in memory, as after a restart
	got, err := f.tools.Approve(t.Context(), qid, "owner:abc", "")
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != QuarantineApproved || got.Outcome == nil || got.Outcome.Permit == nil {
		t.Fatalf("approved item = %+v, want approved and run (a permit)", got)
	}
	it, err := f.queryHeld(t, f.session, qid)
	if err != nil {
		t.Fatal(err)
	}
	if it.Outcome == nil || it.Outcome.Permit == nil || it.Outcome.Permit.PermitID != got.Outcome.Permit.PermitID {
		t.Fatalf("the agent reads %+v, want the approval's permit", it)
	}
	if _, err := f.tools.Commit(t.Context(), f.session, CommitRequest{PermitID: it.Outcome.Permit.PermitID}); err != nil {
		t.Errorf("the agent cannot commit the approved call's permit: %v", err)
	}
}

// TestQuarantineApprovedWhileSessionUnknown: a session the gate cannot
// load (an in-process one it did not open) cannot run the approved call;
// it runs at the agent's next query.
func TestQuarantineApprovedWhileSessionUnknown(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	reviewPolicy(t, f)
	f.session = &Session{ID: "adhoc", TurnID: "adhoc", Source: policy.Agent, View: f.session.View}
	qid := f.held(t, 2_000_000)
	got, err := f.tools.Approve(t.Context(), qid, "owner:abc", "")
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != QuarantineApproved || got.Outcome != nil {
		t.Fatalf("approved item = %+v, want approved, not run", got)
	}
	it, err := f.queryHeld(t, f.session, qid)
	if err != nil {
		t.Fatal(err)
	}
	if it.Outcome == nil || it.Outcome.Permit == nil {
		t.Fatalf("the agent's query did not run the approved call: %+v", it)
	}
	// Only once.
	again, err := f.queryHeld(t, f.session, qid)
	if err != nil || again.Outcome.Permit.PermitID != it.Outcome.Permit.PermitID {
		t.Errorf("second query: %+v, %v", again, err)
	}
}

func TestQuarantineConcurrentReviews(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	reviewPolicy(t, f)
	qid := f.held(t, 2_000_000)
	permits := f.events // every event since the fixture was made
	var ok, decided atomic.Int64
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			var err error
			if i%2 == 0 {
				_, err = f.tools.Approve(t.Context(), qid, "owner:abc", "")
			} else {
				_, err = f.tools.Reject(t.Context(), qid, "owner:abc", "")
			}
			switch {
			case err == nil:
				ok.Add(1)
			case errors.Is(err, ErrQuarantineDecided):
				decided.Add(1)
			default:
				t.Errorf("review: %v", err)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 1 || decided.Load() != 19 {
		t.Errorf("%d reviews succeeded, %d refused as decided; want 1 and 19", ok.Load(), decided.Load())
	}
	var created int
	for {
		select {
		case e := <-permits.C():
			if e.Kind == event.PermitCreated {
				created++
			}
			continue
		default:
		}
		break
	}
	if created > 1 {
		t.Errorf("%d permits created by one approval", created)
	}
}

func TestQuarantineQueueBounds(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	reviewPolicy(t, f)
	for i := range maxHeldPerSession {
		f.held(t, int64(2_000_000+i))
	}
	_, err := f.tools.Preview(t.Context(), f.session, "uniswap_execute_swap", swapArgs(tokA, 9_000_000))
	if r := wantRefusal(t, err, reviewCode); r.Quarantine != "" {
		t.Errorf("call %d of the session was queued as %s", maxHeldPerSession+1, r.Quarantine)
	}
	items, err := f.tools.QuarantineQueue(t.Context(), QuarantineFilter{Limit: 1000})
	if err != nil || len(items) != maxHeldPerSession {
		t.Fatalf("pending items = %d, %v; want %d", len(items), err, maxHeldPerSession)
	}
	for i := 1; i < len(items); i++ {
		if items[i].Time.Before(items[i-1].Time) {
			t.Fatal("the queue is not oldest first")
		}
	}
	// A review frees a place.
	if _, err := f.tools.Reject(t.Context(), items[0].ID, "owner:abc", ""); err != nil {
		t.Fatal(err)
	}
	f.held(t, 9_000_000)
	all, err := f.tools.QuarantineQueue(t.Context(), QuarantineFilter{AnyStatus: true, Limit: 1000})
	if err != nil || len(all) != maxHeldPerSession+1 {
		t.Errorf("all items = %d, %v; want %d", len(all), err, maxHeldPerSession+1)
	}
}

func TestQuarantineStatusText(t *testing.T) {
	for s := QuarantinePending; s <= QuarantineExpired; s++ {
		b, err := s.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back QuarantineStatus
		if err := back.UnmarshalText(b); err != nil || back != s {
			t.Errorf("%s round trip = %v, %v", s, back, err)
		}
	}
	if _, err := QuarantineStatus(9).MarshalText(); err == nil {
		t.Error("an invalid status marshalled")
	}
	if _, err := ParseQuarantineStatus("held"); err == nil {
		t.Error(`"held" parsed`)
	}
}
