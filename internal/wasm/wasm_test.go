package wasm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"

	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
	"github.com/wardhq/ward/internal/wasm"
	"github.com/wardhq/ward/internal/wasm/wasmtest"
)

// Guests are built once per test binary with the toolchain that runs the
// tests.
var (
	cache     = wazero.NewCompilationCache()
	buildOnce sync.Once
	buildDir  string
	buildErr  error
)

// guest returns the path of the compiled guest in dir (relative to the
// module's root, e.g. "internal/wasm/testdata/attack").
func guest(t testing.TB, name string) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "ward-wasm-guests-")
		if buildErr != nil {
			return
		}
		for dir, out := range map[string]string{
			"testdata/attack":          "attack.wasm",
			"testdata/badimport":       "badimport.wasm",
			"../../examples/wasm-tool": "example.wasm",
		} {
			if buildErr = wasmtest.Build(dir, filepath.Join(buildDir, out)); buildErr != nil {
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return filepath.Join(buildDir, name+".wasm")
}

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

const anyObject = `{"type":"object"}`

func config(t testing.TB, module string, mut func(*wasm.Config)) wasm.Config {
	c := wasm.Config{Name: "intel_test_guest", Description: "a test guest", Category: tool.CatIntelligence,
		Module: guest(t, module), Params: json.RawMessage(anyObject), WriteRequests: true, Cache: cache}
	if mut != nil {
		mut(&c)
	}
	return c
}

func load(t testing.TB, c wasm.Config) *wasm.Tool {
	t.Helper()
	w, err := wasm.Load(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close(context.Background()) })
	return w
}

// session is a fake gate: one read tool, one write tool it refuses.
type session struct {
	mu       sync.Mutex
	reads    []string
	previews []string
}

type refusal struct{ code, msg string }

func (r *refusal) Error() string      { return r.code + ": " + r.msg }
func (r *refusal) ReasonCode() string { return r.code }

func (s *session) Read(ctx context.Context, name string, raw json.RawMessage) (*tool.Result, error) {
	s.mu.Lock()
	s.reads = append(s.reads, name)
	s.mu.Unlock()
	if name == "data_get_chain_info" {
		return &tool.Result{Data: json.RawMessage(`{"chain_id":1337}`), SchemaVersion: 1}, nil
	}
	return nil, &refusal{"TOOL_NOT_AVAILABLE", name + " changes state"}
}

func (s *session) Preview(ctx context.Context, name string, raw json.RawMessage) (json.RawMessage, error) {
	s.mu.Lock()
	s.previews = append(s.previews, name)
	s.mu.Unlock()
	return json.RawMessage(`{"permit_id":"p1"}`), nil
}

func call(t testing.TB, w *wasm.Tool, s registry.SessionCalls, args string) (*tool.Result, error) {
	t.Helper()
	a, err := tool.ParseArgs(json.RawMessage(args))
	if err != nil {
		t.Fatal(err)
	}
	return w.Call(context.Background(), &registry.Input{Args: a, Raw: json.RawMessage(args), SessionID: "s1", Session: s, Step: func(int) {}})
}

func TestExampleReadsAndRequestsWrites(t *testing.T) {
	w := load(t, config(t, "example", nil))
	s := &session{}
	res, err := call(t, w, s, `{"read":[{"tool":"data_get_chain_info"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.Data); !strings.Contains(got, `"chain_id":1337`) {
		t.Errorf("result = %s, want the read tool's answer", got)
	}
	res, err = call(t, w, s, `{"write":{"tool":"uniswap_execute_swap","args":{"amount_in":"1"}}}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.Data); !strings.Contains(got, `"permit_id":"p1"`) || len(s.previews) != 1 || s.previews[0] != "uniswap_execute_swap" {
		t.Errorf("result = %s, previews %v: want the write previewed", got, s.previews)
	}
}

// TestAttacks: each guest is stopped or refused with a clear error, and
// the next call of the same tool works.
func TestAttacks(t *testing.T) {
	cases := []struct {
		name   string
		args   string
		limits wasm.Limits
		want   string // in the error
		is     error
	}{
		{"loop forever", `{"mode":"loop"}`, wasm.Limits{WallClock: 3 * time.Second}, "CPU budget", wasm.ErrCPUBudget},
		{"allocate past the memory limit", `{"mode":"alloc","mb":64}`, wasm.Limits{Memory: 32 << 20, CPU: 10 * time.Second, WallClock: 15 * time.Second}, "memory limit of 32 MiB", wasm.ErrMemory},
		{"recurse without bound", `{"mode":"recurse"}`, wasm.Limits{Memory: 16 << 20, CPU: 10 * time.Second, WallClock: 15 * time.Second}, "memory limit of 16 MiB", wasm.ErrMemory},
		{"return 100 MB", `{"mode":"bigout","mb":100}`, wasm.Limits{CPU: 10 * time.Second, WallClock: 15 * time.Second}, "output cap of 1024 KiB", wasm.ErrOutput},
		{"unknown output field", `{"mode":"extra"}`, wasm.Limits{}, "not a JSON object with result or write_requests", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := load(t, config(t, "attack", func(cf *wasm.Config) { cf.Limits = c.limits }))
			start := time.Now()
			_, err := call(t, w, &session{}, c.args)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one saying %q", err, c.want)
			}
			if c.is != nil && !errors.Is(err, c.is) {
				t.Errorf("err = %v, want %v", err, c.is)
			}
			t.Logf("stopped after %v: %v", time.Since(start).Round(time.Millisecond), err)
			res, err := call(t, w, &session{}, `{"mode":"ok"}`)
			if err != nil || !strings.Contains(string(res.Data), "ward") {
				t.Fatalf("the next call: %v, %v", res, err)
			}
		})
	}
}

func TestWriteToolCalledDirectlyIsRefused(t *testing.T) {
	w := load(t, config(t, "attack", nil))
	s := &session{}
	res, err := call(t, w, s, `{"mode":"call","tool":"uniswap_execute_swap","args":{"amount_in":"1"}}`)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Code  int32
		Reply struct{ Error struct{ Code string } }
	}
	if err := json.Unmarshal(res.Data, &out); err != nil {
		t.Fatal(err)
	}
	if out.Code != wasm.ErrRefused || out.Reply.Error.Code != "TOOL_NOT_AVAILABLE" {
		t.Errorf("guest saw %s, want ErrRefused with the gate's code", res.Data)
	}
}

func TestWriteRequestsNeedTheTier(t *testing.T) {
	w := load(t, config(t, "attack", func(c *wasm.Config) { c.WriteRequests = false }))
	s := &session{}
	if _, err := call(t, w, s, `{"mode":"write","tool":"uniswap_execute_swap","args":{}}`); err == nil || len(s.previews) != 0 {
		t.Fatalf("err = %v, previews %v: want refused, none previewed", err, s.previews)
	}
}

func TestNoSessionNoCalls(t *testing.T) {
	w := load(t, config(t, "attack", nil))
	res, err := call(t, w, nil, `{"mode":"call","tool":"data_get_chain_info","args":{}}`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.Data), `"code":-5`) {
		t.Errorf("result = %s, want ErrNoSession", res.Data)
	}
}

func TestLoadRefuses(t *testing.T) {
	ctx := context.Background()
	changed := filepath.Join(t.TempDir(), "changed.wasm")
	b, err := os.ReadFile(guest(t, "attack"))
	if err != nil {
		t.Fatal(err)
	}
	pin := wasm.Sum(b)
	b[len(b)-1] ^= 1
	if err := os.WriteFile(changed, b, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		cfg  wasm.Config
		want string
	}{
		{"zero config", wasm.Config{}, "wasm tool"},
		{"unknown host function", config(t, "badimport", nil), `ward_v1."exec_write", which the host does not provide`},
		{"changed since pinned", config(t, "attack", func(c *wasm.Config) { c.Module, c.SHA256 = changed, pin }), "does not match its sha256 pin"},
		{"not a module", config(t, "attack", func(c *wasm.Config) { c.Module = "wasm_test.go" }), "compile"},
		{"bad name", config(t, "attack", func(c *wasm.Config) { c.Name = "Exec" }), "name must be"},
		{"cpu over wall clock", config(t, "attack", func(c *wasm.Config) { c.Limits.CPU = time.Minute }), "cpu budget"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := wasm.Load(ctx, c.cfg)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one saying %q", err, c.want)
			}
		})
	}
	if err := wasm.Check(ctx, mustRead(t, guest(t, "badimport"))); err == nil {
		t.Error("Check accepted a module importing an unknown host function")
	}
}

func mustRead(t testing.TB, p string) []byte {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestNoMemoryCarriesOver: a guest that plants a secret in a global and
// in 4 MiB of its heap cannot find it in the next call, which allocates
// the same buffer at the same address (a fresh instance's heap is
// deterministic) and reads it unwritten. The same run repeated in one
// session and across sessions; memory reused between calls would show
// the secret.
func TestNoMemoryCarriesOver(t *testing.T) {
	w := load(t, config(t, "attack", nil))
	type found struct {
		Addr   uint64
		Heap   int
		Global bool
	}
	for i := range 3 {
		res, err := call(t, w, &session{}, `{"mode":"plant"}`)
		if err != nil {
			t.Fatal(err)
		}
		var planted found
		if err := json.Unmarshal(res.Data, &planted); err != nil || planted.Addr == 0 {
			t.Fatalf("plant: %s, %v", res.Data, err)
		}
		res, err = call(t, w, &session{}, `{"mode":"seek"}`)
		if err != nil {
			t.Fatal(err)
		}
		var got found
		if err := json.Unmarshal(res.Data, &got); err != nil {
			t.Fatalf("seek: %s, %v", res.Data, err)
		}
		if got.Addr != planted.Addr {
			t.Fatalf("round %d: seek's buffer is at %#x, the planted one was at %#x: the test reads the wrong place", i, got.Addr, planted.Addr)
		}
		if got.Heap != 0 || got.Global {
			t.Errorf("round %d: the next call found the previous call's secret: %d copies in its heap, global %v", i, got.Heap, got.Global)
		}
	}
}

// TestStoppedGuestsReleaseMemory: guests stopped by their CPU budget and
// guests that fail leave no linear memory mapped behind them: five runs with a
// 1 GiB limit each (its reservation) leave the process's address space
// within a fraction of one limit of where it was.
func TestStoppedGuestsReleaseMemory(t *testing.T) {
	vmSize := func() int64 {
		b, err := os.ReadFile("/proc/self/status")
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.SplitSeq(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "VmSize:"); ok {
				var kb int64
				fmt.Sscanf(strings.TrimSpace(v), "%d", &kb)
				return kb << 10
			}
		}
		t.Fatal("no VmSize")
		return 0
	}
	const limit = 1 << 30
	w := load(t, config(t, "attack", func(c *wasm.Config) {
		c.Limits = wasm.Limits{Memory: limit, CPU: 50 * time.Millisecond, WallClock: 5 * time.Second}
	}))
	if _, err := call(t, w, &session{}, `{"mode":"ok"}`); err != nil {
		t.Fatal(err)
	}
	before := vmSize()
	for range 5 {
		if _, err := call(t, w, &session{}, `{"mode":"loop"}`); !errors.Is(err, wasm.ErrCPUBudget) {
			t.Fatalf("loop: %v, want the CPU budget", err)
		}
		if _, err := call(t, w, &session{}, `{"mode":"no such mode"}`); err == nil {
			t.Fatal("a failing guest: no error")
		}
	}
	if grown := vmSize() - before; grown > limit/2 {
		t.Errorf("the address space grew by %d MiB over 10 stopped runs with a %d MiB limit", grown>>20, limit>>20)
	}
}
