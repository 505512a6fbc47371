package validate

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/wardhq/ward/internal/knowledge"
)

// Model is one established mechanic L3b checks candidates against:
// Subject Relation Object, under Conditions. For the directional relations
// ("increases", "decreases") Subject and Object are the quantities;
// "requires", "implies" and "bounded_by" read as Subject requires Object and
// so on. The structured relations read:
//
//   - "is" / "is_not": Subject has (has not) the property Object ("stETH" is
//     "rebasing"; "unlimited approval" is_not "safe"). With Min or Max the
//     model speaks only of a Subject stated in that range ("a health factor"
//     at most 1.1 is_not "safe").
//   - "within": Subject's value lies in [Min, Max] Unit ("close factor"
//     within 0..100 %).
//   - "one_of": Subject's value is one of Values Unit (a fee tier).
//   - "exceeds": Subject is greater than Object ("liquidation threshold"
//     exceeds "ltv").
//
// Aliases name the subject and object in other words, ObjectAntonyms name
// the object's negation ("immune to liquidation"). Protocols limits a model
// to text naming one of them, Unless drops it for text naming one of those
// (a model of token approvals does not hold for Permit2's expiring ones).
// Confidence (default DefaultModelConfidence) weighs a contradiction;
// Decisive marks a definition or bound whose unconditional contradiction is
// simply false (see Consistency).
type Model struct {
	Statement  string   `json:"statement"`
	Subject    string   `json:"subject"`
	Relation   string   `json:"relation"`
	Object     string   `json:"object"`
	Conditions []string `json:"conditions,omitempty"`

	Area           string    `json:"area,omitempty"`
	Confidence     float64   `json:"confidence,omitempty"`
	Decisive       bool      `json:"decisive,omitempty"`
	Protocols      []string  `json:"protocols,omitempty"`
	Unless         []string  `json:"unless,omitempty"`
	SubjectAliases []string  `json:"subject_aliases,omitempty"`
	ObjectAliases  []string  `json:"object_aliases,omitempty"`
	ObjectAntonyms []string  `json:"object_antonyms,omitempty"`
	Min            *float64  `json:"min,omitempty"`
	Max            *float64  `json:"max,omitempty"`
	Values         []float64 `json:"values,omitempty"`
	Unit           string    `json:"unit,omitempty"`

	parsed *keyed      // set by LoadModels
	terms  *modelTerms // set by LoadModels
}

// Relations only models state.
const (
	RelIsNot   = "is_not"
	RelWithin  = "within"
	RelOneOf   = "one_of"
	RelExceeds = "exceeds"
)

// DefaultModelConfidence is a model's confidence when its line names none.
const DefaultModelConfidence = 0.9

// HighConfidence is the boundary at and above which a contradicted model
// raises scrutiny (the seed's "contradicts established theory"): 0.8, the
// seed's own line between a trusted and an ordinary clade member. Below it
// a model is a rule of thumb ("more staking lowers the yield, all else
// equal"): contradicting it still fails the L3b vote, but only as one vote.
const HighConfidence = 0.8

// DecisiveConfidence is the least confidence of a model whose contradiction
// may be decisive: a Decisive model below it only raises scrutiny.
const DecisiveConfidence = 0.95

// ErrModel is wrapped by every error LoadModels returns for a bad line.
var ErrModel = errors.New("invalid mental model")

//go:embed models.jsonl
var shippedModels string

var shipped = sync.OnceValues(func() ([]Model, error) {
	return LoadModels(strings.NewReader(shippedModels))
})

// ShippedModels returns the generic DeFi mechanics ward ships (lending,
// AMMs, gas, derivatives, oracles), parsed once. The slice is shared: do not
// modify it. An error means the embedded file is defective (the tests load
// it).
func ShippedModels() ([]Model, error) { return shipped() }

// ReadModelsFile reads a file of mental models (see LoadModels); errors
// name the file.
func ReadModelsFile(path string) ([]Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ms, err := LoadModels(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ms, nil
}

// LoadModels reads mental models as JSON Lines, one Model per line; blank
// lines and lines starting with # are ignored. Every model needs a
// statement, subject, object (but within and one_of) and one of the
// relations increases, decreases, requires, implies, bounded_by, is, is_not,
// within (with min or max), one_of (with values) and exceeds; a confidence,
// if given, lies in (0, 1]. An error names the line and wraps ErrModel (or
// the reader's error).
func LoadModels(r io.Reader) ([]Model, error) {
	var out []Model
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var m Model
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&m); err != nil {
			return nil, fmt.Errorf("line %d: %w: %v", n, ErrModel, err)
		}
		switch {
		case strings.TrimSpace(m.Statement) == "":
			return nil, fmt.Errorf("line %d: %w: statement is empty", n, ErrModel)
		case strings.TrimSpace(m.Subject) == "" || strings.TrimSpace(m.Object) == "" && m.Relation != RelWithin && m.Relation != RelOneOf:
			return nil, fmt.Errorf("line %d: %w: subject and object are required", n, ErrModel)
		}
		if err := m.check(); err != nil {
			return nil, fmt.Errorf("line %d: %w: %v", n, ErrModel, err)
		}
		k := key(m.claim())
		m.parsed = &k
		t := m.compile()
		m.terms = &t
		out = append(out, m)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read mental models: %w", err)
	}
	owners := propertyOwners(out)
	for i := range out {
		out[i].terms.rival = rivalTerms(*out[i].terms, owners)
		out[i].terms.rivalsKnown = true
	}
	return out, nil
}

func (m Model) keyed() keyed {
	if m.parsed != nil {
		return *m.parsed
	}
	return key(m.claim())
}

func (m Model) claim() Claim {
	c := Claim{Subject: phrase(m.Subject), Relation: m.Relation, Object: phrase(m.Object), Conditions: m.Conditions}
	switch m.Relation {
	case RelIncreases:
		c.Direction = 1
	case RelDecreases:
		c.Direction = -1
	}
	return c
}

// check reports what makes a model unusable.
func (m Model) check() error {
	switch m.Relation {
	case RelIncreases, RelDecreases, RelRequires, RelImplies, RelBoundedBy, RelIs, RelIsNot, RelExceeds:
	case RelWithin:
		if m.Min == nil && m.Max == nil {
			return errors.New("within needs min or max")
		}
		if m.Min != nil && m.Max != nil && *m.Min > *m.Max {
			return errors.New("min is above max")
		}
	case RelOneOf:
		if len(m.Values) == 0 {
			return errors.New("one_of needs values")
		}
	default:
		return fmt.Errorf("relation %q is not one of increases, decreases, requires, implies, bounded_by, is, is_not, within, one_of, exceeds", m.Relation)
	}
	if m.Confidence < 0 || m.Confidence > 1 {
		return fmt.Errorf("confidence %v is outside (0, 1]", m.Confidence)
	}
	return nil
}

// confidence is the model's confidence, DefaultModelConfidence if unset.
func (m Model) confidence() float64 {
	if m.Confidence == 0 {
		return DefaultModelConfidence
	}
	return m.Confidence
}

// structured reports whether the model is read from mentions (see
// mention.go) rather than from extracted claims.
func (m Model) structured() bool {
	switch m.Relation {
	case RelIs, RelIsNot, RelWithin, RelOneOf, RelExceeds:
		return true
	}
	return false
}

// modelTerms are a model's phrases as canonical stems.
type modelTerms struct {
	subj, obj, anto, protocols, unless []term
	// rival are the subjects of the other property models on the same
	// object, worked out by LoadModels for the models it loads together
	// (rivalsKnown), else by Consistency per call.
	rival       []term
	rivalsKnown bool
}

func (m Model) compile() modelTerms {
	return modelTerms{
		subj:      terms([]string{m.Subject}, m.SubjectAliases),
		obj:       terms([]string{m.Object}, m.ObjectAliases),
		anto:      terms(m.ObjectAntonyms),
		protocols: terms(m.Protocols),
		unless:    terms(m.Unless),
	}
}

func (m Model) compiled() modelTerms {
	if m.terms != nil {
		return *m.terms
	}
	return m.compile()
}

// Consistency is Layer 3b: it fails a candidate with a claim that
// contradicts a mental model. Directional, requirement, implication and
// bound models are compared with the claims ExtractClaims finds (the same
// subject and object by word stems, the opposite direction or the denial);
// property, range, set and comparison models with what the candidate's
// clauses say of the model's subject (see Model). A claim that matches no
// model is not a contradiction.
//
// The seed makes this a vote, not a veto, since models can be wrong for
// novel conditions. A contradiction scores the model's confidence, two
// thirds of it when the claim holds under a condition the model does not
// name ("if", "when", "during"…); the vote fails at FailScore. An
// unconditional contradiction of a model at HighConfidence or above sets
// Scrutiny; of a Decisive model at DecisiveConfidence or above, Decisive.
// Questions and reported speech ("some say…", "beware of…") assert nothing.
// Reasons quote the model's statement and describe the claim in the model's
// words, never echoing the candidate's text.
func Consistency(c Candidate, models []Model) Vote {
	v := Vote{Layer: knowledge.LayerConsistency, Pass: true}
	hit := func(m *Model, conditional bool, claim string) {
		conf := m.confidence()
		score := conf
		if conditional {
			score = conf * 2 / 3
		}
		v.Score = max(v.Score, score)
		if score >= FailScore && !conditional {
			v.Scrutiny = v.Scrutiny || conf >= HighConfidence
			v.Decisive = v.Decisive || m.Decisive && conf >= DecisiveConfidence
		}
		v.Reasons = append(v.Reasons, fmt.Sprintf("contradicts mental model %q: claim %s", m.Statement, claim))
	}
	for _, cl := range keyAll(c.claims()) {
		for i := range models {
			m := &models[i]
			if m.structured() {
				continue
			}
			mc := m.keyed()
			if !contradicts(cl, mc) {
				continue
			}
			hit(m, len(cl.Conditions) > 0 && len(mc.Conditions) == 0, describe(cl.Claim))
		}
	}
	vs := views(c.text())
	if len(vs) > 0 {
		rivals := lazyOwners(models)
		for _, vw := range vs {
			if vw.question || vw.reported {
				continue
			}
			rv, resolves := resolved(vw, models)
			for i := range models {
				m := &models[i]
				claim, conditional, ok := m.read(vw, rivals, contradiction)
				if !ok && resolves {
					claim, conditional, ok = m.read(rv, rivals, contradiction)
				}
				if ok {
					hit(m, conditional, claim)
				}
			}
		}
	}
	v.Pass = v.Score < FailScore
	if v.Pass {
		v.Scrutiny, v.Decisive = false, false
	}
	return v
}

// resolved returns vw read with its opening pronoun subject (see
// pronounLen) replaced by the model subject the sentence before names:
// "Lido issues stETH. It does not rebase." is read as "stETH does not
// rebase". It reports false when vw opens with no pronoun subject, or the
// sentence before names no model's subject or more than one (mentions
// inside a longer one aside; "stETH" twice is one): an ambiguous
// antecedent is left alone, and only the sentence right before is looked
// at.
func resolved(vw view, models []Model) (view, bool) {
	if vw.pronoun == 0 {
		return view{}, false
	}
	var ms []span
	for i := range models {
		ms = append(ms, find(vw.antecedent, models[i].compiled().subj)...)
	}
	var ante []string
	for _, sp := range outer(ms, ms) {
		t := vw.antecedent[sp.s:sp.e]
		if ante != nil && !slices.Equal(ante, t) {
			return view{}, false
		}
		ante = t
	}
	if ante == nil {
		return view{}, false
	}
	rv := view{question: vw.question, prior: vw.prior, all: append(slices.Clip(ante), vw.all[vw.pronoun:]...)}
	return rv, rv.split()
}

// describe renders an extracted claim for a reason.
func describe(c Claim) string {
	rel := c.Relation
	if c.Negated {
		rel = "not " + rel
	}
	return fmt.Sprintf("%s %s %s", c.Subject, rel, c.Object)
}

// text is what L3b reads of a candidate: its content and its structured
// claim as a sentence.
func (c Candidate) text() string {
	if c.Entry == nil {
		return ""
	}
	s := c.Entry.Content
	if k := c.Entry.Claim; k != nil && k.Subject != "" {
		s += ".\n" + k.Subject + " " + strings.ReplaceAll(k.Relation, "_", " ") + " " + k.Object
		for _, cond := range k.Conditions {
			s += " when " + cond
		}
	}
	return s
}

// propertyOwners maps each property object (and antonym) of the is and is_not models to
// the subjects that have a model on it, so that in "unlike stETH, wstETH
// does not rebase" the denial is read as wstETH's, not stETH's.
func propertyOwners(models []Model) map[string][]term {
	out := map[string][]term{}
	for _, m := range models {
		if m.Relation != RelIs && m.Relation != RelIsNot {
			continue
		}
		t := m.compiled()
		for _, o := range append(t.obj[:len(t.obj):len(t.obj)], t.anto...) {
			k := strings.Join(o, " ")
			out[k] = append(out[k], t.subj...)
		}
	}
	return out
}

// lazyOwners returns a function that returns propertyOwners(models),
// worked out on its first call: only a property model whose subject a
// sentence mentions needs it, and only when the models were not loaded
// together (see modelTerms.rival).
func lazyOwners(models []Model) func() map[string][]term {
	var owners map[string][]term
	return func() map[string][]term {
		if owners == nil {
			owners = propertyOwners(models)
		}
		return owners
	}
}

// reading is what a walk over a sentence's clauses looks for in a model
// (see Model.read): its contradiction, for Consistency, or its
// confirmation, for Agree.
type reading uint8

const (
	contradiction reading = iota
	agreement
)

// reads reports whether the reading reads a model of the relation rel:
// a contradiction reads every structured model, an agreement only the
// property, range and set models (a comparison is read too loosely to
// vouch for a sentence).
func (r reading) reads(rel string) bool {
	switch rel {
	case RelIs, RelIsNot, RelWithin, RelOneOf:
		return true
	case RelExceeds:
		return r == contradiction
	}
	return false
}

// finding is what a reading found in a clause: the claim, in the model's
// words, and the mentions it occupies (at most the subject and the
// object; a condition inside them is the claim's own, see
// view.conditional).
type finding struct {
	claim string
	at    [2]span
}

// read is the one walk over a sentence both readings make: it checks that
// the sentence vw is in m's scope (it names one of m's protocols, if m has
// any, and none of its exceptions), then reads each clause that mentions
// m's subject by m's relation: a property (see property), a quantity
// (see quantity) or a comparison (see compared). It returns the first
// finding of the reading r: the claim in m's words (a confirmed quantity
// has none) and whether the sentence makes it under a condition.
//
// Where the readings part, agreement is the stricter: a contradiction
// may find m's protocol in the sentence before (vw.prior), an agreement
// only in the sentence itself, and a quantity confirms only from a clause
// that names the protocol.
func (m *Model) read(vw view, rivals func() map[string][]term, r reading) (claim string, conditional, ok bool) {
	if !r.reads(m.Relation) {
		return "", false, false
	}
	t := m.compiled()
	named := len(t.protocols) == 0 || mentions(vw.all, t.protocols)
	if !named && !(r == contradiction && mentions(vw.prior, t.protocols) && !mentions(vw.prior, t.unless)) ||
		len(t.unless) > 0 && mentions(vw.all, t.unless) {
		return "", false, false
	}
	if !vw.mayMention(t.subj) {
		return "", false, false
	}
	for ci, toks := range vw.clauses {
		subj := find(toks, t.subj)
		if len(subj) == 0 {
			continue
		}
		var f finding
		switch m.Relation {
		case RelIs, RelIsNot:
			f, ok = m.property(toks, t, subj, rivals, r)
		case RelWithin, RelOneOf:
			// A number belongs to the clause that names the protocol:
			// in "stablecoin feeds use 24 hours, while ETH/USD uses one
			// hour" the first number is not ETH/USD's. An agreement asks
			// it of a sentence's only clause too.
			if named && len(t.protocols) > 0 && (len(vw.clauses) > 1 || r == agreement) && !mentions(toks, t.protocols) {
				continue
			}
			f, ok = m.quantity(toks, subj, r)
		case RelExceeds:
			f, ok = m.compared(vw, ci, toks, t, subj)
		}
		if ok {
			return f.claim, vw.conditional(ci, f.at[:]...), true
		}
	}
	return "", false, false
}

// quantity reads a range or set model (within, one_of) in one clause, at
// each mention of the subject no negation in its comma-separated part
// bears on: a contradiction is a quantity there that m rules out (see
// ruledOut); an agreement needs one in m's unit and every one inside m
// (see inBounds).
func (m *Model) quantity(toks []string, subj []span, r reading) (finding, bool) {
	for _, s := range subj {
		lo, hi := segment(toks, s.s, s.e)
		if negations(toks, lo, hi, subj) > 0 {
			continue
		}
		near := numbersNear(toks, s)
		switch r {
		case agreement:
			if m.inBounds(near) {
				return finding{at: [2]span{s}}, true
			}
		case contradiction:
			if iv, ok := m.ruledOut(toks, near, s); ok {
				return finding{claim: fmt.Sprintf("%s is %s", m.Subject, iv), at: [2]span{s}}, true
			}
		}
	}
	return finding{}, false
}

// ruledOut returns a quantity in m's unit that the clause toks states of
// the subject mention at s and m rules out, given near, the quantities
// near s.
func (m *Model) ruledOut(toks []string, near []interval, s span) (interval, bool) {
	if !slices.ContainsFunc(near, func(iv interval) bool { return iv.unit == m.Unit }) {
		// Past the window, a clause that states one quantity in the
		// model's unit states it of the subject: "withdrawals from X to
		// Y through Z finalise after one hour".
		near = clauseQuantity(toks, m.Unit)
	}
	if m.Relation == RelWithin {
		// A set lists its values ("0.01 %, 0.05 %, 0.3 % and 1 %"); a
		// bound's subject has one.
		near = nearest(near, m.Unit, s)
	}
	for _, iv := range near {
		if iv.unit == m.Unit && m.outside(iv) {
			return iv, true
		}
	}
	return interval{}, false
}

// compared reads a comparison model (exceeds) in clause ci of vw: a
// mention of the subject and one of the object, neither a particular
// account's (see owned), that the clause compares the other way round,
// unconditionally (a comparison under a condition is not read).
func (m *Model) compared(vw view, ci int, toks []string, t modelTerms, subj []span) (finding, bool) {
	obj := find(toks, t.obj)
	for _, a := range subj {
		for _, b := range obj {
			if owned(toks, a) || owned(toks, b) {
				continue
			}
			c := 0
			if a.e <= b.s {
				c = comparison(toks, a, b)
			} else if b.e <= a.s {
				c = -comparison(toks, b, a)
			}
			lo, hi := segment(toks, min(a.s, b.s), max(a.e, b.e))
			if negations(toks, lo, hi, subj, obj)%2 == 1 {
				c = -c
			}
			if c < 0 && !vw.conditional(ci, a, b) {
				return finding{claim: fmt.Sprintf("%s is not above %s", m.Subject, m.Object), at: [2]span{a, b}}, true
			}
		}
	}
	return finding{}, false
}

// nearest returns the quantity in unit closest to the mention at sp (the
// first after it on a tie): of several, the others belong to other
// things ("a 90-day grace period, then a 21-day auction"; "Base every 2
// seconds and Arbitrum every 250 milliseconds").
func nearest(ivs []interval, unit string, sp span) []interval {
	dist := func(iv interval) int {
		if iv.at >= sp.e {
			return iv.at - sp.e
		}
		return sp.s - iv.at
	}
	var best []interval
	for _, iv := range ivs {
		switch {
		case iv.unit != unit:
		case len(best) == 0 || dist(iv) < dist(best[0]):
			best = []interval{iv}
		}
	}
	return best
}

// clauseQuantity returns the one quantity in unit a clause states, or
// nil when it states none or several.
func clauseQuantity(toks []string, unit string) []interval {
	var out []interval
	for _, iv := range numbersIn(toks, 0, len(toks), span{}) {
		if iv.unit == unit {
			out = append(out, iv)
		}
	}
	if len(out) != 1 {
		return nil
	}
	return out
}

var ownerWords = set("current", "your", "position", "account", "actual", "user", "my", "our", "their", "effective", "realized")

// owned reports whether the mention at sp is a particular account's value
// ("your LTV") rather than the protocol's parameter.
func owned(toks []string, sp span) bool {
	for i := max(0, sp.s-2); i < sp.s; i++ {
		if ownerWords[toks[i]] {
			return true
		}
	}
	return false
}

// property reads an is or is_not model in one clause: an object mention
// owned by the model's subject (the nearest subject before it, else after
// it, with no rival subject of the same property in between), affirmed or
// denied by the negations of the comma-separated parts from the subject to
// the object. An antonym mention counts as the object denied; a mention
// inside a longer one of either kind is ignored (the longer one is the
// claim: "only applies to gas" holds its "only"), and so is an object
// after "to" (a purpose: "simulate to ensure…"). An agreement looks for
// the mention that states the model rather than denies it (see Agree).
func (m *Model) property(toks []string, t modelTerms, subj []span, rivals func() map[string][]term, r reading) (finding, bool) {
	obj, anto := findLoose(toks, t.obj), findLoose(toks, t.anto)
	if len(obj)+len(anto) == 0 {
		return finding{}, false
	}
	both := append(obj[:len(obj):len(obj)], anto...)
	obj, anto = outer(obj, both), outer(anto, both)
	obj, anto = later(obj, anto), later(anto, obj)
	obj, anto = disjoined(toks, obj, anto)
	rt := t.rival
	if !t.rivalsKnown {
		rt = rivalTerms(t, rivals())
	}
	p := propertyClause{m: m, toks: toks, subj: subj, rival: find(toks, rt), lists: [2][]span{obj, anto}}
	for k, list := range p.lists {
		for _, o := range list {
			s, affirmed, ok := p.read(k, o)
			if !ok || (affirmed == (m.Relation == RelIsNot)) == (r == agreement) {
				continue
			}
			if r == contradiction && p.givesWay(s, o) {
				continue
			}
			verb := "is"
			if !affirmed {
				verb = "is not"
			}
			return finding{claim: fmt.Sprintf("%s %s %s", m.Subject, verb, m.Object), at: [2]span{s, o}}, true
		}
	}
	return finding{}, false
}

// propertyClause is one clause read against an is or is_not model: its
// tokens, the subject's and its rivals' mentions, and the mentions of the
// object (lists[0]) and of its antonyms (lists[1]).
type propertyClause struct {
	m     *Model
	toks  []string
	subj  []span
	rival []span
	lists [2][]span
}

// read returns the subject mention the mention o of list k belongs to and
// whether the clause affirms the model's object there (an antonym affirmed
// is the object denied); ok is false when o is not read.
func (p *propertyClause) read(k int, o span) (s span, affirmed, ok bool) {
	toks := p.toks
	if o.s > 0 && is(toks[o.s-1], "to") && k == 0 {
		return span{}, false, false
	}
	// An object after a comparison ("delivers less than the amount
	// sent", "other than the full amount") names the standard the claim
	// is measured against, not what it says the subject has.
	if afterThan(toks, o.s) {
		return span{}, false, false
	}
	s, ok = owner(p.subj, p.rival, o)
	if !ok || s.e <= o.s && purpose(toks[s.e:o.s]) || standard(toks, s, o) {
		return span{}, false, false
	}
	// A subject after a relative pronoun that follows the object is
	// the relative clause's: in "utilisation raises borrow rates,
	// which draws new supply" the rates are not the supply's.
	if s.s >= o.e && relativeBetween(toks, o, s) {
		return span{}, false, false
	}
	if !p.inRange(s) {
		return span{}, false, false
	}
	// A denial of a restricted mention denies the restriction:
	// "no longer backed only by ETH" is still backed.
	lo, _ := segment(toks, min(s.s, o.s), max(s.e, o.e))
	if o.e < len(toks) && onlyWords[toks[o.e]] && negations(toks, lo, o.e) > 0 {
		return span{}, false, false
	}
	return s, (p.negations(k, s, o, lo)%2 == 0) == (k == 0), true
}

// inRange reports whether the model, when it bounds a quantity, finds one
// of its unit within bounds near the subject mention s; a model without
// bounds always does.
func (p *propertyClause) inRange(s span) bool {
	m := p.m
	if m.Min == nil && m.Max == nil {
		return true
	}
	for _, iv := range numbersNear(p.toks, s) {
		if iv.unit == m.Unit && m.inside(iv) {
			return true
		}
	}
	return false
}

// negations counts what denies the mention o of list k owned by s, in
// the part of the clause from lo: the negation words between them, a null
// word right after the object, "unless" before a subject that follows the
// object, and "exempt ... from" before the object.
func (p *propertyClause) negations(k int, s, o span, lo int) int {
	toks := p.toks
	// A negation after both mentions ("it holds one asset and earns
	// nothing") bears on what follows them, not on the object;
	// "proves little" right after the object denies it.
	hi := max(s.e, o.e)
	other := p.lists[1-k]
	neg := negations(toks, lo, hi, p.subj, p.lists[0], p.lists[1], governed(toks, other, s, o))
	if o.e < len(toks) && o.e >= s.e && nullAfter[toks[o.e]] {
		neg++
	}
	// "Unless" before a subject that follows the object turns the
	// clause round: "you cannot be liquidated unless the health
	// factor falls below 1" says that below 1 you can. (An object
	// inside the unless-clause is that clause's own: "decays
	// unless you extend the lock".)
	for i := o.e; i < s.s; i++ {
		if unlessWords[toks[i]] {
			neg++
		}
	}
	// "Exempt ... from" before the object denies it: "exempts no
	// asset from the debt ceiling" affirms the ceiling, "exempts
	// assets from it" denies it.
	for i := lo; i < o.s; i++ {
		if is(toks[i], "exempt") && slices.ContainsFunc(toks[i+1:o.s], func(t string) bool { return t == "from" }) {
			neg++
		}
	}
	return neg
}

// givesWay reports whether a contradiction read at the mention o owned by
// s gives way to a nearer mention, across a relative pronoun, that the
// same subject mention owns and that states the model: in "stETH's
// rebasing breaks accounting that expects fixed balances" the fixed
// balances are the accounting's.
func (p *propertyClause) givesWay(s, o span) bool {
	dist := func(o span) int {
		if o.s >= s.e {
			return o.s - s.e
		}
		return s.s - o.e
	}
	for k2, list := range p.lists {
		for _, o2 := range list {
			if o2 == o || dist(o2) >= dist(o) || !relativeBetween(p.toks, o2, o) {
				continue
			}
			s2, aff2, ok2 := p.read(k2, o2)
			if ok2 && s2 == s && aff2 != (p.m.Relation == RelIsNot) {
				return true
			}
		}
	}
	return false
}

// standard reports whether the subject mention s is the standard of a
// comparison after the object o ("it does not rebase like stETH"): the
// clause's claim, and its negation, belong to what is compared with s, and
// "like" presupposes that s has the property rather than stating the
// opposite. A standard before the object ("like rETH, stETH does not
// rebase") is not skipped: the subject after it owns the object there.
func standard(toks []string, s, o span) bool {
	return s.s >= o.e && s.s > 0 && likeWords[toks[s.s-1]]
}

// afterThan reports whether the mention starting at i follows "than"
// after a comparative at most three words before it ("less than", "fewer
// tokens than", "other than").
func afterThan(toks []string, i int) bool {
	if i < 2 || !is(toks[i-1], "than") {
		return false
	}
	for k := i - 2; k >= max(0, i-4) && toks[k] != ","; k-- {
		if lessWords[toks[k]] || moreWords[toks[k]] || is(toks[k], "other") {
			return true
		}
	}
	return false
}

// relativeBetween reports whether a relative pronoun stands between the
// mentions a and b.
func relativeBetween(toks []string, a, b span) bool {
	for i := min(a.e, b.e); i < max(a.s, b.s); i++ {
		if relativeWords[toks[i]] {
			return true
		}
	}
	return false
}

var (
	relativeWords = set("that", "which", "who", "whose")
	likeWords     = set("like", "unlike")
	onlyWords     = set("only", "solely", "exclusively", "just", "merely")
	unlessWords   = set("unless", "except")
)

// governed returns the spans of the negations that belong to a mention of
// the other kind (an antonym for an object mention o, an object for an
// antonym) between the subject s and o: in "cbETH is not decentralised,
// it is custodial" the "not" denies "decentralised", not "custodial"; in
// "CCTP has no pools and burns and mints" it denies the pools, not the
// burning. A negation governs the mention it stands at most three tokens
// before; a mention right next to o is one phrase with it ("not fungible
// ERC-20 tokens" denies both).
func governed(toks []string, other []span, s, o span) []span {
	from, to := s.e, o.s
	if o.e <= s.s {
		from, to = o.e, s.s
	}
	var out []span
	for _, m := range other {
		if m.s < from || m.e > to || m.e == o.s || m.s == o.e {
			continue
		}
		for i := max(from, m.s-3); i < m.s; i++ {
			if negWords[toks[i]] {
				out = append(out, span{i, i + 1})
			}
		}
	}
	return out
}

// outer drops the spans of a that lie inside a longer span of b.
func outer(a, b []span) []span {
	var out []span
next:
	for _, x := range a {
		for _, y := range b {
			if y.s <= x.s && x.e <= y.e && y.e-y.s > x.e-x.s {
				continue next
			}
		}
		out = append(out, x)
	}
	return out
}

// disjoined moves to the antonyms the object mentions joined by "or" or
// "nor" right after an antonym: in "cannot be transferred or sold" the
// denial the antonym holds covers the object after it too.
func disjoined(toks []string, obj, anto []span) (o, a []span) {
	for _, x := range obj {
		if x.s >= 2 && orWords[toks[x.s-1]] && slices.ContainsFunc(anto, func(y span) bool { return y.e == x.s-1 }) {
			a = append(a, x)
			continue
		}
		o = append(o, x)
	}
	return o, append(anto[:len(anto):len(anto)], a...)
}

var orWords = set("or", "nor")

// later drops the spans of a that start inside a span of b starting
// before them: of two phrases sharing words, the first read claims them.
// In "does not earn interest" the antonym "does not earn" is the claim,
// not the object "earn interest" stripped of its negation; in "not a safe
// margin" the antonym "not safe", not the object "safe margin".
func later(a, b []span) []span {
	var out []span
next:
	for _, x := range a {
		for _, y := range b {
			if y.s < x.s && x.s < y.e && y.e < x.e {
				continue next
			}
		}
		out = append(out, x)
	}
	return out
}

// rivalTerms returns the subjects of other property models that share an
// object or antonym with t.
func rivalTerms(t modelTerms, owners map[string][]term) []term {
	own := map[string]bool{}
	for _, x := range t.subj {
		own[strings.Join(x, " ")] = true
	}
	var out []term
	for _, o := range append(t.obj[:len(t.obj):len(t.obj)], t.anto...) {
		for _, r := range owners[strings.Join(o, " ")] {
			if k := strings.Join(r, " "); !own[k] {
				own[k] = true
				out = append(out, r)
			}
		}
	}
	return out
}

// owner returns the subject mention an object mention o belongs to: the
// nearest subject before it, else the nearest after it, counting the rival
// subjects of the same property (a rival nearer than ours owns o).
func owner(subj, rival []span, o span) (span, bool) {
	type cand struct {
		sp  span
		our bool
	}
	var before, after *cand
	consider := func(sp span, our bool) {
		switch {
		case sp.e <= o.s && (before == nil || sp.s > before.sp.s):
			before = &cand{sp, our}
		case sp.s >= o.e && (after == nil || sp.s < after.sp.s):
			after = &cand{sp, our}
		}
	}
	for _, s := range subj {
		consider(s, true)
	}
	for _, r := range rival {
		if !slices.ContainsFunc(subj, func(s span) bool { return s.s <= r.s && r.e <= s.e }) {
			consider(r, false)
		}
	}
	c := before
	if c == nil {
		c = after
	}
	if c == nil || !c.our {
		return span{}, false
	}
	return c.sp, true
}

func (m *Model) bounds() (lo, hi float64) {
	lo, hi = math.Inf(-1), math.Inf(1)
	if m.Min != nil {
		lo = *m.Min
	}
	if m.Max != nil {
		hi = *m.Max
	}
	return lo, hi
}

// inside reports whether every value of iv lies in the model's range.
func (m *Model) inside(iv interval) bool {
	lo, hi := m.bounds()
	return iv.lo >= lo && iv.hi <= hi
}

// outside reports whether iv states a value the model rules out: for
// within, no value of iv lies in the range; for one_of, iv is a single
// value none of Values.
func (m *Model) outside(iv interval) bool {
	if m.Relation == RelOneOf {
		if !iv.point() {
			return false
		}
		for _, v := range m.Values {
			if math.Abs(v-iv.lo) <= 1e-9*max(1, math.Abs(v)) {
				return false
			}
		}
		return true
	}
	lo, hi := m.bounds()
	return iv.hi < lo || iv.lo > hi
}
