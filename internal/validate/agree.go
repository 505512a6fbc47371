package validate

import (
	"strings"

	"github.com/wardhq/ward/internal/knowledge"
)

// Agreement is what mental models confirm of a text (see Agree).
type Agreement struct {
	// Confirmed is how many of the text's sentences a model confirms.
	Confirmed int
	// Contradicted is whether the text contradicts any model, at any
	// confidence and under any condition.
	Contradicted bool
}

// Agree reads text against the structured models whose confidence is at
// least least, and counts the sentences one of them confirms: a sentence
// that states the model's relation with the model's polarity ("is" or
// "is_not"), or for a range or set a quantity in the model's unit that
// lies inside it ("within", "one_of"), of the model's subject, naming the
// model's protocol if it has one and none of its exceptions, in a clause
// where no negation flips it. It is strictly conservative: a sentence
// that is a question, reports or warns of someone's claim, holds a
// condition or a hypothetical anywhere ("if", "when", "only", "could",
// "would"…), or quotes anything, confirms nothing, and so does a quantity
// among several of the unit near the subject unless every one lies
// inside. The directional and comparison models never confirm: their
// claims are read too loosely to vouch for a sentence. Contradicted is
// Consistency's reading of the whole text against every model, so a text
// that confirms one model and contradicts another is Contradicted.
func Agree(text string, models []Model, least float64) Agreement {
	var a Agreement
	v := Consistency(Candidate{Entry: &knowledge.Entry{Content: text}}, models)
	a.Contradicted = v.Score > 0 || len(v.Reasons) > 0
	rivals := lazyOwners(models)
	for _, s := range splitSentences(text) {
		if strings.TrimSpace(s) == "" || strings.ContainsAny(s, quoteMarks) {
			continue
		}
		vs := views(s)
		if len(vs) != 1 || vs[0].question || vs[0].reported || hypothetical(vs[0]) {
			continue
		}
		for i := range models {
			m := &models[i]
			if m.confidence() < least {
				continue
			}
			if _, _, ok := m.read(vs[0], rivals, agreement); ok {
				a.Confirmed++
				break
			}
		}
	}
	return a
}

// quoteMarks are the quotation marks (not the apostrophes) a sentence may
// hold: what is quoted is not asserted.
const quoteMarks = "\"“”„«»‘`"

// hypoWords make a sentence hypothetical or hedged.
var hypoWords = set("could", "might", "would", "may", "should", "suppose", "supposing", "imagine", "hypothetical", "hypothetically", "example", "e.g", "eg", "say", "perhaps", "maybe", "probably", "likely", "unlikely", "roughly", "estimate", "expect", "expects", "expected", "will", "plan", "planned", "proposal", "proposed")

// weighWords weigh or flip a statement's polarity in ways the negation
// reading (negWords) does not count: "there is zero chance that USDC
// depegs" is read as stating that it depegs. A contradiction missed for
// them is a vote lost; an agreement misread is a claim vouched for, so
// agreement reads no sentence holding one.
var weighWords = set("zero", "chance", "chances", "odds", "probability", "impossible", "hardly", "barely", "rarely", "seldom", "lack", "lacks", "lacking", "free", "eliminate", "eliminates", "prevent", "prevents", "forbid", "forbids", "fail", "fails", "less", "fewer", "least", "any", "anything", "anyone", "either", "except", "unless", "but", "only", "almost", "nearly", "ever")

// plainNeg are the negations agreement reads (an is_not model is stated
// with one); the others of negWords ("myth", "avoid", "instead",
// "wrongly"…) turn a statement around in ways too loose to vouch for.
var plainNeg = set("not", "no", "never", "without")

// hypothetical reports whether a sentence holds a condition, a hedge, a
// word that weighs its polarity or a negation other than plainNeg
// anywhere: agreement reads only plain, unconditional statements.
func hypothetical(vw view) bool {
	for _, t := range vw.all {
		if condWords[t] || hypoWords[t] || weighWords[t] || negWords[t] && !plainNeg[t] {
			return true
		}
	}
	return false
}

// inBounds reports whether the quantities near the subject mention at s
// state m's value: at least one in m's unit, and every one in it inside
// the range (within) or a value of the set (one_of). Unlike the
// contradiction's reading, no quantity is set aside as another thing's.
func (m *Model) inBounds(near []interval) bool {
	n := 0
	for _, iv := range near {
		if iv.unit != m.Unit {
			continue
		}
		n++
		switch {
		case m.Relation == RelWithin && !m.inside(iv):
			return false
		case m.Relation == RelOneOf && (!iv.point() || m.outside(iv)):
			return false
		}
	}
	return n > 0
}
