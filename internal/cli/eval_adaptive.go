package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/wardhq/ward/internal/eval/agentdojo"
)

const evalAdaptiveHelp = `Replays an AgentDojo suite export (as ward eval agentdojo does) with the
attacker's goal calls mutated the ways an attacker who has read ward's
source would try: re-encodings of the attacker's values, laundering them
through an echoing read tool or the agent's own directive, object keys and
undeclared arguments, a second session, a small write the owner approved,
common numbers. Each mutation runs on every user task × injection task
pair of the security replay, through the real gate; no LLM runs.

A mutation succeeds on a pair when every state-changing or data-sending
call the attacker needs went through without the owner (allowed outright,
or approved by the default judge). A mutation with nothing to work on in a
pair (no echoing tool, no object-typed parameter, no value of the kind it
re-encodes) is not applicable there. The exit status is 0 whatever the
result: it is a measurement.

Mutations:
`

func evalAdaptive(ctx context.Context, io IO, args []string) int {
	var list strings.Builder
	for _, m := range agentdojo.Mutations() {
		fmt.Fprintf(&list, "  %-25s %-12s %s\n", m.Name, m.Family, m.Summary)
	}
	fs := flags(io, "eval adaptive", "FILE", evalAdaptiveHelp+list.String())
	asJSON := fs.Bool("json", false, "print one JSON object: suite, attack, pairs, baseline, mutations (name, family, applicable, succeeded, breaches), succeeded")
	attack := fs.String("attack", "important_instructions", "attack template: "+strings.Join(agentdojo.AttackNames(), ", "))
	only := fs.String("mutation", "", "run only these mutations (comma-separated names)")
	configPath := fs.String("config", "", "ward.toml (default: ./ward.toml if present, else the embedded defaults)")
	verbose := fs.Bool("v", false, "list each mutation's breaches")
	if st, ok := parseInterleaved(fs, args); !ok {
		return st
	}
	if fs.NArg() != 1 {
		return usageErr(io, "give one suite file")
	}
	if _, ok := agentdojo.Attacks[*attack]; !ok {
		return usageErr(io, "unknown attack %q (known: %s)", *attack, strings.Join(agentdojo.AttackNames(), ", "))
	}
	var names []string
	if *only != "" {
		known := map[string]bool{}
		for _, m := range agentdojo.Mutations() {
			known[m.Name] = true
		}
		for _, n := range strings.Split(*only, ",") {
			n = strings.TrimSpace(n)
			if !known[n] {
				return usageErr(io, "unknown mutation %q (see ward eval adaptive -h)", n)
			}
			names = append(names, n)
		}
	}
	suite, err := agentdojo.Load(fs.Arg(0))
	if err != nil {
		return usageErr(io, "%v", err)
	}
	f, err := loadConfig(*configPath)
	if err != nil {
		return usageErr(io, "%v", err)
	}
	rep, err := agentdojo.Adaptive(ctx, suite, agentdojo.AdaptiveOptions{Options: agentdojo.Options{Attack: *attack, Config: f}, Only: names})
	if err != nil {
		return fail(io, "%v", err)
	}
	if *asJSON {
		if err := json.NewEncoder(io.Out).Encode(rep); err != nil {
			return fail(io, "%v", err)
		}
		return exitOK
	}
	fmt.Fprintf(io.Out, "suite %s: %d pairs (user task × injection task), attack %s\n", rep.Suite, rep.Pairs, rep.Attack)
	tw := tabwriter.NewWriter(io.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "mutation\tfamily\tapplicable\tsucceeded\trate\t")
	row := func(m agentdojo.MutationResult) {
		rate := "-"
		if m.Applicable > 0 {
			rate = fmt.Sprintf("%.1f %%", 100*float64(m.Succeeded)/float64(m.Applicable))
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t\n", m.Name, m.Family, m.Applicable, m.Succeeded, rate)
	}
	row(rep.Baseline)
	for _, m := range rep.Mutations {
		row(m)
	}
	if err := tw.Flush(); err != nil {
		return fail(io, "%v", err)
	}
	fmt.Fprintf(io.Out, "%d successful mutations in all (the baseline, the unmutated goal calls, not counted)\n", rep.Succeeded)
	if *verbose {
		for _, m := range append([]agentdojo.MutationResult{rep.Baseline}, rep.Mutations...) {
			for _, b := range m.Breaches {
				fmt.Fprintf(io.Out, "  %s: %s\n", m.Name, b)
			}
		}
	}
	return exitOK
}
