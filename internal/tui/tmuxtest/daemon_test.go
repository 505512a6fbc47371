package tmuxtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/api"
	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/daemon"
)

// reviewPolicy quarantines every portfolio read: the owner approves it
// from the TUI.
const reviewPolicy = `
[[policy.rules]]
id = "tui.review-portfolio"
priority = 100
applies_to = { by = "name", names = ["data_get_portfolio_snapshot"] }
when = 'true'
action = "quarantine"
reason_code = "PORTFOLIO_REVIEW"
message = "portfolio reads wait for the owner"
`

// readyWriter hands over the address of ward serve's "ready" line.
type readyWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	ready chan string
}

var readyLine = regexp.MustCompile(`ward ready on (http://\S+)`)

func (w *readyWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if m := readyLine.FindStringSubmatch(w.buf.String()); m != nil {
		select {
		case w.ready <- m[1]:
		default:
		}
	}
	return len(p), nil
}

// runningDaemon is a ward serve in this process, with the HTTP API.
type runningDaemon struct {
	url          string
	owner, agent string
	stop         func()
}

// startDaemon serves data on addr ("127.0.0.1:0" for any port) with the
// API mounted. Tokens are created on the first start (tokens empty) and
// reused after a restart.
func startDaemon(t *testing.T, f *config.File, data, addr string, tokens *runningDaemon) *runningDaemon {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	d := &runningDaemon{}
	if tokens != nil {
		d.owner, d.agent = tokens.owner, tokens.agent
	}
	out := &readyWriter{ready: make(chan string, 1)}
	mount := func(s *daemon.Server) error {
		st := s.Stack
		a, err := api.New(api.Config{
			Authenticate: s.Authenticate, Session: s.Session,
			Tools: st.Facade, Store: st.Store, Policy: st.Engine.Snapshot,
			Spending: st.Hooks.Spending, Bus: st.Bus, Log: s.Log,
		})
		if err != nil {
			return err
		}
		a.Mount(s.Mux)
		if d.owner == "" {
			if d.owner, _, err = auth.Create(ctx, st.Store, auth.Spec{Role: auth.Owner, Name: "tui-test-owner"}, time.Now()); err != nil {
				return err
			}
			if d.agent, _, err = auth.Create(ctx, st.Store, auth.Spec{Role: auth.Agent, Name: "tui-test-agent"}, time.Now()); err != nil {
				return err
			}
		}
		return nil
	}
	served := make(chan error, 1)
	go func() {
		served <- daemon.Serve(ctx, daemon.ServeConfig{Addr: addr, Data: data, File: f, Out: out, Mount: mount})
	}()
	select {
	case d.url = <-out.ready:
	case err := <-served:
		cancel()
		t.Fatalf("ward serve: %v", err)
	case <-time.After(2 * time.Minute):
		cancel()
		t.Fatal("ward serve did not get ready in 2 minutes")
	}
	var once sync.Once
	d.stop = func() {
		once.Do(func() {
			cancel()
			if err := <-served; err != nil {
				t.Errorf("ward serve: %v", err)
			}
		})
	}
	t.Cleanup(d.stop)
	return d
}

// call is the agent calling a facade tool through the API; it returns
// the status and the body.
func (d *runningDaemon) call(t *testing.T, facade, args string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, d.url+"/v1/call/"+facade, strings.NewReader(args))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+d.agent)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, body
}

// TestTerminalAgainstDaemon runs ward tui in tmux against a real ward
// serve (the gate, the dev chain, the HTTP API): the agent's read and
// write appear with their progress steps, a quarantined read is shown in
// full and approved with a and y, and then runs, and the stream comes back after the daemon
// restarts.
func TestTerminalAgainstDaemon(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ward, runs a daemon and drives ward tui in tmux")
	}
	requireTmux(t)
	f, err := config.Parse("ward.toml", []byte(reviewPolicy))
	if err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	d := startDaemon(t, f, data, "127.0.0.1:0", nil)
	ward := wardBinary(t)
	x := startTmux(t, []string{"WARD_TOKEN=" + d.owner, "TERM=xterm-256color"}, ward, "tui", "--addr", d.url)
	x.waitText("● live", "phase thriving", "spend daily", "Quarantine (0)")

	// A read with two progress steps.
	if st, body := d.call(t, "search_context", `{"kind":"chain"}`); st != http.StatusOK {
		t.Fatalf("search_context chain: %d %s", st, body)
	}
	x.waitText("data_get_chain_info", "2/2 Reading the gas price")

	// A write: preview, then commit (the permit consumed marks it a write).
	st, body := d.call(t, "preview_action", `{"action_type":"wrap","params":{"amount":"1000000000000000"}}`)
	if st != http.StatusOK {
		t.Fatalf("preview wrap: %d %s", st, body)
	}
	var pv struct {
		PermitID string `json:"permit_id"`
	}
	if err := json.Unmarshal(body, &pv); err != nil || pv.PermitID == "" {
		t.Fatalf("preview answer %s: %v", body, err)
	}
	if st, body := d.call(t, "commit_action", fmt.Sprintf(`{"permit_id":%q}`, pv.PermitID)); st != http.StatusOK {
		t.Fatalf("commit wrap: %d %s", st, body)
	}
	pane := x.waitFor("the wrap as a finished write", func(p string) bool {
		for l := range strings.SplitSeq(p, "\n") {
			if strings.Contains(l, "weth_wrap_eth") && strings.Contains(l, "write") && strings.Contains(l, "2/2 Confirming") && strings.Contains(l, "✓") {
				return true
			}
		}
		return false
	})

	// A quarantined read waits for the owner.
	st, body = d.call(t, "query_state", `{"kind":"portfolio"}`)
	if st < 400 || !strings.Contains(string(body), "PORTFOLIO_REVIEW") {
		t.Fatalf("portfolio read: %d %s, want a PORTFOLIO_REVIEW refusal", st, body)
	}
	pane = x.waitText("Quarantine (1)", "data_get_portfolio_snapshot", "PORTFOLIO_REVIEW", "quarantine")
	t.Logf("the pane with a call held:\n%s", pane)

	x.keys("Enter")
	x.waitText("Held call", "PORTFOLIO_REVIEW", "tui.review-portfolio", "arguments")
	x.keys("a")
	x.waitText("Approve ", "y yes · n no")
	x.keys("y")
	pane = x.waitText("approved ", "Quarantine (0)", "3/3 Valuing holdings")
	t.Logf("the pane after approving it:\n%s", pane)
	if !regexp.MustCompile(`✓ data_get_portfolio_snapshot +read .*3/3 Valuing holdings`).MatchString(pane) {
		t.Errorf("the approved read did not run to its last step:\n%s", pane)
	}

	// The daemon restarts on the same address: the TUI reconnects.
	addr := strings.TrimPrefix(d.url, "http://")
	d.stop()
	x.waitText("disconnected")
	startDaemon(t, f, data, addr, d)
	x.waitText("● live")

	x.keys("q")
	x.waitFor("ward tui to exit", func(string) bool {
		return strings.TrimSpace(x.run("display-message", "-p", "-t", "ward", "#{pane_dead}")) == "1"
	})
	if st := exitStatus(x); st != "0" {
		t.Errorf("ward tui exited with status %q", st)
	}
}
