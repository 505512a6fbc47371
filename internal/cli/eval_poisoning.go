package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/daemon"
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
read by the harness only and never reach the pipeline. Lines of the
held-out corpora's format (testdata/heldout/*/README.md: id, class, type,
content, confidence, provenance, notes) are read too: class is the label
and attack class, confidence the claim, and self provenance, which
ingestion refuses, is ingested as purchased.

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
votes.

--reasoning URL runs L2's LLM path against an OpenAI-compatible
chat-completions API at base URL (e.g. http://localhost:8080/v1), as
[grimoire.reasoning] does for ward serve; the flags mirror its keys
(--reasoning-model, --reasoning-api-key-env, --reasoning-timeout,
--reasoning-k, --reasoning-threshold, --reasoning-judge, and
--reasoning-second URL with --reasoning-second-model and
--reasoning-second-api-key-env for a second provider running the augmented
path). The report then says where it ran and what it did (--json:
reasoning: endpoint, model, providers, entries, skipped, calls, errors,
failed, and alone: the failed entries whose claims L2's deterministic
comparison passed, what only the model saw). An entry the model could not decide stays in quarantine and counts
as caught by stage2/L2: read errors before reading the rates.`

func evalPoisoning(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "eval poisoning", "[DIR]", evalPoisoningHelp)
	asJSON := fs.Bool("json", false, "print one JSON object")
	level := fs.String("strictness", "standard", "consensus level: relaxed, standard, strict or paranoid")
	grimoire := fs.String("grimoire", "", "JSON Lines of the Grimoire's own knowledge (with --incoming)")
	var incoming stringList
	fs.Var(&incoming, "incoming", "JSON Lines of entries to ingest (repeatable; instead of DIR)")
	rowsPath := fs.String("rows", "", "also write each row's outcome (id, label, verdict, reasons, Stage 2 votes) as JSON Lines to `FILE`")
	modelsPath := fs.String("models", "", "JSON Lines of mental models (statement, subject, relation, object, conditions)")
	var rf reasoningFlags
	rf.register(fs)
	if st, ok := parseInterleaved(fs, args); !ok {
		return st
	}
	o := poisoning.Options{Sandbox: true} // this binary serves sandbox children (cmd/ward)
	if err := rf.setReasoner(&o); err != nil {
		return usageErr(io, "%v", err)
	}
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
	var (
		rep *poisoning.Report
		err error
	)
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

// reasoningFlags are [grimoire.reasoning]'s keys as flags of ward eval
// poisoning.
type reasoningFlags struct {
	endpoint, model, keyEnv        string
	second, secondModel, secondEnv string
	timeout                        time.Duration
	k                              int
	threshold                      float64
	judge                          bool
}

func (f *reasoningFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.endpoint, "reasoning", "", "run L2's LLM path against the OpenAI-compatible API at base `URL` ([[grimoire.reasoning.providers]] endpoint)")
	fs.StringVar(&f.model, "reasoning-model", "", "the reasoning model `NAME` (model)")
	fs.StringVar(&f.keyEnv, "reasoning-api-key-env", "", "environment `VAR` holding the reasoning API key (api_key_env)")
	fs.DurationVar(&f.timeout, "reasoning-timeout", 30*time.Second, "bound of one reasoning call, retries included (timeout)")
	fs.StringVar(&f.second, "reasoning-second", "", "a second provider's base `URL`, for the augmented path")
	fs.StringVar(&f.secondModel, "reasoning-second-model", "", "the second provider's model `NAME`")
	fs.StringVar(&f.secondEnv, "reasoning-second-api-key-env", "", "environment `VAR` holding the second provider's key")
	fs.IntVar(&f.k, "reasoning-k", 0, "related Grimoire entries the paths reason from (k; default 8)")
	fs.Float64Var(&f.threshold, "reasoning-threshold", 0, "divergence at which an entry fails (threshold; default 0.5)")
	fs.BoolVar(&f.judge, "reasoning-judge", false, "ask the first provider whether the conclusions differ materially (judge)")
}

// setReasoner sets o.Reasoner to the reasoner the flags configure; none
// without --reasoning.
func (f *reasoningFlags) setReasoner(o *poisoning.Options) error {
	if f.endpoint == "" {
		if f.model != "" || f.second != "" || f.keyEnv != "" {
			return errors.New("--reasoning-* flags need --reasoning URL")
		}
		return nil
	}
	rc := config.Reasoning{K: f.k, Threshold: f.threshold, Judge: f.judge}
	for _, p := range []struct{ flag, endpoint, model, env string }{
		{"--reasoning", f.endpoint, f.model, f.keyEnv},
		{"--reasoning-second", f.second, f.secondModel, f.secondEnv},
	} {
		if p.endpoint == "" {
			if p.model != "" || p.env != "" {
				return fmt.Errorf("%s-model and %s-api-key-env need %s URL", p.flag, p.flag, p.flag)
			}
			continue
		}
		if p.model == "" {
			return fmt.Errorf("%s needs %s-model NAME", p.flag, p.flag)
		}
		if p.env != "" && os.Getenv(p.env) == "" {
			return fmt.Errorf("%s-api-key-env: the environment variable %s is not set", p.flag, p.env)
		}
		rc.Providers = append(rc.Providers, config.LLM{Endpoint: p.endpoint, Model: p.model, APIKeyEnv: p.env, Timeout: f.timeout})
	}
	r, err := daemon.NewReasoner(rc)
	if err != nil {
		return err
	}
	o.Reasoner = r
	return nil
}
