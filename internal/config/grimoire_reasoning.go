package config

import (
	"fmt"
	"net/url"
	"os"
	"time"
)

// Reasoning configures L2 of Stage 2 with a language model
// ([grimoire.reasoning]): the baseline reasoning path runs on the first
// provider, the augmented path on the second if there is one. No
// providers: L2 compares extracted claims only.
type Reasoning struct {
	// Providers are one or two OpenAI-compatible chat-completions
	// endpoints ([[grimoire.reasoning.providers]]).
	Providers []LLM
	// K is how many related Grimoire entries the paths reason from
	// (default 8, 1 to 64).
	K int
	// Threshold is the divergence at which an entry fails (default 0.5,
	// in (0, 1]).
	Threshold float64
	// Judge adds a third call asking the first provider whether the two
	// conclusions differ materially (default false).
	Judge bool
}

type reasoningTOML struct {
	Providers []llmTOML `toml:"providers"`
	K         *int      `toml:"k"`
	Threshold *float64  `toml:"threshold"`
	Judge     *bool     `toml:"judge"`
}

// Defaults and bounds of [grimoire.reasoning].
const (
	defaultReasoningK         = 8
	maxReasoningK             = 64
	defaultReasoningThreshold = 0.5
	defaultReasoningTimeout   = 30 * time.Second
)

// reasoningSection reads [grimoire.reasoning] into out.Reasoning.
func reasoningSection(out *Grimoire, g *grimoireTOML, idx *positions) []Diagnostic {
	r := g.Reasoning
	if r == nil {
		return nil
	}
	var diags []Diagnostic
	bad := func(key, format string, args ...any) {
		diags = append(diags, idx.at(key, fmt.Sprintf(format, args...)))
	}
	out.Reasoning = Reasoning{K: defaultReasoningK, Threshold: defaultReasoningThreshold}
	if n := len(r.Providers); n < 1 || n > 2 {
		bad("grimoire.reasoning", "name one or two [[grimoire.reasoning.providers]], not %d", n)
	}
	for i, p := range r.Providers {
		key := fmt.Sprintf("grimoire.reasoning.providers.%d", i)
		l := readLLM(key, p, defaultReasoningTimeout, bad)
		out.Reasoning.Providers = append(out.Reasoning.Providers, l)
	}
	if r.K != nil {
		if *r.K < 1 || *r.K > maxReasoningK {
			bad("grimoire.reasoning.k", "must be 1 to %d", maxReasoningK)
		}
		out.Reasoning.K = *r.K
	}
	if r.Threshold != nil {
		if !(*r.Threshold > 0 && *r.Threshold <= 1) {
			bad("grimoire.reasoning.threshold", "must be in (0, 1]")
		}
		out.Reasoning.Threshold = *r.Threshold
	}
	if r.Judge != nil {
		out.Reasoning.Judge = *r.Judge
	}
	return diags
}

// readLLM reads an OpenAI-compatible endpoint's table at key: endpoint (an
// http(s) URL) and model, both required, api_key_env (which must be set
// when named) and timeout (default timeout), reporting each problem with
// bad.
func readLLM(key string, p llmTOML, timeout time.Duration, bad func(key, format string, args ...any)) LLM {
	l := LLM{Timeout: timeout}
	if p.Endpoint != nil {
		l.Endpoint = *p.Endpoint
		if u, err := url.Parse(l.Endpoint); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad(key+".endpoint", "must be an http(s) URL")
		}
	}
	if p.Model != nil {
		l.Model = *p.Model
	}
	if l.Endpoint == "" || l.Model == "" {
		bad(key, "endpoint and model are both required")
	}
	if p.APIKeyEnv != nil {
		l.APIKeyEnv = *p.APIKeyEnv
		if l.APIKeyEnv != "" && os.Getenv(l.APIKeyEnv) == "" {
			bad(key+".api_key_env", "the environment variable %s is not set", l.APIKeyEnv)
		}
	}
	if p.Timeout != nil {
		d, err := time.ParseDuration(*p.Timeout)
		if err != nil || d <= 0 {
			bad(key+".timeout", "invalid duration %q", *p.Timeout)
		}
		l.Timeout = d
	}
	return l
}
