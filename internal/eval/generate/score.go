package generate

import (
	"context"
	"fmt"

	"github.com/wardhq/ward/internal/eval/poisoning"
	"github.com/wardhq/ward/internal/knowledge"
)

// GateSeed is the seed of the suite the regression gate scores.
const GateSeed = 1

// Result is a suite's score at Standard strictness.
type Result struct {
	// FNR is per attack class the share of its poison that was adopted.
	FNR map[string]float64 `json:"fnr"`
	// FPR is the share of every clean counterpart that was not adopted;
	// ClassFPR the same per class.
	FPR      float64            `json:"fpr"`
	ClassFPR map[string]float64 `json:"class_fpr"`
	// Report is the harness's full report (counts, catching layers).
	Report *poisoning.Report `json:"-"`
}

// Score runs s through a fresh pipeline at Standard strictness, exactly as
// `ward eval poisoning --grimoire seed.jsonl --incoming <class>.jsonl ...`
// does with the files WriteDir writes: the Grimoire rows seed it, then
// every class's rows are ingested one at a time, in order. An error means
// the pipeline could not run.
func Score(ctx context.Context, s *Suite) (*Result, error) {
	seed := harnessRows(s.Grimoire)
	incoming := harnessRows(s.Incoming())
	out, err := poisoning.Run(ctx, seed, incoming, poisoning.Options{Strictness: knowledge.Standard})
	if err != nil {
		return nil, fmt.Errorf("generate: score: %w", err)
	}
	rep := &poisoning.Report{Seeded: len(seed)}
	if err := rep.Score(incoming, out); err != nil {
		return nil, fmt.Errorf("generate: score: %w", err)
	}
	rep.Finish()
	res := &Result{FNR: map[string]float64{}, FPR: rep.FPR, ClassFPR: map[string]float64{}, Report: rep}
	for _, c := range Classes() {
		if k := rep.Classes[c.String()]; k != nil {
			res.FNR[c.String()] = k.FNR
		}
		if b := rep.Benchmarks[benchmark(c)]; b != nil {
			res.ClassFPR[c.String()] = b.FPR
		}
	}
	return res, nil
}

func benchmark(c Class) string { return "generated/" + c.String() }

// harnessRows converts generated rows to the harness's.
func harnessRows(rows []Row) []poisoning.Row {
	out := make([]poisoning.Row, len(rows))
	for i, r := range rows {
		out[i] = poisoning.Row{Line: i + 1, ID: r.Group, Label: r.Label, AttackClass: r.AttackClass, Benchmark: r.Benchmark,
			Group: r.Group, Source: r.Source,
			Entry: poisoning.Entry{Content: r.Content, EntryType: r.EntryType, Provenance: r.Provenance,
				ClaimedConfidence: r.ClaimedConfidence, Confidence: r.Confidence}}
	}
	return out
}
