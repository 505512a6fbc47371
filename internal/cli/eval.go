package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/wardhq/ward/internal/eval/agentdojo"
)

const evalHelp = `Replays an AgentDojo suite exported for replay (for example
../shared/eval/agentdojo/banking.json) through ward's real gate: sessions,
taint, value-level provenance, policy, the default reviewer and judge, and
the quarantine queue. The suite's tools are registered as proxied tools
returning the outputs the export recorded; no LLM runs.

Utility counts the user tasks whose calls are all allowed outright
(utility_allowed), allowed or approved by the default judge (utility_judge),
and that complete once the owner approves every quarantined call
(utility_human). Security counts the user task × injection task pairs in
which every state-changing or data-sending goal call of the attacker went
through (attacks_succeeded).`

func evalAgentDojo(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "eval agentdojo", "FILE", evalHelp)
	asJSON := fs.Bool("json", false, "print one JSON object: suite, user_tasks, utility_allowed, utility_judge, utility_human, pairs, attacks_succeeded")
	attack := fs.String("attack", "important_instructions", "attack template: "+strings.Join(agentdojo.AttackNames(), ", ")+", or all")
	configPath := fs.String("config", "", "ward.toml (default: ./ward.toml if present, else the embedded defaults)")
	verbose := fs.Bool("v", false, "print every task's calls")
	if st, ok := parseInterleaved(fs, args); !ok {
		return st
	}
	if fs.NArg() != 1 {
		return usageErr(io, "give one suite file")
	}
	suite, err := agentdojo.Load(fs.Arg(0))
	if err != nil {
		return usageErr(io, "%v", err)
	}
	f, err := loadConfig(*configPath)
	if err != nil {
		return usageErr(io, "%v", err)
	}
	attacks := []string{*attack}
	if *attack == "all" {
		attacks = agentdojo.AttackNames()
	} else if _, ok := agentdojo.Attacks[*attack]; !ok {
		return usageErr(io, "unknown attack %q (known: %s, all)", *attack, strings.Join(agentdojo.AttackNames(), ", "))
	}
	var total *agentdojo.Report
	for _, a := range attacks {
		rep, err := agentdojo.Run(ctx, suite, agentdojo.Options{Attack: a, Config: f})
		if err != nil {
			return fail(io, "%v", err)
		}
		if total == nil {
			total = rep
		} else {
			total.Pairs += rep.Pairs
			total.AttacksSucceeded += rep.AttacksSucceeded
			total.Breaches = append(total.Breaches, rep.Breaches...)
			total.Attack += "," + a
		}
	}
	if *asJSON {
		enc := json.NewEncoder(io.Out)
		if !*verbose {
			total.Tasks = nil
		}
		if err := enc.Encode(total); err != nil {
			return fail(io, "%v", err)
		}
		return exitOK
	}
	r := total
	fmt.Fprintf(io.Out, "suite %s: %d user tasks, attack %s\n", r.Suite, r.UserTasks, r.Attack)
	fmt.Fprintf(io.Out, "utility: %d/%d allowed outright, %d/%d with the default judge, %d/%d once the owner approves what waits\n",
		r.UtilityAllowed, r.UserTasks, r.UtilityJudge, r.UserTasks, r.UtilityHuman, r.UserTasks)
	rate := 0.0
	if r.Pairs > 0 {
		rate = 100 * float64(r.AttacksSucceeded) / float64(r.Pairs)
	}
	fmt.Fprintf(io.Out, "security: %d of %d attacks succeeded (%.1f %%)\n", r.AttacksSucceeded, r.Pairs, rate)
	for _, b := range r.Breaches {
		fmt.Fprintf(io.Out, "  breach: %s\n", b)
	}
	for _, t := range r.Tasks {
		if t.Outcome == "allowed" && !*verbose {
			continue
		}
		fmt.Fprintf(io.Out, "  %s: %s\n", t.ID, t.Outcome)
		for _, c := range t.Calls {
			if c.Outcome == "allowed" && !*verbose {
				continue
			}
			fmt.Fprintf(io.Out, "    %s %s %s\n", c.Tool, c.Outcome, c.Code)
		}
	}
	return exitOK
}
