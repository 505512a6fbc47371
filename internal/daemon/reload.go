package daemon

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/upstream"
)

// Reloading ward.toml without a restart.
//
// What reloads: the policy ([policy], compiled into a new snapshot and
// swapped into the engine in one step: a call decided before the swap
// keeps the snapshot it started with, every later one sees the new one),
// the hook limits ([hooks.spending], [hooks.rate]) and the upstream
// servers ([[upstream]], see upstreams.go). Durable state is
// not touched: sessions, permits, spend and rate windows, held calls and
// the chain stay as they are. Everything else ward.toml sets is fixed for
// the life of the process (the store, the chains, the tool selection, the
// gate's timings, the other hooks, trust, grimoire,
// sessions, audit); a reload that changes any of it applies what it can
// and names the rest in NeedsRestart, never silently ignoring it. The
// listen address and the data directory are flags, not part of the file.
//
// A reload validates the whole file first: an invalid file is refused with
// every problem found and changes nothing. Each reload, and each refused
// one, is recorded in the action log before it takes effect (a reload
// whose record cannot be written is refused).

// ReloadReport says what a reload did, or why it was refused.
type ReloadReport struct {
	Reloaded bool      `json:"reloaded"`
	At       time.Time `json:"at"`
	// By is who asked: a principal's name, or "SIGHUP".
	By   string `json:"by"`
	File string `json:"file"`
	// PolicyBefore and PolicyAfter are the policy hashes (hex); equal
	// when the policy did not change (or the reload was refused).
	PolicyBefore  string `json:"policy_hash_before"`
	PolicyAfter   string `json:"policy_hash_after"`
	PolicyChanged bool   `json:"policy_changed"`
	// RulesAdded and RulesRemoved are rule ids.
	RulesAdded   []string `json:"rules_added"`
	RulesRemoved []string `json:"rules_removed"`
	// Limits are the hook limits that changed.
	Limits []LimitChange `json:"limits_changed"`
	// UpstreamsAdded and UpstreamsRemoved are [[upstream]] server names;
	// UpstreamsChanged are servers whose table changed, each against the
	// servers ward served before the reload.
	UpstreamsAdded   []string `json:"upstreams_added"`
	UpstreamsRemoved []string `json:"upstreams_removed"`
	UpstreamsChanged []string `json:"upstreams_changed"`
	// UpstreamsApplied are the servers the reload added, removed or
	// changed, all applied: an added or changed server is connected and
	// its tools served, a removed one's tools are gone.
	UpstreamsApplied []string `json:"upstreams_applied"`
	// UpstreamToolsAdded and UpstreamToolsRemoved are ward's names of
	// the upstream tools the reload registered and unregistered.
	UpstreamToolsAdded   []string `json:"upstream_tools_added"`
	UpstreamToolsRemoved []string `json:"upstream_tools_removed"`
	// UpstreamToolsServed are upstream tools served again with a
	// definition the owner approved (see upstream.Set.Reapprove).
	UpstreamToolsServed []string `json:"upstream_tools_served"`
	// SubscriptionsEnded is how many live data subscriptions the reload
	// ended because the new policy denies their read (stream.Hub.Recheck).
	SubscriptionsEnded int `json:"subscriptions_ended"`
	// NeedsRestart names the sections a reload cannot apply that differ
	// from those ward runs with (it started with).
	NeedsRestart []string `json:"needs_restart"`
	// Problems are why a refused reload was refused.
	Problems []string `json:"problems,omitempty"`
}

// LimitChange is one hook limit a reload changed.
type LimitChange struct {
	Key    string `json:"key"`
	Before string `json:"before"`
	After  string `json:"after"`
}

// ErrReloadRefused is wrapped by Reload's error for a file that is not
// valid or a reload that cannot be made: nothing changed.
var ErrReloadRefused = errors.New("reload refused")

// Loaded is the configuration in force and where it came from.
type Loaded struct {
	File *config.File
	// At is when it was loaded (start or the last reload), By who
	// reloaded it ("" at start).
	At time.Time
	By string
}

// Loaded returns the configuration in force. It is safe for concurrent
// use.
func (s *Server) Loaded() Loaded {
	if l := s.loaded.Load(); l != nil {
		return *l
	}
	return Loaded{File: s.File}
}

// Reload reads the configuration file again and applies it (see the
// comment above ReloadReport). by names who asked. Reloads are serialised.
// A refused reload returns its report and an error wrapping
// ErrReloadRefused.
func (s *Server) Reload(ctx context.Context, by, principalID string) (ReloadReport, error) {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	cur := s.Loaded()
	now := time.Now()
	before := hashHex(s.Stack.Engine.Snapshot().Hash())
	rep := ReloadReport{At: now.UTC(), By: by, File: cur.File.Path, PolicyBefore: before, PolicyAfter: before,
		UpstreamsApplied: []string{}, UpstreamToolsAdded: []string{}, UpstreamToolsRemoved: []string{}}
	refuse := func(problems ...string) (ReloadReport, error) {
		rep.Problems = problems
		err := s.recordReload(ctx, store.ActionConfigReloadRefused, principalID, &rep)
		return rep, errors.Join(fmt.Errorf("%w: %s", ErrReloadRefused, strings.Join(problems, "; ")), err)
	}
	if cur.File.Path == "" {
		return refuse("ward runs on the built-in defaults, not a file: start ward serve with --config (or a ./ward.toml) to reload one")
	}
	next, problems := loadForReload(cur.File.Path)
	if next == nil {
		return refuse(problems...)
	}
	snap, tools, err := selfPolicy(s.Data, next)
	if err != nil {
		return refuse(err.Error())
	}
	tools.Store(s.Stack.Registry)
	// The limits are validated before anything is swapped.
	if _, err := hook.NewLimits(next.Hooks.Spending, next.Hooks.Rate, nil); err != nil {
		return refuse("hooks: " + err.Error())
	}
	s.diffReload(&rep, cur.File, next, snap)
	plan, err := s.planUpstreams(ctx, next, rep.UpstreamsAdded, rep.UpstreamsRemoved, rep.UpstreamsChanged)
	if err != nil {
		rep.UpstreamsAdded, rep.UpstreamsRemoved, rep.UpstreamsChanged = []string{}, []string{}, []string{}
		rep.PolicyAfter, rep.PolicyChanged, rep.RulesAdded, rep.RulesRemoved, rep.Limits = before, false, []string{}, []string{}, []LimitChange{}
		return refuse(err.Error())
	}
	rep.UpstreamsApplied = slices.Concat(rep.UpstreamsAdded, rep.UpstreamsRemoved, rep.UpstreamsChanged)
	slices.Sort(rep.UpstreamsApplied)
	rep.UpstreamToolsAdded, rep.UpstreamToolsRemoved = plan.added, plan.removed
	rep.Reloaded = true
	// Durable before the effect: a reload that cannot be recorded does not
	// happen.
	if err := s.recordReload(ctx, store.ActionConfigReloaded, principalID, &rep); err != nil {
		rep.Reloaded = false
		rep.PolicyAfter, rep.PolicyChanged = before, false
		return rep, errors.Join(fmt.Errorf("%w: the reload could not be recorded in the action log", ErrReloadRefused), plan.abandon())
	}
	err = s.applyReload(ctx, &rep, snap, plan, next, now, by)
	return rep, err
}

// loadForReload loads the file at path, or returns nil and every problem
// with it (with positions for a configuration error).
func loadForReload(path string) (*config.File, []string) {
	next, err := config.Load(path)
	if err == nil {
		return next, nil
	}
	var ce *config.Error
	if errors.As(err, &ce) {
		var ps []string
		for _, d := range ce.Diags {
			ps = append(ps, d.String())
		}
		return nil, ps
	}
	return nil, []string{err.Error()}
}

// diffReload fills in what reloading next (compiled to snap) over cur
// changes: policy, rules, limits, what needs a restart, upstream servers.
func (s *Server) diffReload(rep *ReloadReport, cur, next *config.File, snap *policy.Snapshot) {
	rep.PolicyAfter = hashHex(snap.Hash())
	rep.PolicyChanged = rep.PolicyAfter != rep.PolicyBefore
	rep.RulesAdded, rep.RulesRemoved = ruleDiff(s.Stack.Engine.Snapshot(), snap)
	rep.Limits = limitDiff(s.Stack.Hooks, next.Hooks)
	// What cannot be applied live is compared with what runs: the
	// configuration ward started with. Upstream servers are compared with
	// those ward serves: the configuration in force.
	rep.NeedsRestart = needsRestart(s.File, next)
	rep.UpstreamsAdded, rep.UpstreamsRemoved, rep.UpstreamsChanged = upstreamDiff(cur, next)
}

// applyReload applies a recorded reload: the policy, then the tools, then
// the limits and the loaded file, then the upstream servers, and fills in
// the subscriptions it ended and the upstream tools it serves.
func (s *Server) applyReload(ctx context.Context, rep *ReloadReport, snap *policy.Snapshot, plan *upstreamPlan, next *config.File, now time.Time, by string) error {
	if _, err := s.Stack.Engine.Swap(snap); err != nil {
		return errors.Join(err, plan.abandon())
	}
	// The tools right after the policy: each is one atomic swap.
	if err := plan.commit(); err != nil {
		return err
	}
	// A subscription the new policy denies ends now, not at its next poll.
	rep.SubscriptionsEnded = s.Stack.Streams.Recheck(ctx)
	// Both were validated above, so neither fails.
	_ = s.Stack.Hooks.Spending.SetLimits(next.Hooks.Spending)
	_ = s.Stack.Hooks.Rate.SetLimits(next.Hooks.Rate)
	s.loaded.Store(&Loaded{File: next, At: now, By: by})
	if err := s.applyUpstreams(ctx, plan); err != nil {
		s.Log.Warn("reload: after the upstream change", "err", err)
	}
	// Definitions approved in another process (ward upstream approve)
	// are served now rather than at the set's next poll.
	for _, set := range s.upstreamSets() {
		rep.UpstreamToolsServed = append(rep.UpstreamToolsServed, set.Reapprove(ctx)...)
	}
	if rep.UpstreamToolsServed == nil {
		rep.UpstreamToolsServed = []string{}
	}
	return nil
}

// recordReload writes a reload's action record: its report, which holds
// hashes, names and the file's problems, never a secret (ward.toml names
// environment variables, it does not hold their values).
func (s *Server) recordReload(ctx context.Context, kind store.ActionKind, principalID string, rep *ReloadReport) error {
	detail, err := json.Marshal(rep)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	rec := &store.ActionRecord{ID: id.New(rep.At), Time: rep.At, Kind: kind, PrincipalID: principalID, Detail: detail}
	if err := s.Stack.Store.AppendAction(ctx, rec); err != nil {
		s.Log.Warn("reload: the action record could not be written", "kind", kind.String(), "err", err)
		return err
	}
	return nil
}

func hashHex(h [32]byte) string { return hex.EncodeToString(h[:]) }

// ruleDiff returns the ids of the rules b has and a lacks, and the other
// way round, sorted.
func ruleDiff(a, b *policy.Snapshot) (added, removed []string) {
	ids := func(s *policy.Snapshot) map[string]bool {
		m := map[string]bool{}
		for _, r := range s.Rules() {
			m[r.ID] = true
		}
		return m
	}
	ia, ib := ids(a), ids(b)
	added, removed = []string{}, []string{}
	for k := range ib {
		if !ia[k] {
			added = append(added, k)
		}
	}
	for k := range ia {
		if !ib[k] {
			removed = append(removed, k)
		}
	}
	slices.Sort(added)
	slices.Sort(removed)
	return added, removed
}

// limitDiff lists the hook limits next changes from those in force.
func limitDiff(set *hook.Set, next hook.Config) []LimitChange {
	out := []LimitChange{}
	sp, rt := set.Spending.Limits(), set.Rate.Limits()
	for _, c := range []struct {
		key           string
		before, after any
	}{
		{"hooks.spending.per_tick_usd", cents(sp.PerTickCents), cents(next.Spending.PerTickCents)},
		{"hooks.spending.per_session_usd", cents(sp.PerSessionCents), cents(next.Spending.PerSessionCents)},
		{"hooks.spending.daily_usd", cents(sp.DailyCents), cents(next.Spending.DailyCents)},
		{"hooks.rate.max_writes", rt.Max, next.Rate.Max},
		{"hooks.rate.window", rt.Window, next.Rate.Window},
	} {
		b, a := fmt.Sprint(c.before), fmt.Sprint(c.after)
		if a != b {
			out = append(out, LimitChange{Key: c.key, Before: b, After: a})
		}
	}
	return out
}

func cents(c int64) string {
	if c == hook.Unlimited {
		return "unlimited"
	}
	return fmt.Sprintf("%d.%02d", c/100, c%100)
}

// upstreamDiff compares the [[upstream]] tables by server name.
func upstreamDiff(a, b *config.File) (added, removed, changed []string) {
	added, removed, changed = []string{}, []string{}, []string{}
	for _, s := range b.Upstream {
		i := slices.IndexFunc(a.Upstream, func(x upstream.Server) bool { return x.Name == s.Name })
		switch {
		case i < 0:
			added = append(added, s.Name)
		case !reflect.DeepEqual(a.Upstream[i], s):
			changed = append(changed, s.Name)
		}
	}
	for _, s := range a.Upstream {
		if !slices.ContainsFunc(b.Upstream, func(x upstream.Server) bool { return x.Name == s.Name }) {
			removed = append(removed, s.Name)
		}
	}
	return added, removed, changed
}

// needsRestart names the sections of b that differ from a and that a
// reload does not apply.
func needsRestart(a, b *config.File) []string {
	out := []string{}
	ha, hb := a.Hooks, b.Hooks
	ha.Spending, hb.Spending, ha.Rate, hb.Rate = hook.SpendingConfig{}, hook.SpendingConfig{}, hook.RateConfig{}, hook.RateConfig{}
	for _, c := range []struct {
		key  string
		a, b any
	}{
		{"store", a.Store, b.Store},
		{"tools", a.Tools, b.Tools},
		{"chain", a.Chains, b.Chains},
		{"address_book", a.Book, b.Book},
		{"gate", a.Gate, b.Gate},
		{"hooks (other than spending and rate)", ha, hb},
		{"trust", a.Trust, b.Trust},
		{"grimoire", a.Grimoire, b.Grimoire},
		{"sessions", a.Sessions, b.Sessions},
		{"audit", a.Audit, b.Audit},
		{"wasm_tool", a.WASM, b.WASM},
	} {
		if !reflect.DeepEqual(c.a, c.b) {
			out = append(out, c.key)
		}
	}
	return out
}

// reloadOnHangup reloads the configuration on every SIGHUP until ctx
// ends, and reports each reload on out and the log. Serve owns it.
func (s *Server) reloadOnHangup(ctx context.Context, report func(ReloadReport, error)) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	for {
		select {
		case <-ctx.Done():
			return
		case <-hup:
			rep, err := s.Reload(ctx, "SIGHUP", "")
			report(rep, err)
		}
	}
}
