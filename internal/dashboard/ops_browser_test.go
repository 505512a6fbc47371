package dashboard_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/daemon"
	"github.com/wardhq/ward/internal/store"
)

// opsPolicy is testPolicy with an upstream server (which the test never
// connects to: its pins are seeded in the store) whose description of a
// changed tool carries markup.
const opsPolicy = testPolicy + `
[[upstream]]
name = "notes"
url = "https://user:hunter2@notes.invalid/mcp?key=s3cret"
`

// startOpsWard runs ward serve from a ward.toml file (so that it can be
// reloaded) with the upstream server's pins and a pending definition in
// its store.
func startOpsWard(t *testing.T) (*ward, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ward.toml")
	if err := os.WriteFile(path, []byte(opsPolicy), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	w := serveWard(t, f, "ops owner", "ops agent", func(ctx context.Context, s *daemon.Server) error {
		st, now := s.Stack.Store, time.Now()
		a, b := strings.Repeat("a", 64), strings.Repeat("b", 64)
		if _, _, err := st.PinTool(ctx, store.PinnedTool{Server: "notes", Tool: "get_note", Hash: a, Approved: now}); err != nil {
			return err
		}
		return st.SetPendingTools(ctx, "notes", []store.PendingTool{{Server: "notes", Tool: "get_note", Hash: b, ApprovedHash: a, Seen: now,
			Def: json.RawMessage(`{"name":"get_note","description":"<img src=x data-injected=1> read a note","input_schema":{"type":"object"}}`)}})
	})
	return w, path
}

// TestDashboardOpsViews drives the policy and upstream servers views in
// headless Chromium: the policy's hash, source and rules; a reload of an
// edited ward.toml from the page (and a refused one, whose problems are
// shown and which changes nothing); an upstream server's pinned tool and
// its changed definition approved from the page, which an agent's token
// cannot do. Text from the API never becomes markup.
func TestDashboardOpsViews(t *testing.T) {
	bin := browserPath(t)
	if testing.Short() {
		t.Skip("starts a daemon and a browser")
	}
	w, path := startOpsWard(t)
	p := openBrowser(t, bin)
	p.do("open the page", scheme("light"), chromedp.Navigate(w.url+"/"), chromedp.WaitVisible(chromedp.ID("token-input")),
		chromedp.SendKeys(chromedp.ID("token-input"), w.owner), chromedp.Click(chromedp.ID("token-connect")))

	// The policy view.
	code, pol := w.do(t, w.owner, "GET", "/v1/policy", "")
	if code != 200 {
		t.Fatalf("GET /v1/policy: %d %v", code, pol)
	}
	hash, _ := pol["hash"].(string)
	p.wait("the policy's hash", `document.getElementById("pol-hash").title === `+jsString(hash))
	p.wait("the user rule", `document.querySelector('#pol-rules tr[data-rule="test.review-gas-reads"]')?.textContent.includes("quarantine")`)
	if got := p.eval(`document.getElementById("pol-source").textContent`); !strings.Contains(got, path) || !strings.Contains(got, "loaded at start") {
		t.Errorf("the policy's source line: %q", got)
	}
	if got := p.eval(`String(document.querySelectorAll("#pol-rules tr").length)`); got == "0" || got == "1" {
		t.Errorf("%s rules listed; want the built-in ones too", got)
	}

	// A reload from the page: the edited rule applies, the view says who.
	edited := strings.Replace(opsPolicy, `action = "quarantine"`, `action = "deny"`, 1)
	if err := os.WriteFile(path, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	p.click("reload ward.toml", "#pol-reload")
	p.wait("the reloaded rule", `document.querySelector('#pol-rules tr[data-rule="test.review-gas-reads"]')?.textContent.includes("deny")`)
	p.wait("who reloaded it", `document.getElementById("pol-source").textContent.includes("reloaded by ops owner")`)
	if got := p.eval(`document.getElementById("pol-hash").title`); got == hash {
		t.Error("the hash shown did not change with the policy")
	}
	if code, res := w.call(t, "query_state", `{"kind":"gas"}`); code != 403 {
		t.Errorf("a gas read after the reload: %d %v; want the reloaded rule's deny", code, res)
	}
	reloaded := p.eval(`document.getElementById("pol-hash").title`)
	// An invalid file is refused from the page, with its problems.
	if err := os.WriteFile(path, []byte("[[policy.rules]]\nid = 7\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p.click("reload the broken ward.toml", "#pol-reload")
	p.wait("the refusal", `document.getElementById("pol-error").textContent.includes("Not reloaded, nothing changed")`)
	if got := p.eval(`document.getElementById("pol-hash").title`); got != reloaded {
		t.Errorf("a refused reload changed the hash shown: %s, was %s", got, reloaded)
	}

	// The upstream servers view: the pinned tool and the changed
	// definition waiting, never the URL's secrets.
	p.wait("the pinned tool", `document.querySelector('#up-rows tr[data-kind="pinned"][data-tool="get_note"]')?.textContent.includes("mcp_notes_get_note")`)
	p.wait("the pending definition", `!!document.querySelector('#up-rows tr[data-kind="pending"][data-tool="get_note"] button[data-action="approve"]')`)
	if got := p.eval(`String(document.querySelectorAll("#up-rows img, [data-injected]").length) + " " + String(/hunter2|s3cret/.test(document.documentElement.outerHTML))`); got != "0 false" {
		t.Errorf("the upstream view made elements of the definition, or shows the URL's secrets: %s", got)
	}
	// An agent's token cannot approve; the owner approves from the page.
	if code, _ := w.do(t, w.agent, "POST", "/v1/upstreams/notes/tools/get_note/approve", "{}"); code != 403 {
		t.Errorf("an agent's approval: %d, want 403", code)
	}
	p.click("approve the changed definition", `#up-rows tr[data-kind="pending"] button[data-action="approve"]`)
	p.wait("the approval applied", `!document.querySelector('#up-rows tr[data-kind="pending"]') && document.querySelector('#up-rows tr[data-kind="pinned"][data-tool="get_note"]')?.textContent.includes("by ops owner")`)
	if code, res := w.do(t, w.owner, "POST", "/v1/upstreams/notes/tools/get_note/approve", "{}"); code != 404 {
		t.Errorf("approving it again: %d %v, want 404", code, res)
	}
	if code, _ := w.do(t, w.owner, "POST", "/v1/upstreams/other/tools/get_note/approve", "{}"); code != 404 {
		t.Errorf("approving a tool of a server that is not configured: %d, want 404", code)
	}
	if errs := p.pageErrors(); len(errs) > 0 {
		t.Errorf("page errors: %q", errs)
	}
}
