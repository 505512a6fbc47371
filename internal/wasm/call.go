package wasm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/sys"

	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// Kinds of events a WASM tool's call publishes, next to the gate's
// tool:start, tool:update and tool:end of the same call.
const (
	EventStart    event.Kind = "wasm:start"
	EventComplete event.Kind = "wasm:complete"
)

// Errors a call returns; the gate shows their text to the agent, so they
// carry no text of the guest's.
var (
	ErrCPUBudget = errors.New("the guest used up its CPU budget")
	ErrWallClock = errors.New("the guest did not finish within its wall-clock limit")
	ErrNested    = errors.New("a WASM tool cannot be called by a WASM tool")
	ErrOutput    = errors.New("the guest's result is larger than its output cap")
	ErrMemory    = errors.New("the guest ran out of its memory limit")
	errTooBig    = errors.New("the response is larger than the guest's output cap")
)

// memorySlack is how far below its limit a guest's memory may stop
// growing: the largest single grow a guest's allocator asks for.
const memorySlack = 8 << 20

// MaxWriteRequests bounds the write requests of one result.
const MaxWriteRequests = 8

// output is what the guest hands over with result_set: exactly one of
// its fields.
type output struct {
	Result        json.RawMessage `json:"result"`
	WriteRequests []writeRequest  `json:"write_requests"`
}

type writeRequest struct {
	Tool string          `json:"tool"`
	Args json.RawMessage `json:"args"`
}

// Call runs the guest once for in (the tool's read handler).
func (t *Tool) Call(ctx context.Context, in *registry.Input) (*tool.Result, error) {
	if ctx.Value(nestedKey{}) != nil {
		return nil, ErrNested
	}
	start := time.Now()
	t.publish(event.Event{Kind: EventStart, SessionID: in.SessionID, Tool: t.def.Name, ParamsHash: in.Args.HashHex()})
	out, st, err := t.execute(ctx, in)
	done := event.Event{Kind: EventComplete, SessionID: in.SessionID, Tool: t.def.Name, ParamsHash: in.Args.HashHex(),
		Success: err == nil, DurationMS: time.Since(start).Milliseconds(),
		Message: fmt.Sprintf("cpu %v of %v, memory %d KiB of %d KiB, %d calls", st.cpu.Round(time.Microsecond), t.cfg.Limits.CPU, st.memory>>10, t.cfg.Limits.Memory>>10, st.calls)}
	if err != nil {
		done.Code = "WASM_FAILED"
		done.Message += ": " + err.Error()
		t.publish(done)
		return nil, err
	}
	t.publish(done)
	res, err := t.deliver(ctx, in, out)
	if err != nil {
		return nil, err
	}
	return res, nil
}

func (t *Tool) publish(e event.Event) {
	if t.cfg.Bus != nil {
		e.Time = time.Now()
		t.cfg.Bus.Publish(e)
	}
}

// stats is what one run used.
type stats struct {
	cpu    time.Duration
	memory uint64
	calls  int
}

// execute instantiates the module and runs ward_run on a goroutine locked
// to its OS thread, watching that thread's CPU time; it returns the bytes
// the guest handed over with result_set.
func (t *Tool) execute(ctx context.Context, in *registry.Input) ([]byte, stats, error) {
	r := &run{args: in.Raw, calls: in.Session, limits: t.cfg.Limits}
	ctx, cancelWall := context.WithTimeoutCause(ctx, t.cfg.Limits.WallClock, ErrWallClock)
	defer cancelWall()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	ctx = context.WithValue(ctx, runKey{}, r)

	type outcome struct {
		st  stats
		err error
	}
	clock := make(chan threadClock, 1)
	done := make(chan outcome, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		c := currentThreadClock()
		c.base = c.nanos()
		r.cpu = c.nanos
		clock <- c
		var o outcome
		o.st.memory, o.err = t.instantiateAndRun(ctx)
		o.st.cpu = time.Duration(c.used() - r.hostNanos.Load())
		done <- o
	}()
	c := <-clock
	budget := t.cfg.Limits.CPU.Nanoseconds()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case o := <-done:
			o.st.calls = r.made
			if r.tooBig {
				// Whatever the guest did next, it tried to hand over too much.
				return nil, o.st, fmt.Errorf("%w of %d KiB", ErrOutput, t.cfg.Limits.Output>>10)
			}
			if o.err != nil {
				return nil, o.st, t.explain(ctx, o.err, o.st.memory)
			}
			if !r.resultOK {
				return nil, o.st, errors.New("the guest returned without a result (result_set)")
			}
			return r.result, o.st, nil
		case <-tick.C:
			if c.used()-r.hostNanos.Load() > budget {
				cancel(ErrCPUBudget)
			}
		}
	}
}

// instantiateAndRun runs one fresh instance: _initialize if the module
// exports it (a Go or Rust reactor), then ward_run.
func (t *Tool) instantiateAndRun(ctx context.Context) (uint64, error) {
	if mem := newLinearMemory(uint64(t.cfg.Limits.Memory / wasmPage * wasmPage)); mem != nil {
		// Freed after the instance is closed (deferred first, runs last).
		defer mem.Free()
		ctx = experimental.WithMemoryAllocator(ctx, experimental.MemoryAllocatorFunc(func(_, _ uint64) experimental.LinearMemory { return mem }))
	}
	cfg := wazero.NewModuleConfig().WithName("").WithStartFunctions("_initialize")
	m, err := t.rt.InstantiateModule(ctx, t.compiled, cfg)
	if err != nil {
		return 0, err
	}
	defer m.Close(context.WithoutCancel(ctx))
	res, err := m.ExportedFunction(RunExport).Call(ctx)
	mem := uint64(m.Memory().Size())
	if err != nil {
		return mem, err
	}
	if code := int32(res[0]); code != 0 {
		return mem, fmt.Errorf("the guest failed with code %d", code)
	}
	return mem, nil
}

// explain turns a run's error into one safe to show: the limit that
// stopped the guest, its exit code, or the first line of wazero's trap
// (never the guest's stack trace or output).
func (t *Tool) explain(ctx context.Context, err error, memory uint64) error {
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
		switch {
		case errors.Is(cause, ErrCPUBudget):
			return fmt.Errorf("%w of %v", ErrCPUBudget, t.cfg.Limits.CPU)
		case errors.Is(cause, ErrWallClock), errors.Is(cause, context.DeadlineExceeded):
			return fmt.Errorf("%w of %v", ErrWallClock, t.cfg.Limits.WallClock)
		}
	}
	// A guest that failed within a grow's reach of its limit failed for
	// want of memory (a Go guest's runtime then traps or exits).
	if memory+memorySlack >= uint64(t.cfg.Limits.Memory) {
		return fmt.Errorf("%w of %d MiB (unbounded allocation or recursion)", ErrMemory, t.cfg.Limits.Memory>>20)
	}
	var exit *sys.ExitError
	if errors.As(err, &exit) {
		return fmt.Errorf("the guest exited with code %d, using %d KiB of memory", exit.ExitCode(), memory>>10)
	}
	msg, _, _ := strings.Cut(err.Error(), "\n")
	if len(msg) > 200 {
		msg = msg[:200]
	}
	return fmt.Errorf("the guest stopped (using %d KiB of memory): %s", memory>>10, msg)
}

// deliver checks what the guest handed over and makes the tool's result:
// its result (checked against the result schema), or its write requests
// previewed as the session's.
func (t *Tool) deliver(ctx context.Context, in *registry.Input, b []byte) (*tool.Result, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var o output
	if err := dec.Decode(&o); err != nil || dec.More() {
		return nil, errors.New("the guest's output is not a JSON object with result or write_requests")
	}
	switch {
	case (len(o.Result) > 0) == (o.WriteRequests != nil):
		return nil, errors.New("the guest's output must have exactly one of result and write_requests")
	case len(o.Result) > 0:
		if t.result != nil {
			if err := t.result.Validate(o.Result); err != nil {
				return nil, fmt.Errorf("the guest's result does not match the tool's result schema: %v", err)
			}
		}
		return &tool.Result{Data: o.Result, SchemaVersion: t.def.SchemaVersion}, nil
	}
	if !t.cfg.WriteRequests {
		return nil, errors.New("the guest returned write requests, which this tool may not make (write_requests = false)")
	}
	if len(o.WriteRequests) == 0 || len(o.WriteRequests) > MaxWriteRequests {
		return nil, fmt.Errorf("the guest returned %d write requests: want 1 to %d", len(o.WriteRequests), MaxWriteRequests)
	}
	if in.Session == nil {
		return nil, errors.New("the guest returned write requests outside a session")
	}
	type previewed struct {
		Tool   string          `json:"tool"`
		Permit json.RawMessage `json:"permit,omitempty"`
		Error  json.RawMessage `json:"refused,omitempty"`
	}
	out := struct {
		WriteRequests []previewed `json:"write_requests"`
	}{}
	for _, w := range o.WriteRequests {
		if !tool.ValidDefName(w.Tool) {
			return nil, errors.New("a write request names no valid tool")
		}
		p := previewed{Tool: w.Tool}
		permit, err := in.Session.Preview(context.WithValue(ctx, nestedKey{}, true), w.Tool, w.Args)
		if err != nil {
			p.Error = json.RawMessage(refusalJSON(err))
		} else {
			p.Permit = permit
		}
		out.WriteRequests = append(out.WriteRequests, p)
	}
	data, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	return &tool.Result{Data: data, SchemaVersion: t.def.SchemaVersion}, nil
}
