package sandbox

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// execJob is the child's built-in job that replaces it, once confined,
// with the program of a ProcSpec.
const execJob = "exec"

// noWallClock stands for "until the context ends or Kill" in a ProcSpec.
const noWallClock = time.Duration(1 << 62)

// ProcSpec is a long-running program to start in a sandbox (an upstream
// MCP stdio server): the same confinement as Run's jobs (namespaces, the
// minimal root, seccomp, cgroups, rlimits), with the program and what it
// may see declared.
type ProcSpec struct {
	Path string   // absolute path of the program; it and its libraries must be under ReadOnly
	Args []string // argv, Args[0] included; empty: []string{Path}
	Env  []string // the program's whole environment
	// ReadOnly are the host paths the program sees, read-only, at their own
	// paths; nothing else of the host's filesystem is visible.
	ReadOnly []string
	// Writable is a host directory the program may write, at its own path
	// and as its working directory (chowned to the sandbox's uid when ward
	// is root); "": a fresh private directory, removed at the end.
	Writable string
	// Network keeps the host's network: no network namespace, and the
	// seccomp filter lets sockets of any family through.
	Network bool
	// Limits as for Run, except that a zero WallClock or CPUTime means
	// none (the process lives until ctx ends or Kill); Output bounds the
	// stderr kept for the Result.
	Limits Limits
	// Require as for Spec: the program does not start without it.
	Require Requirement
}

// Process is a program started by Start. Its methods are safe for
// concurrent use.
type Process struct {
	Stdin    io.WriteCloser // the program's standard input
	Stdout   io.ReadCloser  // the program's standard output (stderr is kept in the Result)
	Enforced Mechanism      // the isolation known at start (without what the child reports when ready)

	cancel context.CancelFunc
	done   chan struct{}
	res    *Result
	err    error
	once   sync.Once
}

// Start starts spec's program in a new sandbox and returns once it is
// started; a goroutine owned by the Process supervises it, enforcing the
// limits, until it exits, ctx ends, or Kill. Wait returns its Result.
func Start(ctx context.Context, spec ProcSpec) (*Process, error) {
	if !filepath.IsAbs(spec.Path) {
		return nil, fmt.Errorf("sandbox: program path %q is not absolute", spec.Path)
	}
	if spec.Writable != "" && !filepath.IsAbs(spec.Writable) {
		return nil, fmt.Errorf("sandbox: writable directory %q is not absolute", spec.Writable)
	}
	l := spec.Limits
	if l.WallClock == 0 {
		l.WallClock = noWallClock
	}
	if l.CPUTime == 0 {
		l.CPUTime = noWallClock
	}
	lim, err := l.withDefaults()
	if err != nil {
		return nil, err
	}
	args := spec.Args
	if len(args) == 0 {
		args = []string{spec.Path}
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	stderr := &boundedBuffer{max: lim.Output}
	ls, err := launch(launchSpec{job: execJob, lim: lim, readOnly: spec.ReadOnly, require: spec.Require,
		stdin: inR, stdout: outW, out: stderr, path: spec.Path, args: args, env: spec.Env, writable: spec.Writable, network: spec.Network})
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	p := &Process{Stdin: inW, Stdout: outR, Enforced: ls.enforced, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		defer ls.cleanup()
		p.res, p.err = ls.s.wait(ctx, ls.c, ls.enforced)
	}()
	return p, nil
}

// Kill stops the sandbox (every process in it) and waits for it.
func (p *Process) Kill() {
	p.cancel()
	<-p.done
}

// Wait waits for the sandbox to end and returns its Result (Output is the
// program's stderr), and an error as Run's; context.Canceled after Kill.
func (p *Process) Wait() (*Result, error) {
	<-p.done
	p.once.Do(func() {
		p.Stdin.Close()
		p.cancel()
	})
	return p.res, p.err
}
