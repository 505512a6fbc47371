package policy

import (
	"fmt"
	"slices"

	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// Result is what one rule says about a call. The zero value is no opinion.
type Result struct {
	Opinion bool
	Action  Action
	Code    reason.Code
	Message string
}

// NoOpinion is the result of a rule that has nothing to say about a call.
var NoOpinion = Result{}

// Denies returns a deny result.
func Denies(code reason.Code, message string) Result {
	return Result{Opinion: true, Action: Deny, Code: code, Message: message}
}

// Quarantines returns a quarantine result: the call is held for review.
func Quarantines(code reason.Code, message string) Result {
	return Result{Opinion: true, Action: Quarantine, Code: code, Message: message}
}

// Allows returns an explicit allow result. It is recorded as triggered but
// does not stop evaluation: a later deny still wins.
func Allows(code reason.Code, message string) Result {
	return Result{Opinion: true, Action: Allow, Code: code, Message: message}
}

// Rule is one policy rule. Eval must be safe for concurrent use and must not
// change anything; it reads the request and, through Request.State, the
// tracked state. The request is only valid during the call: Eval must not
// keep it (or pointers into it) after returning.
type Rule struct {
	ID       string
	Priority int
	Applies  Selector
	// Stateful marks rules that read tracked state (spend, executed calls,
	// balance); calls they apply to are admitted under the tracker's
	// admission lock so that concurrent calls cannot all pass one limit.
	Stateful bool
	// ToolOnly marks rules whose opinion depends on the tool alone (its
	// name, category, risk and tier: nothing of the call, the turn, the
	// session, the state or the clock). The snapshot evaluates such a
	// rule once per tool when it builds the tool's rule set: one that has
	// no opinion of the tool is left out of it like a rule its selector
	// excludes, and one that has an opinion costs nothing to evaluate.
	ToolOnly bool
	// Equal, when set, says that Eval never fails and has an opinion
	// exactly when Equal.Read of the request is Equal.Value. Rules of one
	// field that sit next to each other in a tool's rule set are then
	// decided by one lookup of the field's value instead of one
	// comparison each (see Snapshot.Evaluate); the order of the rules,
	// and so which deny wins, is unchanged.
	Equal *Equality
	Eval  func(*Request) (Result, error)
}

// Equality is a condition of the form Read(request) == Value.
type Equality struct {
	// Field names what Read reads ("turn.source"); two rules with the
	// same Field must have the same Read.
	Field string
	Read  func(*Request) string
	Value string
}

// SelectBy says which property of a tool a selector matches on.
type SelectBy uint8

// Selector kinds. The zero value, SelectAll, matches every tool.
const (
	SelectAll SelectBy = iota
	SelectName
	SelectCategory
	SelectRisk
)

var selectNames = [...]string{SelectAll: "all", SelectName: "name", SelectCategory: "category", SelectRisk: "risk"}

// String returns "all", "name", "category" or "risk".
func (b SelectBy) String() string {
	if int(b) < len(selectNames) {
		return selectNames[b]
	}
	return fmt.Sprintf("SelectBy(%d)", uint8(b))
}

// ParseSelectBy parses "all", "name", "category" or "risk".
func ParseSelectBy(s string) (SelectBy, error) {
	for i, n := range selectNames {
		if n == s {
			return SelectBy(i), nil
		}
	}
	return SelectAll, fmt.Errorf("unknown selector %q (want all, name, category or risk)", s)
}

// Selector chooses the tools a rule applies to.
type Selector struct {
	By         SelectBy
	Names      []string
	Categories []tool.Category
	Risks      []tool.Risk
}

// All selects every tool.
func All() Selector { return Selector{} }

// Names selects tools by name.
func Names(names ...string) Selector { return Selector{By: SelectName, Names: names} }

// Categories selects tools by category.
func Categories(cats ...tool.Category) Selector {
	return Selector{By: SelectCategory, Categories: cats}
}

// Risks selects tools by risk level.
func Risks(levels ...tool.Risk) Selector { return Selector{By: SelectRisk, Risks: levels} }

// Matches reports whether the selector selects the tool (with its effective
// risk level).
func (s Selector) Matches(ref tool.Ref) bool {
	switch s.By {
	case SelectAll:
		return true
	case SelectName:
		return slices.Contains(s.Names, ref.Name)
	case SelectCategory:
		return slices.Contains(s.Categories, ref.Category)
	case SelectRisk:
		return slices.Contains(s.Risks, ref.Risk.Effective())
	}
	return false
}

// Validate reports a selector that could never match or names nothing.
func (s Selector) Validate() error {
	switch s.By {
	case SelectAll:
		return nil
	case SelectName:
		if len(s.Names) == 0 {
			return fmt.Errorf("selector by name lists no names")
		}
		for _, n := range s.Names {
			if !tool.ValidName(n) {
				return fmt.Errorf("invalid tool name %q", n)
			}
		}
	case SelectCategory:
		if len(s.Categories) == 0 {
			return fmt.Errorf("selector by category lists no categories")
		}
		for _, c := range s.Categories {
			if !tool.ValidName(string(c)) {
				return fmt.Errorf("invalid category %q", c)
			}
		}
	case SelectRisk:
		if len(s.Risks) == 0 {
			return fmt.Errorf("selector by risk lists no levels")
		}
		for _, r := range s.Risks {
			if r == tool.RiskUnset || r > tool.Forbidden {
				return fmt.Errorf("invalid risk level %d", r)
			}
		}
	default:
		return fmt.Errorf("invalid selector kind %d", s.By)
	}
	return nil
}
