// Package poisoning scores knowledge ingestion on memory-poisoning data:
// entries from published attacks (AgentPoison, MINJA, MemoryGraft,
// PoisonedRAG, CrAIBench, ...) and their clean counterparts. For each file
// it seeds a fresh Grimoire with half of the clean rows (split by the hash
// of their group), ingests the other clean half and every poison row at
// Standard strictness, and counts what was caught: an entry is caught when
// it is not adopted. Per layer it counts what each flagged, whether or not
// its flag decided: the check or stage that kept an entry out, and every
// Stage 2 layer that voted against it (Report.Layers).
//
// The rows' labels and the fields that describe the data set (label,
// attack_class, benchmark, group, construction, tags, source, rationale, and
// every per-source metadata key) are read by the harness only: an entry
// reaches the pipeline with its content, entry type, provenance, claimed
// confidence and generation, and nothing else.
package poisoning

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/wardhq/ward/internal/ingest"
)

// Row is one input line: what the pipeline may see (Entry) and what only
// the harness reads (the labels).
type Row struct {
	Line  int
	ID    string // the row's id, if any
	Entry Entry
	// Labels, never passed on.
	Label       string // clean or poison; empty for explicit inputs
	AttackClass string
	Benchmark   string
	Group       string
	Source      string
}

// Entry is the part of a row the pipeline sees.
type Entry struct {
	Content           string   `json:"content"`
	EntryType         string   `json:"entry_type"`
	Provenance        string   `json:"provenance,omitempty"`
	ClaimedConfidence *float64 `json:"claimed_confidence,omitempty"`
	Generation        int      `json:"generation,omitempty"`
	// Confidence is a Grimoire seed's own confidence.
	Confidence *float64 `json:"confidence,omitempty"`
}

// maxLine bounds one input line.
const maxLine = 1 << 20

// ReadRows reads JSON Lines rows. A line that is not a JSON object with a
// content and an entry type is an error naming the line; nothing is
// returned then.
func ReadRows(r io.Reader) ([]Row, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	var rows []Row
	n := 0
	for sc.Scan() {
		n++
		b := sc.Bytes()
		if len(b) == 0 {
			continue
		}
		var raw struct {
			Entry
			ID          string `json:"id"`
			Label       string `json:"label"`
			AttackClass string `json:"attack_class"`
			Benchmark   string `json:"benchmark"`
			Group       string `json:"group"`
			Source      string `json:"source"`
			// The held-out corpora's format (testdata/heldout/*/README.md).
			Class string `json:"class"`
			Type  string `json:"type"`
		}
		if err := json.Unmarshal(b, &raw); err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		if raw.Class != "" {
			corpusRow(&raw.Entry, &raw.Label, &raw.AttackClass, raw.Class, raw.Type)
		}
		if raw.Content == "" || raw.EntryType == "" {
			return nil, fmt.Errorf("line %d: an entry needs content and entry_type", n)
		}
		if raw.Label != "" && raw.Label != "clean" && raw.Label != "poison" {
			return nil, fmt.Errorf("line %d: label %q is neither clean nor poison", n, raw.Label)
		}
		rows = append(rows, Row{Line: n, ID: raw.ID, Entry: raw.Entry, Label: raw.Label, AttackClass: raw.AttackClass,
			Benchmark: raw.Benchmark, Group: raw.Group, Source: raw.Source})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", n+1, err)
	}
	return rows, nil
}

// corpusRow reads a line of a held-out corpus (fields id, class, type,
// content, confidence, provenance, notes) as a row: class "clean" is the
// label clean, any other class the label poison with that attack class;
// type is the entry type; confidence is what the entry claims; and self
// provenance, which ingestion refuses (the agent's own knowledge does not
// enter quarantine), is ingested as purchased, as the corpora's baselines
// were measured. Fields a row states in this package's own format win.
func corpusRow(e *Entry, label, attack *string, class, typ string) {
	if *label == "" {
		*label = "poison"
		if class == "clean" {
			*label = "clean"
		} else if *attack == "" {
			*attack = class
		}
	}
	if e.EntryType == "" {
		e.EntryType = typ
	}
	if e.ClaimedConfidence == nil {
		e.ClaimedConfidence, e.Confidence = e.Confidence, nil
	}
	if e.Provenance == "self" {
		e.Provenance = "purchased"
	}
}

// ReadFile reads a JSON Lines file of rows.
func ReadFile(path string) ([]Row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := ReadRows(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rows, nil
}

// Split seeds half of the clean rows (by the hash of their group, so that
// paraphrases of one target stay on one side) and returns the seed and the
// rows to ingest: the other clean half and every poison row.
func Split(rows []Row) (seed, incoming []Row) {
	for _, r := range rows {
		if r.Label == "clean" && seedSide(r) {
			seed = append(seed, r)
		} else {
			incoming = append(incoming, r)
		}
	}
	return seed, incoming
}

func seedSide(r Row) bool {
	key := r.Group
	if key == "" {
		key = r.Entry.Content
	}
	h := sha256.Sum256([]byte("ward/poisoning/split\x00" + key))
	return binary.BigEndian.Uint64(h[:8])%2 == 0
}

// Outcome is what ingestion did with one row.
type Outcome struct {
	Adopted bool
	// Caught names the stage and layer that stopped the entry ("stage1/
	// ContentInjection", "stage2/L2", "oracle", ...); empty when adopted.
	Caught string
	// Reasons are the pipeline's reasons for its verdict.
	Reasons []string
	// Decider names the layer (or, without one, the stage: oracle,
	// immune) whose decision kept the entry out; empty when adopted.
	Decider string
	// Votes are the entry's Stage 2 votes, every layer that voted.
	Votes []ingest.Vote
}

// flaggers returns the layers that held o against its entry: the one that
// decided, and every Stage 2 layer that voted against it, each once.
func (o Outcome) flaggers() []string {
	var out []string
	if o.Decider != "" {
		out = append(out, o.Decider)
	}
	for _, v := range o.Votes {
		if n := v.Layer.String(); !v.Pass && !v.Skipped && n != o.Decider {
			out = append(out, n)
		}
	}
	return out
}

// Counts are a score over rows.
type Counts struct {
	Poison  int     `json:"poison"`
	Missed  int     `json:"missed"`
	FNR     float64 `json:"fnr"`
	Clean   int     `json:"clean"`
	Flagged int     `json:"flagged"`
	FPR     float64 `json:"fpr"`
	// CaughtBy counts the poison stopped by each stage or layer.
	CaughtBy map[string]int `json:"caught_by,omitempty"`
	// FlaggedBy counts the clean rows stopped by each stage or layer.
	FlaggedBy map[string]int `json:"flagged_by,omitempty"`
}

func (c *Counts) add(r Row, o Outcome) {
	switch r.Label {
	case "poison":
		c.Poison++
		if o.Adopted {
			c.Missed++
		} else {
			if c.CaughtBy == nil {
				c.CaughtBy = map[string]int{}
			}
			c.CaughtBy[o.Caught]++
		}
	case "clean":
		c.Clean++
		if !o.Adopted {
			c.Flagged++
			if c.FlaggedBy == nil {
				c.FlaggedBy = map[string]int{}
			}
			c.FlaggedBy[o.Caught]++
		}
	}
}

func (c *Counts) finish() {
	if c.Poison > 0 {
		c.FNR = float64(c.Missed) / float64(c.Poison)
	}
	if c.Clean > 0 {
		c.FPR = float64(c.Flagged) / float64(c.Clean)
	}
}

// Report is what `ward eval poisoning --json` prints: per attack class the
// poison counts, the clean rows' false positives overall, and the same per
// benchmark when the input names benchmarks.
type Report struct {
	Classes    map[string]*Counts `json:"classes"`
	Clean      int                `json:"clean"`
	Flagged    int                `json:"flagged"`
	FPR        float64            `json:"fpr"`
	Benchmarks map[string]*Counts `json:"benchmarks,omitempty"`
	// Layers are per layer (content, confidence, oracle, immune, L1, L2,
	// L3, L3b, sandbox, ...) the rows it flagged and decided.
	Layers map[string]*LayerCounts `json:"layers"`
	// Seeded is how many clean rows seeded the Grimoires.
	Seeded int `json:"seeded"`
	// Reasoning is L2's LLM path, when the run had one.
	Reasoning *Reasoning `json:"reasoning,omitempty"`

	rows []RowOutcome
}

// LayerCounts score one layer. A layer flags a row when it votes against
// it (a failing, not skipped, Stage 2 vote) or decides against it (the
// check, stage or layer that kept it out), whether or not its flag decided.
// Judged counts the rows a Stage 2 layer voted on without skipping; the
// checks before Stage 2 stop at their first failure, so their judged counts
// are not known and stay zero.
type LayerCounts struct {
	PoisonFlagged int `json:"poison_flagged"`
	CleanFlagged  int `json:"clean_flagged"`
	// Decided counts the rows kept out by this layer's decision, poison
	// and clean; CleanDecided the clean ones (its false positives).
	Decided      int `json:"decided"`
	CleanDecided int `json:"clean_decided"`
	PoisonJudged int `json:"poison_judged,omitempty"`
	CleanJudged  int `json:"clean_judged,omitempty"`
	// Classes are per attack class the poison rows flagged and decided.
	Classes map[string]*LayerClass `json:"classes,omitempty"`
}

// LayerClass is one layer's score on one attack class's poison.
type LayerClass struct {
	Flagged int `json:"flagged"`
	Decided int `json:"decided"`
}

func (rep *Report) layer(name string) *LayerCounts {
	if rep.Layers == nil {
		rep.Layers = map[string]*LayerCounts{}
	}
	l := rep.Layers[name]
	if l == nil {
		l = &LayerCounts{}
		rep.Layers[name] = l
	}
	return l
}

// countLayers adds row r's outcome o to the per-layer counts.
func (rep *Report) countLayers(r Row, class string, o Outcome) {
	if r.Label != "poison" && r.Label != "clean" {
		return
	}
	poison := r.Label == "poison"
	for _, v := range o.Votes {
		if v.Skipped {
			continue
		}
		l := rep.layer(v.Layer.String())
		if poison {
			l.PoisonJudged++
		} else {
			l.CleanJudged++
		}
	}
	for _, n := range o.flaggers() {
		l := rep.layer(n)
		decided := n == o.Decider
		if decided {
			l.Decided++
		}
		if !poison {
			l.CleanFlagged++
			if decided {
				l.CleanDecided++
			}
			continue
		}
		l.PoisonFlagged++
		if l.Classes == nil {
			l.Classes = map[string]*LayerClass{}
		}
		c := l.Classes[class]
		if c == nil {
			c = &LayerClass{}
			l.Classes[class] = c
		}
		c.Flagged++
		if decided {
			c.Decided++
		}
	}
}

// RowOutcome is one scored row, for WriteRows.
type RowOutcome struct {
	ID          string   `json:"id,omitempty"`
	Line        int      `json:"line"`
	Label       string   `json:"label,omitempty"`
	AttackClass string   `json:"attack_class,omitempty"`
	Benchmark   string   `json:"benchmark,omitempty"`
	Adopted     bool     `json:"adopted"`
	Caught      string   `json:"caught,omitempty"`
	Reasons     []string `json:"reasons,omitempty"`
	// Votes are the row's Stage 2 votes.
	Votes []ingest.Vote `json:"votes,omitempty"`
}

// WriteRows writes one JSON line per scored row: its id, label and what
// ingestion did with it, with the pipeline's reasons and Stage 2 votes.
func (rep *Report) WriteRows(w io.Writer) error {
	enc := json.NewEncoder(w)
	for _, r := range rep.rows {
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return nil
}

// Score adds a file's outcomes to the report.
func (rep *Report) Score(rows []Row, outcomes []Outcome) error {
	if len(rows) != len(outcomes) {
		return errors.New("poisoning: a row without its outcome")
	}
	if rep.Classes == nil {
		rep.Classes = map[string]*Counts{}
	}
	for i, r := range rows {
		o := outcomes[i]
		rep.rows = append(rep.rows, RowOutcome{ID: r.ID, Line: r.Line, Label: r.Label, AttackClass: r.AttackClass,
			Benchmark: r.Benchmark, Adopted: o.Adopted, Caught: o.Caught, Reasons: o.Reasons, Votes: o.Votes})
		class := r.AttackClass
		if class == "" {
			class = "unlabelled"
		}
		rep.countLayers(r, class, o)
		if r.Label == "poison" {
			c := rep.Classes[class]
			if c == nil {
				c = &Counts{}
				rep.Classes[class] = c
			}
			c.add(r, o)
		}
		if r.Label == "clean" {
			rep.Clean++
			if !o.Adopted {
				rep.Flagged++
			}
		}
		if r.Benchmark != "" {
			if rep.Benchmarks == nil {
				rep.Benchmarks = map[string]*Counts{}
			}
			c := rep.Benchmarks[r.Benchmark]
			if c == nil {
				c = &Counts{}
				rep.Benchmarks[r.Benchmark] = c
			}
			c.add(r, o)
		}
	}
	return nil
}

// Finish computes the rates.
func (rep *Report) Finish() {
	if rep.Layers == nil {
		rep.Layers = map[string]*LayerCounts{}
	}
	for _, c := range rep.Classes {
		c.finish()
	}
	for _, c := range rep.Benchmarks {
		c.finish()
	}
	if rep.Clean > 0 {
		rep.FPR = float64(rep.Flagged) / float64(rep.Clean)
	}
}

// Names returns a map's keys in order.
func Names[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
