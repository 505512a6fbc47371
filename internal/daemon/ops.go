package daemon

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/upstream"
)

// PolicyView is the operator's view of the policy in force (GET
// /v1/policy): its hash, where and when it was loaded, its rules in
// evaluation order and the hook limits.
type PolicyView struct {
	Hash string `json:"hash"`
	// File is the configuration file it was read from ("" for the
	// built-in defaults); LoadedAt when, LoadedBy who reloaded it ("" when
	// it is the one ward started with).
	File     string     `json:"file"`
	LoadedAt time.Time  `json:"loaded_at"`
	LoadedBy string     `json:"loaded_by"`
	Rules    []RuleView `json:"rules"`
	// Limits are the spending and rate limits in force: the owner's
	// override of the spending limits when one is set
	// (SpendingOverride), else ward.toml's, which Configured always
	// shows.
	Limits           LimitsView `json:"limits"`
	Configured       LimitsView `json:"configured_limits"`
	SpendingOverride bool       `json:"spending_override"`
	// AllowlistEntries counts the owner's allowlist changes in force over
	// ward.toml's [hooks.allowlist] (GET /v1/gate/allowlist lists them).
	AllowlistEntries int `json:"allowlist_entries"`
}

// RuleView is one rule of the policy.
type RuleView struct {
	ID       string `json:"id"`
	Priority int    `json:"priority"`
	// AppliesTo is the rule's selector: "all", or "name: a, b",
	// "category: ...", "risk: ...".
	AppliesTo string `json:"applies_to"`
	// Kind is "user" for a rule of [[policy.rules]], else "builtin".
	Kind string `json:"kind"`
	// Effect is what a user rule does when it matches (allow, quarantine,
	// deny); a built-in rule's effect depends on the call ("by check").
	Effect   string `json:"effect"`
	Stateful bool   `json:"stateful"`
}

// LimitsView is the hook limits in force, in USD ("unlimited" when
// lifted) and writes per window.
type LimitsView struct {
	PerTickUSD    string `json:"per_tick_usd"`
	PerSessionUSD string `json:"per_session_usd"`
	DailyUSD      string `json:"daily_usd"`
	RateMax       int    `json:"rate_max"`
	RateWindow    string `json:"rate_window"`
}

// PolicyViewIn is PolicyView with the owner's stored settings that win
// over ward.toml read from the store: the spending override in Limits,
// and the count of allowlist entries. An unreadable setting is an error
// (the view would otherwise show limits that are not in force).
func (s *Server) PolicyViewIn(ctx context.Context) (PolicyView, error) {
	v := s.PolicyView()
	o, ok, err := s.Stack.Tools.SpendingOverride(ctx)
	if err != nil {
		return PolicyView{}, err
	}
	if ok {
		v.SpendingOverride = true
		v.Limits.PerTickUSD, v.Limits.PerSessionUSD, v.Limits.DailyUSD = cents(o.PerTickCents), cents(o.PerSessionCents), cents(o.DailyCents)
	}
	es, err := s.Stack.Tools.AllowlistEntries(ctx)
	if err != nil {
		return PolicyView{}, err
	}
	v.AllowlistEntries = len(es)
	return v, nil
}

// PolicyView returns the view of the policy ward.toml configures: its
// rules and its limits (PolicyViewIn adds the owner's settings in force).
func (s *Server) PolicyView() PolicyView {
	s.reloadMu.Lock()
	snap := s.Stack.Engine.Snapshot()
	l := s.Loaded()
	s.reloadMu.Unlock()
	user := map[string]string{}
	for _, r := range l.File.Policy.Rules {
		user[r.ID] = r.Action.String()
	}
	v := PolicyView{Hash: hashHex(snap.Hash()), File: l.File.Path, LoadedAt: l.At.UTC(), LoadedBy: l.By, Rules: []RuleView{},
		Limits: limitsView(s.Stack.Hooks), Configured: limitsView(s.Stack.Hooks)}
	for _, r := range snap.Rules() {
		rv := RuleView{ID: r.ID, Priority: r.Priority, AppliesTo: selector(r.Applies), Kind: "builtin", Effect: "by check", Stateful: r.Stateful}
		if e, ok := user[r.ID]; ok {
			rv.Kind, rv.Effect = "user", e
		}
		v.Rules = append(v.Rules, rv)
	}
	return v
}

func limitsView(set *hook.Set) LimitsView {
	sp, rt := set.Spending.Limits(), set.Rate.Limits()
	return LimitsView{PerTickUSD: cents(sp.PerTickCents), PerSessionUSD: cents(sp.PerSessionCents), DailyUSD: cents(sp.DailyCents),
		RateMax: rt.Max, RateWindow: rt.Window.String()}
}

// selector renders a rule's selector.
func selector(s policy.Selector) string {
	var xs []string
	switch s.By {
	case policy.SelectName:
		xs = s.Names
	case policy.SelectCategory:
		for _, c := range s.Categories {
			xs = append(xs, fmt.Sprint(c))
		}
	case policy.SelectRisk:
		for _, r := range s.Risks {
			xs = append(xs, fmt.Sprint(r))
		}
	default:
		return "all"
	}
	return s.By.String() + ": " + strings.Join(xs, ", ")
}

// Upstreams returns the view of the upstream servers this ward runs with:
// each one's pinned tools (with what this ward made of them) and the
// changed definitions waiting for approval.
func (s *Server) Upstreams(ctx context.Context) ([]upstream.ServerInfo, error) {
	var status []upstream.Status
	for _, set := range s.upstreamSets() {
		status = append(status, set.Status()...)
	}
	return upstream.List(ctx, s.Stack.Store, s.Loaded().File.Upstream, status)
}

// ApprovedUpstream is the answer to an approval.
type ApprovedUpstream struct {
	Server       string `json:"server"`
	Tool         string `json:"tool"`
	Name         string `json:"name"`
	Hash         string `json:"hash"`
	ApprovedHash string `json:"previous_hash"`
	By           string `json:"by"`
	// TakesEffect says when the approved definition is served: "now" (the
	// upstream serves it and the tool was registered while ward runs), or
	// "on the next start of ward serve" (the tool changed before ward
	// started, or its new classification would move it between profiles).
	TakesEffect string `json:"takes_effect"`
}

// ErrNotPending is returned by ApproveUpstream when no changed definition
// of the tool waits (or the server is not one this ward runs with).
var ErrNotPending = upstream.ErrNotPending

// ApproveUpstream records p's approval of the pending definition of a
// server's tool, as ward upstream approve does.
func (s *Server) ApproveUpstream(ctx context.Context, p auth.Principal, server, tool string) (ApprovedUpstream, error) {
	if !upstream.ValidServerName(server) || !slices.ContainsFunc(s.Loaded().File.Upstream, func(u upstream.Server) bool { return u.Name == server }) {
		return ApprovedUpstream{}, fmt.Errorf("upstream %q: %w", server, ErrNotPending)
	}
	by := p.Name
	if by == "" {
		by = p.ID
	}
	d, err := upstream.Approve(ctx, s.Stack.Store, s.Stack.Store, server, tool, by, time.Now())
	if err != nil {
		return ApprovedUpstream{}, err
	}
	a := ApprovedUpstream{Server: server, Tool: tool, Name: upstream.ToolName(server, tool), Hash: d.Hash, ApprovedHash: d.Approved, By: by,
		TakesEffect: "on the next start of ward serve"}
	for _, set := range s.upstreamSets() {
		if slices.Contains(set.Reapprove(ctx), a.Name) {
			a.TakesEffect = "now"
		}
	}
	return a, nil
}
