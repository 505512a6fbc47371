package daemon

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/mcp"
)

// StdioConfig configures ServeStdio.
type StdioConfig struct {
	// Tools is the profile the session serves (ward.toml's [tools]).
	Tools config.Tools
	// Role is the client's role; its input source is what the policy
	// sees. There is no token: whoever starts the process picks it.
	Role    auth.Role
	Version string       // reported to the client
	Log     *slog.Logger // nil: slog.Default()
}

// ServeStdio serves MCP over in and out (ward mcp) to one session of st:
// the configured tools, the role's input source, a session of its own per
// call (per-session limits start over with each run), held by the
// principal "stdio:ROLE" and stored like any other. The session's live
// data updates go out as notifications while the client is connected; its
// subscriptions end with the connection. It returns when in ends or ctx
// is done, after the delivery goroutine it starts has stopped.
func (st *Stack) ServeStdio(ctx context.Context, in io.Reader, out io.Writer, cfg StdioConfig) error {
	log := cfg.Log
	if log == nil {
		log = slog.Default()
	}
	sess, err := st.stdioSession(ctx, cfg.Tools, cfg.Role)
	if err != nil {
		return err
	}
	fs := facade.NewSession(sess)
	srv, err := mcp.New(mcp.Config{
		Tools: st.Facade, Version: cfg.Version, Log: log,
		Session: func(context.Context, string) (*facade.Session, error) { return fs, nil },
		Updates: st.Bus, EndStreams: st.Streams.EndSession,
	})
	if err != nil {
		return err
	}
	delivering, stop := context.WithCancel(ctx)
	var delivered sync.WaitGroup
	delivered.Go(func() { srv.Deliver(delivering) })
	defer func() {
		stop()
		delivered.Wait()
		st.Streams.EndSession(sess.ID)
	}()
	log.Info("mcp: serving on stdio", "session", sess.ID, "role", cfg.Role)
	return srv.RunStdio(ctx, in, out)
}

// stdioSession opens ServeStdio's session.
func (st *Stack) stdioSession(ctx context.Context, tools config.Tools, role auth.Role) (*gate.Session, error) {
	v, err := st.View(tools)
	if err != nil {
		return nil, err
	}
	owner := gate.Owner{PrincipalID: "stdio:" + string(role), Name: "stdio", Source: role.Source()}
	return st.Tools.OpenSession(ctx, owner, id.Opaque(time.Now()), v)
}
