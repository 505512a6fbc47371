package gate

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/audit"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
)

// memLog is an in-memory decision log whose writes can be made to fail.
type memLog struct {
	mu      sync.Mutex
	recs    []store.DecisionRecord
	durable []bool
	fail    atomic.Bool
}

func (m *memLog) AppendDecision(ctx context.Context, rec *store.DecisionRecord, durable bool) error {
	if m.fail.Load() {
		return errors.New("disk full")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.recs = append(m.recs, *rec)
	m.durable = append(m.durable, durable)
	return nil
}

func (m *memLog) QueryDecisions(context.Context, store.DecisionFilter) ([]store.DecisionRecord, error) {
	return nil, nil
}

func (m *memLog) CountDecisions(context.Context, store.DecisionFilter) (int64, error) {
	return int64(len(m.recs)), nil
}

func (m *memLog) DecisionReport(context.Context, store.Report, store.DecisionFilter) ([]store.ReportRow, error) {
	return nil, nil
}

func newGate(t *testing.T, log store.DecisionLog, cfg rules.Config) (*Gate, *policy.Tracker) {
	t.Helper()
	cfg.Paths.Root = t.TempDir()
	snap, err := rules.Compile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := policy.NewEngine(snap)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := audit.NewRecorder(audit.Config{Log: log})
	if err != nil {
		t.Fatal(err)
	}
	tr := policy.NewTracker()
	tr.SetBalance(1_000_000)
	g, err := New(Config{Engine: eng, Tracker: tr, Audit: rec})
	if err != nil {
		t.Fatal(err)
	}
	return g, tr
}

func transfer(cents int, turn string) Call {
	return Call{
		Tool: tool.Ref{Name: "transfer_credits"},
		Args: fmt.Appendf(nil, `{"to_address":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","amount_cents":%d}`, cents),
		Turn: policy.Turn{ID: turn, SessionID: "s", Source: policy.Agent},
	}
}

func TestConcurrentTransfersCannotOverspend(t *testing.T) {
	cfg := rules.DefaultConfig()
	cfg.Treasury.MaxTransfersPerTurn = 1000
	g, tr := newGate(t, &memLog{}, cfg)
	// 50 callers race to move 1000c each under an hourly cap of 5000c.
	var allowed atomic.Int64
	var wg sync.WaitGroup
	admissions := make([]*Admission, 50)
	for i := range admissions {
		wg.Go(func() {
			a := g.Decide(t.Context(), transfer(1000, fmt.Sprintf("t%d", i)))
			admissions[i] = a
			if a.Decision.Action() == policy.Allow {
				allowed.Add(1)
			}
		})
	}
	wg.Wait()
	if n := allowed.Load(); n != 5 {
		t.Fatalf("%d transfers of 1000c admitted under a 5000c hourly cap, want exactly 5", n)
	}
	// Executing them keeps the cap exhausted; releasing one frees its room.
	released := false
	for _, a := range admissions {
		if a.Decision.Action() != policy.Allow {
			if err := g.Done(t.Context(), a, Outcome{Executed: true}); !errors.Is(err, ErrNotAdmitted) {
				t.Errorf("Done on a denied call: err = %v, want ErrNotAdmitted", err)
			}
			continue
		}
		if !released {
			released = true
			if err := g.Done(t.Context(), a, Outcome{Executed: false}); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := g.Done(t.Context(), a, Outcome{Executed: true}); err != nil {
			t.Fatal(err)
		}
	}
	if got := tr.Spent("transfer", time.Hour, time.Now()); got != 4000 {
		t.Errorf("executed spend %d, want 4000", got)
	}
	if a := g.Decide(t.Context(), transfer(1000, "next")); a.Decision.Action() != policy.Allow {
		t.Errorf("after one release a 1000c transfer is %s (%s), want allow", a.Decision.Action(), a.Decision.Code())
	}
	if a := g.Decide(t.Context(), transfer(1, "next2")); a.Decision.Code() != reason.HourlyTransferLimit {
		t.Errorf("with the cap full a 1c transfer is %s %s, want %s", a.Decision.Action(), a.Decision.Code(), reason.HourlyTransferLimit)
	}
}

func TestTransfersPerTurnCountHolds(t *testing.T) {
	g, _ := newGate(t, &memLog{}, rules.DefaultConfig())
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if a := g.Decide(t.Context(), transfer(10, "same-turn")); a.Decision.Action() == policy.Allow {
				allowed.Add(1)
			}
		})
	}
	wg.Wait()
	if n := allowed.Load(); n != 2 {
		t.Errorf("%d transfers admitted in one turn, want 2 (max_transfers_per_turn)", n)
	}
}

func TestAuditFailureDenies(t *testing.T) {
	log := &memLog{}
	g, tr := newGate(t, log, rules.DefaultConfig())
	log.fail.Store(true)
	a := g.Decide(t.Context(), transfer(100, "t1"))
	if a.Decision.Action() != policy.Deny || a.Decision.Code() != reason.AuditUnavailable {
		t.Fatalf("with the audit trail down: %s %s, want deny %s", a.Decision.Action(), a.Decision.Code(), reason.AuditUnavailable)
	}
	if a.AuditErr == nil || !errors.Is(a.AuditErr, audit.ErrUnavailable) {
		t.Errorf("AuditErr = %v", a.AuditErr)
	}
	if got := tr.HeldSpend(time.Now()); got != 0 {
		t.Errorf("the refused call still holds %dc", got)
	}
	log.fail.Store(false)
	if a := g.Decide(t.Context(), transfer(100, "t2")); a.Decision.Action() != policy.Allow {
		t.Errorf("after recovery: %s %s", a.Decision.Action(), a.Decision.Code())
	}
}

// TestDurability: every decision is committed before the call goes on,
// reads included; only with ReadsBestEffort are reads (Call.Read) of safe
// read-tier tools queued for the next group commit.
func TestDurability(t *testing.T) {
	for _, bestEffort := range []bool{false, true} {
		log := &memLog{}
		g, _ := newGate(t, log, rules.DefaultConfig())
		g.readsBestEffort = bestEffort
		g.Decide(t.Context(), transfer(100, "t1"))                                                                                    // write tier, dangerous
		g.Decide(t.Context(), Call{Tool: tool.Ref{Name: "read_file"}, Args: []byte(`{"path":"a.txt"}`), Read: true})                  // read tier, safe
		g.Decide(t.Context(), Call{Tool: tool.Ref{Name: "lookup", Risk: tool.Safe, Tier: tool.Read}, Args: []byte(`{}`), Read: true}) // declared read
		g.Decide(t.Context(), Call{Tool: tool.Ref{Name: "mystery", Risk: tool.Safe}, Args: []byte(`{}`)})                             // tier unknown: write
		want := []bool{true, !bestEffort, !bestEffort, true}
		log.mu.Lock()
		for i, w := range want {
			if log.durable[i] != w {
				t.Errorf("reads_best_effort %v: decision %d (%s) durable = %v, want %v", bestEffort, i, log.recs[i].Tool, log.durable[i], w)
			}
		}
		log.mu.Unlock()
	}
}

func TestBadArgumentsAreDeniedAndRecorded(t *testing.T) {
	log := &memLog{}
	g, _ := newGate(t, log, rules.DefaultConfig())
	for _, raw := range []string{`{"amount_cents":1,"amount_cents":2}`, `[1,2]`, `{"a":`, "{\"a\":\"\xff\"}"} {
		c := transfer(0, "t")
		c.Args = []byte(raw)
		a := g.Decide(t.Context(), c)
		if a.Decision.Action() != policy.Deny || a.Decision.Code() != reason.BadInput {
			t.Errorf("args %q: %s %s, want deny %s", raw, a.Decision.Action(), a.Decision.Code(), reason.BadInput)
		}
		if a.Decision.Diagnostic() == "" || a.AuditID == "" {
			t.Errorf("args %q: no diagnostic or audit id", raw)
		}
	}
	if len(log.recs) != 4 {
		t.Errorf("%d records, want 4", len(log.recs))
	}
}

func TestCancelledContextStillAudits(t *testing.T) {
	log := &memLog{}
	g, _ := newGate(t, log, rules.DefaultConfig())
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	a := g.Decide(ctx, transfer(100, "t1"))
	if a.AuditErr != nil || len(log.recs) != 1 {
		t.Errorf("cancelled caller: AuditErr %v, %d records; want the record written", a.AuditErr, len(log.recs))
	}
}

func TestNewValidates(t *testing.T) {
	if _, err := New(Config{}); err == nil {
		t.Error("New accepted an empty config")
	}
}
