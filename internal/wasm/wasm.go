// Package wasm runs operator-registered WebAssembly modules as read tools
// of ward (issue 21): a guest gets its JSON arguments, may call the read
// tools of its session through the gate, and returns a JSON result or
// write requests that the host turns into previews (permits) of the
// session. A guest never executes a write.
//
// Each call instantiates the module afresh (nothing survives between
// calls: its linear memory is a mapping of its own, zeroed by the kernel
// and unmapped after the call) from a module compiled once at Load (its
// data segments merged first, data.go), under wazero with: a memory
// limit, a wall-clock limit (the context's deadline; wazero closes the
// module when it passes), a CPU budget (the CPU time of the OS thread the
// guest runs on, minus the time spent in host functions, read every
// millisecond from the thread's CPU clock; the guest's context is
// cancelled when it is spent), a cap on the result's size, a cap on the
// number of calls it makes, and no filesystem, network, environment, real
// clock or real randomness (WASI, when the module imports it, has no
// mounts, no sockets, no arguments, no environment, wazero's fake clocks
// and its deterministic random source). The host interface is the module
// "ward_v1" (host.go; the ABI is in docs/sandbox.md, "WASM tools").
//
// The zero Config is refused; a module whose bytes do not match its pin,
// that imports anything but ward_v1's functions and WASI, or that does
// not export the ABI is refused at Load.
package wasm

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/schema"
	"github.com/wardhq/ward/internal/tool"
)

// Default limits of one call.
const (
	DefaultMemory    = 256 << 20
	DefaultWallClock = 5 * time.Second
	DefaultCPU       = 100 * time.Millisecond
	DefaultOutput    = 1 << 20
	DefaultCalls     = 16
	// MaxModule bounds the module file Load reads.
	MaxModule = 64 << 20
)

// Limits bound one call of a WASM tool; zero fields take the defaults.
type Limits struct {
	// Memory caps the guest's linear memory (rounded down to 64 KiB
	// pages); memory.grow past it fails in the guest.
	Memory int64
	// WallClock caps the call's duration, host calls included (at most
	// 15 s, the slowest tick budget).
	WallClock time.Duration
	// CPU caps the CPU time the guest computes: instantiation and its own
	// code, not the read tools it calls.
	CPU time.Duration
	// Output caps the result the guest hands over, in bytes.
	Output int
	// Calls caps the read calls and write requests of one run.
	Calls int
}

// WithDefaults returns l with its zero fields set to the defaults.
func (l Limits) WithDefaults() Limits {
	l.Memory = cmp.Or(l.Memory, DefaultMemory)
	l.WallClock = cmp.Or(l.WallClock, DefaultWallClock)
	l.CPU = cmp.Or(l.CPU, DefaultCPU)
	l.Output = cmp.Or(l.Output, DefaultOutput)
	l.Calls = cmp.Or(l.Calls, DefaultCalls)
	return l
}

// Validate reports the first limit out of range (after WithDefaults).
func (l Limits) Validate() error {
	switch {
	case l.Memory < wasmPage || l.Memory > 4<<30:
		return fmt.Errorf("memory limit %d bytes: want 64 KiB to 4 GiB", l.Memory)
	case l.WallClock < time.Millisecond || l.WallClock > tool.Slow.Duration():
		return fmt.Errorf("wall-clock limit %v: want 1ms to %v", l.WallClock, tool.Slow.Duration())
	case l.CPU < time.Millisecond || l.CPU > l.WallClock:
		return fmt.Errorf("cpu budget %v: want 1ms up to the wall-clock limit", l.CPU)
	case l.Output < 2 || l.Output > 64<<20:
		return fmt.Errorf("output cap %d bytes: want 2 bytes to 64 MiB", l.Output)
	case l.Calls < 0 || l.Calls > 256:
		return fmt.Errorf("call cap %d: want 0 to 256", l.Calls)
	}
	return nil
}

const wasmPage = 64 << 10

// Config is one [[wasm_tool]]: the module and the tool it serves.
type Config struct {
	// Name, Description and Category are the tool's (tool.Def); the name
	// follows tool.ValidDefName.
	Name        string
	Description string
	Category    tool.Category
	// Module is the path of the compiled module.
	Module string
	// SHA256 is the hex SHA-256 the module's bytes must have; empty
	// leaves it unpinned (ward says so at start).
	SHA256 string
	// Params and Result are the JSON schemas of the arguments and of the
	// guest's result; Result empty leaves the result unchecked.
	Params json.RawMessage
	Result json.RawMessage
	// WriteRequests lets the guest return write requests (previewed as
	// the session's); without it a guest that returns any is refused.
	WriteRequests bool
	Limits        Limits
	// Bus receives wasm:start and wasm:complete; nil publishes none.
	Bus *event.Bus
	// Cache keeps compiled code across the tools that share it (a module
	// loaded twice compiles once); nil compiles for this tool alone.
	Cache wazero.CompilationCache
}

// Tool is a loaded WASM tool: its definition and its compiled module.
// It is safe for concurrent use; Close releases the compiled code.
type Tool struct {
	def      *tool.Def
	cfg      Config
	sum      string
	rt       wazero.Runtime
	compiled wazero.CompiledModule
	result   *schema.Schema
}

// ErrPin is wrapped by Load's error for a module whose bytes are not the
// pinned ones.
var ErrPin = errors.New("the module does not match its sha256 pin")

// Load reads, checks and compiles cfg's module. It fails for an invalid
// definition or limits, a module that changed since it was pinned, and a
// module that does not follow the ward_v1 ABI (see Check).
func Load(ctx context.Context, cfg Config) (*Tool, error) {
	cfg.Limits = cfg.Limits.WithDefaults()
	if err := cfg.Limits.Validate(); err != nil {
		return nil, fmt.Errorf("wasm tool %s: %w", cfg.Name, err)
	}
	def, err := cfg.def()
	if err != nil {
		return nil, err
	}
	var res *schema.Schema
	if len(cfg.Result) > 0 {
		if res, err = schema.Compile(cfg.Result); err != nil {
			return nil, fmt.Errorf("wasm tool %s: result schema: %w", cfg.Name, err)
		}
	}
	b, err := ReadModule(cfg.Module)
	if err != nil {
		return nil, fmt.Errorf("wasm tool %s: %w", cfg.Name, err)
	}
	sum := Sum(b)
	if cfg.SHA256 != "" && !strings.EqualFold(cfg.SHA256, sum) {
		return nil, fmt.Errorf("wasm tool %s: %s: %w (pinned %s, found %s)", cfg.Name, cfg.Module, ErrPin, cfg.SHA256, sum)
	}
	rt, compiled, err := compile(ctx, mergeData(b), cfg.Limits.Memory, cfg.Cache)
	if err != nil {
		return nil, fmt.Errorf("wasm tool %s: %s: %w", cfg.Name, cfg.Module, err)
	}
	return &Tool{def: def, cfg: cfg, sum: sum, rt: rt, compiled: compiled, result: res}, nil
}

// ReadModule reads a module file of at most MaxModule bytes.
func ReadModule(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read module: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read module: %w", err)
	}
	if !st.Mode().IsRegular() || st.Size() > MaxModule {
		return nil, fmt.Errorf("read module: %s is not a regular file of at most %d MiB", path, MaxModule>>20)
	}
	b := make([]byte, st.Size())
	if _, err := f.ReadAt(b, 0); err != nil {
		return nil, fmt.Errorf("read module: %w", err)
	}
	return b, nil
}

// Sum returns the hex SHA-256 of a module's bytes, the pin's form.
func Sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// Check compiles module and reports the first way it does not follow
// the ward_v1 ABI. It is what Load checks of the module's bytes.
func Check(ctx context.Context, module []byte) error {
	rt, _, err := link(ctx, wazero.NewRuntimeConfigInterpreter(), module, DefaultMemory)
	if err != nil {
		return err
	}
	return rt.Close(ctx)
}

// compile makes the runtime of one module, with the host modules, and
// checks the module against the ABI; instantiating it once (without
// running it) proves every import resolves.
func compile(ctx context.Context, module []byte, memory int64, cache wazero.CompilationCache) (wazero.Runtime, wazero.CompiledModule, error) {
	rc := wazero.NewRuntimeConfig()
	if cache != nil {
		rc = rc.WithCompilationCache(cache)
	}
	return link(ctx, rc, module, memory)
}

// link is compile on the runtime rc configures. Check links on wazero's
// interpreter, which validates and links a module as the compiler does
// without generating machine code: seconds saved for a Go-built module of
// a few megabytes (minutes under the race detector), and ward serve
// compiles it anyway when it loads the module.
func link(ctx context.Context, rc wazero.RuntimeConfig, module []byte, memory int64) (wazero.Runtime, wazero.CompiledModule, error) {
	rc = rc.WithMemoryLimitPages(uint32(memory / wasmPage)).WithCloseOnContextDone(true)
	rt := wazero.NewRuntimeWithConfig(ctx, rc)
	ok := false
	defer func() {
		if !ok {
			rt.Close(ctx)
		}
	}()
	compiled, err := rt.CompileModule(ctx, module)
	if err != nil {
		return nil, nil, fmt.Errorf("compile: %w", err)
	}
	if err := checkABI(compiled); err != nil {
		return nil, nil, err
	}
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		return nil, nil, fmt.Errorf("wasi: %w", err)
	}
	if _, err := hostModule(rt).Instantiate(ctx); err != nil {
		return nil, nil, fmt.Errorf("host module: %w", err)
	}
	m, err := rt.InstantiateModule(ctx, compiled, wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		return nil, nil, fmt.Errorf("link: %w", err)
	}
	m.Close(ctx)
	ok = true
	return rt, compiled, nil
}

// checkABI refuses a module that imports anything but ward_v1's functions
// (with their signatures) and WASI's, imports memory or tables, or does
// not export memory and ward_run() -> i32.
func checkABI(m wazero.CompiledModule) error {
	for _, f := range m.ImportedFunctions() {
		mod, name, _ := f.Import()
		switch mod {
		case wasi_snapshot_preview1.ModuleName:
			// Linking checks the name and signature against wazero's WASI.
		case HostModule:
			want, ok := hostSignatures[name]
			if !ok {
				return fmt.Errorf("imports %s.%s, which the host does not provide", mod, quoteName(name))
			}
			if !sameTypes(f.ParamTypes(), want.params) || !sameTypes(f.ResultTypes(), want.results) {
				return fmt.Errorf("imports %s.%s with the wrong signature", mod, name)
			}
		default:
			return fmt.Errorf("imports from module %s; only %s and %s are provided", quoteName(mod), HostModule, wasi_snapshot_preview1.ModuleName)
		}
	}
	if n := len(m.ImportedMemories()); n > 0 {
		return errors.New("imports a memory; the guest must define its own")
	}
	if len(m.ExportedMemories()) == 0 {
		return errors.New("exports no memory")
	}
	run, ok := m.ExportedFunctions()[RunExport]
	if !ok {
		return fmt.Errorf("exports no %s function", RunExport)
	}
	if len(run.ParamTypes()) != 0 || !sameTypes(run.ResultTypes(), []api.ValueType{api.ValueTypeI32}) {
		return fmt.Errorf("%s must be () -> i32", RunExport)
	}
	return nil
}

func sameTypes(a, b []api.ValueType) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// quoteName quotes a name from the module, cut to 64 bytes.
func quoteName(s string) string {
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return fmt.Sprintf("%q", s)
}

// def builds the tool's definition: a read tool (Layer1) whose output is
// third-party content, since the module's author is not the operator.
func (c Config) def() (*tool.Def, error) {
	if c.Module == "" {
		return nil, fmt.Errorf("wasm tool %s: no module", c.Name)
	}
	if c.SHA256 != "" {
		if b, err := hex.DecodeString(c.SHA256); err != nil || len(b) != sha256.Size {
			return nil, fmt.Errorf("wasm tool %s: sha256 must be 64 hex digits", c.Name)
		}
	}
	budget := tool.Fast
	switch {
	case c.Limits.WallClock > tool.Medium.Duration():
		budget = tool.Slow
	case c.Limits.WallClock > tool.Fast.Duration():
		budget = tool.Medium
	}
	d := &tool.Def{
		Name: c.Name, Description: c.Description, Category: c.Category,
		Tier: tool.Read, RiskTier: tool.Layer1, Budget: budget, SchemaVersion: 1,
		Params: c.Params, Result: c.Result, ThirdParty: true,
	}
	if err := d.Validate(); err != nil {
		return nil, fmt.Errorf("wasm tool: %w", err)
	}
	return d, nil
}

// Def returns the tool's definition.
func (t *Tool) Def() *tool.Def { return t.def }

// SHA256 returns the hex SHA-256 of the module loaded.
func (t *Tool) SHA256() string { return t.sum }

// Pinned reports whether the configuration pinned the module.
func (t *Tool) Pinned() bool { return t.cfg.SHA256 != "" }

// Registry returns the tool to register: a read tool reachable as
// query_state {kind: NAME}.
func (t *Tool) Registry() registry.Tool {
	return registry.Tool{Def: t.def, Read: t.Call, Action: t.def.Name}
}

// Close releases the compiled module; a call in flight fails (its
// instance is closed with it).
func (t *Tool) Close(ctx context.Context) error { return t.rt.Close(ctx) }
