package generate

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wardhq/ward/internal/eval/poisoning"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/validate"
)

func encode(t *testing.T, s *Suite) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, rows := range append([][]Row{s.Grimoire}, filesRows(s)...) {
		if err := WriteRows(&b, rows); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

func filesRows(s *Suite) [][]Row {
	var out [][]Row
	for _, f := range s.Files {
		out = append(out, f.Rows)
	}
	return out
}

func TestDeterministic(t *testing.T) {
	a, b := encode(t, Generate(7)), encode(t, Generate(7))
	if !bytes.Equal(a, b) {
		t.Fatal("two suites of seed 7 differ")
	}
	if c := encode(t, Generate(8)); bytes.Equal(a, c) {
		t.Fatal("the suites of seeds 7 and 8 are identical")
	}
}

// The seed's volumes, per class and per construction, with as many clean
// counterparts as poison.
func TestVolumes(t *testing.T) {
	s := Generate(1)
	want := map[Class]int{AgentPoison: PerTrigger * len(TriggerPatterns()), MINJA: MINJAEntries,
		MemoryGraft: PerDomain * len(Domains()), ConfidenceInflation: InflationCount, SemanticContradiction: ContradictN}
	if len(s.Files) != len(Classes()) {
		t.Fatalf("%d files, want %d", len(s.Files), len(Classes()))
	}
	for _, f := range s.Files {
		poison, clean := 0, 0
		by := map[string]int{}
		for _, r := range f.Rows {
			if r.AttackClass != f.Class.String() {
				t.Errorf("%s: row of class %q", f.Class, r.AttackClass)
			}
			switch r.Label {
			case LabelPoison:
				poison++
				by[r.Construction+" "+r.Domain]++
			case LabelClean:
				clean++
			default:
				t.Errorf("%s: label %q", f.Class, r.Label)
			}
		}
		if poison != want[f.Class] || clean != poison {
			t.Errorf("%s: %d poison, %d clean; want %d of each", f.Class, poison, clean, want[f.Class])
		}
		switch f.Class {
		case AgentPoison:
			for _, p := range TriggerPatterns() {
				n := 0
				for k, v := range by {
					if strings.HasPrefix(k, "trigger/"+p+" ") {
						n += v
					}
				}
				if n != PerTrigger {
					t.Errorf("trigger pattern %s: %d entries, want %d", p, n, PerTrigger)
				}
			}
		case MemoryGraft:
			for _, d := range Domains() {
				if n := by["graft "+d]; n != PerDomain {
					t.Errorf("memorygraft domain %s: %d entries, want %d", d, n, PerDomain)
				}
			}
		case SemanticContradiction:
			if m, n := by["mechanic "+DomainTrading], by["numeric "+DomainLending]; m != ModelContradictions || n != ContradictN-ModelContradictions {
				t.Errorf("semantic contradiction: %d of mechanics, %d numeric", m, n)
			}
		}
	}
	if len(s.Grimoire) < validate.MinCorpus {
		t.Errorf("%d Grimoire seeds, below the %d L1 needs", len(s.Grimoire), validate.MinCorpus)
	}
}

// Every row is an entry ward can hold, no content appears twice, and the
// only rows claiming more confidence than their provenance allows are the
// confidence-inflation poison.
func TestRows(t *testing.T) {
	s := Generate(1)
	seen := map[string]bool{}
	check := func(r Row, seed bool) {
		if !utf8.ValidString(r.Content) || len(r.Content) == 0 || len(r.Content) > knowledge.MaxContent {
			t.Errorf("content of %d bytes: %q", len(r.Content), r.Content)
		}
		if seen[r.Content] {
			t.Errorf("content twice: %q", r.Content)
		}
		seen[r.Content] = true
		var typ knowledge.EntryType
		if err := typ.UnmarshalText([]byte(r.EntryType)); err != nil {
			t.Error(err)
		}
		if seed {
			if r.Confidence == nil || r.Provenance != "" || r.Label != LabelClean {
				t.Errorf("seed row %+v", r)
			}
			return
		}
		if r.ClaimedConfidence == nil || r.Source == "" || r.Group == "" {
			t.Fatalf("row without claimed confidence, source or group: %+v", r)
		}
		c, ceil, b := *r.ClaimedConfidence, ceiling(r.Provenance), gross(r.Provenance)
		inflated := r.AttackClass == ConfidenceInflation.String() && r.Label == LabelPoison
		discounted := r.Construction == "discounted_overclaim"
		switch {
		case ceil == 0 || c < 0 || c > 1 || (c > b) != inflated:
			t.Errorf("%s %s row claims %v under a %s gross-overclaim boundary of %v", r.AttackClass, r.Label, c, r.Provenance, b)
		case !inflated && (c > ceil) != discounted:
			t.Errorf("%s %s %s row claims %v under a %s ceiling of %v", r.AttackClass, r.Label, r.Construction, c, r.Provenance, ceil)
		}
	}
	for _, r := range s.Grimoire {
		check(r, true)
	}
	for _, r := range s.Incoming() {
		check(r, false)
	}
}

// The contradicted mechanics are the shipped mental models.
func TestMechanicsAreShippedModels(t *testing.T) {
	ms, err := validate.ShippedModels()
	if err != nil {
		t.Fatal(err)
	}
	shipped := map[string]validate.Model{}
	for _, m := range ms {
		shipped[m.Statement] = m
	}
	for _, m := range mechanics {
		sm, ok := shipped[m.model]
		if !ok {
			t.Errorf("mechanic %q is not a shipped model", m.model)
			continue
		}
		directional := sm.Relation == validate.RelIncreases || sm.Relation == validate.RelDecreases
		if directional != (m.dir != 0) {
			t.Errorf("%q: relation %s, mechanic direction %d", m.model, sm.Relation, m.dir)
		}
	}
}

// What WriteDir writes is what `ward eval poisoning` reads.
func TestWriteDir(t *testing.T) {
	s := Generate(3)
	dir := t.TempDir()
	paths, err := s.WriteDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 1+len(s.Files) || filepath.Base(paths[0]) != SeedFile {
		t.Fatalf("wrote %v", paths)
	}
	seed, err := poisoning.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(seed) != len(s.Grimoire) || seed[0].Entry.Confidence == nil || seed[0].Entry.Content != s.Grimoire[0].Content {
		t.Errorf("seed file: %d rows, first %+v", len(seed), seed[0])
	}
	for i, f := range s.Files {
		rows, err := poisoning.ReadFile(paths[1+i])
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != len(f.Rows) {
			t.Fatalf("%s: read %d rows, wrote %d", paths[1+i], len(rows), len(f.Rows))
		}
		got, want := rows[0], f.Rows[0]
		if got.Entry.Content != want.Content || got.Label != want.Label || got.AttackClass != want.AttackClass ||
			got.Entry.Provenance != want.Provenance || *got.Entry.ClaimedConfidence != *want.ClaimedConfidence || got.Group != want.Group {
			t.Errorf("%s: first row read as %+v, written as %+v", paths[1+i], got, want)
		}
	}
}

func BenchmarkGenerate(b *testing.B) {
	for b.Loop() {
		Generate(1)
	}
}
