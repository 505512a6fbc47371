package config

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Trust configures the trust model ([trust]).
type Trust struct {
	// AddressBook lists the owner's known counterparties (addresses,
	// account numbers, names): values with trusted provenance in every
	// session.
	AddressBook []string
	// Names are the owner's names for counterparties ([trust.names]: name
	// = value). Each value is in AddressBook too (naming a counterparty
	// vouches for it); the name is display data, shown to the owner on
	// held calls and permits, never used to decide.
	Names map[string]string
	// Reviewers and Judge review a session that becomes tainted without
	// naming its own: "rules-reviewer" and "rules-judge" by default, or
	// "llm" once [trust.llm] is set.
	Reviewers []string
	Judge     string
	// LLM is an OpenAI-compatible chat-completions endpoint for an
	// LLM-backed checker named "llm"; empty Endpoint: none.
	LLM LLM
}

// LLM configures the LLM-backed checker.
type LLM struct {
	Endpoint string // base URL, e.g. http://127.0.0.1:8000/v1
	Model    string
	// APIKeyEnv names the environment variable holding the API key (read
	// at start, held as a tainted value; never written in ward.toml).
	APIKeyEnv string
	Timeout   time.Duration // default 20s
}

// LLMChecker is the name of the LLM-backed checker.
const LLMChecker = "llm"

type trustTOML struct {
	AddressBook []string          `toml:"address_book"`
	Names       map[string]string `toml:"names"`
	Reviewers   []string          `toml:"reviewers"`
	Judge       *string           `toml:"judge"`
	LLM         *llmTOML          `toml:"llm"`
}

type llmTOML struct {
	Endpoint  *string `toml:"endpoint"`
	Model     *string `toml:"model"`
	APIKeyEnv *string `toml:"api_key_env"`
	Timeout   *string `toml:"timeout" shape:"duration"`
}

// Built-in checker names (gate.RulesReviewer, gate.RulesJudge).
var builtinCheckers = map[string]bool{"rules-reviewer": true, "rules-judge": true}

func trustSection(f *File, raw *fileTOML, idx *positions) []Diagnostic {
	f.Trust = Trust{Reviewers: []string{"rules-reviewer"}, Judge: "rules-judge"}
	t := raw.Trust
	if t == nil {
		return nil
	}
	var diags []Diagnostic
	bad := func(key, format string, args ...any) {
		diags = append(diags, idx.at(key, fmt.Sprintf(format, args...)))
	}
	for i, v := range t.AddressBook {
		if len(v) < 3 || len(v) > 256 {
			bad("trust.address_book", "entry %d must be 3 to 256 characters", i+1)
		}
	}
	f.Trust.AddressBook = t.AddressBook
	trustNames(f, t.Names, bad)
	if t.LLM != nil {
		trustLLM(f, t.LLM, bad)
	}
	trustCheckers(f, t, bad)
	return diags
}

// trustNames reads [trust.names]: each name (at most 64 printable
// characters) names one counterparty value (3 to 256 characters), which
// joins the address book.
func trustNames(f *File, names map[string]string, bad func(key, format string, args ...any)) {
	if len(names) == 0 {
		return
	}
	f.Trust.Names = make(map[string]string, len(names))
	named := map[string]string{} // folded value → name
	for _, name := range slices.Sorted(maps.Keys(names)) {
		v := names[name]
		key := "trust.names." + name
		switch {
		case utf8.RuneCountInString(name) > 64 || strings.IndexFunc(name, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0:
			bad(key, "a name must be at most 64 printable characters")
			continue
		case len(v) < 3 || len(v) > 256:
			bad(key, "must be 3 to 256 characters, as an address_book entry")
			continue
		}
		if other, ok := named[strings.ToLower(v)]; ok {
			bad(key, "names the same value as trust.names.%s: one name per counterparty", other)
			continue
		}
		named[strings.ToLower(v)] = name
		f.Trust.Names[name] = v
		if !slices.ContainsFunc(f.Trust.AddressBook, func(b string) bool { return strings.EqualFold(b, v) }) {
			f.Trust.AddressBook = append(f.Trust.AddressBook, v)
		}
	}
}

// trustLLM reads [trust.llm], the endpoint of the llm checker.
func trustLLM(f *File, l *llmTOML, bad func(key, format string, args ...any)) {
	if l.Endpoint != nil {
		f.Trust.LLM.Endpoint = *l.Endpoint
	}
	if l.Model != nil {
		f.Trust.LLM.Model = *l.Model
	}
	if l.APIKeyEnv != nil {
		f.Trust.LLM.APIKeyEnv = *l.APIKeyEnv
		if *l.APIKeyEnv != "" && os.Getenv(*l.APIKeyEnv) == "" {
			bad("trust.llm.api_key_env", "the environment variable %s is not set", *l.APIKeyEnv)
		}
	}
	f.Trust.LLM.Timeout = 20 * time.Second
	if l.Timeout != nil {
		d, err := time.ParseDuration(*l.Timeout)
		if err != nil || d <= 0 {
			bad("trust.llm.timeout", "invalid duration %q", *l.Timeout)
		}
		f.Trust.LLM.Timeout = d
	}
	if f.Trust.LLM.Endpoint == "" || f.Trust.LLM.Model == "" {
		bad("trust.llm", "endpoint and model are both required")
	}
}

// trustCheckers reads the reviewers and the judge: built-in checkers, or
// llm when [trust.llm] names an endpoint.
func trustCheckers(f *File, t *trustTOML, bad func(key, format string, args ...any)) {
	known := func(name string) bool {
		return builtinCheckers[name] || (name == LLMChecker && f.Trust.LLM.Endpoint != "")
	}
	if t.Reviewers != nil {
		if len(t.Reviewers) == 0 {
			bad("trust.reviewers", "name at least one reviewer")
		}
		for _, r := range t.Reviewers {
			if !known(r) {
				bad("trust.reviewers", "unknown reviewer %q (rules-reviewer, rules-judge, or llm with [trust.llm])", r)
			}
		}
		f.Trust.Reviewers = t.Reviewers
	}
	if t.Judge != nil {
		if !known(*t.Judge) {
			bad("trust.judge", "unknown judge %q (rules-judge, rules-reviewer, or llm with [trust.llm])", *t.Judge)
		}
		f.Trust.Judge = *t.Judge
	}
}
