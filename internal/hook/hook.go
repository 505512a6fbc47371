// Package hook is the safety hook chain that every write passes before a
// permit is minted: phase gate, allowlist, spending limiter, rate limiter,
// pre-flight simulation, hallucination detector and result filter, in that
// order. The gate declares the order and which hooks a commit runs again
// (gate/hooks.go); this package holds the hooks, the Set of one of each and
// the Chain that runs them.
//
// A hook is a small type with a Check that returns a Verdict: a value, not
// an error. Chain.Run runs hooks in order and stops at the first veto. It
// fails closed: a hook that panics, returns a veto without a code, or is
// nil vetoes with HOOK_ERROR, and so does a context that ends mid-chain.
// Hooks run synchronously and never publish events; the gate does that.
//
// Hooks see untrusted input (the agent's arguments, the plan built from
// them, revert reasons and token metadata from contracts). A Verdict's
// Message is written for the agent and never quotes that input beyond
// fixed-format values (addresses, amounts); Detail carries the internal
// diagnosis for the audit trail.
//
// Stateful hooks (SpendingLimiter, RateLimiter) count executed writes that
// the gate records after a commit runs. Their Check is advisory (it counts
// what was executed); their Reserve is the atomic check-and-hold the gate
// takes before executing, so concurrent commits cannot together pass a
// limit that only one fits under. See SpendingLimiter for the exact
// semantics.
package hook

import (
	"context"
	"fmt"
	"time"

	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// Call is what the hooks check: one tool call at one moment. Hooks must not
// modify it or anything it points to.
type Call struct {
	Def       *tool.Def
	Args      *tool.Args
	Plan      *tool.Plan // nil for reads and previews that build no plan
	Phase     Phase
	SessionID string
	Tick      uint64
	Now       time.Time
	Preview   bool // true while previewing (the phase gate lets conservation preview)
}

// Verdict is a hook's (or the chain's) answer. The zero Verdict passes.
type Verdict struct {
	Veto    bool
	Hook    string      // the hook that vetoed
	Code    reason.Code // set whenever Veto is
	Message string      // for the agent: no internals, no echo of untrusted input
	Detail  string      // internal diagnostic
	Sim     *SimResult  // set by the simulation hook when it ran
	// Err is the failure behind a veto that is not a judgement (the
	// windows could not be read or written), for the caller to classify
	// (a store that cannot be written); never shown to the agent.
	Err error
}

// Hook is one safety check. Check must be safe for concurrent use, must
// not modify the Call, and must return promptly once ctx is done (vetoing
// or passing).
type Hook interface {
	Name() string
	Check(ctx context.Context, c *Call) Verdict
}

// Chain is an ordered list of hooks.
type Chain []Hook

// chainName is the Verdict.Hook of vetoes the chain itself issues.
const chainName = "chain"

// Run runs the hooks in order; the first veto wins and stops the chain. It
// returns the verdict and the names of the hooks that ran (the vetoing one
// included). The verdict carries the simulation result of the simulation
// hook if it ran, whether or not a later hook vetoed.
//
// Run fails closed: an empty chain, a nil or malformed call, a nil hook, a
// hook that panics or vetoes without a valid code, and a ctx that is done
// before a hook starts or when the last one returns all veto with
// HOOK_ERROR. Verdict.Hook is always the name of the hook that vetoed (a
// hook cannot speak for another) or "chain".
func (ch Chain) Run(ctx context.Context, c *Call) (Verdict, []string) {
	ran := make([]string, 0, len(ch))
	switch {
	case len(ch) == 0:
		return chainError("no hooks configured"), ran
	case c == nil || c.Def == nil:
		return chainError("call without a tool definition"), ran
	}
	var sim *SimResult
	for i, h := range ch {
		if err := ctx.Err(); err != nil {
			v := chainError(fmt.Sprintf("context ended before hook %d: %v", i, err))
			v.Sim = sim
			return v, ran
		}
		if h == nil {
			v := chainError(fmt.Sprintf("hook %d is nil", i))
			v.Sim = sim
			return v, ran
		}
		name := safeName(h)
		ran = append(ran, name)
		v := runOne(ctx, h, name, c)
		if v.Sim != nil {
			sim = v.Sim
		}
		if v.Veto {
			v.Sim = sim
			return v, ran
		}
	}
	if err := ctx.Err(); err != nil {
		v := chainError(fmt.Sprintf("context ended during the chain: %v", err))
		v.Sim = sim
		return v, ran
	}
	return Verdict{Sim: sim}, ran
}

// runOne runs one hook, turning a panic or a malformed verdict into a
// HOOK_ERROR veto.
func runOne(ctx context.Context, h Hook, name string, c *Call) (v Verdict) {
	defer func() {
		if r := recover(); r != nil {
			v = Verdict{Veto: true, Hook: name, Code: reason.HookError,
				Message: "a safety check failed, so the action is refused",
				Detail:  fmt.Sprintf("hook %s panicked: %v", name, r)}
		}
	}()
	v = h.Check(ctx, c)
	if v.Veto && !v.Code.Valid() {
		return Verdict{Veto: true, Hook: name, Code: reason.HookError,
			Message: "a safety check failed, so the action is refused",
			Detail:  fmt.Sprintf("hook %s vetoed without a valid code (%q): %s", name, v.Code, v.Detail), Sim: v.Sim}
	}
	if v.Veto {
		v.Hook = name
	}
	return v
}

func safeName(h Hook) (name string) {
	defer func() {
		if recover() != nil {
			name = fmt.Sprintf("%T", h)
		}
	}()
	if name = h.Name(); name == "" {
		name = fmt.Sprintf("%T", h)
	}
	return name
}

func chainError(detail string) Verdict {
	return Verdict{Veto: true, Hook: chainName, Code: reason.HookError,
		Message: "the safety checks could not complete, so the action is refused", Detail: detail}
}

// veto returns a veto by the named hook.
func veto(hook string, code reason.Code, msg, detail string) Verdict {
	return Verdict{Veto: true, Hook: hook, Code: code, Message: msg, Detail: detail}
}

// isRead reports whether c only reads. A tool whose tier is unset counts
// as a write.
func isRead(c *Call) bool { return c.Def.Tier.Effective() == tool.Read }

// planOf returns the plan a plan-checking hook examines. ok is false when
// there is nothing to check: a read, or a preview that built no plan. A
// write outside preview without a plan, or a call without a definition,
// is malformed: ok is false and v vetoes.
func planOf(hook string, c *Call) (p *tool.Plan, v Verdict, ok bool) {
	switch {
	case c == nil || c.Def == nil:
		return nil, veto(hook, reason.HookError, "the safety checks could not complete, so the action is refused", "call without a tool definition"), false
	case isRead(c):
		return nil, Verdict{}, false
	case c.Plan == nil && c.Preview:
		return nil, Verdict{}, false
	case c.Plan == nil:
		return nil, veto(hook, reason.HookError, "the action has no plan to check, so it is refused", "write outside preview without a plan"), false
	}
	return c.Plan, Verdict{}, true
}
