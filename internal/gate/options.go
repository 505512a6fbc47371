package gate

import "context"

// CallOptions is what a surface says about one call besides its session,
// tool and arguments, passed to ReadWith, PreviewWith, CommitWith and
// LookupHeldWith and from there, as a parameter, to the stages that use
// it. The zero value is a call made directly: through no facade, with no
// one listening for its progress. Neither field decides anything: Facade
// is shown on a held call, Progress only observes.
type CallOptions struct {
	// Facade is the facade tool the agent called, when the call came
	// through one: a call held for review records it (Quarantined.Facade
	// and the held call's action record).
	Facade string
	// Progress receives the call's progress steps as its handler enters
	// them, in addition to the tool:update events; nil: none.
	Progress Progress
}

// Progress receives a call's progress steps as its handler enters them
// (for a surface to forward, e.g. as MCP progress notifications). It must
// not block.
type Progress func(toolName, step string, index, total int)

// callOpts is one call's per-call values as its stages pass them: what
// its surface said and, for a held call the owner approved, the lift of
// its quarantine (nil for every other call; only runHeld makes one).
type callOpts struct {
	CallOptions
	approved *lift
}

type (
	facadeKey   struct{}
	progressKey struct{}
)

// WithFacade returns a context whose calls came through the facade tool
// name: a call held for review records it (Quarantined.Facade). Only the
// methods without options read it (Read, Preview, LookupHeld); ward's own
// surfaces pass CallOptions instead.
func WithFacade(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, facadeKey{}, name)
}

// WithProgress returns a context whose tool calls report their progress
// steps to p, in addition to the tool:update events. Only the methods
// without options read it (Read, Preview, Commit, LookupHeld); ward's own
// surfaces pass CallOptions instead.
func WithProgress(ctx context.Context, p Progress) context.Context {
	return context.WithValue(ctx, progressKey{}, p)
}

// OptionsFromContext returns the options WithFacade and WithProgress put
// in ctx. It is the compatibility path of the methods that predate
// CallOptions (Read, Preview, Commit, LookupHeld and facade.Tools.Call),
// and nothing else reads these context values.
func OptionsFromContext(ctx context.Context) CallOptions {
	var o CallOptions
	o.Facade, _ = ctx.Value(facadeKey{}).(string)
	o.Progress, _ = ctx.Value(progressKey{}).(Progress)
	return o
}
