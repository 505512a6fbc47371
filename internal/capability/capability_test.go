package capability_test

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/capability"
	"github.com/wardhq/ward/internal/capability/mint"
)

var (
	now  = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	args = [32]byte{1, 2, 3}
)

func minted() *capability.Capability {
	return mint.Capability(mint.Fields{PermitID: "p1", Tool: "uniswap_execute_swap", ArgsHash: args,
		ValueCents: 50_000, ExpiresAt: now.Add(time.Minute), ExpiryTick: 10})
}

func TestConsume(t *testing.T) {
	for _, tc := range []struct {
		name string
		cap  *capability.Capability
		tool string
		args [32]byte
		tick uint64
		at   time.Time
		want error
	}{
		{"valid", minted(), "uniswap_execute_swap", args, 9, now, nil},
		{"nil", nil, "uniswap_execute_swap", args, 0, now, capability.ErrInvalid},
		{"zero value", &capability.Capability{}, "uniswap_execute_swap", args, 0, now, capability.ErrInvalid},
		{"other tool", minted(), "vault_deposit", args, 0, now, capability.ErrScope},
		{"other arguments", minted(), "uniswap_execute_swap", [32]byte{9}, 0, now, capability.ErrScope},
		{"at the wall-clock expiry", minted(), "uniswap_execute_swap", args, 0, now.Add(time.Minute), capability.ErrExpired},
		{"at the tick expiry", minted(), "uniswap_execute_swap", args, 10, now, capability.ErrExpired},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.cap.Consume(tc.tool, tc.args, tc.tick, tc.at)
			if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
				t.Fatalf("Consume = %v, want %v", err, tc.want)
			}
			if tc.want != nil && tc.cap.Used() {
				t.Error("a capability that failed its checks was consumed")
			}
		})
	}
}

func TestConsumeOnce(t *testing.T) {
	c := minted()
	// A failed attempt does not use it up.
	if err := c.Consume("vault_deposit", args, 0, now); !errors.Is(err, capability.ErrScope) {
		t.Fatal(err)
	}
	var ok, used atomic.Int64
	var wg sync.WaitGroup
	for range 1000 {
		wg.Go(func() {
			switch err := c.Consume("uniswap_execute_swap", args, 0, now); {
			case err == nil:
				ok.Add(1)
			case errors.Is(err, capability.ErrConsumed):
				used.Add(1)
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 1 || used.Load() != 999 || !c.Used() {
		t.Errorf("%d consumed, %d refused as used; want 1 and 999", ok.Load(), used.Load())
	}
	if c.PermitID() != "p1" || c.ValueCents() != 50_000 || c.ExpiryTick() != 10 || c.ArgsHash() != args {
		t.Error("accessors do not return the minted fields")
	}
}

func TestApproval(t *testing.T) {
	var zero *capability.Approval
	if zero.Valid("p1") || (&capability.Approval{}).Valid("") {
		t.Error("a zero approval is valid")
	}
	a := mint.Approval("p1", "0xowner", now)
	if !a.Valid("p1") || a.Valid("p2") || a.Owner() != "0xowner" {
		t.Error("approval scope wrong")
	}
}
