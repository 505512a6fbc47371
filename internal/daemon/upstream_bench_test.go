package daemon_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	wardfacade "github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/upstream/upstreamtest"
)

// BenchmarkAddedLatency measures what fronting an upstream MCP server adds
// to a call (target: p50 under 300 µs). Each iteration calls the same read
// tool of the same stdio server twice: directly through a go-sdk client
// (its own process of the server), then through ward's gate in process
// (query_state: facade and tool schemas, policy, audit, the upstream call,
// result filter, events). It reports the p50 of the per-iteration
// difference, and the p50 of each path.
func BenchmarkAddedLatency(b *testing.B) {
	s := openStack(b, b.TempDir(), "")
	defer s.Close()
	sess := s.session(b, "bench", policy.Agent)
	// The note's output is third-party content: from the second call on
	// the session is tainted, and the key must come from the owner.
	if _, err := s.Tools.SetDirective(b.Context(), sess, "read the bench note", true); err != nil {
		b.Fatal(err)
	}

	srv := notesServer(b, "direct", "")
	cmd := exec.Command(srv.Command[0], srv.Command[1:]...)
	cmd.Env = os.Environ()
	for k, v := range srv.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench"}, nil).Connect(b.Context(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()

	ctx := b.Context()
	direct := func() {
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_note", Arguments: json.RawMessage(`{"key":"bench"}`)}); err != nil {
			b.Fatal(err)
		}
	}
	args := json.RawMessage(`{"kind":"get_note","venue":"mcp_notes","params":{"key":"bench"}}`)
	gated := func() {
		if _, err := s.Facade.Call(ctx, wardfacade.NewSession(sess), "query_state", args); err != nil {
			b.Fatal(err)
		}
	}
	for range 50 { // warm both paths
		direct()
		gated()
	}
	var d, g, diff []time.Duration
	for b.Loop() {
		t0 := time.Now()
		direct()
		t1 := time.Now()
		gated()
		t2 := time.Now()
		d, g, diff = append(d, t1.Sub(t0)), append(g, t2.Sub(t1)), append(diff, t2.Sub(t1)-t1.Sub(t0))
	}
	added, p99 := upstreamtest.Percentile(diff, 0.50), upstreamtest.Percentile(diff, 0.99)
	us := func(x time.Duration) float64 { return float64(x) / float64(time.Microsecond) }
	b.ReportMetric(us(added), "added-p50-µs")
	b.ReportMetric(us(upstreamtest.Percentile(d, 0.50)), "direct-p50-µs")
	b.ReportMetric(us(upstreamtest.Percentile(g, 0.50)), "gated-p50-µs")
	r := func(x time.Duration) time.Duration { return x.Round(time.Microsecond) }
	b.Logf("added latency of fronting an upstream MCP server: p50 %v, p99 %v (target p50 < 300µs); "+
		"direct p50 %v p99 %v; through ward p50 %v p99 %v; %d calls each",
		r(added), r(p99), r(upstreamtest.Percentile(d, 0.5)), r(upstreamtest.Percentile(d, 0.99)), r(upstreamtest.Percentile(g, 0.5)), r(upstreamtest.Percentile(g, 0.99)), len(d))
}
