package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/store/postgres"
	"github.com/wardhq/ward/internal/store/postgres/pgtest"
	"github.com/wardhq/ward/internal/store/storetest"
	"github.com/wardhq/ward/internal/tool"
)

// These tests open several stores on one database: separate pools, so
// separate sessions, as separate ward instances would have.

var t0 = time.Date(2026, 3, 14, 15, 9, 26, 535897000, time.UTC)

// instances opens n stores on one fresh database.
func instances(t testing.TB, n int) (string, []*postgres.Store) {
	t.Helper()
	url := pgtest.NewDatabase(t)
	out := make([]*postgres.Store, n)
	for i := range out {
		s, err := postgres.Open(t.Context(), postgres.Config{URL: url})
		if err != nil {
			t.Fatalf("open instance %d: %v", i, err)
		}
		t.Cleanup(func() {
			if err := s.Close(); err != nil {
				t.Errorf("close instance %d: %v", i, err)
			}
		})
		out[i] = s
	}
	return url, out
}

func testPermit(t time.Time) *store.Permit {
	return &store.Permit{
		ID: id.New(t), CreatedAt: t, ExpiresAt: t.Add(time.Hour), SessionID: "sess-a", Tool: "wallet_swap",
		ArgsHash:   "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		PolicyHash: "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae",
		Phase:      "thriving", ValueCents: 100,
		Plan:   &tool.Plan{Chain: 8453, From: tool.Address{0xaa}, Txs: []tool.Tx{{To: tool.Address{0x02}, Value: big.NewInt(0)}}},
		Status: store.PermitPending,
	}
}

// Of 1,000 consumers of one permit, spread over three instances, exactly
// one wins and every other is told the permit is consumed.
func TestConsumePermitAcrossInstances(t *testing.T) {
	_, st := instances(t, 3)
	p := testPermit(t0)
	if err := st[0].CreatePermit(t.Context(), p); err != nil {
		t.Fatal(err)
	}
	const n = 1000
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		winners []string
		lost    int
	)
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			c := store.PermitCheck{Now: t0.Add(time.Minute), Tool: p.Tool, ArgsHash: p.ArgsHash, PolicyHash: p.PolicyHash,
				Phase: p.Phase, SessionID: p.SessionID, By: fmt.Sprintf("instance-%d/worker-%d", i%3, i)}
			_, err := st[i%3].ConsumePermit(t.Context(), p.ID, c)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				winners = append(winners, c.By)
			case errors.Is(err, store.ErrPermitConsumed):
				lost++
			default:
				t.Errorf("%s: ConsumePermit: %v", c.By, err)
			}
		})
	}
	close(start)
	wg.Wait()
	if len(winners) != 1 || lost != n-1 {
		t.Fatalf("%d successes (first %v) and %d ErrPermitConsumed, want 1 and %d", len(winners), winners[:min(len(winners), 3)], lost, n-1)
	}
	for i, s := range st {
		got, err := s.Permit(t.Context(), p.ID)
		if err != nil || got.Status != store.PermitConsumed || got.ClosedBy != winners[0] {
			t.Errorf("instance %d reads the permit as %s closed by %q (%v), want consumed by %q", i, got.Status, got.ClosedBy, err, winners[0])
		}
	}
}

// A cancel and consumes racing over instances: exactly one of them
// closes the permit.
func TestCancelRacesConsumeAcrossInstances(t *testing.T) {
	_, st := instances(t, 3)
	for round := range 20 {
		p := testPermit(t0.Add(time.Duration(round) * time.Second))
		if err := st[0].CreatePermit(t.Context(), p); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make([]error, 6)
		for i := range errs {
			wg.Go(func() {
				if i == 0 {
					errs[i] = st[1].CancelPermit(t.Context(), p.ID, "owner", t0.Add(time.Minute))
					return
				}
				c := store.PermitCheck{Now: t0.Add(time.Minute), Tool: p.Tool, ArgsHash: p.ArgsHash, PolicyHash: p.PolicyHash, Phase: p.Phase, By: "s"}
				_, errs[i] = st[i%3].ConsumePermit(t.Context(), p.ID, c)
			})
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case !errors.Is(err, store.ErrPermitNotPending):
				t.Errorf("round %d: %v, want success or not pending", round, err)
			}
		}
		if won != 1 {
			t.Errorf("round %d: %d of a cancel and 5 consumes succeeded, want 1: %v", round, won, errs)
		}
	}
}

// Three instances append 300 trust records at once: one chain of 300,
// each record told its own seq, and VerifyTrust finds it intact.
func TestTrustChainAcrossInstances(t *testing.T) {
	_, st := instances(t, 3)
	const n = 300
	base := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	recs := make([]*store.TrustRecord, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		recs[i] = &store.TrustRecord{ID: id.New(base), Time: base.Add(time.Duration(i)), Kind: store.TrustTaintAssigned,
			SessionID: fmt.Sprintf("sess-%d", i), Actor: fmt.Sprintf("instance-%d", i%3), Target: "t", Detail: []byte(`{"i":1}`)}
		wg.Go(func() { errs[i] = st[i%3].AppendTrust(t.Context(), recs[i]) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	got, err := st[1].TrustRecords(t.Context(), 1, 0)
	if err != nil || len(got) != n {
		t.Fatalf("TrustRecords: %d rows, %v; want %d", len(got), err, n)
	}
	seen := map[int64]string{}
	for _, r := range recs {
		if prev, dup := seen[r.Seq]; dup || r.Seq < 1 || r.Seq > n {
			t.Fatalf("record %s got seq %d (also given to %q)", r.ID, r.Seq, prev)
		}
		seen[r.Seq] = r.ID
		if g := got[r.Seq-1]; g.ID != r.ID || g.Hash != r.Hash || g.Prev != r.Prev {
			t.Errorf("row %d is %s, want %s with the hash its appender was told", r.Seq, g.ID, r.ID)
		}
	}
	for i, s := range st {
		v, err := s.VerifyTrust(t.Context())
		if err != nil || !v.OK || v.Rows != n {
			t.Errorf("instance %d: VerifyTrust = %+v, %v; want ok with %d rows", i, v, err, n)
		}
	}
}

// VerifyTrust names the first row whose stored contents were changed
// behind ward's back, and the database refuses changes and gaps.
func TestTrustTamper(t *testing.T) {
	url, st := instances(t, 1)
	base := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	for i := range 5 {
		r := &store.TrustRecord{ID: id.New(base), Time: base.Add(time.Duration(i)), Kind: store.TrustPromotion, Target: "x"}
		if err := st[0].AppendTrust(t.Context(), r); err != nil {
			t.Fatal(err)
		}
	}
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	for _, q := range []string{
		`UPDATE trust_log SET target = 'y' WHERE seq = 3`,
		`DELETE FROM trust_log WHERE seq = 5`,
		`INSERT INTO trust_log (seq, id, time_ns, kind, session_id, actor, target, prev, hash) VALUES (7, 'x', 1, 'promotion', '', '', '', '\x00', '\x00')`,
	} {
		if _, err := conn.Exec(t.Context(), q); err == nil {
			t.Errorf("%s: accepted", q)
		}
	}
	// A tamperer who owns the database can drop the guard; VerifyTrust
	// still finds the change.
	if _, err := conn.Exec(t.Context(), `ALTER TABLE trust_log DISABLE TRIGGER trust_log_guard; UPDATE trust_log SET target = 'y' WHERE seq = 3`); err != nil {
		t.Fatal(err)
	}
	v, err := st[0].VerifyTrust(t.Context())
	if err != nil || v.OK || v.FirstBad != 3 {
		t.Errorf("VerifyTrust after row 3 changed = %+v, %v; want row 3 named", v, err)
	}
}

// Five instances starting together on a fresh database all open it, and
// each migration is applied once.
func TestOpenRace(t *testing.T) {
	url := pgtest.NewDatabase(t)
	const n = 5
	errs := make([]error, n)
	stores := make([]*postgres.Store, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			stores[i], errs[i] = postgres.Open(t.Context(), postgres.Config{URL: url, MaxConns: 2})
		})
	}
	close(start)
	wg.Wait()
	for i, s := range stores {
		if errs[i] != nil {
			t.Errorf("open %d: %v", i, errs[i])
			continue
		}
		defer s.Close()
	}
	if t.Failed() {
		return
	}
	rows, err := stores[0].Pool().Query(t.Context(), `SELECT version, count(*) FROM schema_migrations GROUP BY version ORDER BY version`)
	if err != nil {
		t.Fatal(err)
	}
	type vc struct{ V, N int }
	got, err := pgx.CollectRows(rows, pgx.RowToStructByPos[vc])
	if err != nil {
		t.Fatal(err)
	}
	var want []vc
	for v := 1; v <= postgres.SchemaVersion(); v++ {
		want = append(want, vc{v, 1})
	}
	if !slices.Equal(got, want) {
		t.Errorf("schema_migrations (version, rows) = %v, want %v", got, want)
	}
}

// A database a newer ward migrated is refused, and left as it was.
func TestSchemaTooNew(t *testing.T) {
	url, st := instances(t, 1)
	newer := postgres.SchemaVersion() + 1
	if _, err := st[0].Pool().Exec(t.Context(), `INSERT INTO schema_migrations (version) VALUES ($1)`, newer); err != nil {
		t.Fatal(err)
	}
	s, err := postgres.Open(t.Context(), postgres.Config{URL: url})
	if !errors.Is(err, store.ErrSchemaTooNew) {
		if s != nil {
			s.Close()
		}
		t.Fatalf("Open of a database at version %d: %v, want %v", newer, err, store.ErrSchemaTooNew)
	}
	var n int
	if err := st[0].Pool().QueryRow(t.Context(), `SELECT count(*) FROM schema_migrations WHERE version = $1`, newer).Scan(&n); err != nil || n != 1 {
		t.Errorf("the newer version's row: %d, %v", n, err)
	}
}

// A durable decision is in the database when AppendDecision returns:
// another instance reads it at once.
func TestDurableDecisionSeenByOtherInstance(t *testing.T) {
	_, st := instances(t, 2)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 25 {
				r := storetest.BenchDecision(i)
				r.TurnID = fmt.Sprintf("w%d-%d", w, i)
				if err := st[0].AppendDecision(t.Context(), r, true); err != nil {
					t.Error(err)
					return
				}
				got, err := st[1].QueryDecisions(t.Context(), store.DecisionFilter{TurnID: r.TurnID})
				if err != nil || len(got) != 1 || got[0].ID != r.ID {
					t.Errorf("the other instance read %v, %v right after the append of %s", got, err, r.ID)
					return
				}
			}
		})
	}
	wg.Wait()
}

// A batch holding a record the database refuses (a duplicate id) fails
// only that record: the others in the batch are written.
func TestRefusedRecordFailsAlone(t *testing.T) {
	_, st := instances(t, 1)
	dup := storetest.BenchDecision(0)
	if err := st[0].AppendDecision(t.Context(), dup, true); err != nil {
		t.Fatal(err)
	}
	const n = 64
	errs := make([]error, n)
	recs := make([]*store.DecisionRecord, n)
	var wg sync.WaitGroup
	for i := range n {
		recs[i] = storetest.BenchDecision(i)
		if i == n/2 {
			c := *dup
			recs[i] = &c
		}
		wg.Go(func() { errs[i] = st[0].AppendDecision(t.Context(), recs[i], true) })
	}
	wg.Wait()
	for i, err := range errs {
		if (err != nil) != (i == n/2) {
			t.Errorf("append %d: %v (the duplicate is %d)", i, err, n/2)
		}
	}
	if c, err := st[0].CountDecisions(t.Context(), store.DecisionFilter{}); err != nil || c != n {
		t.Errorf("%d decisions stored, %v; want %d", c, err, n)
	}
}

// Text PostgreSQL cannot store is refused before it is queued, as an
// invalid record, and nothing is written.
func TestDecisionUnstorableText(t *testing.T) {
	_, st := instances(t, 1)
	for name, edit := range map[string]func(r *store.DecisionRecord){
		"NUL in message":        func(r *store.DecisionRecord) { r.Message = "a\x00b" },
		"invalid UTF-8 in tool": func(r *store.DecisionRecord) { r.Tool = "\xff" },
		"escaped NUL in rules":  func(r *store.DecisionRecord) { r.RulesTriggered = `["\u0000"]` },
	} {
		for _, durable := range []bool{true, false} {
			r := storetest.BenchDecision(0)
			edit(r)
			if err := st[0].AppendDecision(t.Context(), r, durable); !errors.Is(err, store.ErrInvalidRecord) {
				t.Errorf("%s (durable=%v): %v, want %v", name, durable, err, store.ErrInvalidRecord)
			}
		}
	}
	if err := st[0].AppendDecision(t.Context(), storetest.BenchDecision(1), true); err != nil {
		t.Fatal(err)
	}
	if c, err := st[0].CountDecisions(t.Context(), store.DecisionFilter{}); err != nil || c != 1 {
		t.Errorf("%d decisions stored, %v; want only the valid one", c, err)
	}
}

// Of goroutines on three instances journaling one nonce of one wallet,
// exactly one is kept.
func TestSentNonceAcrossInstances(t *testing.T) {
	_, st := instances(t, 3)
	const n = 30
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := 0
	for i := range n {
		wg.Go(func() {
			tx := &store.SentTx{ChainID: 1, From: "0x00000000000000000000000000000000000000a1", Nonce: 7,
				Hash: fmt.Sprintf("0x%064x", 0x7000+i), Raw: []byte{2, 7}, PermitID: fmt.Sprintf("permit-%d", i), PlanLen: 1, Created: t0}
			if err := st[i%3].JournalTx(t.Context(), tx); err == nil {
				mu.Lock()
				wins++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if wins != 1 {
		t.Errorf("%d of %d journaled nonce 7, want exactly 1", wins, n)
	}
	open, next, err := st[2].OpenTxs(t.Context(), 1, "0x00000000000000000000000000000000000000a1")
	if err != nil || len(open) != 1 || next != 8 {
		t.Errorf("OpenTxs = %d open, next %d, %v; want 1 open, next 8", len(open), next, err)
	}
}

// A control change notifies every instance on commit; a refused one
// notifies nobody.
func TestControlNotifies(t *testing.T) {
	url, st := instances(t, 1)
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(t.Context(), `LISTEN ward_changes`); err != nil {
		t.Fatal(err)
	}
	next := func() string {
		t.Helper()
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			t.Fatalf("waiting for a notification: %v", err)
		}
		return n.Payload
	}
	rec := func(kind store.ActionKind) *store.ActionRecord {
		return &store.ActionRecord{ID: id.New(t0), Time: t0, Kind: kind}
	}
	if err := st[0].SetHalt(t.Context(), true, "drawdown", "owner", t0, rec(store.ActionHalt)); err != nil {
		t.Fatal(err)
	}
	if got := next(); got != "3:" {
		t.Errorf("after SetHalt: notification %q, want %q (control)", got, "3:")
	}
	bad := rec(store.ActionPhaseChanged)
	bad.Kind = 0
	if err := st[0].SetPhase(t.Context(), "stable", "owner", t0, bad); err == nil {
		t.Fatal("SetPhase with an invalid record was accepted")
	}
	if err := st[0].SetPhase(t.Context(), "panic", "owner", t0, rec(store.ActionPhaseChanged)); err == nil {
		t.Fatal("SetPhase to an unknown phase was accepted")
	}
	if _, err := st[0].Pool().Exec(t.Context(), `SELECT pg_notify('ward_changes', 'marker')`); err != nil {
		t.Fatal(err)
	}
	if got := next(); got != "marker" {
		t.Errorf("a refused change notified %q", got)
	}
	if err := st[0].SetPhase(t.Context(), "stable", "owner", t0, rec(store.ActionPhaseChanged)); err != nil {
		t.Fatal(err)
	}
	if got := next(); got != "3:" {
		t.Errorf("after SetPhase: notification %q, want %q", got, "3:")
	}
}

// BenchmarkAppendDecisionDurable: durable appends from many goroutines
// (16 per core) on one instance and spread over three, group-committed;
// reports rows/s and the append latency's p50, p99 and max.
func BenchmarkAppendDecisionDurable(b *testing.B) {
	for _, n := range []int{1, 3} {
		b.Run(fmt.Sprintf("instances=%d", n), func(b *testing.B) {
			_, st := instances(b, n)
			b.SetParallelism(16)
			var (
				mu sync.Mutex
				k  int
			)
			storetest.AppendParallel(b, func() storetest.DecisionAppender {
				mu.Lock()
				defer mu.Unlock()
				k++
				return st[(k-1)%n]
			})
			b.ReportMetric(float64(runtime.GOMAXPROCS(0)*16), "appenders")
		})
	}
}

// Close racing appends: every append that returned nil is in the
// database, every other one failed with ErrClosed, and nothing was
// dropped.
func TestCloseWhileAppending(t *testing.T) {
	url := pgtest.NewDatabase(t)
	s, err := postgres.Open(t.Context(), postgres.Config{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	const workers = 32
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		accepted []string
	)
	started := make(chan struct{}, workers)
	for w := range workers {
		wg.Go(func() {
			for i := 0; ; i++ {
				r := storetest.BenchDecision(i)
				err := s.AppendDecision(t.Context(), r, (w+i)%2 == 0)
				if i == 10 {
					started <- struct{}{}
				}
				switch {
				case err == nil:
					mu.Lock()
					accepted = append(accepted, r.ID)
					mu.Unlock()
				case errors.Is(err, store.ErrClosed):
					return
				default:
					t.Errorf("AppendDecision: %v", err)
					return
				}
			}
		})
	}
	for range workers {
		<-started
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if n := s.DroppedRecords(); n != 0 {
		t.Errorf("%d records dropped", n)
	}
	r, err := postgres.Open(t.Context(), postgres.Config{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, err := r.QueryDecisions(t.Context(), store.DecisionFilter{})
	if err != nil {
		t.Fatal(err)
	}
	stored := make(map[string]bool, len(got))
	for _, d := range got {
		stored[d.ID] = true
	}
	missing := 0
	for _, id := range accepted {
		if !stored[id] {
			missing++
		}
	}
	if missing > 0 || len(got) != len(accepted) {
		t.Errorf("%d of %d accepted records missing; %d stored", missing, len(accepted), len(got))
	}
}

// A rule list is any JSON array: the rules report counts its non-string
// elements by their text (null as "") rather than failing.
func TestReportOddRuleLists(t *testing.T) {
	_, st := instances(t, 1)
	for i, rules := range []string{`["a", 1, null]`, `["a"]`, `[]`} {
		r := storetest.BenchDecision(i)
		r.RulesTriggered = rules
		if err := st[0].AppendDecision(t.Context(), r, true); err != nil {
			t.Fatal(err)
		}
	}
	got, err := st[0].DecisionReport(t.Context(), store.MostTriggeredRules, store.DecisionFilter{})
	want := []store.ReportRow{{Key: "a", Count: 2}, {Key: "", Count: 1}, {Key: "1", Count: 1}}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("DecisionReport = %v, %v; want %v", got, err, want)
	}
}
