package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/api"
)

// fullDisk is the store's switch for a simulated full disk (every
// commit fails with SQLITE_FULL; sqlite.TestSimulatedFullIsRealFull
// checks it fails as a real one does).
type fullDisk interface{ SimulateFullDisk(on bool) }

// TestDiskFull: on a full disk every write path and owner action is
// refused with a 503 naming the cause (AUDIT_UNAVAILABLE for the gate's
// calls, STORE_UNAVAILABLE for the rest), never a 500; none of them takes
// effect (permits stay pending, no halt, no phase change, no review, the
// agent's token still works, no record appears), nothing recorded before
// is lost, and once space returns every one of them works.
func TestDiskFull(t *testing.T) {
	h := start(t, harnessOpts{})
	disk, ok := h.srv.Stack.Store.(fullDisk)
	if !ok {
		t.Fatalf("the daemon's store %T cannot simulate a full disk", h.srv.Stack.Store)
	}
	qid := h.hold(t, 200)
	preview := func(usdc int64) string {
		t.Helper()
		r := h.do("POST", "/v1/call/preview_action", h.agent, h.swap(usdc))
		h.want(r, http.StatusOK, "")
		var pv struct {
			PermitID string `json:"permit_id"`
		}
		r.decode(t, &pv)
		return pv.PermitID
	}
	toCommit, toCancel, toRevoke := preview(10), preview(11), preview(12)
	sid := h.sessionOf(h.agent, "")
	h.want(h.do("POST", "/v1/sessions/"+sid+"/directive", h.owner, `{"directive":"x"}`), http.StatusOK, "")
	decisions, actions, tokens := h.count("/v1/decisions?limit=1000", "decisions"), h.count("/v1/actions?limit=1000", "actions"), h.count("/v1/tokens", "tokens")

	type call struct {
		name, method, path, token, body string
		code                            string // while full: 503 with this code
		status                          int    // once space returns (0: at the end; -1: not again)
	}
	calls := []call{
		{"read", "POST", "/v1/call/search_context", h.agent, `{"kind":"gas","params":{}}`, "AUDIT_UNAVAILABLE", 200},
		{"preview", "POST", "/v1/call/preview_action", h.agent, h.swap(13), "AUDIT_UNAVAILABLE", 200},
		{"commit", "POST", "/v1/call/commit_action", h.agent, `{"permit_id":"` + toCommit + `"}`, "AUDIT_UNAVAILABLE", 200},
		{"cancel", "POST", "/v1/call/cancel_action", h.agent, `{"permit_id":"` + toCancel + `"}`, "AUDIT_UNAVAILABLE", 200},
		{"create session", "POST", "/v1/sessions", h.agent, `{"name":"fresh"}`, api.CodeStoreUnavailable, 200},
		{"halt", "POST", "/v1/gate/halt", h.owner, `{"reason":"disk test"}`, api.CodeStoreUnavailable, 200},
		{"resume", "POST", "/v1/gate/resume", h.owner, `{}`, api.CodeStoreUnavailable, 200},
		{"phase", "POST", "/v1/gate/phase", h.owner, `{"phase":"thriving"}`, api.CodeStoreUnavailable, 200},
		{"directive", "POST", "/v1/sessions/" + sid + "/directive", h.owner, `{"directive":"y"}`, api.CodeStoreUnavailable, 200},
		{"owner cancel", "POST", "/v1/permits/" + toRevoke + "/cancel", h.owner, `{}`, "AUDIT_UNAVAILABLE", 200},
		{"approve", "POST", "/v1/quarantine/" + qid + "/approve", h.owner, `{}`, api.CodeStoreUnavailable, -1},
		{"reject", "POST", "/v1/quarantine/" + qid + "/reject", h.owner, `{"note":"no"}`, api.CodeStoreUnavailable, 200},
		{"create token", "POST", "/v1/tokens", h.owner, `{"role":"agent","name":"new"}`, api.CodeStoreUnavailable, 200},
		{"rotate token", "POST", "/v1/tokens/" + h.agentID + "/rotate", h.owner, `{}`, api.CodeStoreUnavailable, 0},
		{"revoke token", "POST", "/v1/tokens/" + h.agentID + "/revoke", h.owner, `{}`, api.CodeStoreUnavailable, 0},
		{"delete session", "DELETE", "/v1/sessions/" + sid, h.owner, ``, api.CodeStoreUnavailable, 0},
	}
	disk.SimulateFullDisk(true)
	for _, c := range calls {
		t.Run("full/"+c.name, func(t *testing.T) {
			r := h.do(c.method, c.path, c.token, body(c.body))
			if r.status != http.StatusServiceUnavailable || (c.code != "" && r.errCode() != c.code) {
				t.Errorf("%s %s on a full disk: %d %s, want 503 %s", c.method, c.path, r.status, r.body, c.code)
			}
			// The agent is told the store is the cause, whichever
			// write found it (not a hook, not the permit).
			if (c.name == "preview" || c.name == "cancel") && !strings.Contains(string(r.body), "store is unavailable") {
				t.Errorf("%s on a full disk says: %s, want the store named as the cause", c.name, r.body)
			}
			if strings.Contains(string(r.body), "could not be consumed") || strings.Contains(string(r.body), "windows could not be read") {
				t.Errorf("%s on a full disk blames the permit or the windows: %s", c.name, r.body)
			}
		})
	}

	// Nothing took effect, and no record came or went. (The owner's
	// reads of state and trail write nothing, so they still answer.)
	var g struct {
		Phase  string
		Halted bool
	}
	r := h.do("GET", "/v1/gate", h.agent, nil)
	h.want(r, http.StatusOK, "")
	r.decode(t, &g)
	if g.Halted || g.Phase != "thriving" {
		t.Errorf("gate after the refused owner actions: %+v", g)
	}
	for _, pid := range []string{toCommit, toCancel, toRevoke} {
		if st := h.permitStatus(pid); st != "pending" {
			t.Errorf("permit %s is %s after the refusals, want pending", pid, st)
		}
	}
	if st := h.quarantineStatus(qid); st != "pending" {
		t.Errorf("quarantined call %s is %s after the refused review, want pending", qid, st)
	}
	if n := h.count("/v1/decisions?limit=1000", "decisions"); n != decisions {
		t.Errorf("decisions on the full disk: %d → %d", decisions, n)
	}
	if n := h.count("/v1/actions?limit=1000", "actions"); n != actions {
		t.Errorf("actions on the full disk: %d → %d", actions, n)
	}
	if n := h.count("/v1/tokens", "tokens"); n != tokens {
		t.Errorf("tokens on the full disk: %d → %d", tokens, n)
	}

	// Space returns: every call works, and the agent's token was never
	// revoked or rotated.
	disk.SimulateFullDisk(false)
	for _, c := range calls {
		if c.status <= 0 {
			continue
		}
		t.Run("after/"+c.name, func(t *testing.T) {
			r := h.do(c.method, c.path, c.token, body(c.body))
			if r.status != c.status {
				t.Errorf("%s %s once space returned: %d %s, want %d", c.method, c.path, r.status, r.body, c.status)
			}
		})
	}
	if n := h.count("/v1/decisions?limit=1000", "decisions"); n <= decisions {
		t.Errorf("decisions after space returned: %d → %d, want the new calls recorded", decisions, n)
	}
	if st := h.permitStatus(toCommit); st != "consumed" {
		t.Errorf("the permit committed once space returned is %s", st)
	}
	for _, c := range calls {
		if c.status != 0 {
			continue
		}
		r := h.do(c.method, c.path, c.token, body(c.body))
		if r.status != http.StatusOK {
			t.Errorf("%s once space returned: %d %s", c.name, r.status, r.body)
		}
	}
}

func body(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// count is the length of the list under key in GET path (as the owner).
func (h *harness) count(path, key string) int {
	h.t.Helper()
	r := h.do("GET", path, h.owner, nil)
	h.want(r, http.StatusOK, "")
	var m map[string][]any
	r.decode(h.t, &m)
	return len(m[key])
}

func (h *harness) permitStatus(pid string) string {
	h.t.Helper()
	r := h.do("GET", "/v1/permits/"+pid, h.owner, nil)
	h.want(r, http.StatusOK, "")
	var p struct{ Status string }
	r.decode(h.t, &p)
	return p.Status
}

func (h *harness) quarantineStatus(qid string) string {
	h.t.Helper()
	r := h.do("GET", "/v1/quarantine/"+qid, h.owner, nil)
	h.want(r, http.StatusOK, "")
	var it struct{ Status string }
	r.decode(h.t, &it)
	return it.Status
}
