package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/tetratelabs/wazero"
)

const wasmJob = "wasm"

// wasmPage is the size of a WebAssembly memory page.
const wasmPage = 64 << 10

// wasmInput is the built-in WASM job's input.
type wasmInput struct {
	Module []byte   `json:"module"`
	Func   string   `json:"func"`
	Args   []uint64 `json:"args,omitempty"`
}

// WASM returns the Spec that calls the exported function fn of a WebAssembly
// module with args, under wazero inside a sandbox. The module gets no host
// imports at all: a module that imports anything (WASI included) is refused,
// so the guest has no clock, randomness, filesystem, network or output
// besides its results. Its memory is capped at Limits.Memory/2 (2048 pages,
// 128 MiB, by default; the rest is for the runtime and for the copy a grow
// may make); memory.grow past the cap fails in the guest as the WASM spec
// requires, and a module whose declared minimum exceeds it is refused with
// BreachMemory. The guest is interrupted at the wall clock (BreachWallClock).
// On success the Output is the function's results as a JSON array of
// integers (see WASMResults).
func WASM(module []byte, fn string, args []uint64, lim Limits) (Spec, error) {
	in, err := json.Marshal(wasmInput{Module: module, Func: fn, Args: args})
	if err != nil {
		return Spec{}, err
	}
	return Spec{Job: wasmJob, Input: in, Limits: lim}, nil
}

// WASMResults decodes the Output of a successful WASM run.
func WASMResults(r *Result) ([]uint64, error) {
	if !r.OK() {
		return nil, errors.New("sandbox: wasm run did not succeed")
	}
	var out []uint64
	if err := json.Unmarshal(r.Output, &out); err != nil {
		return nil, fmt.Errorf("sandbox: wasm results: %w", err)
	}
	return out, nil
}

// wasmPages is the guest memory cap for a memory limit.
func wasmPages(memory int64) uint32 {
	return uint32(memory / 2 / wasmPage)
}

func runWASM(cfg childConfig) Job {
	return func(ctx context.Context, input []byte, output io.Writer) error {
		var in wasmInput
		if err := json.Unmarshal(input, &in); err != nil {
			return fmt.Errorf("wasm input: %w", err)
		}
		pages := wasmPages(cfg.Memory)
		min, err := minMemoryPages(in.Module)
		if err != nil {
			return fmt.Errorf("wasm module: %w", err)
		}
		if min > uint64(pages) {
			return &BreachError{Breach: BreachMemory, Err: fmt.Errorf("module declares %d memory pages, cap is %d", min, pages)}
		}
		rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().
			WithMemoryLimitPages(pages).
			WithCloseOnContextDone(true))
		defer rt.Close(context.WithoutCancel(ctx))
		compiled, err := rt.CompileModule(ctx, in.Module)
		if err != nil {
			return fmt.Errorf("wasm compile: %w", err)
		}
		if n := len(compiled.ImportedFunctions()) + len(compiled.ImportedMemories()); n > 0 {
			return fmt.Errorf("wasm module has %d imports; the sandbox provides none", n)
		}
		mod, err := rt.InstantiateModule(ctx, compiled, wazero.NewModuleConfig().WithStartFunctions())
		if err != nil {
			return wasmErr("wasm instantiate", err)
		}
		fn := mod.ExportedFunction(in.Func)
		if fn == nil {
			return fmt.Errorf("wasm module exports no function %q", in.Func)
		}
		res, err := fn.Call(ctx, in.Args...)
		if err != nil {
			return wasmErr("wasm call", err)
		}
		if res == nil {
			res = []uint64{}
		}
		return json.NewEncoder(output).Encode(res)
	}
}

// wasmErr reports wazero's interruption at the context's deadline as the
// wall-clock breach it is.
func wasmErr(op string, err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return &BreachError{Breach: BreachWallClock, Err: err}
	}
	return fmt.Errorf("%s: %w", op, err)
}

// minMemoryPages reads the declared minimum of the module's memory section
// (section 5), or 0 without one.
func minMemoryPages(b []byte) (uint64, error) {
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return 0, errors.New("not a wasm binary")
	}
	b = b[8:]
	for len(b) > 0 {
		id := b[0]
		size, n := uleb(b[1:])
		if n == 0 || uint64(len(b)-1-n) < size {
			return 0, errors.New("truncated section")
		}
		body := b[1+n : 1+n+int(size)]
		b = b[1+n+int(size):]
		if id != 5 {
			continue
		}
		count, n := uleb(body)
		var max uint64
		body = body[n:]
		for range count {
			if len(body) < 2 {
				return 0, errors.New("truncated memory section")
			}
			flags := body[0]
			min, n := uleb(body[1:])
			if n == 0 {
				return 0, errors.New("truncated memory limits")
			}
			body = body[1+n:]
			if flags&1 != 0 {
				_, n = uleb(body)
				body = body[n:]
			}
			max = maxU(max, min)
		}
		return max, nil
	}
	return 0, nil
}

func maxU(a, b uint64) uint64 {
	if a > b {
		return a
	}
	return b
}

// uleb decodes an unsigned LEB128 number, returning it and its length (0 if
// malformed).
func uleb(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < len(b) && i < 10; i++ {
		v |= uint64(b[i]&0x7f) << (7 * i)
		if b[i]&0x80 == 0 {
			return v, i + 1
		}
	}
	return 0, 0
}
