// Package storetest is the conformance suite every store.Store backend
// passes, in the manner of testing/slogtest: a backend's own test calls Run
// with a function that makes a fresh, empty database.
//
// The suite checks what store's contract promises and nothing a backend
// may choose: times and latencies round-trip to the microsecond (UTC), rule
// lists compare as JSON, decisions come newest first, reports are ordered
// by count then key, durable writes survive Close and reopen, non-durable
// ones are flushed by Close, cancelling ctx never loses an accepted record,
// invalid records are refused whole, and every method fails with
// store.ErrClosed after Close. For permits: every refusal names its reason
// by sentinel and leaves the permit pending, a closed permit stays closed,
// and of 1,000 goroutines consuming one permit exactly one succeeds (a
// backend tests the same across processes itself). For withheld outputs:
// bytes round-trip exactly, a decided output stays decided, and of 8
// goroutines deciding one output exactly one succeeds. For knowledge: a
// put past the per-agent cap evicts exactly that agent's oldest pending
// entry, concurrent puts keep the cap, pruning never removes a pending
// entry, and Grimoire entries round-trip exactly, embeddings bit for bit.
// For what ingestion learns and the upstream pins: every write is refused
// whole (store.ErrInvalidState) when any part is invalid, the bounds hold
// (500 lessons, the kept days, a session's 64 influences within 24 hours,
// the immune signatures kept, 10,000 clade entries), and of concurrent
// pinnings of one tool, or demotions for one share, exactly one takes
// effect. For the send journal: records round-trip exactly, settle once,
// and two live records of one wallet never share a nonce.
//
// Records are made with ids from id.New at their own time, as ward makes
// them.
package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
)

// Run runs the conformance suite. newBackend is called once per subtest and
// must return an opener for a fresh, empty database that belongs to that
// subtest; the suite calls the opener several times to close and reopen the
// same database.
func Run(t *testing.T, newBackend func(t *testing.T) func() (store.Store, error)) {
	for _, group := range [][]suiteCase{decisionCases, permitCases, auditCases, withheldCases, knowledgeCases, principalCases, learntCases, sessionCases} {
		for _, tt := range group {
			t.Run(tt.name, func(t *testing.T) {
				h := &harness{t: t, open: newBackend(t)}
				h.s = h.mustOpen()
				tt.fn(t, h)
			})
		}
	}
}

// suiteCase is one named test of the suite.
type suiteCase struct {
	name string
	fn   func(t *testing.T, h *harness)
}

// decisionCases are the conformance cases for the decision log, its
// reports, executions, balances and policies, and the lifecycle every
// method shares.
var decisionCases = []suiteCase{
	{"RoundTrip", testRoundTrip},
	{"NonDurableFlushedByClose", testNonDurable},
	{"Filters", testFilters},
	{"NewestFirst", testNewestFirst},
	{"Reports", testReports},
	{"UnknownReport", testUnknownReport},
	{"ErrClosed", testClosed},
	{"InvalidRecord", testInvalid},
	{"CancelledContext", testCancelled},
	{"ConcurrentAppends", testConcurrent},
	{"Executions", testExecutions},
	{"Balance", testBalance},
	{"Policies", testPolicies},
	{"CloseTwice", testCloseTwice},
}

// permitCases are the conformance cases for permits, the send journal,
// the Safe queue and the gate's controls.
var permitCases = []suiteCase{
	{"PermitRoundTrip", testPermitRoundTrip},
	{"PermitInvalid", testPermitInvalid},
	{"PermitConsume", testPermitConsume},
	{"PermitRefused", testPermitRefused},
	{"PermitBounds", testPermitBounds},
	{"PermitCancel", testPermitCancel},
	{"PermitConcurrentConsume", testPermitConcurrentConsume},
	{"PendingPermits", testPendingPermits},
	{"OpenCommits", testOpenCommits},
	{"SentJournal", testSentJournal},
	{"PermitTxs", testPermitTxs},
	{"SentInvalid", testSentInvalid},
	{"SentConcurrent", testSentConcurrent},
	{"SafeQueue", testSafeQueue},
	{"OwnerTxs", testOwnerTxs},
	{"GateControl", testGateControl},
	{"SpendingOverride", testSpendingOverride},
	{"AllowlistEntries", testAllowlistEntries},
	{"HeldCalls", testHeldCalls},
	{"HeldRetry", testHeldRetry},
}

// auditCases are the conformance cases for the action log, the trust log
// and their archives.
var auditCases = []suiteCase{
	{"ActionLog", testActionLog},
	{"TrustRoundTrip", testTrustRoundTrip},
	{"TrustInvalid", testTrustInvalid},
	{"TrustConcurrentAppends", testTrustConcurrent},
	{"TrustReopen", testTrustReopen},
	{"ArchiveTrust", testArchiveTrust},
	{"ArchiveDecisions", testArchiveDecisions},
	{"ArchiveActions", testArchiveActions},
}

// withheldCases are the conformance cases for withheld outputs.
var withheldCases = []suiteCase{
	{"WithheldRoundTrip", testWithheldRoundTrip},
	{"WithheldInvalid", testWithheldInvalid},
	{"WithheldWraps", testWithheldWraps},
	{"WithheldDecide", testWithheldDecide},
	{"WithheldConcurrentDecide", testWithheldConcurrentDecide},
	{"WithheldBySession", testWithheldBySession},
	{"WithheldClosed", testWithheldClosed},
}

// knowledgeCases are the conformance cases for quarantined knowledge, the
// Grimoire and adoptions.
var knowledgeCases = []suiteCase{
	{"QuarantineRoundTrip", testQuarantineRoundTrip},
	{"QuarantineDecide", testQuarantineDecide},
	{"QuarantineOverflow", testQuarantineOverflow},
	{"QuarantineConcurrent", testQuarantineConcurrent},
	{"QuarantinePrune", testQuarantinePrune},
	{"QuarantineRollback", testQuarantineRollback},
	{"GrimoireEntries", testGrimoireEntries},
	{"KnowledgeClosed", testKnowledgeClosed},
	{"Adoptions", testAdoptions},
}

// principalCases are the conformance cases for principals.
var principalCases = []suiteCase{
	{"Principals", testPrincipals},
	{"PrincipalInvalid", testPrincipalInvalid},
	{"PrincipalConcurrentName", testPrincipalConcurrentName},
}

// learntCases are the conformance cases for what ingestion learns and the
// upstream pins.
var learntCases = []suiteCase{
	{"Lessons", testLessons},
	{"LessonsInvalid", testLessonsInvalid},
	{"LessonsBound", testLessonsBound},
	{"Series", testSeries},
	{"Memory", testMemory},
	{"Skills", testSkills},
	{"Reputation", testReputation},
	{"Influences", testInfluences},
	{"InfluencesConcurrent", testInfluencesConcurrent},
	{"Clade", testClade},
	{"CladeConcurrent", testCladeConcurrent},
	{"Pins", testPins},
	{"PinsInvalid", testPinsInvalid},
	{"PinsConcurrent", testPinsConcurrent},
	{"LearntClosed", testLearntClosed},
}

// sessionCases are the conformance cases for sessions, observations and
// key checks.
var sessionCases = []suiteCase{
	{"Sessions", testSessions},
	{"SessionLimits", testSessionLimits},
	{"SessionConcurrent", testSessionConcurrent},
	{"Observations", testObservations},
	{"KeyChecks", testKeyChecks},
}

// harness holds the store under test and reopens it.
type harness struct {
	t    *testing.T
	open func() (store.Store, error)
	s    store.Store
}

func (h *harness) mustOpen() store.Store {
	h.t.Helper()
	s, err := h.open()
	if err != nil {
		h.t.Fatalf("open: %v", err)
	}
	h.t.Cleanup(func() { _ = s.Close() })
	return s
}

// reopen closes the store, requiring success, and opens it again.
func (h *harness) reopen() {
	h.t.Helper()
	if err := h.s.Close(); err != nil {
		h.t.Fatalf("Close: %v", err)
	}
	h.s = h.mustOpen()
}

func (h *harness) append(recs ...*store.DecisionRecord) {
	h.t.Helper()
	for _, r := range recs {
		if err := h.s.AppendDecision(h.t.Context(), r, true); err != nil {
			h.t.Fatalf("AppendDecision(%s): %v", r.ID, err)
		}
	}
}

func (h *harness) query(f store.DecisionFilter) []store.DecisionRecord {
	h.t.Helper()
	got, err := h.s.QueryDecisions(h.t.Context(), f)
	if err != nil {
		h.t.Fatalf("QueryDecisions(%+v): %v", f, err)
	}
	return got
}

// t0 is microsecond-aligned so that time filters at record times are exact
// on backends that store microseconds.
var t0 = time.Date(2026, 3, 14, 15, 9, 26, 535897000, time.UTC)

// decision returns a realistic record at t with an id made at t.
func decision(t time.Time) *store.DecisionRecord {
	return &store.DecisionRecord{
		ID:             id.New(t),
		Time:           t,
		TurnID:         "turn-7",
		SessionID:      "sess-a",
		InputSource:    "peer",
		Authority:      "external",
		Tool:           "wallet_send_token",
		Category:       "wallet",
		ArgsHash:       "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		Risk:           "dangerous",
		Decision:       store.VerdictDeny,
		Reason:         "HOURLY_TRANSFER_LIMIT_EXCEEDED",
		Message:        "hourly transfer limit of 5000 cents would be exceeded (4900 + 250)",
		Rule:           "spend.hourly",
		RulesEvaluated: `["authority.tool","spend.hourly","spend.daily","loop.guard","risk.tier"]`,
		RulesTriggered: `["spend.hourly"]`,
		Latency:        12345678 * time.Nanosecond,
		PolicyHash:     "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae",
		SpendCategory:  "transfer",
		SpendCents:     250,
		Diagnostic:     "",
		Origin:         store.OriginGate,
	}
}

// checkDecision compares got with want: times and latency to the
// microsecond, rule lists as JSON ("" as []), everything else exactly.
func checkDecision(t *testing.T, got, want store.DecisionRecord) {
	t.Helper()
	if got.Time.Location() != time.UTC {
		t.Errorf("record %s: time zone %v, want UTC", want.ID, got.Time.Location())
	}
	if d := got.Time.Sub(want.Time).Abs(); d >= time.Microsecond {
		t.Errorf("record %s: time %v, want %v", want.ID, got.Time.Format(time.RFC3339Nano), want.Time.Format(time.RFC3339Nano))
	}
	if d := (got.Latency - want.Latency).Abs(); d >= time.Microsecond {
		t.Errorf("record %s: latency %v, want %v", want.ID, got.Latency, want.Latency)
	}
	checkJSON(t, want.ID+" rules evaluated", got.RulesEvaluated, want.RulesEvaluated)
	checkJSON(t, want.ID+" rules triggered", got.RulesTriggered, want.RulesTriggered)
	g, w := got, want
	g.Time, w.Time = time.Time{}, time.Time{}
	g.Latency, w.Latency = 0, 0
	g.RulesEvaluated, w.RulesEvaluated = "", ""
	g.RulesTriggered, w.RulesTriggered = "", ""
	if g != w {
		t.Errorf("record %s:\n got %+v\nwant %+v", want.ID, g, w)
	}
}

func checkJSON(t *testing.T, what, got, want string) {
	t.Helper()
	if want == "" {
		want = "[]"
	}
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Errorf("%s: %q is not JSON: %v", what, got, err)
		return
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: fixture %q is not JSON: %v", what, want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s: got %s, want %s", what, got, want)
	}
}

func ids(recs []store.DecisionRecord) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.ID
	}
	return out
}

func testRoundTrip(t *testing.T, h *harness) {
	full := decision(t0.Add(123 * time.Nanosecond)) // below a microsecond: may be truncated
	full.Diagnostic = "rule loop.guard: 4 identical calls in the last 20"
	full.Time = full.Time.In(time.FixedZone("UTC+2", 2*3600)) // stored and returned as UTC
	minimal := &store.DecisionRecord{
		ID:       id.New(t0.Add(time.Second)),
		Time:     t0.Add(time.Second),
		Tool:     "file_read",
		ArgsHash: "00",
		Risk:     "safe",
		Decision: store.VerdictAllow,
		Origin:   store.OriginGate,
	}
	h.append(full, minimal)
	check := func() {
		got := h.query(store.DecisionFilter{})
		if len(got) != 2 {
			t.Fatalf("QueryDecisions returned %d records, want 2", len(got))
		}
		checkDecision(t, got[0], *minimal)
		checkDecision(t, got[1], *full)
	}
	check()
	h.reopen()
	check()
}

func testNonDurable(t *testing.T, h *harness) {
	const n = 1000
	want := make([]string, 0, n)
	for i := range n {
		r := decision(t0.Add(time.Duration(i) * time.Millisecond))
		if err := h.s.AppendDecision(t.Context(), r, false); err != nil {
			t.Fatalf("AppendDecision(durable=false): %v", err)
		}
		want = append(want, r.ID)
	}
	h.reopen()
	got := ids(h.query(store.DecisionFilter{}))
	slices.Reverse(want)
	if !slices.Equal(got, want) {
		t.Fatalf("after Close and reopen: %d records, want the %d appended (newest first)", len(got), len(want))
	}
}

func testFilters(t *testing.T, h *harness) {
	tools := []string{"file_read", "shell_exec", "wallet_send_token"}
	decisions := []store.Verdict{store.VerdictAllow, store.VerdictDeny, store.VerdictQuarantine}
	reasons := []string{"ALLOWED", "FORBIDDEN_COMMAND", "HOURLY_TRANSFER_LIMIT_EXCEEDED", "AUTHORITY_INSUFFICIENT"}
	var recs []*store.DecisionRecord
	for i := range 12 {
		r := decision(t0.Add(time.Duration(i)*time.Second + time.Duration(i)*time.Microsecond))
		r.Tool = tools[i%3]
		r.Decision = decisions[i%3]
		r.Reason = reasons[i%4]
		r.SessionID = fmt.Sprintf("sess-%d", i%2)
		r.TurnID = fmt.Sprintf("turn-%d", i/4)
		r.Origin = []store.Origin{store.OriginGate, store.OriginGate, store.OriginCheck}[i%3]
		recs = append(recs, r)
	}
	h.append(recs...)
	at := func(i int) time.Time { return recs[i].Time }
	tests := []struct {
		name string
		f    store.DecisionFilter
	}{
		{"none", store.DecisionFilter{}},
		{"tool", store.DecisionFilter{Tool: "shell_exec"}},
		{"decision", store.DecisionFilter{Decision: store.VerdictQuarantine}},
		{"reason", store.DecisionFilter{Reason: "FORBIDDEN_COMMAND"}},
		{"session", store.DecisionFilter{SessionID: "sess-1"}},
		{"turn", store.DecisionFilter{TurnID: "turn-2"}},
		{"origin", store.DecisionFilter{Origin: store.OriginCheck}},
		{"since is inclusive", store.DecisionFilter{Since: at(4)}},
		{"since a microsecond after a record", store.DecisionFilter{Since: at(4).Add(time.Microsecond)}},
		{"until is exclusive", store.DecisionFilter{Until: at(7)}},
		{"until a microsecond after a record", store.DecisionFilter{Until: at(7).Add(time.Microsecond)}},
		{"since and until", store.DecisionFilter{Since: at(3), Until: at(9)}},
		{"empty range", store.DecisionFilter{Since: at(5), Until: at(5)}},
		{"limit", store.DecisionFilter{Limit: 3}},
		{"limit above count", store.DecisionFilter{Limit: 100}},
		{"combined", store.DecisionFilter{SessionID: "sess-0", Since: at(2), Until: at(11), Limit: 2}},
		{"no match", store.DecisionFilter{Tool: "no_such_tool"}},
		{"no match in range", store.DecisionFilter{Tool: "file_read", Since: at(10), Until: at(11)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := []string{}
			for _, r := range slices.Backward(recs) {
				if match(r, tt.f) && (tt.f.Limit == 0 || len(want) < tt.f.Limit) {
					want = append(want, r.ID)
				}
			}
			recs, err := h.s.QueryDecisions(t.Context(), tt.f)
			if err != nil {
				t.Fatalf("QueryDecisions(%+v): %v", tt.f, err)
			}
			if got := ids(recs); !slices.Equal(got, want) {
				t.Errorf("QueryDecisions(%+v)\n got %v\nwant %v", tt.f, got, want)
			}
			var wantCount int64
			for _, r := range recs {
				if match(&r, tt.f) {
					wantCount++
				}
			}
			if tt.f.Limit == 0 || int(wantCount) < tt.f.Limit {
				n, err := h.s.CountDecisions(t.Context(), tt.f)
				if err != nil || n != wantCount {
					t.Errorf("CountDecisions(%+v) = %d, %v; want %d", tt.f, n, err, wantCount)
				}
			}
		})
	}
}

// match is the reference semantics of store.DecisionFilter (without Limit).
func match(r *store.DecisionRecord, f store.DecisionFilter) bool {
	eq := func(want, got string) bool { return want == "" || want == got }
	return eq(f.Tool, r.Tool) && (f.Decision == 0 || f.Decision == r.Decision) && eq(f.Reason, r.Reason) &&
		eq(f.SessionID, r.SessionID) && eq(f.TurnID, r.TurnID) && (f.Origin == 0 || f.Origin == r.Origin) &&
		(f.Since.IsZero() || !r.Time.Before(f.Since)) &&
		(f.Until.IsZero() || r.Time.Before(f.Until))
}

func testNewestFirst(t *testing.T, h *harness) {
	var recs []*store.DecisionRecord
	for i := range 8 {
		recs = append(recs, decision(t0.Add(time.Duration(i)*time.Minute)))
	}
	// Appended out of order, durable and not, then read after a flush.
	for _, i := range []int{5, 1, 7, 0, 3, 6, 2, 4} {
		if err := h.s.AppendDecision(t.Context(), recs[i], i%2 == 0); err != nil {
			t.Fatalf("AppendDecision: %v", err)
		}
	}
	h.reopen()
	got := ids(h.query(store.DecisionFilter{}))
	var want []string
	for _, r := range slices.Backward(recs) {
		want = append(want, r.ID)
	}
	if !slices.Equal(got, want) {
		t.Errorf("order:\n got %v\nwant %v (newest first)", got, want)
	}
}

func testReports(t *testing.T, h *harness) {
	type fixture struct {
		tool            string
		decision        store.Verdict
		reason, session string
		triggered       string
		n               int
	}
	fixtures := []fixture{
		{"file_read", store.VerdictAllow, "ALLOWED", "s-ops", `[]`, 4},
		{"wallet_send", store.VerdictDeny, "HOURLY_TRANSFER_LIMIT_EXCEEDED", "s-pay", `["spend.hourly"]`, 1},
		{"wallet_send", store.VerdictDeny, "HOURLY_TRANSFER_LIMIT_EXCEEDED", "s-pay", `["spend.hourly", "spend.daily"]`, 1},
		{"wallet_send", store.VerdictDeny, "DAILY_TRANSFER_LIMIT_EXCEEDED", "s-pay", `["spend.daily"]`, 1},
		{"shell_exec", store.VerdictDeny, "FORBIDDEN_COMMAND", "s-ops", `["command.forbidden"]`, 1},
		{"shell_exec", store.VerdictDeny, "FORBIDDEN_COMMAND", "s-ops", `["command.forbidden","authority.path"]`, 1},
		{"http_post", store.VerdictDeny, "HOURLY_TRANSFER_LIMIT_EXCEEDED", "s-ops", `["spend.hourly"]`, 1},
		{"http_post", store.VerdictDeny, "DAILY_TRANSFER_LIMIT_EXCEEDED", "s-ops", `["spend.daily"]`, 1},
		{"file_write", store.VerdictDeny, "AUTHORITY_INSUFFICIENT", "s-ops", `["authority.path"]`, 1},
		{"http_post", store.VerdictQuarantine, "TAINTED_SESSION", "s-ops", `["taint.session"]`, 1},
	}
	tm := t0
	for _, f := range fixtures {
		for range f.n {
			tm = tm.Add(time.Second)
			r := decision(tm)
			r.Tool, r.Decision, r.Reason, r.SessionID, r.RulesTriggered = f.tool, f.decision, f.reason, f.session, f.triggered
			if f.decision == store.VerdictAllow {
				r.Rule = ""
			}
			h.append(r)
		}
	}
	type row = store.ReportRow
	rr := func(key string, n int64) row { return row{Key: key, Count: n} }
	tests := []struct {
		name   string
		report store.Report
		f      store.DecisionFilter
		want   []row
	}{
		{"most denied tools", store.MostDeniedTools, store.DecisionFilter{},
			[]row{rr("wallet_send", 3), rr("http_post", 2), rr("shell_exec", 2), rr("file_write", 1)}},
		{"most denied tools, limit", store.MostDeniedTools, store.DecisionFilter{Limit: 2},
			[]row{rr("wallet_send", 3), rr("http_post", 2)}},
		{"most denied tools, session", store.MostDeniedTools, store.DecisionFilter{SessionID: "s-pay"},
			[]row{rr("wallet_send", 3)}},
		{"most denied tools, allowed only", store.MostDeniedTools, store.DecisionFilter{Decision: store.VerdictAllow}, nil},
		{"most triggered rules", store.MostTriggeredRules, store.DecisionFilter{},
			[]row{rr("spend.daily", 3), rr("spend.hourly", 3), rr("authority.path", 2), rr("command.forbidden", 2), rr("taint.session", 1)}},
		{"most triggered rules, limit", store.MostTriggeredRules, store.DecisionFilter{Limit: 3},
			[]row{rr("spend.daily", 3), rr("spend.hourly", 3), rr("authority.path", 2)}},
		{"most triggered rules, quarantined", store.MostTriggeredRules, store.DecisionFilter{Decision: store.VerdictQuarantine},
			[]row{rr("taint.session", 1)}},
		{"most triggered rules, tool", store.MostTriggeredRules, store.DecisionFilter{Tool: "wallet_send"},
			[]row{rr("spend.daily", 2), rr("spend.hourly", 2)}},
		{"denials by reason", store.DenialsByReason, store.DecisionFilter{},
			[]row{rr("HOURLY_TRANSFER_LIMIT_EXCEEDED", 3), rr("DAILY_TRANSFER_LIMIT_EXCEEDED", 2), rr("FORBIDDEN_COMMAND", 2), rr("AUTHORITY_INSUFFICIENT", 1)}},
		{"denials by reason, since", store.DenialsByReason, store.DecisionFilter{Since: t0.Add(8 * time.Second)},
			[]row{rr("FORBIDDEN_COMMAND", 2), rr("AUTHORITY_INSUFFICIENT", 1), rr("DAILY_TRANSFER_LIMIT_EXCEEDED", 1), rr("HOURLY_TRANSFER_LIMIT_EXCEEDED", 1)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := h.s.DecisionReport(t.Context(), tt.report, tt.f)
			if err != nil {
				t.Fatalf("DecisionReport(%s, %+v): %v", tt.report, tt.f, err)
			}
			if len(got) == 0 && len(tt.want) == 0 {
				return
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("DecisionReport(%s, %+v)\n got %v\nwant %v", tt.report, tt.f, got, tt.want)
			}
		})
	}
}

func testUnknownReport(t *testing.T, h *harness) {
	for _, r := range []store.Report{"", "most-allowed-tools", "MOST-DENIED-TOOLS"} {
		if _, err := h.s.DecisionReport(t.Context(), r, store.DecisionFilter{}); !errors.Is(err, store.ErrUnknownReport) {
			t.Errorf("DecisionReport(%q) error = %v, want %v", r, err, store.ErrUnknownReport)
		}
	}
	for _, r := range store.Reports() {
		if _, err := h.s.DecisionReport(t.Context(), r, store.DecisionFilter{}); err != nil {
			t.Errorf("DecisionReport(%q) on an empty store: %v", r, err)
		}
	}
}

func testClosed(t *testing.T, h *harness) {
	if err := h.s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	ctx := t.Context()
	s := h.s
	calls := []struct {
		name string
		call func() error
	}{
		{"AppendDecision durable", func() error { return s.AppendDecision(ctx, decision(t0), true) }},
		{"AppendDecision", func() error { return s.AppendDecision(ctx, decision(t0), false) }},
		{"AppendExecution", func() error { return s.AppendExecution(ctx, execution(t0)) }},
		{"SetBalance", func() error { return s.SetBalance(ctx, 1, t0) }},
		{"RecordPolicy", func() error { return s.RecordPolicy(ctx, "ab", []byte("x")) }},
		{"QueryDecisions", func() error { _, err := s.QueryDecisions(ctx, store.DecisionFilter{}); return err }},
		{"DecisionReport", func() error {
			_, err := s.DecisionReport(ctx, store.MostDeniedTools, store.DecisionFilter{})
			return err
		}},
		{"Executions", func() error { _, err := s.Executions(ctx, time.Time{}); return err }},
		{"Balance", func() error { _, _, _, err := s.Balance(ctx); return err }},
		{"Policy", func() error { _, err := s.Policy(ctx, "ab"); return err }},
		{"CreatePermit", func() error { return s.CreatePermit(ctx, permit(t0)) }},
		{"Permit", func() error { _, err := s.Permit(ctx, id.New(t0)); return err }},
		{"ConsumePermit", func() error {
			p := permit(t0)
			_, err := s.ConsumePermit(ctx, p.ID, checkFor(p, t0))
			return err
		}},
		{"CancelPermit", func() error { return s.CancelPermit(ctx, id.New(t0), "owner", t0) }},
		{"PendingPermits", func() error { _, err := s.PendingPermits(ctx, t0, 0); return err }},
		{"JournalTx", func() error { return s.JournalTx(ctx, sentTx(1, "p", 0, 1)) }},
		{"SettleTx", func() error { return s.SettleTx(ctx, 1, sentTx(1, "p", 0, 1).Hash, store.SentMined, 1, t0) }},
		{"OpenTxs", func() error { _, _, err := s.OpenTxs(ctx, 1, sentFrom); return err }},
		{"SetHalt", func() error { return s.SetHalt(ctx, true, "on", "x", t0, action(t0, store.ActionHalt, "")) }},
		{"GateControl", func() error { _, err := s.GateControl(ctx); return err }},
		{"AppendAction", func() error { return s.AppendAction(ctx, action(t0, store.ActionHalt, "")) }},
		{"Actions", func() error { _, err := s.Actions(ctx, store.ActionFilter{}); return err }},
	}
	for _, c := range calls {
		if err := c.call(); !errors.Is(err, store.ErrClosed) {
			t.Errorf("%s after Close: error = %v, want %v", c.name, err, store.ErrClosed)
		}
	}
}

func testInvalid(t *testing.T, h *harness) {
	tests := []struct {
		name string
		edit func(r *store.DecisionRecord)
	}{
		{"empty id", func(r *store.DecisionRecord) { r.ID = "" }},
		{"zero time", func(r *store.DecisionRecord) { r.Time = time.Time{} }},
		{"no decision", func(r *store.DecisionRecord) { r.Decision = 0 }},
		{"unknown decision", func(r *store.DecisionRecord) { r.Decision = 200 }},
		{"no origin", func(r *store.DecisionRecord) { r.Origin = 0 }},
		{"unknown origin", func(r *store.DecisionRecord) { r.Origin = 9 }},
		{"empty risk", func(r *store.DecisionRecord) { r.Risk = "" }},
		{"unknown risk", func(r *store.DecisionRecord) { r.Risk = "extreme" }},
		{"rules evaluated not JSON", func(r *store.DecisionRecord) { r.RulesEvaluated = "spend.hourly" }},
		{"rules triggered not an array", func(r *store.DecisionRecord) { r.RulesTriggered = `{"rule":"spend.hourly"}` }},
		{"rules evaluated truncated", func(r *store.DecisionRecord) { r.RulesEvaluated = `["authority.tool","spend.hourly"` }},
		{"rules triggered with trailing data", func(r *store.DecisionRecord) { r.RulesTriggered = `["spend.hourly"]]` }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, durable := range []bool{true, false} {
				r := decision(t0)
				tt.edit(r)
				if err := h.s.AppendDecision(t.Context(), r, durable); err == nil {
					t.Errorf("AppendDecision(durable=%v) accepted an invalid record", durable)
				}
			}
		})
	}
	valid := decision(t0.Add(time.Hour))
	h.append(valid)
	h.reopen()
	if got := ids(h.query(store.DecisionFilter{})); !slices.Equal(got, []string{valid.ID}) {
		t.Errorf("records after invalid appends: %v, want only the valid %s", got, valid.ID)
	}
}

func testCancelled(t *testing.T, h *harness) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	r := decision(t0)
	if err := h.s.AppendDecision(ctx, r, true); err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("AppendDecision with a cancelled ctx: %v, want nil or %v", err, context.Canceled)
	}
	e := execution(t0)
	if err := h.s.AppendExecution(ctx, e); err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("AppendExecution with a cancelled ctx: %v, want nil or %v", err, context.Canceled)
	}
	h.reopen()
	if got := ids(h.query(store.DecisionFilter{})); !slices.Equal(got, []string{r.ID}) {
		t.Errorf("decisions after reopen: %v, want [%s]", got, r.ID)
	}
	ex, err := h.s.Executions(t.Context(), time.Time{})
	if err != nil {
		t.Fatalf("Executions: %v", err)
	}
	if len(ex) != 1 || ex[0].ID != e.ID {
		t.Errorf("executions after reopen: %v, want [%s]", ex, e.ID)
	}
}

func testConcurrent(t *testing.T, h *harness) {
	const workers, each = 16, 500
	all := make([][]string, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				r := decision(time.Now())
				r.SessionID = fmt.Sprintf("worker-%d", w)
				if err := h.s.AppendDecision(t.Context(), r, (w+i)%2 == 0); err != nil {
					t.Errorf("worker %d: AppendDecision: %v", w, err)
					return
				}
				all[w] = append(all[w], r.ID)
			}
		})
	}
	wg.Wait()
	h.reopen()
	got := ids(h.query(store.DecisionFilter{}))
	want := slices.Concat(all...)
	slices.Sort(want)
	slices.Sort(got)
	if len(got) != workers*each {
		t.Errorf("%d records after reopen, want %d", len(got), workers*each)
	}
	if n := len(got) - len(slices.Compact(slices.Clone(got))); n > 0 {
		t.Errorf("%d duplicate records", n)
	}
	if !slices.Equal(got, want) {
		t.Errorf("the records read back are not the ones appended")
	}
}

func execution(t time.Time) *store.ExecutionRecord {
	return &store.ExecutionRecord{
		ID:            id.New(t),
		Time:          t,
		Tool:          "wallet_send_token",
		Category:      "wallet",
		SessionID:     "sess-a",
		TurnID:        "turn-7",
		DecisionID:    id.New(t),
		SpendCategory: "transfer",
		SpendCents:    250,
	}
}

func testExecutions(t *testing.T, h *harness) {
	var recs []*store.ExecutionRecord
	for i := range 5 {
		r := execution(t0.Add(time.Duration(i)*time.Second + 3*time.Microsecond))
		r.SpendCents = int64(100 * i)
		if i == 1 {
			r.SpendCategory, r.SpendCents, r.Category, r.DecisionID = "", 0, "", ""
		}
		recs = append(recs, r)
	}
	for _, i := range []int{3, 0, 4, 1, 2} {
		if err := h.s.AppendExecution(t.Context(), recs[i]); err != nil {
			t.Fatalf("AppendExecution: %v", err)
		}
	}
	h.reopen()
	tests := []struct {
		name  string
		since time.Time
		want  []*store.ExecutionRecord
	}{
		{"all", time.Time{}, recs},
		{"since is inclusive", recs[2].Time, recs[2:]},
		{"since after one", recs[2].Time.Add(time.Microsecond), recs[3:]},
		{"since after all", recs[4].Time.Add(time.Second), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := h.s.Executions(t.Context(), tt.since)
			if err != nil {
				t.Fatalf("Executions: %v", err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("Executions(%v) returned %d records, want %d", tt.since, len(got), len(tt.want))
			}
			for i, g := range got {
				w := *tt.want[i]
				if g.Time.Location() != time.UTC || g.Time.Sub(w.Time).Abs() >= time.Microsecond {
					t.Errorf("record %d: time %v, want %v in UTC", i, g.Time, w.Time)
				}
				g.Time, w.Time = time.Time{}, time.Time{}
				if g != w {
					t.Errorf("record %d:\n got %+v\nwant %+v", i, g, w)
				}
			}
		})
	}
}

func testBalance(t *testing.T, h *harness) {
	ctx := t.Context()
	if _, _, ok, err := h.s.Balance(ctx); err != nil || ok {
		t.Fatalf("Balance on an empty store: ok=%v err=%v, want ok=false", ok, err)
	}
	t1, t2 := t0, t0.Add(time.Minute+7*time.Microsecond)
	if err := h.s.SetBalance(ctx, 1_000_00, t1); err != nil {
		t.Fatalf("SetBalance: %v", err)
	}
	if err := h.s.SetBalance(ctx, 987_65, t2); err != nil {
		t.Fatalf("SetBalance: %v", err)
	}
	check := func() {
		cents, at, ok, err := h.s.Balance(ctx)
		if err != nil || !ok || cents != 987_65 || !at.Equal(t2) || at.Location() != time.UTC {
			t.Errorf("Balance = %d, %v, %v, %v; want 98765, %v, true, nil", cents, at, ok, err, t2)
		}
	}
	check()
	h.reopen()
	check()
}

func testPolicies(t *testing.T, h *harness) {
	ctx := t.Context()
	const hash = "5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8"
	src := []byte("[[rule]]\nid = \"spend.hourly\"\n\x00\xff binary survives\n")
	for i := range 2 {
		if err := h.s.RecordPolicy(ctx, hash, src); err != nil {
			t.Fatalf("RecordPolicy #%d: %v", i+1, err)
		}
	}
	check := func() {
		got, err := h.s.Policy(ctx, hash)
		if err != nil || string(got) != string(src) {
			t.Errorf("Policy(%s) = %q, %v; want %q", hash, got, err, src)
		}
		if _, err := h.s.Policy(ctx, "0000"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("Policy(unknown) error = %v, want %v", err, store.ErrNotFound)
		}
	}
	check()
	h.reopen()
	check()
}

func testCloseTwice(t *testing.T, h *harness) {
	r := decision(t0)
	if err := h.s.AppendDecision(t.Context(), r, false); err != nil {
		t.Fatalf("AppendDecision: %v", err)
	}
	if err := h.s.Close(); err != nil {
		t.Fatalf("first Close: %v", err)
	}
	if err := h.s.Close(); err != nil && !errors.Is(err, store.ErrClosed) {
		t.Errorf("second Close: %v, want nil or %v", err, store.ErrClosed)
	}
	h.s = h.mustOpen()
	if got := ids(h.query(store.DecisionFilter{})); !slices.Equal(got, []string{r.ID}) {
		t.Errorf("after Close and reopen: %v, want [%s]", got, r.ID)
	}
}
