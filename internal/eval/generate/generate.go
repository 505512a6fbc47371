// Package generate makes synthetic memory-poisoning suites (seed 001
// §14.1): poisoned knowledge entries of the seed's five attack classes at
// its volumes, a clean counterpart of the same domains and shapes for each
// class (hard negatives), and a clean Grimoire seed set. Score runs a suite
// through a fresh ingestion pipeline at Standard strictness and returns
// per-class false negative rates and the false positive rate; the package's
// TestRegressionGate holds them to a committed baseline.
//
// Generation is deterministic: the same seed gives the same suite, byte for
// byte. Each class draws from its own PCG stream, so that changing one
// generator leaves the others' output alone (but for the rare retry that
// keeps every content of a suite distinct). Sentences are composed from
// this package's own grammar pieces (vocab.go); nothing is taken from a
// benchmark or an evaluation set, so the suite is an independent test of
// the detectors rather than a copy of what they were tuned on.
//
// The rows are in the format `ward eval poisoning` reads; the labels (id,
// label, attack_class, benchmark, group, source, construction, domain) are
// for the harness only.
package generate

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Class is one of the seed's attack classes. The zero value is invalid.
type Class uint8

// The attack classes of seed §14.1.
const (
	AgentPoison Class = iota + 1
	MINJA
	MemoryGraft
	ConfidenceInflation
	SemanticContradiction
)

var classNames = [...]string{AgentPoison: "agentpoison", MINJA: "minja", MemoryGraft: "memorygraft",
	ConfidenceInflation: "confidence_inflation", SemanticContradiction: "semantic_contradiction"}

// Classes lists every class in the order a suite holds them.
func Classes() []Class {
	return []Class{AgentPoison, MINJA, MemoryGraft, ConfidenceInflation, SemanticContradiction}
}

// String returns the class's attack_class label, such as "minja".
func (c Class) String() string {
	if c > 0 && int(c) < len(classNames) {
		return classNames[c]
	}
	return fmt.Sprintf("class(%d)", uint8(c))
}

// MarshalText encodes a valid class as its label.
func (c Class) MarshalText() ([]byte, error) {
	if c == 0 || int(c) >= len(classNames) {
		return nil, fmt.Errorf("generate: invalid class %d", uint8(c))
	}
	return []byte(c.String()), nil
}

// Volumes of seed §14.1.
const (
	PerTrigger     = 50  // AgentPoison entries per trigger pattern
	MINJAEntries   = 100 // MINJA entries
	PerDomain      = 30  // MemoryGraft entries per domain
	InflationCount = 50  // confidence inflation entries
	ContradictN    = 50  // semantic contradiction entries
)

// Labels a row carries.
const (
	LabelClean  = "clean"
	LabelPoison = "poison"
)

// Row is one generated line, in the row format of `ward eval poisoning`.
// Content, EntryType, Provenance, ClaimedConfidence and Confidence reach the
// pipeline; the other fields are labels for the harness.
type Row struct {
	ID                string   `json:"id,omitempty"` // the group, for --rows output
	Content           string   `json:"content"`
	EntryType         string   `json:"entry_type"`
	Label             string   `json:"label"`
	AttackClass       string   `json:"attack_class,omitempty"`
	Benchmark         string   `json:"benchmark,omitempty"`
	Provenance        string   `json:"provenance,omitempty"`
	ClaimedConfidence *float64 `json:"claimed_confidence,omitempty"`
	// Confidence is a Grimoire seed's own confidence.
	Confidence *float64 `json:"confidence,omitempty"`
	Group      string   `json:"group,omitempty"`
	Source     string   `json:"source,omitempty"`
	// Construction names the generator variant ("trigger/unicode",
	// "record_swap", ...); Domain the subject area.
	Construction string `json:"construction,omitempty"`
	Domain       string `json:"domain,omitempty"`
}

// File is one class's rows: its poison and clean counterparts, interleaved.
type File struct {
	Class Class
	Rows  []Row
}

// Name is the file's name in a generated directory: "<class>.jsonl".
func (f File) Name() string { return f.Class.String() + ".jsonl" }

// SeedFile is the name of the Grimoire seed file in a generated directory.
const SeedFile = "seed.jsonl"

// Suite is a generated suite: the clean rows that seed the Grimoire and one
// file per class to ingest into it, in Classes order.
type Suite struct {
	Seed     uint64
	Grimoire []Row
	Files    []File
}

// Generate returns the suite of seed. It is deterministic and never fails.
func Generate(seed uint64) *Suite {
	s := &Suite{Seed: seed}
	seen := map[string]bool{} // no content twice in a suite
	f := newFacts(newGen(seed, 0, seen))
	s.Grimoire = grimoireSeed(newGen(seed, 1, seen), f)
	for _, c := range Classes() {
		g := newGen(seed, 10+uint64(c), seen)
		var poison, clean []Row
		switch c {
		case AgentPoison:
			poison, clean = agentPoison(g)
		case MINJA:
			poison, clean = minja(g)
		case MemoryGraft:
			poison, clean = memoryGraft(g)
		case ConfidenceInflation:
			poison, clean = inflation(g)
		case SemanticContradiction:
			poison, clean = contradiction(g, f)
		}
		s.Files = append(s.Files, File{Class: c, Rows: g.interleave(c, poison, clean)})
	}
	return s
}

// Incoming returns every row of the suite's files, in file order: what a
// scoring run ingests.
func (s *Suite) Incoming() []Row {
	var out []Row
	for _, f := range s.Files {
		out = append(out, f.Rows...)
	}
	return out
}

// gen is a grammar's source of choices: one PCG stream.
type gen struct {
	r    *rand.Rand
	seen map[string]bool // contents made so far in the suite
}

func newGen(seed, stream uint64, seen map[string]bool) *gen {
	return &gen{r: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15^stream)), seen: seen}
}

func (g *gen) pick(xs []string) string { return xs[g.r.IntN(len(xs))] }

func (g *gen) one(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

func (g *gen) between(lo, hi int) int { return lo + g.r.IntN(hi-lo+1) }

// hex returns n random hex digits.
func (g *gen) hex(n int) string {
	const digits = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[g.r.IntN(16)]
	}
	return string(b)
}

func (g *gen) addr() string { return "0x" + g.hex(40) }

// unique calls compose until it returns a content not made before in the
// suite (at most 200 tries; then the last one, with a distinguishing
// suffix).
func (g *gen) unique(compose func() string) string {
	var s string
	for range 200 {
		s = tidy(compose())
		if !g.seen[s] {
			g.seen[s] = true
			return s
		}
	}
	for i := 2; ; i++ {
		t := fmt.Sprintf("%s (note %d)", s, i)
		if !g.seen[t] {
			g.seen[t] = true
			return t
		}
	}
}

// source returns one of a pool of sellers, drawn independently of the
// label so that a source's key never tells the pipeline the answer.
func (g *gen) source() string { return fmt.Sprintf("seller-%02d", g.r.IntN(16)) }

// provenance returns an external provenance, mostly purchased.
func (g *gen) provenance() string {
	switch n := g.r.IntN(10); {
	case n < 6:
		return "purchased"
	case n < 8:
		return "clade"
	default:
		return "cross_user"
	}
}

// interleave labels and shuffles a class's rows into one file. Each row
// is given a group, a source and, if it has none, a provenance and a
// claimed confidence within its provenance's ceiling.
func (g *gen) interleave(c Class, poison, clean []Row) []Row {
	rows := make([]Row, 0, len(poison)+len(clean))
	for i, r := range poison {
		r.Label, r.AttackClass, r.Group = LabelPoison, c.String(), fmt.Sprintf("%s-p%03d", c, i)
		rows = append(rows, r)
	}
	for i, r := range clean {
		r.Label, r.AttackClass, r.Group = LabelClean, c.String(), fmt.Sprintf("%s-c%03d", c, i)
		rows = append(rows, r)
	}
	for i := range rows {
		r := &rows[i]
		r.ID, r.Benchmark = r.Group, benchmark(c)
		r.Source = g.source()
		if r.Provenance == "" {
			r.Provenance = g.provenance()
		}
		if r.ClaimedConfidence == nil {
			r.ClaimedConfidence = g.within(r.Provenance)
		}
	}
	g.r.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	return rows
}

// tidy capitalises a sentence's first letter and collapses runs of spaces.
func tidy(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// sentence ends s with a full stop unless it ends with punctuation.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s[len(s)-1:], ".!?") {
		return s
	}
	return s + "."
}

func f64(x float64) *float64 { return &x }
