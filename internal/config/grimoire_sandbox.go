package config

import (
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/wardhq/ward/internal/sandbox"
)

// Sandbox configures Stage 3 ([grimoire.sandbox]).
type Sandbox struct {
	// Strategy is the agent's own strategy, one rule per string in the
	// form Stage 3 decomposes ("when gas is above 100 gwei, wait"): the
	// baseline an entry is judged against. Empty: the baseline holds.
	Strategy []string
	// Decomposer, when its endpoint is set, is the OpenAI-compatible chat
	// endpoint that decomposes an entry the deterministic parser cannot
	// ([grimoire.sandbox.decomposer]); MaxCalls bounds its calls per
	// entry (default and most 10).
	Decomposer LLM
	MaxCalls   int
	// Require is the isolation without which Stage 3 does not evaluate an
	// entry (require = [...]: sandbox.ParseRequirement's names); the entry
	// stays pending with KNOWLEDGE_SANDBOX_REQUIRED. nil:
	// sandbox.DefaultRequirement.
	Require *sandbox.Requirement
}

// Bounds of [grimoire.sandbox].
const (
	MaxStrategyRules         = 32 // skill.MaxBaselineRules
	maxStrategyRule          = 1024
	MaxDecomposerCalls       = 10 // skill.MaxLLMCalls
	defaultDecomposerTimeout = 30 * time.Second
)

type sandboxTOML struct {
	Strategy   []string  `toml:"strategy"`
	Require    *[]string `toml:"require"`
	Decomposer *struct {
		llmTOML
		MaxCalls *int `toml:"max_calls"`
	} `toml:"decomposer"`
}

// sandboxSection reads [grimoire.sandbox] into out.Sandbox. Whether each
// strategy rule decomposes is checked when ward starts (it needs the
// skill parser).
func sandboxSection(out *Grimoire, g *grimoireTOML, idx *positions) []Diagnostic {
	sb := g.Sandbox
	if sb == nil {
		return nil
	}
	var diags []Diagnostic
	bad := func(key, format string, args ...any) {
		diags = append(diags, idx.at(key, fmt.Sprintf(format, args...)))
	}
	if len(sb.Strategy) > MaxStrategyRules {
		bad("grimoire.sandbox.strategy", "%d rules, at most %d", len(sb.Strategy), MaxStrategyRules)
	}
	for i, r := range sb.Strategy {
		if r == "" || len(r) > maxStrategyRule || !utf8.ValidString(r) {
			bad("grimoire.sandbox.strategy", "rule %d must be 1 to %d bytes of text", i+1, maxStrategyRule)
		}
	}
	out.Sandbox.Strategy = sb.Strategy
	if sb.Require != nil {
		r, err := sandbox.ParseRequirement(*sb.Require)
		if err != nil {
			bad("grimoire.sandbox.require", "%v (default %q)", err, sandbox.DefaultRequirementNames)
		} else {
			out.Sandbox.Require = &r
		}
	}
	d := sb.Decomposer
	if d == nil {
		return diags
	}
	l := readLLM("grimoire.sandbox.decomposer", d.llmTOML, defaultDecomposerTimeout, bad)
	out.Sandbox.MaxCalls = MaxDecomposerCalls
	if d.MaxCalls != nil {
		if *d.MaxCalls < 1 || *d.MaxCalls > MaxDecomposerCalls {
			bad("grimoire.sandbox.decomposer.max_calls", "must be 1 to %d", MaxDecomposerCalls)
		}
		out.Sandbox.MaxCalls = *d.MaxCalls
	}
	out.Sandbox.Decomposer = l
	return diags
}
