package postgres_test

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/hook/windowstest"
	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
	"github.com/wardhq/ward/internal/trust"
)

// TestInstancesSpendCap: 50 writes worth $0.10 each, reserved and begun
// concurrently through three instances under a $2 day, admit exactly 20,
// and the spend recorded across the database is $2.
func TestInstancesSpendCap(t *testing.T) {
	_, stores := instances(t, 3)
	var admitted atomic.Int64
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range 50 {
		lim, err := hook.NewLimits(hook.SpendingConfig{PerTickCents: hook.Unlimited, PerSessionCents: hook.Unlimited, DailyCents: 200},
			hook.RateConfig{Max: 1 << 20, Window: time.Hour}, stores[i%3])
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			<-start
			c := windowstest.Call(fmt.Sprint("s", i), 1, windowstest.Now, 10)
			key := fmt.Sprint("permit-", i)
			if v := lim.Reserve(t.Context(), c, key, time.Hour); v.Veto {
				return
			}
			if began, v := lim.Begin(t.Context(), c, key, 10); !began {
				t.Errorf("write %d held but not begun: %+v", i, v)
				return
			}
			admitted.Add(1)
		})
	}
	close(start)
	wg.Wait()
	if n := admitted.Load(); n != 20 {
		t.Errorf("%d writes of 10 admitted across three instances under a day of 200, want 20", n)
	}
	for i, s := range stores {
		got, err := s.Totals(t.Context(), hook.WindowQuery{Session: "x", Now: windowstest.Now, RateWindow: time.Hour})
		if err != nil || got.Day != 200 || got.DayHeld != 0 || got.Writes != 20 {
			t.Errorf("instance %d sees %+v, %v; want 200 spent in 20 writes, nothing held", i, got, err)
		}
	}
	var total int64
	if err := stores[0].Pool().QueryRow(t.Context(), `SELECT coalesce(sum(cents), 0) FROM spend_ledger`).Scan(&total); err != nil || total > 200 {
		t.Errorf("recorded spend %d, %v; want at most 200", total, err)
	}
}

// TestInstancesOpenSession: concurrent opens of one name through three
// instances make one session; a principal's limit holds across them.
func TestInstancesOpenSession(t *testing.T) {
	_, stores := instances(t, 3)
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	lim := store.SessionLimits{MaxPerPrincipal: 5, IdleTTL: time.Hour, KeepTTL: time.Hour}
	var wg sync.WaitGroup
	ids := make([]string, 30)
	for i := range ids {
		wg.Go(func() {
			rec := &store.SessionRecord{ID: id.Opaque(t0), PrincipalID: "p", Name: "same", Created: t0}
			r, _, err := stores[i%3].OpenSession(t.Context(), rec, lim, false, t0)
			if err != nil {
				t.Error(err)
			}
			ids[i] = r.ID
		})
	}
	wg.Wait()
	for _, x := range ids {
		if x != ids[0] {
			t.Fatalf("concurrent opens through three instances gave sessions %v", ids)
		}
	}
	var ok, refused atomic.Int64
	for i := range 30 {
		wg.Go(func() {
			rec := &store.SessionRecord{ID: id.Opaque(t0), PrincipalID: "p", Name: fmt.Sprint("n", i), Created: t0}
			_, _, err := stores[i%3].OpenSession(t.Context(), rec, lim, false, t0)
			switch {
			case err == nil:
				ok.Add(1)
			case errors.Is(err, store.ErrSessionLimit):
				refused.Add(1)
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 4 || refused.Load() != 26 {
		t.Errorf("%d new sessions made and %d refused across three instances with room for 4, want 4 and 26", ok.Load(), refused.Load())
	}
	for i, s := range stores {
		if list, err := s.ListSessions(t.Context(), store.SessionFilter{PrincipalID: "p"}); err != nil || len(list) != 5 {
			t.Errorf("instance %d lists %d sessions of p, %v; want 5", i, len(list), err)
		}
	}
}

// TestInstancesRevocation: a token revoked through one instance is refused
// by the lookup of another.
func TestInstancesRevocation(t *testing.T) {
	_, stores := instances(t, 3)
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	p := &store.PrincipalRecord{ID: id.Opaque(t0), Name: "bot", Role: "agent", TokenHash: sha256.Sum256([]byte("bot token")), Created: t0}
	if err := stores[0].CreatePrincipal(t.Context(), p); err != nil {
		t.Fatal(err)
	}
	for i, s := range stores {
		if got, err := s.PrincipalByToken(t.Context(), p.TokenHash); err != nil || !got.Live(t0) {
			t.Fatalf("instance %d before the revocation: %+v, %v; want live", i, got, err)
		}
	}
	at := t0.Add(time.Minute)
	if err := stores[1].RevokePrincipal(t.Context(), p.ID, at); err != nil {
		t.Fatal(err)
	}
	for i, s := range stores {
		if got, err := s.PrincipalByToken(t.Context(), p.TokenHash); err != nil || got.Live(at) || !got.Revoked.Equal(at) {
			t.Errorf("instance %d after the revocation through instance 1: %+v, %v; want revoked at %v", i, got, err, at)
		}
	}
	// Of concurrent revocations through every instance, one wins.
	q := &store.PrincipalRecord{ID: id.Opaque(t0), Name: "bot2", Role: "agent", TokenHash: sha256.Sum256([]byte("bot2 token")), Created: t0}
	if err := stores[2].CreatePrincipal(t.Context(), q); err != nil {
		t.Fatal(err)
	}
	var wins atomic.Int64
	var wg sync.WaitGroup
	for i := range 30 {
		wg.Go(func() {
			err := stores[i%3].RevokePrincipal(t.Context(), q.ID, at.Add(time.Duration(i)))
			switch {
			case err == nil:
				wins.Add(1)
			case !errors.Is(err, store.ErrPrincipalRevoked):
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if wins.Load() != 1 {
		t.Errorf("%d of 30 concurrent revocations won, want 1", wins.Load())
	}
}

// TestInstancesWatch: a session's level changed and a token revoked
// through one instance reach a watcher on another within a second, after
// the ChangeAll every watch starts with; a rolled back change never does.
func TestInstancesWatch(t *testing.T) {
	_, stores := instances(t, 2)
	ch, err := stores[1].Watch(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	next := func(what string) store.Change {
		t.Helper()
		select {
		case c, ok := <-ch:
			if !ok {
				t.Fatalf("%s: the watch ended", what)
			}
			return c
		case <-time.After(time.Second):
			t.Fatalf("%s: nothing within a second", what)
		}
		return store.Change{}
	}
	if c := next("first"); c != (store.Change{}) {
		t.Fatalf("first change %+v, want ChangeAll", c)
	}
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	sess, _, err := stores[0].OpenSession(t.Context(), &store.SessionRecord{ID: id.Opaque(t0), PrincipalID: "p", Name: "w", Created: t0},
		store.SessionLimits{}, false, t0)
	if err != nil {
		t.Fatal(err)
	}
	if c := next("open"); c != (store.Change{Kind: store.ChangeSession, ID: sess.ID}) {
		t.Errorf("after an open: %+v", c)
	}
	// A refused level change commits nothing and notifies nothing.
	if err := stores[0].SetSessionLevel(t.Context(), sess.ID, store.LevelChange{To: trust.Review, From: []trust.Level{trust.Tainted}, At: t0}); !errors.Is(err, store.ErrLevelChange) {
		t.Fatalf("refused level change: %v", err)
	}
	if err := stores[0].SetSessionLevel(t.Context(), sess.ID, store.LevelChange{To: trust.Tainted, From: []trust.Level{trust.Clean}, At: t0}); err != nil {
		t.Fatal(err)
	}
	if c := next("taint"); c != (store.Change{Kind: store.ChangeSession, ID: sess.ID}) {
		t.Errorf("after a taint: %+v, want the session", c)
	}
	if c := next("taint"); c != (store.Change{Kind: store.ChangePrincipal, ID: "p"}) {
		t.Errorf("after a taint: %+v, want its principal", c)
	}
	if got, err := stores[1].Session(t.Context(), sess.ID); err != nil || got.Level != trust.Tainted {
		t.Errorf("the other instance reads %+v, %v; want tainted", got, err)
	}
	p := &store.PrincipalRecord{ID: id.Opaque(t0), Name: "bot", Role: "agent", TokenHash: sha256.Sum256([]byte("bot")), Created: t0}
	if err := stores[0].CreatePrincipal(t.Context(), p); err != nil {
		t.Fatal(err)
	}
	if c := next("create"); c != (store.Change{Kind: store.ChangePrincipal, ID: p.ID}) {
		t.Errorf("after a creation: %+v", c)
	}
	if err := stores[0].RevokePrincipal(t.Context(), p.ID, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if c := next("revoke"); c != (store.Change{Kind: store.ChangePrincipal, ID: p.ID}) {
		t.Errorf("after a revocation: %+v", c)
	}
	select {
	case c := <-ch:
		t.Errorf("an extra change %+v", c)
	default:
	}
}

// TestWatchReconnect: a watcher whose connection is killed says so with a
// ChangeAll once it is back, and then delivers changes again; closing the
// store ends the watch.
func TestWatchReconnect(t *testing.T) {
	_, stores := instances(t, 2)
	ch, err := stores[1].Watch(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if c := <-ch; c != (store.Change{}) {
		t.Fatalf("first change %+v, want ChangeAll", c)
	}
	if _, err := stores[0].Pool().Exec(t.Context(), `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN ward_changes'`); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-ch:
		if c != (store.Change{}) {
			t.Fatalf("after the connection was killed: %+v, want ChangeAll", c)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no ChangeAll after the connection was killed")
	}
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	p := &store.PrincipalRecord{ID: id.Opaque(t0), Name: "bot", Role: "agent", TokenHash: sha256.Sum256([]byte("bot")), Created: t0}
	if err := stores[0].CreatePrincipal(t.Context(), p); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-ch:
		if c != (store.Change{Kind: store.ChangePrincipal, ID: p.ID}) {
			t.Errorf("after the reconnect: %+v", c)
		}
	case <-time.After(time.Second):
		t.Fatal("no change within a second of the reconnect")
	}
	if err := stores[1].Close(); err != nil {
		t.Fatal(err)
	}
	if _, ok := <-ch; ok {
		t.Error("the watch outlived its store")
	}
}

// TestInstancesHeldAndWithheld: a session's pending bound holds across
// three instances; a held call and a withheld output are decided once,
// whichever instances race to decide them.
func TestInstancesHeldAndWithheld(t *testing.T) {
	_, stores := instances(t, 3)
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	held := func(i int) *store.HeldCall {
		return &store.HeldCall{ID: id.Opaque(t0), PrincipalID: "p", SessionID: "s", Time: t0, Expires: t0.Add(time.Hour), InputSource: "agent",
			Tool: "transfer", Tier: tool.Write, Args: []byte(`{}`), ArgsHash: fmt.Sprint("h", i), Reason: "REVIEW"}
	}
	record := func(kind store.ActionKind) *store.ActionRecord {
		return &store.ActionRecord{ID: id.New(t0), Time: t0, Kind: kind}
	}
	var ok, limited atomic.Int64
	var wg sync.WaitGroup
	for i := range 30 {
		wg.Go(func() {
			_, err := stores[i%3].HoldCall(t.Context(), held(i), store.HoldLimits{MaxPending: 5}, record(store.ActionQuarantined))
			switch {
			case err == nil:
				ok.Add(1)
			case errors.Is(err, store.ErrHeldLimit):
				limited.Add(1)
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 5 || limited.Load() != 25 {
		t.Fatalf("%d calls held and %d refused across three instances with room for 5, want 5 and 25", ok.Load(), limited.Load())
	}
	pending, err := stores[0].HeldCalls(t.Context(), store.HeldFilter{SessionID: "s"})
	if err != nil || len(pending) != 5 {
		t.Fatalf("HeldCalls = %d, %v", len(pending), err)
	}
	var decided atomic.Int64
	for i := range 30 {
		wg.Go(func() {
			at := t0.Add(time.Minute)
			err := stores[i%3].DecideHeldCall(t.Context(), pending[0].ID, store.HeldApproved, "owner", "", at, record(store.ActionQuarantineApproved))
			switch {
			case err == nil:
				decided.Add(1)
			case !errors.Is(err, store.ErrHeldDecided):
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if decided.Load() != 1 {
		t.Errorf("%d of 30 concurrent decisions across three instances won, want 1", decided.Load())
	}
	if recs, err := stores[2].Actions(t.Context(), store.ActionFilter{Kind: store.ActionQuarantineApproved}); err != nil || len(recs) != 1 {
		t.Errorf("%d approval records, %v; want the winner's alone", len(recs), err)
	}

	w := &store.WithheldOutput{Key: id.New(t0), SessionID: "child", Tool: "web_fetch", Time: t0, Size: 4, Nonce: []byte{1},
		Ciphertext: []byte("sealed"), Wraps: map[string][]byte{"judge": {1}}}
	if err := stores[0].PutWithheld(t.Context(), w); err != nil {
		t.Fatal(err)
	}
	var promoted atomic.Int64
	for i := range 30 {
		wg.Go(func() {
			by := fmt.Sprint("judge-", i)
			var err error
			if i%2 == 0 {
				err = stores[i%3].PromoteWithheld(t.Context(), w.Key, by, t0.Add(time.Minute), []byte(by))
			} else {
				err = stores[i%3].RejectWithheld(t.Context(), w.Key, by, t0.Add(time.Minute))
			}
			switch {
			case err == nil:
				promoted.Add(1)
			case !errors.Is(err, store.ErrWithheldDecided):
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if promoted.Load() != 1 {
		t.Errorf("%d of 30 concurrent decisions of a withheld output won, want 1", promoted.Load())
	}
	// Wraps added concurrently through three instances stop at the bound.
	for i := range 40 {
		wg.Go(func() { _ = stores[i%3].AddWithheldWrap(t.Context(), w.Key, fmt.Sprint("r", i), []byte{1}) })
	}
	wg.Wait()
	if got, err := stores[1].Withheld(t.Context(), w.Key); err != nil || len(got.Wraps) != store.MaxWithheldReviewers {
		t.Errorf("after 40 concurrent wraps: %d wraps, %v; want %d", len(got.Wraps), err, store.MaxWithheldReviewers)
	}
}
