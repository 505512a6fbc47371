package cli

import (
	"context"
	"os"

	"github.com/wardhq/ward/internal/daemon"
	"github.com/wardhq/ward/internal/tui"
)

func tuiCmd(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "tui", "", `Watch a running ward serve in the terminal: the gate's phase, halt and
spending against its limits, the agent's state, the calls with their
progress, recent decisions and vetoes, and the quarantine queue, whose
selected call the owner approves (a) or rejects (r). The event stream
reconnects with backoff when it drops. Keys: up/down or j/k select, a
approve, r reject, ? help, q quit.

The token must be an owner's (the event stream, the decisions and the
quarantine queue are the owner's); it comes from --token or the WARD_TOKEN
environment variable. Prefer the variable: other users of the machine can
read a flag from the process list.`)
	addr := fs.String("addr", "http://"+daemon.DefaultAddr, "the daemon's URL")
	token := fs.String("token", "", "bearer token (default $WARD_TOKEN)")
	insecure := fs.Bool("insecure-remote", false, "allow plain http to a non-loopback address (sends the token in clear)")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageErr(io, "tui: unexpected argument %q", fs.Arg(0))
	}
	if *token == "" {
		*token = os.Getenv("WARD_TOKEN")
	}
	c, err := tui.NewClient(*addr, *token, *insecure)
	if err != nil {
		return usageErr(io, "%v", err)
	}
	if err := tui.Run(ctx, tui.Config{Client: c, In: io.In, Out: io.Out}); err != nil {
		return fail(io, "tui: %v", err)
	}
	return exitOK
}
