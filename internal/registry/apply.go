package registry

import (
	"errors"
	"fmt"
	"slices"

	"github.com/wardhq/ward/internal/schema"
)

// ErrApply is wrapped by Apply's error: the change was refused whole and
// the registry is as it was.
var ErrApply = errors.New("registry: change refused")

// Apply removes the tools named in remove and registers add, after
// Freeze, in one step: every reader, view and call that resolves a name
// from then on sees the new set of tools, and a call that resolved a
// removed tool keeps its entry to its end. Everything is checked before
// anything changes: a name in remove that is not registered, a tool of
// add whose name is taken (by a tool that stays, another tool of add, or
// one Add refused), whose definition or handlers are invalid, whose
// parameter schema does not compile, or whose (action, venue) another
// tool already adapts refuses the whole change (an error wrapping
// ErrApply) and changes nothing. Apply calls are serialised; it is safe
// for concurrent use with every reader and with Replace.
func (r *Registry) Apply(add []Tool, remove []string) error {
	c, err := r.Prepare(add, remove)
	if err != nil {
		return err
	}
	return c.Commit()
}

// Change is a checked Apply not yet made (Prepare): a caller that must
// do something durable between checking and applying (write an audit
// record) commits it after.
type Change struct {
	r          *Registry
	base, next *table
}

// Prepare checks add and remove as Apply does and returns the change,
// which Commit makes. It changes nothing.
func (r *Registry) Prepare(add []Tool, remove []string) (*Change, error) {
	r.applyMu.Lock()
	defer r.applyMu.Unlock()
	old := r.tab.Load()
	next := &table{tools: make(map[string]*slot, len(old.tools)+len(add))}
	for _, n := range remove {
		if _, ok := old.tools[n]; !ok {
			return nil, fmt.Errorf("%w: remove: no tool %s", ErrApply, n)
		}
	}
	for _, n := range old.order {
		if !slices.Contains(remove, n) {
			next.tools[n] = old.tools[n]
			next.order = append(next.order, n)
		}
	}
	adapts := map[adapterKey]string{}
	for n, sl := range next.tools {
		if e := sl.load(); e.Action != "" {
			adapts[adapterKey{e.Action, e.Venue}] = n
		}
	}
	for _, t := range add {
		if t.Def == nil {
			return nil, fmt.Errorf("%w: a tool without definition", ErrApply)
		}
		d := t.Def
		if _, dup := next.tools[d.Name]; dup || r.isRefused(d.Name) {
			return nil, fmt.Errorf("%w: tool %s: the name is taken by another tool", ErrApply, d.Name)
		}
		if err := checkHandlers(t); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrApply, err)
		}
		s, err := schema.Compile(d.Params)
		if err != nil {
			return nil, fmt.Errorf("%w: tool %s: parameter schema: %w", ErrApply, d.Name, err)
		}
		if t.Action != "" {
			k := adapterKey{t.Action, t.Venue}
			if prev, dup := adapts[k]; dup {
				return nil, fmt.Errorf("%w: tools %s and %s both adapt action %q at venue %q", ErrApply, prev, d.Name, t.Action, t.Venue)
			}
			adapts[k] = d.Name
		}
		sl := &slot{}
		sl.e.Store(&Entry{Tool: t, params: s})
		next.tools[d.Name] = sl
		next.order = append(next.order, d.Name)
	}
	return &Change{r: r, base: old, next: next}, nil
}

// Commit makes the change in one step. It fails (ErrApply), changing
// nothing, when another change was made since Prepare.
func (c *Change) Commit() error {
	c.r.applyMu.Lock()
	defer c.r.applyMu.Unlock()
	if !c.r.tab.CompareAndSwap(c.base, c.next) {
		return fmt.Errorf("%w: the tools changed since the change was checked", ErrApply)
	}
	return nil
}
