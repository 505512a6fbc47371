package cli

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/daemon"
	"github.com/wardhq/ward/internal/store/sqlite"
)

func serve(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "serve", "", `Run ward as a daemon: the store, the policy, the tool gate, the chain (the
embedded dev chain unless [chain] rpc_url is set), the event bus and the HTTP
listener. A fresh --data directory is initialised on first start; the
server prints a line containing "ready" once it accepts requests, and shuts
down cleanly on SIGTERM or SIGINT. Clients authenticate with a bearer token
from 'ward token create'.`)
	addr := fs.String("addr", daemon.DefaultAddr, "listen address (HOST:PORT); non-loopback needs TLS or --insecure-remote")
	data := fs.String("data", "ward-data", "data directory (created if missing)")
	cfgPath := fs.String("config", "", "ward.toml (default: ./ward.toml if present, else the embedded defaults)")
	cert := fs.String("tls-cert", "", "TLS certificate file")
	key := fs.String("tls-key", "", "TLS key file")
	insecure := fs.Bool("insecure-remote", false, "allow a non-loopback address without TLS")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageErr(io, "serve: unexpected argument %q", fs.Arg(0))
	}
	f, err := loadConfig(*cfgPath)
	if err != nil {
		return usageErr(io, "%v", err)
	}
	log := slog.New(slog.NewTextHandler(io.Err, &slog.HandlerOptions{Level: slog.LevelWarn}))
	err = daemon.Serve(ctx, daemon.ServeConfig{
		Addr: *addr, Data: *data, File: f, TLSCert: *cert, TLSKey: *key, AllowInsecure: *insecure,
		Out: io.Out, Log: log, Mount: mountSurfaces, Extra: upstreamExtra(f, log),
	})
	if err != nil {
		return fail(io, "%v", err)
	}
	return exitOK
}

func tokenCreate(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "token create", "", `Create a bearer token bound to a role and print it on its own line. Only
its hash is stored (in the data directory's database); the token cannot be
shown again. owner: approves quarantined calls, lifts halts, changes the
phase, signs privileged approvals; agent: calls tools; peer: another agent,
with peer authority.`)
	role := fs.String("role", "", "owner, agent or peer (required)")
	data := fs.String("data", "ward-data", "data directory (created if missing)")
	name := fs.String("name", "", "a label for the token (shown in audits)")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	r, err := auth.ParseRole(*role)
	if err != nil {
		return usageErr(io, "token create: --role: %v", err)
	}
	if err := os.MkdirAll(*data, 0o700); err != nil {
		return fail(io, "%v", err)
	}
	st, err := sqlite.Open(ctx, sqlite.Config{Path: filepath.Join(*data, "ward.db")})
	if err != nil {
		return fail(io, "%v", err)
	}
	tok, p, err := auth.Create(ctx, st, r, *name, time.Now())
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fail(io, "%v", err)
	}
	fmt.Fprintln(io.Out, tok)
	fmt.Fprintf(io.Err, "created %s token %s (store it now: it cannot be shown again)\n", p.Role, p.ID)
	return exitOK
}
