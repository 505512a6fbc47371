package policy

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// SnapshotConfig is everything a Snapshot is compiled from besides rules.
type SnapshotConfig struct {
	// Hash identifies the policy (its source and ward's built-in rule
	// version); it is recorded in every decision.
	Hash [32]byte
	// Catalog lists the tools the policy knows. For these, the catalog's
	// category, risk and tier win over what a caller declares.
	Catalog []tool.Ref
	// Meter extracts the spend of a call, if any.
	Meter Meter
	// Provenance says that rules read argument provenance in clean
	// sessions too (provenance requirements, CEL rules reading it); without
	// it the gate computes provenance only for tainted sessions.
	Provenance bool
	// Ungrouped evaluates every rule one by one, without the same-field
	// lookups (see Rule.Equal): the plain walk tests compare against.
	Ungrouped bool
}

// NeedsProvenance reports whether rules read argument provenance in clean
// sessions (see SnapshotConfig.Provenance).
func (s *Snapshot) NeedsProvenance() bool { return s.prov }

// Snapshot is an immutable, compiled policy. It is safe for concurrent use.
type Snapshot struct {
	prov bool
	// ungrouped turns off the same-field lookups (tests compare the
	// two walks).
	ungrouped bool
	rules     []*compiled
	hash      [32]byte
	catalog   map[string]tool.Ref
	known     map[tool.Ref]*ruleSet
	// fixed holds catalog tools whose declaration sets category, risk and
	// tier: their resolution and rule set do not depend on the caller.
	fixed map[string]fixedTool
	meter Meter

	mu      sync.RWMutex
	dynamic map[tool.Ref]*ruleSet // rule sets of tools outside the catalog
}

// maxDynamic bounds the cache of rule sets for tools outside the catalog, so
// that a stream of invented tool names cannot grow memory without bound.
const maxDynamic = 4096

type compiled struct {
	Rule
	quotedID string // the id as a JSON string, for audit encoding
}

type fixedTool struct {
	ref tool.Ref
	set *ruleSet
}

type ruleSet struct {
	rules    []*compiled
	stateful bool
	// groups are the runs of at least minGroup rules in rules whose
	// conditions compare one field with constants, in order.
	groups []group
}

// group is a run rules[start:end] of rules with an Equality on one field:
// at maps each constant to the indexes (into rules, ascending) of the
// rules comparing with it, so that one read and one lookup find the only
// rules of the run that can have an opinion.
type group struct {
	start, end int
	read       func(*Request) string
	at         map[string][]int
}

// minGroup is the shortest run of same-field rules evaluated as a lookup:
// below it, comparing one by one is as fast as hashing the value.
const minGroup = 8

// groupRuns finds the runs of same-field equality rules in set.
func (set *ruleSet) groupRuns() {
	for i := 0; i < len(set.rules); {
		eq := set.rules[i].Equal
		if eq == nil {
			i++
			continue
		}
		j := i + 1
		for j < len(set.rules) && set.rules[j].Equal != nil && set.rules[j].Equal.Field == eq.Field {
			j++
		}
		if j-i >= minGroup {
			g := group{start: i, end: j, read: eq.Read, at: make(map[string][]int, j-i)}
			for k := i; k < j; k++ {
				v := set.rules[k].Equal.Value
				g.at[v] = append(g.at[v], k)
			}
			set.groups = append(set.groups, g)
		}
		i = j
	}
}

// ErrInvalidRule is wrapped by NewSnapshot's errors.
var ErrInvalidRule = errors.New("invalid rule")

// NewSnapshot compiles rules into a snapshot. Rules are ordered by priority,
// ties keeping their order in the slice. Rule ids must be unique and every
// rule needs an Eval and a valid selector.
func NewSnapshot(rules []Rule, cfg SnapshotConfig) (*Snapshot, error) {
	s := &Snapshot{
		hash:      cfg.Hash,
		catalog:   make(map[string]tool.Ref, len(cfg.Catalog)),
		known:     make(map[tool.Ref]*ruleSet, len(cfg.Catalog)),
		fixed:     make(map[string]fixedTool, len(cfg.Catalog)),
		meter:     cfg.Meter,
		prov:      cfg.Provenance,
		ungrouped: cfg.Ungrouped,
		dynamic:   make(map[tool.Ref]*ruleSet),
	}
	seen := make(map[string]bool, len(rules))
	for _, r := range rules {
		switch {
		case r.ID == "":
			return nil, fmt.Errorf("%w: empty id", ErrInvalidRule)
		case seen[r.ID]:
			return nil, fmt.Errorf("%w: duplicate id %q", ErrInvalidRule, r.ID)
		case r.Eval == nil:
			return nil, fmt.Errorf("%w: %s: no evaluation", ErrInvalidRule, r.ID)
		}
		if err := r.Applies.Validate(); err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrInvalidRule, r.ID, err)
		}
		seen[r.ID] = true
		s.rules = append(s.rules, &compiled{Rule: r, quotedID: strconv.Quote(r.ID)})
	}
	slices.SortStableFunc(s.rules, func(a, b *compiled) int { return cmp.Compare(a.Priority, b.Priority) })
	for _, ref := range cfg.Catalog {
		if !tool.ValidName(ref.Name) {
			return nil, fmt.Errorf("invalid tool name %q in catalog", ref.Name)
		}
		s.catalog[ref.Name] = ref
		set := s.compileSet(ref)
		s.known[ref] = set
		if ref.Category != "" && ref.Risk != tool.RiskUnset && ref.Tier != tool.TierUnset {
			s.fixed[ref.Name] = fixedTool{ref: ref, set: set}
		}
	}
	return s, nil
}

// Hash returns the snapshot's policy hash.
func (s *Snapshot) Hash() [32]byte { return s.hash }

// Rules returns the snapshot's rules in evaluation order.
func (s *Snapshot) Rules() []Rule {
	out := make([]Rule, len(s.rules))
	for i, c := range s.rules {
		out[i] = c.Rule
	}
	return out
}

// Spend is what r spends by the snapshot's meter (the treasury's transfer,
// x402 and inference tools), false when it spends nothing the spend
// windows count. The gate records it with a committed write's execution.
func (s *Snapshot) Spend(r *Request) (Spend, bool) {
	if s.meter == nil || r.Args == nil {
		return Spend{}, false
	}
	r.Tool = s.Resolve(r.Tool)
	return s.meter(r)
}

// Resolve returns the tool as the policy sees it: a tool in the catalog
// takes the catalog's category, risk level and tier (a tier the catalog
// leaves unset comes from the caller); any other tool keeps what the caller
// declared.
func (s *Snapshot) Resolve(ref tool.Ref) tool.Ref {
	if known, ok := s.catalog[ref.Name]; ok {
		if known.Tier == tool.TierUnset {
			known.Tier = ref.Tier
		}
		if known.Category == "" {
			known.Category = ref.Category
		}
		if known.Risk == tool.RiskUnset {
			known.Risk = ref.Risk
		}
		return known
	}
	return ref
}

func (s *Snapshot) compileSet(ref tool.Ref) *ruleSet {
	set := &ruleSet{}
	for _, c := range s.rules {
		if !c.Applies.Matches(ref) {
			continue
		}
		if c.ToolOnly {
			// Decided here, once for the tool. A rule that fails keeps
			// failing when the call comes, so it stays as it is.
			res, err := evalRule(c, &Request{Tool: ref, Args: tool.EmptyArgs()})
			if err == nil && !res.Opinion {
				continue
			}
			if err == nil && res.Action <= Allow && res.Code.Valid() {
				folded := *c
				folded.Eval = func(*Request) (Result, error) { return res, nil }
				folded.Equal = nil // decided: no longer a comparison
				c = &folded
			}
		}
		set.rules = append(set.rules, c)
		set.stateful = set.stateful || c.Stateful
	}
	if !s.ungrouped {
		set.groupRuns()
	}
	return set
}

func (s *Snapshot) rulesFor(ref tool.Ref) *ruleSet {
	if set, ok := s.known[ref]; ok {
		return set
	}
	s.mu.RLock()
	set, ok := s.dynamic[ref]
	s.mu.RUnlock()
	if ok {
		return set
	}
	set = s.compileSet(ref)
	s.mu.Lock()
	if len(s.dynamic) < maxDynamic {
		s.dynamic[ref] = set
	}
	s.mu.Unlock()
	return set
}

// Stateful reports whether any rule reading tracked state applies to the
// tool.
func (s *Snapshot) Stateful(ref tool.Ref) bool {
	return s.rulesFor(s.Resolve(ref)).stateful
}

// Evaluate decides one call. It never fails: every failure inside a rule is
// a deny with a diagnostic.
func (s *Snapshot) Evaluate(req *Request) (d Decision) {
	start := time.Now()
	// The rules see a copy they may annotate (resolved tool, memo). It
	// escapes to the heap (rules are called through function values), so
	// it comes from a pool: rules must not keep it after returning.
	r := requestPool.Get().(*Request)
	defer func() {
		*r = Request{}
		requestPool.Put(r)
	}()
	*r = *req
	if r.memo[0].kind != memoUnset {
		// Only a request a rule was given has a memo (slot 0 fills
		// first); the caller's is clear, and so is a pooled one.
		r.memo = [2]memoSlot{}
	}
	if r.Now.IsZero() {
		r.Now = start
	}
	if r.Args == nil {
		r.Args = tool.EmptyArgs()
	}
	var set *ruleSet
	if f, ok := s.fixed[req.Tool.Name]; ok {
		r.Tool, set = f.ref, f.set
	} else {
		r.Tool = s.Resolve(req.Tool)
		set = s.rulesFor(r.Tool)
	}

	// d is built in place: it is the caller's result, not a copy of one.
	d = Decision{
		action:     Allow,
		code:       reason.Allowed,
		message:    "all policy checks passed",
		tool:       r.Tool,
		source:     r.Turn.Source,
		turnID:     r.Turn.ID,
		sessionID:  r.Turn.SessionID,
		argsHash:   r.Args.Hash(),
		policyHash: s.hash,
		stateful:   set.stateful,
		at:         r.Now,
	}
	if s.meter != nil {
		d.spend, d.hasSpend = s.meter(r)
	}
	n := d.walk(set, r)
	d.evaluated = set.rules[:n:n]
	d.latency = time.Since(start)
	return d
}

// walk runs set's rules on r in order, folding their opinions into d, and
// returns how many it ran: the first deny (or failure) ends it. A run of
// same-field comparisons is walked by looking the field's value up: the
// rules it does not find have no opinion. A rule that panics fails like
// one that returns an error; one deferred recover serves the whole walk
// (a defer per rule cost more than most rules).
func (d *Decision) walk(set *ruleSet, r *Request) (n int) {
	cur := -1 // the rule running, -1 between rules
	defer func() {
		if cur < 0 {
			return
		}
		if p := recover(); p != nil {
			d.fail(set.rules[cur], fmt.Errorf("panic: %v", p))
			n = cur + 1
		}
	}()
	groups := set.groups
	for i := 0; i < len(set.rules); i++ {
		if len(groups) > 0 && groups[0].start == i {
			g := &groups[0]
			groups = groups[1:]
			for _, j := range g.at[g.read(r)] {
				cur = j
				res, err := set.rules[j].Eval(r)
				cur = -1
				if (err != nil || res.Opinion) && d.consider(set.rules[j], res, err) {
					return j + 1
				}
			}
			i = g.end - 1
			continue
		}
		cur = i
		res, err := set.rules[i].Eval(r)
		cur = -1
		// Most rules have no opinion of most calls: consider, which
		// would return false at once, is called only for the others.
		if (err != nil || res.Opinion) && d.consider(set.rules[i], res, err) {
			return i + 1
		}
	}
	return len(set.rules)
}

// consider folds the opinion of rule c (res, or its failure err) into d,
// reporting whether the decision is now a deny (which ends the
// evaluation).
func (d *Decision) consider(c *compiled, res Result, err error) (denied bool) {
	if err == nil && res.Opinion && (res.Action > Allow || !res.Code.Valid()) {
		err = fmt.Errorf("invalid result: action %d, reason code %q", res.Action, res.Code)
	}
	if err != nil {
		d.fail(c, err)
		return true
	}
	if !res.Opinion {
		return false
	}
	d.triggered.add(c)
	switch res.Action {
	case Deny:
		d.action, d.code, d.message, d.rule = Deny, res.Code, res.Message, c.ID
		return true
	case Quarantine:
		if d.action == Allow {
			d.action, d.code, d.message, d.rule = Quarantine, res.Code, res.Message, c.ID
		}
	}
	return false
}

// fail makes d the deny of rule c failing with err.
func (d *Decision) fail(c *compiled, err error) {
	d.triggered.add(c)
	d.action = Deny
	d.code = reason.RuleErr
	d.message = "a policy rule could not be evaluated, so the call is denied"
	d.rule = c.ID
	d.diagnostic = c.ID + ": " + err.Error()
}

var requestPool = sync.Pool{New: func() any { return new(Request) }}

// Reject returns a deny decision for a call that could not be evaluated at
// all (its arguments did not decode, say), without running any rule.
// argsHash should be the SHA-256 of whatever raw arguments arrived.
func (s *Snapshot) Reject(req *Request, argsHash [32]byte, code reason.Code, message, diagnostic string) Decision {
	now := req.Now
	if now.IsZero() {
		now = time.Now()
	}
	return Decision{
		action:     Deny,
		code:       code,
		message:    message,
		diagnostic: diagnostic,
		tool:       s.Resolve(req.Tool),
		source:     req.Turn.Source,
		turnID:     req.Turn.ID,
		sessionID:  req.Turn.SessionID,
		argsHash:   argsHash,
		policyHash: s.hash,
		at:         now,
	}
}

func evalRule(c *compiled, r *Request) (res Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = Result{}, fmt.Errorf("panic: %v", p)
		}
	}()
	return c.Eval(r)
}

// Engine holds the current snapshot and swaps it atomically. It is safe for
// concurrent use.
type Engine struct {
	snap atomic.Pointer[Snapshot]
}

// NewEngine returns an engine deciding with s.
func NewEngine(s *Snapshot) (*Engine, error) {
	if s == nil {
		return nil, ErrNoSnapshot
	}
	e := &Engine{}
	e.snap.Store(s)
	return e, nil
}

// Snapshot returns the current snapshot.
func (e *Engine) Snapshot() *Snapshot { return e.snap.Load() }

// ErrNoSnapshot is returned when swapping in a nil snapshot.
var ErrNoSnapshot = errors.New("no policy snapshot")

// Swap installs a new snapshot (compiled and therefore validated) and
// returns the previous one. Evaluations in flight finish on the snapshot
// they started with.
func (e *Engine) Swap(s *Snapshot) (*Snapshot, error) {
	if s == nil {
		return nil, ErrNoSnapshot
	}
	return e.snap.Swap(s), nil
}

// Evaluate decides one call with the current snapshot.
func (e *Engine) Evaluate(req *Request) Decision { return e.snap.Load().Evaluate(req) }
