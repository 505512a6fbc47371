// Command ward is the safety runtime between an autonomous agent and its
// tools. See README.md; every subcommand has --help.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/wardhq/ward/internal/cli"
	"github.com/wardhq/ward/internal/ingest"
	"github.com/wardhq/ward/internal/sandbox"
)

func main() {
	// A sandbox child started by sandbox.Run: the built-in wasm job, or
	// Stage 3's strategy evaluation (with its WASM skill components).
	if code, ok := sandbox.Main(ingest.SandboxJobs()); ok {
		os.Exit(code)
	}
	tuneGC()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
