package auth

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/store/sqlite"
)

func openStore(t *testing.T) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(t.Context(), sqlite.Config{Path: filepath.Join(t.TempDir(), "w.db"), Synchronous: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestCreateVerifyRevoke(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	now := time.Now()
	tok, p, err := Create(ctx, st, Spec{Role: Owner, Name: "laptop"}, now)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tok, "ward_") || p.Role != Owner || len(p.ID) < 26 {
		t.Fatalf("token %q principal %+v", tok, p)
	}
	v := NewVerifier(st, time.Nanosecond)
	got, err := v.Verify(ctx, tok, now)
	if err != nil || got.Role != Owner || got.Name != "laptop" || got.ID != p.ID {
		t.Fatalf("Verify = %+v, %v", got, err)
	}
	for name, bad := range map[string]string{
		"empty":     "",
		"no prefix": strings.TrimPrefix(tok, "ward_") + "xxxxx",
		"flipped":   tok[:len(tok)-1] + string(tok[len(tok)-1]^1),
		"long":      tok + "A",
		"unknown":   "ward_" + strings.Repeat("A", 43),
	} {
		if _, err := v.Verify(ctx, bad, now); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", name, err)
		}
	}
	if _, err := RevokeRef(ctx, st, p.ID, now); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Verify(ctx, tok, now.Add(time.Second)); !errors.Is(err, ErrInvalid) {
		t.Errorf("revoked token: err = %v", err)
	}
	if _, _, err := Create(ctx, st, Spec{Role: Role("admin")}, now); err == nil {
		t.Error("unknown role accepted")
	}
	if _, _, err := Create(ctx, st, Spec{Role: Role("")}, now); err == nil {
		t.Error("the zero role accepted")
	}
}

// The token lifecycle an owner drives: list, revoke and rotate by id or by
// name, expiry. The tokens are real (a SQLite store), the clock is
// explicit.
func TestTokenLifecycle(t *testing.T) {
	ctx := t.Context()
	st := openStore(t)
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	v := NewVerifier(st, time.Hour) // a long cache: Invalidate must still cut it
	owner, op, err := Create(ctx, st, Spec{Role: Owner, Name: "alice"}, now)
	if err != nil {
		t.Fatal(err)
	}
	bot, bp, err := Create(ctx, st, Spec{Role: Agent, Name: "bot", TTL: 720 * time.Hour}, now)
	if err != nil {
		t.Fatal(err)
	}
	peer, pp, err := Create(ctx, st, Spec{Role: Peer}, now)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(pp.Name, "peer-") {
		t.Errorf("a token created without a name is named %q, want peer-...", pp.Name)
	}
	if !bp.Expires.Equal(now.Add(720 * time.Hour)) {
		t.Errorf("expires %v, want %v", bp.Expires, now.Add(720*time.Hour))
	}
	if _, _, err := Create(ctx, st, Spec{Role: Agent, Name: "bot"}, now); !errors.Is(err, store.ErrNameTaken) {
		t.Errorf("a second live bot: %v, want ErrNameTaken", err)
	}
	for name, spec := range map[string]Spec{
		"negative ttl":   {Role: Agent, Name: "x", TTL: -time.Second},
		"eleven years":   {Role: Agent, Name: "x", TTL: 11 * 365 * 24 * time.Hour},
		"control char":   {Role: Agent, Name: "a\nb"},
		"padded":         {Role: Agent, Name: " x"},
		"65 bytes":       {Role: Agent, Name: strings.Repeat("n", 65)},
		"invalid utf-8":  {Role: Agent, Name: "\xff"},
		"unknown role":   {Role: "root", Name: "x"},
		"zero role":      {Name: "x"},
		"name of a peer": {Role: Agent, Name: pp.Name},
	} {
		if _, _, err := Create(ctx, st, spec, now); err == nil {
			t.Errorf("%s: created", name)
		}
	}
	for _, tok := range []string{owner, bot, peer} {
		if _, err := v.Verify(ctx, tok, now); err != nil {
			t.Fatalf("Verify: %v", err)
		}
	}

	// Expiry: refused from the instant it expires, cached or not.
	if _, err := v.Verify(ctx, bot, bp.Expires.Add(-time.Nanosecond)); err != nil {
		t.Errorf("bot refused before it expires: %v", err)
	}
	if _, err := v.Verify(ctx, bot, bp.Expires); !errors.Is(err, ErrInvalid) {
		t.Errorf("bot at its expiry: %v, want ErrInvalid", err)
	}

	// Rotation by name: the same principal, a new secret; the old one is
	// refused at once in this process (Invalidate) and by any verifier
	// whose cache is older than its ttl.
	t1 := now.Add(time.Minute)
	fresh, rp, err := Rotate(ctx, st, "alice", t1)
	if err != nil {
		t.Fatal(err)
	}
	v.Invalidate(rp.ID)
	if rp.ID != op.ID || fresh == owner {
		t.Errorf("rotate: principal %s → %s, token changed %v", op.ID, rp.ID, fresh != owner)
	}
	if _, err := v.Verify(ctx, owner, t1); !errors.Is(err, ErrInvalid) {
		t.Errorf("the rotated-out token: %v, want ErrInvalid", err)
	}
	if got, err := v.Verify(ctx, fresh, t1); err != nil || got.ID != op.ID {
		t.Errorf("the rotated-in token: %+v, %v", got, err)
	}

	// Revocation by id.
	info, err := RevokeRef(ctx, st, bp.ID, t1)
	if err != nil || info.ID != bp.ID || info.Revoked.IsZero() {
		t.Fatalf("RevokeRef(id) = %+v, %v", info, err)
	}
	if _, err := RevokeRef(ctx, st, bp.ID, t1); !errors.Is(err, ErrRevoked) {
		t.Errorf("revoking twice: %v, want ErrRevoked", err)
	}
	if _, _, err := Rotate(ctx, st, bp.ID, t1); !errors.Is(err, ErrRevoked) {
		t.Errorf("rotating a revoked token: %v, want ErrRevoked", err)
	}
	if _, err := RevokeRef(ctx, st, "bot", t1); !errors.Is(err, ErrNotFound) {
		t.Errorf("a revoked name still resolves: %v", err)
	}
	if _, err := RevokeRef(ctx, st, "nobody", t1); !errors.Is(err, ErrNotFound) {
		t.Errorf("revoking nobody: %v, want ErrNotFound", err)
	}
	if _, err := RevokeRef(ctx, st, "", t1); !errors.Is(err, ErrNotFound) {
		t.Errorf("revoking the empty ref: %v, want ErrNotFound", err)
	}

	list, err := List(ctx, st)
	if err != nil || len(list) != 3 {
		t.Fatalf("List = %+v, %v", list, err)
	}
	byName := map[string]Info{}
	for _, i := range list {
		byName[i.Name] = i
	}
	if i := byName["alice"]; i.Rotated.IsZero() || !i.Revoked.IsZero() || i.LastUsed.IsZero() {
		t.Errorf("alice listed as %+v: want rotated, used, not revoked", i)
	}
	if i := byName["bot"]; i.Revoked.IsZero() || i.Expires.IsZero() {
		t.Errorf("bot listed as %+v: want revoked and expiring", i)
	}
}

// Watch ends a long-lived request within WatchEvery of its principal's
// revocation, and at its expiry; a live principal's request goes on.
func TestWatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := t.Context()
		st := newMemState()
		now := time.Now()
		_, live, err := Create(ctx, st, Spec{Role: Agent, Name: "live"}, now)
		if err != nil {
			t.Fatal(err)
		}
		_, gone, err := Create(ctx, st, Spec{Role: Agent, Name: "gone"}, now)
		if err != nil {
			t.Fatal(err)
		}
		_, short, err := Create(ctx, st, Spec{Role: Agent, Name: "short", TTL: 3 * time.Second}, now)
		if err != nil {
			t.Fatal(err)
		}
		v := NewVerifier(st, 0)
		wLive, stopLive := v.Watch(ctx, live)
		defer stopLive()
		wGone, stopGone := v.Watch(ctx, gone)
		defer stopGone()
		wShort, stopShort := v.Watch(ctx, short)
		defer stopShort()

		time.Sleep(time.Second)
		synctest.Wait()
		if wLive.Err() != nil || wGone.Err() != nil || wShort.Err() != nil {
			t.Fatal("a watch ended with nothing revoked")
		}
		if _, err := RevokeRef(ctx, st, "gone", time.Now()); err != nil {
			t.Fatal(err)
		}
		time.Sleep(WatchEvery)
		synctest.Wait()
		if !errors.Is(context.Cause(wGone), ErrInvalid) {
			t.Errorf("the revoked principal's watch: %v, want ended with ErrInvalid", context.Cause(wGone))
		}
		if wShort.Err() != nil {
			t.Error("the short-lived principal's watch ended early")
		}
		time.Sleep(3 * time.Second)
		synctest.Wait()
		if !errors.Is(context.Cause(wShort), ErrInvalid) {
			t.Errorf("the expired principal's watch: %v, want ended", context.Cause(wShort))
		}
		if wLive.Err() != nil {
			t.Error("the live principal's watch ended")
		}
		// A store that cannot answer ends the watch (fail closed).
		st.mu.Lock()
		st.fail = errors.New("disk gone")
		st.mu.Unlock()
		time.Sleep(WatchEvery)
		synctest.Wait()
		if wLive.Err() == nil {
			t.Error("a watch went on while the store could not say the principal is live")
		}
	})
}

func TestRolesAndHeader(t *testing.T) {
	if Owner.Source() != policy.Creator || Agent.Source() != policy.Agent || Peer.Source() != policy.Peer {
		t.Error("role sources")
	}
	if Role("").Source() != policy.External || Role("admin").Source() != policy.External {
		t.Error("an unknown role is not the least trusted source")
	}
	if tok, ok := FromHeader("Bearer ward_abc"); !ok || tok != "ward_abc" {
		t.Error("bearer header not parsed")
	}
	if _, ok := FromHeader("Basic abc"); ok {
		t.Error("basic auth accepted")
	}
}
