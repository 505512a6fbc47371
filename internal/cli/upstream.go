package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/daemon"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
	"github.com/wardhq/ward/internal/upstream"
)

// upstreamExtra returns the daemon's Extra hook for the [[upstream]]
// servers of f: it connects to them once the stack's store and chain are
// open and returns their tools to register (nil when f has none). The
// sandboxed servers' private directories are under data/upstream.
func upstreamExtra(f *config.File, data string, log *slog.Logger) func(ctx context.Context, st *daemon.Stack) ([]registry.Tool, func() error, error) {
	if f == nil || len(f.Upstream) == 0 {
		return nil
	}
	return func(ctx context.Context, st *daemon.Stack) ([]registry.Tool, func() error, error) {
		cfg := upstream.Config{Servers: f.Upstream, State: st.Store, Actions: st.Store, Log: log, Dir: upstreamDir(data)}
		if st.Provider != nil {
			cfg.ChainID = st.Provider.ChainID()
		}
		if st.Wallet != nil {
			cfg.From = tool.Address(st.Wallet.Address())
		}
		set, err := upstream.Open(ctx, cfg)
		if err != nil {
			return nil, nil, err
		}
		st.Upstream = set
		return set.Tools(), set.Close, nil
	}
}

// upstreamDir is where the sandboxed servers of the data directory data
// get their private directories ("": temporary ones).
func upstreamDir(data string) string {
	if data == "" {
		return ""
	}
	return filepath.Join(data, "upstream")
}

func upstreamList(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "upstream list", "", `List the upstream MCP servers ward.toml configures ([[upstream]]), each with
its tools' pinned definitions (the SHA-256 of the definition approved, when
and by whom; "trust on first use" when ward pinned it the first time it saw
the tool) and the changed definitions that wait for approval (ward upstream
approve). It reads the data directory's database, so it works whether or not
ward serve runs. Never prints a server's environment, headers or command
arguments. --json prints a stable array, one object per server:
{"name","transport","target","sandbox","tools":[{"tool","name","pinned_hash",
"approved_at","approved_by"}],"pending":[{"tool","hash","approved_hash",
"seen_at","definition"}]}.`)
	data := fs.String("data", "ward-data", "data directory of the ward whose upstreams to list")
	cfgPath := fs.String("config", "", "ward.toml (default: ./ward.toml if present, else the embedded defaults)")
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageErr(io, "upstream list: unexpected argument %q", fs.Arg(0))
	}
	f, err := loadConfig(*cfgPath)
	if err != nil {
		return usageErr(io, "%v", err)
	}
	list, err := listUpstreams(ctx, f, *data)
	if err != nil {
		return fail(io, "%v", err)
	}
	if *asJSON {
		enc := json.NewEncoder(io.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(list); err != nil {
			return fail(io, "%v", err)
		}
		return exitOK
	}
	if len(list) == 0 {
		fmt.Fprintln(io.Out, "no upstream MCP server is configured ([[upstream]] in ward.toml)")
		return exitOK
	}
	if err := printUpstreamTable(io, list); err != nil {
		return fail(io, "%v", err)
	}
	printUpstreamNotes(io, list, *data)
	return exitOK
}

// listUpstreams returns the upstream servers f configures with their pins
// in the database of the data directory data, or with none when no ward
// has run on it yet; never nil.
func listUpstreams(ctx context.Context, f *config.File, data string) ([]upstream.ServerInfo, error) {
	var list []upstream.ServerInfo
	db := storeOf(f, data, "")
	if storeExists(db) {
		st, err := daemon.OpenStore(ctx, db, "")
		if err != nil {
			return nil, err
		}
		list, err = upstream.List(ctx, st, f.Upstream, nil)
		if cerr := st.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, err
		}
	} else {
		// No ward has run on this data directory: nothing is pinned yet.
		var err error
		if list, err = upstream.List(ctx, emptyPins{}, f.Upstream, nil); err != nil {
			return nil, err
		}
	}
	if list == nil {
		list = []upstream.ServerInfo{}
	}
	return list, nil
}

// printUpstreamTable prints one row per server's pinned or pending tool
// (one for a server with neither), each pinned tool's pending hash beside
// it.
func printUpstreamTable(io IO, list []upstream.ServerInfo) error {
	tw := tabwriter.NewWriter(io.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SERVER\tTOOL\tWARD NAME\tPINNED HASH\tAPPROVED\tPENDING HASH")
	for _, s := range list {
		pending := map[string]string{}
		for _, p := range s.Pending {
			pending[p.Tool] = p.Hash
		}
		if len(s.Tools) == 0 && len(s.Pending) == 0 {
			fmt.Fprintf(tw, "%s (%s %s)\t-\t-\t-\t-\t-\n", s.Name, s.Transport, s.Target)
		}
		listed := map[string]bool{}
		for _, t := range s.Tools {
			by := t.ApprovedBy
			if by == "" {
				by = "first use"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s by %s\t%s\n", s.Name, t.Tool, t.Name, shortHash(t.PinnedHash), t.ApprovedAt.Format(time.RFC3339), by, orDash(shortHash(pending[t.Tool])))
			listed[t.Tool] = true
		}
		for _, p := range s.Pending {
			if !listed[p.Tool] {
				fmt.Fprintf(tw, "%s\t%s\t%s\t-\t-\t%s\n", s.Name, p.Tool, upstream.ToolName(s.Name, p.Tool), shortHash(p.Hash))
			}
		}
	}
	return tw.Flush()
}

// printUpstreamNotes warns of each server that runs outside the sandbox
// and says how to approve each one's waiting definitions.
func printUpstreamNotes(io IO, list []upstream.ServerInfo, data string) {
	for _, s := range list {
		if s.Sandbox == "off" {
			fmt.Fprintf(io.Out, "\n%s runs outside the sandbox (sandbox = false): it has ward's privileges, files and network\n", s.Name)
		}
		if len(s.Pending) > 0 {
			fmt.Fprintf(io.Out, "\n%s has %d changed definition(s) waiting: ward upstream approve --data %s %s\n", s.Name, len(s.Pending), data, s.Name)
		}
	}
}

// shortHash is the first 12 hex digits of a definition hash.
func shortHash(h string) string { return h[:min(12, len(h))] }

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// emptyPins is the pins of a data directory no ward has run on.
type emptyPins struct{ store.Pins }

func (emptyPins) PinnedTools(context.Context, string) ([]store.PinnedTool, error)   { return nil, nil }
func (emptyPins) PendingTools(context.Context, string) ([]store.PendingTool, error) { return nil, nil }

func upstreamApprove(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "upstream approve", "NAME [TOOL ...]", `Approve the changed definitions of an upstream MCP server's tools.

ward pins each upstream tool's definition (name, description, input schema,
annotations) by its SHA-256 the first time it sees the tool (trust on first
use). When the upstream later serves a different definition, ward disables
the tool and records the new definition as pending. This command prints the
pending definitions of server NAME and, for each TOOL named (the upstream's
name for it), records its pending definition as the approved one. A running
ward serve on the same data directory serves it within two seconds (or at
once on SIGHUP) if the tool changed while it ran; a tool that had changed
before ward serve started is registered at its next start. Without TOOL, it
only lists what is pending.`)
	data := fs.String("data", "ward-data", "data directory of the ward whose approvals to change")
	by := fs.String("by", "", "who approves (recorded in the action log; default: $USER)")
	cfgPath := fs.String("config", "", "ward.toml whose [store] url names a shared database (default: ./ward.toml if present)")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() < 1 {
		return usageErr(io, "upstream approve: name the upstream server (and the tools to approve)")
	}
	name, tools := fs.Arg(0), fs.Args()[1:]
	if !upstream.ValidServerName(name) {
		return usageErr(io, "upstream approve: %q is not an upstream server name", name)
	}
	f, err := loadConfig(*cfgPath)
	if err != nil {
		return usageErr(io, "%v", err)
	}
	db := storeOf(f, *data, "")
	if !storeExists(db) {
		return fail(io, "no ward database in %s", *data)
	}
	st, err := daemon.OpenStore(ctx, db, "")
	if err != nil {
		return fail(io, "%v", err)
	}
	code := approveTools(ctx, io, st, *data, *by, name, tools)
	if err := st.Close(); err != nil {
		return fail(io, "%v", err)
	}
	return code
}

func approveTools(ctx context.Context, io IO, st store.Store, data, by, name string, tools []string) int {
	pending, err := upstream.Pending(ctx, st, name)
	if err != nil {
		return fail(io, "%v", err)
	}
	if len(tools) == 0 {
		if len(pending) == 0 {
			fmt.Fprintf(io.Out, "no changed definition of %s's tools waits for approval\n", name)
			return exitOK
		}
		for _, p := range pending {
			printPending(io, name, p)
			if old, ok, err := upstream.ApprovedDef(ctx, st, name, p.Tool, p.Approved); err == nil && ok {
				printDef(io, "was", old)
			}
		}
		fmt.Fprintf(io.Err, "name the tools to approve: ward upstream approve --data %s %s TOOL ...\n", data, name)
		return exitOK
	}
	who := by
	if who == "" {
		who = os.Getenv("USER")
	}
	if who == "" {
		who = "owner"
	}
	code := exitOK
	for _, t := range tools {
		p, err := upstream.Approve(ctx, st, st, name, t, who, time.Now())
		if err != nil {
			fmt.Fprintf(io.Err, "ward: %v\n", err)
			code = exitFail
			continue
		}
		printPending(io, name, p)
		fmt.Fprintf(io.Out, "approved %s (%s): a running ward serve serves it within 2 s if it changed while ward ran, else from its next start\n", upstream.ToolName(name, t), p.Hash)
	}
	return code
}

func printPending(io IO, server string, p upstream.PendingDef) {
	fmt.Fprintf(io.Out, "%s %s: changed %s\n  approved hash %s\n  new hash      %s\n", server, p.Tool, p.SeenAt.Format(time.RFC3339), p.Approved, p.Hash)
	printDef(io, "now", p.Def)
}

// printDef prints a canonical upstream tool definition (upstream.DefHash).
func printDef(io IO, label string, canon json.RawMessage) {
	var def struct {
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"input_schema"`
		Annotations json.RawMessage `json:"annotations"`
	}
	_ = json.Unmarshal(canon, &def)
	fmt.Fprintf(io.Out, "  %s:\n    description   %q\n    input schema  %s\n    annotations   %s\n", label, def.Description, def.InputSchema, def.Annotations)
}
