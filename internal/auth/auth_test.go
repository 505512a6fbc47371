package auth

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/store/sqlite"
)

func TestCreateVerifyRevoke(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, sqlite.Config{Path: filepath.Join(t.TempDir(), "w.db"), Synchronous: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Now()
	tok, p, err := Create(ctx, st, Owner, "laptop", now)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tok, "ward_") || p.Role != Owner {
		t.Fatalf("token %q principal %+v", tok, p)
	}
	v := NewVerifier(st, time.Nanosecond)
	got, err := v.Verify(ctx, tok, now)
	if err != nil || got.Role != Owner || got.Name != "laptop" {
		t.Fatalf("Verify = %+v, %v", got, err)
	}
	// The token itself is not stored, only its hash.
	if val, _, ok, _ := st.State(ctx, "token:"+tok); ok || val != "" {
		t.Error("the raw token is in the store")
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
	if err := Revoke(ctx, st, tok, now); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Verify(ctx, tok, now.Add(time.Second)); !errors.Is(err, ErrInvalid) {
		t.Errorf("revoked token: err = %v", err)
	}
	if _, _, err := Create(ctx, st, Role("admin"), "", now); err == nil {
		t.Error("unknown role accepted")
	}
}

func TestRolesAndHeader(t *testing.T) {
	if Owner.Source() != policy.Creator || Agent.Source() != policy.Agent || Peer.Source() != policy.Peer {
		t.Error("role sources")
	}
	if tok, ok := FromHeader("Bearer ward_abc"); !ok || tok != "ward_abc" {
		t.Error("bearer header not parsed")
	}
	if _, ok := FromHeader("Basic abc"); ok {
		t.Error("basic auth accepted")
	}
}
