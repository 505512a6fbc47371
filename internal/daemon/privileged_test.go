package daemon_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/daemon"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
	"github.com/wardhq/ward/internal/trust"
)

// privStack opens a wired stack over the database db whose privileged
// calls the owner key approves.
func privStack(t *testing.T, db string, ownerKey *ecdsa.PrivateKey) *daemon.Stack {
	t.Helper()
	return privStackLog(t, db, ownerKey, nil)
}

// privStackLog is privStack logging to log.
func privStackLog(t *testing.T, db string, ownerKey *ecdsa.PrivateKey, log *slog.Logger) *daemon.Stack {
	t.Helper()
	snap, err := rules.Compile(rules.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	st, err := daemon.Open(t.Context(), daemon.Config{
		DB: db, Policy: snap, DevSeed: "ward-privileged-test", AnnounceDelay: -1, Log: log,
		Owner: tool.Address(crypto.PubkeyToAddress(ownerKey.PublicKey)),
		Hooks: hook.Config{
			Spending: hook.SpendingConfig{PerTickCents: hook.Unlimited, PerSessionCents: hook.Unlimited, DailyCents: hook.Unlimited},
			Rate:     hook.RateConfig{Max: 1 << 20, Window: time.Hour},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// approve signs the approval of permitID for name with raw as arguments
// (EIP-191 personal_sign of gate.ApprovalMessage, v 27 or 28).
func approve(t *testing.T, key *ecdsa.PrivateKey, permitID, name string, raw json.RawMessage) []byte {
	t.Helper()
	h, err := gate.ArgsHash(raw)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := crypto.Sign(accounts.TextHash([]byte(gate.ApprovalMessage(permitID, name, h))), key)
	if err != nil {
		t.Fatal(err)
	}
	sig[64] += 27
	return sig
}

func wantCode(t *testing.T, what string, err error, code reason.Code) {
	t.Helper()
	var r *gate.Refusal
	if !errors.As(err, &r) || r.Code != code {
		t.Fatalf("%s: got %v, want a %s refusal", what, err, code)
	}
}

// privCase is one privileged tool under attack: its arguments, other
// arguments the owner might sign instead, what of the state it changes
// reads now, and what that reads once it is committed.
type privCase struct {
	name      string
	args, alt string
	state     func() string
	want      string
}

// TestPrivilegedTools drives every privileged tool through the gate the
// way a hostile agent would: without the owner's signature, with another
// key's, with the owner's over another permit or other arguments, from
// another principal's session, and replaying an approval on a second
// permit. Only the owner's signature of the very permit commits, once;
// the preview changes nothing; the change is in the store (a restart
// sees it) and the next decision obeys it.
func TestPrivilegedTools(t *testing.T) {
	ctx := t.Context()
	ownerKey, _ := crypto.GenerateKey()
	otherKey, _ := crypto.GenerateKey()
	db := daemon.DefaultDB(t.TempDir())
	st := privStack(t, db, ownerKey)
	closed := false
	defer func() {
		if !closed {
			st.Close()
		}
	}()

	agent, err := st.Session(ctx, "agent", policy.Agent, "dev")
	if err != nil {
		t.Fatal(err)
	}
	view, err := st.View(configTools("dev"))
	if err != nil {
		t.Fatal(err)
	}
	// A tainted session, for the review tool (a clean one has no review
	// to set), and the tokens the token tools manage.
	tainted, err := st.Tools.OpenSession(ctx, gate.Owner{PrincipalID: "p-tainted", Name: "tainted", Source: policy.Agent}, "tainted", view)
	if err != nil {
		t.Fatal(err)
	}
	dc := st.Dev.Contracts()
	if _, err := st.Tools.Read(ctx, tainted, "data_get_token_info", json.RawMessage(`{"token":"`+dc.USDC.Hex()+`"}`)); err != nil {
		t.Fatal(err)
	}
	if lv := st.Tools.Level(tainted); lv != trust.Tainted {
		t.Fatalf("the third-party read left the session %s", lv)
	}
	_, victim, err := auth.Create(ctx, st.Store, auth.Spec{Role: auth.Agent, Name: "bot-old"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	_, rotated, err := auth.Create(ctx, st.Store, auth.Spec{Role: auth.Agent, Name: "bot-rotate"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	oldSecret, _, err := auth.Create(ctx, st.Store, auth.Spec{Role: auth.Peer, Name: "peer-rotate"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	// A pending permit of another session, for the owner to cancel.
	swap := json.RawMessage(fmt.Sprintf(`{"token_in":%q,"token_out":%q,"amount_in":"1000000"}`, dc.USDC.Hex(), dc.WETH.Hex()))
	other, err := st.Session(ctx, "other", policy.Agent, "dev")
	if err != nil {
		t.Fatal(err)
	}
	pending, err := st.Tools.Preview(ctx, other, "uniswap_execute_swap", swap)
	if err != nil {
		t.Fatal(err)
	}

	// A tainted session's previews of privileged tools wait for the
	// owner's review like any state-changing call of it: one held call
	// for the reject tool.
	_, err = st.Tools.Preview(ctx, tainted, "safety_set_gate_phase", json.RawMessage(`{"phase":"declining"}`))
	wantCode(t, "a tainted session's privileged preview", err, reason.UntrustedProvenance)
	var held *gate.Refusal
	errors.As(err, &held)
	// preview previews name as s; a preview held for review is approved
	// by the owner (over the API in real life), which issues the permit.
	preview := func(s *gate.Session, name string, raw json.RawMessage) *gate.PermitView {
		t.Helper()
		pv, err := st.Tools.Preview(ctx, s, name, raw)
		var r *gate.Refusal
		if errors.As(err, &r) && r.Code == reason.UntrustedProvenance && r.Quarantine != "" && s == tainted {
			q, err := st.Tools.Approve(ctx, r.Quarantine, "owner:test", "")
			if err != nil || q.Outcome == nil || q.Outcome.Permit == nil {
				t.Fatalf("%s: owner's approval of the held preview: %+v %v", name, q, err)
			}
			return q.Outcome.Permit
		}
		if err != nil {
			t.Fatalf("%s: preview: %v", name, err)
		}
		return pv
	}
	heldStatus := func() string { q, _ := st.Tools.Quarantined(ctx, held.Quarantine); return q.Status.String() }
	phase := func() string { p, _ := st.Tools.Phase(ctx); return p.String() }
	halted := func() string { h, _, _ := st.Tools.Halted(ctx); return fmt.Sprint(h) }
	directive := func() string {
		r, _ := st.Store.Session(ctx, agent.ID)
		return fmt.Sprintf("%q trusted=%t", r.Directive, r.DirectiveTrusted)
	}
	level := func() string { r, _ := st.Store.Session(ctx, tainted.ID); return r.Level.String() }
	permit := func() string { p, _ := st.Store.Permit(ctx, pending.PermitID); return string(p.Status) }
	principal := func(name string) func() string {
		return func() string {
			r, err := auth.Find(ctx, st.Store, name)
			if err != nil {
				return "none"
			}
			return fmt.Sprintf("%s revoked=%t rotated=%t", r.Role, !r.Revoked.IsZero(), !r.Rotated.IsZero())
		}
	}
	spending := func() string {
		l, ok, err := st.Tools.SpendingOverride(ctx)
		if err != nil || !ok {
			return fmt.Sprintf("none %v", err)
		}
		return spendingText(l)
	}
	const tightLimits = `{"per_tick_usd":"0.50","per_session_usd":"unlimited","daily_usd":"unlimited"}`
	allowlist := func() string {
		es, err := st.Tools.AllowlistEntries(ctx)
		if err != nil {
			return err.Error()
		}
		var b strings.Builder
		for _, e := range es {
			fmt.Fprintf(&b, "%s %s allowed=%t;", e.Kind, e.Value, e.Allowed)
		}
		return b.String()
	}
	usdc := strings.ToLower(dc.USDC.Hex())
	refuseUSDC := `{"remove":{"tokens":["` + dc.USDC.Hex() + `"]}}`
	// commitOwner previews and commits name with the owner's approval.
	commitOwner := func(s *gate.Session, name string, raw json.RawMessage) {
		t.Helper()
		pv, err := st.Tools.Preview(ctx, s, name, raw)
		if err != nil {
			t.Fatalf("%s %s: preview: %v", name, raw, err)
		}
		if _, err := st.Tools.Commit(ctx, s, gate.CommitRequest{PermitID: pv.PermitID, Approval: approve(t, ownerKey, pv.PermitID, name, raw)}); err != nil {
			t.Fatalf("%s %s: commit: %v", name, raw, err)
		}
	}
	cases := []privCase{
		{name: "safety_set_gate_phase", args: `{"phase":"terminal"}`, alt: `{"phase":"thriving"}`, state: phase, want: "terminal"},
		{name: "safety_set_agent_directive", args: `{"directive":"pay 0x00000000000000000000000000000000000000aa 5 USDC"}`, alt: `{"directive":"anything"}`,
			state: directive, want: `"pay 0x00000000000000000000000000000000000000aa 5 USDC" trusted=true`},
		{name: "safety_set_session_review", args: `{"level":"review"}`, alt: `{"level":"tainted"}`, state: level, want: "review"},
		{name: "safety_cancel_pending_permit", args: `{"permit_id":"` + pending.PermitID + `"}`, alt: `{"permit_id":"nope"}`, state: permit, want: "cancelled"},
		{name: "safety_reject_held_call", args: `{"id":"` + held.Quarantine + `","note":"no"}`, alt: `{"id":"another"}`, state: heldStatus, want: "rejected"},
		{name: "wallet_issue_agent_token", args: `{"name":"bot-new","ttl":"720h"}`, alt: `{"name":"bot-evil"}`, state: principal("bot-new"), want: "agent revoked=false rotated=false"},
		{name: "wallet_issue_peer_token", args: `{"name":"peer-new"}`, alt: `{"name":"peer-evil"}`, state: principal("peer-new"), want: "peer revoked=false rotated=false"},
		{name: "wallet_revoke_agent_token", args: `{"ref":"` + victim.ID + `"}`, alt: `{"ref":"` + rotated.ID + `"}`, state: principal(victim.ID), want: "agent revoked=true rotated=false"},
		{name: "wallet_rotate_agent_token", args: `{"ref":"peer-rotate"}`, alt: `{"ref":"bot-rotate"}`, state: principal("peer-rotate"), want: "peer revoked=false rotated=true"},
		{name: "safety_set_spending_limits", args: tightLimits, alt: `{"clear":true}`, state: spending, want: "0.50/unlimited/unlimited"},
		{name: "safety_change_allowlist", args: refuseUSDC, alt: `{"remove":{"tokens":["` + dc.WETH.Hex() + `"]}}`, state: allowlist, want: "token " + usdc + " allowed=false;"},
		{name: "safety_halt_gate_writes", args: `{"reason":"owner says stop"}`, alt: `{"reason":"other"}`, state: halted, want: "true"},
	}
	sessionOf := func(c privCase) *gate.Session {
		if c.name == "safety_set_session_review" {
			return tainted
		}
		return agent
	}
	for _, c := range cases {
		s := sessionOf(c)
		raw := json.RawMessage(c.args)
		before := c.state()
		pv := preview(s, c.name, raw)
		if pv.RiskTier != tool.Critical {
			t.Errorf("%s: permit risk %s, want critical", c.name, pv.RiskTier)
		}
		if got := c.state(); got != before {
			t.Fatalf("%s: the preview changed the state: %s → %s", c.name, before, got)
		}
		var last *tool.Result
		commit := func(sess *gate.Session, permitID string, sig []byte) error {
			res, err := st.Tools.Commit(ctx, sess, gate.CommitRequest{PermitID: permitID, Approval: sig})
			last = res
			return err
		}
		wantCode(t, c.name+" without approval", commit(s, pv.PermitID, nil), reason.ApprovalRequired)
		wantCode(t, c.name+" signed by another key", commit(s, pv.PermitID, approve(t, otherKey, pv.PermitID, c.name, raw)), reason.ApprovalInvalid)
		wantCode(t, c.name+" owner's signature of another permit", commit(s, pv.PermitID, approve(t, ownerKey, pending.PermitID, c.name, raw)), reason.ApprovalInvalid)
		wantCode(t, c.name+" owner's signature of other arguments", commit(s, pv.PermitID, approve(t, ownerKey, pv.PermitID, c.name, json.RawMessage(c.alt))), reason.ApprovalInvalid)
		wantCode(t, c.name+" owner's signature of another tool", commit(s, pv.PermitID, approve(t, ownerKey, pv.PermitID, otherTool(c.name), raw)), reason.ApprovalInvalid)
		wantCode(t, c.name+" garbage signature", commit(s, pv.PermitID, []byte("not a signature")), reason.ApprovalInvalid)
		sig := approve(t, ownerKey, pv.PermitID, c.name, raw)
		// Another principal (another token) holding the permit id and
		// the owner's signature: the permit is not its own.
		intruder, err := st.Tools.OpenSession(ctx, gate.Owner{PrincipalID: "p-intruder-" + c.name, Name: "intruder", Source: policy.Agent}, "intruder", view)
		if err != nil {
			t.Fatal(err)
		}
		wantCode(t, c.name+" from another principal's session", commit(intruder, pv.PermitID, sig), reason.PermitNotFound)
		if got := c.state(); got != before {
			t.Fatalf("%s: a refused commit changed the state: %s → %s", c.name, before, got)
		}
		// A second permit for the same call: the first permit's approval
		// does not carry over.
		pv2 := preview(s, c.name, raw)
		wantCode(t, c.name+" approval replayed on a second permit", commit(s, pv2.PermitID, sig), reason.ApprovalInvalid)
		if err := st.Tools.Cancel(ctx, s, pv2.PermitID); err != nil {
			t.Fatal(err)
		}

		if err := commit(s, pv.PermitID, sig); err != nil {
			t.Fatalf("%s: approved commit: %v", c.name, err)
		}
		done := last
		if got := c.state(); got != c.want {
			t.Errorf("%s: state after the commit %s, want %s", c.name, got, c.want)
		}
		again := reason.PermitConsumed
		if c.name == "safety_halt_gate_writes" {
			again = reason.Halted // the halt it made stops it first
		}
		wantCode(t, c.name+" the same approval again", commit(s, pv.PermitID, sig), again)

		// The next decision obeys the change.
		switch c.name {
		case "safety_set_gate_phase":
			_, err := st.Tools.Preview(ctx, agent, "uniswap_execute_swap", swap)
			wantCode(t, "a swap in the terminal phase", err, reason.PhaseBlocked)
			// The owner's settings stay reachable in every phase: on to
			// conservation (which executes only closing writes), then back
			// to stable, by the same tool.
			for _, to := range []string{"conservation", "stable"} {
				back := json.RawMessage(`{"phase":"` + to + `"}`)
				pv, err := st.Tools.Preview(ctx, agent, c.name, back)
				if err != nil {
					t.Fatalf("preview of a phase change to %s in the %s phase: %v", to, phase(), err)
				}
				if err := commit(agent, pv.PermitID, approve(t, ownerKey, pv.PermitID, c.name, back)); err != nil {
					t.Fatalf("phase change to %s in the %s phase: %v", to, phase(), err)
				}
			}
		case "safety_cancel_pending_permit":
			_, err := st.Tools.Commit(ctx, other, gate.CommitRequest{PermitID: pending.PermitID})
			wantCode(t, "the cancelled permit", err, reason.PermitCancelled)
		case "wallet_issue_agent_token":
			// The session key the agent got works, as an agent's.
			var out struct {
				Token string `json:"token"`
			}
			if err := json.Unmarshal(done.Data, &out); err != nil {
				t.Fatal(err)
			}
			p, err := auth.NewVerifier(st.Store, 0).Verify(ctx, out.Token, time.Now())
			if err != nil || p.Role != auth.Agent || p.Name != "bot-new" {
				t.Errorf("the issued token: %+v %v (result %s)", p, err, done.Data)
			}
		case "wallet_rotate_agent_token":
			if _, err := auth.NewVerifier(st.Store, 0).Verify(ctx, oldSecret, time.Now()); err == nil {
				t.Error("the rotated token's old secret is still accepted")
			}
		case "safety_halt_gate_writes":
			_, err := st.Tools.Preview(ctx, agent, "uniswap_execute_swap", swap)
			wantCode(t, "a swap after the owner's halt", err, reason.Halted)
		case "safety_set_spending_limits":
			// A $1 swap is over the owner's $0.50 per tick; a reload of
			// ward.toml (unlimited here) does not undo the override.
			_, err := st.Tools.Preview(ctx, agent, "uniswap_execute_swap", swap)
			wantCode(t, "a $1 swap over the owner's $0.50 per tick", err, reason.SpendTickLimit)
			if err := st.Hooks.Spending.SetLimits(hook.SpendingConfig{PerTickCents: hook.Unlimited, PerSessionCents: hook.Unlimited, DailyCents: hook.Unlimited}); err != nil {
				t.Fatal(err)
			}
			_, err = st.Tools.Preview(ctx, agent, "uniswap_execute_swap", swap)
			wantCode(t, "the swap after a reload", err, reason.SpendTickLimit)
			// Cleared, ward.toml's limits are in force again.
			commitOwner(agent, c.name, json.RawMessage(`{"clear":true}`))
			if got := spending(); !strings.HasPrefix(got, "none") {
				t.Errorf("override after the clear: %s", got)
			}
			pv, err := st.Tools.Preview(ctx, agent, "uniswap_execute_swap", swap)
			if err != nil {
				t.Fatalf("the swap under ward.toml's limits again: %v", err)
			}
			if err := st.Tools.Cancel(ctx, agent, pv.PermitID); err != nil {
				t.Fatal(err)
			}
			// Set again, for the restart below.
			commitOwner(agent, c.name, json.RawMessage(tightLimits))
		case "safety_change_allowlist":
			// USDC is on ward.toml's (the dev chain's) allowlist; the
			// owner's removal wins, and a reset gives it back.
			_, err := st.Tools.Preview(ctx, agent, "uniswap_execute_swap", swap)
			wantCode(t, "a USDC swap after the owner refused USDC", err, reason.TokenNotAllowed)
			commitOwner(agent, c.name, json.RawMessage(`{"reset":true}`))
			if got := allowlist(); got != "" {
				t.Errorf("allowlist entries after a reset: %s", got)
			}
			// The allowlist lets it through again: the next hook, the
			// owner's $0.50 spending limit set above, is what refuses it.
			_, err = st.Tools.Preview(ctx, agent, "uniswap_execute_swap", swap)
			wantCode(t, "a USDC swap after the reset", err, reason.SpendTickLimit)
			// Bad arguments are refused at the preview, changing nothing.
			for _, bad := range []string{`{}`, `{"add":{"tokens":["0x12"]}}`, `{"add":{"tokens":["` + dc.USDC.Hex() + `"]},"remove":{"tokens":["` + dc.USDC.Hex() + `"]}}`} {
				if pv, err := st.Tools.Preview(ctx, agent, c.name, json.RawMessage(bad)); err == nil {
					if _, err := st.Tools.Commit(ctx, agent, gate.CommitRequest{PermitID: pv.PermitID, Approval: approve(t, ownerKey, pv.PermitID, c.name, json.RawMessage(bad))}); err == nil {
						t.Errorf("%s %s: committed", c.name, bad)
					}
				}
			}
			if got := allowlist(); got != "" {
				t.Errorf("allowlist entries after refused changes: %s", got)
			}
			// Refused again, for the restart below.
			commitOwner(agent, c.name, json.RawMessage(refuseUSDC))
		}
	}
	// The tokens issued are real: the issued secret verifies, the revoked
	// one does not.
	if p, err := auth.Find(ctx, st.Store, victim.ID); err != nil || p.Revoked.IsZero() {
		t.Errorf("the revoked token: %+v %v", p, err)
	}

	// An owner token is out of every token tool's reach.
	if _, _, err := auth.Create(ctx, st.Store, auth.Spec{Role: auth.Owner, Name: "the-owner"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := st.Tools.Resume(ctx, "test"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"wallet_revoke_agent_token", "wallet_rotate_agent_token"} {
		_, err := st.Tools.Preview(ctx, agent, name, json.RawMessage(`{"ref":"the-owner"}`))
		wantCode(t, name+" of the owner's token", err, reason.ExecutionFailed)
	}

	// Durable: a restart over the same database sees every change.
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	closed = true
	var logged bytes.Buffer
	re := privStackLog(t, db, ownerKey, slog.New(slog.NewTextHandler(&logged, nil)))
	defer re.Close()
	if l := logged.String(); !strings.Contains(l, "spending override is in force") || !strings.Contains(l, "per_tick_usd=0.50") {
		t.Errorf("the start does not log the override in force:\n%s", l)
	}
	if p, _ := re.Tools.Phase(ctx); p != hook.Stable {
		t.Errorf("phase after the restart: %s, want stable", p)
	}
	if r, err := re.Store.Session(ctx, agent.ID); err != nil || !r.DirectiveTrusted || !strings.Contains(r.Directive, "0x00000000000000000000000000000000000000aa") {
		t.Errorf("directive after the restart: %+v %v", r, err)
	}
	if r, err := re.Store.Session(ctx, tainted.ID); err != nil || r.Level != trust.Review {
		t.Errorf("level after the restart: %v %v", r.Level, err)
	}
	if p, err := re.Store.Permit(ctx, pending.PermitID); err != nil || p.Status != store.PermitCancelled {
		t.Errorf("cancelled permit after the restart: %s %v", p.Status, err)
	}
	for name, want := range map[string]string{"bot-new": "agent", "peer-new": "peer"} {
		if r, err := auth.Find(ctx, re.Store, name); err != nil || string(r.Role) != want || !r.Revoked.IsZero() {
			t.Errorf("issued token %s after the restart: %+v %v", name, r, err)
		}
	}
	if r, err := auth.Find(ctx, re.Store, victim.ID); err != nil || r.Revoked.IsZero() {
		t.Errorf("revoked token after the restart: %+v %v", r, err)
	}
	if l, ok, err := re.Tools.SpendingOverride(ctx); err != nil || !ok || spendingText(l) != "0.50/unlimited/unlimited" {
		t.Errorf("spending override after the restart: %+v %t %v", l, ok, err)
	}
	reAgent, err := re.Session(ctx, "agent-after", policy.Agent, "dev")
	if err != nil {
		t.Fatal(err)
	}
	_, err = re.Tools.Preview(ctx, reAgent, "uniswap_execute_swap", swap)
	wantCode(t, "a USDC swap after the restart", err, reason.TokenNotAllowed)
	if es, err := re.Tools.AllowlistEntries(ctx); err != nil || len(es) != 1 || es[0].Value != usdc || es[0].Allowed {
		t.Errorf("allowlist entries after the restart: %+v %v", es, err)
	}
	// Each approved commit is audited like any write: its permit
	// consumed, its outcome executed.
	for _, c := range cases {
		out, err := re.Store.Actions(ctx, store.ActionFilter{Tool: c.name, Kind: store.ActionToolCall})
		if err != nil {
			t.Fatal(err)
		}
		executed := 0
		for _, r := range out {
			if r.Status == store.StatusExecuted {
				executed++
			}
		}
		want := 1
		switch c.name {
		case "safety_set_gate_phase":
			want = 3 // and on to conservation and stable
		case "safety_set_spending_limits":
			want = 3 // cleared and set again
		case "safety_change_allowlist":
			want = 3 // reset and set again
		}
		if executed != want {
			t.Errorf("%s: %d executed outcomes recorded, want %d", c.name, executed, want)
		}
	}
	// The phase changes are recorded as the owner's, by key.
	recs, err := re.Store.Actions(ctx, store.ActionFilter{Kind: store.ActionPhaseChanged})
	if err != nil {
		t.Fatal(err)
	}
	owner := strings.ToLower(crypto.PubkeyToAddress(ownerKey.PublicKey).Hex())
	n := 0
	for _, r := range recs {
		if strings.Contains(strings.ToLower(string(r.Detail)), "owner:"+owner) {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d phase changes recorded as the owner's, want 3: %v", n, recs)
	}
}

// spendingText formats limits in dollars, per tick/per session/daily.
func spendingText(l hook.SpendingConfig) string {
	d := func(c int64) string {
		if c == hook.Unlimited {
			return "unlimited"
		}
		return fmt.Sprintf("%d.%02d", c/100, c%100)
	}
	return d(l.PerTickCents) + "/" + d(l.PerSessionCents) + "/" + d(l.DailyCents)
}

// otherTool names a privileged tool that is not name.
func otherTool(name string) string {
	if name == "safety_set_gate_phase" {
		return "safety_halt_gate_writes"
	}
	return "safety_set_gate_phase"
}

func configTools(profile string) config.Tools { return config.Tools{Profiles: []string{profile}} }

// TestPrivilegedProfiles: only the profiles that load everything list
// the privileged tools; a read or write profile does not even see them.
func TestPrivilegedProfiles(t *testing.T) {
	ownerKey, _ := crypto.GenerateKey()
	st := privStack(t, daemon.DefaultDB(t.TempDir()), ownerKey)
	defer st.Close()
	for _, p := range registry.Profiles() {
		v, err := st.View(configTools(p))
		if err != nil {
			t.Fatal(err)
		}
		var priv []string
		for _, e := range v.Entries() {
			if e.Def.Tier == tool.Privileged {
				priv = append(priv, e.Def.Name)
			}
		}
		all := slices.Contains([]string{"active", "golem", "full", "dev"}, p)
		switch {
		case all && len(priv) < 10:
			t.Errorf("profile %s lists %d privileged tools, want at least 10", p, len(priv))
		case !all && len(priv) > 0:
			t.Errorf("profile %s lists privileged tools %v", p, priv)
		}
	}
	// A trader session cannot preview one.
	s, err := st.Session(context.Background(), "trader", policy.Agent, "trader")
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.Tools.Preview(t.Context(), s, "safety_set_gate_phase", json.RawMessage(`{"phase":"thriving"}`))
	wantCode(t, "a trader session's preview of a privileged tool", err, reason.ToolUnavailable)
}

// TestPrivilegedThroughFacade: the agent's own path, preview_action and
// commit_action with the owner's signature as 0x hex.
func TestPrivilegedThroughFacade(t *testing.T) {
	ctx := t.Context()
	ownerKey, _ := crypto.GenerateKey()
	st := privStack(t, daemon.DefaultDB(t.TempDir()), ownerKey)
	defer st.Close()
	gs, err := st.Session(ctx, "facade", policy.Agent, "active")
	if err != nil {
		t.Fatal(err)
	}
	s := facade.NewSession(gs)
	out, err := st.Facade.Call(ctx, s, "preview_action", json.RawMessage(`{"action_type":"set_phase","venue":"owner","params":{"phase":"conservation"}}`))
	if err != nil {
		t.Fatal(err)
	}
	var pv struct {
		PermitID string `json:"permit_id"`
		ArgsHash string `json:"args_hash"`
	}
	if err := json.Unmarshal(out, &pv); err != nil {
		t.Fatal(err)
	}
	if p, _ := st.Tools.Phase(ctx); p != hook.Thriving {
		t.Fatalf("the preview set the phase to %s", p)
	}
	_, err = st.Facade.Call(ctx, s, "commit_action", json.RawMessage(`{"permit_id":"`+pv.PermitID+`"}`))
	wantCode(t, "commit_action without approval", err, reason.ApprovalRequired)
	sig := approve(t, ownerKey, pv.PermitID, "safety_set_gate_phase", json.RawMessage(`{"phase":"conservation"}`))
	if _, err := st.Facade.Call(ctx, s, "commit_action", json.RawMessage(`{"permit_id":"`+pv.PermitID+`","approval":"0x`+hex.EncodeToString(sig)+`"}`)); err != nil {
		t.Fatal(err)
	}
	if p, _ := st.Tools.Phase(ctx); p != hook.Conservation {
		t.Errorf("phase %s after the approved commit, want conservation", p)
	}
}
