// Package registry holds the tools ward can run: each tool's definition,
// its compiled parameter schema and its handler, whose Go type depends on
// the tool's capability tier. It also resolves profiles (which tools a
// session may see), the adapter table from facade actions to tools, and
// the pruning of the tool list shown per tick.
//
// A write handler's signature takes a *capability.Capability, which only
// the gate can mint; a privileged handler also takes the owner's
// *capability.Approval. Speculative prefetching takes ReadTool values,
// which carry no write handler at all, so speculation cannot reach a
// write.
//
// A tool whose parameter schema does not compile is refused alone: Add
// leaves it out and records why (Refused), and registration goes on, so
// that one unusable schema among an upstream server's or an imported
// suite's tools does not take the others down.
//
// A Registry is built once (Add, then Freeze) and then read concurrently
// without locks. After Freeze, Apply adds and removes tools in one step
// (a reload's upstream servers): it swaps in a new table of tools whole,
// so a reader sees either the table before or the one after, and a call
// that resolved a tool keeps that entry to its end. Views follow the
// registry: each one is recomputed from its selection the first time it is
// read after a swap.
package registry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wardhq/ward/internal/capability"
	"github.com/wardhq/ward/internal/schema"
	"github.com/wardhq/ward/internal/tool"
)

// Input is what a handler receives: the validated arguments and the
// context of the call.
type Input struct {
	Args      *tool.Args
	Raw       json.RawMessage // the validated JSON arguments
	SessionID string
	Tick      uint64
	Now       time.Time
	// Step announces that the handler entered progress step i of its
	// definition's ProgressSteps (a tool:update event). Never nil.
	Step func(i int)
	// Session is the call's session as a handler may use it (a WASM
	// tool's guest does): its read tools and previews, through the gate
	// like any call of the session. nil outside a session's call
	// (speculation), which leaves a handler no tool to call.
	Session SessionCalls
}

// SessionCalls calls tools as a session, through the gate (policy,
// taint, audit and events as for any of its calls). Read refuses a tool
// that is not a read tool, and records the refusal.
type SessionCalls interface {
	Read(ctx context.Context, name string, raw json.RawMessage) (*tool.Result, error)
	// Preview previews a write as the session and returns the permit
	// (preview_action's answer, as JSON).
	Preview(ctx context.Context, name string, raw json.RawMessage) (json.RawMessage, error)
}

// ReadHandler runs a read tool.
type ReadHandler func(ctx context.Context, in *Input) (*tool.Result, error)

// Planner builds, without side effects, the plan of a write: the
// transactions it would send and what it moves.
type Planner func(ctx context.Context, in *Input) (*tool.Plan, error)

// WriteHandler executes a previewed plan. It cannot run without a
// capability, which it must consume (chain.Wallet.Send does) before any
// effect.
type WriteHandler func(ctx context.Context, in *Input, plan *tool.Plan, c *capability.Capability) (*tool.Result, error)

// PrivilegedHandler is a WriteHandler that also needs the owner's
// approval of this very call.
type PrivilegedHandler func(ctx context.Context, in *Input, plan *tool.Plan, c *capability.Capability, a *capability.Approval) (*tool.Result, error)

// Tool is one registrable tool: a definition and the handlers its tier
// requires (Read for read tools; Plan and Write for write tools; Plan and
// Privileged for privileged tools).
type Tool struct {
	Def        *tool.Def
	Read       ReadHandler
	Plan       Planner
	Write      WriteHandler
	Privileged PrivilegedHandler
	// Action and Venue place a write tool in the adapter table
	// (preview_action {action_type, venue}); a read tool may set Action to
	// be reachable through query_state or search_context {kind}.
	Action string
	Venue  string
}

// Entry is a registered tool with its compiled schema.
type Entry struct {
	Tool
	params *schema.Schema
}

// Validate checks raw arguments against the tool's parameter schema.
func (e *Entry) Validate(raw json.RawMessage) error { return e.params.Validate(raw) }

// Schema returns the tool's compiled parameter schema (Params reads its
// top-level parameters with references resolved).
func (e *Entry) Schema() *schema.Schema { return e.params }

// ReadTool is a read tool and nothing else: the only thing speculation
// accepts.
type ReadTool struct {
	def *tool.Def
	run ReadHandler
}

// Def returns the tool's definition.
func (r ReadTool) Def() *tool.Def { return r.def }

// Run runs the read handler.
func (r ReadTool) Run(ctx context.Context, in *Input) (*tool.Result, error) {
	if r.run == nil {
		return nil, errors.New("registry: zero ReadTool")
	}
	return r.run(ctx, in)
}

// Registry is the set of registered tools.
type Registry struct {
	// tab is the table of tools: Add writes it in place before Freeze;
	// after it only Apply swaps it (whole, under applyMu), and a slot's
	// entry may be replaced (Replace).
	tab     atomic.Pointer[table]
	applyMu sync.Mutex
	refused []Refusal
	frozen  bool
}

// table is one version of the registered tools. A table Apply swapped in
// is never written again.
type table struct {
	tools map[string]*slot
	order []string
}

func (t *table) get(name string) (*Entry, bool) {
	sl, ok := t.tools[name]
	if !ok {
		return nil, false
	}
	return sl.load(), true
}

// Refusal is a tool Add refused because its parameter schema does not
// compile. Err names the tool and wraps the *schema.CompileError, whose
// Path locates the problem in the schema.
type Refusal struct {
	Name string
	Err  error
}

// slot holds a registered tool's entry.
type slot struct{ e atomic.Pointer[Entry] }

func (s *slot) load() *Entry { return s.e.Load() }

// New returns an empty registry.
func New() *Registry {
	r := &Registry{}
	r.tab.Store(&table{tools: map[string]*slot{}})
	return r
}

// Add validates and registers t. It fails after Freeze, for a duplicate
// name (a refused tool's too), an invalid definition, or handlers that do
// not match the tier. A tool whose parameter schema does not compile is
// not registered and not an error: Add records it (Refused) and returns
// nil.
func (r *Registry) Add(t Tool) error {
	if r.frozen {
		return errors.New("registry: frozen")
	}
	if t.Def == nil {
		return errors.New("registry: tool without definition")
	}
	d, tab := t.Def, r.tab.Load()
	if _, dup := tab.tools[d.Name]; dup || r.isRefused(d.Name) {
		return fmt.Errorf("registry: tool %s registered twice", d.Name)
	}
	if err := checkHandlers(t); err != nil {
		return err
	}
	s, err := schema.Compile(d.Params)
	if err != nil {
		r.refused = append(r.refused, Refusal{Name: d.Name, Err: fmt.Errorf("registry: tool %s refused: parameter schema: %w", d.Name, err)})
		return nil
	}
	sl := &slot{}
	sl.e.Store(&Entry{Tool: t, params: s})
	tab.tools[d.Name] = sl
	tab.order = append(tab.order, d.Name)
	return nil
}

// ErrNotReplaceable is wrapped by Replace's error for a tool whose new
// definition would move it between profiles, tiers or adapters: every
// view selected the old one, so only a restart can place the new one.
var ErrNotReplaceable = errors.New("the new definition needs a restart")

// Replace registers t in place of the tool of the same name, after Freeze
// too: every view, and every call that resolves the name from then on,
// gets the new entry; a call that resolved the old one keeps it. The
// name, action, venue, tier, category, risk tier and requirements must
// stay the same (ErrNotReplaceable otherwise), so that every view's
// selection and adapters stay right; the handlers must match the tier and
// the parameter schema must compile. It is safe for concurrent use with
// every reader.
func (r *Registry) Replace(t Tool) error {
	if t.Def == nil {
		return errors.New("registry: tool without definition")
	}
	sl, ok := r.tab.Load().tools[t.Def.Name]
	if !ok {
		return fmt.Errorf("registry: replace: no tool %s", t.Def.Name)
	}
	old, d := sl.load().Tool, t.Def
	if old.Action != t.Action || old.Venue != t.Venue || old.Def.Tier != d.Tier || old.Def.Category != d.Category ||
		old.Def.RiskTier != d.RiskTier || !slices.Equal(old.Def.Requires, d.Requires) {
		return fmt.Errorf("registry: replace %s: %w", d.Name, ErrNotReplaceable)
	}
	if err := checkHandlers(t); err != nil {
		return err
	}
	s, err := schema.Compile(d.Params)
	if err != nil {
		return fmt.Errorf("registry: replace %s: parameter schema: %w", d.Name, err)
	}
	sl.e.Store(&Entry{Tool: t, params: s})
	return nil
}

// checkHandlers validates t's definition and that its handlers are
// those its tier requires.
func checkHandlers(t Tool) error {
	d := t.Def
	if err := d.Validate(); err != nil {
		return fmt.Errorf("registry: %w", err)
	}
	switch d.Tier {
	case tool.Read:
		if t.Read == nil || t.Plan != nil || t.Write != nil || t.Privileged != nil {
			return fmt.Errorf("registry: read tool %s needs a read handler and nothing else", d.Name)
		}
	case tool.Write:
		if t.Plan == nil || t.Write == nil || t.Read != nil || t.Privileged != nil {
			return fmt.Errorf("registry: write tool %s needs a planner and a write handler and nothing else", d.Name)
		}
	case tool.Privileged:
		if t.Plan == nil || t.Privileged == nil || t.Read != nil || t.Write != nil {
			return fmt.Errorf("registry: privileged tool %s needs a planner and a privileged handler and nothing else", d.Name)
		}
	}
	return nil
}

// Refused returns the tools Add refused, in the order they were added.
func (r *Registry) Refused() []Refusal { return slices.Clone(r.refused) }

func (r *Registry) isRefused(name string) bool {
	return slices.ContainsFunc(r.refused, func(f Refusal) bool { return f.Name == name })
}

// Freeze ends registration.
func (r *Registry) Freeze() { r.frozen = true }

// Get returns the tool called name.
func (r *Registry) Get(name string) (*Entry, bool) { return r.tab.Load().get(name) }

// ReadTool returns the read tool called name; ok is false for unknown
// names and for write and privileged tools.
func (r *Registry) ReadTool(name string) (ReadTool, bool) {
	e, ok := r.Get(name)
	if !ok || e.Def.Tier != tool.Read {
		return ReadTool{}, false
	}
	return ReadTool{def: e.Def, run: e.Read}, true
}

// All returns every registered tool, sorted by name.
func (r *Registry) All() []*Entry {
	tab := r.tab.Load()
	names := slices.Clone(tab.order)
	sort.Strings(names)
	out := make([]*Entry, len(names))
	for i, n := range names {
		out[i] = tab.tools[n].load()
	}
	return out
}
