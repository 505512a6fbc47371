package storetest

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
)

// permit returns a pending permit created at t, expiring an hour later.
func permit(t time.Time) *store.Permit {
	return &store.Permit{
		ID:         id.New(t),
		CreatedAt:  t,
		ExpiresAt:  t.Add(time.Hour),
		SessionID:  "sess-a",
		Tool:       "wallet_swap",
		ArgsHash:   "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		Args:       []byte(`{"amount":"1000","from":"USDC","to":"ETH"}`),
		PolicyHash: "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae",
		Phase:      "live",
		RiskTier:   "elevated",
		ValueCents: 1000_00,
		Plan: &tool.Plan{
			Chain: 8453, From: tool.Address{0xaa}, ValueCents: 1000_00, Summary: "swap 1000 USDC for ETH",
			Txs:    []tool.Tx{{To: tool.Address{0x01}, Data: tool.HexBytes{0x09, 0x5e, 0xa7, 0xb3}, Label: "approve"}, {To: tool.Address{0x02}, Value: big.NewInt(0), Label: "swap"}},
			Tokens: []tool.TokenUse{{Token: tool.Address{0x03}, Symbol: "USDC", Decimals: 6, Amount: big.NewInt(1000_000000), Out: true}},
		},
		Simulation: &hook.SimResult{OK: true, GasUsed: []uint64{46000, 21000}, TotalGas: 67000,
			Deltas: []hook.BalanceDelta{{Token: tool.Address{0x03}, Before: big.NewInt(5000), After: big.NewInt(4000), Delta: big.NewInt(-1000)}}},
		Lessons: []adopt.Advice{{ID: "L1", Summary: "slippage reverted a swap", Reason: "EXECUTION_FAILED", Confidence: 0.75}},
		Status:  store.PermitPending,
	}
}

// checkFor is the check a commit of p at now passes.
func checkFor(p *store.Permit, now time.Time) store.PermitCheck {
	return store.PermitCheck{Now: now, Tool: p.Tool, ArgsHash: p.ArgsHash, PolicyHash: p.PolicyHash, Phase: p.Phase, By: p.SessionID}
}

func (h *harness) createPermit(p *store.Permit) {
	h.t.Helper()
	if err := h.s.CreatePermit(h.t.Context(), p); err != nil {
		h.t.Fatalf("CreatePermit(%s): %v", p.ID, err)
	}
}

func (h *harness) permit(pid string) store.Permit {
	h.t.Helper()
	p, err := h.s.Permit(h.t.Context(), pid)
	if err != nil {
		h.t.Fatalf("Permit(%s): %v", pid, err)
	}
	return p
}

// sameTime reports whether got is want to the microsecond, in UTC, and zero
// exactly when want is.
func sameTime(got, want time.Time) bool {
	if want.IsZero() || got.IsZero() {
		return want.IsZero() && got.IsZero()
	}
	return got.Location() == time.UTC && got.Sub(want).Abs() < time.Microsecond
}

// checkPermit compares got with want: times to the microsecond in UTC,
// Args byte for byte (nil and empty alike), the preview (Plan, Simulation
// and Lessons) as the document it is stored as, byte for byte, the rest
// exactly.
func checkPermit(t *testing.T, got, want store.Permit) {
	t.Helper()
	for _, tm := range []struct {
		name      string
		got, want time.Time
	}{
		{"created at", got.CreatedAt, want.CreatedAt},
		{"expires at", got.ExpiresAt, want.ExpiresAt},
		{"not before", got.NotBefore, want.NotBefore},
		{"closed at", got.ClosedAt, want.ClosedAt},
	} {
		if !sameTime(tm.got, tm.want) {
			t.Errorf("permit %s: %s %v, want %v in UTC", want.ID, tm.name, tm.got, tm.want)
		}
	}
	if !bytes.Equal(got.Args, want.Args) {
		t.Errorf("permit %s: args %q, want %q", want.ID, got.Args, want.Args)
	}
	gotPreview, gerr := got.MarshalPreview()
	wantPreview, werr := want.MarshalPreview()
	if gerr != nil || werr != nil || !bytes.Equal(gotPreview, wantPreview) {
		t.Errorf("permit %s: preview %s (%v), want %s (%v)", want.ID, gotPreview, gerr, wantPreview, werr)
	}
	g, w := got, want
	g.CreatedAt, g.ExpiresAt, g.NotBefore, g.ClosedAt, g.Args = time.Time{}, time.Time{}, time.Time{}, time.Time{}, nil
	w.CreatedAt, w.ExpiresAt, w.NotBefore, w.ClosedAt, w.Args = time.Time{}, time.Time{}, time.Time{}, time.Time{}, nil
	g.Plan, g.Simulation, g.Lessons = nil, nil, nil
	w.Plan, w.Simulation, w.Lessons = nil, nil, nil
	if !reflect.DeepEqual(g, w) {
		t.Errorf("permit %s:\n got %+v\nwant %+v", want.ID, g, w)
	}
}

// closed returns p as consumed or cancelled by by at at.
func closed(p *store.Permit, s store.PermitStatus, by string, at time.Time) store.Permit {
	c := *p
	c.Status, c.ClosedBy, c.ClosedAt = s, by, at
	return c
}

func testPermitRoundTrip(t *testing.T, h *harness) {
	at := t0.Add(123 * time.Nanosecond) // below a microsecond: may be truncated
	full := permit(at)
	full.CreatedAt = at.In(time.FixedZone("UTC+2", 2*3600)) // stored and returned as UTC
	full.NotBefore = at.Add(10 * time.Minute)
	full.ExpiryTick = 1<<63 - 1
	minimal := &store.Permit{
		ID:         id.New(t0),
		CreatedAt:  t0,
		ExpiresAt:  t0.Add(time.Minute),
		Tool:       "wallet_send",
		ArgsHash:   "00",
		PolicyHash: "ab",
		Status:     store.PermitPending,
	}
	h.createPermit(full)
	h.createPermit(minimal)
	check := func() {
		for _, want := range []*store.Permit{full, minimal} {
			checkPermit(t, h.permit(want.ID), *want)
		}
		if _, err := h.s.Permit(t.Context(), id.New(t0)); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("Permit(unknown) error = %v, want %v", err, store.ErrNotFound)
		}
	}
	check()
	h.reopen()
	check()
}

func testPermitInvalid(t *testing.T, h *harness) {
	tests := []struct {
		name string
		edit func(p *store.Permit)
	}{
		{"empty id", func(p *store.Permit) { p.ID = "" }},
		{"empty status", func(p *store.Permit) { p.Status = "" }},
		{"consumed", func(p *store.Permit) { p.Status = store.PermitConsumed }},
		{"cancelled", func(p *store.Permit) { p.Status = store.PermitCancelled }},
		{"unknown status", func(p *store.Permit) { p.Status = "approved" }},
		{"closed at", func(p *store.Permit) { p.ClosedAt = p.CreatedAt }},
		{"closed by", func(p *store.Permit) { p.ClosedBy = "owner" }},
		{"zero created at", func(p *store.Permit) { p.CreatedAt = time.Time{} }},
		{"zero expires at", func(p *store.Permit) { p.ExpiresAt = time.Time{} }},
		{"expires at creation", func(p *store.Permit) { p.ExpiresAt = p.CreatedAt }},
		{"expires before creation", func(p *store.Permit) { p.ExpiresAt = p.CreatedAt.Add(-time.Second) }},
		{"empty tool", func(p *store.Permit) { p.Tool = "" }},
		{"empty args hash", func(p *store.Permit) { p.ArgsHash = "" }},
		{"empty policy hash", func(p *store.Permit) { p.PolicyHash = "" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := permit(t0)
			tt.edit(p)
			if err := h.s.CreatePermit(t.Context(), p); err == nil {
				t.Fatalf("CreatePermit accepted an invalid permit")
			}
			if p.ID == "" {
				return
			}
			if _, err := h.s.Permit(t.Context(), p.ID); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("Permit after a refused create: error = %v, want %v", err, store.ErrNotFound)
			}
		})
	}
	t.Run("duplicate id", func(t *testing.T) {
		first := permit(t0)
		h.createPermit(first)
		dup := permit(t0)
		dup.ID, dup.Tool = first.ID, "wallet_send"
		if err := h.s.CreatePermit(t.Context(), dup); err == nil {
			t.Fatal("CreatePermit accepted a duplicate id")
		}
		checkPermit(t, h.permit(first.ID), *first)
	})
	h.reopen()
	got, err := h.s.PendingPermits(t.Context(), t0, 0)
	if err != nil {
		t.Fatalf("PendingPermits: %v", err)
	}
	if len(got) != 1 {
		t.Errorf("%d pending permits after the refused creates, want the one valid", len(got))
	}
}

func testPermitConsume(t *testing.T, h *harness) {
	p := permit(t0)
	h.createPermit(p)
	now := t0.Add(time.Minute)
	c := checkFor(p, now)
	c.By = "sess-b"
	got, err := h.s.ConsumePermit(t.Context(), p.ID, c)
	if err != nil {
		t.Fatalf("ConsumePermit: %v", err)
	}
	want := closed(p, store.PermitConsumed, "sess-b", now)
	checkPermit(t, got, want)
	checkPermit(t, h.permit(p.ID), want)
	again := func(when string) {
		_, err := h.s.ConsumePermit(t.Context(), p.ID, checkFor(p, now.Add(time.Second)))
		if !errors.Is(err, store.ErrPermitConsumed) || !errors.Is(err, store.ErrPermitNotPending) {
			t.Errorf("second ConsumePermit %s: error = %v, want %v and %v", when, err, store.ErrPermitConsumed, store.ErrPermitNotPending)
		}
		checkPermit(t, h.permit(p.ID), want)
	}
	again("")
	h.reopen()
	again("after reopen")
	if _, err := h.s.ConsumePermit(t.Context(), id.New(t0), checkFor(p, now)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("ConsumePermit(unknown) error = %v, want %v", err, store.ErrNotFound)
	}
}

// Each refused consume leaves the permit pending and consumable.
func testPermitRefused(t *testing.T, h *harness) {
	valid := t0.Add(30 * time.Minute) // between NotBefore and ExpiresAt
	tests := []struct {
		name   string
		permit func(p *store.Permit)
		check  func(c *store.PermitCheck)
		want   error
	}{
		{"expired", nil, func(c *store.PermitCheck) { c.Now = t0.Add(time.Hour) }, store.ErrPermitExpired},
		{"long expired", nil, func(c *store.PermitCheck) { c.Now = t0.Add(48 * time.Hour) }, store.ErrPermitExpired},
		{"announce delay", func(p *store.Permit) { p.NotBefore = t0.Add(10 * time.Minute) },
			func(c *store.PermitCheck) { c.Now = t0.Add(10*time.Minute - time.Microsecond) }, store.ErrPermitEarly},
		{"tick expired", func(p *store.Permit) { p.ExpiryTick = 100 }, func(c *store.PermitCheck) { c.Tick = 100 }, store.ErrPermitExpired},
		{"tick long expired", func(p *store.Permit) { p.ExpiryTick = 100 }, func(c *store.PermitCheck) { c.Tick = math.MaxUint64 }, store.ErrPermitExpired},
		{"args mismatch", nil, func(c *store.PermitCheck) { c.ArgsHash = "00" + c.ArgsHash[2:] }, store.ErrPermitMismatch},
		{"tool mismatch", nil, func(c *store.PermitCheck) { c.Tool = "wallet_send" }, store.ErrPermitMismatch},
		{"policy changed", nil, func(c *store.PermitCheck) { c.PolicyHash = "5e88" }, store.ErrPolicyChanged},
		{"phase changed", nil, func(c *store.PermitCheck) { c.Phase = "wind-down" }, store.ErrPhaseChanged},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := permit(t0)
			if tt.permit != nil {
				tt.permit(p)
			}
			h.createPermit(p)
			c := checkFor(p, valid)
			tt.check(&c)
			if _, err := h.s.ConsumePermit(t.Context(), p.ID, c); !errors.Is(err, tt.want) {
				t.Fatalf("ConsumePermit error = %v, want %v", err, tt.want)
			}
			checkPermit(t, h.permit(p.ID), *p)
			if _, err := h.s.ConsumePermit(t.Context(), p.ID, checkFor(p, valid)); err != nil {
				t.Errorf("ConsumePermit after the refusal: %v", err)
			}
		})
	}
}

// A commit exactly at a bound it may reach succeeds.
func testPermitBounds(t *testing.T, h *harness) {
	tests := []struct {
		name   string
		permit func(p *store.Permit)
		check  func(c *store.PermitCheck)
	}{
		{"at not before", func(p *store.Permit) { p.NotBefore = t0.Add(10 * time.Minute) },
			func(c *store.PermitCheck) { c.Now = t0.Add(10 * time.Minute) }},
		{"just before expiry", nil, func(c *store.PermitCheck) { c.Now = t0.Add(time.Hour - time.Microsecond) }},
		{"at creation", nil, func(c *store.PermitCheck) { c.Now = t0 }},
		{"tick before expiry", func(p *store.Permit) { p.ExpiryTick = 100 }, func(c *store.PermitCheck) { c.Tick = 99 }},
		{"no expiry tick", nil, func(c *store.PermitCheck) { c.Tick = math.MaxUint64 }},
		{"empty phase", func(p *store.Permit) { p.Phase = "" }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := permit(t0)
			if tt.permit != nil {
				tt.permit(p)
			}
			h.createPermit(p)
			c := checkFor(p, t0.Add(30*time.Minute))
			if tt.check != nil {
				tt.check(&c)
			}
			got, err := h.s.ConsumePermit(t.Context(), p.ID, c)
			if err != nil {
				t.Fatalf("ConsumePermit(%+v): %v", c, err)
			}
			checkPermit(t, got, closed(p, store.PermitConsumed, c.By, c.Now))
		})
	}
}

func testPermitCancel(t *testing.T, h *harness) {
	ctx := t.Context()
	p := permit(t0)
	h.createPermit(p)
	at := t0.Add(2 * time.Minute)
	if err := h.s.CancelPermit(ctx, p.ID, "owner", at); err != nil {
		t.Fatalf("CancelPermit: %v", err)
	}
	want := closed(p, store.PermitCancelled, "owner", at)
	checkPermit(t, h.permit(p.ID), want)
	if _, err := h.s.ConsumePermit(ctx, p.ID, checkFor(p, at)); !errors.Is(err, store.ErrPermitCancelled) {
		t.Errorf("ConsumePermit of a cancelled permit: error = %v, want %v", err, store.ErrPermitCancelled)
	}
	if err := h.s.CancelPermit(ctx, p.ID, "owner", at); !errors.Is(err, store.ErrPermitNotPending) || !errors.Is(err, store.ErrPermitCancelled) {
		t.Errorf("second CancelPermit: error = %v, want %v and %v", err, store.ErrPermitNotPending, store.ErrPermitCancelled)
	}
	checkPermit(t, h.permit(p.ID), want)

	q := permit(t0)
	h.createPermit(q)
	if _, err := h.s.ConsumePermit(ctx, q.ID, checkFor(q, at)); err != nil {
		t.Fatalf("ConsumePermit: %v", err)
	}
	if err := h.s.CancelPermit(ctx, q.ID, "owner", at); !errors.Is(err, store.ErrPermitNotPending) || !errors.Is(err, store.ErrPermitConsumed) {
		t.Errorf("CancelPermit of a consumed permit: error = %v, want %v and %v", err, store.ErrPermitNotPending, store.ErrPermitConsumed)
	}
	checkPermit(t, h.permit(q.ID), closed(q, store.PermitConsumed, q.SessionID, at))
	if err := h.s.CancelPermit(ctx, id.New(t0), "owner", at); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("CancelPermit(unknown) error = %v, want %v", err, store.ErrNotFound)
	}
	h.reopen()
	checkPermit(t, h.permit(p.ID), want)
}

// Of many concurrent consumers of one permit exactly one wins.
func testPermitConcurrentConsume(t *testing.T, h *harness) {
	const n = 1000
	p := permit(t0)
	h.createPermit(p)
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		winners []string
		lost    int
	)
	for i := range n {
		wg.Go(func() {
			c := checkFor(p, t0.Add(time.Minute))
			c.By = fmt.Sprintf("worker-%d", i)
			_, err := h.s.ConsumePermit(t.Context(), p.ID, c)
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
	wg.Wait()
	if len(winners) != 1 || lost != n-1 {
		t.Fatalf("%d successes %v and %d ErrPermitConsumed, want 1 and %d", len(winners), winners, lost, n-1)
	}
	if got := h.permit(p.ID); got.Status != store.PermitConsumed || got.ClosedBy != winners[0] {
		t.Errorf("permit after the race: status %s closed by %q, want consumed by %q", got.Status, got.ClosedBy, winners[0])
	}
}

func testPendingPermits(t *testing.T, h *harness) {
	ctx := t.Context()
	mk := func(created, expires time.Duration) *store.Permit {
		p := permit(t0.Add(created))
		p.ExpiresAt = t0.Add(expires)
		return p
	}
	older := mk(0, 5*time.Hour)
	newer := mk(10*time.Minute, 3*time.Hour)
	delayed := mk(50*time.Minute, 6*time.Hour)
	delayed.NotBefore = t0.Add(4 * time.Hour)
	expiresNow := mk(20*time.Minute, 2*time.Hour)
	expired := mk(5*time.Minute, time.Hour)
	consumed := mk(30*time.Minute, 5*time.Hour)
	cancelled := mk(40*time.Minute, 5*time.Hour)
	for _, p := range []*store.Permit{delayed, cancelled, newer, expired, older, consumed, expiresNow} {
		h.createPermit(p)
	}
	if _, err := h.s.ConsumePermit(ctx, consumed.ID, checkFor(consumed, t0.Add(time.Hour))); err != nil {
		t.Fatalf("ConsumePermit: %v", err)
	}
	if err := h.s.CancelPermit(ctx, cancelled.ID, "owner", t0.Add(time.Hour)); err != nil {
		t.Fatalf("CancelPermit: %v", err)
	}
	now := t0.Add(2 * time.Hour)
	pids := func(ps []*store.Permit) []string {
		out := []string{}
		for _, p := range ps {
			out = append(out, p.ID)
		}
		return out
	}
	tests := []struct {
		name  string
		now   time.Time
		limit int
		want  []*store.Permit
	}{
		{"all", now, 0, []*store.Permit{older, newer, delayed}},
		{"limit", now, 2, []*store.Permit{older, newer}},
		{"limit above count", now, 10, []*store.Permit{older, newer, delayed}},
		{"earlier", t0.Add(59 * time.Minute), 0, []*store.Permit{older, expired, newer, expiresNow, delayed}},
		{"after every expiry", t0.Add(6 * time.Hour), 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := h.s.PendingPermits(ctx, tt.now, tt.limit)
			if err != nil {
				t.Fatalf("PendingPermits: %v", err)
			}
			gotIDs := []string{}
			for _, p := range got {
				gotIDs = append(gotIDs, p.ID)
			}
			if want := pids(tt.want); !slices.Equal(gotIDs, want) {
				t.Errorf("PendingPermits(%v, %d)\n got %v\nwant %v", tt.now, tt.limit, gotIDs, want)
			}
			for i, p := range got {
				if i < len(tt.want) {
					checkPermit(t, p, *tt.want[i])
				}
			}
		})
	}
}

// testGateControl: the phase and the halt, each written with its action
// record in one transaction (both or neither), read back after a reopen.
func testGateControl(t *testing.T, h *harness) {
	ctx := t.Context()
	c, err := h.s.GateControl(ctx)
	if err != nil || c.Phase != "thriving" || c.Halted {
		t.Fatalf("GateControl of an empty store = %+v, %v; want thriving, not halted", c, err)
	}
	t1, t2 := t0, t0.Add(time.Minute+7*time.Microsecond)
	if err := h.s.SetHalt(ctx, true, "engaged: drawdown limit", "session-1", t1, action(t1, store.ActionHalt, "")); err != nil {
		t.Fatal(err)
	}
	if err := h.s.SetPhase(ctx, "conservation", "owner:x", t1, action(t1.Add(time.Microsecond), store.ActionPhaseChanged, "")); err != nil {
		t.Fatal(err)
	}
	h.reopen()
	c, err = h.s.GateControl(ctx)
	if err != nil || !c.Halted || c.HaltReason != "engaged: drawdown limit" || c.HaltBy != "session-1" || !sameTime(c.HaltAt, t1) ||
		c.Phase != "conservation" || c.PhaseBy != "owner:x" || !sameTime(c.PhaseAt, t1) {
		t.Errorf("after halt, phase and a reopen: %+v, %v", c, err)
	}
	if err := h.s.SetHalt(ctx, false, "", "owner:x", t2, action(t2, store.ActionHaltLifted, "")); err != nil {
		t.Fatal(err)
	}
	if c, _ := h.s.GateControl(ctx); c.Halted || c.HaltReason != "" || !sameTime(c.HaltAt, t2) {
		t.Errorf("after the halt is lifted: %+v", c)
	}
	// Refused whole: an unknown phase, a halt without a reason, a change
	// whose record is invalid (nothing changes and no record is written).
	before, _ := h.s.Actions(ctx, store.ActionFilter{})
	bad := action(t2, store.ActionHalt, "")
	bad.Kind = 0
	for name, err := range map[string]error{
		"unknown phase":     h.s.SetPhase(ctx, "panic", "owner:x", t2, action(t2, store.ActionPhaseChanged, "")),
		"halt, no reason":   h.s.SetHalt(ctx, true, "", "owner:x", t2, action(t2, store.ActionHalt, "")),
		"invalid record":    h.s.SetHalt(ctx, true, "x", "owner:x", t2, bad),
		"phase, no record":  h.s.SetPhase(ctx, "stable", "owner:x", t2, nil),
		"zero time of halt": h.s.SetHalt(ctx, true, "x", "owner:x", time.Time{}, action(t2, store.ActionHalt, "")),
	} {
		if err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if c, _ := h.s.GateControl(ctx); c.Halted || c.Phase != "conservation" {
		t.Errorf("a refused change took effect: %+v", c)
	}
	if after, _ := h.s.Actions(ctx, store.ActionFilter{}); len(after) != len(before) {
		t.Errorf("refused changes wrote %d records", len(after)-len(before))
	}
}

// testSpendingOverride: the owner's override of the spending limits is
// none in a new store, set and cleared each with its record, survives a
// reopen, and bad input changes nothing.
func testSpendingOverride(t *testing.T, h *harness) {
	ctx := t.Context()
	if c, err := h.s.GateControl(ctx); err != nil || c.Spending != nil {
		t.Fatalf("override of an empty store = %+v, %v; want none", c.Spending, err)
	}
	t1, t2 := t0, t0.Add(time.Minute)
	set := &store.SpendingOverride{PerTickCents: 500, PerSessionCents: 0, DailyCents: math.MaxInt64, By: "owner:0xabc", At: t1}
	if err := h.s.SetSpendingOverride(ctx, set, action(t1, store.ActionSpendingLimits, "")); err != nil {
		t.Fatal(err)
	}
	h.reopen()
	c, err := h.s.GateControl(ctx)
	if err != nil || c.Spending == nil {
		t.Fatalf("override after a reopen = %+v, %v", c.Spending, err)
	}
	if got := *c.Spending; got.PerTickCents != 500 || got.PerSessionCents != 0 || got.DailyCents != math.MaxInt64 || got.By != "owner:0xabc" || !sameTime(got.At, t1) {
		t.Errorf("override after a reopen = %+v, want %+v", got, *set)
	}
	if c.Phase != "thriving" || c.Halted {
		t.Errorf("the override changed the phase or halt: %+v", c)
	}
	before, _ := h.s.Actions(ctx, store.ActionFilter{})
	for name, o := range map[string]*store.SpendingOverride{
		"negative limit": {PerTickCents: -1, PerSessionCents: 1, DailyCents: 1, By: "owner:x", At: t2},
		"no setter":      {PerTickCents: 1, PerSessionCents: 1, DailyCents: 1, At: t2},
		"zero time":      {PerTickCents: 1, PerSessionCents: 1, DailyCents: 1, By: "owner:x"},
	} {
		if err := h.s.SetSpendingOverride(ctx, o, action(t2, store.ActionSpendingLimits, "")); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := h.s.SetSpendingOverride(ctx, nil, nil); err == nil {
		t.Error("a clear without its record: accepted")
	}
	if c, _ := h.s.GateControl(ctx); c.Spending == nil || c.Spending.PerTickCents != 500 {
		t.Errorf("a refused change took effect: %+v", c.Spending)
	}
	if after, _ := h.s.Actions(ctx, store.ActionFilter{}); len(after) != len(before) {
		t.Errorf("refused changes wrote %d records", len(after)-len(before))
	}
	if err := h.s.SetSpendingOverride(ctx, nil, action(t2, store.ActionSpendingLimits, "")); err != nil {
		t.Fatal(err)
	}
	h.reopen()
	if c, err := h.s.GateControl(ctx); err != nil || c.Spending != nil {
		t.Errorf("override after a clear and a reopen = %+v, %v; want none", c.Spending, err)
	}
	recs, _ := h.s.Actions(ctx, store.ActionFilter{})
	n := 0
	for _, r := range recs {
		if r.Kind == store.ActionSpendingLimits {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d spending_limits_changed records, want 2 (set, clear)", n)
	}
}

// testAllowlistEntries: the owner's allowlist entries are none in a new
// store; a change writes its entries (replacing one of the same kind and
// value), counts a version and appends its record; a reset removes the
// rest; both survive a reopen; bad input changes nothing.
func testAllowlistEntries(t *testing.T, h *harness) {
	if es, err := h.s.AllowlistEntries(t.Context()); err != nil || len(es) != 0 {
		t.Fatalf("entries of an empty store = %v, %v; want none", es, err)
	}
	c0, err := h.s.GateControl(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t1, t2 := t0, t0.Add(time.Minute)
	changeAllowlistTwice(t, h, t1, t2)
	h.reopen()
	version := allowlistAfterTwoChanges(t, h, t1, t2, c0.AllowlistVersion)
	allowlistRefusesBadChanges(t, h, t2, version)
	resetAllowlist(t, h, t2)
}

// The token, contract and selector testAllowlistEntries allows and
// refuses.
const (
	allowlistToken    = "0xabababababababababababababababababababab"
	allowlistContract = "0xcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd"
	allowlistSelector = "0xa9059cbb"
)

// changeAllowlistTwice allows the token and refuses the contract at t1,
// then refuses the same token and allows the selector at t2.
func changeAllowlistTwice(t *testing.T, h *harness, t1, t2 time.Time) {
	ctx := t.Context()
	first := []store.AllowlistEntry{
		{Kind: store.AllowToken, Value: allowlistToken, Allowed: true, By: "owner:0xabc", At: t1},
		{Kind: store.AllowContract, Value: allowlistContract, Allowed: false, By: "owner:0xabc", At: t1},
	}
	if err := h.s.ChangeAllowlist(ctx, first, false, action(t1, store.ActionAllowlistChanged, "")); err != nil {
		t.Fatal(err)
	}
	second := []store.AllowlistEntry{
		{Kind: store.AllowToken, Value: allowlistToken, Allowed: false, By: "owner:0xdef", At: t2},
		{Kind: store.AllowSelector, Value: allowlistSelector, Allowed: true, By: "owner:0xdef", At: t2},
	}
	if err := h.s.ChangeAllowlist(ctx, second, false, action(t2, store.ActionAllowlistChanged, "")); err != nil {
		t.Fatal(err)
	}
}

// allowlistAfterTwoChanges: the three entries changeAllowlistTwice left
// are read back, by kind, and the version is two past version0; it
// returns the version.
func allowlistAfterTwoChanges(t *testing.T, h *harness, t1, t2 time.Time, version0 int64) int64 {
	ctx := t.Context()
	es, err := h.s.AllowlistEntries(ctx)
	if err != nil || len(es) != 3 {
		t.Fatalf("entries after a reopen = %+v, %v; want 3", es, err)
	}
	want := []store.AllowlistEntry{
		{Kind: store.AllowContract, Value: allowlistContract, Allowed: false, By: "owner:0xabc", At: t1},
		{Kind: store.AllowSelector, Value: allowlistSelector, Allowed: true, By: "owner:0xdef", At: t2},
		{Kind: store.AllowToken, Value: allowlistToken, Allowed: false, By: "owner:0xdef", At: t2},
	}
	for i, w := range want {
		g := es[i]
		if g.Kind != w.Kind || g.Value != w.Value || g.Allowed != w.Allowed || g.By != w.By || !sameTime(g.At, w.At) {
			t.Errorf("entry %d = %+v, want %+v", i, g, w)
		}
	}
	c1, err := h.s.GateControl(ctx)
	if err != nil || c1.AllowlistVersion != version0+2 {
		t.Errorf("version %d after two changes from %d (%v)", c1.AllowlistVersion, version0, err)
	}
	return c1.AllowlistVersion
}

// allowlistRefusesBadChanges: invalid entries, an empty change and a
// reset without its record are refused, with no entry, version or record
// written.
func allowlistRefusesBadChanges(t *testing.T, h *harness, t2 time.Time, version int64) {
	ctx := t.Context()
	tok, con := allowlistToken, allowlistContract
	before, _ := h.s.Actions(ctx, store.ActionFilter{})
	for name, bad := range map[string][]store.AllowlistEntry{
		"upper-case hex":  {{Kind: store.AllowToken, Value: "0x" + strings.Repeat("AB", 20), Allowed: true, By: "owner:x", At: t2}},
		"short address":   {{Kind: store.AllowContract, Value: "0xabcd", Allowed: true, By: "owner:x", At: t2}},
		"selector length": {{Kind: store.AllowSelector, Value: tok, Allowed: true, By: "owner:x", At: t2}},
		"unknown kind":    {{Kind: "chain", Value: tok, Allowed: true, By: "owner:x", At: t2}},
		"no setter":       {{Kind: store.AllowToken, Value: tok, Allowed: true, At: t2}},
		"zero time":       {{Kind: store.AllowToken, Value: tok, Allowed: true, By: "owner:x"}},
		"twice":           {{Kind: store.AllowToken, Value: con, Allowed: true, By: "owner:x", At: t2}, {Kind: store.AllowToken, Value: con, Allowed: false, By: "owner:x", At: t2}},
		"nothing":         nil,
		// A good entry then a bad one: the good one is not written either.
		"good then bad": {{Kind: store.AllowToken, Value: con, Allowed: true, By: "owner:x", At: t2}, {Kind: store.AllowSelector, Value: "0x1", Allowed: true, By: "owner:x", At: t2}},
	} {
		if err := h.s.ChangeAllowlist(ctx, bad, false, action(t2, store.ActionAllowlistChanged, "")); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := h.s.ChangeAllowlist(ctx, nil, true, nil); err == nil {
		t.Error("a reset without its record: accepted")
	}
	if es2, _ := h.s.AllowlistEntries(ctx); len(es2) != 3 {
		t.Errorf("refused changes took effect: %+v", es2)
	}
	if c, _ := h.s.GateControl(ctx); c.AllowlistVersion != version {
		t.Errorf("refused changes counted a version: %d, want %d", c.AllowlistVersion, version)
	}
	if after, _ := h.s.Actions(ctx, store.ActionFilter{}); len(after) != len(before) {
		t.Errorf("refused changes wrote %d records", len(after)-len(before))
	}
}

// resetAllowlist: a reset with one entry leaves that entry alone across a
// reopen, an empty reset leaves none, and every change appended one
// record.
func resetAllowlist(t *testing.T, h *harness, t2 time.Time) {
	ctx := t.Context()
	only := []store.AllowlistEntry{{Kind: store.AllowSelector, Value: "0x095ea7b3", Allowed: false, By: "owner:0xabc", At: t2}}
	if err := h.s.ChangeAllowlist(ctx, only, true, action(t2, store.ActionAllowlistChanged, "")); err != nil {
		t.Fatal(err)
	}
	h.reopen()
	if es, err := h.s.AllowlistEntries(ctx); err != nil || len(es) != 1 || es[0].Value != "0x095ea7b3" || es[0].Allowed {
		t.Errorf("entries after a reset = %+v, %v; want the one refused selector", es, err)
	}
	if err := h.s.ChangeAllowlist(ctx, nil, true, action(t2, store.ActionAllowlistChanged, "")); err != nil {
		t.Fatal(err)
	}
	if es, err := h.s.AllowlistEntries(ctx); err != nil || len(es) != 0 {
		t.Errorf("entries after an empty reset = %+v, %v; want none", es, err)
	}
	recs, _ := h.s.Actions(ctx, store.ActionFilter{})
	n := 0
	for _, r := range recs {
		if r.Kind == store.ActionAllowlistChanged {
			n++
		}
	}
	if n != 4 {
		t.Errorf("%d allowlist_changed records, want 4", n)
	}
}

// action returns a record of a step at t.
func action(t time.Time, kind store.ActionKind, permitID string) *store.ActionRecord {
	return &store.ActionRecord{
		ID:         id.New(t),
		Time:       t,
		Kind:       kind,
		PermitID:   permitID,
		SessionID:  "sess-a",
		Tool:       "wallet_swap",
		ActionType: "swap",
		ArgsHash:   "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
	}
}

func checkAction(t *testing.T, got, want store.ActionRecord) {
	t.Helper()
	if !sameTime(got.Time, want.Time) {
		t.Errorf("action %s: time %v, want %v in UTC", want.ID, got.Time, want.Time)
	}
	if !bytes.Equal(got.Detail, want.Detail) {
		t.Errorf("action %s: detail %q, want %q", want.ID, got.Detail, want.Detail)
	}
	g, w := got, want
	g.Time, w.Time, g.Detail, w.Detail = time.Time{}, time.Time{}, nil, nil
	if !reflect.DeepEqual(g, w) {
		t.Errorf("action %s:\n got %+v\nwant %+v", want.ID, g, w)
	}
}

func testActionLog(t *testing.T, h *harness) {
	recs, permits := actionLogRecords()
	full := recs[3]
	// Appended out of order.
	for _, i := range []int{7, 2, 11, 0, 5, 9, 1, 3, 10, 4, 8, 6} {
		if err := h.s.AppendAction(t.Context(), recs[i]); err != nil {
			t.Fatalf("AppendAction(%d): %v", i, err)
		}
	}
	h.reopen()
	testActionFilters(t, h, recs, permits)
	t.Run("invalid", func(t *testing.T) { testActionInvalid(t, h, recs, full) })
}

// actionLogRecords returns twelve actions a second and a microsecond apart
// across two permits and three sessions: recs[3] has every optional field
// set, recs[5] is a veto and recs[6] is stored in a non-UTC zone.
func actionLogRecords() (recs []*store.ActionRecord, permits []string) {
	permits = []string{id.New(t0), id.New(t0)}
	kinds := []store.ActionKind{store.ActionPermitCreated, store.ActionToolCall, store.ActionPermitConsumed, store.ActionExecuted}
	for i := range 12 {
		r := action(t0.Add(time.Duration(i)*time.Second+time.Duration(i)*time.Microsecond), kinds[i%4], permits[i/4%2])
		r.SessionID = fmt.Sprintf("sess-%d", i%3)
		if i%5 == 0 {
			r.Tool = "wallet_send"
		}
		recs = append(recs, r)
	}
	full := recs[3]
	full.TxHash = "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060"
	full.ChainID = 8453
	full.Status = store.StatusExecuted
	full.GasUsed = 142_331
	full.GasCostWei = "4269930000000000"
	full.Verified = true
	full.Expected = "ETH +0.28"
	full.Actual = "ETH +0.2797"
	full.GroundTruth = "balance_check"
	full.Detail = []byte(`{"slippage_bps":11,"block":19000000}`)
	blocked := recs[5]
	blocked.Kind, blocked.Status, blocked.BlockReason = store.ActionVetoed, store.StatusBlocked, "SLIPPAGE_TOO_HIGH"
	recs[6].Time = recs[6].Time.In(time.FixedZone("UTC-5", -5*3600))
	return recs, permits
}

// testActionFilters checks every ActionFilter field, alone and combined,
// against matchAction over recs.
func testActionFilters(t *testing.T, h *harness, recs []*store.ActionRecord, permits []string) {
	at := func(i int) time.Time { return recs[i].Time }
	tests := []struct {
		name string
		f    store.ActionFilter
	}{
		{"none", store.ActionFilter{}},
		{"permit", store.ActionFilter{PermitID: permits[1]}},
		{"session", store.ActionFilter{SessionID: "sess-2"}},
		{"tool", store.ActionFilter{Tool: "wallet_send"}},
		{"kind", store.ActionFilter{Kind: store.ActionToolCall}},
		{"since is inclusive", store.ActionFilter{Since: at(4)}},
		{"until is exclusive", store.ActionFilter{Until: at(7)}},
		{"since and until", store.ActionFilter{Since: at(3), Until: at(9)}},
		{"limit", store.ActionFilter{Limit: 3}},
		{"combined", store.ActionFilter{PermitID: permits[0], Kind: store.ActionExecuted, Since: at(1), Limit: 1}},
		{"no match", store.ActionFilter{Kind: store.ActionHalt}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var want []*store.ActionRecord
			for _, r := range recs {
				if matchAction(r, tt.f) && (tt.f.Limit == 0 || len(want) < tt.f.Limit) {
					want = append(want, r)
				}
			}
			got, err := h.s.Actions(t.Context(), tt.f)
			if err != nil {
				t.Fatalf("Actions(%+v): %v", tt.f, err)
			}
			if len(got) != len(want) {
				t.Fatalf("Actions(%+v) returned %d records, want %d", tt.f, len(got), len(want))
			}
			for i := range got {
				checkAction(t, got[i], *want[i])
			}
		})
	}
}

// testActionInvalid checks that invalid actions are refused and leave the
// log as it was.
func testActionInvalid(t *testing.T, h *harness, recs []*store.ActionRecord, full *store.ActionRecord) {
	ctx := t.Context()
	for name, edit := range map[string]func(r *store.ActionRecord){
		"empty id":     func(r *store.ActionRecord) { r.ID = "" },
		"zero time":    func(r *store.ActionRecord) { r.Time = time.Time{} },
		"empty kind":   func(r *store.ActionRecord) { r.Kind = 0 },
		"unknown kind": func(r *store.ActionRecord) { r.Kind = 200 },
		"bad status":   func(r *store.ActionRecord) { r.Status = 77 },
		"duplicate id": func(r *store.ActionRecord) { r.ID = full.ID },
	} {
		r := action(t0.Add(time.Hour), store.ActionHalt, "")
		edit(r)
		if err := h.s.AppendAction(ctx, r); err == nil {
			t.Errorf("%s: AppendAction accepted an invalid record", name)
		}
	}
	got, err := h.s.Actions(ctx, store.ActionFilter{})
	if err != nil || len(got) != len(recs) {
		t.Fatalf("Actions after refused appends: %d records, %v; want %d", len(got), err, len(recs))
	}
	checkAction(t, got[3], *full)
}

// matchAction is the reference semantics of store.ActionFilter (without
// Limit).
func matchAction(r *store.ActionRecord, f store.ActionFilter) bool {
	eq := func(want, got string) bool { return want == "" || want == got }
	return eq(f.PermitID, r.PermitID) && eq(f.SessionID, r.SessionID) && eq(f.Tool, r.Tool) && (f.Kind == 0 || f.Kind == r.Kind) &&
		(f.Since.IsZero() || !r.Time.Before(f.Since)) &&
		(f.Until.IsZero() || r.Time.Before(f.Until))
}

// testOpenCommits: a consumed permit is open until an outcome record
// (tool_call) names it; pending and cancelled permits, and other kinds of
// record, do not count.
func testOpenCommits(t *testing.T, h *harness) {
	ctx := t.Context()
	openIDs := func() []string {
		t.Helper()
		ps, err := h.s.OpenCommits(ctx, 0)
		if err != nil {
			t.Fatalf("OpenCommits: %v", err)
		}
		var out []string
		for _, p := range ps {
			out = append(out, p.ID)
		}
		return out
	}
	pending, a, b := permit(t0), permit(t0.Add(time.Second)), permit(t0.Add(2*time.Second))
	for _, p := range []*store.Permit{pending, a, b} {
		h.createPermit(p)
	}
	for i, p := range []*store.Permit{a, b} {
		if _, err := h.s.ConsumePermit(ctx, p.ID, checkFor(p, t0.Add(time.Duration(i+1)*time.Minute))); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := openIDs(), []string{a.ID, b.ID}; !slices.Equal(got, want) {
		t.Fatalf("open commits = %v, want %v (oldest consumption first)", got, want)
	}
	if ps, err := h.s.OpenCommits(ctx, 1); err != nil || len(ps) != 1 || ps[0].ID != a.ID || ps[0].Plan == nil {
		t.Errorf("OpenCommits(limit 1) = %d permits, %v; want %s with its plan", len(ps), err, a.ID)
	}
	rec := func(kind store.ActionKind, pid string) {
		t.Helper()
		if err := h.s.AppendAction(ctx, &store.ActionRecord{ID: id.New(t0), Time: t0.Add(time.Hour), Kind: kind, PermitID: pid, Status: store.StatusExecuted}); err != nil {
			t.Fatal(err)
		}
	}
	rec(store.ActionPermitConsumed, a.ID)
	rec(store.ActionTxSettled, a.ID)
	if got := openIDs(); !slices.Equal(got, []string{a.ID, b.ID}) {
		t.Errorf("with only consumed and tx_settled records: open commits = %v, want both", got)
	}
	rec(store.ActionToolCall, a.ID)
	h.reopen()
	if got := openIDs(); !slices.Equal(got, []string{b.ID}) {
		t.Errorf("after a's outcome record: open commits = %v, want [%s]", got, b.ID)
	}
	if _, err := h.s.OpenCommits(ctx, -1); err == nil {
		t.Error("OpenCommits(-1) succeeded")
	}
}
