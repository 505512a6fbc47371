package dashboard_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/daemon"
	"github.com/wardhq/ward/internal/testenv"
)

// testPolicy holds every gas price read for the owner's review. Its
// message carries markup, which the page must show as text.
const testPolicy = `
[[policy.rules]]
id = "test.review-gas-reads"
priority = 100
applies_to = { by = "name", names = ["data_get_gas_price"] }
when = "true"
action = "quarantine"
reason_code = "OWNER_REVIEW"
message = "<img src=x data-injected=1> gas reads wait for the owner"

[chain]
explorer_tx_url = "https://explorer.invalid/tx/{hash}"
`

// browserPath returns the Chromium or Chrome binary the test drives, or
// skips the test (fails it under CI).
func browserPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	testenv.Missing(t, "no chromium, chromium-browser or google-chrome on PATH: the dashboard's browser test needs one (apt-get install chromium)")
	return ""
}

// ward is a running daemon with the API and the dashboard mounted.
type ward struct {
	url          string
	owner, agent string // bearer tokens
}

// readyWriter reports the daemon's "ready" line.
type readyWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	ready chan string
}

func (w *readyWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if line := w.buf.String(); strings.Contains(line, "ready on ") && w.ready != nil {
		w.ready <- strings.Fields(strings.SplitN(line, "ready on ", 2)[1])[0]
		w.ready = nil
	}
	return len(p), nil
}

// startWard runs daemon.Serve on a free loopback port with a temporary
// data directory until the test ends.
func startWard(t *testing.T) *ward {
	t.Helper()
	return startWardWith(t, testPolicy)
}

// startWardWith is startWard with the configuration file conf.
func startWardWith(t *testing.T, conf string) *ward {
	t.Helper()
	f, err := config.Parse("ward.toml", []byte(conf))
	if err != nil {
		t.Fatal(err)
	}
	return serveWard(t, f, "dashboard test", "dashboard test agent", nil)
}

// serveWard runs daemon.Serve with f on a free loopback port with a
// temporary data directory until the test ends: ward serve's own surfaces
// mounted, an owner's and an agent's token made (named owner and agent),
// then seed, if not nil, run before it serves.
func serveWard(t *testing.T, f *config.File, owner, agent string, seed func(ctx context.Context, s *daemon.Server) error) *ward {
	t.Helper()
	w := &ward{}
	ready := make(chan string, 1)
	out := &readyWriter{ready: ready} // Write clears its field under its lock; the test reads only this channel
	ctx, cancel := context.WithCancel(context.WithoutCancel(t.Context()))
	served := make(chan error, 1)
	// The data directory is made here, before the cleanup that stops ward
	// is registered, so that it is removed after ward has stopped (cleanups
	// run last-registered first); made inside the goroutine, its removal
	// could race ward's last writes and leave it behind.
	data := t.TempDir()
	go func() {
		served <- daemon.Serve(ctx, daemon.ServeConfig{
			Addr: "127.0.0.1:0", Data: data, File: f, Out: out,
			// ward serve's own surfaces, as it mounts them.
			Mount: func(s *daemon.Server) error {
				if err := daemon.MountSurfaces(s); err != nil {
					return err
				}
				var err error
				now := time.Now()
				if w.owner, _, err = auth.Create(ctx, s.Stack.Store, auth.Spec{Role: auth.Owner, Name: owner}, now); err != nil {
					return err
				}
				if w.agent, _, err = auth.Create(ctx, s.Stack.Store, auth.Spec{Role: auth.Agent, Name: agent}, now); err != nil {
					return err
				}
				if seed == nil {
					return nil
				}
				return seed(ctx, s)
			},
		})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	select {
	case w.url = <-ready:
	case err := <-served:
		served <- err
		t.Fatalf("ward did not start: %v", err)
	case <-time.After(2 * time.Minute):
		t.Fatal("ward did not become ready in 2 minutes")
	}
	return w
}

// call posts a facade call as the agent and returns the status and body.
func (w *ward) call(t *testing.T, facade, body string) (int, map[string]any) {
	t.Helper()
	return w.do(t, w.agent, "POST", "/v1/call/"+facade, body)
}

func (w *ward) do(t *testing.T, token, method, path, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, w.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s %s: %d, not a JSON object: %s", method, path, res.StatusCode, b)
	}
	return res.StatusCode, v
}

// page is the browser tab the test drives.
type page struct {
	t   *testing.T
	ctx context.Context

	mu     sync.Mutex
	errors []string // uncaught exceptions in the page
}

func openBrowser(t *testing.T, bin string) *page {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin), chromedp.WindowSize(1440, 1000), chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()))
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox) // Chromium refuses to sandbox as root
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.WithoutCancel(t.Context()), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(func() {
		// Close the browser and wait for it to exit before the user data
		// directory is removed: killed, Chromium leaves its profile
		// directory and its singleton socket in the system's temporary
		// directory behind.
		_ = chromedp.Cancel(ctx)
		cancelTab()
		cancelAlloc()
	})
	p := &page{t: t, ctx: ctx}
	if err := chromedp.Do(ctx); err != nil { // starts the browser under ctx
		t.Fatalf("start %s: %v", bin, err)
	}
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*runtime.EventExceptionThrown); ok {
			p.mu.Lock()
			d := e.ExceptionDetails
			msg := d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				msg += " " + d.Exception.Description
			}
			p.errors = append(p.errors, fmt.Sprintf("%s (%s:%d)", msg, d.URL, d.LineNumber+1))
			p.mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	return p
}

// do runs steps with a deadline.
func (p *page) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.fail(what, err)
	}
}

// wait polls a JavaScript predicate until it is truthy.
func (p *page) wait(what, predicate string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 45*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](predicate, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(40*time.Second))); err != nil {
		p.fail(what, err)
	}
}

func (p *page) eval(expr string) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		p.fail("evaluate "+expr, err)
	}
	return v
}

// click clicks the element sel selects once it exists, in one evaluation:
// rows of live lists are re-rendered as events arrive, so a node found by
// one protocol call may be gone by the next, and the page's layout moves
// as they grow, so a mouse click at a position measured a moment before
// can land on another element (a form's button under the sticky header).
func (p *page) click(what, sel string) {
	p.t.Helper()
	p.wait(what, `(() => { const e = document.querySelector(`+jsString(sel)+`); if (!e) return false; e.click(); return true })()`)
}

// fail ends the test with a screenshot of the page as it was.
func (p *page) fail(what string, err error) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	if b, serr := chromedp.Run(ctx, chromedp.FullScreenshot(100)); serr == nil {
		if path, err := keepScreenshot("failure", b); err == nil {
			p.t.Logf("the page at the failure: %s", path)
		}
	}
	p.t.Fatalf("%s: %v (page errors: %q)", what, err, p.pageErrors())
}

func (p *page) pageErrors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.errors...)
}

// scheme makes the page render its light or dark colours.
func scheme(name string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: name}}})
		return err
	})
}

// clearToken empties the token field.
var clearToken = chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
	_, err := chromedp.Evaluate[chromedp.Void](`document.getElementById("token-input").value = ""`)(ctx, t)
	return err
})

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestDashboardInBrowser drives the page in headless Chromium against a
// real daemon: the token prompt, a tool call appearing live with its
// progress steps, a quarantined call approved from the page, a halt seen
// live and lifted from the page, and the audit search. It saves
// screenshots of the result (set WARD_UPDATE_SCREENSHOT=1 to refresh
// testdata/screenshot.png).
func TestDashboardInBrowser(t *testing.T) {
	bin := browserPath(t)
	if testing.Short() {
		t.Skip("starts a daemon and a browser")
	}
	w := startWard(t)
	p := openBrowser(t, bin)

	// The page asks for a token, says so when one is refused, and
	// connects with the owner's.
	p.do("open the page", scheme("light"), chromedp.Navigate(w.url+"/"), chromedp.WaitVisible(chromedp.ID("token-input")))
	p.do("enter a wrong token",
		chromedp.SendKeys(chromedp.ID("token-input"), "ward_"+strings.Repeat("A", 43)),
		chromedp.Click(chromedp.ID("token-connect")))
	p.wait("the refusal is shown", `document.getElementById("token-error").textContent.includes("rejected")`)
	p.do("enter an agent token",
		clearToken, chromedp.SendKeys(chromedp.ID("token-input"), w.agent),
		chromedp.Click(chromedp.ID("token-connect")))
	p.wait("an agent token is refused", `document.getElementById("token-error").textContent.includes("owner")`)
	p.do("enter the owner token",
		clearToken, chromedp.SendKeys(chromedp.ID("token-input"), w.owner),
		chromedp.Click(chromedp.ID("token-connect")))
	p.wait("the event stream is live", `document.getElementById("conn").dataset.state === "live"`)
	p.wait("the header shows the phase", `document.getElementById("phase").textContent === "thriving"`)
	p.wait("the header shows the chain", `/\d/.test(document.getElementById("chain").textContent)`)
	p.wait("the header shows the wallet", `document.getElementById("wallet").textContent.includes("ETH")`)

	// A tool call appears live; its progress steps advance its bar and it
	// ends green.
	if code, res := w.call(t, "query_state", `{"kind":"portfolio"}`); code != 200 {
		t.Fatalf("query_state portfolio: %d %v", code, res)
	}
	row := `document.querySelector('#feed li[data-tool="data_get_portfolio_snapshot"]')`
	p.wait("the call appears in the feed and ends", row+`?.dataset.state === "ok"`)
	if got := p.eval(row + `.dataset.step`); got != "3/3" {
		t.Errorf("the call's last progress step = %q, want 3/3", got)
	}
	p.wait("its decision is listed", `[...document.querySelectorAll("#decisions tr")].some(r => r.textContent.includes("data_get_portfolio_snapshot"))`)

	// A quarantined call appears in the queue, its attacker-shaped message
	// as text, and is approved from the page; it then runs.
	code, res := w.call(t, "search_context", `{"kind":"gas"}`)
	errv, _ := res["error"].(map[string]any)
	qid, _ := errv["quarantine_id"].(string)
	if code != http.StatusForbidden || qid == "" {
		t.Fatalf("search_context gas: %d %v, want 403 with a quarantine_id", code, res)
	}
	card := `document.querySelector('#quarantine li[data-id=` + jsString(qid) + `]')`
	p.wait("the held call is in the queue", card)
	if got := p.eval(card + `.querySelector(".msg").textContent`); !strings.HasPrefix(got, "<img src=x") {
		t.Errorf("the held call's message reads %q, want the markup as text", got)
	}
	if got := p.eval(`String(document.querySelectorAll("[data-injected]").length)`); got != "0" {
		t.Errorf("%s elements came from API text", got)
	}
	p.click("approve it", `#quarantine li[data-id="`+qid+`"] button[data-action="approve"]`)
	p.wait("it leaves the queue", `!`+card)
	p.wait("the approved call runs live", `document.querySelector('#feed li[data-tool="data_get_gas_price"]')?.dataset.state === "ok"`)
	if code, res := w.do(t, w.owner, "GET", "/v1/quarantine/"+qid, ""); code != 200 || res["status"] != "approved" {
		t.Errorf("the item after approval: %d %v, want approved", code, res)
	}

	// The agent halts; the header shows it live; the owner resumes from
	// the page.
	if code, res := w.call(t, "emergency_halt", `{"reason":"dashboard test"}`); code != 200 {
		t.Fatalf("emergency_halt: %d %v", code, res)
	}
	p.wait("the halt is shown", `document.getElementById("halt").dataset.tone === "bad" && document.getElementById("halt-btn").textContent === "Resume"`)
	p.click("resume", "#halt-btn")
	p.wait("the resume is shown", `document.getElementById("halt").textContent === "running"`)
	if code, res := w.do(t, w.owner, "GET", "/v1/gate", ""); code != 200 || res["halted"] != false {
		t.Errorf("the gate after resume: %d %v, want not halted", code, res)
	}

	// The audit search finds the quarantined decision.
	p.do("search the audit trail",
		chromedp.SetValue(chromedp.CSS(`#audit-form select[name="decision"]`), "quarantine"))
	p.click("submit the search", `#audit-form button[type="submit"]`)
	p.wait("the search finds the held call", `[...document.querySelectorAll("#audit tr")].some(r => r.textContent.includes("OWNER_REVIEW"))`)

	// A previewed write waits in the permits table; one over the spending
	// cap is vetoed and ends red in the feed; another held call waits in
	// the queue for the screenshot.
	code, res = w.call(t, "preview_action", `{"action_type":"wrap","params":{"amount":"100000000000000000"}}`)
	permit, _ := res["permit_id"].(string)
	if code != 200 || permit == "" {
		t.Fatalf("preview_action wrap: %d %v", code, res)
	}
	p.wait("the permit is listed", `document.querySelector('#permits tr[data-id=`+jsString(permit)+`]')`)
	if code, res := w.call(t, "preview_action", `{"action_type":"wrap","params":{"amount":"900000000000000000000"}}`); code < 400 {
		t.Fatalf("preview_action wrap 900 ETH: %d %v, want a veto", code, res)
	}
	p.wait("the veto ends red", `[...document.querySelectorAll('#feed li[data-state="bad"]')].some(r => r.textContent.includes("weth_wrap_eth"))`)
	// A committed write is in the action log with its transaction hash,
	// linked to the chain's explorer (the result filter keeps hashes).
	code, res = w.call(t, "preview_action", `{"action_type":"wrap","params":{"amount":"1000000000000000"}}`)
	committed, _ := res["permit_id"].(string)
	if code != 200 || committed == "" {
		t.Fatalf("preview_action wrap to commit: %d %v", code, res)
	}
	code, res = w.call(t, "commit_action", `{"permit_id":`+jsString(committed)+`}`)
	data, _ := res["data"].(map[string]any)
	hashes, _ := data["tx_hashes"].([]any)
	if code != 200 || len(hashes) == 0 {
		t.Fatalf("commit_action: %d %v, want tx_hashes", code, res)
	}
	hash, _ := hashes[len(hashes)-1].(string)
	if len(hash) != 66 {
		t.Fatalf("commit_action returned the hash %q", hash)
	}
	// Searched by its permit: the action log lists the oldest records
	// first, a page of 100, and a slow run (the Curator's and the chain's
	// records of every heartbeat) can fill the page before the commit.
	p.do("search the action log",
		chromedp.SetValue(chromedp.ID("a-trail"), "actions"),
		chromedp.SetValue(chromedp.CSS(`#audit-form input[name="permit_id"]`), committed))
	p.click("submit the search", `#audit-form button[type="submit"]`)
	link := `document.querySelector('#audit a[href=` + jsString("https://explorer.invalid/tx/"+hash) + `]')`
	p.wait("the commit's transaction links to the explorer", link)
	if got := p.eval(link + `.rel`); got != "noopener noreferrer" {
		t.Errorf("the explorer link's rel = %q", got)
	}

	if code, _ := w.call(t, "search_context", `{"kind":"gas","params":{}}`); code != http.StatusForbidden {
		t.Fatalf("second search_context gas: %d, want 403", code)
	}
	p.wait("the second held call is queued", `document.querySelectorAll("#quarantine li").length === 1`)

	if errs := p.pageErrors(); len(errs) > 0 {
		t.Errorf("the page threw: %q", errs)
	}
	p.screenshots()
}

// TestDashboardTokens drives the tokens panel in headless Chromium: the
// list with a name written as markup shown as text, a token created from
// the form whose secret is shown once and works, its rotation (the old
// secret refused, the new one accepted), its revocation behind a
// confirmation (the secret refused, the row marked revoked), and an API
// error shown in the panel. The secret is read from the page only while
// it is displayed; it is never in the markup or in the tab's storage.
func TestDashboardTokens(t *testing.T) {
	bin := browserPath(t)
	if testing.Short() {
		t.Skip("starts a daemon and a browser")
	}
	w := startWard(t)
	const markup = `<img src=x onerror=alert(1)>`
	if code, res := w.do(t, w.owner, "POST", "/v1/tokens", `{"role":"peer","name":`+jsString(markup)+`}`); code != 200 {
		t.Fatalf("create the token named with markup: %d %v", code, res)
	}
	p := openBrowser(t, bin)
	p.do("open the page", scheme("light"), chromedp.Navigate(w.url+"/"), chromedp.WaitVisible(chromedp.ID("token-input")),
		chromedp.SendKeys(chromedp.ID("token-input"), w.owner), chromedp.Click(chromedp.ID("token-connect")))
	p.wait("the event stream is live", `document.getElementById("conn").dataset.state === "live"`)

	// row finds the table row of the token with a name, by its text.
	row := func(name string) string {
		return `[...document.querySelectorAll("#tokens tr")].find(r => r.querySelector('[data-cell="name"]').textContent === ` + jsString(name) + `)`
	}
	for _, name := range []string{"dashboard test", "dashboard test agent", markup} {
		p.wait("the panel lists "+name, row(name)+`?.dataset.status === "live"`)
	}
	if got := p.eval(`String(document.querySelectorAll("#tokens img").length) + " " + String(` + row(markup) + `.querySelector('[data-cell="name"]').childElementCount)`); got != "0 0" {
		t.Errorf("the name written as markup made elements (images in the table, elements in its cell: %s), want its text only", got)
	}

	// secret reads the secret on display; shown checks it is nowhere else.
	secret := func() string {
		p.t.Helper()
		p.wait("a secret is shown", `!document.getElementById("k-secret").hidden && document.getElementById("k-secret-value").value.startsWith("ward_")`)
		s := p.eval(`document.getElementById("k-secret-value").value`)
		if got := p.eval(`String(document.documentElement.outerHTML.includes(` + jsString(s) + `) || JSON.stringify({...sessionStorage, ...localStorage}).includes(` + jsString(s) + `))`); got != "false" {
			t.Errorf("the secret is in the page's markup or the tab's storage")
		}
		return s
	}
	dismiss := func(s string) {
		p.t.Helper()
		p.click("dismiss the secret", "#k-dismiss")
		if got := p.eval(`String(document.getElementById("k-secret").hidden) + " " + String([...document.querySelectorAll("input")].some(i => i.value.includes(` + jsString(s) + `)) || document.documentElement.outerHTML.includes(` + jsString(s) + `))`); got != "true false" {
			t.Errorf("after Done, hidden and still in the page = %s, want true false", got)
		}
	}
	status := func(tok string) int {
		t.Helper()
		code, _ := w.do(t, tok, "GET", "/v1/gate", "")
		return code
	}

	// A token made from the form works with the secret shown once.
	p.do("create an agent token",
		chromedp.SetValue(chromedp.ID("k-role"), "agent"),
		chromedp.SetValue(chromedp.ID("k-name"), "dash-made"),
		chromedp.SetValue(chromedp.ID("k-ttl"), "1h"))
	p.click("submit the form", "#k-create")
	first := secret()
	if got := p.eval(`document.getElementById("k-secret-h").textContent`); !strings.Contains(got, "dash-made") {
		t.Errorf("the secret's heading reads %q, want the token's name", got)
	}
	if got := status(first); got != http.StatusOK {
		t.Errorf("GET /v1/gate with the new secret: %d, want 200", got)
	}
	made := row("dash-made")
	p.wait("the new token is listed", made+`?.dataset.status === "live"`)
	if got := p.eval(made + `.children[1].textContent + " " + String(` + made + `.children[4].textContent !== "never")`); got != "agent true" {
		t.Errorf("the new token's role and whether it expires = %q, want agent true", got)
	}
	if got := p.eval(`document.getElementById("k-name").value`); got != "" {
		t.Errorf("the form still holds the name %q after creating", got)
	}
	dismiss(first)

	// Rotating it shows a new secret; the old one is refused.
	id := p.eval(made + `.dataset.id`)
	p.click("rotate it", `#tokens tr[data-id="`+id+`"] button[data-action="rotate"]`)
	p.wait("a rotated secret is shown", `document.getElementById("k-secret-value").value.startsWith("ward_") && document.getElementById("k-secret-value").value !== `+jsString(first))
	second := secret()
	if got, want := [2]int{status(first), status(second)}, [2]int{http.StatusUnauthorized, http.StatusOK}; got != want {
		t.Errorf("GET /v1/gate with the old and the rotated secret: %v, want %v", got, want)
	}
	dismiss(second)

	// Revoking asks first; keeping it changes nothing.
	revoke := `#tokens tr[data-id="` + id + `"] button[data-action="revoke"]`
	p.click("ask to revoke it", revoke)
	p.do("see the confirmation", chromedp.WaitVisible(chromedp.ID("r-cancel")))
	if got := p.eval(`document.getElementById("r-text").textContent`); !strings.Contains(got, "dash-made") {
		t.Errorf("the confirmation reads %q, want the token's name", got)
	}
	p.do("keep it", chromedp.Click(chromedp.ID("r-cancel")))
	p.wait("the confirmation closes", `!document.getElementById("revoke-dialog").open`)
	if got := status(second); got != http.StatusOK {
		t.Errorf("GET /v1/gate after keeping the token: %d, want 200", got)
	}
	p.click("ask again", revoke)
	p.do("revoke it", chromedp.WaitVisible(chromedp.ID("r-confirm")), chromedp.Click(chromedp.ID("r-confirm")))
	p.wait("the row shows it revoked", `document.querySelector('#tokens tr[data-id=`+jsString(id)+`]')?.dataset.status === "revoked"`)
	if got := p.eval(`document.querySelector('#tokens tr[data-id=` + jsString(id) + `]').textContent`); !strings.Contains(got, "revoked") {
		t.Errorf("the revoked row reads %q, want revoked", got)
	}
	if got := p.eval(`String(document.querySelectorAll('#tokens tr[data-id=` + jsString(id) + `] button').length)`); got != "0" {
		t.Errorf("the revoked row has %s buttons, want none", got)
	}
	if got := status(second); got != http.StatusUnauthorized {
		t.Errorf("GET /v1/gate with the revoked token: %d, want 401", got)
	}

	// The API's refusal is shown in the panel, and no secret.
	p.do("create a token with a name in use",
		chromedp.SetValue(chromedp.ID("k-name"), "dashboard test agent"))
	p.click("submit the form", "#k-create")
	p.wait("the refusal is shown", `document.getElementById("k-error").textContent.includes("has this name")`)
	if got := p.eval(`String(document.getElementById("k-secret").hidden)`); got != "true" {
		t.Errorf("a secret is shown after a refused create")
	}

	if errs := p.pageErrors(); len(errs) > 0 {
		t.Errorf("the page threw: %q", errs)
	}
}

// keepScreenshot writes a failure's screenshot to a new temporary
// directory that outlives the test, for a person to look at, and returns
// its path.
func keepScreenshot(name string, png []byte) (string, error) {
	dir, err := os.MkdirTemp("", "ward-dashboard-")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, name+".png")
	return path, os.WriteFile(path, png, 0o644)
}

// saveScreenshot writes a screenshot to the test's artifact directory and
// returns its path: kept for a person to look at under `go test
// -artifacts` (in the output directory), removed with the test otherwise,
// so that a test run leaves nothing behind in the system's temporary
// directory.
func saveScreenshot(t *testing.T, name string, png []byte) (string, error) {
	path := filepath.Join(t.ArtifactDir(), name+".png")
	return path, os.WriteFile(path, png, 0o644)
}

// screenshots saves the page in its light and dark schemes.
func (p *page) screenshots() {
	p.t.Helper()
	for _, s := range []string{"light", "dark"} {
		p.do(s+" scheme", scheme(s), chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0); document.getElementById("toasts").replaceChildren()`)(ctx, t)
			return err
		}), chromedp.Sleep(400*time.Millisecond)) // let transitions settle
		ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
		b, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		cancel()
		if err != nil {
			p.fail("screenshot", err)
		}
		path, err := saveScreenshot(p.t, s, b)
		if err != nil {
			p.t.Fatal(err)
		}
		p.t.Logf("screenshot (%s): %s", s, path)
		if s == "light" && os.Getenv("WARD_UPDATE_SCREENSHOT") == "1" {
			if err := os.WriteFile(filepath.Join("testdata", "screenshot.png"), b, 0o644); err != nil {
				p.t.Fatal(err)
			}
			p.t.Log("updated testdata/screenshot.png")
		}
	}
}
