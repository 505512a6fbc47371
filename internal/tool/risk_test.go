package tool

import (
	"strings"
	"testing"
)

func TestRiskText(t *testing.T) {
	for _, r := range []Risk{Safe, Caution, Dangerous, Forbidden} {
		b, err := r.MarshalText()
		if err != nil {
			t.Fatalf("MarshalText(%d): %v", r, err)
		}
		var back Risk
		if err := back.UnmarshalText(b); err != nil || back != r {
			t.Errorf("round trip of %s = %v, %v", r, back, err)
		}
	}
	if _, err := ParseRisk("harmless"); err == nil {
		t.Error(`ParseRisk("harmless") accepted`)
	}
	if got := RiskUnset.Effective(); got != Forbidden {
		t.Errorf("unset risk is effectively %s, want forbidden", got)
	}
	if got := Risk(9).Effective(); got != Forbidden {
		t.Errorf("invalid risk is effectively %s, want forbidden", got)
	}
	if got := TierUnset.Effective(); got != Write {
		t.Errorf("unset tier is effectively %s, want write", got)
	}
}

func TestValidName(t *testing.T) {
	for s, want := range map[string]bool{
		"transfer_credits": true, "mcp:github.create_issue": true, "a": true, "x-1": true,
		"": false, "_x": false, "a b": false, "a/b": false, "exec;rm": false, "é": false,
	} {
		if got := ValidName(s); got != want {
			t.Errorf("ValidName(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestUnhaltedOnlyPrivileged: only a privileged tool may be let through a
// halt (Def.Unhalted); a write or a read that claims it is no valid
// definition.
func TestUnhaltedOnlyPrivileged(t *testing.T) {
	base := func(tier Tier, rt RiskTier, e Effect) *Def {
		return &Def{Name: "wallet_revoke_session_key", Description: "d", Category: CatWallet, Tier: tier, RiskTier: rt, Budget: Fast,
			Effect: e, Risk: Dangerous, SchemaVersion: 1, Unhalted: true,
			Params: []byte(`{"type":"object"}`), Result: []byte(`{"type":"object"}`)}
	}
	for _, c := range []struct {
		name string
		d    *Def
		ok   bool
	}{
		{"privileged", base(Privileged, Layer2, EffectSettle), true},
		{"write", base(Write, Layer2, EffectSettle), false},
		{"read", base(Read, Layer1, EffectNone), false},
	} {
		err := c.d.Validate()
		if (err == nil) != c.ok || (err != nil && !strings.Contains(err.Error(), "unhalted")) {
			t.Errorf("%s: Validate() = %v, want ok %t", c.name, err, c.ok)
		}
	}
}
