package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/wardhq/ward/internal/eval/poisoning"
	"github.com/wardhq/ward/internal/validate"
)

const evalPoisoningHelp = `Scores knowledge ingestion on memory-poisoning data (for example
../shared/eval/poisoning). For each .jsonl file of DIR, half of its clean rows
(split by the hash of their group) seed a fresh Grimoire as the agent's own
knowledge, and the other clean half and every poison row are ingested at
the given strictness (default standard). An entry counts as caught when it
is not adopted.

Rows are JSON Lines with at least content and entry_type; provenance
(clade, purchased, cross_user; default purchased), claimed_confidence
(default 0.5) and, for Grimoire seeds, confidence (default 0.8) are
optional. Unsigned rows are signed with a key per source, registered as a
known identity. The fields that describe the data set (label, attack_class,
benchmark, group, construction, tags, source, rationale, and any other) are
read by the harness only and never reach the pipeline.

With --grimoire FILE --incoming FILE... the named files are scored instead of
DIR. --models FILE replaces the mental models shipped with ward. --json
prints one object: classes (per attack class: poison, missed, fnr), clean,
flagged, fpr, per benchmark the same when the rows name one, and layers:
per layer (content, confidence, oracle, immune, L1, L2, L3, L3b, sandbox,
...) the poison and clean rows it flagged (voted against, whether or not
that decided; poison_flagged, clean_flagged), the rows it kept out
(decided, clean_decided), the rows a Stage 2 layer voted on (poison_judged,
clean_judged) and per attack class its flagged and decided poison. The text
output shows the same as a table. --rows also carries each row's Stage 2
votes.`

func evalPoisoning(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "eval poisoning", "[DIR]", evalPoisoningHelp)
	asJSON := fs.Bool("json", false, "print one JSON object")
	level := fs.String("strictness", "standard", "consensus level: relaxed, standard, strict or paranoid")
	grimoire := fs.String("grimoire", "", "JSON Lines of the Grimoire's own knowledge (with --incoming)")
	var incoming stringList
	fs.Var(&incoming, "incoming", "JSON Lines of entries to ingest (repeatable; instead of DIR)")
	rowsPath := fs.String("rows", "", "also write each row's outcome (id, label, verdict, reasons, Stage 2 votes) as JSON Lines to `FILE`")
	modelsPath := fs.String("models", "", "JSON Lines of mental models (statement, subject, relation, object, conditions)")
	if st, ok := parseInterleaved(fs, args); !ok {
		return st
	}
	o := poisoning.Options{Sandbox: true} // this binary serves sandbox children (cmd/ward)
	if err := o.Strictness.UnmarshalText([]byte(*level)); err != nil {
		return usageErr(io, "--strictness: %v", err)
	}
	if *modelsPath != "" {
		ms, err := validate.ReadModelsFile(*modelsPath)
		if err != nil {
			return usageErr(io, "--models: %v", err)
		}
		o.Models = ms
	}
	var rep *poisoning.Report
	var err error
	switch {
	case len(incoming) > 0 && fs.NArg() == 0:
		rep, err = poisoning.RunFiles(ctx, *grimoire, incoming, o)
	case len(incoming) == 0 && *grimoire == "" && fs.NArg() == 1:
		rep, err = poisoning.RunDir(ctx, fs.Arg(0), o)
	default:
		return usageErr(io, "give a directory, or --incoming FILE... (with an optional --grimoire FILE)")
	}
	if err != nil {
		return fail(io, "%v", err)
	}
	if *rowsPath != "" {
		if err := writeRows(*rowsPath, rep); err != nil {
			return fail(io, "--rows: %v", err)
		}
	}
	if *asJSON {
		if err := json.NewEncoder(io.Out).Encode(rep); err != nil {
			return fail(io, "%v", err)
		}
		return exitOK
	}
	fmt.Fprintf(io.Out, "strictness %s\n%s", o.Strictness, rep.Text())
	return exitOK
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string { return fmt.Sprint(*l) }

func (l *stringList) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// writeRows writes rep's per-row outcomes to path.
func writeRows(path string, rep *poisoning.Report) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := rep.WriteRows(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
