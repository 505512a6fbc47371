package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"text/tabwriter"

	"github.com/wardhq/ward/internal/daemon"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

func toolsList(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "tools list", "", `Print the tools registered for a profile: the native catalogue as it
registers with a wallet (the embedded dev chain has one) and the Grimoire's
memory tools, filtered by the
profiles given (composed with commas: trader,vault). With --json, one object
per line with name, category, tier (read|write|privileged), risk_tier,
tick_budget and more. With --facades, print the facade tools the model sees
for that profile instead.`)
	profile := fs.String("profile", "", "profiles to list, e.g. trader,vault (default: the config's [tools] profile, else active)")
	asJSON := fs.Bool("json", false, "print one JSON object per line")
	facades := fs.Bool("facades", false, "print the facade tools the model sees")
	cfgPath := fs.String("config", "", "ward.toml whose [tools] section selects the tools")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(io.Err, "ward tools list: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	sel, code, ok := toolsSelection(io, *cfgPath, *profile)
	if !ok {
		return code
	}
	view, code, ok := listedView(io, sel)
	if !ok {
		return code
	}
	switch {
	case *facades:
		return printFacades(io, view, *asJSON)
	case *asJSON:
		return printToolsJSON(io, view)
	}
	printToolsTable(io, view, sel.Profiles)
	return exitOK
}

// toolsSelection is the selection ward tools list shows: the active
// profile, else the [tools] section of the config at cfgPath, with the
// --profile flag's profiles over either. When ok is false the command
// ends with status code.
func toolsSelection(io IO, cfgPath, profile string) (sel registry.Selection, code int, ok bool) {
	sel = registry.Selection{Profiles: []string{"active"}, Have: listedHave}
	if cfgPath != "" {
		f, err := loadConfig(cfgPath)
		if err != nil {
			fmt.Fprintln(io.Err, err)
			return sel, exitUsage, false
		}
		sel.Profiles, sel.Enable, sel.Disable = f.Tools.Profiles, f.Tools.Enable, f.Tools.Disable
	}
	if profile != "" {
		ps, err := registry.ParseProfiles(profile)
		if err != nil {
			fmt.Fprintf(io.Err, "ward tools list: --profile: %v\n", err)
			return sel, exitUsage, false
		}
		sel.Profiles = ps
	}
	return sel, exitOK, true
}

// listedView registers the listed tools in a frozen registry and selects
// sel from it. When ok is false the command ends with status code.
func listedView(io IO, sel registry.Selection) (view *registry.View, code int, ok bool) {
	reg := registry.New()
	for _, t := range listedTools() {
		if err := reg.Add(t); err != nil {
			fmt.Fprintf(io.Err, "ward tools list: %v\n", err)
			return nil, exitFail, false
		}
	}
	reg.Freeze()
	view, err := reg.Select(sel)
	if err != nil {
		fmt.Fprintf(io.Err, "ward tools list: %v\n", err)
		return nil, exitUsage, false
	}
	return view, exitOK, true
}

// printFacades prints the facade tools the model sees through view, as
// one JSON object per line or one line of text each.
func printFacades(io IO, view *registry.View, asJSON bool) int {
	enc := json.NewEncoder(io.Out)
	for _, f := range daemon.FacadeDefs(view) {
		if asJSON {
			if err := enc.Encode(f); err != nil {
				return exitFail
			}
			continue
		}
		fmt.Fprintf(io.Out, "%-18s %s\n", f.Name, f.PromptSnippet)
	}
	return exitOK
}

// printToolsJSON prints one JSON object per tool in view.
func printToolsJSON(io IO, view *registry.View) int {
	enc := json.NewEncoder(io.Out)
	for _, e := range view.Entries() {
		d := e.Def
		line := struct {
			Name        string        `json:"name"`
			Category    tool.Category `json:"category"`
			Tier        tool.Tier     `json:"tier"`
			RiskTier    tool.RiskTier `json:"risk_tier"`
			TickBudget  tool.Budget   `json:"tick_budget"`
			Effect      tool.Effect   `json:"effect,omitempty"`
			Action      string        `json:"action,omitempty"`
			Venue       string        `json:"venue,omitempty"`
			ThirdParty  bool          `json:"third_party_content,omitempty"`
			Description string        `json:"description"`
		}{d.Name, d.Category, d.Tier, d.RiskTier, d.Budget, d.Effect, e.Action, e.Venue, d.ThirdParty, d.Description}
		if err := enc.Encode(line); err != nil {
			return exitFail
		}
	}
	return exitOK
}

// printToolsTable prints the tools in view as a table, then their count
// and the profiles they were selected by.
func printToolsTable(io IO, view *registry.View, profiles []string) {
	tw := tabwriter.NewWriter(io.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tCATEGORY\tTIER\tRISK\tBUDGET\tACTION/VENUE")
	for _, e := range view.Entries() {
		d := e.Def
		av := e.Action
		if e.Venue != "" {
			av += "/" + e.Venue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", d.Name, d.Category, d.Tier, d.RiskTier, d.Budget, av)
	}
	tw.Flush()
	fmt.Fprintf(io.Out, "%d tools (profiles %s)\n", len(view.Names()), strings.Join(profiles, ","))
}

func demo(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "demo", "", `Run the tool gate's end-to-end scenario on the embedded dev chain with a
fresh database: an agent previews and commits a swap, an LP deposit, a
vault deposit, its ERC-8004 registration and an EigenLayer restake; reused, forged, expired, altered and stale-policy commits are
refused; the spending limit, the allowlist and the simulation veto what they
should; phase changes block what they should; a GMX V2 perpetual is opened,
filled by the dev keeper and closed in conservation, where opening is
refused; 1,000 concurrent commits of
one permit execute once; an emergency halt stops writes; an episode is
stored in the agent's memory (quarantined) and a poisoned insight refused;
a second ward whose wallet is a 1-of-1 Safe commits a swap from the Safe;
a third whose wallet is an ERC-4337 account commits a Uniswap V2 swap from
it with a session key, through EntryPoint.handleOps. Exits 0 only if
every step behaved as expected. Then it starts an embedded ward serve and
runs a scripted agent session against it over MCP (reads, a preview and
commit, a blocked overspend, a quarantined transfer the owner approves
through the HTTP API, an injection in a token's name that the agent obeys
and the owner rejects).`)
	asJSON := fs.Bool("json", false, "print the steps as one JSON array")
	keep := fs.String("dir", "", "keep the demo's databases in this directory (default: a temporary one, removed)")
	skipMCP := fs.Bool("gate-only", false, "run only the tool gate scenario, not the session over MCP")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	dir := *keep
	if dir == "" {
		d, err := os.MkdirTemp("", "ward-demo-")
		if err != nil {
			fmt.Fprintln(io.Err, err)
			return exitFail
		}
		defer os.RemoveAll(d)
		dir = d
	}
	out := io.Out
	if *asJSON {
		out = nopWriter{}
	}
	if err := os.MkdirAll(filepath.Join(dir, "gate"), 0o700); err != nil {
		fmt.Fprintln(io.Err, err)
		return exitFail
	}
	fmt.Fprintln(out, "== the tool gate on the embedded dev chain")
	res, err := daemon.RunDemo(ctx, out, filepath.Join(dir, "gate"))
	if *asJSON {
		b, _ := json.MarshalIndent(res, "", "  ")
		fmt.Fprintln(io.Out, string(b))
	}
	if err == nil && !*skipMCP {
		err = mcpDemo(ctx, out, filepath.Join(dir, "serve"))
	}
	if err != nil {
		fmt.Fprintln(io.Err, err)
		return exitFail
	}
	if !*asJSON {
		fmt.Fprintln(io.Out, "every step behaved as expected")
	}
	return exitOK
}

type nopWriter struct{}

func (nopWriter) Write(p []byte) (int, error) { return len(p), nil }

func benchGate(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "bench gate", "", `Benchmark the tool gate on the embedded dev chain with a fresh database:
a read tool's gate overhead (everything except the handler's own RPC), a
swap preview including the fork simulation, and a commit (signing,
sending and the receipt; reported with and without the time spent waiting
for the chain's blocks). Prints p50 and p99 of each.`)
	asJSON := fs.Bool("json", false, "print one JSON object")
	reads := fs.Int("reads", 5000, "read calls to time")
	previews := fs.Int("previews", 300, "swap previews to time")
	commits := fs.Int("commits", 100, "commits to time")
	bestEffort := fs.Bool("reads-best-effort", false, "queue a read's decision record instead of waiting for its commit ([audit] reads_best_effort)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile to this file (for go tool pprof)")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return fail(io, "%v", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fail(io, "%v", err)
		}
		defer pprof.StopCPUProfile()
	}
	if *reads < 10 || *previews < 10 || *commits < 10 {
		fmt.Fprintln(io.Err, "ward bench gate: --reads, --previews and --commits must be at least 10")
		return exitUsage
	}
	dir, err := os.MkdirTemp("", "ward-bench-gate-")
	if err != nil {
		fmt.Fprintln(io.Err, err)
		return exitFail
	}
	defer os.RemoveAll(dir)
	res, err := daemon.BenchGate(ctx, dir, *reads, *previews, *commits, *bestEffort)
	if err != nil {
		fmt.Fprintln(io.Err, err)
		return exitFail
	}
	if *asJSON {
		b, _ := json.Marshal(res)
		fmt.Fprintln(io.Out, string(b))
		return exitOK
	}
	fmt.Fprintf(io.Out, "read tool, gate overhead:        p50 %10v   p99 %10v   (total with the handler's RPC p50 %v; %d calls)\n", res.ReadOverheadP50, res.ReadOverheadP99, res.ReadTotalP50, res.Reads)
	fmt.Fprintf(io.Out, "swap preview incl. simulation:   p50 %10v   p99 %10v   (%d previews)\n", res.PreviewP50, res.PreviewP99, res.Previews)
	fmt.Fprintf(io.Out, "commit, excluding block time:    p50 %10v   p99 %10v   (with the dev chain's blocks p50 %v, p99 %v; %d commits)\n", res.CommitExBlockP50, res.CommitExBlockP99, res.CommitP50, res.CommitP99, res.Commits)
	fmt.Fprintln(io.Out, "targets: read overhead p50 < 50µs, preview p50 < 5ms, commit p50 < 10ms")
	return exitOK
}
