package sqlite_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/store/sqlite"
)

var permitTime = time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)

func newPermit() *store.Permit {
	return &store.Permit{
		ID:         id.New(permitTime),
		CreatedAt:  permitTime,
		ExpiresAt:  permitTime.Add(time.Hour),
		SessionID:  "sess-a",
		Tool:       "wallet_swap",
		ArgsHash:   "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		Args:       []byte(`{"amount":"1000"}`),
		PolicyHash: "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae",
		Phase:      "live",
		RiskTier:   "high",
		ValueCents: 1000_00,
		Status:     store.PermitPending,
	}
}

func checkOf(p *store.Permit, now time.Time, by string) store.PermitCheck {
	return store.PermitCheck{Now: now, Tool: p.Tool, ArgsHash: p.ArgsHash, PolicyHash: p.PolicyHash, Phase: p.Phase, By: by}
}

// Environment of the child processes of TestCrossProcessConsume.
const (
	childDBEnv   = "WARD_SQLITE_PERMIT_CHILD_DB"
	childNameEnv = "WARD_SQLITE_PERMIT_CHILD_NAME"
)

// Two processes sharing one database race to consume the same permits:
// each permit is consumed exactly once in total. The test binary runs
// itself as the two children.
func TestCrossProcessConsume(t *testing.T) {
	if path := os.Getenv(childDBEnv); path != "" {
		consumeAsChild(t, path, os.Getenv(childNameEnv))
		return
	}
	const n = 200
	path := filepath.Join(t.TempDir(), "ward.db")
	s := openStore(t, sqlite.Config{Path: path})
	want := map[string]bool{}
	for range n {
		p := newPermit()
		if err := s.CreatePermit(t.Context(), p); err != nil {
			t.Fatal(err)
		}
		want[p.ID] = true
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	type child struct {
		name   string
		cmd    *exec.Cmd
		stdin  io.WriteCloser
		stdout *bufio.Scanner
		stderr bytes.Buffer
		lines  []string
	}
	children := []*child{{name: "child-a"}, {name: "child-b"}}
	for _, c := range children {
		c.cmd = exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestCrossProcessConsume$", "-test.count=1")
		c.cmd.Env = append(os.Environ(), childDBEnv+"="+path, childNameEnv+"="+c.name)
		c.cmd.Stderr = &c.stderr
		var err error
		if c.stdin, err = c.cmd.StdinPipe(); err != nil {
			t.Fatal(err)
		}
		out, err := c.cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		c.stdout = bufio.NewScanner(out)
		if err := c.cmd.Start(); err != nil {
			t.Fatal(err)
		}
	}
	// Both open the database and list the permits before either starts.
	for _, c := range children {
		ready := false
		for !ready && c.stdout.Scan() {
			ready = strings.HasPrefix(c.stdout.Text(), "ready ")
			c.lines = append(c.lines, c.stdout.Text())
		}
		if !ready || c.lines[len(c.lines)-1] != fmt.Sprintf("ready %d", n) {
			_ = c.cmd.Wait()
			t.Fatalf("%s did not get ready: output %q, stderr %s", c.name, c.lines, c.stderr.String())
		}
	}
	for _, c := range children {
		if _, err := io.WriteString(c.stdin, "go\n"); err != nil {
			t.Fatal(err)
		}
		c.stdin.Close()
	}
	var wg sync.WaitGroup
	for _, c := range children {
		wg.Go(func() {
			for c.stdout.Scan() {
				c.lines = append(c.lines, c.stdout.Text())
			}
		})
	}
	wg.Wait()
	winner := map[string]string{}
	for _, c := range children {
		if err := c.cmd.Wait(); err != nil {
			t.Fatalf("%s: %v\nstdout: %q\nstderr: %s", c.name, err, c.lines, c.stderr.String())
		}
		won, lost := 0, 0
		for _, l := range c.lines {
			verb, pid, _ := strings.Cut(l, " ")
			switch verb {
			case "consumed":
				if w, ok := winner[pid]; ok {
					t.Errorf("permit %s consumed by %s and %s", pid, w, c.name)
				}
				winner[pid] = c.name
				won++
			case "lost":
				lost++
			}
		}
		if won+lost != n {
			t.Errorf("%s reported %d consumed and %d lost, want %d in all", c.name, won, lost, n)
		}
		t.Logf("%s consumed %d permits", c.name, won)
	}
	if len(winner) != n {
		t.Errorf("%d permits consumed, want %d", len(winner), n)
	}
	conn := rawConn(t, path)
	for _, row := range queryRows(t, conn, `SELECT id, status, closed_by FROM permits`) {
		if !want[row[0]] || row[1] != "consumed" || row[2] != winner[row[0]] {
			t.Errorf("permit %s is %s by %q, want consumed by %q", row[0], row[1], row[2], winner[row[0]])
		}
	}
}

// consumeAsChild is the child of TestCrossProcessConsume: it tries to
// consume every pending permit, four at a time, and prints which it won.
func consumeAsChild(t *testing.T, path, name string) {
	ctx := t.Context()
	s, err := sqlite.Open(ctx, sqlite.Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	now := permitTime.Add(time.Minute)
	pending, err := s.PendingPermits(ctx, now, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("ready %d\n", len(pending))
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		t.Fatalf("waiting for go: %v", err)
	}
	const workers = 4
	results := make([]string, len(pending))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(pending); i += workers {
				p := &pending[i]
				_, err := s.ConsumePermit(ctx, p.ID, checkOf(p, now, name))
				switch {
				case err == nil:
					results[i] = "consumed " + p.ID
				case errors.Is(err, store.ErrPermitConsumed):
					results[i] = "lost " + p.ID
				default:
					t.Errorf("ConsumePermit(%s): %v", p.ID, err)
				}
			}
		})
	}
	wg.Wait()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Printed once durable and closed, so the parent's reading of the
	// database sees every success reported.
	fmt.Println(strings.Join(results, "\n"))
}

// When several conditions fail, the refusal names the first in
// ConsumePermit's documented order.
func TestConsumeRefusalOrder(t *testing.T) {
	s := openStore(t, sqlite.Config{})
	ctx := t.Context()
	valid := permitTime.Add(30 * time.Minute)
	expired := permitTime.Add(2 * time.Hour)
	tests := []struct {
		name    string
		consume bool // consume it first
		edit    func(c *store.PermitCheck)
		want    error
	}{
		{"consumed before mismatch", true, func(c *store.PermitCheck) { c.Tool = "x" }, store.ErrPermitConsumed},
		{"mismatch before expiry", false, func(c *store.PermitCheck) { c.ArgsHash, c.Now = "00", expired }, store.ErrPermitMismatch},
		{"expiry before policy", false, func(c *store.PermitCheck) { c.PolicyHash, c.Now = "00", expired }, store.ErrPermitExpired},
		{"tick expiry before policy", false, func(c *store.PermitCheck) { c.PolicyHash, c.Tick = "00", 50 }, store.ErrPermitExpired},
		{"policy before phase", false, func(c *store.PermitCheck) { c.PolicyHash, c.Phase = "00", "other" }, store.ErrPolicyChanged},
		{"phase before announce delay", false, func(c *store.PermitCheck) {
			c.Phase, c.Now = "other", permitTime.Add(time.Minute)
		}, store.ErrPhaseChanged},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPermit()
			p.NotBefore = permitTime.Add(10 * time.Minute)
			p.ExpiryTick = 50
			if err := s.CreatePermit(ctx, p); err != nil {
				t.Fatal(err)
			}
			if tt.consume {
				if _, err := s.ConsumePermit(ctx, p.ID, checkOf(p, valid, "a")); err != nil {
					t.Fatal(err)
				}
			}
			c := checkOf(p, valid, "b")
			tt.edit(&c)
			if _, err := s.ConsumePermit(ctx, p.ID, c); !errors.Is(err, tt.want) {
				t.Errorf("ConsumePermit error = %v, want %v", err, tt.want)
			}
		})
	}
}

// What this backend refuses beyond the conformance suite.
func TestPermitValidation(t *testing.T) {
	s := openStore(t, sqlite.Config{})
	ctx := t.Context()
	creates := []struct {
		name string
		edit func(p *store.Permit)
	}{
		{"id not a ULID", func(p *store.Permit) { p.ID = "permit-1" }},
		{"unknown risk tier", func(p *store.Permit) { p.RiskTier = "extreme" }},
		{"args not JSON", func(p *store.Permit) { p.Args = []byte(`{"amount":`) }},
		{"preview not JSON", func(p *store.Permit) { p.Lessons = []adopt.Advice{{ID: "L1", Confidence: math.NaN()}} }},
		{"expiry tick above int64", func(p *store.Permit) { p.ExpiryTick = math.MaxInt64 + 1 }},
		{"not before at expiry", func(p *store.Permit) { p.NotBefore = p.ExpiresAt }},
		{"negative value", func(p *store.Permit) { p.ValueCents = -1 }},
		{"expiry after 2262", func(p *store.Permit) { p.ExpiresAt = time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC) }},
	}
	for _, tt := range creates {
		t.Run(tt.name, func(t *testing.T) {
			p := newPermit()
			tt.edit(p)
			if err := s.CreatePermit(ctx, p); err == nil {
				t.Error("CreatePermit accepted an invalid permit")
			}
		})
	}
	p := newPermit()
	if err := s.CreatePermit(ctx, p); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ConsumePermit(ctx, p.ID, checkOf(p, time.Time{}, "a")); err == nil {
		t.Error("ConsumePermit accepted a zero time")
	}
	if _, err := s.ConsumePermit(ctx, "", checkOf(p, permitTime, "a")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("ConsumePermit(\"\") error = %v, want %v", err, store.ErrNotFound)
	}
	if err := s.CancelPermit(ctx, p.ID, "owner", time.Time{}); err == nil {
		t.Error("CancelPermit accepted a zero time")
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.ConsumePermit(done, p.ID, checkOf(p, permitTime, "a")); !errors.Is(err, context.Canceled) {
		t.Errorf("ConsumePermit with a cancelled ctx: %v, want %v", err, context.Canceled)
	}
	if err := s.CancelPermit(done, p.ID, "owner", permitTime); !errors.Is(err, context.Canceled) {
		t.Errorf("CancelPermit with a cancelled ctx: %v, want %v", err, context.Canceled)
	}
	if got, err := s.Permit(ctx, p.ID); err != nil || got.Status != store.PermitPending {
		t.Errorf("Permit after refused calls = %s, %v; want pending", got.Status, err)
	}
	if _, err := s.PendingPermits(ctx, permitTime, -1); err == nil {
		t.Error("PendingPermits accepted a negative limit")
	}
	if _, err := s.PendingPermits(ctx, time.Time{}, 0); err == nil {
		t.Error("PendingPermits accepted a zero time")
	}
	if err := s.SetHalt(ctx, true, "on", "x", time.Time{}, &store.ActionRecord{ID: id.New(permitTime), Time: permitTime, Kind: store.ActionHalt}); err == nil {
		t.Error("SetHalt accepted a zero time")
	}
	actions := []struct {
		name string
		edit func(r *store.ActionRecord)
	}{
		{"gas cost not decimal", func(r *store.ActionRecord) { r.GasCostWei = "1e18" }},
		{"gas cost negative", func(r *store.ActionRecord) { r.GasCostWei = "-5" }},
		{"gas used above int64", func(r *store.ActionRecord) { r.GasUsed = math.MaxUint64 }},
		{"detail not JSON", func(r *store.ActionRecord) { r.Detail = []byte("{") }},
	}
	for _, tt := range actions {
		t.Run(tt.name, func(t *testing.T) {
			r := &store.ActionRecord{ID: id.New(permitTime), Time: permitTime, Kind: store.ActionExecuted}
			tt.edit(r)
			if err := s.AppendAction(ctx, r); err == nil {
				t.Error("AppendAction accepted an invalid record")
			}
		})
	}
	if _, err := s.Actions(ctx, store.ActionFilter{Limit: -1}); err == nil {
		t.Error("Actions accepted a negative limit")
	}
	if got, err := s.Actions(ctx, store.ActionFilter{}); err != nil || len(got) != 0 {
		t.Errorf("Actions after refused appends = %d records, %v; want none", len(got), err)
	}
}

// Zero and empty values are stored as NULL and read back as they were.
func TestPermitStorage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ward.db")
	s := openStore(t, sqlite.Config{Path: path})
	p := newPermit()
	p.Args, p.SessionID, p.RiskTier = nil, "", ""
	if err := s.CreatePermit(t.Context(), p); err != nil {
		t.Fatal(err)
	}
	c := rawConn(t, path)
	got := queryRows(t, c, `SELECT typeof(not_before_ns), typeof(args), typeof(session_id), typeof(risk_tier), typeof(closed_ns), typeof(closed_by), status FROM permits`)
	want := []string{"null", "null", "null", "null", "null", "null", "pending"}
	if len(got) != 1 || strings.Join(got[0], ",") != strings.Join(want, ",") {
		t.Errorf("stored %v, want %v", got, want)
	}
	if _, err := s.ConsumePermit(t.Context(), p.ID, checkOf(p, permitTime, "")); err != nil {
		t.Fatal(err)
	}
	got = queryRows(t, c, `SELECT typeof(closed_ns), typeof(closed_by), status FROM permits`)
	if strings.Join(got[0], ",") != "integer,null,consumed" {
		t.Errorf("stored %v after consume, want integer,null,consumed", got[0])
	}
	// The CHECK constraints hold the status and closing time together.
	for _, sql := range []string{
		`UPDATE permits SET status = 'pending'`,
		`UPDATE permits SET status = 'approved'`,
		`UPDATE permits SET closed_ns = NULL`,
	} {
		if err := c.Exec(sql); err == nil {
			t.Errorf("%s: no constraint failed", sql)
		}
	}
}
