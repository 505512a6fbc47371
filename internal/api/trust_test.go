package api_test

import (
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/auth"
)

// Isolated orchestration over HTTP: an isolated orchestrator calling a
// third-party-content tool gets 403; its tainted child's output comes back
// as metadata; only designated reviewers (and, once promoted, the
// orchestrator) read it; a session cannot name its author as its judge.
func TestIsolatedOrchestrationAPI(t *testing.T) {
	h := start(t, harnessOpts{})
	ctx := t.Context()
	alice, _, err := auth.Create(ctx, h.srv.Stack.Store, auth.Spec{Role: auth.Owner, Name: "alice"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	bob, _, err := auth.Create(ctx, h.srv.Stack.Store, auth.Spec{Role: auth.Agent, Name: "bob"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	h.want(h.do("POST", "/v1/sessions", h.agent, map[string]any{"name": "orch", "isolated": true}), 200, "")
	h.want(h.do("POST", "/v1/sessions", h.agent, map[string]any{"name": "orch", "isolated": true}), 409, "")

	tokenRead := `{"kind":"token","params":{"token":"` + h.usdc + `"}}`
	h.want(h.do("POST", "/v1/call/search_context", h.agent, tokenRead, "X-Ward-Session", "orch"), 403, "TAINT_ISOLATION")

	// A child needs a reviewer and a judge; its author cannot be either.
	h.want(h.do("POST", "/v1/sessions", h.agent, map[string]any{"name": "worker", "parent": "orch"}), 409, "")
	h.want(h.do("POST", "/v1/sessions", bob, map[string]any{"name": "orch"}), 200, "")
	h.want(h.do("POST", "/v1/sessions", bob, map[string]any{"name": "w", "parent": "orch", "reviewers": []string{"rules-reviewer"}, "judge": "bob"}), 403, "SELF_REVIEW")
	r := h.do("POST", "/v1/sessions", h.agent, map[string]any{"name": "worker", "parent": "orch", "reviewers": []string{"alice"}, "judge": "rules-judge"})
	h.want(r, 200, "")
	var created struct {
		Taint  string `json:"taint"`
		Parent string `json:"parent"`
	}
	r.decode(t, &created)
	if created.Taint != "tainted" || created.Parent == "" {
		t.Fatalf("child session %s", r.body)
	}

	r = h.do("POST", "/v1/sessions/orch/delegate", h.agent, map[string]any{"child": "worker", "tool": "data_get_token_info", "args": map[string]string{"token": h.usdc}})
	h.want(r, 200, "")
	var meta struct {
		Status    string `json:"status"`
		OutputKey string `json:"output_key"`
		Size      int64  `json:"size"`
	}
	r.decode(t, &meta)
	if meta.OutputKey == "" || meta.Size == 0 || strings.Contains(string(r.body), "symbol") {
		t.Fatalf("delegate answered %s: want metadata only", r.body)
	}
	// The designated reviewer reads it; a stranger cannot.
	h.want(h.do("GET", "/v1/outputs/"+meta.OutputKey, alice, nil), 200, "")
	h.want(h.do("GET", "/v1/outputs/"+meta.OutputKey, h.owner, nil), 403, "NOT_A_REVIEWER")
	h.want(h.do("GET", "/v1/outputs/nosuchkey", alice, nil), 404, "OUTPUT_NOT_FOUND")
	// Token metadata without instruction-like text is promoted by the
	// rule judge: the orchestrator may now read it.
	if meta.Status != "promoted" {
		t.Fatalf("status %q: benign token metadata was not promoted", meta.Status)
	}
	h.want(h.do("GET", "/v1/outputs/"+meta.OutputKey, h.agent, nil, "X-Ward-Session", "orch"), 200, "")
	// Only the owner sets a trusted directive.
	h.want(h.do("POST", "/v1/sessions/orch/directive", h.agent, map[string]string{"directive": "x"}), 403, "")
	h.want(h.do("POST", "/v1/sessions/orch/directive", h.owner, map[string]string{"directive": "x"}), 404, "NOT_FOUND")
	r = h.do("GET", "/v1/tools", h.agent, nil, "X-Ward-Session", "orch")
	var tl struct {
		SessionID string `json:"session_id"`
	}
	r.decode(t, &tl)
	r = h.do("POST", "/v1/sessions/"+tl.SessionID+"/directive", h.owner, map[string]string{"directive": "pay " + h.usdc})
	h.want(r, 200, "")
	if !strings.Contains(string(r.body), `"trusted":true`) {
		t.Errorf("owner directive: %s", r.body)
	}
	// The owner puts the tainted child under review and lifts it; a clean
	// session cannot be given a level.
	r = h.do("GET", "/v1/tools", h.agent, nil, "X-Ward-Session", "worker")
	r.decode(t, &tl)
	h.want(h.do("POST", "/v1/sessions/"+tl.SessionID+"/level", h.agent, map[string]string{"level": "review"}), 403, "")
	h.want(h.do("POST", "/v1/sessions/"+tl.SessionID+"/level", h.owner, map[string]string{"level": "review"}), 200, "")
	h.want(h.do("POST", "/v1/sessions/"+tl.SessionID+"/level", h.owner, map[string]string{"level": "tainted"}), 200, "")
	h.want(h.do("POST", "/v1/sessions/"+tl.SessionID+"/level", h.owner, map[string]string{"level": "bogus"}), 400, "")
	r = h.do("GET", "/v1/tools", h.agent, nil, "X-Ward-Session", "orch")
	r.decode(t, &tl)
	h.want(h.do("POST", "/v1/sessions/"+tl.SessionID+"/level", h.owner, map[string]string{"level": "review"}), 409, "")
}
