// Command ward is the safety runtime between an autonomous agent and its
// tools. See README.md; every subcommand has --help.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/wardhq/ward/internal/cli"
	"github.com/wardhq/ward/internal/sandbox"
	"github.com/wardhq/ward/internal/skill"
)

func main() {
	// A sandbox child started by sandbox.Run: the built-in wasm job, or
	// Stage 3's strategy evaluation.
	if code, ok := sandbox.Main(map[string]sandbox.Job{skill.JobName: skill.Job}); ok {
		os.Exit(code)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
