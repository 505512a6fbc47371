package gate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/store/sqlite"
	"github.com/wardhq/ward/internal/trust"
)

// backend is every store interface the gate's fixture wires.
type backend interface {
	store.DecisionLog
	store.Ledger
	store.Permits
	store.Control
	store.HeldCalls
	store.ActionLog
	store.TrustLog
	store.Withheld
	store.Sessions
	hook.Windows
}

// failingStore is the store with every write failing once fail is set, as
// a full disk or a lost database would: reads keep working.
type failingStore struct {
	*sqlite.Store
	fail atomic.Bool
	// failActions fails only the action log's appends (an outcome record
	// lost after the write ran).
	failActions atomic.Bool
}

var errDiskGone = errors.New("test: the disk is gone")

func (f *failingStore) err() error {
	if f.fail.Load() {
		return errDiskGone
	}
	return nil
}

func (f *failingStore) AppendDecision(ctx context.Context, r *store.DecisionRecord, durable bool) error {
	if err := f.err(); err != nil {
		return err
	}
	return f.Store.AppendDecision(ctx, r, durable)
}
func (f *failingStore) AppendDecisionCommitted(ctx context.Context, r *store.DecisionRecord) error {
	if err := f.err(); err != nil {
		return err
	}
	return f.Store.AppendDecisionCommitted(ctx, r)
}
func (f *failingStore) AppendExecution(ctx context.Context, r *store.ExecutionRecord) error {
	if err := f.err(); err != nil {
		return err
	}
	return f.Store.AppendExecution(ctx, r)
}
func (f *failingStore) CreatePermit(ctx context.Context, p *store.Permit) error {
	if err := f.err(); err != nil {
		return err
	}
	return f.Store.CreatePermit(ctx, p)
}
func (f *failingStore) ConsumePermit(ctx context.Context, id string, c store.PermitCheck) (store.Permit, error) {
	if err := f.err(); err != nil {
		return store.Permit{}, err
	}
	return f.Store.ConsumePermit(ctx, id, c)
}
func (f *failingStore) CancelPermit(ctx context.Context, id, by string, now time.Time) error {
	if err := f.err(); err != nil {
		return err
	}
	return f.Store.CancelPermit(ctx, id, by, now)
}
func (f *failingStore) CancelPermitRecorded(ctx context.Context, id, by string, now time.Time, r *store.ActionRecord) error {
	if err := f.err(); err != nil {
		return err
	}
	return f.Store.CancelPermitRecorded(ctx, id, by, now, r)
}
func (f *failingStore) AppendAction(ctx context.Context, r *store.ActionRecord) error {
	if err := f.err(); err != nil {
		return err
	}
	if f.failActions.Load() {
		return errDiskGone
	}
	return f.Store.AppendAction(ctx, r)
}
func (f *failingStore) SetPhase(ctx context.Context, phase, by string, at time.Time, r *store.ActionRecord) error {
	if err := f.err(); err != nil {
		return err
	}
	return f.Store.SetPhase(ctx, phase, by, at, r)
}
func (f *failingStore) SetHalt(ctx context.Context, halted bool, why, by string, at time.Time, r *store.ActionRecord) error {
	if err := f.err(); err != nil {
		return err
	}
	return f.Store.SetHalt(ctx, halted, why, by, at, r)
}
func (f *failingStore) HoldCall(ctx context.Context, c *store.HeldCall, lim store.HoldLimits, r *store.ActionRecord) (string, error) {
	if err := f.err(); err != nil {
		return "", err
	}
	return f.Store.HoldCall(ctx, c, lim, r)
}
func (f *failingStore) DecideHeldCall(ctx context.Context, id string, s store.HeldStatus, by, note string, at time.Time, r *store.ActionRecord) error {
	if err := f.err(); err != nil {
		return err
	}
	return f.Store.DecideHeldCall(ctx, id, s, by, note, at, r)
}
func (f *failingStore) SetHeldOutcome(ctx context.Context, id string, o []byte, r *store.ActionRecord) error {
	if err := f.err(); err != nil {
		return err
	}
	return f.Store.SetHeldOutcome(ctx, id, o, r)
}
func (f *failingStore) AppendTrust(ctx context.Context, r *store.TrustRecord) error {
	if err := f.err(); err != nil {
		return err
	}
	return f.Store.AppendTrust(ctx, r)
}
func (f *failingStore) PutWithheld(ctx context.Context, w *store.WithheldOutput) error {
	if err := f.err(); err != nil {
		return err
	}
	return f.Store.PutWithheld(ctx, w)
}
func (f *failingStore) PromoteWithheld(ctx context.Context, key, by string, at time.Time, plain []byte) error {
	if err := f.err(); err != nil {
		return err
	}
	return f.Store.PromoteWithheld(ctx, key, by, at, plain)
}
func (f *failingStore) OpenSession(ctx context.Context, r *store.SessionRecord, l store.SessionLimits, must bool, now time.Time) (store.SessionRecord, bool, error) {
	if err := f.err(); err != nil {
		return store.SessionRecord{}, false, err
	}
	return f.Store.OpenSession(ctx, r, l, must, now)
}
func (f *failingStore) SetSessionLevel(ctx context.Context, id string, c store.LevelChange) error {
	if err := f.err(); err != nil {
		return err
	}
	return f.Store.SetSessionLevel(ctx, id, c)
}
func (f *failingStore) SetDirective(ctx context.Context, id, d string, trusted bool, at time.Time) error {
	if err := f.err(); err != nil {
		return err
	}
	return f.Store.SetDirective(ctx, id, d, trusted, at)
}
func (f *failingStore) AppendObservation(ctx context.Context, id string, w *store.ObservationWrite, durable bool) (int64, error) {
	if err := f.err(); err != nil {
		return 0, err
	}
	return f.Store.AppendObservation(ctx, id, w, durable)
}
func (f *failingStore) Reserve(ctx context.Context, h hook.WindowHold, q hook.WindowQuery, fits func(hook.WindowTotals) error) error {
	if err := f.err(); err != nil {
		return err
	}
	return f.Store.Reserve(ctx, h, q, fits)
}
func (f *failingStore) Begin(ctx context.Context, e hook.WindowSpend, q hook.WindowQuery, fits func(hook.WindowTotals) error) error {
	if err := f.err(); err != nil {
		return err
	}
	return f.Store.Begin(ctx, e, q, fits)
}

// TestAuditUnwritable is the attack of a store that cannot write (a full
// disk, a database gone read-only): every write-tier path, every owner
// action and every trust decision refuses, with a clear error, and nothing
// takes effect; nothing of it is acknowledged.
func TestAuditUnwritable(t *testing.T) {
	f := newFixture(t, fixtureOpts{failing: true, trust: true})
	ctx := t.Context()
	// What exists before the disk goes: a permit to commit, one to cancel,
	// a held call to review, a session under review.
	reviewPolicy(t, f)
	qid := f.held(t, 2_000_000)
	pv, err := f.tools.Preview(ctx, f.session, "uniswap_execute_swap", swapArgs(tokA, 1_000_000))
	if err != nil {
		t.Fatal(err)
	}
	pv2, err := f.tools.Preview(ctx, f.session, "uniswap_execute_swap", swapArgs(tokA, 999_999))
	if err != nil {
		t.Fatal(err)
	}
	tainted := f.open(t, "tainted", TrustOptions{Level: trust.Tainted, Reviewers: []string{RulesReviewer}, Judge: RulesJudge})
	if err := f.tools.SetLevel(ctx, tainted, trust.Review, "owner:x"); err != nil {
		t.Fatal(err)
	}
	f.advance(time.Minute) // past the announce delay
	executedBefore := f.executed.Load()

	f.failing.fail.Store(true)
	refused := func(name string, err error) {
		t.Helper()
		if err == nil {
			t.Errorf("%s went ahead on a store that cannot write", name)
			return
		}
		var rf *Refusal
		if errors.As(err, &rf) {
			if rf.Code != reason.AuditUnavailable && rf.Code != reason.TaintCheckFailed && rf.Code != reason.HookError {
				t.Errorf("%s: refused as %s (%s), want an audit or check failure", name, rf.Code, rf.Message)
			}
			return
		}
		if !errors.Is(err, errDiskGone) {
			t.Errorf("%s: %v, want the store's failure", name, err)
		}
	}
	_, err = f.tools.Preview(ctx, f.session, "uniswap_execute_swap", swapArgs(tokA, 1_000_000))
	refused("preview", err)
	_, err = f.tools.Commit(ctx, f.session, CommitRequest{PermitID: pv.PermitID})
	refused("commit", err)
	refused("cancel", f.tools.Cancel(ctx, f.session, pv2.PermitID))
	refused("owner cancel", f.tools.CancelByOwner(ctx, pv2.PermitID, "owner:x"))
	refused("halt", f.tools.Halt(ctx, f.session, "stop"))
	refused("resume", f.tools.Resume(ctx, "owner:x"))
	refused("phase", f.tools.SetPhase(ctx, hook.Conservation, "owner:x"))
	refused("lift a review", f.tools.SetLevel(ctx, tainted, trust.Tainted, "owner:x"))
	_, err = f.tools.Approve(ctx, qid, "owner:x", "")
	refused("approve", err)
	_, err = f.tools.Reject(ctx, qid, "owner:x", "")
	refused("reject", err)
	_, err = f.tools.SetDirective(ctx, f.session, "pay bob", true)
	refused("directive", err)
	_, err = f.tools.Read(ctx, f.session, "data_get_token_balance", json.RawMessage(`{"token":"x"}`))
	refused("read (reads_best_effort off)", err)
	_, err = f.tools.OpenSession(ctx, agentOwner, "fresh", nil)
	refused("open a session", err)

	f.failing.fail.Store(false)
	if n := f.executed.Load(); n != executedBefore {
		t.Errorf("%d writes executed on a store that could not write", n-executedBefore)
	}
	for _, c := range []struct {
		id   string
		want store.PermitStatus
	}{{pv.PermitID, store.PermitPending}, {pv2.PermitID, store.PermitPending}} {
		if p := f.permit(t, c.id); p.Status != c.want {
			t.Errorf("permit %s is %s after the refusals, want %s", c.id, p.Status, c.want)
		}
	}
	if halted, _, _ := f.tools.Halted(ctx); halted {
		t.Error("an unrecorded halt took effect")
	}
	if ph, _ := f.tools.Phase(ctx); ph != hook.Thriving {
		t.Errorf("an unrecorded phase change took effect: %s", ph)
	}
	if it, _ := f.tools.Quarantined(ctx, qid); it.Status != QuarantinePending {
		t.Errorf("an unrecorded review took effect: %s", it.Status)
	}
	if f.tools.Level(tainted) != trust.Review {
		t.Error("an unrecorded lift of a review took effect")
	}
	// The disk back, the permit commits.
	if _, err := f.tools.Commit(ctx, f.session, CommitRequest{PermitID: pv.PermitID}); err != nil {
		t.Errorf("commit once the store writes again: %v", err)
	}
}

// TestReadsBestEffort: with [audit] reads_best_effort, a read whose
// decision cannot be recorded goes on, and is counted; writes still stop.
func TestReadsBestEffort(t *testing.T) {
	f := newFixture(t, fixtureOpts{failing: true, readsBestEffort: true})
	ctx := t.Context()
	f.failing.fail.Store(true)
	if _, err := f.tools.Read(ctx, f.session, "data_get_token_balance", json.RawMessage(`{"token":"x"}`)); err != nil {
		t.Fatalf("a read under reads_best_effort: %v", err)
	}
	if f.tools.AuditFailures() == 0 || f.tools.decider.AuditFailures() != 1 {
		t.Errorf("audit failures counted: tools %d, gate %d", f.tools.AuditFailures(), f.tools.decider.AuditFailures())
	}
	if _, err := f.tools.Preview(ctx, f.session, "uniswap_execute_swap", swapArgs(tokA, 1_000_000)); err == nil {
		t.Error("a preview went ahead unrecorded under reads_best_effort")
	}
}

func (f *fixture) permit(t *testing.T, pid string) store.Permit {
	t.Helper()
	p, err := f.store.Permit(t.Context(), pid)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReadOnFullDisk: on a full disk (the real store, whose queued records
// fail only at their group commit) a read is refused AUDIT_UNAVAILABLE
// and leaves no decision; with [audit] reads_best_effort it is answered,
// its record queued. Once space returns, reads are answered and
// recorded again.
func TestReadOnFullDisk(t *testing.T) {
	for _, bestEffort := range []bool{false, true} {
		t.Run(map[bool]string{false: "strict", true: "reads_best_effort"}[bestEffort], func(t *testing.T) {
			f := newFixture(t, fixtureOpts{readsBestEffort: bestEffort})
			ctx := t.Context()
			read := func() error {
				_, err := f.tools.Read(ctx, f.session, "data_get_token_balance", json.RawMessage(`{"token":"x"}`))
				return err
			}
			before := f.decisions(t)
			f.store.SimulateFullDisk(true)
			err := read()
			if bestEffort {
				if err != nil {
					t.Fatalf("read under reads_best_effort on a full disk: %v", err)
				}
			} else {
				wantRefusal(t, err, reason.AuditUnavailable)
			}
			if n := f.decisions(t); n != before {
				t.Errorf("decisions on the full disk: %d → %d, want none written", before, n)
			}
			f.store.SimulateFullDisk(false)
			if err := read(); err != nil {
				t.Fatalf("read once space returned: %v", err)
			}
			// A best-effort read's record is queued: give its group
			// commit a moment.
			for i := 0; i < 100 && f.decisions(t) <= before; i++ {
				time.Sleep(10 * time.Millisecond)
			}
			if n := f.decisions(t); n <= before {
				t.Errorf("the read after space returned left no decision (%d → %d)", before, n)
			}
		})
	}
}

// decisions counts the decision log's rows.
func (f *fixture) decisions(t *testing.T) int {
	t.Helper()
	recs, err := f.store.QueryDecisions(t.Context(), store.DecisionFilter{})
	if err != nil {
		t.Fatal(err)
	}
	return len(recs)
}

// TestOutcomeUnrecorded: a write that executed but whose outcome record
// cannot be written is not acknowledged: the caller gets AuditUnavailable
// naming the transaction, the owner a tool:error event for the permit.
// Reconciliation then records its outcome from the send journal, once.
func TestOutcomeUnrecorded(t *testing.T) {
	f := newFixture(t, fixtureOpts{failing: true})
	ctx := t.Context()
	pv, err := f.tools.Preview(ctx, f.session, "uniswap_execute_swap", swapArgs(tokA, 1_000_000))
	if err != nil {
		t.Fatal(err)
	}
	f.advance(time.Minute)
	for len(f.events.C()) > 0 {
		<-f.events.C()
	}
	f.failing.failActions.Store(true)
	res, err := f.tools.Commit(ctx, f.session, CommitRequest{PermitID: pv.PermitID})
	f.failing.failActions.Store(false)
	var rf *Refusal
	if !errors.As(err, &rf) || rf.Code != reason.AuditUnavailable || !strings.Contains(rf.Message, "0x01") || res != nil {
		t.Fatalf("commit with its outcome unrecorded = %v, %v; want an AUDIT_UNAVAILABLE refusal naming 0x01", res, err)
	}
	if f.executed.Load() != 1 {
		t.Fatalf("%d writes executed, want 1", f.executed.Load())
	}
	alerted := false
	for len(f.events.C()) > 0 {
		e := <-f.events.C()
		alerted = alerted || (e.Kind == event.ToolError && e.PermitID == pv.PermitID && e.Code == string(reason.AuditUnavailable) && strings.Contains(e.Message, "0x01"))
	}
	if !alerted {
		t.Error("no tool:error event names the permit and its transaction")
	}
	outcomes := func() []store.ActionRecord {
		t.Helper()
		recs, err := f.store.Actions(ctx, store.ActionFilter{PermitID: pv.PermitID, Kind: store.ActionToolCall})
		if err != nil {
			t.Fatal(err)
		}
		return recs
	}
	if n := len(outcomes()); n != 0 {
		t.Fatalf("%d outcome records were written by a store that failed them", n)
	}
	// The send journal holds the transaction, mined.
	hash := fmt.Sprintf("0x%064x", 1)
	if err := f.store.JournalTx(ctx, &store.SentTx{ChainID: 1, From: "0x00000000000000000000000000000000000000a1", Hash: hash, Raw: []byte{1},
		PermitID: pv.PermitID, PlanLen: 1, Created: f.tools.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := f.store.SettleTx(ctx, 1, hash, store.SentMined, 9, f.tools.Now()); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		done, err := f.tools.ReconcileCommits(ctx, f.store, f.tools.Now())
		if err != nil {
			t.Fatal(err)
		}
		if want := 1 - i; len(done) != want {
			t.Errorf("reconciliation %d completed %d commits, want %d", i+1, len(done), want)
		}
	}
	recs := outcomes()
	if len(recs) != 1 || recs[0].Status != store.StatusExecuted || recs[0].TxHash != hash {
		t.Fatalf("outcome records after reconciliation: %+v; want one, executed, naming %s", recs, hash)
	}
}

// TestReconcileNothingSent: a permit consumed by a commit that stopped
// before sending anything is recorded as not executed, its spend removed.
func TestReconcileNothingSent(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	ctx := t.Context()
	pv, err := f.tools.Preview(ctx, f.session, "uniswap_execute_swap", swapArgs(tokA, 1_000_000))
	if err != nil {
		t.Fatal(err)
	}
	f.advance(time.Minute)
	p := f.permit(t, pv.PermitID)
	if _, err := f.store.ConsumePermit(ctx, p.ID, store.PermitCheck{SessionID: p.SessionID, Now: f.tools.Now(), Tool: p.Tool, ArgsHash: p.ArgsHash,
		PolicyHash: p.PolicyHash, Phase: p.Phase, By: p.SessionID}); err != nil {
		t.Fatal(err)
	}
	done, err := f.tools.ReconcileCommits(ctx, f.store, f.tools.Now())
	if err != nil || len(done) != 1 || done[0].Executed || done[0].Status != store.StatusFailed {
		t.Fatalf("ReconcileCommits = %+v, %v; want one, failed, not executed", done, err)
	}
	recs, err := f.store.Actions(ctx, store.ActionFilter{PermitID: p.ID})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[store.ActionKind]int{}
	for _, r := range recs {
		kinds[r.Kind]++
		if r.Kind == store.ActionToolCall && r.BlockReason != string(reason.CommitInterrupted) {
			t.Errorf("outcome block reason %q, want %s", r.BlockReason, reason.CommitInterrupted)
		}
	}
	if kinds[store.ActionToolCall] != 1 || kinds[store.ActionPermitConsumed] != 1 {
		t.Errorf("records of the permit by kind: %v; want one consumed and one outcome", kinds)
	}
	if again, err := f.tools.ReconcileCommits(ctx, f.store, f.tools.Now()); err != nil || len(again) != 0 {
		t.Errorf("a second reconciliation = %+v, %v; want nothing to do", again, err)
	}
}
