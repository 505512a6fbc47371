package wasm

import (
	"context"
	"encoding/json"
	"sync/atomic"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/wardhq/ward/internal/registry"
)

// HostModule is the name of the host interface's module. A new version
// of the interface is a new module name; ward_v1 does not change.
const HostModule = "ward_v1"

// RunExport is the function the host calls: () -> i32, 0 for success.
const RunExport = "ward_run"

// The host functions' return codes below zero (docs/sandbox.md).
const (
	ErrFault     int32 = -1 // a pointer and length outside the guest's memory
	ErrTooBig    int32 = -2 // over a limit (name 64 B, arguments 64 KiB, result: Limits.Output)
	ErrRefused   int32 = -3 // the gate refused the call; the response is {"error":{"code","message"}}
	ErrLimit     int32 = -4 // the run made Limits.Calls calls already
	ErrNoSession int32 = -5 // no session to call through (a nested or speculative run)
	ErrState     int32 = -6 // result_set called twice
)

const (
	maxToolName = 64
	maxCallArgs = 64 << 10
)

type signature struct{ params, results []api.ValueType }

var i32 = api.ValueTypeI32

// hostSignatures are ward_v1's functions.
var hostSignatures = map[string]signature{
	"args_get":     {[]api.ValueType{i32, i32}, []api.ValueType{i32}},
	"call":         {[]api.ValueType{i32, i32, i32, i32}, []api.ValueType{i32}},
	"response_get": {[]api.ValueType{i32, i32}, []api.ValueType{i32}},
	"result_set":   {[]api.ValueType{i32, i32}, []api.ValueType{i32}},
}

// run is the state of one call, which the host functions find in their
// context.
type run struct {
	args     []byte
	calls    registry.SessionCalls
	limits   Limits
	made     int
	response []byte
	result   []byte
	resultOK bool
	tooBig   bool // result_set was offered more than the output cap
	// hostNanos is the CPU time spent in host functions, which the CPU
	// budget does not count.
	hostNanos atomic.Int64
	cpu       func() int64
}

type runKey struct{}

func runOf(ctx context.Context) *run { r, _ := ctx.Value(runKey{}).(*run); return r }

func hostModule(rt wazero.Runtime) wazero.HostModuleBuilder {
	b := rt.NewHostModuleBuilder(HostModule)
	fn := func(name string, f api.GoModuleFunc) {
		s := hostSignatures[name]
		b.NewFunctionBuilder().WithGoModuleFunction(f, s.params, s.results).Export(name)
	}
	fn("args_get", func(ctx context.Context, m api.Module, st []uint64) {
		r := runOf(ctx)
		st[0] = uint64(uint32(copyOut(m, r.args, uint32(st[0]), uint32(st[1]))))
	})
	fn("response_get", func(ctx context.Context, m api.Module, st []uint64) {
		r := runOf(ctx)
		st[0] = uint64(uint32(copyOut(m, r.response, uint32(st[0]), uint32(st[1]))))
	})
	fn("result_set", func(ctx context.Context, m api.Module, st []uint64) {
		r := runOf(ctx)
		ptr, n := uint32(st[0]), uint32(st[1])
		code := int32(0)
		switch {
		case r.resultOK:
			code = ErrState
		case int64(n) > int64(r.limits.Output):
			// Refused by its length: nothing is read, nothing buffered.
			code, r.tooBig = ErrTooBig, true
		default:
			b, ok := m.Memory().Read(ptr, n)
			if !ok {
				code = ErrFault
				break
			}
			r.result, r.resultOK = append([]byte(nil), b...), true
		}
		st[0] = uint64(uint32(code))
	})
	fn("call", func(ctx context.Context, m api.Module, st []uint64) {
		r := runOf(ctx)
		start := r.cpu()
		st[0] = uint64(uint32(r.call(ctx, m, uint32(st[0]), uint32(st[1]), uint32(st[2]), uint32(st[3]))))
		r.hostNanos.Add(r.cpu() - start)
	})
	return b
}

// copyOut copies b into the guest's buffer if it fits and returns b's
// length (the guest calls again with a larger buffer when it did not fit).
func copyOut(m api.Module, b []byte, ptr, cap uint32) int32 {
	if uint64(len(b)) > uint64(cap) {
		return int32(len(b))
	}
	if !m.Memory().Write(ptr, b) {
		return ErrFault
	}
	return int32(len(b))
}

type nestedKey struct{}

// call runs a read tool of the session for the guest.
func (r *run) call(ctx context.Context, m api.Module, namePtr, nameLen, argsPtr, argsLen uint32) int32 {
	r.response = nil
	switch {
	case r.calls == nil:
		return ErrNoSession
	case r.made >= r.limits.Calls:
		return ErrLimit
	case nameLen > maxToolName || argsLen > maxCallArgs:
		return ErrTooBig
	}
	name, ok1 := m.Memory().Read(namePtr, nameLen)
	args, ok2 := m.Memory().Read(argsPtr, argsLen)
	if !ok1 || !ok2 {
		return ErrFault
	}
	r.made++
	// The tool runs with the call's context, marked so that a WASM tool
	// it reaches refuses to run (no guest calls a guest).
	res, err := r.calls.Read(context.WithValue(ctx, nestedKey{}, true), string(name), json.RawMessage(append([]byte(nil), args...)))
	if err != nil {
		r.response = refusalJSON(err)
		return ErrRefused
	}
	out, err := json.Marshal(res)
	if err != nil {
		r.response = refusalJSON(err)
		return ErrRefused
	}
	if len(out) > r.limits.Output {
		r.response = refusalJSON(errTooBig)
		return ErrRefused
	}
	r.response = out
	return int32(len(out))
}

type codedError interface{ ReasonCode() string }

// refusalJSON is what a guest reads of a refused call: the refusal's
// message, which the gate writes for the agent (no internals).
func refusalJSON(err error) []byte {
	code := "REFUSED"
	if c, ok := err.(codedError); ok {
		code = c.ReasonCode()
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]string{"code": code, "message": err.Error()}})
	return b
}
