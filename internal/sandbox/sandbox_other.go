//go:build !linux

package sandbox

import (
	"context"
	"io"
	"net"
)

// EgressAddr is where a program with an egress finds it; see the Linux
// version.
const EgressAddr = "127.0.0.1:3128"

// Run returns ErrUnsupported: the sandbox needs Linux.
func Run(ctx context.Context, spec Spec) (*Result, error) { return nil, ErrUnsupported }

// Main reports that this process is never a sandbox child.
func Main(jobs map[string]Job) (code int, ok bool) { return 0, false }

// WASM returns ErrUnsupported: the sandbox needs Linux.
func WASM(module []byte, fn string, args []uint64, lim Limits) (Spec, error) {
	return Spec{}, ErrUnsupported
}

// WASMResults returns ErrUnsupported: the sandbox needs Linux.
func WASMResults(r *Result) ([]uint64, error) { return nil, ErrUnsupported }

// ProcSpec is a program to start in a sandbox; see the Linux version.
type ProcSpec struct {
	Path     string
	Args     []string
	Env      []string
	ReadOnly []string
	Writable string
	Network  bool
	Egress   func(ctx context.Context, conn net.Conn)
	// EgressOverCap: see the Linux version.
	EgressOverCap func(ctx context.Context)
	Limits        Limits
	Require       Requirement
}

// Process is a program started by Start; see the Linux version.
type Process struct {
	Stdin    io.WriteCloser
	Stdout   io.ReadCloser
	Enforced Mechanism
}

// Start returns ErrUnsupported: the sandbox needs Linux.
func Start(ctx context.Context, spec ProcSpec) (*Process, error) { return nil, ErrUnsupported }

// Kill does nothing.
func (p *Process) Kill() {}

// Wait returns ErrUnsupported.
func (p *Process) Wait() (*Result, error) { return nil, ErrUnsupported }
