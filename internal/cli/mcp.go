package cli

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/daemon"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/mcp"
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
	err = serveStdio(ctx, io, st, f, role, log)
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fail(io, "%v", err)
	}
	return exitOK
}

func serveStdio(ctx context.Context, io IO, st *daemon.Stack, f *config.File, role auth.Role, log *slog.Logger) error {
	sess, err := stdioSession(ctx, st, f, role)
	if err != nil {
		return err
	}
	fs := facade.NewSession(sess)
	srv, err := mcp.New(mcp.Config{
		Tools: st.Facade, Version: versionString(), Log: log,
		Session: func(context.Context, string) (*facade.Session, error) { return fs, nil },
		Updates: st.Bus, EndStreams: st.Streams.EndSession,
	})
	if err != nil {
		return err
	}
	// The session's live data updates go out as notifications while the
	// client is connected; its subscriptions end with the connection.
	delivering, stop := context.WithCancel(ctx)
	var delivered sync.WaitGroup
	delivered.Go(func() { srv.Deliver(delivering) })
	defer func() {
		stop()
		delivered.Wait()
		st.Streams.EndSession(sess.ID)
	}()
	log.Info("mcp: serving on stdio", "session", sess.ID, "role", role)
	return srv.RunStdio(ctx, io.In, io.Out)
}

// stdioSession is the one session of ward mcp: the configured tools, the
// role's input source, a session of its own per process (per-session
// limits start over with each run), held by the principal "stdio:ROLE"
// (no token stands for it) and stored like any other.
func stdioSession(ctx context.Context, st *daemon.Stack, f *config.File, role auth.Role) (*gate.Session, error) {
	v, err := st.View(f.Tools)
	if err != nil {
		return nil, err
	}
	owner := gate.Owner{PrincipalID: "stdio:" + string(role), Name: "stdio", Source: role.Source()}
	return st.Tools.OpenSession(ctx, owner, id.Opaque(time.Now()), v)
}
