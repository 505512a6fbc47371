package dashboard_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// ownerPolicy holds every ERC-20 transfer for the owner, whose address
// book names the recipient.
const ownerPolicy = `
[[policy.rules]]
id = "test.review-transfers"
priority = 100
applies_to = { by = "name", names = ["erc20_transfer_token"] }
when = "true"
action = "quarantine"
reason_code = "TRANSFER_REVIEW"
message = "transfers wait for the owner"

[trust]
address_book = ["0x52908400098527886E0F7030069857D2E4169EE7"]
`

// recipient is the address book's entry, in its EIP-55 spelling.
const recipient = "0x52908400098527886E0F7030069857D2E4169EE7"

// TestDashboardOwnerDecisions drives the page in headless Chromium against
// a real daemon: a held 250 USDC transfer's card says what it would do
// (the symbol, the amount with its decimals, the USD value, the token and
// the recipient in full with the recipient's address-book name, the rule,
// the reason, the taint); the owner rejects it from the page and the
// decision row says rejected; the agent's identical retry, spelled
// differently, is refused and shows red in the feed and among the
// decisions without a new card;
// the sessions view lists the agent's session with its taint and what
// waits; the meters show the agent session's spend.
func TestDashboardOwnerDecisions(t *testing.T) {
	bin := browserPath(t)
	if testing.Short() {
		t.Skip("starts a daemon and a browser")
	}
	w := startWardWith(t, ownerPolicy)

	// The dev chain's USDC, from the agent's own portfolio.
	code, res := w.call(t, "query_state", `{"kind":"portfolio"}`)
	data, _ := res["data"].(map[string]any)
	holdings, _ := data["holdings"].([]any)
	var usdc string
	for _, h := range holdings {
		if m, _ := h.(map[string]any); m["symbol"] == "USDC" {
			usdc, _ = m["token"].(string)
		}
	}
	if code != http.StatusOK || usdc == "" {
		t.Fatalf("portfolio: %d %v, want a USDC holding", code, res)
	}

	p := openBrowser(t, bin)
	p.do("open the page", scheme("light"), chromedp.Navigate(w.url+"/"), chromedp.WaitVisible(chromedp.ID("token-input")),
		chromedp.SendKeys(chromedp.ID("token-input"), w.owner), chromedp.Click(chromedp.ID("token-connect")))
	p.wait("the event stream is live", `document.getElementById("conn").dataset.state === "live"`)

	transfer := func(to, amount string) (int, map[string]any) {
		return w.call(t, "preview_action", `{"action_type":"transfer","venue":"erc20","params":{"token":`+jsString(usdc)+`,"to":`+jsString(to)+`,"amount":`+jsString(amount)+`}}`)
	}
	code, res = transfer(strings.ToLower(recipient), "250000000")
	errv, _ := res["error"].(map[string]any)
	qid, _ := errv["quarantine_id"].(string)
	if code != http.StatusForbidden || qid == "" {
		t.Fatalf("transfer: %d %v, want 403 with a quarantine_id", code, res)
	}
	_, item := w.do(t, w.owner, "GET", "/v1/quarantine/"+qid, "")
	desc, _ := item["description"].(map[string]any)
	value, _ := desc["value"].(string)
	if !strings.HasPrefix(value, "$") {
		t.Fatalf("the item's description values it at %q, want dollars: %v", value, item)
	}

	card := `document.querySelector('#quarantine li[data-id=` + jsString(qid) + `]')`
	p.wait("the held transfer is in the queue", card+`?.querySelector(".desc")`)
	field := func(name string) string {
		return p.eval(`[...` + card + `.querySelectorAll('[data-field=` + jsString(name) + `]')].map(r => r.textContent).join(" | ")`)
	}
	for _, tc := range []struct{ field, want string }{
		{"value", value},
		{"token", "250 USDC"},
		{"token", usdc},
		{"party", recipient},
		{"party", "owner's address book"},
		{"rule", "test.review-transfers"},
		{"reason", "TRANSFER_REVIEW"},
		{"taint", "clean"},
		{"args", `"amount":"250000000"`},
		{"balance", "-250 USDC"}, // simulated when it was held
	} {
		if got := field(tc.field); !strings.Contains(got, tc.want) {
			t.Errorf("the card's %s reads %q, want %q", tc.field, got, tc.want)
		}
	}
	if got := field("token"); strings.Contains(got, "not in the address book") {
		t.Errorf("the book's USDC is flagged: %q", got)
	}

	// The owner rejects it; its decision row says so.
	p.click("reject it", `#quarantine li[data-id="`+qid+`"] button[data-action="reject"]`)
	p.wait("it leaves the queue", `!`+card)
	decisionID, _ := item["decision_id"].(string)
	p.wait("the decision row is marked rejected", `document.querySelector('#decisions tr[data-id=`+jsString(decisionID)+`] [data-review="rejected"]')`)

	// The agent sends it again, the recipient in its checksum spelling: it
	// is refused with the rejection, red in the feed, and queues nothing.
	code, res = transfer(recipient, "250000000")
	if errv, _ := res["error"].(map[string]any); code < 400 || errv["code"] != "REJECTED_BY_OWNER" || errv["quarantine_id"] != nil {
		t.Fatalf("the retry: %d %v, want REJECTED_BY_OWNER without a new item", code, res)
	}
	p.wait("the refusal is red in the feed", `[...document.querySelectorAll('#feed li[data-state="bad"]')].some(r => r.textContent.includes("REJECTED_BY_OWNER"))`)
	p.wait("and among the decisions, vetoed", `[...document.querySelectorAll("#decisions tr")].some(r => r.textContent.includes("vetoed") && r.textContent.includes("REJECTED_BY_OWNER"))`)

	// Another transfer waits: the sessions view shows the agent's session
	// with it, and the meters the agent's spend.
	if code, _ := transfer(recipient, "1000000"); code != http.StatusForbidden {
		t.Fatalf("a second transfer: %d, want it held", code)
	}
	p.wait("the second transfer is queued", `document.querySelectorAll("#quarantine li").length === 1`)
	p.do("reload the lists", chromedp.Evaluate[chromedp.Void](`document.getElementById("feed-clear").click()`))
	row := `[...document.querySelectorAll("#sessions tr[data-session]")].find(r => r.querySelector('[data-cell="held"]').textContent.includes("1 waiting"))`
	p.wait("the sessions view lists the agent's session with what waits", row)
	if got := p.eval(row + `.querySelector("[data-taint]").dataset.taint`); got != "clean" {
		t.Errorf("the agent session's taint reads %q, want clean", got)
	}
	sid := p.eval(row + `.dataset.session`)
	p.wait("the meters show the agent session", `document.querySelector('#meters [data-session=`+jsString(sid)+`]')`)

	if errs := p.pageErrors(); len(errs) > 0 {
		t.Errorf("the page threw: %q", errs)
	}
}
