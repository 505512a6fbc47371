package poisoning

import (
	"strings"
	"testing"
)

func TestReadRowsStripsLabels(t *testing.T) {
	in := `{"content":"a","entry_type":"insight","label":"poison","attack_class":"minja","benchmark":"b","group":"g1","source":"s","trigger":"xyz","rationale":"r"}
{"content":"b","entry_type":"warning","label":"clean","group":"g2","claimed_confidence":0.4}
`
	rows, err := ReadRows(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].AttackClass != "minja" || rows[1].Entry.ClaimedConfidence == nil {
		t.Fatalf("rows %+v", rows)
	}
	// What the pipeline sees carries none of the data set's fields.
	b := rows[0].Entry
	if s := strings.Join([]string{b.Content, b.EntryType, b.Provenance}, "|"); strings.Contains(s, "minja") || strings.Contains(s, "xyz") {
		t.Errorf("entry %+v carries labels", b)
	}
	for _, bad := range []string{`{"content":"a"}`, `not json`, `{"content":"a","entry_type":"x","label":"maybe"}`} {
		if _, err := ReadRows(strings.NewReader("\n" + bad + "\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

// A held-out corpus's lines read as labelled rows, its notes and class
// never reaching the entry.
func TestReadRowsCorpusFormat(t *testing.T) {
	in := `{"id":"x1","class":"address_redirect","type":"insight","content":"a","confidence":0.55,"provenance":"self","notes":"look-alike"}
{"id":"x2","class":"clean","type":"warning","content":"b","confidence":0.4,"provenance":"clade","notes":"fine"}
`
	rows, err := ReadRows(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	a, b := rows[0], rows[1]
	if a.Label != "poison" || a.AttackClass != "address_redirect" || a.Entry.EntryType != "insight" || a.Entry.Provenance != "purchased" ||
		a.Entry.ClaimedConfidence == nil || *a.Entry.ClaimedConfidence != 0.55 || a.Entry.Confidence != nil {
		t.Errorf("poisoned row %+v (entry %+v)", a, a.Entry)
	}
	if b.Label != "clean" || b.AttackClass != "" || b.Entry.Provenance != "clade" || *b.Entry.ClaimedConfidence != 0.4 {
		t.Errorf("clean row %+v (entry %+v)", b, b.Entry)
	}
	if s := strings.Join([]string{a.Entry.Content, a.Entry.EntryType, a.Entry.Provenance}, "|"); strings.Contains(s, "look-alike") || strings.Contains(s, "redirect") {
		t.Errorf("entry %+v carries labels", a.Entry)
	}
}

func TestSplitKeepsGroupsTogether(t *testing.T) {
	var rows []Row
	for g := range 200 {
		for v := range 3 {
			rows = append(rows, Row{Label: "clean", Group: string(rune('A'+g%26)) + strings.Repeat("x", g), Entry: Entry{Content: strings.Repeat("c", v+1)}})
		}
	}
	rows = append(rows, Row{Label: "poison", Group: "p"})
	seed, incoming := Split(rows)
	side := map[string]bool{}
	for _, r := range seed {
		side[r.Group] = true
	}
	for _, r := range incoming {
		if side[r.Group] {
			t.Fatalf("group %q is on both sides", r.Group)
		}
	}
	if len(seed) < 200 || len(seed) > 400 {
		t.Errorf("seeded %d of 600 clean rows: the split is not about half", len(seed))
	}
	if incoming[len(incoming)-1].Label != "poison" {
		t.Error("a poison row was seeded")
	}
}

func TestScore(t *testing.T) {
	rows := []Row{
		{Label: "poison", AttackClass: "minja", Benchmark: "m"},
		{Label: "poison", AttackClass: "minja", Benchmark: "m"},
		{Label: "clean", Benchmark: "m"},
		{Label: "clean", Benchmark: "m"},
	}
	var rep Report
	if err := rep.Score(rows, []Outcome{{Caught: "stage1/ContentInjection"}, {Adopted: true}, {Adopted: true}, {Caught: "stage2/L1"}}); err != nil {
		t.Fatal(err)
	}
	rep.Finish()
	c := rep.Classes["minja"]
	if c.Poison != 2 || c.Missed != 1 || c.FNR != 0.5 || rep.Clean != 2 || rep.Flagged != 1 || rep.FPR != 0.5 {
		t.Errorf("report %+v, class %+v", rep, c)
	}
	if b := rep.Benchmarks["m"]; b.CaughtBy["stage1/ContentInjection"] != 1 || b.FlaggedBy["stage2/L1"] != 1 {
		t.Errorf("benchmark %+v", b)
	}
}
