package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveBench are ward serve's figures.
type serveBench struct {
	StartupMS   float64       `json:"startup_ms"`
	IdleRSSMB   float64       `json:"idle_rss_mb"`
	MCPCalls    int           `json:"mcp_calls"`
	MCPReadP50  time.Duration `json:"mcp_read_p50_ns"`
	MCPReadP99  time.Duration `json:"mcp_read_p99_ns"`
	ShutdownMS  float64       `json:"shutdown_ms"`
	LoadedRSSMB float64       `json:"loaded_rss_mb"`
}

func benchServe(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "bench serve", "", `Start 'ward serve' (this binary) as a child process on a loopback port with
a fresh data directory and measure: time to ready, resident memory when
idle, the MCP round trip of a read facade tool (query_state kind gate) over
streamable HTTP with an agent token, resident memory after the calls, and
the time SIGTERM takes to shut it down.`)
	asJSON := fs.Bool("json", false, "print one JSON object")
	calls := fs.Int("calls", 2000, "MCP calls to time")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if *calls < 10 {
		return usageErr(io, "--calls must be at least 10")
	}
	res, err := runServeBench(ctx, *calls)
	if err != nil {
		return fail(io, "bench serve: %v", err)
	}
	if *asJSON {
		b, _ := json.Marshal(res)
		fmt.Fprintln(io.Out, string(b))
		return exitOK
	}
	fmt.Fprintf(io.Out, "startup to ready:               %8.0f ms   (target < 1000 ms)\n", res.StartupMS)
	fmt.Fprintf(io.Out, "resident memory, idle:          %8.1f MB   (target < 100 MB)\n", res.IdleRSSMB)
	fmt.Fprintf(io.Out, "MCP read facade round trip:     p50 %v   p99 %v   (%d calls; target p50 < 1 ms)\n", res.MCPReadP50, res.MCPReadP99, res.MCPCalls)
	fmt.Fprintf(io.Out, "resident memory after calls:    %8.1f MB\n", res.LoadedRSSMB)
	fmt.Fprintf(io.Out, "SIGTERM to exit:                %8.0f ms   (target < 5000 ms)\n", res.ShutdownMS)
	return exitOK
}

func runServeBench(ctx context.Context, calls int) (*serveBench, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "ward-bench-serve-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	data := filepath.Join(dir, "data")
	tok, err := exec.CommandContext(ctx, exe, "token", "create", "--role", "agent", "--data", data).Output()
	if err != nil {
		return nil, fmt.Errorf("token create: %w", err)
	}
	token := strings.TrimSpace(string(tok))

	cmd := exec.CommandContext(ctx, exe, "serve", "--addr", "127.0.0.1:0", "--data", data)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("no ready line: %w", err)
	}
	res := &serveBench{StartupMS: float64(time.Since(start).Microseconds()) / 1000, MCPCalls: calls}
	m := regexp.MustCompile(`ready on (http://\S+)`).FindStringSubmatch(line)
	if m == nil {
		return nil, fmt.Errorf("unexpected ready line %q", line)
	}
	base := m[1]
	time.Sleep(time.Second) // let start-up garbage be collected before the idle reading
	if res.IdleRSSMB, err = rssMB(cmd.Process.Pid); err != nil {
		return nil, err
	}

	hc := &http.Client{Transport: bearer{token: token, rt: http.DefaultTransport}}
	client := mcp.NewClient(&mcp.Implementation{Name: "ward-bench", Version: "1"}, nil)
	sess, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: hc, DisableStandaloneSSE: true}, nil)
	if err != nil {
		return nil, fmt.Errorf("mcp connect: %w", err)
	}
	defer sess.Close()
	var lat []time.Duration
	for i := range calls + calls/10 {
		t0 := time.Now()
		r, err := sess.CallTool(ctx, &mcp.CallToolParams{Name: "query_state", Arguments: map[string]any{"kind": "gate"}})
		if err != nil {
			return nil, fmt.Errorf("mcp call: %w", err)
		}
		if r.IsError {
			return nil, fmt.Errorf("mcp call refused: %v", r.Content)
		}
		if i >= calls/10 {
			lat = append(lat, time.Since(t0))
		}
	}
	slices.Sort(lat)
	res.MCPReadP50, res.MCPReadP99 = lat[len(lat)/2], lat[len(lat)*99/100]
	if res.LoadedRSSMB, err = rssMB(cmd.Process.Pid); err != nil {
		return nil, err
	}
	sess.Close()
	t0 := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return nil, err
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("ward serve exited with %v after SIGTERM", err)
	}
	res.ShutdownMS = float64(time.Since(t0).Microseconds()) / 1000
	return res, nil
}

// rssMB reads a process's resident set size from /proc.
func rssMB(pid int) (float64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("read memory of ward serve: %w", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			if err != nil {
				return 0, err
			}
			return kb / 1024, nil
		}
	}
	return 0, fmt.Errorf("no VmRSS for pid %d", pid)
}

type bearer struct {
	token string
	rt    http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.rt.RoundTrip(r)
}
