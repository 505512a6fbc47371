package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"golang.org/x/sys/unix"
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
	// Egress, without Network, is the program's one way out of its
	// network namespace: the sandbox brings up loopback there (nothing
	// else), listens on EgressAddr, and calls Egress, in this process and
	// outside the namespace, with each connection to it, in a goroutine
	// of its own owned by the Process. ctx ends, and the connection is
	// closed, when the sandbox has ended. The seccomp filter lets
	// AF_INET and AF_INET6 sockets through (AF_UNIX as always). The
	// sandbox's child stays as the program's parent (not replaced by it),
	// counted beside Limits.Processes. Nil: no listener, loopback down.
	Egress func(ctx context.Context, conn net.Conn)
	// EgressOverCap, with Egress, is told of each connection closed
	// unserved because MaxEgressConns were being served, on the
	// goroutine that receives the connections (which wait meanwhile),
	// with Egress's ctx. Nil: not told.
	EgressOverCap func(ctx context.Context)
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
	lim, err := spec.limits()
	if err != nil {
		return nil, err
	}
	args := spec.Args
	if len(args) == 0 {
		args = []string{spec.Path}
	}
	pp, err := openPipes()
	if err != nil {
		return nil, err
	}
	egressParent, egressChild, err := spec.egressPair(&lim)
	if err != nil {
		pp.close()
		return nil, err
	}
	stderr := &boundedBuffer{max: lim.Output}
	ls, err := launch(launchSpec{job: execJob, lim: lim, readOnly: spec.ReadOnly, require: spec.Require,
		stdin: pp.inR, stdout: pp.outW, out: stderr, path: spec.Path, args: args, env: spec.Env, writable: spec.Writable, network: spec.Network,
		egress: egressChild})
	pp.inR.Close()
	pp.outW.Close()
	if egressChild != nil {
		egressChild.Close()
	}
	if err != nil {
		pp.inW.Close()
		pp.outR.Close()
		if egressParent != nil {
			egressParent.Close()
		}
		return nil, err
	}
	return superviseProcess(ctx, ls, pp, egressParent, spec), nil
}

// limits checks spec's paths and returns its limits with the defaults
// filled in; a program without a wall-clock or CPU limit gets none.
func (spec *ProcSpec) limits() (Limits, error) {
	if !filepath.IsAbs(spec.Path) {
		return Limits{}, fmt.Errorf("sandbox: program path %q is not absolute", spec.Path)
	}
	if spec.Writable != "" && !filepath.IsAbs(spec.Writable) {
		return Limits{}, fmt.Errorf("sandbox: writable directory %q is not absolute", spec.Writable)
	}
	l := spec.Limits
	if l.WallClock == 0 {
		l.WallClock = noWallClock
	}
	if l.CPUTime == 0 {
		l.CPUTime = noWallClock
	}
	return l.withDefaults()
}

// pipes are the program's standard input and output: the child's ends
// (inR, outW) and the Process's (inW, outR).
type pipes struct{ inR, inW, outR, outW *os.File }

func openPipes() (pipes, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return pipes{}, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return pipes{}, err
	}
	return pipes{inR: inR, inW: inW, outR: outR, outW: outW}, nil
}

func (pp pipes) close() {
	pp.inR.Close()
	pp.inW.Close()
	pp.outR.Close()
	pp.outW.Close()
}

// egressPair returns the two ends of the egress socket of a spec with an
// Egress (nil, nil without one), counting the child that stays as the
// program's parent in lim. It refuses an egress for a program with the
// network.
func (spec *ProcSpec) egressPair(lim *Limits) (parent, child *os.File, err error) {
	if spec.Egress == nil {
		return nil, nil, nil
	}
	// The child stays, as the program's parent: one process more.
	lim.Processes++
	if spec.Network {
		return nil, nil, errors.New("sandbox: an egress is for a program without the network")
	}
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("sandbox: egress socket: %w", err)
	}
	return os.NewFile(uintptr(fds[0]), "egress"), os.NewFile(uintptr(fds[1]), "egress-child"), nil
}

// superviseProcess returns the Process of the launched ls and starts the
// goroutine it owns, which waits for the program under ctx, then ends the
// egress (served from egressParent, if any) and waits for it.
func superviseProcess(ctx context.Context, ls *launched, pp pipes, egressParent *os.File, spec ProcSpec) *Process {
	ctx, cancel := context.WithCancel(ctx)
	p := &Process{Stdin: pp.inW, Stdout: pp.outR, Enforced: ls.enforced, cancel: cancel, done: make(chan struct{})}
	var egress sync.WaitGroup
	egressCtx, endEgress := context.WithCancel(context.WithoutCancel(ctx))
	if egressParent != nil {
		egress.Go(func() { receiveEgress(egressCtx, egressParent, spec.Egress, spec.EgressOverCap, &egress) })
	}
	go func() {
		defer close(p.done)
		defer ls.cleanup()
		p.res, p.err = ls.s.wait(ctx, ls.c, ls.enforced)
		endEgress()
		if egressParent != nil {
			egressParent.Close()
		}
		egress.Wait()
	}()
	return p
}

// MaxEgressConns bounds the egress connections of one sandbox served at
// once: each holds a descriptor and a goroutine of ward's; past it a
// connection is closed at once.
const MaxEgressConns = 128

// receiveEgress receives the connections the child hands over on sock
// and serves each with serve, in goroutines counted in wg, until the
// child closes its end or sock is closed; at most MaxEgressConns at once,
// telling overCap (if not nil) of each connection closed past them.
func receiveEgress(ctx context.Context, sock *os.File, serve func(context.Context, net.Conn), overCap func(context.Context), wg *sync.WaitGroup) {
	fc, err := net.FileConn(sock)
	if err != nil {
		return
	}
	defer fc.Close()
	context.AfterFunc(ctx, func() { fc.Close() })
	uc, ok := fc.(*net.UnixConn)
	if !ok {
		return
	}
	buf, oob := make([]byte, 1), make([]byte, unix.CmsgSpace(4*4))
	slots := make(chan struct{}, MaxEgressConns)
	for {
		n, oobn, _, _, err := uc.ReadMsgUnix(buf, oob)
		if err != nil || (n == 0 && oobn == 0) {
			return
		}
		for _, f := range receivedFiles(oob[:oobn]) {
			conn, err := net.FileConn(f)
			f.Close()
			if err != nil {
				continue
			}
			select {
			case slots <- struct{}{}:
			default:
				conn.Close() // at MaxEgressConns: refused
				if overCap != nil {
					overCap(ctx)
				}
				continue
			}
			wg.Go(func() {
				defer func() { <-slots }()
				defer conn.Close()
				serve(ctx, conn)
			})
		}
	}
}

// receivedFiles returns the descriptors of an SCM_RIGHTS message.
func receivedFiles(oob []byte) []*os.File {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return nil
	}
	var out []*os.File
	for _, m := range msgs {
		fds, err := unix.ParseUnixRights(&m)
		if err != nil {
			continue
		}
		for _, fd := range fds {
			unix.CloseOnExec(fd)
			out = append(out, os.NewFile(uintptr(fd), "egress-conn"))
		}
	}
	return out
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
