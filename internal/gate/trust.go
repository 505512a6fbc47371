package gate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/schema"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
	"github.com/wardhq/ward/internal/trust"
	"github.com/wardhq/ward/internal/vault"
)

// The trust model (seed 004, plus value-level provenance):
//
//   - every session has a taint level; reading a third-party-content tool
//     taints it, and taint never propagates to a parent;
//   - every directive and tool output the session sees goes into its
//     ledger, so that each argument of a later call has a provenance:
//     trusted (the owner's directive, the address book, a trusted tool's
//     output), untrusted (only third-party output) or unknown;
//   - the policy sees both (policy.Trust); its taint rule quarantines a
//     tainted session's state-changing or data-sending call whose
//     security-relevant arguments lack trusted provenance;
//   - such a quarantine goes first to the session's reviewers (advisory)
//     and judge (authoritative): the judge's approval lets the call
//     through, otherwise it waits for the owner;
//   - an isolated orchestrator may not read third-party content itself.
//
// Every taint assignment, denial, verdict and promotion is written to the
// hash-chained trust log.

// Names of the built-in checkers.
const (
	RulesReviewer = "rules-reviewer"
	RulesJudge    = "rules-judge"
)

// TrustOptions say how a session starts.
type TrustOptions struct {
	// Level is the starting taint level (clean by default).
	Level trust.Level
	// Isolated makes the session an isolated orchestrator: it may not call
	// a third-party-content tool itself.
	Isolated bool
	// Parent is the orchestrating session of a child; taint never flows
	// to it.
	Parent string
	// Reviewers are advisory; Judge is authoritative. A session that
	// starts tainted must name at least one of each; a session that
	// becomes tainted uses the gate's defaults when it named none.
	Reviewers []string
	Judge     string
	// Directive is the owner's instruction the session starts with: its
	// values have trusted provenance.
	Directive string
	// Author is who created the session (a token's principal id); it can
	// never review or judge the session's changes either.
	Author string
}

// SessionTrust is a session's taint level, its ledger of what it has seen
// and who reviews it. It is safe for concurrent use.
type SessionTrust struct {
	mu        sync.Mutex
	level     trust.Level
	isolated  bool
	parent    string
	author    string
	reviewers []string
	judge     string
	directive string
	seq       int
	judged    int // calls the judge let through
	ledger    *trust.Ledger

	// Where the state persists (session.go); store nil: memory only.
	store     store.Sessions
	sessionID string
	limit     int        // stored ledger bytes
	box       *vault.Box // seals observations at rest; nil: stored plain
	active    time.Time  // last use written
}

// ErrSelfReview is returned when a session would review or judge itself.
var ErrSelfReview = errors.New("the session that produces a change can never review or judge it")

// NewSessionTrust returns the trust state of a new session with id sid.
func NewSessionTrust(sid string, o TrustOptions) (*SessionTrust, error) {
	if o.Level != trust.Clean && (len(o.Reviewers) == 0 || o.Judge == "") {
		return nil, errors.New("a tainted session needs at least one reviewer and a judge")
	}
	for _, r := range append(slices.Clone(o.Reviewers), o.Judge) {
		if r != "" && (r == sid || (o.Author != "" && r == o.Author)) {
			return nil, ErrSelfReview
		}
	}
	st := &SessionTrust{
		level: o.Level, isolated: o.Isolated, parent: o.Parent, author: o.Author,
		reviewers: slices.Clone(o.Reviewers), judge: o.Judge, ledger: trust.NewLedger(0),
	}
	if o.Directive != "" {
		st.directive = o.Directive
		st.ledger.Observe(trust.Source{Kind: trust.Directive, Ref: "directive"}, o.Directive)
	}
	return st, nil
}

// Level returns the session's taint level.
func (st *SessionTrust) Level() trust.Level {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.level
}

// Isolated reports whether the session is an isolated orchestrator.
func (st *SessionTrust) Isolated() bool { return st.isolated }

// Parent returns the orchestrating session's id, if any.
func (st *SessionTrust) Parent() string { return st.parent }

// Judged returns how many of the session's calls its judge let through.
func (st *SessionTrust) Judged() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.judged
}

// Reviewers returns the session's reviewers and judge.
func (st *SessionTrust) Reviewers() (reviewers []string, judge string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return slices.Clone(st.reviewers), st.judge
}

// Ledger returns what the session has seen.
func (st *SessionTrust) Ledger() *trust.Ledger { return st.ledger }

// trustOf returns s's trust state, creating a clean one the first time.
func (t *Tools) trustOf(s *Session) *SessionTrust { return s.trust() }

// trust returns the session's trust state, made clean on first use for a
// session that has none.
func (s *Session) trust() *SessionTrust {
	s.trustOnce.Do(func() {
		if s.Trust == nil {
			s.Trust, _ = NewSessionTrust(s.ID, TrustOptions{})
		}
	})
	return s.Trust
}

// params is what the gate knows of one tool's parameters: their roles, the
// ones that need trusted provenance in a tainted session, and the field
// names its schema declares at any depth (an object key that is one of them
// is the schema's word, not data).
type params struct {
	roles     map[string]trust.Role
	sensitive []string
	fields    map[string]bool
}

var paramCache sync.Map // *tool.Def → *params

// paramsOf classifies d's parameters once, reading each one's name,
// description and type through references, nullable unions and allOf
// (schema.Params): a pydantic or zod schema's properties are mostly $refs.
// A schema that does not compile has no declared parameters: every
// argument is then unclassified, the strictest reading.
func paramsOf(d *tool.Def) *params {
	if p, ok := paramCache.Load(d); ok {
		return p.(*params)
	}
	p := &params{roles: map[string]trust.Role{}, fields: declaredFields(d.Params)}
	if sch, err := schema.Compile(d.Params); err == nil {
		for _, prm := range sch.Params() {
			p.roles[prm.Name] = trust.Classify(prm.Name, prm.Description, prm.Type)
		}
	}
	if len(d.ProvenanceArgs) > 0 {
		p.sensitive = slices.Clone(d.ProvenanceArgs)
	} else {
		for name, r := range p.roles {
			if r.Sensitive() {
				p.sensitive = append(p.sensitive, name)
			}
		}
	}
	slices.Sort(p.sensitive)
	actual, _ := paramCache.LoadOrStore(d, p)
	return actual.(*params)
}

// declaredFields returns every property name a JSON Schema declares, at
// any depth ($defs and combinators included): the keys of every
// "properties" object.
func declaredFields(raw json.RawMessage) map[string]bool {
	out := map[string]bool{}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return out
	}
	var visit func(v any, depth int)
	visit = func(v any, depth int) {
		if depth > 64 {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			for k, sub := range x {
				if k == "properties" {
					if props, ok := sub.(map[string]any); ok {
						for name, ps := range props {
							out[name] = true
							visit(ps, depth+1)
						}
						continue
					}
				}
				visit(sub, depth+1)
			}
		case []any:
			for _, e := range x {
				visit(e, depth+1)
			}
		}
	}
	visit(v, 0)
	return out
}

// field reports whether key is a field name d's schema declares.
func (p *params) field(key string) bool { return p.fields[key] }

// role returns the role argument name plays in a call of d: an argument
// the schema does not declare is unclassified (see trust.Role.For).
func (p *params) role(name string, changes, sends bool) trust.Role {
	r, ok := p.roles[name]
	if !ok {
		r = trust.Other
	}
	return r.For(changes, sends)
}

// callTrust is the trust view of one call: what the policy sees, and the
// evidence behind it for the reviewers.
type callTrust struct {
	view     policy.Trust
	evidence map[string]trust.Evidence
	roles    map[string]trust.Role // as each argument plays in this call
	carried  map[string][]trust.Carried
	steered  map[string][]trust.Source
}

// trustView computes the provenance of a call's arguments. For a tainted
// session's call that changes state or sends data it also reads the
// identifiers inside arguments that are not checked whole (a link in a
// message body), and whether the call follows instructions rather than
// the owner (policy.Trust.Hijacked).
func (t *Tools) trustView(s *Session, e *registry.Entry, raw json.RawMessage) (*callTrust, error) {
	st := t.trustOf(s)
	p := paramsOf(e.Def)
	level := t.Level(s)
	changes, sends := e.Def.Tier.Effective() != tool.Read, e.Def.Egress
	if level == trust.Clean && !t.engine.Snapshot().NeedsProvenance() {
		// Nothing reads provenance for a clean session: skip decoding the
		// arguments again and the lookups.
		return &callTrust{view: policy.Trust{Taint: level.String(), Isolated: st.isolated, Sensitive: p.sensitive, Sends: e.Def.Egress}, roles: p.roles}, nil
	}
	var args map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&args); err != nil {
		return nil, err
	}
	ev := st.ledger.Args(args, p.field)
	if t.book != nil {
		for name, x := range t.book.Args(args, p.field) {
			if x.Origin == trust.Trusted && ev[name].Origin != trust.Trusted {
				ev[name] = x
			}
		}
	}
	ct := &callTrust{evidence: ev, roles: make(map[string]trust.Role, len(args))}
	ct.view = policy.Trust{
		Taint: level.String(), Isolated: st.isolated, Sensitive: slices.Clone(p.sensitive), Sends: e.Def.Egress,
		Provenance: make(map[string]string, len(ev)),
	}
	for name, x := range ev {
		ct.view.Provenance[name] = x.Origin.String()
		ct.roles[name] = p.role(name, changes, sends)
		if _, declared := p.roles[name]; !declared && !slices.Contains(ct.view.Sensitive, name) {
			ct.view.Sensitive = append(ct.view.Sensitive, name) // data under a name the schema does not know
		}
	}
	if level == trust.Clean || !(changes || sends) {
		return ct, nil
	}
	t.carried(st, ct, args, p)
	t.hijacked(st, ct, args)
	return ct, nil
}

// carried checks the identifiers inside each free-text argument (one whose
// role is content, a quantity, a time or a flag: a destination, credential
// or unclassified value is checked whole, and a selector is an id already):
// a URL, an e-mail address or an account number inside a message body, a
// title or a note is checked like a destination argument. An argument that
// carries one that is not trusted needs trusted provenance, and has the
// worst of theirs.
func (t *Tools) carried(st *SessionTrust, ct *callTrust, args map[string]any, p *params) {
	ct.carried = map[string][]trust.Carried{}
	for name, v := range args {
		r := ct.roles[name]
		if r.Critical() || r == trust.Selector {
			continue
		}
		if x, ok := v.(string); ok && (r == trust.Quantity || r == trust.Time) && plainNumber(x) {
			continue // an amount in base units, a timestamp: a number, not an account
		}
		texts := stringLeaves(v, p.field)
		if len(texts) == 0 {
			continue
		}
		ids, more := trust.Identifiers(strings.Join(texts, "\n"))
		if len(ids) == 0 && !more {
			continue
		}
		worst, kinds := trust.Trusted, []string{}
		for _, id := range ids {
			e := st.ledger.Lookup(id.Value)
			if e.Origin != trust.Trusted && t.book != nil {
				if b := t.book.Lookup(id.Value); b.Origin == trust.Trusted {
					e = b
				}
			}
			ct.carried[name] = append(ct.carried[name], trust.Carried{Kind: id.Kind, Value: clip(id.Value, 64), Evidence: e})
			worst = min(worst, e.Origin)
			if !slices.Contains(kinds, id.Kind.String()) {
				kinds = append(kinds, id.Kind.String())
			}
		}
		if more {
			worst = min(worst, trust.Unknown)
			kinds = append(kinds, "more")
		}
		if worst == trust.Trusted {
			continue
		}
		if ct.view.Carries == nil {
			ct.view.Carries = map[string]string{}
		}
		ct.view.Carries[name] = strings.Join(kinds, ", ")
		ct.view.Provenance[name] = worst.String()
		if !slices.Contains(ct.view.Sensitive, name) {
			ct.view.Sensitive = append(ct.view.Sensitive, name)
		}
	}
}

// hijacked decides policy.Trust.Hijacked: the session has read text with
// instructions, and no argument of the call comes from the owner's
// directive or a trusted output (as a whole value or as a run of its
// words). Such a call follows what the session read, not the owner,
// whether its arguments are copied from that text, derived from what it
// led the agent to read (a file id found by a search it asked for), or
// absent. It also notes, per argument, the instruction-bearing sources its
// words come from, for the judge.
func (t *Tools) hijacked(st *SessionTrust, ct *callTrust, args map[string]any) {
	owned := false
	for name, v := range args {
		e := ct.evidence[name]
		if e.Origin == trust.Trusted && len(e.Sources) > 0 {
			owned = true
		}
		trusted, instructed := st.ledger.Traces(v)
		if len(trusted) == 0 && t.book != nil {
			trusted, _ = t.book.Traces(v)
		}
		if len(trusted) > 0 {
			owned = true
		}
		for _, src := range e.Sources {
			if len(src.Instructions) > 0 {
				instructed = append(instructed, src)
			}
		}
		if len(instructed) > 0 {
			if ct.steered == nil {
				ct.steered = map[string][]trust.Source{}
			}
			ct.steered[name] = instructed
		}
	}
	if owned {
		return
	}
	for _, src := range st.ledger.Sources() {
		if len(src.Instructions) > 0 {
			ct.view.Hijacked = true
			return
		}
	}
}

// stringLeaves returns the strings in v: its string leaves and the object
// keys that are not the schema's field names.
func stringLeaves(v any, field trust.Fields) []string {
	var out []string
	var visit func(v any)
	visit = func(v any) {
		switch x := v.(type) {
		case string:
			out = append(out, x)
		case []any:
			for _, e := range x {
				visit(e)
			}
		case map[string]any:
			for k, e := range x {
				if !field(k) {
					out = append(out, k)
				}
				visit(e)
			}
		}
	}
	visit(v)
	return out
}

// plainNumber reports whether s is a decimal number and nothing else
// ("50000000", "-1.5", "2e18"): the way JSON carries an amount too large
// for a float.
func plainNumber(s string) bool {
	if s == "" || len(s) > 80 {
		return false
	}
	_, ok := new(big.Float).SetString(s)
	return ok && strings.IndexFunc(s, func(r rune) bool { return !strings.ContainsRune("0123456789.-+eE", r) }) < 0
}

// clip returns at most n bytes of s.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// admitTrust is the trust stage of a call before the policy: an isolated
// orchestrator may not run a third-party-content tool, and the
// provenance of the arguments is computed. Fail closed: if the check
// cannot be made, the call is refused.
func (t *Tools) admitTrust(ctx context.Context, s *Session, e *registry.Entry, raw json.RawMessage) (*callTrust, error) {
	st := t.trustOf(s)
	if st == nil {
		return nil, refuse(reason.TaintCheckFailed, "taint", "the session's taint state is missing, so nothing is run", "")
	}
	if e.Def.ThirdParty && st.isolated {
		// Refused either way; an unrecorded denial is counted and logged.
		if err := t.trustRecord(ctx, &store.TrustRecord{Kind: store.TrustAccessDenied, SessionID: s.ID, Target: e.Def.Name,
			Detail: jsonOf(map[string]string{"reason": string(reason.TaintIsolation)})}); err != nil {
			t.auditFailed("access denial", err)
		}
		return nil, refuse(reason.TaintIsolation, "taint", e.Def.Name+" returns third-party content, and this session is an isolated orchestrator: "+
			"delegate the call to a tainted child session, which returns only metadata to you", "")
	}
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	ct, err := t.trustView(s, e, raw)
	if err != nil {
		return nil, refuse(reason.TaintCheckFailed, "taint", "the provenance of the arguments could not be checked, so nothing is run", err.Error())
	}
	return ct, nil
}

// observe records a tool's output in the session's ledger and taints the
// session if the output is third-party content. args are the JSON
// arguments of the call: what a trusted output echoes of them it does not
// vouch for. A write's result is no source at all: what it repeats of its
// arguments the permit already approved, with their provenance, and a
// write must not turn the values it was given into trusted ones (one
// approved transfer to an address would otherwise trust the address for
// the rest of the session). A third-party write's result is untrusted
// output like any other. Fail closed: if the taint, or the observation of
// third-party content, cannot be recorded, the output is not returned. The
// store has it before memory does.
func (t *Tools) observe(ctx context.Context, s *Session, d *tool.Def, args json.RawMessage, res *tool.Result) error {
	st := t.trustOf(s)
	kind := trust.TrustedOutput
	switch {
	case d.ThirdParty:
		kind = trust.UntrustedOutput
	case d.Tier.Effective() != tool.Read:
		return nil
	}
	var callArgs []byte
	if kind.Trusted() && len(bytes.TrimSpace(args)) > 2 {
		callArgs = args
	}
	st.mu.Lock()
	st.seq++
	ref := fmt.Sprintf("call:%d %s", st.seq, d.Name)
	tainting := d.ThirdParty && st.level == trust.Clean
	st.mu.Unlock()
	src, kept := st.ledger.RecordCall(trust.Source{Kind: kind, Ref: ref}, res.Data, true, callArgs)
	var change *store.LevelChange
	if tainting {
		change = &store.LevelChange{To: trust.Tainted, From: []trust.Level{trust.Clean}, At: t.cfg.Now(),
			Reviewers: t.cfg.DefaultReviewers, Judge: t.cfg.DefaultJudge}
	}
	if kept || tainting {
		if err := st.persist(ctx, s, src, res.Data, callArgs, true, change); err != nil {
			if !tainting && kind == trust.TrustedOutput {
				// A trusted output unrecorded only costs a later value its
				// trusted provenance: the call goes on, the loss is logged.
				t.auditFailed("session observation", err)
				return nil
			}
			return refuse(reason.TaintCheckFailed, "taint", "the session's ledger could not be recorded, so the output is withheld", err.Error())
		}
	}
	if kind == trust.UntrustedOutput && len(d.SystemFields) > 0 {
		t.observeSystemFields(ctx, s, st, d, ref, args, res)
	}
	if !tainting {
		return nil
	}
	err := t.trustRecord(ctx, &store.TrustRecord{Kind: store.TrustTaintAssigned, SessionID: s.ID, Actor: "gate", Target: s.ID,
		Detail: jsonOf(map[string]any{"level": trust.Tainted.String(), "tool": d.Name, "source": ref, "instructions": src.Instructions})})
	if err != nil && t.cfg.TrustLog != nil {
		return refuse(reason.TaintCheckFailed, "taint", "the session's taint could not be recorded, so the output is withheld", err.Error())
	}
	st.mu.Lock()
	if st.level == trust.Clean {
		st.level = trust.Tainted
		if len(st.reviewers) == 0 {
			st.reviewers = slices.Clone(t.cfg.DefaultReviewers)
		}
		if st.judge == "" {
			st.judge = t.cfg.DefaultJudge
		}
	}
	st.mu.Unlock()
	t.sessions.taint(s.Principal, true)
	t.bus.Publish(event.Event{Kind: event.TrustTainted, Time: t.cfg.Now(), SessionID: s.ID, Tool: d.Name, Payload: event.Taint{Level: trust.Tainted.String(), Source: ref}})
	return nil
}

// observeSystemFields records, as trusted output, the values of a
// third-party output's system fields (tool.Def.SystemFields): what the
// service itself produced. Like any trusted output it vouches for nothing
// the call was given. Unrecorded, it only costs those values their trusted
// provenance: the loss is logged.
func (t *Tools) observeSystemFields(ctx context.Context, s *Session, st *SessionTrust, d *tool.Def, ref string, args json.RawMessage, res *tool.Result) {
	vals := trust.SystemValues(res.Data, d.SystemFields)
	if len(vals) == 0 {
		return
	}
	body, err := json.Marshal(vals)
	if err != nil {
		return
	}
	var callArgs []byte
	if len(bytes.TrimSpace(args)) > 2 {
		callArgs = args
	}
	src, kept := st.ledger.RecordCall(trust.Source{Kind: trust.TrustedOutput, Ref: ref + " (system fields)"}, body, true, callArgs)
	if kept {
		if err := st.persist(ctx, s, src, body, callArgs, true, nil); err != nil {
			t.auditFailed("session observation", err)
		}
	}
}

// SetDirective records the owner's directive for a session. From the owner
// (trusted) its values have trusted provenance; from the agent of a
// tainted session it is kept as a note only, since the agent may be
// repeating text a third party wrote. The store has it first.
func (t *Tools) SetDirective(ctx context.Context, s *Session, directive string, fromOwner bool) (trusted bool, err error) {
	st := t.trustOf(s)
	trusted = fromOwner || t.Level(s) == trust.Clean
	if sto := t.sessionStore(); sto != nil && s.Principal != "" {
		if err := sto.SetDirective(ctx, s.ID, directive, trusted, t.cfg.Now()); err != nil {
			return false, err
		}
	}
	if trusted {
		src, kept := st.ledger.Record(trust.Source{Kind: trust.Directive, Ref: "directive"}, []byte(directive), false)
		if kept {
			if err := st.persist(ctx, s, src, []byte(directive), nil, false, nil); err != nil {
				return false, err
			}
		}
		st.mu.Lock()
		st.directive = directive
		st.mu.Unlock()
	}
	return trusted, nil
}

// judgeable reports whether a quarantine is the taint rule's alone, so
// that the session's judge may decide it; any other quarantine (the owner's
// confirmation threshold, a CEL rule) is the owner's.
func judgeable(d *policy.Decision) bool {
	if d.Code() != reason.UntrustedProvenance {
		return false // a session under review waits for the owner
	}
	for _, r := range d.RulesTriggered() {
		if !strings.HasPrefix(r, "taint.") {
			return false
		}
	}
	return true
}

// review runs a quarantined call past the session's reviewers and judge.
// It returns the verdicts and whether the judge approved. Separation of
// powers: a checker named like the session or its author is skipped.
func (t *Tools) trustReview(ctx context.Context, s *Session, e *registry.Entry, raw json.RawMessage, ct *callTrust, d *policy.Decision) ([]trust.Verdict, bool) {
	st := t.trustOf(s)
	if ct == nil || !judgeable(d) {
		return nil, false
	}
	reviewers, judge := st.Reviewers()
	if judge == "" {
		// A clean session decided as tainted (its principal's taint) has
		// no checkers of its own yet: the gate's defaults review it.
		reviewers, judge = slices.Clone(t.cfg.DefaultReviewers), t.cfg.DefaultJudge
	}
	st.mu.Lock()
	directive := st.directive
	st.mu.Unlock()
	c := reviewCase(s, e, raw, ct, directive)
	verdicts, jv, ran := t.runCheckers(ctx, st, s.ID, reviewers, judge, c)
	approved := ran && jv.Approve
	if !approved && steered(c) {
		// The session tried to act on values from text that gives
		// instructions: it goes under review, and every state-changing or
		// data-sending call of its principal waits until the owner lifts
		// it. Unrecorded, the review still applies here (setLevel).
		if err := t.setLevel(ctx, s, trust.Review, "gate", "acted on values from a source with instruction-like text"); err != nil {
			t.auditFailed("review", err)
		}
	}
	// Every verdict is in the trust log, or the judge's approval does not
	// count (fail closed).
	recorded := t.recordVerdicts(ctx, s, e, d, verdicts)
	if !approved || !recorded {
		return verdicts, false
	}
	return verdicts, t.promoteCall(ctx, st, s, e, d, jv)
}

// reviewCase is the held call as its checkers see it: what the tool does,
// the session's directive, and each argument (cut to 256 bytes, by name)
// with the role it plays and where its value came from.
func reviewCase(s *Session, e *registry.Entry, raw json.RawMessage, ct *callTrust, directive string) *trust.Case {
	c := &trust.Case{SessionID: s.ID, Tool: e.Def.Name, Changes: e.Def.Tier.Effective() != tool.Read, Sends: e.Def.Egress, Directive: directive, Hijacked: ct.view.Hijacked,
		Dangerous: e.Def.Ref().Risk.Effective() >= tool.Dangerous}
	var args map[string]json.RawMessage
	_ = json.Unmarshal(raw, &args)
	names := make([]string, 0, len(args))
	for n := range args {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		v := string(args[n])
		if len(v) > 256 {
			v = v[:256]
		}
		role, ok := ct.roles[n]
		if !ok {
			role = trust.Destination // an argument the view did not see: the strictest
		}
		c.Args = append(c.Args, trust.ArgCase{Name: n, Value: v, Role: role, Evidence: ct.evidence[n], Carried: ct.carried[n], Steered: ct.steered[n]})
	}
	return c
}

// runCheckers runs the reviewers, then the judge, on c, and returns the
// verdicts of those that ran (see runChecker), the judge's, and whether
// it ran.
func (t *Tools) runCheckers(ctx context.Context, st *SessionTrust, sid string, reviewers []string, judge string, c *trust.Case) ([]trust.Verdict, trust.Verdict, bool) {
	var verdicts []trust.Verdict
	for _, r := range reviewers {
		if v, ok := t.runChecker(ctx, st, sid, r, false, c); ok {
			verdicts = append(verdicts, v)
		}
	}
	jv, ran := t.runChecker(ctx, st, sid, judge, true, c)
	if ran {
		verdicts = append(verdicts, jv)
	}
	return verdicts, jv, ran
}

// recordVerdicts writes each verdict to the trust log and publishes it,
// and reports whether every one was written.
func (t *Tools) recordVerdicts(ctx context.Context, s *Session, e *registry.Entry, d *policy.Decision, verdicts []trust.Verdict) bool {
	recorded := true
	for _, v := range verdicts {
		if err := t.trustRecord(ctx, &store.TrustRecord{Kind: store.TrustReviewVerdict, SessionID: s.ID, Actor: v.By, Target: e.Def.Name,
			Detail: jsonOf(map[string]any{"approve": v.Approve, "authoritative": v.Authoritative, "reasons": v.Reasons, "args_hash": hashHex(d.ArgsHash()), "decision": d.Rule()})}); err != nil {
			recorded = false
			t.auditFailed("review verdict", err)
		}
		t.bus.Publish(event.Event{Kind: event.TrustVerdict, Time: t.cfg.Now(), SessionID: s.ID, Tool: e.Def.Name, Success: v.Approve, Payload: event.Verdict{By: v.By}})
	}
	return recorded
}

// promoteCall records the judge's approval of the held call, counts it
// against the session, and publishes it; it reports false, and the
// approval does not count, when a record cannot be written (fail closed).
func (t *Tools) promoteCall(ctx context.Context, st *SessionTrust, s *Session, e *registry.Entry, d *policy.Decision, jv trust.Verdict) bool {
	if err := t.trustRecord(ctx, &store.TrustRecord{Kind: store.TrustPromotion, SessionID: s.ID, Actor: jv.By, Target: e.Def.Name,
		Detail: jsonOf(map[string]any{"args_hash": hashHex(d.ArgsHash()), "what": "call"})}); err != nil {
		t.auditFailed("promotion", err)
		return false
	}
	if sto := t.sessionStore(); sto != nil && s.Principal != "" {
		if err := sto.AddJudged(ctx, s.ID, 1); err != nil {
			t.auditFailed("judged count", err)
			return false
		}
	}
	t.bus.Publish(event.Event{Kind: event.TrustPromoted, Time: t.cfg.Now(), SessionID: s.ID, Tool: e.Def.Name, Payload: event.Promotion{By: jv.By}})
	st.mu.Lock()
	st.judged++
	st.mu.Unlock()
	return true
}

// steered reports whether a held call follows instructions: it is
// Hijacked, or an argument, an identifier it carries or a run of its words
// came from a source with instruction-like text.
func steered(c *trust.Case) bool {
	if c.Hijacked {
		return true
	}
	for _, a := range c.Args {
		if len(a.Steered) > 0 {
			return true
		}
		srcs := slices.Clone(a.Evidence.Sources)
		if a.Evidence.Origin == trust.Trusted {
			srcs = nil
		}
		for _, k := range a.Carried {
			if k.Evidence.Origin != trust.Trusted {
				srcs = append(srcs, k.Evidence.Sources...)
			}
		}
		for _, src := range srcs {
			if len(src.Instructions) > 0 {
				return true
			}
		}
	}
	return false
}

// ErrBadLevel is returned for a level change the model does not allow.
var ErrBadLevel = errors.New("a session's level can be set to tainted or review, and only a tainted or review session's")

// SetLevel is the owner's change of a session's taint level: put a
// tainted session under review, or lift a review back to tainted. A clean
// session stays clean until it reads third-party content.
func (t *Tools) SetLevel(ctx context.Context, s *Session, level trust.Level, by string) error {
	st := t.trustOf(s)
	if level == trust.Clean || st.Level() == trust.Clean {
		return ErrBadLevel
	}
	return t.setLevel(ctx, s, level, by, "set by the owner")
}

// setLevel moves a session to level: written to the store and the trust
// log first. A lift (to tainted) that cannot be recorded does not happen;
// a review that cannot be recorded still applies in this process (the
// stricter level is the safe one) and the failure is returned.
func (t *Tools) setLevel(ctx context.Context, s *Session, level trust.Level, by, why string) error {
	st := t.trustOf(s)
	now := t.cfg.Now()
	from := []trust.Level{trust.Tainted}
	if level == trust.Review {
		from = []trust.Level{trust.Clean, trust.Tainted}
	} else if level == trust.Tainted {
		from = []trust.Level{trust.Review}
	}
	var failed error
	if sto := t.sessionStore(); sto != nil && s.Principal != "" {
		c := store.LevelChange{To: level, From: from, At: now, Reviewers: t.cfg.DefaultReviewers, Judge: t.cfg.DefaultJudge}
		if err := sto.SetSessionLevel(ctx, s.ID, c); err != nil && !errors.Is(err, store.ErrLevelChange) {
			if level != trust.Review {
				return err
			}
			failed = err
		}
	}
	if err := t.trustRecord(ctx, &store.TrustRecord{Kind: store.TrustTaintAssigned, SessionID: s.ID, Actor: by, Target: s.ID,
		Detail: jsonOf(map[string]any{"level": level.String(), "why": why})}); err != nil && t.cfg.TrustLog != nil {
		if level != trust.Review {
			return err
		}
		failed = errors.Join(failed, err)
	}
	st.mu.Lock()
	old := st.level
	st.level = level
	if len(st.reviewers) == 0 {
		st.reviewers = slices.Clone(t.cfg.DefaultReviewers)
	}
	if st.judge == "" {
		st.judge = t.cfg.DefaultJudge
	}
	st.mu.Unlock()
	if level != trust.Clean {
		t.sessions.taint(s.Principal, true)
	}
	switch {
	case old != trust.Review && level == trust.Review:
		t.sessions.reviewed(s.Principal, +1)
	case old == trust.Review && level != trust.Review:
		t.sessions.reviewed(s.Principal, -1)
	}
	t.bus.Publish(event.Event{Kind: event.TrustTainted, Time: now, SessionID: s.ID, Payload: event.Taint{Level: level.String()}})
	return failed
}

// Level returns the level a session's calls are decided at: its own;
// review while any session of its principal is under review; tainted, for
// a clean session, while any session of its principal is tainted. A
// principal's sessions may share one model's context (one agent serving
// several conversations), and ward cannot tell whether they do: a model
// steered in one session would otherwise act for the attacker in a fresh
// one. The session's own level (what it read) is unchanged; an agent that
// keeps its tasks apart uses a token per task.
func (t *Tools) Level(s *Session) trust.Level {
	l := t.trustOf(s).Level()
	if l != trust.Review && t.sessions.underReview(s.Principal) {
		return trust.Review
	}
	if l == trust.Clean && t.sessions.isTainted(s.Principal) {
		return trust.Tainted
	}
	return l
}

// runChecker runs the named reviewer or judge on c, for the session sid.
// Separation of powers: a checker named like the session or its author
// does not run, nor does an unknown one. A checker that fails rejects.
func (t *Tools) runChecker(ctx context.Context, st *SessionTrust, sid, name string, authoritative bool, c *trust.Case) (trust.Verdict, bool) {
	if name == "" || name == sid || (st.author != "" && name == st.author) {
		return trust.Verdict{}, false
	}
	chk, ok := t.cfg.Checkers[name]
	if !ok {
		return trust.Verdict{}, false
	}
	v, err := chk.Check(ctx, c)
	if err != nil {
		v = trust.Verdict{Approve: false, Reasons: []string{"the checker failed: " + agentSafe(err)}}
	}
	v.By, v.Authoritative = name, authoritative
	return v, true
}

// trustRecord appends to the trust log, if the gate has one.
func (t *Tools) trustRecord(ctx context.Context, r *store.TrustRecord) error {
	if t.cfg.TrustLog == nil {
		return nil
	}
	now := t.cfg.Now()
	r.ID, r.Time = id.New(now), now
	return t.cfg.TrustLog.AppendTrust(ctx, r)
}
