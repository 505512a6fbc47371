package rules

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/tool"
)

// BuiltinVersion changes whenever the behaviour of a built-in rule changes,
// so that a policy hash names the exact logic that decided.
const BuiltinVersion = "ward-builtin/2"

// Error is one problem in a policy, located by its key path relative to the
// policy (for example "rules.0.when" or "treasury.max_transfer_daily_cents")
// and, for CEL expressions, by line and column within the expression.
type Error struct {
	Path string
	Msg  string
	Line int // within a CEL expression, 1-based; 0 when not applicable
	Col  int
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s: %d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
	}
	return e.Path + ": " + e.Msg
}

// Errors is every problem found in a policy.
type Errors []*Error

func (es Errors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "; ")
}

// Compile validates cfg and compiles it into a snapshot. On invalid input it
// returns Errors listing every problem, and no snapshot.
func Compile(cfg Config) (*policy.Snapshot, error) { return compileSnapshot(cfg, false) }

// compileSnapshot is Compile; ungrouped evaluates every rule one by one (see
// policy.SnapshotConfig.Ungrouped).
func compileSnapshot(cfg Config, ungrouped bool) (*policy.Snapshot, error) {
	b := newBuilder(cfg)
	b.build()
	if len(b.errs) > 0 {
		return nil, b.errs
	}
	snap, err := policy.NewSnapshot(b.rules, policy.SnapshotConfig{
		Hash:      Hash(cfg),
		Catalog:   b.catalog(),
		Meter:     b.meter(),
		Ungrouped: ungrouped,
		Provenance: b.readsProvenance || len(cfg.Provenance.Require) > 0 || slices.ContainsFunc(cfg.Rules, func(u UserRule) bool {
			return strings.Contains(u.When, "provenance")
		}),
	})
	if err != nil {
		return nil, Errors{{Path: "rules", Msg: err.Error()}}
	}
	return snap, nil
}

// Hash returns the policy hash of cfg: SHA-256 over its canonical JSON and
// BuiltinVersion.
func Hash(cfg Config) [32]byte {
	h := sha256.New()
	h.Write([]byte(BuiltinVersion))
	h.Write([]byte{0})
	enc := json.NewEncoder(h)
	_ = enc.Encode(cfg) // a Config always encodes: it holds only plain data
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

type builder struct {
	cfg   Config
	rules []policy.Rule
	errs  Errors
	paths *pathSet
	// builtinIDs are the ids of the built-in rules, for override checks.
	builtinIDs map[string]bool
	// readsProvenance is set by a built-in rule that reads argument
	// provenance in clean sessions too.
	readsProvenance bool
}

func newBuilder(cfg Config) *builder {
	return &builder{cfg: cfg, builtinIDs: make(map[string]bool)}
}

func (b *builder) errorf(path, format string, args ...any) {
	b.errs = append(b.errs, &Error{Path: path, Msg: fmt.Sprintf(format, args...)})
}

// add registers a built-in rule, applying its override if any.
func (b *builder) add(r policy.Rule) {
	b.builtinIDs[r.ID] = true
	if o, ok := b.cfg.Builtin[r.ID]; ok {
		if o.Disabled {
			return
		}
		if o.Priority != nil {
			r.Priority = *o.Priority
		}
		if o.AppliesTo != nil {
			r.Applies = *o.AppliesTo
		}
	}
	b.rules = append(b.rules, r)
}

// selectorFor returns the selector a built-in rule will have: its override
// if the policy sets one, def otherwise. Rules whose evaluation depends on
// the tools they watch (counting rules) build from it.
func (b *builder) selectorFor(id string, def policy.Selector) policy.Selector {
	if o, ok := b.cfg.Builtin[id]; ok && o.AppliesTo != nil {
		return *o.AppliesTo
	}
	return def
}

func (b *builder) build() {
	b.checkTools()
	b.checkArgs()
	if !b.cfg.DisableBuiltin {
		b.paths = b.compilePaths()
		b.authority()
		b.commands()
		b.financial()
		b.pathRules()
		b.rateLimits()
		b.validations()
		b.provenance()
		for id, o := range b.cfg.Builtin {
			path := "builtin." + id
			if !b.builtinIDs[id] {
				b.errorf(path, "no built-in rule has this id")
				continue
			}
			if o.AppliesTo != nil {
				if err := o.AppliesTo.Validate(); err != nil {
					b.errorf(path+".applies_to", "%v", err)
				}
			}
		}
	} else if len(b.cfg.Builtin) > 0 {
		b.errorf("builtin", "built-in rules are disabled (builtin_rules = false), so they cannot be adjusted")
	}
	b.userRules()
}

func (b *builder) checkTools() {
	seen := map[string]bool{}
	for i, t := range b.cfg.Tools {
		path := fmt.Sprintf("tools.%d", i)
		switch {
		case !tool.ValidName(t.Name):
			b.errorf(path+".name", "invalid tool name %q", t.Name)
		case seen[t.Name]:
			b.errorf(path+".name", "tool %q is declared twice", t.Name)
		}
		seen[t.Name] = true
		if t.Category != "" && !tool.ValidName(string(t.Category)) {
			b.errorf(path+".category", "invalid category %q", t.Category)
		}
		if t.Risk == tool.RiskUnset || t.Risk > tool.Forbidden {
			b.errorf(path+".risk", "risk is required (safe, caution, dangerous or forbidden)")
		}
	}
}

func (b *builder) checkArgs() {
	a := b.cfg.Args
	for name, list := range map[string][]string{
		"amount": a.Amount, "x402_amount": a.X402Amount, "inference_cost": a.InferenceCost,
		"url": a.URL, "path": a.Path, "command": a.Command,
	} {
		if len(list) == 0 && !b.cfg.DisableBuiltin {
			b.errorf("args."+name, "at least one argument name is required")
		}
		for _, n := range list {
			if n == "" {
				b.errorf("args."+name, "empty argument name")
			}
		}
	}
}

func (b *builder) catalog() []tool.Ref {
	refs := make([]tool.Ref, 0, len(b.cfg.Tools))
	for _, t := range b.cfg.Tools {
		refs = append(refs, tool.Ref{Name: t.Name, Category: t.Category, Risk: t.Risk, Tier: t.Tier})
	}
	return refs
}

func nonNegative(b *builder, path string, v int64) {
	if v < 0 {
		b.errorf(path, "must not be negative")
	}
}
