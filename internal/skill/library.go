package skill

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
)

// ComponentKind says what a library component is. The zero value is a
// condition.
type ComponentKind uint8

const (
	KindCondition ComponentKind = iota // a boolean CEL expression over Variables, or a WASM module returning a boolean
	KindSizing                         // a WASM module returning an action size in [0, 1], or a raw function returning basis points
	kindEnd
)

var kindNames = [...]string{KindCondition: "condition", KindSizing: "sizing"}

// String returns the kind's stable name, "condition" or "sizing".
func (k ComponentKind) String() string {
	if k < kindEnd {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// MarshalText encodes a known kind as its name.
func (k ComponentKind) MarshalText() ([]byte, error) {
	if k >= kindEnd {
		return nil, fmt.Errorf("skill: unknown component kind %d", uint8(k))
	}
	return []byte(kindNames[k]), nil
}

// UnmarshalText decodes a kind's name.
func (k *ComponentKind) UnmarshalText(b []byte) error {
	for i, n := range kindNames {
		if n == string(b) {
			*k = ComponentKind(i)
			return nil
		}
	}
	return fmt.Errorf("skill: unknown component kind %.32q", b)
}

// Component is one verified building block of the library.
type Component struct {
	Name string        `json:"name"`
	Kind ComponentKind `json:"kind"`
	Text string        `json:"text"`           // what it means, in words; indexed for search
	Expr string        `json:"expr,omitempty"` // a CEL condition
	// WASM is a WebAssembly module, run in the sandbox, never in this
	// process. With Func empty it is an operator-registered ward_v1
	// component (a condition or a sizing; docs/sandbox.md, "WASM skill
	// components"), run under Limits with its arguments and the market
	// state each time it is needed; with Func set, a sizing module with no
	// imports whose exported function Func is called once, with no
	// arguments, for a size in basis points.
	WASM   []byte     `json:"wasm,omitempty"`
	Func   string     `json:"func,omitempty"`
	Limits WASMLimits `json:"limits,omitzero"`
}

// ward reports whether c is a ward_v1 WASM component.
func (c Component) ward() bool { return len(c.WASM) > 0 && c.Func == "" }

// ComposeCoverage is the share of a fragment's parts the library must
// cover for the plan to be composed from verified components only; below
// it the novel parts are evaluated as CEL under the cost limit and the plan
// says so.
const ComposeCoverage = 0.8

// Library is the verified component library. Components are retrieved
// by embedding once the caller gives the library a Vectorizer (Index:
// ingestion passes the Grimoire's embedder, which keeps this package at
// layer 1 beside embed), and by token overlap (Jaccard similarity of
// lower-cased word tokens) until then. A retrieved condition is reused only
// when its expression is the same CEL expression as the one wanted
// (compared in canonical form), never for being similar. It is safe for
// concurrent use.
type Library struct {
	mu     sync.Mutex
	comps  []Component
	byExpr map[string]int // canonical expression → component
	byName map[string]int
	index  map[string][]int // token → components
	vec    Vectorizer       // nil: token overlap only
	vecs   [][]float32      // of comps, unit length, when vec is set
}

// Vectorizer embeds texts, one vector per text, for the library's index
// (an embed.Embedder's Embed bound to a context).
type Vectorizer func(texts []string) ([][]float32, error)

// RetrieveK is how many components Compose retrieves per condition.
const RetrieveK = 5

// NewLibrary returns a library holding the built-in verified conditions.
func NewLibrary() *Library {
	l := &Library{byExpr: map[string]int{}, byName: map[string]int{}, index: map[string][]int{}}
	for _, c := range builtins {
		if err := l.Add(c); err != nil {
			panic(err) // the built-ins are constant and checked by the tests
		}
	}
	return l
}

var builtins = []Component{
	{Name: "rsi_oversold", Text: "rsi below 30 oversold", Expr: "rsi < 30.0"},
	{Name: "rsi_overbought", Text: "rsi above 70 overbought", Expr: "rsi > 70.0"},
	{Name: "gas_cheap", Text: "gas below 20 gwei cheap", Expr: "gas < 20.0"},
	{Name: "gas_expensive", Text: "gas above 100 gwei expensive", Expr: "gas > 100.0"},
	{Name: "price_drop_5", Text: "price drops 5 % dip", Expr: "chg <= -0.05"},
	{Name: "price_rise_5", Text: "price rises 5 % rally", Expr: "chg >= 0.05"},
	{Name: "high_volatility", Text: "volatility above 5 % turbulent", Expr: "vol > 0.05"},
	{Name: "thin_liquidity", Text: "liquidity below 1m thin pool", Expr: "liquidity < 1000000.0"},
}

// Add verifies c (a CEL condition must compile as a boolean CEL
// expression under the cost limit; a WASM component needs a module, which
// the caller has checked against the ward_v1 ABI, and no expression) and
// adds it. Adding a CEL condition whose expression is already present is
// a no-op.
func (l *Library) Add(c Component) error {
	if c.Name == "" {
		return errors.New("skill: component without a name")
	}
	switch {
	case c.Kind == KindCondition && len(c.WASM) > 0:
		if c.Expr != "" || c.Func != "" {
			return errors.New("skill: a WASM condition has a module and nothing else")
		}
	case c.Kind == KindCondition:
		if err := Check(c.Expr); err != nil {
			return err
		}
		canon, err := canonical(c.Expr)
		if err != nil {
			return err
		}
		c.Expr = canon
	case c.Kind == KindSizing:
		if len(c.WASM) == 0 {
			return errors.New("skill: sizing component without a module")
		}
	default:
		return fmt.Errorf("skill: unknown component kind %d", c.Kind)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.byName[c.Name]; ok {
		return fmt.Errorf("skill: component %q exists", c.Name)
	}
	if c.Kind == KindCondition && c.Expr != "" {
		if _, ok := l.byExpr[c.Expr]; ok {
			return nil
		}
	}
	if l.vec != nil {
		vs, err := l.vec([]string{c.Text + " " + c.Expr})
		if err != nil || len(vs) != 1 {
			return fmt.Errorf("skill: embedding component %q: %w", c.Name, errors.Join(err, errVectors))
		}
		l.vecs = append(l.vecs, unit(vs[0]))
	}
	i := len(l.comps)
	l.comps = append(l.comps, c)
	l.byName[c.Name] = i
	if c.Kind == KindCondition && c.Expr != "" {
		l.byExpr[c.Expr] = i
	}
	for t := range tokens(c.Text + " " + c.Expr) {
		l.index[t] = append(l.index[t], i)
	}
	return nil
}

// Get returns the component named name.
func (l *Library) Get(name string) (Component, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	i, ok := l.byName[name]
	if !ok {
		return Component{}, false
	}
	return l.comps[i], true
}

// Components returns a copy of the library's components, in insertion
// order (for persistence).
func (l *Library) Components() []Component {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.comps)
}

// Match is a search hit.
type Match struct {
	Component Component `json:"component"`
	Score     float64   `json:"score"` // cosine similarity of embeddings, or Jaccard similarity of token sets
}

var errVectors = errors.New("the vectorizer returned no vector")

// Index makes the library retrieve by embedding: every component held is
// embedded with v now, and every one added later when it is added. On an
// error the library keeps its token index.
func (l *Library) Index(v Vectorizer) error {
	if v == nil {
		return errors.New("skill: nil vectorizer")
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	texts := make([]string, len(l.comps))
	for i, c := range l.comps {
		texts[i] = c.Text + " " + c.Expr
	}
	vs, err := v(texts)
	if err != nil || len(vs) != len(texts) {
		return fmt.Errorf("skill: embedding the library: %w", errors.Join(err, errVectors))
	}
	l.vecs = make([][]float32, len(vs))
	for i, x := range vs {
		l.vecs[i] = unit(x)
	}
	l.vec = v
	return nil
}

func unit(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	out := make([]float32, len(v))
	if n == 0 {
		return out
	}
	n = math.Sqrt(n)
	for i, x := range v {
		out[i] = float32(float64(x) / n)
	}
	return out
}

// Retrieve returns up to k components most similar to text, best first:
// by cosine similarity of embeddings once the library is indexed (Index),
// by token overlap (Search) before.
func (l *Library) Retrieve(text string, k int) ([]Match, error) {
	l.mu.Lock()
	v := l.vec
	l.mu.Unlock()
	if v == nil {
		return l.Search(text, k), nil
	}
	vs, err := v([]string{text})
	if err != nil || len(vs) != 1 {
		return nil, fmt.Errorf("skill: embedding a query: %w", errors.Join(err, errVectors))
	}
	q := unit(vs[0])
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Match, 0, len(l.comps))
	for i, c := range l.comps {
		if len(l.vecs[i]) != len(q) {
			continue
		}
		var dot float64
		for j, x := range q {
			dot += float64(x) * float64(l.vecs[i][j])
		}
		out = append(out, Match{Component: c, Score: dot})
	}
	return ranked(out, k), nil
}

// Search returns up to k components most similar to text by token
// overlap, best first.
func (l *Library) Search(text string, k int) []Match {
	q := tokens(text)
	l.mu.Lock()
	defer l.mu.Unlock()
	shared := map[int]int{}
	for t := range q {
		for _, i := range l.index[t] {
			shared[i]++
		}
	}
	var out []Match
	for i, n := range shared {
		c := l.comps[i]
		union := len(q) + len(tokens(c.Text+" "+c.Expr)) - n
		out = append(out, Match{Component: c, Score: float64(n) / float64(union)})
	}
	return ranked(out, k)
}

// ranked returns the k best of ms, best first (ties by name).
func ranked(ms []Match, k int) []Match {
	sort.Slice(ms, func(a, b int) bool {
		if ms[a].Score != ms[b].Score {
			return ms[a].Score > ms[b].Score
		}
		return ms[a].Component.Name < ms[b].Component.Name
	})
	return ms[:max(0, min(k, len(ms)))]
}

func tokens(s string) map[string]bool {
	out := map[string]bool{}
	for _, t := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.'
	}) {
		out[strings.Trim(t, ".")] = true
	}
	delete(out, "")
	return out
}

// Plan is a fragment resolved against the library.
type Plan struct {
	Fragment *Fragment   `json:"fragment"`
	Reused   []string    `json:"reused,omitempty"` // library components the conditions matched
	Novel    []Condition `json:"novel,omitempty"`  // conditions the library does not hold
	Coverage float64     `json:"coverage"`         // covered parts / all parts; actions are built-in primitives
	// Retrieved counts the reused conditions that retrieval found (the
	// rest were found by their expression).
	Retrieved int  `json:"retrieved,omitempty"`
	Composed  bool `json:"composed"` // Coverage > ComposeCoverage
}

// Compose resolves f's conditions against the library: for each, the
// RetrieveK components closest to its text are retrieved (Retrieve), and
// one whose expression is the condition's, in canonical form, is reused; a
// condition whose expression the library holds but retrieval missed is
// reused too; any other is novel. Every action kind is a built-in
// primitive of the simulator, and an action's sizing component must exist.
// An error from the vectorizer is returned as such.
func (l *Library) Compose(f *Fragment) (*Plan, error) {
	p := &Plan{Fragment: f}
	covered, total := 0, len(f.Conditions)+len(f.Actions)
	for i, c := range f.Conditions {
		if c.Component != "" {
			if w, ok := l.Get(c.Component); !ok || w.Kind != KindCondition || !w.ward() {
				return nil, fmt.Errorf("%w: condition %d names a WASM condition component that is not registered", ErrUndecomposable, i+1)
			}
			p.Reused = append(p.Reused, c.Component)
			covered++
			continue
		}
		canon, err := canonical(c.Expr)
		if err != nil {
			p.Novel = append(p.Novel, c) // refused below, with the others
			continue
		}
		ms, err := l.Retrieve(c.Text+" "+c.Expr, RetrieveK)
		if err != nil {
			return nil, err
		}
		reused := ""
		for _, m := range ms {
			if m.Component.Kind == KindCondition && m.Component.Expr == canon {
				reused = m.Component.Name
				p.Retrieved++
				break
			}
		}
		if reused == "" {
			l.mu.Lock()
			if i, ok := l.byExpr[canon]; ok {
				reused = l.comps[i].Name
			}
			l.mu.Unlock()
		}
		if reused != "" {
			p.Reused = append(p.Reused, reused)
			covered++
		} else {
			p.Novel = append(p.Novel, c)
		}
	}
	l.mu.Lock()
	for _, a := range f.Actions {
		if a.SizeFrom != "" {
			i, ok := l.byName[a.SizeFrom]
			if !ok || l.comps[i].Kind != KindSizing {
				l.mu.Unlock()
				return nil, fmt.Errorf("%w: the sizing component named by the entry is not in the library", ErrUndecomposable)
			}
		}
		covered++
	}
	l.mu.Unlock()
	for i, c := range p.Novel {
		// The compiler's message quotes the expression: not repeated.
		if Check(c.Expr) != nil {
			return nil, fmt.Errorf("%w: novel condition %d is not a boolean CEL expression over the market state", ErrUndecomposable, i+1)
		}
	}
	if total > 0 {
		p.Coverage = float64(covered) / float64(total)
	}
	p.Composed = p.Coverage > ComposeCoverage
	return p, nil
}

// Needs returns the ward_v1 WASM components the fragments name, each
// once, modules included: what a Request's Components must hold. A name
// the library does not hold as a ward_v1 module of the kind named is left
// out (Compose refuses it; the evaluation fails without it).
func (l *Library) Needs(fs ...*Fragment) []Component {
	var out []Component
	seen := map[string]bool{}
	add := func(name string, kind ComponentKind) {
		if name == "" || seen[name] {
			return
		}
		if c, ok := l.Get(name); ok && c.Kind == kind && c.ward() {
			seen[name] = true
			out = append(out, c)
		}
	}
	for _, f := range fs {
		if f == nil {
			continue
		}
		for _, c := range f.Conditions {
			add(c.Component, KindCondition)
		}
		for _, a := range f.Actions {
			add(a.SizeFrom, KindSizing)
		}
	}
	return out
}

// Promotion returns the components Promote would add for a plan that
// passed its evaluation: its novel conditions, named after entryID.
func Promotion(entryID string, p *Plan) []Component {
	var out []Component
	for i, c := range p.Novel {
		out = append(out, Component{Name: fmt.Sprintf("%s#%d", entryID, i+1), Text: c.Text, Expr: c.Expr})
	}
	return out
}

// Promote adds the novel conditions of a plan that passed its evaluation
// to the library, named after entryID (see Promotion), and returns how
// many were added.
func (l *Library) Promote(entryID string, p *Plan) int {
	n := 0
	for _, c := range Promotion(entryID, p) {
		if l.Add(c) == nil {
			n++
		}
	}
	return n
}
