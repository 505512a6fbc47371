package cli

import (
	"bufio"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/daemon"
	"github.com/wardhq/ward/internal/ingest"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/quarantine"
	"github.com/wardhq/ward/internal/validate"
)

const ingestHelp = `Runs knowledge entries (JSON Lines) through the ingestion pipeline:
the poison oracle, immune memory, Stage 1 (EIP-712 provenance, content
screen, confidence ceiling, embedding check) and Stage 2 consensus, and
prints one report per entry: verdict, the stage and layer that decided,
scores and reasons.

Each line is an object: content and entry_type (insight, heuristic,
warning, strategy_fragment, causal_link) and claimed_confidence are
required; provenance (purchased, clade, cross_user; default purchased),
id, agent, signature (hex of the 65-byte r, s, v), timestamp (RFC 3339),
on_chain_anchor, listing_id, clade_id, embedding, claim and heuristic are
optional.

With --sign (the default), an unsigned line is signed in this process with
a key generated per source (its agent field, or else its provenance, names
the source) and that key's address is registered in the local identity
registry: what the eval harness does to stand in for real authors. Lines
that carry a signature are verified as they are; their agents must be listed
in --registry. With --sign=false an unsigned external line needs an agent
address and is rejected as a forgery.

The store is a fresh SQLite database in a temporary directory unless --db
names one. The oracle and immune memory start empty. Stage 2 runs its three
layers (L1 embedding anomaly, L2 claim divergence, L3b mental models: the
shipped ones unless --models names a file) and adopts an entry when the
strictness level's number of layers pass it. L3 checks what entries say
addresses are against the address book ward serve uses: the shipped one
with the tokens and contracts of ward.toml's [[chain]] tables (--config, or
./ward.toml if present) over it.

A malformed line is reported with its line number and nothing is ingested.`

// ingestRow is one input line.
type ingestRow struct {
	ID         string               `json:"id"`
	Content    string               `json:"content"`
	Type       knowledge.EntryType  `json:"entry_type"`
	Provenance knowledge.Provenance `json:"provenance"`
	Confidence *float64             `json:"claimed_confidence"`
	Agent      string               `json:"agent"`
	Signature  string               `json:"signature"`
	Timestamp  time.Time            `json:"timestamp"`
	Anchor     string               `json:"on_chain_anchor"`
	ListingID  string               `json:"listing_id"`
	CladeID    string               `json:"clade_id"`
	Embedding  []float32            `json:"embedding"`
	Claim      *knowledge.Claim     `json:"claim"`
	Heuristic  *knowledge.Heuristic `json:"heuristic"`
}

// readEntries reads JSON Lines entries; sg, if not nil, signs unsigned
// external ones. Every error names its line.
func readEntries(r io.Reader, def knowledge.Provenance, now time.Time, sg *ingest.Signer) ([]*knowledge.Entry, error) {
	var out []*knowledge.Entry
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		e, err := rowEntry([]byte(line), n, def, now, sg)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

func rowEntry(line []byte, n int, def knowledge.Provenance, now time.Time, sg *ingest.Signer) (*knowledge.Entry, error) {
	var row ingestRow
	dec := json.NewDecoder(strings.NewReader(string(line)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&row); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("more than one JSON value")
	}
	switch {
	case row.Content == "":
		return nil, errors.New("content is required")
	case row.Type == 0:
		return nil, errors.New("entry_type is required")
	case row.Confidence == nil:
		return nil, errors.New("claimed_confidence is required")
	}
	if row.Provenance == 0 {
		row.Provenance = def
	}
	if row.ID == "" {
		row.ID = fmt.Sprintf("line-%d", n)
	}
	if row.Timestamp.IsZero() {
		row.Timestamp = now
	}
	e := &knowledge.Entry{ID: row.ID, Content: row.Content, Type: row.Type, Confidence: *row.Confidence,
		Embedding: row.Embedding, Claim: row.Claim, Heuristic: row.Heuristic,
		Source: knowledge.Source{Provenance: row.Provenance, Agent: row.Agent, Anchor: row.Anchor,
			ListingID: row.ListingID, CladeID: row.CladeID, Timestamp: row.Timestamp}}
	if row.Signature != "" {
		sig, err := hex.DecodeString(strings.TrimPrefix(row.Signature, "0x"))
		if err != nil {
			return nil, fmt.Errorf("signature is not hex: %w", err)
		}
		e.Source.Signature = sig
	} else if sg != nil && row.Provenance.External() {
		label := row.Agent
		if label == "" {
			label = row.Provenance.String()
		}
		if err := sg.Sign(e, label); err != nil {
			return nil, fmt.Errorf("sign: %w", err)
		}
	}
	if err := e.Validate(); err != nil {
		return nil, err
	}
	return e, nil
}

func ingestCmd(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "ingest", "FILE.jsonl", ingestHelp)
	level := fs.String("strictness", "standard", "consensus level: relaxed (1 of 3), standard (2), strict or paranoid (3)")
	seedPath := fs.String("grimoire", "", "JSON Lines of the Grimoire's own knowledge to validate against (provenance defaults to self)")
	asJSON := fs.Bool("json", false, "print one JSON report per entry")
	batch := fs.Bool("batch", false, "validate the file as one batch: cluster the entries, validate representatives fully and propagate their verdicts")
	sign := fs.Bool("sign", true, "sign unsigned lines with a per-source key generated in this process and register it")
	dbPath := fs.String("db", "", "SQLite database to use (default: a fresh one in a temporary directory)")
	regPath := fs.String("registry", "", "identity registry: a file of agent addresses, one per line")
	chainID := fs.Uint64("chain-id", 1, "chain id of the EIP-712 signing domain")
	modelsPath := fs.String("models", "", "JSON Lines of mental models for L3b (default: the ones shipped with ward)")
	cfgPath := fs.String("config", "", "ward.toml whose address book (the shipped one with its [[chain]] entries over it) L3 checks against, as ward serve does (default: ./ward.toml if present, else the shipped book)")
	if st, ok := parseInterleaved(fs, args); !ok {
		return st
	}
	if fs.NArg() != 1 {
		return usageErr(io, "give one JSON Lines file of entries")
	}
	var strictness knowledge.Strictness
	if err := strictness.UnmarshalText([]byte(*level)); err != nil {
		return usageErr(io, "--strictness: %v", err)
	}
	f, err := loadConfig(*cfgPath)
	if err != nil {
		return usageErr(io, "%v", err)
	}
	reg, code := openIdentityRegistry(io, *regPath)
	if reg == nil {
		return code
	}
	var sg *ingest.Signer
	if *sign {
		sg = ingest.NewSigner(*chainID, reg)
	}
	in, err := readIngestInputs(fs.Arg(0), *seedPath, *modelsPath, sg)
	if err != nil {
		return usageErr(io, "%v", err)
	}
	p, closeP, err := daemon.OpenIngest(ctx, daemon.IngestConfig{DB: *dbPath, ChainID: *chainID, Registry: reg,
		Strictness: strictness, Models: in.models, Sandbox: true, Book: f.Book})
	if err != nil {
		return fail(io, "%v", err)
	}
	defer closeP()
	if err := p.Grimoire().Seed(ctx, in.seed); err != nil {
		return fail(io, "--grimoire: %v", err)
	}
	reports, err := ingestEntries(ctx, p, in.entries, *batch)
	if err != nil {
		return fail(io, "%v", err)
	}
	return printIngestReports(io, reports, len(in.entries), strictness, *asJSON)
}

// openIdentityRegistry is the identity registry ingest checks signers
// against: the file of agent addresses at path, else an empty one. On
// failure it has printed why and returns nil and the exit status.
func openIdentityRegistry(io IO, path string) (*quarantine.LocalRegistry, int) {
	reg, err := quarantine.NewLocalRegistry()
	if err != nil {
		return nil, fail(io, "%v", err)
	}
	if path == "" {
		return reg, exitOK
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, usageErr(io, "%v", err)
	}
	reg, err = quarantine.ReadLocalRegistry(f)
	f.Close()
	if err != nil {
		return nil, usageErr(io, "%s: %v", path, err)
	}
	return reg, exitOK
}

// ingestInputs are the files ward ingest reads before it opens the
// pipeline.
type ingestInputs struct {
	entries []*knowledge.Entry // to ingest (provenance defaults to purchased)
	seed    []*knowledge.Entry // the Grimoire's own knowledge (provenance defaults to self)
	models  []validate.Model   // mental models for L3b; nil: the shipped ones
}

// readIngestInputs reads the entries at path (signing unsigned external
// ones with sg, if not nil), the seed at seedPath and the mental models
// at modelsPath ("": none, or the shipped models); the error names the
// flag of the file it is about.
func readIngestInputs(path, seedPath, modelsPath string, sg *ingest.Signer) (ingestInputs, error) {
	var in ingestInputs
	now := time.Now().UTC().Truncate(time.Second)
	var err error
	if in.entries, err = readFileEntries(path, knowledge.Purchased, now, sg); err != nil {
		return in, err
	}
	if seedPath != "" {
		if in.seed, err = readFileEntries(seedPath, knowledge.Self, now, nil); err != nil {
			return in, fmt.Errorf("--grimoire: %w", err)
		}
	}
	if modelsPath != "" {
		if in.models, err = validate.ReadModelsFile(modelsPath); err != nil {
			return in, fmt.Errorf("--models: %w", err)
		}
	}
	return in, nil
}

// ingestEntries runs entries through p, one by one or, with batch, as one
// batch, and returns a report per entry.
func ingestEntries(ctx context.Context, p *ingest.Pipeline, entries []*knowledge.Entry, batch bool) ([]*ingest.Report, error) {
	if batch {
		return p.IngestBatch(ctx, entries)
	}
	var reports []*ingest.Report
	for _, e := range entries {
		r, err := p.Ingest(ctx, e)
		if err != nil {
			return nil, err
		}
		reports = append(reports, r)
	}
	return reports, nil
}

// printIngestReports prints a line per report and the counts of verdicts
// over the n entries or, with asJSON, one JSON report per entry.
func printIngestReports(io IO, reports []*ingest.Report, n int, strictness knowledge.Strictness, asJSON bool) int {
	enc := json.NewEncoder(io.Out)
	counts := map[ingest.Verdict]int{}
	for _, r := range reports {
		counts[r.Verdict]++
		if asJSON {
			if err := enc.Encode(r); err != nil {
				return fail(io, "%v", err)
			}
			continue
		}
		fmt.Fprintln(io.Out, reportLine(r))
	}
	if !asJSON {
		fmt.Fprintf(io.Out, "%d entries (%s): %d adopted, %d rejected, %d quarantined%s\n", n, strictness,
			counts[ingest.Adopted], counts[ingest.Rejected], counts[ingest.Quarantined], confirmedCount(counts[ingest.Confirmed]))
	}
	return exitOK
}

func readFileEntries(path string, def knowledge.Provenance, now time.Time, sg *ingest.Signer) ([]*knowledge.Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	es, err := readEntries(f, def, now, sg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return es, nil
}

// reportLine prints a report on one line: id, verdict, where it was
// decided, the attack, scores and reasons.
func reportLine(r *ingest.Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s at %s", r.EntryID, r.Verdict, r.Stage)
	if r.Layer != knowledge.NoLayer {
		fmt.Fprintf(&b, "/%s", r.Layer)
	}
	if r.Attack != knowledge.NoAttack {
		fmt.Fprintf(&b, " attack=%s", r.Attack)
	}
	if r.Verdict == ingest.Adopted {
		fmt.Fprintf(&b, " confidence=%.2f", r.Confidence)
	}
	keys := make([]string, 0, len(r.Scores))
	for k := range r.Scores {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%.3g", k, r.Scores[k])
	}
	if len(r.Flags) > 0 {
		fmt.Fprintf(&b, " flags=%s", strings.Join(r.Flags, ","))
	}
	fmt.Fprintf(&b, ": %s", strings.Join(r.Reasons, "; "))
	return b.String()
}

// confirmedCount is the summary's mention of entries that confirmed
// adopted knowledge instead of being adopted again, when there are any.
func confirmedCount(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(", %d confirmed", n)
}
