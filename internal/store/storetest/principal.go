package storetest

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
)

func principal(t time.Time, name, role string) *store.PrincipalRecord {
	return &store.PrincipalRecord{ID: id.Opaque(t), Name: name, Role: role, TokenHash: sha256.Sum256([]byte(name + t.String())), Created: t}
}

func samePrincipal(t *testing.T, got, want store.PrincipalRecord) {
	t.Helper()
	if got.ID != want.ID || got.Name != want.Name || got.Role != want.Role || got.TokenHash != want.TokenHash ||
		!sameTime(got.Created, want.Created) || !sameTime(got.Expires, want.Expires) || !sameTime(got.Revoked, want.Revoked) ||
		!sameTime(got.Rotated, want.Rotated) {
		t.Errorf("principal:\n got %+v\nwant %+v", got, want)
	}
}

// testPrincipals: principals round-trip across a reopen and are found
// by token, name and id; names, ids and token hashes are unique; a
// rotation replaces the token hash; a revocation is final and frees the
// name; the list keeps revoked principals and the latest use.
func testPrincipals(t *testing.T, h *harness) {
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	t1, t2 := t0.Add(time.Minute), t0.Add(2*time.Minute)
	alice, bot := createPrincipals(t, h, t0)
	h.reopen()
	lookUpPrincipals(t, h, t0, alice, bot)
	principalsUnique(t, h, t0, alice)
	rotatePrincipal(t, h, t1, alice, bot)
	alice2 := revokePrincipal(t, h, t2, alice)
	if err := h.s.TouchPrincipal(t.Context(), bot.ID, t2); err != nil {
		t.Fatal(err)
	}
	if err := h.s.TouchPrincipal(t.Context(), bot.ID, t1); err != nil { // older: ignored
		t.Fatal(err)
	}
	h.reopen()
	list, err := h.s.ListPrincipals(t.Context())
	if err != nil || len(list) != 3 || list[0].ID != alice.ID || list[1].ID != bot.ID || list[2].ID != alice2.ID {
		t.Fatalf("ListPrincipals = %+v, %v", list, err)
	}
	if !sameTime(list[1].LastUsed, t2) {
		t.Errorf("last used %v, want %v", list[1].LastUsed, t2)
	}
}

// createPrincipals creates the owner alice and the agent bot, which
// expires an hour after t0.
func createPrincipals(t *testing.T, h *harness, t0 time.Time) (alice, bot *store.PrincipalRecord) {
	alice = principal(t0, "alice", "owner")
	bot = principal(t0.Add(time.Second), "bot", "agent")
	bot.Expires = t0.Add(time.Hour)
	for _, p := range []*store.PrincipalRecord{alice, bot} {
		if err := h.s.CreatePrincipal(t.Context(), p); err != nil {
			t.Fatalf("CreatePrincipal(%s): %v", p.Name, err)
		}
	}
	return alice, bot
}

// lookUpPrincipals: bot is found whole by its token and lives until it
// expires; alice is found by name and by id; unknown keys find nothing.
func lookUpPrincipals(t *testing.T, h *harness, t0 time.Time, alice, bot *store.PrincipalRecord) {
	ctx := t.Context()
	got, err := h.s.PrincipalByToken(ctx, bot.TokenHash)
	if err != nil {
		t.Fatal(err)
	}
	samePrincipal(t, got, *bot)
	if !got.Live(t0) || got.Live(t0.Add(time.Hour)) {
		t.Errorf("Live of a principal expiring at %v is wrong", bot.Expires)
	}
	if got, err := h.s.PrincipalByName(ctx, "alice"); err != nil || got.ID != alice.ID {
		t.Errorf("PrincipalByName(alice) = %+v, %v", got, err)
	}
	if got, err := h.s.Principal(ctx, alice.ID); err != nil || got.Name != "alice" {
		t.Errorf("Principal(alice) = %+v, %v", got, err)
	}
	for name, fn := range map[string]func() error{
		"unknown token": func() error { _, err := h.s.PrincipalByToken(ctx, sha256.Sum256([]byte("x"))); return err },
		"unknown id":    func() error { _, err := h.s.Principal(ctx, "nobody"); return err },
		"unknown name":  func() error { _, err := h.s.PrincipalByName(ctx, "nobody"); return err },
	} {
		if err := fn(); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s: %v, want ErrNotFound", name, err)
		}
	}
}

// principalsUnique: a second principal with alice's live name, token
// hash or id is refused.
func principalsUnique(t *testing.T, h *harness, t0 time.Time, alice *store.PrincipalRecord) {
	ctx := t.Context()
	dupName := principal(t0, "alice", "agent")
	if err := h.s.CreatePrincipal(ctx, dupName); !errors.Is(err, store.ErrNameTaken) {
		t.Errorf("a second live alice: %v, want ErrNameTaken", err)
	}
	dupHash := principal(t0, "carol", "agent")
	dupHash.TokenHash = alice.TokenHash
	if err := h.s.CreatePrincipal(ctx, dupHash); !errors.Is(err, store.ErrPrincipalExists) {
		t.Errorf("a reused token hash: %v, want ErrPrincipalExists", err)
	}
	dupID := principal(t0, "dave", "agent")
	dupID.ID = alice.ID
	if err := h.s.CreatePrincipal(ctx, dupID); !errors.Is(err, store.ErrPrincipalExists) {
		t.Errorf("a reused id: %v, want ErrPrincipalExists", err)
	}
}

// rotatePrincipal rotates bot's token at t1: new hash, same id; the old
// hash finds nothing, and another principal's hash is refused.
func rotatePrincipal(t *testing.T, h *harness, t1 time.Time, alice, bot *store.PrincipalRecord) {
	ctx := t.Context()
	newHash := sha256.Sum256([]byte("rotated"))
	if err := h.s.RotatePrincipal(ctx, bot.ID, newHash, t1); err != nil {
		t.Fatalf("RotatePrincipal: %v", err)
	}
	if _, err := h.s.PrincipalByToken(ctx, bot.TokenHash); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the rotated-out token still finds %v", err)
	}
	if got, err := h.s.PrincipalByToken(ctx, newHash); err != nil || got.ID != bot.ID || !sameTime(got.Rotated, t1) {
		t.Errorf("after rotation: %+v, %v", got, err)
	}
	if err := h.s.RotatePrincipal(ctx, bot.ID, alice.TokenHash, t1); !errors.Is(err, store.ErrPrincipalExists) {
		t.Errorf("rotating to another's hash: %v, want ErrPrincipalExists", err)
	}
}

// revokePrincipal revokes alice at t2: the revocation is final, her
// token still finds her (not live) while her name is free again; it
// returns the new alice created with the name.
func revokePrincipal(t *testing.T, h *harness, t2 time.Time, alice *store.PrincipalRecord) *store.PrincipalRecord {
	ctx := t.Context()
	if err := h.s.RevokePrincipal(ctx, alice.ID, t2); err != nil {
		t.Fatalf("RevokePrincipal: %v", err)
	}
	if err := h.s.RevokePrincipal(ctx, alice.ID, t2.Add(time.Second)); !errors.Is(err, store.ErrPrincipalRevoked) {
		t.Errorf("a second revocation: %v, want ErrPrincipalRevoked", err)
	}
	if err := h.s.RotatePrincipal(ctx, alice.ID, sha256.Sum256([]byte("again")), t2); !errors.Is(err, store.ErrPrincipalRevoked) {
		t.Errorf("rotating a revoked principal: %v, want ErrPrincipalRevoked", err)
	}
	if err := h.s.RevokePrincipal(ctx, "nobody", t2); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("revoking nobody: %v, want ErrNotFound", err)
	}
	if got, err := h.s.PrincipalByToken(ctx, alice.TokenHash); err != nil || got.Live(t2) || !sameTime(got.Revoked, t2) {
		t.Errorf("a revoked principal by token: %+v, %v (want found, not live, revoked at %v)", got, err, t2)
	}
	if _, err := h.s.PrincipalByName(ctx, "alice"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a revoked name still resolves: %v", err)
	}
	alice2 := principal(t2, "alice", "owner")
	if err := h.s.CreatePrincipal(ctx, alice2); err != nil {
		t.Errorf("reusing a revoked principal's name: %v", err)
	}
	return alice2
}

func testPrincipalInvalid(t *testing.T, h *harness) {
	ctx := t.Context()
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	for name, mut := range map[string]func(p *store.PrincipalRecord){
		"empty id":       func(p *store.PrincipalRecord) { p.ID = "" },
		"empty name":     func(p *store.PrincipalRecord) { p.Name = "" },
		"bad role":       func(p *store.PrincipalRecord) { p.Role = "admin" },
		"zero hash":      func(p *store.PrincipalRecord) { p.TokenHash = [32]byte{} },
		"zero created":   func(p *store.PrincipalRecord) { p.Created = time.Time{} },
		"expired at":     func(p *store.PrincipalRecord) { p.Expires = p.Created },
		"revoked":        func(p *store.PrincipalRecord) { p.Revoked = p.Created },
		"long name":      func(p *store.PrincipalRecord) { p.Name = fmt.Sprintf("%0200d", 1) },
		"already rotate": func(p *store.PrincipalRecord) { p.Rotated = p.Created },
	} {
		p := principal(t0, "x", "agent")
		mut(p)
		if err := h.s.CreatePrincipal(ctx, p); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if list, err := h.s.ListPrincipals(ctx); err != nil || len(list) != 0 {
		t.Errorf("invalid principals left %d rows, %v", len(list), err)
	}
}

// Of many concurrent creations of one name, exactly one succeeds.
func testPrincipalConcurrentName(t *testing.T, h *harness) {
	ctx := t.Context()
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for i := range 16 {
		wg.Go(func() {
			p := principal(t0.Add(time.Duration(i)), "same", "agent")
			if err := h.s.CreatePrincipal(ctx, p); err == nil {
				mu.Lock()
				ok++
				mu.Unlock()
			} else if !errors.Is(err, store.ErrNameTaken) {
				t.Errorf("CreatePrincipal: %v", err)
			}
		})
	}
	wg.Wait()
	if ok != 1 {
		t.Errorf("%d concurrent creations of one name succeeded, want 1", ok)
	}
}
