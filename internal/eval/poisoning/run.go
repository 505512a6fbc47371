package poisoning

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/daemon"
	"github.com/wardhq/ward/internal/ingest"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/quarantine"
	"github.com/wardhq/ward/internal/validate"
	"github.com/wardhq/ward/internal/validate/reasoning"
)

// Options configure a scoring run.
type Options struct {
	// Strictness of consensus. The zero value is Paranoid, the strictest;
	// `ward eval poisoning` defaults to Standard, as the issue measures.
	Strictness knowledge.Strictness
	// Models are L3b's mental models; nil: the shipped ones.
	Models []validate.Model
	// Sandbox runs Stage 3 at strict and paranoid strictness (see
	// daemon.IngestConfig.Sandbox).
	Sandbox bool
	// Reasoner, if set, runs L2's LLM path on every file's pipeline; the
	// report then says what it cost and caught (Report.Reasoning).
	Reasoner *reasoning.Reasoner
}

// DefaultClaimedConfidence is what an incoming row without a
// claimed_confidence claims; DefaultSeedConfidence a Grimoire seed's own
// confidence without one.
const (
	DefaultClaimedConfidence = 0.5
	DefaultSeedConfidence    = 0.8
)

const chainID = 1

// Run seeds a fresh Grimoire with seed, ingests incoming one at a time and
// returns what happened to each incoming row.
func Run(ctx context.Context, seed, incoming []Row, o Options) ([]Outcome, error) {
	reg, err := quarantine.NewLocalRegistry()
	if err != nil {
		return nil, err
	}
	p, closeP, err := daemon.OpenIngest(ctx, daemon.IngestConfig{ChainID: chainID, Registry: reg, Strictness: o.Strictness, Models: o.Models, Sandbox: o.Sandbox,
		Reasoner: o.Reasoner})
	if err != nil {
		return nil, err
	}
	defer closeP()
	now := time.Now().UTC().Truncate(time.Second)
	var seeds []*knowledge.Entry
	for i, r := range seed {
		e, err := r.entry(fmt.Sprintf("seed-%d", i), knowledge.Self, now)
		if err != nil {
			return nil, err
		}
		e.Confidence = DefaultSeedConfidence
		if r.Entry.Confidence != nil {
			e.Confidence = *r.Entry.Confidence
		}
		if err := e.Validate(); err != nil {
			continue // a seed ward cannot hold (too long, say) is not knowledge it has
		}
		seeds = append(seeds, e)
	}
	if err := p.Grimoire().Seed(ctx, seeds); err != nil {
		return nil, err
	}
	sg := ingest.NewSigner(chainID, reg)
	out := make([]Outcome, len(incoming))
	for i, r := range incoming {
		e, err := r.entry(fmt.Sprintf("in-%d", i), knowledge.Purchased, now)
		if err != nil {
			return nil, err
		}
		// One key per source, the source's name never reaching the entry.
		source := r.Source
		if source == "" {
			source = "incoming"
		}
		if e.Source.Provenance.External() {
			if err := sg.Sign(e, source); err != nil {
				return nil, err
			}
		}
		rep, err := p.Ingest(ctx, e)
		if err != nil {
			return nil, err
		}
		out[i] = outcome(rep)
	}
	return out, nil
}

// entry builds what the pipeline sees of a row.
func (r Row) entry(id string, def knowledge.Provenance, now time.Time) (*knowledge.Entry, error) {
	var typ knowledge.EntryType
	if err := typ.UnmarshalText([]byte(r.Entry.EntryType)); err != nil {
		return nil, fmt.Errorf("line %d: entry_type: %w", r.Line, err)
	}
	pv := def
	if r.Entry.Provenance != "" {
		if err := pv.UnmarshalText([]byte(r.Entry.Provenance)); err != nil {
			return nil, fmt.Errorf("line %d: provenance: %w", r.Line, err)
		}
	}
	conf := DefaultClaimedConfidence
	if r.Entry.ClaimedConfidence != nil {
		conf = *r.Entry.ClaimedConfidence
	}
	return &knowledge.Entry{ID: id, Content: r.Entry.Content, Type: typ, Confidence: conf,
		Source: knowledge.Source{Provenance: pv, Timestamp: now}}, nil
}

func outcome(r *ingest.Report) Outcome {
	// A confirmation passed consensus too: its content is in the Grimoire,
	// as the entry it confirmed.
	if r.Verdict == ingest.Adopted || r.Verdict == ingest.Confirmed {
		return Outcome{Adopted: true, Reasons: r.Reasons, Votes: r.Votes}
	}
	by, decider := string(r.Stage), string(r.Stage)
	if r.Layer != knowledge.NoLayer {
		by += "/" + r.Layer.String()
		decider = r.Layer.String()
	}
	return Outcome{Caught: by, Reasons: r.Reasons, Decider: decider, Votes: r.Votes}
}

// RunDir scores every JSON Lines file of dir: per file, half of its clean
// rows seed a fresh Grimoire and the rest are ingested.
func RunDir(ctx context.Context, dir string, o Options) (*Report, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s holds no .jsonl files", dir)
	}
	sort.Strings(files)
	rep := &Report{}
	for _, f := range files {
		rows, err := ReadFile(f)
		if err != nil {
			return nil, err
		}
		seed, incoming := Split(rows)
		out, err := Run(ctx, seed, incoming, o)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		rep.Seeded += len(seed)
		if err := rep.Score(incoming, out); err != nil {
			return nil, err
		}
	}
	rep.Finish()
	rep.reasoned(o.Reasoner)
	return rep, nil
}

// RunFiles scores explicit inputs: grimoire rows seed one Grimoire, every
// incoming file's rows are ingested into it. Rows without labels count
// neither way.
func RunFiles(ctx context.Context, grimoire string, incoming []string, o Options) (*Report, error) {
	var seed []Row
	if grimoire != "" {
		var err error
		if seed, err = ReadFile(grimoire); err != nil {
			return nil, err
		}
	}
	var rows []Row
	for _, f := range incoming {
		rs, err := ReadFile(f)
		if err != nil {
			return nil, err
		}
		rows = append(rows, rs...)
	}
	out, err := Run(ctx, seed, rows, o)
	if err != nil {
		return nil, err
	}
	rep := &Report{Seeded: len(seed)}
	if err := rep.Score(rows, out); err != nil {
		return nil, err
	}
	rep.Finish()
	rep.reasoned(o.Reasoner)
	return rep, nil
}

// Text renders the report for a terminal.
func (rep *Report) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-24s %7s %7s %7s   caught by\n", "attack class", "poison", "missed", "FNR")
	for _, n := range Names(rep.Classes) {
		c := rep.Classes[n]
		fmt.Fprintf(&b, "%-24s %7d %7d %6.1f%%   %s\n", n, c.Poison, c.Missed, 100*c.FNR, by(c.CaughtBy))
	}
	fmt.Fprintf(&b, "clean: %d ingested, %d flagged, FPR %.1f%% (%d seeded the Grimoires)\n", rep.Clean, rep.Flagged, 100*rep.FPR, rep.Seeded)
	b.WriteString(rep.Reasoning.text())
	if len(rep.Layers) > 0 {
		fmt.Fprintf(&b, "\nper layer: flagged = voted or decided against; decided = kept the entry out; judged = Stage 2 votes cast\n")
		fmt.Fprintf(&b, "%-12s %14s %14s %8s %14s %14s   poison flagged/decided by class\n", "layer", "poison flagged", "clean flagged", "decided", "clean decided", "judged p/c")
		for _, n := range Names(rep.Layers) {
			l := rep.Layers[n]
			judged := "-"
			if l.PoisonJudged+l.CleanJudged > 0 {
				judged = fmt.Sprintf("%d/%d", l.PoisonJudged, l.CleanJudged)
			}
			var cl []string
			for _, c := range Names(l.Classes) {
				cl = append(cl, fmt.Sprintf("%s %d/%d", c, l.Classes[c].Flagged, l.Classes[c].Decided))
			}
			classes := "-"
			if len(cl) > 0 {
				classes = strings.Join(cl, ", ")
			}
			fmt.Fprintf(&b, "%-12s %14d %14d %8d %14d %14s   %s\n", n, l.PoisonFlagged, l.CleanFlagged, l.Decided, l.CleanDecided, judged, classes)
		}
	}
	if len(rep.Benchmarks) > 0 {
		fmt.Fprintf(&b, "\n%-16s %7s %7s %7s %7s %8s %7s   caught by / flagged by\n", "benchmark", "poison", "missed", "FNR", "clean", "flagged", "FPR")
		for _, n := range Names(rep.Benchmarks) {
			c := rep.Benchmarks[n]
			fmt.Fprintf(&b, "%-16s %7d %7d %6.1f%% %7d %8d %6.1f%%   %s / %s\n", n, c.Poison, c.Missed, 100*c.FNR, c.Clean, c.Flagged, 100*c.FPR, by(c.CaughtBy), by(c.FlaggedBy))
		}
	}
	return b.String()
}

func by(m map[string]int) string {
	if len(m) == 0 {
		return "-"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}
