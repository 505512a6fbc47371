// Package privileged holds ward's privileged tools: the owner's settings (the
// phase, the halt, a session's directive and review, pending permits and
// held calls, the agents' and peers' tokens) as tools an agent can
// preview and commit, each commit carrying the owner's signature of its
// permit (gate.ApprovalMessage), checked by the gate before the handler
// runs.
//
// A tool here has no logic of its own for the state it changes: it calls
// the same operation the owner API calls (the gate's SetPhase, Halt,
// SetDirective, SetLevel, CancelByOwner, Reject and SetSpendingLimits
// through Gate; auth's
// Create, RevokeRef and Rotate for tokens), so a change made by a tool and
// one made over the API have the same effect and the same audit record.
// Every tool's plan sends nothing and moves no value; its handler consumes
// the capability and checks the approval before any effect.
//
// Tools lists every tool in one place; nothing registers itself.
package privileged

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/wardhq/ward/internal/capability"
	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
	"github.com/wardhq/ward/internal/trust"
)

// Gate is the gate's owner operations, as the owner API reaches them: the
// daemon implements it over gate.Tools. Each change is durable, with its
// action record, when it returns nil. by names who approved the change.
type Gate interface {
	Phase(ctx context.Context) (hook.Phase, error)
	SetPhase(ctx context.Context, p hook.Phase, by string) error
	// Halt halts every write at the request of the session.
	Halt(ctx context.Context, sessionID, why string) error
	// SetDirective records the owner's directive for the session: its
	// values have trusted provenance.
	SetDirective(ctx context.Context, sessionID, directive string) error
	// SetLevel puts a tainted session under review or lifts a review
	// back to tainted (gate.ErrBadLevel for any other change).
	SetLevel(ctx context.Context, sessionID string, level trust.Level, by string) error
	CancelByOwner(ctx context.Context, permitID, by string) error
	// Reject rejects the held call itemID and returns its status.
	Reject(ctx context.Context, itemID, by, note string) (status string, err error)
	// SpendingOverride returns the owner's override of the spending
	// limits (ok false when none is set).
	SpendingOverride(ctx context.Context) (limits hook.SpendingConfig, ok bool, err error)
	// SetSpendingLimits sets the owner's override of the spending
	// limits, or clears it when limits is nil.
	SetSpendingLimits(ctx context.Context, limits *hook.SpendingConfig, by string) error
	// AllowlistEntries returns the owner's allowlist entries.
	AllowlistEntries(ctx context.Context) ([]store.AllowlistEntry, error)
	// ChangeAllowlist records the owner's changes to the allowlist
	// (after forgetting the earlier ones when reset).
	ChangeAllowlist(ctx context.Context, o hook.AllowlistOverride, reset bool, by string) error
}

// Config is what the privileged tools change.
type Config struct {
	// Gate is the gate's owner operations (required).
	Gate Gate
	// Principals is the store of tokens (required).
	Principals store.Principals
	// Invalidate clears this process's cached verification of a
	// principal's token after a revocation or rotation (optional: other
	// processes refuse within their cache ttl).
	Invalidate func(principalID string)
	// SessionKeys is the ERC-4337 wallet's account (optional: without
	// it the session-key tools refuse, changing nothing).
	SessionKeys SessionKeys
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// Tools returns the privileged tools over cfg, or an error when cfg lacks
// what they need.
func Tools(cfg Config) ([]registry.Tool, error) {
	if cfg.Gate == nil || cfg.Principals == nil {
		return nil, errors.New("privileged: the tools need the gate's owner operations and the principals' store")
	}
	return tools(cfg), nil
}

// All returns every privileged tool bound to no gate and no store, for
// listing and documentation: its handlers refuse.
func All() []registry.Tool { return tools(Config{Gate: unbound{}}) }

func tools(cfg Config) []registry.Tool {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	specs := append(append(gateTools(), tokenTools()...), sessionKeyTools()...)
	out := make([]registry.Tool, 0, len(specs))
	for _, s := range specs {
		out = append(out, s.tool(&cfg))
	}
	return out
}

// unbound is the Gate of All's tools: every operation refuses.
type unbound struct{}

var errUnbound = errors.New("privileged: a listed tool is bound to no gate")

func (unbound) Phase(context.Context) (hook.Phase, error)                   { return 0, errUnbound }
func (unbound) SetPhase(context.Context, hook.Phase, string) error          { return errUnbound }
func (unbound) Halt(context.Context, string, string) error                  { return errUnbound }
func (unbound) SetDirective(context.Context, string, string) error          { return errUnbound }
func (unbound) SetLevel(context.Context, string, trust.Level, string) error { return errUnbound }
func (unbound) CancelByOwner(context.Context, string, string) error         { return errUnbound }
func (unbound) Reject(context.Context, string, string, string) (string, error) {
	return "", errUnbound
}
func (unbound) SpendingOverride(context.Context) (hook.SpendingConfig, bool, error) {
	return hook.SpendingConfig{}, false, errUnbound
}
func (unbound) SetSpendingLimits(context.Context, *hook.SpendingConfig, string) error {
	return errUnbound
}
func (unbound) AllowlistEntries(context.Context) ([]store.AllowlistEntry, error) {
	return nil, errUnbound
}
func (unbound) ChangeAllowlist(context.Context, hook.AllowlistOverride, bool, string) error {
	return errUnbound
}

// spec is one privileged tool: its definition's parts, how it reads its
// arguments into a summary (the plan), and what it does once approved.
type spec struct {
	name, action, description string
	category                  tool.Category
	params, result            string
	// check validates the arguments and says what the tool will do; an
	// error refuses the preview with no change.
	check func(ctx context.Context, cfg *Config, in *registry.Input) (summary string, err error)
	// run makes the change, approved by by, and returns the result's data
	// and the expected and actual outcomes.
	run func(ctx context.Context, cfg *Config, in *registry.Input, by string) (data any, expected, actual string, err error)
	// hold, for a tool that prepares a transaction for the owner instead
	// of changing ward's state, replaces run: it records the
	// transaction for the permit permitID.
	hold func(ctx context.Context, cfg *Config, in *registry.Input, permitID string) (data any, expected, actual string, err error)
	// unhalted marks a tool that only takes power away: a halt does not
	// stop it (tool.Def.Unhalted).
	unhalted bool
}

// venue is the facade venue of every privileged tool: preview_action
// {action_type: "set_phase", venue: "owner"}.
const venue = "owner"

func (s spec) def() *tool.Def {
	return &tool.Def{
		Name: s.name, Description: s.description, Category: s.category,
		Tier: tool.Privileged, RiskTier: tool.Layer2, Budget: tool.Fast, Risk: tool.Dangerous,
		// An owner setting is no position: the phase gate lets
		// privileged tools through in every phase (hook.PhaseGate), and
		// the effect only satisfies Def.Validate.
		Effect:           tool.EffectSettle,
		ProgressSteps:    []string{"Checking the owner's approval", "Applying the change"},
		PromptSnippet:    "Owner-only: commit needs the owner's signature of the permit.",
		PromptGuidelines: []string{"Preview, then ask the owner to sign the permit (ward approval message) and commit with that signature as approval."},
		Params:           json.RawMessage(s.params), Result: json.RawMessage(s.result), SchemaVersion: 1,
		Unhalted: s.unhalted,
	}
}

func (s spec) tool(cfg *Config) registry.Tool {
	d := s.def()
	return registry.Tool{
		Def: d, Action: s.action, Venue: venue,
		Plan: func(ctx context.Context, in *registry.Input) (*tool.Plan, error) {
			sum, err := s.check(ctx, cfg, in)
			if err != nil {
				return nil, err
			}
			return &tool.Plan{Txs: []tool.Tx{}, ValueCents: 0, Summary: "owner setting: " + sum}, nil
		},
		Privileged: func(ctx context.Context, in *registry.Input, plan *tool.Plan, c *capability.Capability, a *capability.Approval) (*tool.Result, error) {
			// The approval must be of this very permit, and the
			// capability is used up before anything changes.
			if a == nil || c == nil || !a.Valid(c.PermitID()) {
				return nil, errors.New("no owner approval of this permit")
			}
			in.Step(0)
			if err := c.Consume(d.Name, in.Args.Hash(), in.Tick, in.Now); err != nil {
				return nil, fmt.Errorf("%s: %w", d.Name, err)
			}
			if _, err := s.check(ctx, cfg, in); err != nil {
				return nil, err
			}
			in.Step(1)
			if s.hold != nil {
				data, expected, actual, err := s.hold(ctx, cfg, in, c.PermitID())
				if err != nil {
					return nil, err
				}
				return tool.WriteResult(d, data, expected, actual, "owner_tx_held")
			}
			data, expected, actual, err := s.run(ctx, cfg, in, "owner:"+a.Owner())
			if err != nil {
				return nil, err
			}
			return tool.WriteResult(d, data, expected, actual, "ward_store")
		},
	}
}

// str returns the string argument name ("" when absent).
func str(in *registry.Input, name string) string {
	v, ok := in.Args.Get(name)
	if !ok {
		return ""
	}
	s, _ := v.Str()
	return s
}
