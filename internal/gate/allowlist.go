package gate

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
)

// ErrBadAllowlist is an allowlist change that adds and removes one value,
// or changes nothing.
var ErrBadAllowlist = errors.New("gate: bad allowlist change")

// allowCache keeps the owner's allowlist entries as the allowlist reads
// them, under the store's count of their changes: a check reads the
// control row (as the spending limiter does) and the entries only when
// they changed.
type allowCache struct {
	mu      sync.Mutex
	ok      bool
	version int64
	o       hook.AllowlistOverride
}

// AllowlistOverride returns the owner's changes to ward.toml's allowlist
// as the store holds them. It is the allowlist's hook.AllowlistSource:
// read on every check, so a change made by another instance on the same
// database is in force at its next check. An entry that does not parse is
// an error, which refuses the check.
func (t *Tools) AllowlistOverride(ctx context.Context) (hook.AllowlistOverride, error) {
	c, err := t.control.GateControl(ctx)
	if err != nil {
		return hook.AllowlistOverride{}, fmt.Errorf("gate: read the allowlist's version: %w", err)
	}
	t.allow.mu.Lock()
	if t.allow.ok && t.allow.version == c.AllowlistVersion {
		o := t.allow.o
		t.allow.mu.Unlock()
		return o, nil
	}
	t.allow.mu.Unlock()
	es, err := t.control.AllowlistEntries(ctx)
	if err != nil {
		return hook.AllowlistOverride{}, fmt.Errorf("gate: read the allowlist's entries: %w", err)
	}
	var o hook.AllowlistOverride
	for _, e := range es {
		switch e.Kind {
		case store.AllowToken, store.AllowContract:
			a, err := tool.ParseAddress(e.Value)
			if err != nil {
				return hook.AllowlistOverride{}, fmt.Errorf("gate: allowlist entry: %w", err)
			}
			switch {
			case e.Kind == store.AllowToken && e.Allowed:
				o.AddTokens = append(o.AddTokens, a)
			case e.Kind == store.AllowToken:
				o.RemoveTokens = append(o.RemoveTokens, a)
			case e.Allowed:
				o.AddContracts = append(o.AddContracts, a)
			default:
				o.RemoveContracts = append(o.RemoveContracts, a)
			}
		case store.AllowSelector:
			s, err := hook.ParseSelector(e.Value)
			if err != nil {
				return hook.AllowlistOverride{}, fmt.Errorf("gate: allowlist entry: %w", err)
			}
			if e.Allowed {
				o.AddSelectors = append(o.AddSelectors, s)
			} else {
				o.RemoveSelectors = append(o.RemoveSelectors, s)
			}
		default:
			return hook.AllowlistOverride{}, fmt.Errorf("gate: allowlist entry of unknown kind %q", e.Kind)
		}
	}
	t.allow.mu.Lock()
	t.allow.ok, t.allow.version, t.allow.o = true, c.AllowlistVersion, o
	t.allow.mu.Unlock()
	return o, nil
}

// ChangeAllowlist records the owner's changes to the allowlist (an owner
// operation): what o adds is allowed besides ward.toml's lists, what it
// removes is refused whatever they say (any_token and any_contract
// included); reset first forgets every earlier change, so that with
// nothing else ward.toml's allowlist alone is in force again. A later
// change of a value replaces the earlier one. The change and its record
// are one transaction.
func (t *Tools) ChangeAllowlist(ctx context.Context, o hook.AllowlistOverride, reset bool, by string) error {
	if o.Empty() && !reset {
		return fmt.Errorf("%w: nothing to add, remove or reset", ErrBadAllowlist)
	}
	now := t.cfg.Now()
	var entries []store.AllowlistEntry
	seen := map[[2]string]bool{}
	add := func(kind store.AllowlistKind, value string, allowed bool) error {
		k := [2]string{string(kind), value}
		if seen[k] {
			return fmt.Errorf("%w: %s %s is both added and removed, or given twice", ErrBadAllowlist, kind, value)
		}
		seen[k] = true
		entries = append(entries, store.AllowlistEntry{Kind: kind, Value: value, Allowed: allowed, By: by, At: now})
		return nil
	}
	for _, g := range []struct {
		kind    store.AllowlistKind
		allowed bool
		addrs   []tool.Address
		sels    []hook.Selector
	}{
		{store.AllowToken, true, o.AddTokens, nil}, {store.AllowToken, false, o.RemoveTokens, nil},
		{store.AllowContract, true, o.AddContracts, nil}, {store.AllowContract, false, o.RemoveContracts, nil},
		{store.AllowSelector, true, nil, o.AddSelectors}, {store.AllowSelector, false, nil, o.RemoveSelectors},
	} {
		for _, a := range g.addrs {
			if err := add(g.kind, a.Hex(), g.allowed); err != nil {
				return err
			}
		}
		for _, s := range g.sels {
			if err := add(g.kind, s.String(), g.allowed); err != nil {
				return err
			}
		}
	}
	detail := map[string]any{"by": by, "reset": reset, "add_tokens": o.AddTokens, "remove_tokens": o.RemoveTokens,
		"add_contracts": o.AddContracts, "remove_contracts": o.RemoveContracts, "add_selectors": o.AddSelectors, "remove_selectors": o.RemoveSelectors}
	rec := &store.ActionRecord{ID: id.New(now), Time: now, Kind: store.ActionAllowlistChanged, Detail: jsonOf(detail)}
	if err := t.control.ChangeAllowlist(ctx, entries, reset, rec); err != nil {
		return fmt.Errorf("gate: change allowlist: %w", err)
	}
	return nil
}

// AllowlistEntries returns the owner's allowlist entries as stored, by
// kind and value.
func (t *Tools) AllowlistEntries(ctx context.Context) ([]store.AllowlistEntry, error) {
	es, err := t.control.AllowlistEntries(ctx)
	if err != nil {
		return nil, fmt.Errorf("gate: allowlist entries: %w", err)
	}
	return es, nil
}
