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

	memo [2]memoSlot
}

type memoSlot struct {
	key  string
	set  bool
	a, b string
	n    int64
	ok   bool
	err  error
}

// Memo returns fn's result for key, computing it at most once per
// evaluation (for up to two keys; further keys are computed each time). Rules
// use it to share work such as resolving a path on the file system.
func (r *Request) Memo(key string, fn func() (string, string, error)) (string, string, error) {
	for i := range r.memo {
		m := &r.memo[i]
		if m.set && m.key == key {
			return m.a, m.b, m.err
		}
		if !m.set {
			m.a, m.b, m.err = fn()
			m.key, m.set = key, true
			return m.a, m.b, m.err
		}
	}
	return fn()
}

// MemoInt is Memo for an integer result (an amount every financial rule
// reads, say). Keys share the two slots with Memo; use distinct keys.
func (r *Request) MemoInt(key string, fn func() (int64, bool, error)) (int64, bool, error) {
	for i := range r.memo {
		m := &r.memo[i]
		if m.set && m.key == key {
			return m.n, m.ok, m.err
		}
		if !m.set {
			m.n, m.ok, m.err = fn()
			m.key, m.set = key, true
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
