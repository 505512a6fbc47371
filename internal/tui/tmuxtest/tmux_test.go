// Package tmuxtest runs the real ward binary's tui in a detached tmux
// session and reads the screen: against a scripted API (hostile strings, a
// dropped stream) and against a real daemon (calls, progress, quarantine
// approval, a daemon restart). It has only tests.
package tmuxtest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/testenv"
)

// tmux drives a ward tui in a detached tmux session on a private server.
type tmux struct {
	t    *testing.T
	sock string
}

// requireTmux skips the test when tmux is not installed (fails it under
// CI).
func requireTmux(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		testenv.Missing(t, "tmux is not installed: the terminal tests need it (apt-get install tmux)")
	}
}

// startTmux runs argv in a new 120x40 session, or skips the test when
// tmux is not installed.
func startTmux(t *testing.T, env []string, argv ...string) *tmux {
	t.Helper()
	requireTmux(t)
	// A short socket path: unix sockets are limited to ~100 bytes.
	dir, err := os.MkdirTemp("", "wtmux")
	if err != nil {
		t.Fatal(err)
	}
	x := &tmux{t: t, sock: filepath.Join(dir, "s")}
	t.Cleanup(func() {
		_ = exec.Command("tmux", "-S", x.sock, "kill-server").Run()
		os.RemoveAll(dir)
	})
	args := []string{"new-session", "-d", "-x", "120", "-y", "40", "-s", "ward"}
	for _, e := range env {
		args = append(args, "-e", e)
	}
	args = append(args, "--")
	args = append(args, argv...)
	x.run(args...)
	x.run("set-option", "-t", "ward", "remain-on-exit", "on")
	return x
}

func (x *tmux) run(args ...string) string {
	x.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", x.sock}, args...)...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (x *tmux) capture() string { return x.run("capture-pane", "-p", "-t", "ward") }

func (x *tmux) keys(keys ...string) { x.run(append([]string{"send-keys", "-t", "ward"}, keys...)...) }

// waitFor polls the pane until ok accepts it, and returns it.
func (x *tmux) waitFor(what string, ok func(pane string) bool) string {
	x.t.Helper()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(20 * time.Second)
	for {
		pane := x.capture()
		if ok(pane) {
			return pane
		}
		select {
		case <-tick.C:
		case <-deadline:
			x.t.Fatalf("timed out waiting for %s; the pane:\n%s", what, pane)
		}
	}
}

func (x *tmux) waitText(s ...string) string {
	x.t.Helper()
	return x.waitFor(strings.Join(s, ", "), func(p string) bool {
		for _, w := range s {
			if !strings.Contains(p, w) {
				return false
			}
		}
		return true
	})
}

var buildOnce struct {
	sync.Once
	path string
	err  error
	out  []byte
}

// wardBinary builds cmd/ward once per test binary, or skips without go.
func wardBinary(t *testing.T) string {
	t.Helper()
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		if goBin, err = exec.LookPath("go"); err != nil {
			testenv.Missing(t, "the go command is not available to build ward")
		}
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "wardtui")
		if err != nil {
			buildOnce.err = err
			return
		}
		buildOnce.path = filepath.Join(dir, "ward")
		cmd := exec.Command(goBin, "build", "-o", buildOnce.path, "github.com/wardhq/ward/cmd/ward")
		buildOnce.out, buildOnce.err = cmd.CombinedOutput()
	})
	if buildOnce.err != nil {
		t.Fatalf("go build ward: %v\n%s", buildOnce.err, buildOnce.out)
	}
	return buildOnce.path
}

func TestMain(m *testing.M) {
	code := m.Run()
	if buildOnce.path != "" {
		os.RemoveAll(filepath.Dir(buildOnce.path))
	}
	os.Exit(code)
}

// scriptedAPI is a fake daemon: the test pushes SSE frames and can drop
// the stream; one item waits in quarantine until it is approved.
type scriptedAPI struct {
	frames chan string
	drop   chan struct{}

	mu       sync.Mutex
	decided  []string
	streams  int
	approved bool
}

func (a *scriptedAPI) handler(token string) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/events", func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		a.streams++
		a.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		for {
			select {
			case <-r.Context().Done():
				return
			case <-a.drop:
				return
			case s := <-a.frames:
				fmt.Fprint(w, s)
				w.(http.Flusher).Flush()
			}
		}
	})
	mux.HandleFunc("GET /v1/gate", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"phase":"stable","halted":false,"spend":[{"window":"tick","spent_cents":1200,"limit_cents":5000},{"window":"session","spent_cents":0,"limit_cents":1000},{"window":"daily","spent_cents":4200,"held_cents":300,"limit_cents":20000}]}`)
	})
	mux.HandleFunc("GET /v1/quarantine", func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		defer a.mu.Unlock()
		if a.approved {
			fmt.Fprint(w, `{"items":[]}`)
			return
		}
		fmt.Fprint(w, `{"items":[{"id":"q-7f3a","tool":"erc20_transfer","session_id":"s1","tier":"write","reason":"TAINTED_ARGUMENT","message":"recipient came from a web page",`+
			`"rule":"ward.provenance","description":{"value":"$250.00","value_cents":25000,"tokens":[{"token":"0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48","symbol":"USDC","listed":true,"decimals":6,"amount":"250000000","display":"250","direction":"out"}],`+
			`"parties":[{"role":"recipient","address":"0x52908400098527886E0F7030069857D2E4169EE7","name":"owner's address book","known":true}],`+
			`"args":{"amount":"250","to":"0x52908400098527886E0F7030069857D2E4169EE7","note":"[redacted]"},"reason":"TAINTED_ARGUMENT","taint":"tainted","provenance":{"to":"untrusted"}}}]}`)
	})
	mux.HandleFunc("GET /v1/decisions", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"decisions":[{"time":"2026-01-02T03:04:05Z","tool":"erc20_approve","decision":"deny","reason":"APPROVAL_UNLIMITED","message":"unlimited approvals are refused"}]}`)
	})
	mux.HandleFunc("POST /v1/quarantine/{id}/{verb}", func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		defer a.mu.Unlock()
		a.decided = append(a.decided, r.PathValue("verb")+" "+r.PathValue("id"))
		a.approved = true
		fmt.Fprint(w, `{"id":"q-7f3a","status":"approved","outcome":{"ok":true,"result":{}}}`)
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

func frame(seq int, json string) string {
	return fmt.Sprintf("id: %d\ndata: %s\n\n", seq, json)
}

// TestTerminalAgainstScriptedAPI runs the real ward binary's tui in tmux
// against a scripted API: the stream's calls and progress appear, a
// quarantined call is shown in full with Enter and approved with a and
// y (n declines the question), a hostile tool name does not
// reach the terminal as escapes, a dropped stream reconnects, q quits.
func TestTerminalAgainstScriptedAPI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ward and drives it in tmux")
	}
	const token = "wt_test_owner_token"
	api := &scriptedAPI{frames: make(chan string), drop: make(chan struct{})}
	srv := httptest.NewServer(api.handler(token))
	defer srv.Close()
	ward := wardBinary(t)
	x := startTmux(t, []string{"WARD_TOKEN=" + token, "TERM=xterm-256color"}, ward, "tui", "--addr", srv.URL)

	x.waitText("● live", "Quarantine (1)", "q-7f3a", "phase stable", "$42.00 / $200.00", "APPROVAL_UNLIMITED")
	for i, f := range []string{
		`{"kind":"permit:consumed","seq":1,"session_id":"s1","tool":"uniswap_swap_exact","permit_id":"p1"}`,
		`{"kind":"tool:start","seq":2,"session_id":"s1","tool":"uniswap_swap_exact","params_hash":"aa"}`,
		`{"kind":"tool:update","seq":3,"session_id":"s1","tool":"uniswap_swap_exact","params_hash":"aa","step":"simulating","step_index":1,"total_steps":3}`,
	} {
		api.frames <- frame(i+1, f)
	}
	pane := x.waitText("uniswap_swap_exact", "2/3 simulating", "executing")
	t.Logf("pane during the write:\n%s", pane)
	if !strings.Contains(pane, "█") || !strings.Contains(pane, "░") {
		t.Errorf("no partly filled progress bar:\n%s", pane)
	}

	api.frames <- frame(4, `{"kind":"tool:end","seq":4,"session_id":"s1","tool":"uniswap_swap_exact","params_hash":"aa","success":true,"duration_ms":840}`)
	x.waitText("840ms", "success")

	// Enter shows what the held call would do; a asks before approving;
	// n decides nothing; a then y approves.
	x.keys("Enter")
	pane = x.waitText("Held call q-7f3a", "$250.00", "250 USDC  0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
		"recipient   0x52908400098527886E0F7030069857D2E4169EE7  owner's address book", "ward.provenance", "not trusted: to=untrusted", `"note":"[redacted]"`)
	t.Logf("the detail view:\n%s", pane)
	x.keys("a")
	x.waitText("Approve q-7f3a?", "y yes · n no")
	x.keys("n")
	x.waitText("not approved: q-7f3a still waits")
	x.keys("Escape")
	x.waitText("Quarantine (1)")
	api.mu.Lock()
	decided := strings.Join(api.decided, ",")
	api.mu.Unlock()
	if decided != "" {
		t.Fatalf("the API received %q before any confirmation", decided)
	}
	x.keys("a")
	x.waitText("Approve q-7f3a?")
	x.keys("y")
	x.waitText("approved q-7f3a", "Quarantine (0)")
	api.mu.Lock()
	decided = strings.Join(api.decided, ",")
	api.mu.Unlock()
	if decided != "approve q-7f3a" {
		t.Errorf("the API received %q, want approve q-7f3a", decided)
	}

	// A tool name written by an attacker: a title change, a screen clear
	// and a cursor move must stay inert text.
	hostile := `{"kind":"tool:start","seq":5,"session_id":"s1","tool":"evil\u001b]2;pwned\u0007\u001b[2J\u001b[H\u009b31mname"}`
	api.frames <- frame(5, hostile)
	pane = x.waitText("evilname")
	if !strings.Contains(pane, "ward  http://") || !strings.Contains(pane, "uniswap_swap_exact") {
		t.Errorf("the hostile name changed the screen:\n%s", pane)
	}
	if title := x.run("display-message", "-p", "-t", "ward", "#{pane_title}"); strings.Contains(title, "pwned") {
		t.Errorf("the hostile name set the window title to %q", title)
	}

	api.drop <- struct{}{} // the open stream ends
	x.waitText("disconnected")
	x.waitText("● live")
	api.mu.Lock()
	streams := api.streams
	api.mu.Unlock()
	if streams < 2 {
		t.Errorf("%d streams opened, want a reconnection", streams)
	}

	x.keys("?")
	x.waitText("approve the selected call")
	x.keys("q")
	x.waitFor("ward tui to exit", func(string) bool {
		return strings.TrimSpace(x.run("display-message", "-p", "-t", "ward", "#{pane_dead}")) == "1"
	})
	if st := exitStatus(x); st != "0" {
		t.Errorf("ward tui exited with status %q", st)
	}
}

// exitStatus returns how the dead pane's process ended: its exit status,
// or "signal N". tmux 3.3 shows an exit status of 0 as an empty
// #{pane_dead_status}, and may record the status a moment after it marks
// the pane dead, so an empty status is read again before it counts as 0.
func exitStatus(x *tmux) string {
	for range 10 {
		st := strings.TrimSpace(x.run("display-message", "-p", "-t", "ward", "#{pane_dead_status}"))
		sig := strings.TrimSpace(x.run("display-message", "-p", "-t", "ward", "#{pane_dead_signal}"))
		switch {
		case sig != "":
			return "signal " + sig
		case st != "":
			return st
		}
		time.Sleep(50 * time.Millisecond)
	}
	return "0"
}
