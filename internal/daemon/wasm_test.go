package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/wasm"
	"github.com/wardhq/ward/internal/wasm/wasmtest"
)

// wasmStack opens a ward whose ward.toml registers the example WASM tool
// (examples/wasm-tool), built with the running toolchain and pinned.
func wasmStack(t testing.TB) (*Stack, *facade.Session) {
	t.Helper()
	dir := t.TempDir()
	module := filepath.Join(dir, "wasm-tool.wasm")
	if err := wasmtest.Build("../../examples/wasm-tool", module); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(module)
	if err != nil {
		t.Fatal(err)
	}
	toml := fmt.Sprintf(`
[store]
synchronous = "normal"

[[wasm_tool]]
name = "intel_batch_reads"
description = "Calls several read tools in one step and returns their answers."
category = "intelligence"
module = "wasm-tool.wasm"
sha256 = %q
tier = "write_request"
params_schema = '{"type":"object","properties":{"read":{"type":"array"},"write":{"type":"object"}},"additionalProperties":false}'

# This test is about the path through the gate; the budgets are tested in
# internal/wasm. Under -race a Go guest's runtime start alone can pass the
# default 100 ms of CPU.
[wasm_tool.limits]
cpu = "3s"
wall_clock = "10s"
`, wasm.Sum(b))
	cfgPath := filepath.Join(dir, "ward.toml")
	if err := os.WriteFile(cfgPath, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	st, err := OpenData(context.Background(), filepath.Join(dir, "data"), f)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	gs, err := st.Session(context.Background(), "wasm", policy.Agent, "active")
	if err != nil {
		t.Fatal(err)
	}
	return st, facade.NewSession(gs)
}

// TestWASMToolThroughTheGate runs the example module as the agent's
// query_state would over MCP: its read goes through the gate, its direct
// call of a write tool is refused and recorded, and its write request
// becomes a permit the agent commits.
func TestWASMToolThroughTheGate(t *testing.T) {
	ctx := t.Context()
	st, s := wasmStack(t)
	sub := st.Bus.Subscribe(256, func(k event.Kind) bool { return k.Family() == "wasm" || k.Family() == "tool" })
	defer sub.Close()
	dc := st.Dev.Contracts()
	swap := fmt.Sprintf(`{"token_in":%q,"token_out":%q,"amount_in":"1000000"}`, dc.USDC.Hex(), dc.WETH.Hex())

	out, err := st.Facade.Call(ctx, s, "query_state", json.RawMessage(`{"kind":"intel_batch_reads","params":{"read":[
		{"tool":"data_get_chain_info"},{"tool":"uniswap_execute_swap","args":`+swap+`}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Data struct {
			Reads []struct {
				Tool  string
				Code  int32
				Reply json.RawMessage
			}
		}
	}
	if err := json.Unmarshal(out, &res); err != nil || len(res.Data.Reads) != 2 {
		t.Fatalf("result %s: %v", out, err)
	}
	if r := res.Data.Reads[0]; r.Code < 0 || !strings.Contains(string(r.Reply), "chain") {
		t.Errorf("read through the gate: %+v", r)
	}
	if r := res.Data.Reads[1]; r.Code != wasm.ErrRefused || !strings.Contains(string(r.Reply), "TOOL_NOT_AVAILABLE") {
		t.Errorf("direct write call: %+v, want refused", r)
	}
	vetoes, err := st.Store.Actions(ctx, store.ActionFilter{Kind: store.ActionVetoed, Tool: "uniswap_execute_swap"})
	if err != nil || len(vetoes) != 1 || vetoes[0].SessionID != s.ID() {
		t.Errorf("audit of the direct write call: %+v, %v; want one veto of the session", vetoes, err)
	}

	out, err = st.Facade.Call(ctx, s, "query_state", json.RawMessage(`{"kind":"intel_batch_reads","params":{"write":{"tool":"uniswap_execute_swap","args":`+swap+`}}}`))
	if err != nil {
		t.Fatal(err)
	}
	var wr struct {
		Data struct {
			WriteRequests []struct {
				Permit struct {
					PermitID string `json:"permit_id"`
				}
			} `json:"write_requests"`
		}
	}
	if err := json.Unmarshal(out, &wr); err != nil || len(wr.Data.WriteRequests) != 1 || wr.Data.WriteRequests[0].Permit.PermitID == "" {
		t.Fatalf("write request: %s %v", out, err)
	}
	pid := wr.Data.WriteRequests[0].Permit.PermitID
	if _, err := st.Facade.Call(ctx, s, "commit_action", json.RawMessage(`{"permit_id":"`+pid+`"}`)); err != nil {
		t.Fatalf("commit of the WASM tool's permit: %v", err)
	}

	var kinds []event.Kind
	deadline := time.After(5 * time.Second)
	for !slices.Contains(kinds, wasm.EventComplete) || len(kinds) < 8 {
		select {
		case e := <-sub.C():
			kinds = append(kinds, e.Kind)
		case <-deadline:
			t.Fatalf("events %v: want wasm:start, wasm:complete and the tool events", kinds)
		}
	}
	for _, k := range []event.Kind{wasm.EventStart, wasm.EventComplete, event.ToolStart, event.ToolEnd} {
		if !slices.Contains(kinds, k) {
			t.Errorf("no %s event among %v", k, kinds)
		}
	}
}

// BenchmarkWASMOverhead compares one call of a trivial WASM tool (the
// example module making no call) with a native read tool, both through
// the gate as query_state; it reports the median (p50-ns/op).
func BenchmarkWASMOverhead(b *testing.B) {
	st, s := wasmStack(b)
	for _, c := range []struct{ name, kind, params string }{
		{"wasm", "intel_batch_reads", `{"read":[]}`},
		{"native", "chain", `{}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			raw := json.RawMessage(`{"kind":"` + c.kind + `","params":` + c.params + `}`)
			var ns []time.Duration
			for b.Loop() {
				start := time.Now()
				if _, err := st.Facade.Call(b.Context(), s, "query_state", raw); err != nil {
					b.Fatal(err)
				}
				ns = append(ns, time.Since(start))
			}
			sort.Slice(ns, func(i, j int) bool { return ns[i] < ns[j] })
			b.ReportMetric(float64(ns[len(ns)/2].Nanoseconds()), "p50-ns/op")
		})
	}
}
