package rules

import (
	"reflect"

	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/tool"
)

// The map(string, string) variables of a rule (tool, turn, session,
// provenance) are read from the request field by field when a rule asks,
// rather than built as a map per rule: a rule that reads tool.name costs
// one lookup and, at most, the boxing of the string it reads. Each value is
// one pointer, so handing it to CEL allocates nothing.

// fieldSet names the fields of one variable and reads them.
type fieldSet interface {
	names() []string
	field(r *policy.Request, name string) (string, bool)
}

type toolSet struct{}

func (toolSet) names() []string { return []string{"name", "category", "risk", "tier"} }
func (toolSet) field(r *policy.Request, name string) (string, bool) {
	switch name {
	case "name":
		return r.Tool.Name, true
	case "category":
		return string(r.Tool.Category), true
	case "risk":
		return r.Tool.Risk.Effective().String(), true
	case "tier":
		return r.Tool.Tier.Effective().String(), true
	}
	return "", false
}

type turnSet struct{}

func (turnSet) names() []string { return []string{"id", "session_id", "input_source", "authority"} }
func (turnSet) field(r *policy.Request, name string) (string, bool) {
	switch name {
	case "id":
		return r.Turn.ID, true
	case "session_id":
		return r.Turn.SessionID, true
	case "input_source":
		return r.Turn.Source.String(), true
	case "authority":
		return policy.AuthorityOf(r.Turn.Source).String(), true
	}
	return "", false
}

type sessionSet struct{}

func (sessionSet) names() []string { return []string{"id", "taint", "mode", "sends"} }
func (sessionSet) field(r *policy.Request, name string) (string, bool) {
	switch name {
	case "id":
		return r.Turn.SessionID, true
	case "taint":
		return r.Trust.TaintLevel(), true
	case "mode":
		if r.Trust.Isolated {
			return "isolated", true
		}
		return "agent", true
	case "sends":
		if r.Trust.Sends {
			return "true", true
		}
		return "false", true
	}
	return "", false
}

// fields is a CEL map(string, string) over the fields F names.
type fields[F fieldSet] struct{ r *policy.Request }

var (
	_ traits.Mapper = fields[toolSet]{}
	_ traits.Mapper = provenanceVal{}
)

// asMap builds the variable as a plain map, for the rare operations that
// need all of it (iteration, equality, conversion).
func (f fields[F]) asMap() map[string]string {
	var set F
	m := make(map[string]string, len(set.names()))
	for _, n := range set.names() {
		m[n], _ = set.field(f.r, n)
	}
	return m
}

func (f fields[F]) lookup(key ref.Val) (string, bool) {
	k, ok := key.(types.String)
	if !ok {
		return "", false
	}
	var set F
	return set.field(f.r, string(k))
}

// FindStringKey is the interpreter's fast path for a constant key
// (tool.name, session["taint"]).
func (f fields[F]) FindStringKey(key string) (any, bool) {
	var set F
	v, ok := set.field(f.r, key)
	if !ok {
		return nil, false
	}
	return boxed(v), true
}

func (f fields[F]) Find(key ref.Val) (ref.Val, bool) {
	if v, ok := f.lookup(key); ok {
		return boxed(v), true
	}
	return nil, false
}

// interned holds the CEL values of the fields' enumerated values (risk,
// tier, input source, authority, taint, mode, sends), so that reading one
// allocates nothing; the others (names and ids) are boxed as read.
var interned = func() map[string]ref.Val {
	m := map[string]ref.Val{}
	add := func(s string) { m[s] = types.String(s) }
	for i := range 32 {
		add(tool.Risk(i).Effective().String())
		add(tool.Tier(i).Effective().String())
		add(policy.InputSource(i).String())
		add(policy.AuthorityOf(policy.InputSource(i)).String())
	}
	for _, s := range []string{policy.TaintClean, policy.TaintTainted, policy.TaintReview, "agent", "isolated", "true", "false"} {
		add(s)
	}
	return m
}()

func boxed(s string) ref.Val {
	if v, ok := interned[s]; ok {
		return v
	}
	return types.String(s)
}

func (f fields[F]) Get(key ref.Val) ref.Val {
	if v, ok := f.Find(key); ok {
		return v
	}
	return types.ValOrErr(key, "no such key: %v", key)
}

func (f fields[F]) Contains(key ref.Val) ref.Val {
	_, ok := f.lookup(key)
	return types.Bool(ok)
}

func (f fields[F]) Size() ref.Val {
	var set F
	return types.Int(len(set.names()))
}

func (f fields[F]) Iterator() traits.Iterator { return f.plain().(traits.Mapper).Iterator() }
func (f fields[F]) plain() ref.Val            { return types.DefaultTypeAdapter.NativeToValue(f.asMap()) }
func (f fields[F]) ConvertToNative(t reflect.Type) (any, error) {
	return f.plain().ConvertToNative(t)
}
func (f fields[F]) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case types.MapType:
		return f
	case types.TypeType:
		return types.MapType
	}
	return types.NewErr("type conversion error from map to %s", t)
}
func (f fields[F]) Equal(other ref.Val) ref.Val { return f.plain().Equal(other) }
func (f fields[F]) Type() ref.Type              { return types.MapType }
func (f fields[F]) Value() any                  { return f.asMap() }

// provenanceVal is the provenance variable: the request's own map, read in
// place (CEL's adapter would wrap it anew for every rule).
type provenanceVal struct{ m map[string]string }

func (p provenanceVal) lookup(key ref.Val) (string, bool) {
	k, ok := key.(types.String)
	if !ok {
		return "", false
	}
	v, ok := p.m[string(k)]
	return v, ok
}

func (p provenanceVal) FindStringKey(key string) (any, bool) {
	v, ok := p.m[key]
	if !ok {
		return nil, false
	}
	return types.String(v), true
}

func (p provenanceVal) Find(key ref.Val) (ref.Val, bool) {
	if v, ok := p.lookup(key); ok {
		return types.String(v), true
	}
	return nil, false
}

func (p provenanceVal) Get(key ref.Val) ref.Val {
	if v, ok := p.Find(key); ok {
		return v
	}
	return types.ValOrErr(key, "no such key: %v", key)
}

func (p provenanceVal) Contains(key ref.Val) ref.Val {
	_, ok := p.lookup(key)
	return types.Bool(ok)
}

func (p provenanceVal) Size() ref.Val               { return types.Int(len(p.m)) }
func (p provenanceVal) Iterator() traits.Iterator   { return p.plain().(traits.Mapper).Iterator() }
func (p provenanceVal) plain() ref.Val              { return types.DefaultTypeAdapter.NativeToValue(p.m) }
func (p provenanceVal) Equal(other ref.Val) ref.Val { return p.plain().Equal(other) }
func (p provenanceVal) ConvertToNative(t reflect.Type) (any, error) {
	return p.plain().ConvertToNative(t)
}
func (p provenanceVal) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case types.MapType:
		return p
	case types.TypeType:
		return types.MapType
	}
	return types.NewErr("type conversion error from map to %s", t)
}
func (p provenanceVal) Type() ref.Type { return types.MapType }
func (p provenanceVal) Value() any     { return p.m }

// noSizes is the cost estimator of user rules: it knows nothing of the
// sizes of arguments, so any cost that grows with an argument's size is
// unbounded and the rule keeps CEL's runtime cost limit.
type noSizes struct{}

func (noSizes) EstimateCallCost(string, string, *cost.AstNode, []cost.AstNode) *cost.CallEstimate {
	return nil
}
func (noSizes) EstimateSize(cost.AstNode) *cost.SizeEstimate { return nil }
