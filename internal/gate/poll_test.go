package gate

import (
	"encoding/json"
	"testing"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/trust"
)

// TestRecheck: a subscription's poll is decided again as the read it
// subscribed through. Allowed in a clean, a tainted and a reviewed
// session (their reads are allowed); refused, with the reason, once the
// policy denies the read, once writes are halted, and once the session is
// gone. Each allowed recheck is an audited read decision.
func TestRecheck(t *testing.T) {
	ctx := t.Context()
	f := newFixture(t, fixtureOpts{})
	args := json.RawMessage(`{"token":"` + tokA.Hex() + `"}`)
	before := f.decisions(t)
	if err := f.tools.Recheck(ctx, f.session, "data_get_token_balance", args); err != nil {
		t.Fatalf("a clean session's poll: %v", err)
	}
	if got := f.decisions(t); got != before+1 {
		t.Errorf("decisions recorded by a recheck: %d, want 1", got-before)
	}
	for _, level := range []trust.Level{trust.Tainted, trust.Review} {
		s := f.open(t, "s-"+level.String(), TrustOptions{Level: trust.Tainted, Reviewers: []string{RulesReviewer}, Judge: RulesJudge})
		if level == trust.Review {
			if err := f.tools.SetLevel(ctx, s, trust.Review, "owner"); err != nil {
				t.Fatal(err)
			}
		}
		if got := f.tools.Level(s); got != level {
			t.Fatalf("session at %v, want %v", got, level)
		}
		if err := f.tools.Recheck(ctx, s, "data_get_token_balance", args); err != nil {
			t.Errorf("a %v session's poll of a read it may make: %v", level, err)
		}
	}

	// The policy now denies the read.
	cfg := rules.DefaultConfig()
	cfg.Rules = append(cfg.Rules, rules.UserRule{ID: "test.no-balances", Priority: 100, AppliesTo: policy.Names("data_get_token_balance"),
		When: `true`, Action: policy.Deny, Code: "NO_BALANCES", Message: "balances are closed"})
	snap, err := rules.Compile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	old, err := f.engine.Swap(snap)
	if err != nil {
		t.Fatal(err)
	}
	r := wantRefusal(t, f.tools.Recheck(ctx, f.session, "data_get_token_balance", args), "NO_BALANCES")
	if r.Stage != "policy" {
		t.Errorf("stage %q, want policy", r.Stage)
	}
	if _, err := f.engine.Swap(old); err != nil {
		t.Fatal(err)
	}

	// A halt ends subscriptions too.
	if err := f.tools.Halt(ctx, f.session, "stop"); err != nil {
		t.Fatal(err)
	}
	wantRefusal(t, f.tools.Recheck(ctx, f.session, "data_get_token_balance", args), reason.Halted)
	if err := f.tools.Resume(ctx, "owner"); err != nil {
		t.Fatal(err)
	}
	if err := f.tools.Recheck(ctx, f.session, "data_get_token_balance", args); err != nil {
		t.Fatalf("after the resume: %v", err)
	}

	// A session that is gone.
	if err := f.tools.DeleteSession(ctx, f.session); err != nil {
		t.Fatal(err)
	}
	wantRefusal(t, f.tools.Recheck(ctx, f.session, "data_get_token_balance", args), reason.StreamUnavailable)
}
