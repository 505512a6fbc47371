package cli

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/daemon"
)

// hupPolicy denies balance reads when deny is set.
func hupPolicy(deny string) string {
	return `
[store]
synchronous = "normal"

[[policy.rules]]
id = "ops.no-balances"
applies_to = { by = "name", names = ["data_get_token_balances"] }
when = "` + deny + `"
action = "deny"
reason_code = "NO_BALANCES"
message = "balances are closed"
`
}

// TestServeReloadsOnSIGHUP: a ward serve process reloads its ward.toml on
// SIGHUP (the next call sees the new policy, the view says who reloaded
// it), and refuses an invalid one (recorded, nothing changed, still
// serving).
func TestServeReloadsOnSIGHUP(t *testing.T) {
	data := t.TempDir()
	cfg := filepath.Join(data, "ward.toml")
	if err := os.WriteFile(cfg, []byte(hupPolicy("false")), 0o600); err != nil {
		t.Fatal(err)
	}
	c := startChild(t, data, cfg)
	st, err := daemon.OpenStore(t.Context(), filepath.Join(data, "ward.db"), "")
	if err != nil {
		t.Fatal(err)
	}
	owner, _, err := auth.Create(t.Context(), st, auth.Spec{Role: auth.Owner, Name: "alice"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	agent, _, err := auth.Create(t.Context(), st, auth.Spec{Role: auth.Agent, Name: "bot"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	s := &served{t: t, base: c.base, client: &http.Client{Timeout: time.Minute}}
	policy := func() daemon.PolicyView {
		t.Helper()
		r := s.do("GET", "/v1/policy", owner, "", "")
		var v daemon.PolicyView
		if r.status != 200 || json.Unmarshal(r.body, &v) != nil {
			t.Fatalf("GET /v1/policy: %d %s", r.status, r.body)
		}
		return v
	}
	balances := func() *reply { return s.call(agent, "", "query_state", `{"kind":"balances","params":{}}`) }
	// eventually polls cond until it holds, for at most 20 s.
	eventually := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not within 20 s", what)
			}
			<-time.After(50 * time.Millisecond)
		}
	}
	hup := func() {
		t.Helper()
		if err := c.cmd.Process.Signal(syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
	}

	first := policy()
	s.want(balances(), 200, "")
	if first.LoadedBy != "" || first.File != cfg {
		t.Errorf("the policy ward started with: by %q from %q", first.LoadedBy, first.File)
	}

	if err := os.WriteFile(cfg, []byte(hupPolicy("true")), 0o600); err != nil {
		t.Fatal(err)
	}
	hup()
	eventually("the reload on SIGHUP", func() bool { return policy().Hash != first.Hash })
	s.want(balances(), 403, "NO_BALANCES")
	second := policy()
	if second.LoadedBy != "SIGHUP" || !second.LoadedAt.After(first.LoadedAt) {
		t.Errorf("after SIGHUP the view says loaded by %q at %v (was %v)", second.LoadedBy, second.LoadedAt, first.LoadedAt)
	}

	if err := os.WriteFile(cfg, []byte("[[policy.rules]]\nid = 7\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	hup()
	eventually("the refused reload's record", func() bool {
		r := s.do("GET", "/v1/actions?kind=config_reload_refused", owner, "", "")
		return r.status == 200 && strings.Contains(string(r.body), "config_reload_refused")
	})
	if v := policy(); v.Hash != second.Hash || !v.LoadedAt.Equal(second.LoadedAt) {
		t.Errorf("a refused reload changed the policy: %s at %v", v.Hash, v.LoadedAt)
	}
	s.want(balances(), 403, "NO_BALANCES")
	r := s.do("GET", "/v1/actions?kind=config_reloaded", owner, "", "")
	if r.status != 200 || strings.Count(string(r.body), `"config_reloaded"`) != 1 {
		t.Errorf("config_reloaded records: %d %s; want one", r.status, r.body)
	}
	c.stop(syscall.SIGTERM)
}
