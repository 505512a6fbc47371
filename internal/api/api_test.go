package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/api"
	"github.com/wardhq/ward/internal/id"
)

// TestRoutes runs every route's happy path, its auth and its bad input
// against one ward serve.
func TestRoutes(t *testing.T) {
	h := start(t, harnessOpts{})

	t.Run("auth", func(t *testing.T) {
		const bogus = "ward_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
		for _, rt := range []struct {
			method, path string
			owner        bool
		}{
			{"GET", "/v1/tools", false},
			{"GET", "/v1/sessions", true},
			{"GET", "/v1/gate", false},
			{"POST", "/v1/gate/halt", false},
			{"POST", "/v1/gate/resume", true},
			{"POST", "/v1/gate/phase", true},
			{"POST", "/v1/gate/spending", true},
			{"GET", "/v1/gate/allowlist", true},
			{"POST", "/v1/gate/allowlist", true},
			{"POST", "/v1/call/query_state", false},
			{"POST", "/v1/policy/check", true},
			{"GET", "/v1/decisions", true},
			{"GET", "/v1/reports", true},
			{"GET", "/v1/reports/most-denied-tools", true},
			{"GET", "/v1/actions", true},
			{"GET", "/v1/permits", true},
			{"GET", "/v1/permits/01JD3K7ZQ4Y7K3M9XW2V5T8R00", true},
			{"POST", "/v1/permits/01JD3K7ZQ4Y7K3M9XW2V5T8R00/cancel", true},
			{"GET", "/v1/quarantine", true},
			{"GET", "/v1/quarantine/01JD3K7ZQ4Y7K3M9XW2V5T8R00", true},
			{"POST", "/v1/quarantine/01JD3K7ZQ4Y7K3M9XW2V5T8R00/approve", true},
			{"POST", "/v1/quarantine/01JD3K7ZQ4Y7K3M9XW2V5T8R00/reject", true},
			{"GET", "/v1/events", true},
		} {
			t.Run(rt.method+" "+rt.path, func(t *testing.T) {
				h.want(h.do(rt.method, rt.path, "", "{}"), http.StatusUnauthorized, api.CodeUnauthenticated)
				h.want(h.do(rt.method, rt.path, bogus, "{}"), http.StatusUnauthorized, "INVALID_TOKEN")
				h.want(h.do(rt.method, rt.path, "", "{}", "Authorization", "Basic b3duZXI6cHc="), http.StatusUnauthorized, api.CodeUnauthenticated)
				if rt.owner {
					h.want(h.do(rt.method, rt.path, h.agent, "{}"), http.StatusForbidden, api.CodeForbidden)
					h.want(h.do(rt.method, rt.path, h.peer, "{}"), http.StatusForbidden, api.CodeForbidden)
				}
			})
		}
		t.Run("metrics", func(t *testing.T) {
			// Loopback without a token is let in; a token must be the owner's.
			h.want(h.do("GET", "/metrics", "", nil), http.StatusOK, "")
			h.want(h.do("GET", "/metrics", bogus, nil), http.StatusUnauthorized, "INVALID_TOKEN")
			h.want(h.do("GET", "/metrics", h.agent, nil), http.StatusForbidden, api.CodeForbidden)
			h.want(h.do("GET", "/metrics", h.owner, nil), http.StatusOK, "")
		})
	})

	t.Run("index, unknown routes and methods", func(t *testing.T) {
		r := h.do("GET", "/v1/", "", nil)
		h.want(r, http.StatusOK, "")
		var idx struct{ Routes []string }
		r.decode(t, &idx)
		if len(idx.Routes) < 20 {
			t.Errorf("index lists %d routes", len(idx.Routes))
		}
		h.want(h.do("GET", "/v1/nope", h.owner, nil), http.StatusNotFound, api.CodeNotFound)
		h.want(h.do("GET", "/v1/permits/x/y/z", h.owner, nil), http.StatusNotFound, api.CodeNotFound)
		r = h.do("DELETE", "/v1/gate", h.owner, nil)
		h.want(r, http.StatusMethodNotAllowed, api.CodeMethodNotAllowed)
		if got := r.header.Get("Allow"); got != "GET, HEAD" {
			t.Errorf("Allow = %q", got)
		}
		h.want(h.do("GET", "/v1/gate/halt", h.owner, nil), http.StatusMethodNotAllowed, api.CodeMethodNotAllowed)
		h.want(h.do("HEAD", "/v1/gate", h.agent, nil), http.StatusOK, "")
	})

	t.Run("tools", func(t *testing.T) {
		r := h.do("GET", "/v1/tools", h.agent, nil)
		h.want(r, http.StatusOK, "")
		var v struct {
			SessionID string `json:"session_id"`
			Facades   []struct{ Name string }
			Tools     []struct{ Name, Action, Venue, Tier string }
		}
		r.decode(t, &v)
		names := map[string]bool{}
		for _, f := range v.Facades {
			names[f.Name] = true
		}
		if !names["preview_action"] || !names["query_state"] || len(v.Facades) != 8 {
			t.Errorf("facades = %v", v.Facades)
		}
		var swap bool
		for _, x := range v.Tools {
			swap = swap || (x.Name == "uniswap_execute_swap" && x.Action == "swap" && x.Venue == "uniswap_v3" && x.Tier == "write")
		}
		if !swap || v.SessionID != h.sessionOf(h.agent, "") || !id.ValidOpaque(v.SessionID) {
			t.Errorf("session %q; uniswap_execute_swap listed: %v", v.SessionID, swap)
		}
		def := v.SessionID
		r = h.do("GET", "/v1/tools", h.agent, nil, "X-Ward-Session", "alpha")
		r.decode(t, &v)
		if v.SessionID == def || v.SessionID != h.sessionOf(h.agent, "alpha") || !id.ValidOpaque(v.SessionID) {
			t.Errorf("client session: %q", v.SessionID)
		}
		// The same name is another session for another token.
		if other := h.sessionOf(h.peer, "alpha"); other == v.SessionID {
			t.Errorf("two tokens' alpha sessions are one: %s", other)
		}
		h.want(h.do("GET", "/v1/tools", h.agent, nil, "X-Ward-Session", "no spaces"), http.StatusBadRequest, api.CodeBadRequest)
	})

	t.Run("gate", func(t *testing.T) {
		r := h.do("GET", "/v1/gate", h.agent, nil)
		h.want(r, http.StatusOK, "")
		var g struct {
			Phase  string
			Halted bool
			Spend  []struct {
				Window     string
				SpentCents int64 `json:"spent_cents"`
				LimitCents int64 `json:"limit_cents"`
			}
		}
		r.decode(t, &g)
		if g.Phase != "thriving" || g.Halted || len(g.Spend) != 3 || g.Spend[0].Window != "tick" || g.Spend[2].LimitCents != 2_000_000 {
			t.Errorf("gate = %+v", g)
		}
	})

	var permit string
	t.Run("call", func(t *testing.T) {
		r := h.do("POST", "/v1/call/query_state", h.agent, `{"kind":"gate"}`)
		h.want(r, http.StatusOK, "")
		r = h.do("POST", "/v1/call/search_context", h.agent, `{"kind":"gas","params":{}}`)
		h.want(r, http.StatusOK, "")
		r = h.do("POST", "/v1/call/preview_action", h.agent, h.swap(10))
		h.want(r, http.StatusOK, "")
		var pv struct {
			PermitID string `json:"permit_id"`
			Status   string
		}
		r.decode(t, &pv)
		if pv.PermitID == "" || pv.Status != "pending" {
			t.Fatalf("preview = %s", r.body)
		}
		permit = pv.PermitID
		for _, tc := range []struct {
			name, facade, body string
			status             int
			code               string
		}{
			{"unknown facade", "launch_rockets", `{}`, http.StatusNotFound, "TOOL_NOT_AVAILABLE"},
			{"schema", "query_state", `{"kind":7}`, http.StatusBadRequest, "SCHEMA_VIOLATION"},
			{"not an object", "query_state", `[1,2]`, http.StatusBadRequest, "SCHEMA_VIOLATION"},
			{"malformed", "query_state", `{"kind":`, http.StatusBadRequest, api.CodeBadJSON},
			{"unknown action", "preview_action", `{"action_type":"teleport","params":{}}`, http.StatusNotFound, "NOT_PREVIEWABLE"},
			{"unknown permit", "commit_action", `{"permit_id":"01JD3K7ZQ4Y7K3M9XW2V5T8R00"}`, http.StatusNotFound, "PERMIT_NOT_FOUND"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				h.want(h.do("POST", "/v1/call/"+tc.facade, h.agent, tc.body), tc.status, tc.code)
			})
		}
		h.want(h.do("POST", "/v1/call/query_state", h.agent, `{"kind":"gate"}`, "Content-Type", "text/plain"),
			http.StatusUnsupportedMediaType, api.CodeUnsupportedType)
	})

	t.Run("agent meters", func(t *testing.T) {
		// The owner sees what the agent's session holds; the owner's own
		// session is not among the agents.
		r := h.do("GET", "/v1/gate", h.owner, nil)
		h.want(r, http.StatusOK, "")
		var g struct {
			SessionID  string `json:"session_id"`
			AgentSpend []struct {
				SessionID string `json:"session_id"`
				Spend     []struct {
					Window    string
					HeldCents int64 `json:"held_cents"`
				}
			} `json:"agent_spend"`
		}
		r.decode(t, &g)
		agent := h.sessionOf(h.agent, "")
		var held bool
		for _, s := range g.AgentSpend {
			if s.SessionID == g.SessionID {
				t.Errorf("the owner's own session %s is listed among the agents", s.SessionID)
			}
			for _, w := range s.Spend {
				held = held || (s.SessionID == agent && w.Window == "session" && w.HeldCents > 0)
			}
		}
		if !held {
			t.Errorf("agent_spend = %s, want the agent session %s holding its previewed swap", r.body, agent)
		}
		// Another principal's spend is not an agent's business.
		r = h.do("GET", "/v1/gate", h.agent, nil)
		if strings.Contains(string(r.body), "agent_spend") {
			t.Errorf("an agent token reads agent_spend: %s", r.body)
		}
	})

	t.Run("permits", func(t *testing.T) {
		r := h.do("GET", "/v1/permits", h.owner, nil)
		h.want(r, http.StatusOK, "")
		var list struct {
			Permits []struct{ ID, Tool, Status, Summary string }
		}
		r.decode(t, &list)
		var found bool
		for _, p := range list.Permits {
			found = found || (p.ID == permit && p.Tool == "uniswap_execute_swap" && p.Summary != "")
		}
		if !found {
			t.Fatalf("pending permits %s lack %s", r.body, permit)
		}
		r = h.do("GET", "/v1/permits/"+permit, h.owner, nil)
		h.want(r, http.StatusOK, "")
		var one struct {
			ID      string
			Args    json.RawMessage
			Preview json.RawMessage
		}
		r.decode(t, &one)
		if one.ID != permit || len(one.Args) == 0 || len(one.Preview) == 0 {
			t.Errorf("permit = %s", r.body)
		}
		h.want(h.do("GET", "/v1/permits/not-an-id", h.owner, nil), http.StatusNotFound, api.CodeNotFound)
		h.want(h.do("GET", "/v1/permits/01JD3K7ZQ4Y7K3M9XW2V5T8R00", h.owner, nil), http.StatusNotFound, api.CodeNotFound)
		h.want(h.do("POST", "/v1/permits/"+permit+"/cancel", h.owner, nil), http.StatusOK, "")
		h.want(h.do("POST", "/v1/permits/"+permit+"/cancel", h.owner, nil), http.StatusConflict, "PERMIT_CANCELLED")
		h.want(h.do("POST", "/v1/call/commit_action", h.agent, `{"permit_id":"`+permit+`"}`), http.StatusConflict, "PERMIT_CANCELLED")
	})

	t.Run("decisions and reports", func(t *testing.T) {
		r := h.do("GET", "/v1/decisions?tool=uniswap_execute_swap&session="+h.sessionOf(h.agent, "")+"&limit=5", h.owner, nil)
		h.want(r, http.StatusOK, "")
		var d struct {
			Decisions []struct{ ID, Tool, Decision, Reason, SessionID string }
		}
		r.decode(t, &d)
		if len(d.Decisions) == 0 || d.Decisions[0].Tool != "uniswap_execute_swap" || d.Decisions[0].Decision != "allow" {
			t.Errorf("decisions = %s", r.body)
		}
		for _, q := range []string{"decision=maybe", "since=yesterday", "until=-5m", "limit=0", "limit=x", "origin=cli",
			"tool=" + strings.Repeat("x", 300)} {
			h.want(h.do("GET", "/v1/decisions?"+q, h.owner, nil), http.StatusBadRequest, api.CodeBadRequest)
		}
		h.want(h.do("GET", "/v1/decisions?since=1h&until=2030-01-01T00:00:00Z&decision=deny", h.owner, nil), http.StatusOK, "")
		r = h.do("GET", "/v1/reports", h.owner, nil)
		h.want(r, http.StatusOK, "")
		if !strings.Contains(string(r.body), "denials-by-reason") {
			t.Errorf("reports = %s", r.body)
		}
		r = h.do("GET", "/v1/reports/most-triggered-rules?since=1h", h.owner, nil)
		h.want(r, http.StatusOK, "")
		var rep struct {
			Report string
			Rows   []struct {
				Key   string
				Count int64
			}
		}
		r.decode(t, &rep)
		if rep.Report != "most-triggered-rules" {
			t.Errorf("report = %s", r.body)
		}
		h.want(h.do("GET", "/v1/decisions?report=most-denied-tools", h.owner, nil), http.StatusOK, "")
		h.want(h.do("GET", "/v1/reports/nope", h.owner, nil), http.StatusNotFound, api.CodeNotFound)
	})

	t.Run("actions", func(t *testing.T) {
		r := h.do("GET", "/v1/actions?kind=permit_created&session_id="+h.sessionOf(h.agent, ""), h.owner, nil)
		h.want(r, http.StatusOK, "")
		var a struct {
			Actions []struct {
				Kind     string
				PermitID string `json:"permit_id"`
				Detail   json.RawMessage
			}
		}
		r.decode(t, &a)
		if len(a.Actions) == 0 || a.Actions[0].PermitID == "" {
			t.Errorf("actions = %s", r.body)
		}
		h.want(h.do("GET", "/v1/actions?since=never", h.owner, nil), http.StatusBadRequest, api.CodeBadRequest)
	})

	t.Run("sessions", func(t *testing.T) {
		r := h.do("GET", "/v1/sessions", h.owner, nil)
		h.want(r, http.StatusOK, "")
		var s struct {
			Sessions []struct {
				SessionID   string `json:"session_id"`
				InputSource string `json:"input_source"`
				Decisions   int
			}
		}
		r.decode(t, &s)
		var found bool
		for _, x := range s.Sessions {
			found = found || (x.SessionID == h.sessionOf(h.agent, "") && x.InputSource == "agent" && x.Decisions > 0)
		}
		if !found {
			t.Errorf("sessions = %s", r.body)
		}
	})

	t.Run("policy check", func(t *testing.T) {
		before := h.do("GET", "/v1/decisions?origin=check", h.owner, nil)
		req := `{"tool":{"name":"transfer_credits"},"args":{"to_address":"0x1111111111111111111111111111111111111111","amount_cents":500},
			"turn":{"id":"t1","session_id":"s1","input_source":"agent"},"state":{"balance_cents":100000}}`
		r := h.do("POST", "/v1/policy/check", h.owner, req)
		h.want(r, http.StatusOK, "")
		var d struct {
			Action string `json:"action"`
			Reason string `json:"reason_code"`
		}
		r.decode(t, &d)
		if d.Action != "allow" {
			t.Errorf("decision = %s", r.body)
		}
		r = h.do("POST", "/v1/policy/check", h.owner, strings.Replace(req, "500", "5000", 1))
		r.decode(t, &d)
		if d.Action != "deny" || d.Reason == "" {
			t.Errorf("decision of a 50 dollar transfer = %s", r.body)
		}
		// A request naming only a tool this ward offers is evaluated as
		// that tool: the erc20 transfer is dangerous, so an external
		// source may not make it, and an agent may.
		for src, want := range map[string]string{"external": "AUTHORITY_INSUFFICIENT", "agent": "ALLOWED"} {
			r = h.do("POST", "/v1/policy/check", h.owner, `{"tool":{"name":"erc20_transfer_token"},
				"args":{"token":"0x1111111111111111111111111111111111111111","to":"0x2222222222222222222222222222222222222222","amount":"250000000"},
				"turn":{"input_source":"`+src+`"}}`)
			h.want(r, http.StatusOK, "")
			r.decode(t, &d)
			if d.Reason != want {
				t.Errorf("erc20_transfer_token from %s: %s, want %s", src, r.body, want)
			}
		}
		after := h.do("GET", "/v1/decisions?origin=check", h.owner, nil)
		if string(before.body) != string(after.body) {
			t.Error("a what-if was recorded")
		}
		for _, tc := range []struct{ name, body, code string }{
			{"malformed", `{"tool":`, api.CodeBadJSON},
			{"wrong type", `{"tool":{"name":7}}`, api.CodeBadJSON},
			{"unknown field", `{"tool":{"name":"x"},"colour":"red"}`, api.CodeBadJSON},
			{"trailing", `{"tool":{"name":"x"}} {}`, api.CodeBadJSON},
			{"no tool", `{}`, api.CodeBadRequest},
			{"bad risk", `{"tool":{"name":"x","risk":"spicy"}}`, api.CodeBadRequest},
			{"bad args", `{"tool":{"name":"x"},"args":[1]}`, api.CodeBadRequest},
			{"bad age", `{"tool":{"name":"x"},"state":{"spend":[{"category":"transfer","amount_cents":1,"age_seconds":-1}]}}`, api.CodeBadRequest},
		} {
			t.Run(tc.name, func(t *testing.T) {
				h.want(h.do("POST", "/v1/policy/check", h.owner, tc.body), http.StatusBadRequest, tc.code)
			})
		}
	})

	t.Run("halt, resume and phase", func(t *testing.T) {
		r := h.do("POST", "/v1/gate/halt", h.agent, `{"reason":"balances look wrong"}`)
		h.want(r, http.StatusOK, "")
		h.want(h.do("POST", "/v1/call/preview_action", h.agent, h.swap(10)), http.StatusLocked, "EMERGENCY_HALT")
		h.want(h.do("POST", "/v1/gate/resume", h.agent, nil), http.StatusForbidden, api.CodeForbidden)
		h.want(h.do("POST", "/v1/gate/resume", h.owner, `{"extra":1}`), http.StatusBadRequest, api.CodeBadJSON)
		h.want(h.do("POST", "/v1/gate/resume", h.owner, nil), http.StatusOK, "")
		h.want(h.do("POST", "/v1/gate/halt", h.agent, `{"reason":"`+strings.Repeat("x", 201)+`"}`), http.StatusBadRequest, api.CodeBadRequest)

		h.want(h.do("POST", "/v1/gate/phase", h.owner, `{"phase":"panic"}`), http.StatusBadRequest, api.CodeBadRequest)
		h.want(h.do("POST", "/v1/gate/phase", h.owner, `{"phase":7}`), http.StatusBadRequest, api.CodeBadJSON)
		h.want(h.do("POST", "/v1/gate/phase", h.owner, `{"phase":"conservation"}`), http.StatusOK, "")
		var g struct{ Phase string }
		h.do("GET", "/v1/gate", h.owner, nil).decode(t, &g)
		if g.Phase != "conservation" {
			t.Errorf("phase = %q", g.Phase)
		}
		h.want(h.do("POST", "/v1/gate/phase", h.owner, `{"phase":"thriving"}`), http.StatusOK, "")

		// The owner's spending override: bad input changes nothing; a
		// preview over it is refused; cleared, the configured limits
		// are in force again.
		for _, body := range []string{`{}`, `{"per_tick_usd":"1"}`, `{"per_tick_usd":"-1","per_session_usd":"1","daily_usd":"1"}`,
			`{"clear":true,"daily_usd":"1"}`} {
			h.want(h.do("POST", "/v1/gate/spending", h.owner, body), http.StatusBadRequest, api.CodeBadRequest)
		}
		h.want(h.do("POST", "/v1/gate/spending", h.owner, `{"per_tick_usd":1,"per_session_usd":"1","daily_usd":"1"}`), http.StatusBadRequest, api.CodeBadJSON)
		h.want(h.do("POST", "/v1/call/preview_action", h.agent, h.swap(10)), http.StatusOK, "")
		r = h.do("POST", "/v1/gate/spending", h.owner, `{"per_tick_usd":"0.01","per_session_usd":"unlimited","daily_usd":"unlimited"}`)
		h.want(r, http.StatusOK, "")
		if !strings.Contains(string(r.body), `"per_tick_usd":"0.01"`) {
			t.Errorf("spending override = %s", r.body)
		}
		r = h.do("POST", "/v1/call/preview_action", h.agent, h.swap(10))
		if r.status == http.StatusOK || !strings.Contains(string(r.body), "SPEND_PER_TICK_LIMIT_EXCEEDED") {
			t.Errorf("a preview over the owner's override: %d %s", r.status, r.body)
		}
		h.want(h.do("POST", "/v1/gate/spending", h.owner, `{"clear":true}`), http.StatusOK, "")
		h.want(h.do("POST", "/v1/call/preview_action", h.agent, h.swap(10)), http.StatusOK, "")
		if r := h.do("GET", "/v1/actions?kind=spending_limits_changed", h.owner, nil); strings.Count(string(r.body), "owner:") < 2 {
			t.Errorf("spending_limits_changed records = %s", r.body)
		}

		// The owner's allowlist changes: bad input changes nothing; a
		// refused token refuses the swap; reset, ward.toml's allowlist
		// is in force again.
		for _, body := range []string{`{}`, `{"add":{"tokens":["0x12"]}}`, `{"remove":{"selectors":["a9059cbb"]}}`,
			`{"add":{"tokens":["` + h.usdc + `"]},"remove":{"tokens":["` + h.usdc + `"]}}`} {
			h.want(h.do("POST", "/v1/gate/allowlist", h.owner, body), http.StatusBadRequest, api.CodeBadRequest)
		}
		h.want(h.do("POST", "/v1/gate/allowlist", h.owner, `{"add":{"tokens":"`+h.usdc+`"}}`), http.StatusBadRequest, api.CodeBadJSON)
		h.want(h.do("POST", "/v1/gate/allowlist", h.agent, `{"remove":{"tokens":["`+h.usdc+`"]}}`), http.StatusForbidden, "")
		if r := h.do("GET", "/v1/gate/allowlist", h.owner, nil); !strings.Contains(string(r.body), `"entries":[]`) {
			t.Errorf("allowlist after refused changes = %s", r.body)
		}
		r = h.do("POST", "/v1/gate/allowlist", h.owner, `{"remove":{"tokens":["`+strings.ToUpper(h.usdc[2:3])+h.usdc[3:]+`"]}}`)
		h.want(r, http.StatusBadRequest, api.CodeBadRequest) // no 0x
		r = h.do("POST", "/v1/gate/allowlist", h.owner, `{"remove":{"tokens":["`+h.usdc+`"]}}`)
		h.want(r, http.StatusOK, "")
		if !strings.Contains(string(r.body), strings.ToLower(h.usdc)) || !strings.Contains(string(r.body), `"allowed":false`) {
			t.Errorf("allowlist after refusing USDC = %s", r.body)
		}
		r = h.do("POST", "/v1/call/preview_action", h.agent, h.swap(10))
		if r.status == http.StatusOK || !strings.Contains(string(r.body), "TOKEN_NOT_ALLOWLISTED") {
			t.Errorf("a preview of a refused token: %d %s", r.status, r.body)
		}
		h.want(h.do("POST", "/v1/gate/allowlist", h.owner, `{"reset":true}`), http.StatusOK, "")
		h.want(h.do("POST", "/v1/call/preview_action", h.agent, h.swap(10)), http.StatusOK, "")
		if r := h.do("GET", "/v1/actions?kind=allowlist_changed", h.owner, nil); strings.Count(string(r.body), "owner:") < 2 {
			t.Errorf("allowlist_changed records = %s", r.body)
		}
		// Both are in the action log with the principal.
		r = h.do("GET", "/v1/actions?kind=halt_lifted", h.owner, nil)
		if !strings.Contains(string(r.body), "owner:") {
			t.Errorf("halt_lifted records = %s", r.body)
		}
	})

	t.Run("metrics", func(t *testing.T) {
		r := h.do("GET", "/metrics", "", nil)
		h.want(r, http.StatusOK, "")
		body := string(r.body)
		for _, want := range []string{
			`ward_decisions_total{action="allow",reason="ALLOWED"}`,
			`ward_decision_latency_seconds_bucket`,
			`ward_events_published_total`, `ward_events_dropped_total`,
			`ward_permits_total{state="created"}`, `ward_permits_total{state="cancelled"}`, `ward_permits_pending`,
			`ward_tool_call_duration_seconds_bucket`,
			`ward_api_requests_total{code="200",route="gate"}`,
			`ward_gate_phase{phase="thriving"} 1`, `ward_gate_halted 0`,
		} {
			if !strings.Contains(body, want) {
				t.Errorf("/metrics lacks %s", want)
			}
		}
		h.want(h.do("POST", "/metrics", "", nil), http.StatusMethodNotAllowed, api.CodeMethodNotAllowed)
	})
}
