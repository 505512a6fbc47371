package cli

import (
	"context"
	"log/slog"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/daemon"
)

func mcpStdio(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "mcp", "", `Serve MCP over standard input and output, for an MCP client that starts ward
as a subprocess. The stack opens as for 'ward serve' (the store in --data,
the policy, the chain: the embedded dev chain unless [chain] rpc_url is set)
and one session serves the client with the tools of the configured profile.
There is no bearer token: whoever starts the process picks the role, whose
input source the policy sees (agent by default). Standard output carries
only MCP messages; logs go to standard error. Ends when standard input
closes, or on SIGTERM or SIGINT.`)
	data := dataFlag(fs, "data directory (created if missing)")
	cfgPath := fs.String("config", "", "ward.toml (default: ./ward.toml if present, else the embedded defaults)")
	roleName := fs.String("role", string(auth.Agent), "the client's role: agent, peer or owner")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageErr(io, "mcp: unexpected argument %q", fs.Arg(0))
	}
	role, err := auth.ParseRole(*roleName)
	if err != nil {
		return usageErr(io, "mcp: --role: %v", err)
	}
	f, err := loadConfig(*cfgPath)
	if err != nil {
		return usageErr(io, "%v", err)
	}
	log := slog.New(slog.NewTextHandler(io.Err, &slog.HandlerOptions{Level: slog.LevelWarn}))
	st, err := daemon.OpenData(ctx, *data, f, upstreamExtra(f, *data, log))
	if err != nil {
		return fail(io, "%v", err)
	}
	err = st.ServeStdio(ctx, io.In, io.Out, daemon.StdioConfig{Tools: f.Tools, Role: role, Version: versionString(), Log: log})
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fail(io, "%v", err)
	}
	return exitOK
}
