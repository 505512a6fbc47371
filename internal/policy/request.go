package policy

import (
	"time"

	"github.com/wardhq/ward/internal/tool"
)

// Turn is the context of the agent turn a call belongs to.
type Turn struct {
	ID        string
	SessionID string
	Source    InputSource
}

// Request is one tool call to decide. Rules see the tool as the snapshot
// resolved it (the policy's catalog wins over what the caller declared for a
// known tool) and Now fixed for the whole evaluation.
type Request struct {
	Tool tool.Ref
	Args *tool.Args // nil means no arguments
	Turn Turn
	// Workdir is the agent's root directory for path rules; empty means the
	// policy's configured root.
	Workdir string
	// Now is the evaluation time; zero means the wall clock.
	Now time.Time
	// State is the tracked state rules read; nil means nothing executed yet
	// and no known balance.
	State *Tracker
	// Trust is what the gate knows of the calling session's taint and of
	// where each argument's value came from; the zero value is a clean
	// session with no provenance known.
	Trust Trust
	// Plan is what a previewed write would do (its value, the tokens it
	// moves, the allowances it grants, whom it pays), when the gate built
	// it before deciding; nil for every other call. Rules that need it
	// have no opinion without it.
	Plan *tool.Plan

	memo [2]memoSlot
}

// Taint levels of a session as rules see them (Trust.Taint).
const (
	TaintClean   = "clean"
	TaintTainted = "tainted"
	TaintReview  = "review"
)

// Provenance of an argument as rules see it (Trust.Provenance).
const (
	ProvenanceTrusted   = "trusted"   // the owner's directive, address book or a trusted tool's output
	ProvenanceUntrusted = "untrusted" // found only in third-party content
	ProvenanceUnknown   = "unknown"   // found nowhere ward saw (the agent made it up or derived it)
)

// Trust is the session's taint and the provenance of a call's arguments.
type Trust struct {
	// Taint is TaintClean (also when empty), TaintTainted or TaintReview.
	Taint string
	// Isolated marks an isolated orchestrator session.
	Isolated bool
	// Provenance maps each top-level argument to ProvenanceTrusted,
	// ProvenanceUntrusted or ProvenanceUnknown.
	Provenance map[string]string
	// Sensitive lists the arguments that must have trusted provenance once
	// the session is tainted (destinations, credentials, selectors and
	// arguments of unknown role; the gate derives them from the tool's
	// schema).
	Sensitive []string
	// Sends marks a call that sends data out (egress), which a tainted
	// session is held to like a state-changing one.
	Sends bool
	// Carries names, per argument, the identifiers (URLs, addresses,
	// account numbers...) found inside a free-text argument whose
	// provenance is in Provenance: such an argument is listed in
	// Sensitive, and the value is "a url, an email".
	Carries map[string]string
	// Hijacked marks a call none of whose arguments comes from the
	// owner's directive or a trusted output while the text with
	// instructions the session read is what it follows.
	Hijacked bool
}

// Tainted reports whether the session has read third-party content (or is
// under review).
func (t *Trust) Tainted() bool { return t.Taint == TaintTainted || t.Taint == TaintReview }

// TaintLevel returns Taint, with "" read as TaintClean.
func (t *Trust) TaintLevel() string {
	if t.Taint == "" {
		return TaintClean
	}
	return t.Taint
}

// Origin returns the provenance of argument name: ProvenanceUnknown when the
// gate did not say.
func (t *Trust) Origin(name string) string {
	if o, ok := t.Provenance[name]; ok {
		return o
	}
	return ProvenanceUnknown
}

type memoSlot struct {
	key  string
	kind memoKind
	a, b string
	n    int64
	ok   bool
	err  error
}

// memoKind says which of Memo and MemoInt filled a slot: each finds only
// its own, so that a path and an amount key spelled alike never read each
// other's result.
type memoKind uint8

const (
	memoUnset memoKind = iota
	memoStrings
	memoInt
)

// Memo returns fn's result for key, computing it at most once per
// evaluation (for up to two keys; further keys are computed each time). Rules
// use it to share work such as resolving a path on the file system.
func (r *Request) Memo(key string, fn func() (string, string, error)) (string, string, error) {
	for i := range r.memo {
		m := &r.memo[i]
		if m.kind == memoStrings && m.key == key {
			return m.a, m.b, m.err
		}
		if m.kind == memoUnset {
			m.a, m.b, m.err = fn()
			m.key, m.kind = key, memoStrings
			return m.a, m.b, m.err
		}
	}
	return fn()
}

// MemoInt is Memo for an integer result (an amount every financial rule
// reads, say). Keys share the two slots with Memo, but a key memoised by
// one is not found by the other.
func (r *Request) MemoInt(key string, fn func() (int64, bool, error)) (int64, bool, error) {
	for i := range r.memo {
		m := &r.memo[i]
		if m.kind == memoInt && m.key == key {
			return m.n, m.ok, m.err
		}
		if m.kind == memoUnset {
			m.n, m.ok, m.err = fn()
			m.key, m.kind = key, memoInt
			return m.n, m.ok, m.err
		}
	}
	return fn()
}

// Spend is money a call would move: a spend category (transfer, x402,
// inference, ...) and an amount in cents.
type Spend struct {
	Category string
	Cents    int64
}

// Meter tells how much a call would spend, if anything. It returns false for
// calls that spend nothing or whose amount is not a valid integer (rules
// deny those).
type Meter func(*Request) (Spend, bool)
