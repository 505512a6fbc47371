// Package skill is Stage 3's strategy evaluation (seed 001 §5, the Voyager
// pattern). An actionable entry is decomposed into a Fragment (conditions,
// actions, parameters), by the deterministic parser (Decompose) or, when
// one is configured, a language model (LLM, at most MaxLLMCalls calls, its
// answers checked as hostile input); its conditions are reused from a Library of verified
// components where they match and are otherwise novel CEL expressions,
// compiled once and evaluated under a cost limit, never Turing-complete code
// (an entry may name, never supply, an operator-registered WASM component
// for a condition or a size, which the job runs through a Loader under the
// component's limits; wasm.go);
// the strategy is then simulated against a baseline, the agent's own
// strategy (Request.Baseline) or holding, over seeded market
// scenarios (or recorded price files) and passes only when it does not
// worsen the worst-case loss or the maximum drawdown beyond a tolerance and
// does not reduce the mean return.
//
// The evaluation runs inside the process sandbox as the job JobName (see
// Job); this package does not import the sandbox: the ingestion pipeline
// runs the job and maps a breach to sandbox_resource_exceeded. Apart from
// the LLM decomposition, everything here is deterministic: the same
// fragment, seed and configuration give the same Evaluation. docs/sandbox.md ("Strategy evaluation") documents the
// grammar, the market model and the thresholds.
package skill

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/wardhq/ward/internal/knowledge"
)

// ErrUndecomposable wraps every reason an entry cannot be decomposed: it
// cannot be evaluated and stays in quarantine.
var ErrUndecomposable = errors.New("skill: cannot decompose")

// ActionKind is what an action does to the simulated portfolio. The zero
// value is ActWait, which trades nothing.
type ActionKind uint8

const (
	ActWait ActionKind = iota
	ActBuy
	ActSell
	ActSwap // into the stable asset: a sell
	ActAddLiquidity
	ActRemoveLiquidity
	ActBorrow
	ActRepay
	ActHedge
)

var actionNames = [...]string{"wait", "buy", "sell", "swap", "add_liquidity", "remove_liquidity", "borrow", "repay", "hedge"}

func (k ActionKind) String() string {
	if int(k) < len(actionNames) {
		return actionNames[k]
	}
	return fmt.Sprintf("action(%d)", uint8(k))
}

// MarshalText implements encoding.TextMarshaler.
func (k ActionKind) MarshalText() ([]byte, error) {
	if int(k) >= len(actionNames) {
		return nil, fmt.Errorf("skill: unknown action %d", uint8(k))
	}
	return []byte(k.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (k *ActionKind) UnmarshalText(b []byte) error {
	for i, n := range actionNames {
		if n == string(b) {
			*k = ActionKind(i)
			return nil
		}
	}
	return fmt.Errorf("skill: unknown action %q", b)
}

// Condition is one condition of a fragment: the phrase it came from and a
// boolean CEL expression over the market state (see Variables), or the
// name of a registered WASM condition component and its arguments (a JSON
// object; the entry names the component, never supplies its module).
type Condition struct {
	Text      string          `json:"text"`
	Expr      string          `json:"expr"`
	Component string          `json:"component,omitempty"`
	Args      json.RawMessage `json:"args,omitempty"`
}

// Action is one action of a fragment. Size is a fraction in [0, 1] of what
// the action applies to (cash for buy, holdings for sell; see docs).
// SizeFrom names a Library sizing component (WASM) whose result replaces
// Size: a ward_v1 module is run with SizeArgs and the market state each
// time the action is taken; a raw function (Component.Func) once, before
// the evaluation.
type Action struct {
	Text     string          `json:"text"`
	Kind     ActionKind      `json:"kind"`
	Size     float64         `json:"size"`
	SizeFrom string          `json:"size_from,omitempty"`
	SizeArgs json.RawMessage `json:"size_args,omitempty"`
}

// Fragment is a decomposed heuristic or strategy fragment: when every
// condition holds, take the actions in order.
type Fragment struct {
	Conditions []Condition        `json:"conditions"`
	Actions    []Action           `json:"actions"`
	Params     map[string]float64 `json:"params,omitempty"`
}

// DefaultSize is an action's size when the entry names none.
const DefaultSize = 0.1

// Decompose parses an entry into a Fragment, deterministically: from its
// Heuristic when present, otherwise from its content ("when/if X, do Y with
// Z"). The error wraps ErrUndecomposable and says which part was not
// understood, without quoting the entry.
func Decompose(e *knowledge.Entry) (*Fragment, error) {
	if e == nil {
		return nil, fmt.Errorf("%w: no entry", ErrUndecomposable)
	}
	if h := e.Heuristic; h != nil {
		return fromHeuristic(h)
	}
	return Parse(e.Content)
}

func fromHeuristic(h *knowledge.Heuristic) (*Fragment, error) {
	f := &Fragment{Params: map[string]float64{}}
	size, sizeFrom := -1.0, ""
	var sizeArgs json.RawMessage
	for k, v := range h.Parameters {
		k = strings.ToLower(strings.TrimSpace(k))
		v = strings.TrimSpace(v)
		switch k {
		case "size_component":
			sizeFrom = v
			continue
		case "size_args":
			a, err := componentArgs(v)
			if err != nil {
				return nil, fmt.Errorf("%w: parameter size_args %v", ErrUndecomposable, err)
			}
			sizeArgs = a
			continue
		case "size":
			s, ok := parseSize(strings.ToLower(v))
			if !ok {
				return nil, fmt.Errorf("%w: parameter size is not a fraction or percentage", ErrUndecomposable)
			}
			size = s
			continue
		}
		if x, err := strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64); err == nil {
			f.Params[k] = x
		}
	}
	for i, c := range h.Conditions {
		cs, err := parseConditions(c)
		if err != nil {
			return nil, fmt.Errorf("%w: condition %d of %d: %v", ErrUndecomposable, i+1, len(h.Conditions), err)
		}
		f.Conditions = append(f.Conditions, cs...)
	}
	for i, a := range h.Actions {
		as, err := parseActions(a)
		if err != nil {
			return nil, fmt.Errorf("%w: action %d of %d: %v", ErrUndecomposable, i+1, len(h.Actions), err)
		}
		f.Actions = append(f.Actions, as...)
	}
	for i := range f.Actions {
		if size >= 0 && !f.Actions[i].explicit() {
			f.Actions[i].Size = size
		}
		if sizeFrom != "" && f.Actions[i].Kind != ActWait {
			f.Actions[i].SizeFrom, f.Actions[i].SizeArgs = sizeFrom, sizeArgs
		}
	}
	return f, f.check()
}

// explicit reports whether the action's phrase named a size.
func (a Action) explicit() bool {
	return sizeRe.MatchString(strings.ToLower(a.Text)) || allRe.MatchString(strings.ToLower(a.Text))
}

func (f *Fragment) check() error {
	if len(f.Conditions) == 0 {
		return fmt.Errorf("%w: no condition", ErrUndecomposable)
	}
	if len(f.Actions) == 0 {
		return fmt.Errorf("%w: no action", ErrUndecomposable)
	}
	return nil
}

var (
	leadRe  = regexp.MustCompile(`^(?:when|whenever|if|once)\s+(.+?)(?:\s*,\s*|\s+then\s+)(?:then\s+)?(.+)$`)
	trailRe = regexp.MustCompile(`^(.+?)\s+(?:when|whenever|if|once)\s+(.+)$`)
	splitRe = regexp.MustCompile(`\s*(?:,\s*)?\b(?:and|&&)\b\s*|\s*,\s*`)
	numRe   = `(\d+(?:\.\d+)?)`
	cmpRe   = `(below|under|less than|lower than|<|above|over|greater than|higher than|exceeds|>)`
	rsiRe   = regexp.MustCompile(`\brsi(?:\(\d+\))?\s+(?:is\s+|falls\s+|drops\s+|goes\s+|rises\s+)?` + cmpRe + `\s*` + numRe)
	moveRe  = regexp.MustCompile(`\bprice\s+(?:has\s+)?(drops|dropped|falls|fell|declines|dips|decreases|rises|rose|climbs|gains|jumps|increases|pumps|dumps)\s+(?:by\s+)?(?:more than\s+|over\s+|at least\s+)?` + numRe + `\s*(?:%|percent)`)
	gasRe   = regexp.MustCompile(`\bgas(?:\s+price)?\s+(?:is\s+)?` + cmpRe + `\s*` + numRe + `\s*(?:gwei)?`)
	volRe   = regexp.MustCompile(`\bvolatility\s+(?:is\s+)?` + cmpRe + `\s*` + numRe + `\s*(?:%|percent)`)
	liqRe   = regexp.MustCompile(`\bliquidity\s+(?:is\s+)?` + cmpRe + `\s*\$?` + numRe + `\s*([km])?`)
	levelRe = regexp.MustCompile(`\bprice\s+(?:is\s+)?` + cmpRe + `\s*\$?` + numRe)
	posRe   = regexp.MustCompile(`\bposition\s+(?:is\s+)?` + cmpRe + `\s*` + numRe + `\s*(?:%|percent)`)
	actRe   = regexp.MustCompile(`\b(buy|sell|swap|(?:add|provide)\s+liquidity|(?:remove|withdraw)\s+liquidity|borrow|repay|hedge|wait)\b`)
	sizeRe  = regexp.MustCompile(numRe + `\s*(?:%|percent)`)
	allRe   = regexp.MustCompile(`\b(everything|all|entire|whole|half)\b`)
)

// Parse decomposes a free-text heuristic: "when X (and Y), do Z (and W)"
// or "do Z when X". Conditions are thresholds on RSI, price moves, price
// levels, gas, volatility, liquidity and position, or a raw boolean CEL
// expression after "cel:"; actions are buy, sell, swap, add or remove
// liquidity, borrow, repay, hedge and wait, each with an optional size.
func Parse(text string) (*Fragment, error) {
	s := strings.ToLower(strings.TrimSpace(text))
	s = strings.TrimRight(s, ".!; ")
	var cond, act string
	if m := leadRe.FindStringSubmatch(s); m != nil {
		cond, act = m[1], m[2]
	} else if m := trailRe.FindStringSubmatch(s); m != nil {
		act, cond = m[1], m[2]
	} else {
		return nil, fmt.Errorf("%w: no \"when/if ..., do ...\" structure", ErrUndecomposable)
	}
	cs, err := parseConditions(cond)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUndecomposable, err)
	}
	as, err := parseActions(act)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUndecomposable, err)
	}
	f := &Fragment{Conditions: cs, Actions: as}
	return f, f.check()
}

func parseConditions(s string) ([]Condition, error) {
	s = strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(s, "cel:"); ok {
		return []Condition{{Text: s, Expr: strings.TrimSpace(rest)}}, nil
	}
	if rest, ok := strings.CutPrefix(s, "component:"); ok {
		name, args, _ := strings.Cut(strings.TrimSpace(rest), " ")
		if !ValidComponentName(name) {
			return nil, errors.New("the component name is not 1-64 letters, digits, '_', '-' or '.'")
		}
		a, err := componentArgs(args)
		if err != nil {
			return nil, fmt.Errorf("the component's arguments %v", err)
		}
		return []Condition{{Text: s, Component: name, Args: a}}, nil
	}
	s = strings.ToLower(s)
	var out []Condition
	for _, part := range splitRe.Split(s, -1) {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		expr, ok := conditionExpr(part)
		if !ok {
			return nil, fmt.Errorf("condition %d not recognised", len(out)+1)
		}
		out = append(out, Condition{Text: part, Expr: expr})
	}
	if len(out) == 0 {
		return nil, errors.New("empty condition")
	}
	return out, nil
}

func less(cmp string) bool {
	switch cmp {
	case "below", "under", "less than", "lower than", "<":
		return true
	}
	return false
}

func threshold(v string, cmp string, x float64) string {
	op := ">"
	if less(cmp) {
		op = "<"
	}
	return fmt.Sprintf("%s %s %s", v, op, num(x))
}

// num formats a float as a CEL double literal.
func num(x float64) string {
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

func conditionExpr(s string) (string, bool) {
	f := func(m string) float64 { x, _ := strconv.ParseFloat(m, 64); return x }
	if m := rsiRe.FindStringSubmatch(s); m != nil {
		return threshold("rsi", m[1], f(m[2])), true
	}
	if m := moveRe.FindStringSubmatch(s); m != nil {
		x := f(m[2]) / 100
		switch m[1] {
		case "drops", "dropped", "falls", "fell", "declines", "dips", "decreases", "dumps":
			return "chg <= " + num(-x), true
		}
		return "chg >= " + num(x), true
	}
	if m := gasRe.FindStringSubmatch(s); m != nil {
		return threshold("gas", m[1], f(m[2])), true
	}
	if m := volRe.FindStringSubmatch(s); m != nil {
		return threshold("vol", m[1], f(m[2])/100), true
	}
	if m := liqRe.FindStringSubmatch(s); m != nil {
		x := f(m[2])
		switch m[3] {
		case "k":
			x *= 1e3
		case "m":
			x *= 1e6
		}
		return threshold("liquidity", m[1], x), true
	}
	if m := posRe.FindStringSubmatch(s); m != nil {
		return threshold("position", m[1], f(m[2])/100), true
	}
	if m := levelRe.FindStringSubmatch(s); m != nil {
		return threshold("price", m[1], f(m[2])), true
	}
	return "", false
}

func parseActions(s string) ([]Action, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	idx := actRe.FindAllStringSubmatchIndex(s, -1)
	if len(idx) == 0 {
		return nil, errors.New("no action recognised")
	}
	var out []Action
	for i, m := range idx {
		end := len(s)
		if i+1 < len(idx) {
			end = idx[i+1][0]
		}
		phrase := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(s[m[0]:end]), ","))
		phrase = strings.TrimSuffix(phrase, " and")
		a := Action{Text: phrase, Kind: actionKind(s[m[2]:m[3]]), Size: DefaultSize}
		if size, ok := parseSize(phrase); ok {
			a.Size = size
		}
		if a.Kind == ActWait {
			a.Size = 0
		}
		out = append(out, a)
	}
	return out, nil
}

func actionKind(verb string) ActionKind {
	switch strings.Join(strings.Fields(verb), " ") {
	case "buy":
		return ActBuy
	case "sell":
		return ActSell
	case "swap":
		return ActSwap
	case "add liquidity", "provide liquidity":
		return ActAddLiquidity
	case "remove liquidity", "withdraw liquidity":
		return ActRemoveLiquidity
	case "borrow":
		return ActBorrow
	case "repay":
		return ActRepay
	case "hedge":
		return ActHedge
	}
	return ActWait
}

// parseSize reads "25 %", "25%", "0.25", "everything", "all", "half".
func parseSize(s string) (float64, bool) {
	if m := sizeRe.FindStringSubmatch(s); m != nil {
		x, err := strconv.ParseFloat(m[1], 64)
		if err != nil || x < 0 || x > 100 {
			return 0, false
		}
		return x / 100, true
	}
	if m := allRe.FindStringSubmatch(s); m != nil {
		if m[1] == "half" {
			return 0.5, true
		}
		return 1, true
	}
	if x, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil && x >= 0 && x <= 1 {
		return x, true
	}
	return 0, false
}

// MaxComponentArgs bounds a component's arguments, in bytes.
const MaxComponentArgs = 4 << 10

// componentArgs reads a component's arguments: empty, or a JSON object of
// at most MaxComponentArgs bytes.
func componentArgs(s string) (json.RawMessage, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	if len(s) > MaxComponentArgs {
		return nil, fmt.Errorf("are over %d bytes", MaxComponentArgs)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &obj); err != nil {
		return nil, errors.New("are not a JSON object")
	}
	return json.RawMessage(s), nil
}

// ValidComponentName reports whether name is 1 to 64 ASCII letters,
// digits, '_', '-' or '.': the names the library, the configuration and
// an entry's reference share.
func ValidComponentName(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-', r == '.':
		default:
			return false
		}
	}
	return true
}
