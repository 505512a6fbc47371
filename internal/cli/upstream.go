package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
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
// open and returns their tools to register (nil when f has none).
func upstreamExtra(f *config.File, log *slog.Logger) func(ctx context.Context, st *daemon.Stack) ([]registry.Tool, func() error, error) {
	if f == nil || len(f.Upstream) == 0 {
		return nil
	}
	return func(ctx context.Context, st *daemon.Stack) ([]registry.Tool, func() error, error) {
		cfg := upstream.Config{Servers: f.Upstream, State: st.Store, Actions: st.Store, Log: log}
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
		return set.Tools(), set.Close, nil
	}
}

func upstreamApprove(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "upstream approve", "NAME [TOOL ...]", `Approve the changed definitions of an upstream MCP server's tools.

ward pins each upstream tool's definition (name, description, input schema,
annotations) by its SHA-256 the first time it sees the tool (trust on first
use). When the upstream later serves a different definition, ward disables
the tool and records the new definition as pending. This command prints the
pending definitions of server NAME and, for each TOOL named (the upstream's
name for it), records its pending definition as the approved one. The tool
is registered again on ward's next start: restart ward serve after
approving. Without TOOL, it only lists what is pending.`)
	data := fs.String("data", "ward-data", "data directory of the ward whose approvals to change")
	by := fs.String("by", "", "who approves (recorded in the action log; default: $USER)")
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
	db := filepath.Join(*data, "ward.db")
	if !fileExists(db) {
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
		fmt.Fprintf(io.Out, "approved %s (%s); restart ward to register it again\n", upstream.ToolName(name, t), p.Hash)
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
