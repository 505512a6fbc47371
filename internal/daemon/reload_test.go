package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/store/sqlite"
)

// reloadPolicy is a ward.toml whose only rule denies the agent's balance
// reads when deny is set, with the given per-tick spending limit.
func reloadPolicy(deny bool, perTickUSD int) string {
	return fmt.Sprintf(`[[policy.rules]]
id = "ops.no-balances"
applies_to = { by = "name", names = ["data_get_token_balances"] }
when = "%v"
action = "deny"
reason_code = "NO_BALANCES"
message = "balances are closed"

[hooks.spending]
per_tick_usd = %d
`, deny, perTickUSD)
}

// outcome is one balance read through the API, as its client saw it.
type outcome struct {
	start, end time.Time
	status     int
	code       string
}

type reloadHarness struct {
	t             *testing.T
	running       *Started
	stopped       bool
	base          string
	owner, agent  string
	srv           *Server
	path          string
	client        *http.Client
	reloadsOK     int
	reloadsRefuse int
}

// startReload is the reload tests' set-up: toml written as ward.toml in a
// temporary directory, served with the HTTP API mounted, and an owner key
// (alice) and an agent key (bot) to call it with. The server is stopped
// when the test ends unless stop did it first.
func startReload(t *testing.T, toml string) *reloadHarness {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "ward.toml")
	if err := os.WriteFile(path, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	running, err := Start(t.Context(), ServeConfig{Addr: "127.0.0.1:0", Data: dir, File: f, Mount: mountAPI})
	if err != nil {
		t.Fatal(err)
	}
	h := &reloadHarness{t: t, running: running, base: running.URL, srv: running.Server, path: path,
		client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}, Timeout: time.Minute}}
	t.Cleanup(func() {
		if !h.stopped {
			running.Stop()
		}
	})
	if h.owner, _, err = auth.Create(t.Context(), running.Stack.Store, auth.Spec{Role: auth.Owner, Name: "alice"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if h.agent, _, err = auth.Create(t.Context(), running.Stack.Store, auth.Spec{Role: auth.Agent, Name: "bot"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	return h
}

// stop stops the server ahead of the test's end.
func (h *reloadHarness) stop() error {
	h.stopped = true
	return h.running.Stop()
}

func (h *reloadHarness) do(method, path, tok, body string) (int, []byte) {
	h.t.Helper()
	req, err := http.NewRequest(method, h.base+path, strings.NewReader(body))
	if err != nil {
		h.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := h.client.Do(req)
	if err != nil {
		h.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		h.t.Fatal(err)
	}
	return resp.StatusCode, b
}

func (h *reloadHarness) policy() PolicyView {
	h.t.Helper()
	status, b := h.do("GET", "/v1/policy", h.owner, "")
	var v PolicyView
	if status != 200 || json.Unmarshal(b, &v) != nil {
		h.t.Fatalf("GET /v1/policy: %d %s", status, b)
	}
	return v
}

// reload writes content to ward.toml and reloads it over the API.
func (h *reloadHarness) reload(content string) (int, ReloadReport, []byte) {
	h.t.Helper()
	if err := os.WriteFile(h.path, []byte(content), 0o600); err != nil {
		h.t.Fatal(err)
	}
	status, b := h.do("POST", "/v1/config/reload", h.owner, "{}")
	var rep ReloadReport
	switch status {
	case 200:
		h.reloadsOK++
		if err := json.Unmarshal(b, &rep); err != nil {
			h.t.Fatal(err)
		}
	case 422:
		h.reloadsRefuse++
		var e struct {
			Error struct {
				Code   string       `json:"code"`
				Reload ReloadReport `json:"reload"`
			} `json:"error"`
		}
		if err := json.Unmarshal(b, &e); err != nil || e.Error.Code != "CONFIG_INVALID" {
			h.t.Fatalf("a refused reload: %s (%v)", b, err)
		}
		rep = e.Error.Reload
	}
	return status, rep, b
}

// TestReloadUnderLoad reloads the policy several times while agents read
// balances through the real HTTP API: every call is decided by one
// snapshot (its audit record's policy hash says which, and its decision
// is that policy's), calls that start after a reload returned see the new
// policy, nothing acknowledged is missing from the audit trail, and no
// response is anything but the two policies' decisions. Refused reloads
// (an invalid file, a non-owner token) change nothing; sessions and the
// chain survive every reload.
func TestReloadUnderLoad(t *testing.T) {
	h := startReload(t, reloadPolicy(false, 100))
	running, dir, path, owner, agent := h.running, filepath.Dir(h.path), h.path, h.owner, h.agent
	open := h.policy()
	dev, token := running.Stack.Dev, running.Stack.Env.Tokens[0].Address

	// The view shows the limits in force: the owner's override over
	// ward.toml's (which it shows too), and the owner's allowlist
	// entries; cleared, ward.toml's again.
	if open.SpendingOverride || open.Limits != open.Configured || open.AllowlistEntries != 0 {
		t.Fatalf("the view before any owner setting: %+v", open)
	}
	if st, b := h.do("POST", "/v1/gate/spending", owner, `{"per_tick_usd":"0.50","per_session_usd":"unlimited","daily_usd":"7"}`); st != 200 {
		t.Fatalf("set the spending override: %d %s", st, b)
	}
	if st, b := h.do("POST", "/v1/gate/allowlist", owner, `{"remove":{"tokens":["`+token.Hex()+`"]}}`); st != 200 {
		t.Fatalf("refuse a token: %d %s", st, b)
	}
	if v := h.policy(); !v.SpendingOverride || v.Limits.PerTickUSD != "0.50" || v.Limits.DailyUSD != "7.00" || v.Configured != open.Configured || v.AllowlistEntries != 1 {
		t.Errorf("the view with the owner's settings: %+v (configured before %+v)", v, open.Configured)
	}
	h.do("POST", "/v1/gate/spending", owner, `{"clear":true}`)
	h.do("POST", "/v1/gate/allowlist", owner, `{"reset":true}`)
	if v := h.policy(); v.SpendingOverride || v.Limits != open.Limits || v.AllowlistEntries != 0 {
		t.Errorf("the view after clearing them: %+v", v)
	}

	// The load: agents read balances until told to stop.
	const workers = 6
	var (
		mu       sync.Mutex
		outcomes []outcome
		done     atomic.Int64
		progress = make(chan struct{}, 1024)
	)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			session := fmt.Sprintf("agent-%d", w)
			for {
				select {
				case <-stop:
					return
				default:
				}
				req, _ := http.NewRequest("POST", h.base+"/v1/call/query_state", strings.NewReader(`{"kind":"balances","params":{}}`))
				req.Header.Set("Authorization", "Bearer "+agent)
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("X-Ward-Session", session)
				o := outcome{start: time.Now()}
				resp, err := h.client.Do(req)
				if err != nil {
					t.Errorf("a call failed at the transport: %v", err)
					return
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				o.end, o.status = time.Now(), resp.StatusCode
				if o.status != 200 {
					var e struct {
						Error struct{ Code string } `json:"error"`
					}
					_ = json.Unmarshal(b, &e)
					o.code = e.Error.Code
				}
				mu.Lock()
				outcomes = append(outcomes, o)
				mu.Unlock()
				done.Add(1)
				select {
				case progress <- struct{}{}:
				default:
				}
			}
		})
	}
	// waitCalls waits until n more calls have completed.
	waitCalls := func(n int64) {
		target := done.Load() + n
		for done.Load() < target {
			select {
			case <-progress:
			case <-time.After(30 * time.Second):
				t.Fatalf("the load stalled at %d calls", done.Load())
			}
		}
	}

	// windows[i] is when policy i was in force as far as clients can tell:
	// from its reload's answer to the next reload's request.
	type window struct {
		from, until time.Time
		deny        bool
		hash        string
	}
	windows := []window{{from: time.Time{}, deny: false, hash: open.Hash}}
	hashes := map[string]bool{open.Hash: false}
	waitCalls(20)
	deny := false
	for i := range 6 {
		deny = !deny
		sent := time.Now()
		status, rep, b := h.reload(reloadPolicy(deny, 200+i))
		if status != 200 || !rep.Reloaded || !rep.PolicyChanged {
			t.Fatalf("reload %d: %d %s", i, status, b)
		}
		windows[len(windows)-1].until = sent
		windows = append(windows, window{from: time.Now(), deny: deny, hash: rep.PolicyAfter})
		hashes[rep.PolicyAfter] = deny
		if len(rep.Limits) != 1 || rep.Limits[0].Key != "hooks.spending.per_tick_usd" {
			t.Errorf("reload %d: limits changed %+v; want the per-tick limit", i, rep.Limits)
		}
		if len(rep.NeedsRestart) != 0 {
			t.Errorf("reload %d: needs a restart for %v; want nothing", i, rep.NeedsRestart)
		}
		waitCalls(20)

		switch i {
		case 2:
			// An invalid file is refused with its problems; nothing changes.
			before := h.policy()
			status, rep, b := h.reload("[policy\nbroken = ")
			if status != 422 || rep.Reloaded || len(rep.Problems) == 0 || rep.PolicyAfter != before.Hash {
				t.Errorf("an invalid file: %d %s", status, b)
			}
			status, rep, b = h.reload(strings.Replace(reloadPolicy(deny, 1), "per_tick_usd = 1", "per_tick_usd = -5", 1))
			if status != 422 || len(rep.Problems) == 0 {
				t.Errorf("an invalid limit: %d %s", status, b)
			}
			if after := h.policy(); after.Hash != before.Hash || after.LoadedAt != before.LoadedAt || after.Limits != before.Limits {
				t.Errorf("a refused reload changed the policy view: %+v, was %+v", after, before)
			}
			// The file is valid again, but an agent may not reload it.
			if err := os.WriteFile(h.path, []byte(reloadPolicy(!deny, 1)), 0o600); err != nil {
				t.Fatal(err)
			}
			if status, b := h.do("POST", "/v1/config/reload", h.agent, "{}"); status != 403 {
				t.Errorf("an agent's reload: %d %s; want 403", status, b)
			}
			if status, _ := h.do("POST", "/v1/config/reload", "ward_"+strings.Repeat("x", 43), "{}"); status != 401 {
				t.Errorf("a forged token's reload: %d; want 401", status)
			}
			if after := h.policy(); after.Hash != before.Hash {
				t.Errorf("an agent's reload changed the policy: %s, was %s", after.Hash, before.Hash)
			}
			if err := os.WriteFile(h.path, []byte(reloadPolicy(deny, 200+i)), 0o600); err != nil {
				t.Fatal(err)
			}
		case 3:
			// A change ward cannot apply live is reported, not ignored; what it can
			// apply is applied.
			deny = !deny
			sent := time.Now()
			status, rep, b := h.reload(reloadPolicy(deny, 300+i) + "\n[gate]\npermit_ttl = \"7m\"\n")
			if status != 200 || len(rep.NeedsRestart) != 1 || rep.NeedsRestart[0] != "gate" {
				t.Errorf("a [gate] change: %d %s; want it reported as needing a restart", status, b)
			}
			windows[len(windows)-1].until = sent
			windows = append(windows, window{from: time.Now(), deny: deny, hash: rep.PolicyAfter})
			hashes[rep.PolicyAfter] = deny
			waitCalls(20)
		}
	}
	close(stop)
	wg.Wait()

	v := h.policy()
	if v.Hash != windows[len(windows)-1].hash || v.LoadedBy != "alice" || v.File != path {
		t.Errorf("policy view: hash %s by %q from %q; want the last reload's, by alice, from %s", v.Hash, v.LoadedBy, v.File, path)
	}
	var rule *RuleView
	for i := range v.Rules {
		if v.Rules[i].ID == "ops.no-balances" {
			rule = &v.Rules[i]
		}
	}
	if rule == nil || rule.Kind != "user" || rule.Effect != "deny" || rule.AppliesTo != "name: data_get_token_balances" {
		t.Errorf("the user rule in the view: %+v", rule)
	}
	if len(v.Rules) < 5 {
		t.Errorf("the view lists %d rules; want the built-in ones too", len(v.Rules))
	}

	// Every response is one of the two policies' decisions, and a call
	// made wholly inside a window got that window's.
	inWindow := 0
	perWindow := make([]int, len(windows))
	for _, o := range outcomes {
		switch {
		case o.status == 200:
		case o.status == 403 && o.code == "NO_BALANCES":
		default:
			t.Errorf("a response that is no policy decision: %d %s", o.status, o.code)
		}
		for i, w := range windows {
			if o.start.After(w.from) && (w.until.IsZero() || o.end.Before(w.until)) {
				inWindow++
				perWindow[i]++
				if got := o.status != 200; got != w.deny {
					t.Errorf("a call from %v to %v, inside the window of policy %s (deny %v), was denied %v",
						o.start.Format(time.StampMicro), o.end.Format(time.StampMicro), w.hash[:12], w.deny, got)
				}
			}
		}
	}
	for i, n := range perWindow {
		// Each window lasts while 20 calls complete: most of them started in it.
		if n < 5 {
			t.Errorf("only %d calls fell inside the window of policy %d (%s)", n, i, windows[i].hash[:12])
		}
	}
	sessions, err := running.Stack.Tools.Sessions(t.Context(), store.SessionFilter{})
	if err != nil {
		t.Fatal(err)
	}
	named := 0
	for _, s := range sessions {
		if strings.HasPrefix(s.Name, "agent-") {
			named++
		}
	}
	if named != workers {
		t.Errorf("%d agent sessions after the reloads; want %d (one per worker, kept)", named, workers)
	}
	if code, err := running.Stack.Provider.Code(t.Context(), token); running.Stack.Dev != dev || err != nil || len(code) == 0 {
		t.Errorf("the dev chain was replaced or reset: token %s has %d bytes of code (%v)", token.Hex(), len(code), err)
	}
	if err := h.stop(); err != nil {
		t.Fatal(err)
	}

	// The audit trail, read back after shutdown: one decision per
	// acknowledged call, each its snapshot's.
	st, err := sqlite.Open(context.Background(), sqlite.Config{Path: filepath.Join(dir, "ward.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	recs, err := st.QueryDecisions(context.Background(), store.DecisionFilter{Tool: "data_get_token_balances"})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(outcomes) {
		t.Errorf("%d decisions recorded for %d acknowledged calls", len(recs), len(outcomes))
	}
	for _, r := range recs {
		deny, ok := hashes[r.PolicyHash]
		switch {
		case !ok:
			t.Errorf("decision %s under policy %s, which was never in force", r.ID, r.PolicyHash)
		case deny != (r.Decision == store.VerdictDeny):
			t.Errorf("decision %s under policy %s is %s; that policy denies: %v", r.ID, r.PolicyHash[:12], r.Decision, deny)
		}
	}
	reloaded, err := st.Actions(context.Background(), store.ActionFilter{Kind: store.ActionConfigReloaded})
	if err != nil || len(reloaded) != h.reloadsOK {
		t.Errorf("%d config_reloaded records (%v); want %d", len(reloaded), err, h.reloadsOK)
	}
	refused, err := st.Actions(context.Background(), store.ActionFilter{Kind: store.ActionConfigReloadRefused})
	if err != nil || len(refused) != h.reloadsRefuse {
		t.Errorf("%d config_reload_refused records (%v); want %d", len(refused), err, h.reloadsRefuse)
	}
	t.Logf("%d calls, %d inside one policy's window, %d reloads, %d refused", len(outcomes), inWindow, h.reloadsOK, h.reloadsRefuse)
}
