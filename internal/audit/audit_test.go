package audit

import (
	"context"
	"encoding/hex"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
)

type fakeLog struct {
	got     []store.DecisionRecord
	durable []bool
	err     error
	ctxErr  error
	// deadline is how far off the write's ctx deadline was; ok false
	// when it had none.
	deadline   time.Duration
	deadlineOK bool
}

func (f *fakeLog) AppendDecision(ctx context.Context, rec *store.DecisionRecord, durable bool) error {
	f.ctxErr = ctx.Err()
	if d, ok := ctx.Deadline(); ok {
		f.deadline, f.deadlineOK = time.Until(d), true
	} else {
		f.deadline, f.deadlineOK = 0, false
	}
	if f.err != nil {
		return f.err
	}
	f.got = append(f.got, *rec)
	f.durable = append(f.durable, durable)
	return nil
}
func (f *fakeLog) QueryDecisions(context.Context, store.DecisionFilter) ([]store.DecisionRecord, error) {
	return nil, nil
}
func (f *fakeLog) CountDecisions(context.Context, store.DecisionFilter) (int64, error) {
	return int64(len(f.got)), nil
}
func (f *fakeLog) DecisionReport(context.Context, store.Report, store.DecisionFilter) ([]store.ReportRow, error) {
	return nil, nil
}

func decide(t *testing.T, ref tool.Ref) policy.Decision {
	t.Helper()
	s, err := policy.NewSnapshot([]policy.Rule{
		{ID: "q", Priority: 1, Eval: func(*policy.Request) (policy.Result, error) { return policy.Quarantines("HOLD", "wait"), nil }},
	}, policy.SnapshotConfig{Hash: [32]byte{7}, Meter: func(*policy.Request) (policy.Spend, bool) {
		return policy.Spend{Category: "transfer", Cents: 42}, true
	}})
	if err != nil {
		t.Fatal(err)
	}
	args, _ := tool.ParseArgs([]byte(`{"a":1}`))
	return s.Evaluate(&policy.Request{Tool: ref, Args: args, Now: time.Unix(1_800_000_000, 5).UTC(),
		Turn: policy.Turn{ID: "t", SessionID: "s", Source: policy.Heartbeat}})
}

func TestRecordOf(t *testing.T) {
	d := decide(t, tool.Ref{Name: "pay", Category: "financial", Risk: tool.Dangerous})
	rec := RecordOf(&d, "ID1", OriginGate)
	ah, ph := d.ArgsHash(), d.PolicyHash()
	want := store.DecisionRecord{
		ID: "ID1", Time: d.Time(), TurnID: "t", SessionID: "s", InputSource: "heartbeat", Authority: "system",
		Tool: "pay", Category: "financial", ArgsHash: hex.EncodeToString(ah[:]), Risk: "dangerous",
		Decision: store.VerdictQuarantine, Reason: "HOLD", Message: "wait", Rule: "q", RulesEvaluated: `["q"]`, RulesTriggered: `["q"]`,
		Latency: d.Latency(), PolicyHash: hex.EncodeToString(ph[:]), SpendCategory: "transfer", SpendCents: 42, Origin: store.OriginGate,
	}
	if rec != want {
		t.Errorf("RecordOf\n got %+v\nwant %+v", rec, want)
	}
}

func TestDurable(t *testing.T) {
	for _, tc := range []struct {
		ref  tool.Ref
		want bool
	}{
		{tool.Ref{Name: "r", Risk: tool.Safe, Tier: tool.Read}, false},
		{tool.Ref{Name: "r", Risk: tool.Caution, Tier: tool.Read}, false},
		{tool.Ref{Name: "r", Risk: tool.Dangerous, Tier: tool.Read}, true},
		{tool.Ref{Name: "w", Risk: tool.Safe, Tier: tool.Write}, true},
		{tool.Ref{Name: "p", Risk: tool.Safe, Tier: tool.Privileged}, true},
		{tool.Ref{Name: "u", Risk: tool.Safe}, true}, // unknown tier counts as write
		{tool.Ref{Name: "u", Tier: tool.Read}, true}, // unknown risk counts as forbidden
	} {
		d := decide(t, tc.ref)
		if got := Durable(&d); got != tc.want {
			t.Errorf("Durable(%+v) = %v, want %v", tc.ref, got, tc.want)
		}
	}
}

func TestRecorder(t *testing.T) {
	if _, err := NewRecorder(Config{}); err == nil {
		t.Error("NewRecorder without a log")
	}
	log := &fakeLog{}
	r, err := NewRecorder(Config{Log: log})
	if err != nil {
		t.Fatal(err)
	}
	d := decide(t, tool.Ref{Name: "r", Risk: tool.Safe, Tier: tool.Read})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	id, err := r.Record(ctx, &d)
	if err != nil || id == "" {
		t.Fatalf("Record = %q, %v", id, err)
	}
	if log.ctxErr != nil {
		t.Errorf("the write saw the caller's cancellation: %v", log.ctxErr)
	}
	if log.durable[0] {
		t.Error("a safe read was written durably (it need not be)")
	}
	all, _ := NewRecorder(Config{Log: log, DurableAll: true, Origin: OriginCheck})
	all.Record(t.Context(), &d)
	if !log.durable[1] || log.got[1].Origin != OriginCheck {
		t.Errorf("DurableAll/origin not applied: %v %q", log.durable[1], log.got[1].Origin)
	}
	log.err = errors.New("disk full")
	if _, err := r.Record(t.Context(), &d); !errors.Is(err, ErrUnavailable) {
		t.Errorf("failed write: err = %v, want ErrUnavailable", err)
	}
}

// boundedLog is a fakeLog that bounds its appends by bound.
type boundedLog struct {
	fakeLog
	bound time.Duration
}

func (b *boundedLog) AppendTimeout() time.Duration { return b.bound }

// TestRecorderTimeout: a write's ctx carries the recorder's timeout unless
// the log bounds its appends by no more than it (store.BoundedDecisionLog),
// and never the caller's deadline or cancellation.
func TestRecorderTimeout(t *testing.T) {
	d := decide(t, tool.Ref{Name: "w", Risk: tool.Caution, Tier: tool.Write})
	plain := &fakeLog{}
	tests := []struct {
		name    string
		log     store.DecisionLog
		timeout time.Duration
		own     bool // the recorder's own deadline is set
	}{
		{"log without a bound", plain, time.Second, true},
		{"log bounded by the same", &boundedLog{bound: time.Second}, time.Second, false},
		{"log bounded by less", &boundedLog{bound: time.Millisecond}, time.Second, false},
		{"log bounded by more", &boundedLog{bound: time.Minute}, time.Second, true},
		{"log with no bound (zero)", &boundedLog{bound: 0}, time.Second, true},
		{"default timeout, log bounded by it", &boundedLog{bound: DefaultTimeout}, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := NewRecorder(Config{Log: tc.log, Timeout: tc.timeout})
			if err != nil {
				t.Fatal(err)
			}
			f := plain
			if b, ok := tc.log.(*boundedLog); ok {
				f = &b.fakeLog
			}
			ctx, cancel := context.WithTimeout(t.Context(), time.Hour)
			defer cancel()
			for _, write := range []func(context.Context, *policy.Decision) (string, error){r.Record, r.RecordCommitted, r.RecordDeferred} {
				if _, err := write(ctx, &d); err != nil {
					t.Fatal(err)
				}
				if f.deadlineOK != tc.own {
					t.Errorf("write ctx has a deadline: %v, want %v", f.deadlineOK, tc.own)
				}
				if tc.own && (f.deadline <= 0 || f.deadline > time.Second) {
					t.Errorf("write ctx deadline %v away, want the recorder's %v", f.deadline, time.Second)
				}
			}
		})
	}
}

// committedLog is a fakeLog that can return at COMMIT.
type committedLog struct {
	fakeLog
	committed int
}

func (c *committedLog) AppendDecisionCommitted(ctx context.Context, rec *store.DecisionRecord) error {
	if c.err != nil {
		return c.err
	}
	c.committed++
	c.got = append(c.got, *rec)
	return nil
}

// TestRecordCommitted: a read's decision is written before RecordCommitted
// returns (at COMMIT when the log can say so, durable otherwise), a
// durable decision stays durable, and a failure is ErrUnavailable.
func TestRecordCommitted(t *testing.T) {
	read := decide(t, tool.Ref{Name: "balance", Risk: tool.Safe, Tier: tool.Read})
	write := decide(t, tool.Ref{Name: "pay", Risk: tool.Dangerous, Tier: tool.Write})

	plain := &fakeLog{}
	r, _ := NewRecorder(Config{Log: plain})
	if _, err := r.RecordCommitted(t.Context(), &read); err != nil || len(plain.durable) != 1 || !plain.durable[0] {
		t.Errorf("read on a log without commit-only writes: err %v, durable %v, want one durable write", err, plain.durable)
	}

	c := &committedLog{}
	r, _ = NewRecorder(Config{Log: c})
	if _, err := r.RecordCommitted(t.Context(), &read); err != nil || c.committed != 1 || len(c.durable) != 0 {
		t.Errorf("read: err %v, %d committed, %d appended, want one committed", err, c.committed, len(c.durable))
	}
	if _, err := r.RecordCommitted(t.Context(), &write); err != nil || c.committed != 1 || len(c.durable) != 1 || !c.durable[0] {
		t.Errorf("write: err %v, %d committed, durable %v, want one durable append", err, c.committed, c.durable)
	}
	c.err = errors.New("disk full")
	if _, err := r.RecordCommitted(t.Context(), &read); !errors.Is(err, ErrUnavailable) {
		t.Errorf("failed write: %v, want ErrUnavailable", err)
	}
}

// TestRecorderPolicyHashAcrossSnapshots records decisions of two policies
// in turn and concurrently: the recorder reuses the text of the last policy
// hash, and each record must still name its own decision's policy, as
// RecordOf does.
func TestRecorderPolicyHashAcrossSnapshots(t *testing.T) {
	snapshot := func(hash byte) *policy.Snapshot {
		s, err := policy.NewSnapshot(nil, policy.SnapshotConfig{Hash: [32]byte{hash, 1, 2}})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	snaps := []*policy.Snapshot{snapshot(0xa0), snapshot(0x0b), snapshot(0xa0 + 1)}
	args, _ := tool.ParseArgs([]byte(`{"a":1}`))
	decisions := make([]policy.Decision, 0, 12)
	for i := range cap(decisions) {
		decisions = append(decisions, snaps[i*7%len(snaps)].Evaluate(&policy.Request{
			Tool: tool.Ref{Name: "r", Risk: tool.Safe, Tier: tool.Read}, Args: args, Now: time.Unix(1_800_000_000, 0).UTC(),
			Turn: policy.Turn{ID: strconv.Itoa(i)}}))
	}
	log := &lockedLog{}
	r, err := NewRecorder(Config{Log: log})
	if err != nil {
		t.Fatal(err)
	}
	for i := range decisions {
		if _, err := r.Record(t.Context(), &decisions[i]); err != nil {
			t.Fatal(err)
		}
	}
	for i, got := range log.got {
		want := RecordOf(&decisions[i], got.ID, OriginGate)
		if got != want {
			t.Errorf("record %d\n got %+v\nwant %+v", i, got, want)
		}
	}
	log.got = nil
	done := make(chan struct{})
	for g := range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := range 200 {
				d := &decisions[(g+i)%len(decisions)]
				if _, err := r.Record(t.Context(), d); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	for range 4 {
		<-done
	}
	if len(log.got) != 800 {
		t.Fatalf("%d records, want 800", len(log.got))
	}
	for _, got := range log.got {
		i, _ := strconv.Atoi(got.TurnID)
		if want := RecordOf(&decisions[i], got.ID, OriginGate); got != want {
			t.Fatalf("concurrent record of decision %d\n got %+v\nwant %+v", i, got, want)
		}
	}
}

type lockedLog struct {
	fakeLog
	mu sync.Mutex
}

func (l *lockedLog) AppendDecision(ctx context.Context, rec *store.DecisionRecord, durable bool) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.fakeLog.AppendDecision(ctx, rec, durable)
}
