//go:build !linux

package sandbox

import "context"

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
