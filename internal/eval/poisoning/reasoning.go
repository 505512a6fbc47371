package poisoning

import (
	"fmt"

	"github.com/wardhq/ward/internal/validate/reasoning"
)

// Reasoning is what L2's LLM path did during a run: where it ran, how many
// model calls it made, how many entries it could not decide (they stay in
// quarantine, counted as caught by stage2/L2) and how many it failed on
// their divergence. It is nil in a report of a run without a model.
type Reasoning struct {
	Providers []ReasoningProvider `json:"providers"`
	// Endpoint and Model are the first provider's, which runs the
	// baseline path (and the augmented one without a second provider).
	Endpoint string `json:"endpoint"`
	Model    string `json:"model"`
	reasoning.ReasonerStats
}

// ReasoningProvider is one endpoint the reasoning paths ran on.
type ReasoningProvider struct {
	Endpoint string `json:"endpoint"`
	Model    string `json:"model"`
}

// reasoned records r's providers and counts in the report.
func (rep *Report) reasoned(r *reasoning.Reasoner) {
	if r == nil {
		return
	}
	rs := &Reasoning{ReasonerStats: r.Stats()}
	for _, p := range r.Providers() {
		rs.Providers = append(rs.Providers, ReasoningProvider{Endpoint: p.Endpoint, Model: p.Model})
	}
	rs.Endpoint, rs.Model = rs.Providers[0].Endpoint, rs.Providers[0].Model
	rep.Reasoning = rs
}

// text renders r for a terminal; "" for a run without a model.
func (r *Reasoning) text() string {
	if r == nil {
		return "reasoning: off (L2 compares extracted claims only; --reasoning URL runs its LLM path)\n"
	}
	on := r.Model + " at " + r.Endpoint
	if len(r.Providers) == 2 {
		p := r.Providers[1]
		on = "baseline " + on + ", augmented " + p.Model + " at " + p.Endpoint
	}
	return fmt.Sprintf("reasoning: %s; %d entries, %d skipped (nothing related), %d model calls, %d errors (left in quarantine), %d failed on divergence (%d that L2's claim comparison passed)\n",
		on, r.Entries, r.Skipped, r.Calls, r.Errors, r.Failed, r.Alone)
}
