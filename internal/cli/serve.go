package cli

import (
	"context"
	"log/slog"

	"github.com/wardhq/ward/internal/daemon"
)

func serve(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "serve", "", `Run ward as a daemon: the store, the policy, the tool gate, the chain (the
embedded dev chain unless [chain] rpc_url is set), the event bus and the HTTP
listener. A fresh --data directory is initialised on first start; the
server prints a line containing "ready" once it accepts requests, and shuts
down cleanly on SIGTERM or SIGINT. One ward serves a data directory at a
time (a second is refused), and its database is checked before use: an
empty, truncated or corrupt ward.db is refused with what to do. Clients authenticate with a bearer token
from 'ward token create'.`)
	addr := fs.String("addr", daemon.DefaultAddr, "listen address (HOST:PORT); non-loopback needs TLS or --insecure-remote")
	data := dataFlag(fs, "data directory (created if missing)")
	cfgPath := fs.String("config", "", "ward.toml (default: ./ward.toml if present, else the embedded defaults)")
	cert := fs.String("tls-cert", "", "TLS certificate file")
	key := fs.String("tls-key", "", "TLS key file")
	insecure := fs.Bool("insecure-remote", false, "allow a non-loopback address without TLS")
	initDB := fs.Bool("init", false, "let an existing empty ward.db become a new database (refused without it: an empty database is a truncated copy or a failed restore)")
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
		Out: io.Out, Log: log, Mount: daemon.MountSurfaces, Version: versionString(), Extra: upstreamExtra(f, *data, log), ReloadOnHangup: true,
		Init: *initDB,
	})
	if err != nil {
		return fail(io, "%v", err)
	}
	return exitOK
}
