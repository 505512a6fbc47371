package rules

import (
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

func TestTaintRules(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Provenance.Require = map[string][]string{"approve_token": {"spender"}}
	cfg.Rules = []UserRule{{
		ID: "custom.tainted-recipient", Priority: 200, AppliesTo: policy.Names("pay"),
		When:   `session.taint != "clean" && "recipient" in provenance && provenance.recipient == "untrusted"`,
		Action: policy.Deny, Code: "TAINTED_RECIPIENT", Message: "no",
	}}
	s := compile(t, cfg)
	write := func(tr policy.Trust) func(*policy.Request) {
		return func(r *policy.Request) { r.Tool.Tier = tool.Write; r.Trust = tr }
	}
	read := func(tr policy.Trust) func(*policy.Request) {
		return func(r *policy.Request) { r.Tool.Tier = tool.Read; r.Trust = tr }
	}
	sens := []string{"recipient"}
	for _, tc := range []struct {
		name, tool, args string
		mod              func(*policy.Request)
		action           policy.Action
		code             reason.Code
	}{
		{"clean session, untrusted recipient: allowed (taint is what matters)", "send", `{"recipient":"x"}`,
			write(policy.Trust{Provenance: map[string]string{"recipient": "untrusted"}, Sensitive: sens}), policy.Allow, reason.Allowed},
		{"tainted, trusted recipient: allowed", "send", `{"recipient":"x","subject":"y"}`,
			write(policy.Trust{Taint: "tainted", Provenance: map[string]string{"recipient": "trusted", "subject": "untrusted"}, Sensitive: sens}), policy.Allow, reason.Allowed},
		{"tainted, untrusted recipient: quarantined", "send", `{"recipient":"x"}`,
			write(policy.Trust{Taint: "tainted", Provenance: map[string]string{"recipient": "untrusted"}, Sensitive: sens}), policy.Quarantine, reason.UntrustedProvenance},
		{"tainted, unknown recipient: quarantined", "send", `{"recipient":"x"}`,
			write(policy.Trust{Taint: "tainted", Provenance: map[string]string{}, Sensitive: sens}), policy.Quarantine, reason.UntrustedProvenance},
		{"tainted, sensitive argument absent: allowed", "send", `{"amount":1}`,
			write(policy.Trust{Taint: "tainted", Sensitive: sens}), policy.Allow, reason.Allowed},
		{"tainted read: allowed", "lookup", `{"recipient":"x"}`,
			read(policy.Trust{Taint: "tainted", Sensitive: sens}), policy.Allow, reason.Allowed},
		{"tainted data-sending read: quarantined", "fetch", `{"recipient":"x"}`,
			read(policy.Trust{Taint: "tainted", Sends: true, Sensitive: sens}), policy.Quarantine, reason.UntrustedProvenance},
		{"under review: every write waits", "send", `{"amount":1}`,
			write(policy.Trust{Taint: "review"}), policy.Quarantine, reason.SessionUnderReview},
		{"required provenance applies to clean sessions", "approve_token", `{"spender":"0xabc"}`,
			write(policy.Trust{Provenance: map[string]string{"spender": "unknown"}}), policy.Quarantine, reason.UntrustedProvenance},
		{"required provenance met", "approve_token", `{"spender":"0xabc"}`,
			write(policy.Trust{Provenance: map[string]string{"spender": "trusted"}}), policy.Allow, reason.Allowed},
		{"CEL sees taint and provenance and denies", "pay", `{"recipient":"x"}`,
			write(policy.Trust{Taint: "tainted", Provenance: map[string]string{"recipient": "untrusted"}}), policy.Deny, "TAINTED_RECIPIENT"},
		{"CEL: clean session passes", "pay", `{"recipient":"x"}`,
			write(policy.Trust{Provenance: map[string]string{"recipient": "untrusted"}}), policy.Allow, reason.Allowed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := eval(t, s, tc.tool, tc.args, tc.mod)
			if d.Action() != tc.action || d.Code() != tc.code {
				t.Fatalf("%s %s, want %s %s (%s)", d.Action(), d.Code(), tc.action, tc.code, d.Message())
			}
			if tc.code == reason.UntrustedProvenance && strings.Contains(d.Message(), `"x"`) {
				t.Errorf("message echoes the value: %s", d.Message())
			}
		})
	}
}

func TestProvenanceConfigErrors(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Paths.Root = t.TempDir()
	cfg.Provenance.Require = map[string][]string{"Bad Name": {"x"}, "ok_tool": {}}
	_, err := Compile(cfg)
	if err == nil || !strings.Contains(err.Error(), "provenance.require.Bad Name") || !strings.Contains(err.Error(), "provenance.require.ok_tool") {
		t.Fatalf("err = %v", err)
	}
}
