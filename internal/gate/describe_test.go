package gate

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/addrbook"
	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// testBook names tokA (USDC, 6 decimals) and the router on the test
// tools' chain 1337.
func testBook(t *testing.T) *addrbook.Book {
	t.Helper()
	b, err := addrbook.Parse(fmt.Appendf(nil, `{"format":1,"chains":[{"chain_id":1337,"name":"test","native_symbol":"ETH",
		"tokens":[{"address":%q,"symbol":"USDC","decimals":6}],
		"contracts":[{"role":"uniswap_v3_swap_router","address":%q}]}]}`, tokA.Hex(), router.Hex()))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestHeldCallDescription: a held call carries, from the moment it is
// held and across a restart, what it would do in a person's units: the
// book's symbol and decimals, the USD value, the contract in full with its
// name, the rule and reason, and its arguments.
func TestHeldCallDescription(t *testing.T) {
	db := t.TempDir() + "/ward.db"
	f := newFixture(t, fixtureOpts{db: db, book: testBook(t)})
	reviewPolicy(t, f)
	qid := f.held(t, 2_500_000)

	g := newFixture(t, fixtureOpts{db: db}) // a restart without the book: the description is the stored one
	it, err := g.tools.Quarantined(t.Context(), qid)
	if err != nil {
		t.Fatal(err)
	}
	d := it.Description
	if d == nil {
		t.Fatal("the held call has no description")
	}
	if d.Value != "$2.50" || d.ValueCents != 250 || d.Rule != "test.review-big-swaps" || d.Reason != reviewCode || d.Taint != "clean" {
		t.Errorf("description = %+v", d)
	}
	if len(d.Tokens) != 1 {
		t.Fatalf("tokens = %+v, want the swapped one", d.Tokens)
	}
	tk := d.Tokens[0]
	if tk.Symbol != "USDC" || !tk.Listed || tk.Decimals != 6 || tk.Amount != "2500000" || tk.Display != "2.5" || tk.Direction != "out" ||
		tk.Token != common.Address(tokA).Hex() {
		t.Errorf("token = %+v, want 2.5 USDC out of %s", tk, common.Address(tokA).Hex())
	}
	var named bool
	for _, p := range d.Parties {
		if p.Address == common.Address(router).Hex() && p.Name == "uniswap_v3_swap_router" && p.Role == "contract" {
			named = true
		}
	}
	if !named {
		t.Errorf("parties = %+v, want the router in full with its role", d.Parties)
	}
	// Simulated for the owner when it was held: what approving would do.
	if len(d.BalanceChanges) == 0 || d.Simulation != "" {
		t.Errorf("balance changes %+v (simulation %q), want the held call's simulated changes", d.BalanceChanges, d.Simulation)
	} else if bc := d.BalanceChanges[0]; bc.Token != common.Address(tokA).Hex() || bc.Delta != "-2500000" || bc.Display != "-2.5 USDC" {
		t.Errorf("balance change %+v, want -2.5 USDC", bc)
	}
	var args map[string]any
	if err := json.Unmarshal(d.Args, &args); err != nil || args["amount"] != "2500000" {
		t.Errorf("args = %s, %v", d.Args, err)
	}
	// The agent reading its item does not get the owner's description.
	if mine, err := f.queryHeld(t, f.session, qid); err != nil || mine.Description != nil {
		t.Errorf("the agent's view of its item: %v, description %+v; want none", err, mine)
	}
}

// TestDescriptionRedactsAndFlags: a secret in the arguments never reaches
// the description, a symbol the book does not vouch for is flagged, and
// an unlimited allowance says so.
func TestDescriptionRedactsAndFlags(t *testing.T) {
	f := newFixture(t, fixtureOpts{book: testBook(t)})
	key := strings.Repeat("ab", 32)
	args, err := tool.ParseArgs([]byte(`{"note":"0x` + key + `","private_key":"hunter2hunter2"}`))
	if err != nil {
		t.Fatal(err)
	}
	evil := tool.Address{0xee}
	plan := &tool.Plan{Chain: 1337, ValueCents: -1,
		Tokens:   []tool.TokenUse{{Token: tokA, Symbol: "USDT", Decimals: 6, Amount: big.NewInt(1), Out: true}, {Token: evil, Symbol: "<b>USDC</b>", Decimals: 18, Amount: big.NewInt(5), Out: true}},
		Grants:   []tool.Grant{{Token: tokA, Spender: evil, Amount: maxUint256}},
		Unpriced: []tool.Unpriced{{Token: evil, Why: "no feed"}}}
	d := f.tools.describe(args, &policy.Decision{}, plan, policy.Trust{Taint: "tainted", Provenance: map[string]string{"to": "untrusted", "amount": "trusted"}})
	if strings.Contains(string(d.Args), key) || strings.Contains(string(d.Args), "hunter2") || d.Redacted != 2 {
		t.Errorf("args = %s (redacted %d): a secret is shown", d.Args, d.Redacted)
	}
	if d.Value != "unpriced" || len(d.Unpriced) != 1 || d.Unpriced[0] != common.Address(evil).Hex()+": no feed" {
		t.Errorf("value = %q, unpriced %v", d.Value, d.Unpriced)
	}
	if tk := d.Tokens[0]; tk.Symbol != "USDC" || !tk.SymbolMismatch || tk.ClaimedSymbol != "USDT" {
		t.Errorf("a listed token claimed as another symbol: %+v", tk)
	}
	if tk := d.Tokens[1]; tk.Listed || !tk.SymbolMismatch || tk.Symbol != "<b>USDC</b>" || tk.Display != "0.000000000000000005" {
		t.Errorf("an unlisted token: %+v", tk)
	}
	if g := d.Tokens[2]; g.Direction != "allowance" || g.Display != "unlimited" || g.Spender != common.Address(evil).Hex() {
		t.Errorf("allowance = %+v", g)
	}
	if d.Taint != "tainted" || d.Provenance["to"] != "untrusted" || d.Provenance["amount"] != "" {
		t.Errorf("taint %q, provenance %v", d.Taint, d.Provenance)
	}
}

func TestRetryKey(t *testing.T) {
	key := func(raw string) string {
		t.Helper()
		a, err := tool.ParseArgs([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		return retryKey("erc20_transfer_token", a)
	}
	base := key(`{"to":"0x52908400098527886E0F7030069857D2E4169EE7","amount":"250","token":"0xaa00000000000000000000000000000000000000"}`)
	for _, same := range []string{
		`{"amount":"250","to":"0x52908400098527886e0f7030069857d2e4169ee7","token":"0xAA00000000000000000000000000000000000000"}`,
		`{"amount":250,"to":"0x52908400098527886E0F7030069857D2E4169EE7","token":"0xaa00000000000000000000000000000000000000"}`,
		`{"amount":"250.000","to":"0X52908400098527886E0F7030069857D2E4169EE7","token":"0xaa00000000000000000000000000000000000000"}`,
		`{ "amount" : 2.5e2, "token":"0xaa00000000000000000000000000000000000000", "to":"0x52908400098527886e0f7030069857d2e4169ee7"}`,
	} {
		if got := key(same); got != base {
			t.Errorf("%s: another key than the same call's", same)
		}
	}
	for _, other := range []string{
		`{"to":"0x52908400098527886E0F7030069857D2E4169EE7","amount":"251","token":"0xaa00000000000000000000000000000000000000"}`,
		`{"to":"0x52908400098527886E0F7030069857D2E4169EE8","amount":"250","token":"0xaa00000000000000000000000000000000000000"}`,
		`{"to":"0x52908400098527886E0F7030069857D2E4169EE7","amount":"#250","token":"0xaa00000000000000000000000000000000000000"}`,
		`{"to":"0x52908400098527886E0F7030069857D2E4169EE7","amount":"1e9999","token":"0xaa00000000000000000000000000000000000000"}`,
	} {
		if key(other) == base {
			t.Errorf("%s: the key of another call", other)
		}
	}
}

// TestRejectedRetry: once the owner rejected a held call, the same
// principal's identical call is refused at once with REJECTED_BY_OWNER,
// naming the rejection, however its arguments are spelled and from
// whichever of its sessions, also after a restart; it opens no new item.
// Another principal's identical call, and a different call, are held as
// before.
func TestRejectedRetry(t *testing.T) {
	db := t.TempDir() + "/ward.db"
	f := newFixture(t, fixtureOpts{db: db})
	reviewPolicy(t, f)
	ctx := t.Context()
	qid := f.held(t, 2_000_000)
	if _, err := f.tools.Reject(ctx, qid, "owner:abc", "no"); err != nil {
		t.Fatal(err)
	}
	lower := strings.ToLower(tokA.Hex())
	retries := map[string]json.RawMessage{
		"identical":      swapArgs(tokA, 2_000_000),
		"reordered":      json.RawMessage(`{"amount":"2000000","token":"` + lower + `"}`),
		"leading zeros":  json.RawMessage(`{"token":"` + lower + `","amount":"0002000000"}`),
		"upper-case hex": json.RawMessage(`{"token":"0x` + strings.ToUpper(lower[2:]) + `","amount":"2000000"}`),
		"escaped":        json.RawMessage(` { "token" : "` + lower + `" , "am\u006funt":"\u0032000000"}`),
	}
	check := func(t *testing.T, g *fixture, s *Session) {
		for name, raw := range retries {
			t.Run(name, func(t *testing.T) {
				_, err := g.tools.Preview(ctx, s, "uniswap_execute_swap", raw)
				r := wantRefusal(t, err, reason.RetryRejected)
				if r.Quarantine != "" || !strings.Contains(r.Message, qid) {
					t.Errorf("refusal %q (item %q), want it final, citing the rejected item %s", r.Message, r.Quarantine, qid)
				}
			})
		}
	}
	check(t, f, f.session)
	t.Run("another session of the principal", func(t *testing.T) { check(t, f, f.open(t, "s2", TrustOptions{})) })
	t.Run("after a restart", func(t *testing.T) {
		g := newFixture(t, fixtureOpts{db: db})
		reviewPolicy(t, g)
		check(t, g, g.session)
	})
	pending, err := f.tools.QuarantineQueue(ctx, QuarantineFilter{})
	if err != nil || len(pending) != 0 {
		t.Fatalf("pending items after the retries = %d, %v; want none", len(pending), err)
	}
	// Another principal is not bound by this principal's rejection.
	view, err := f.tools.view()
	if err != nil {
		t.Fatal(err)
	}
	other, err := f.tools.CreateSession(ctx, Owner{PrincipalID: "p-other", Name: "other", Source: policy.Agent}, "o1", TrustOptions{}, view)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.tools.Preview(ctx, other, "uniswap_execute_swap", swapArgs(tokA, 2_000_000)); wantRefusal(t, err, reviewCode).Quarantine == "" {
		t.Error("another principal's call was not held")
	}
	// A different call of the principal is held.
	if id := f.held(t, 2_000_001); id == qid {
		t.Error("a different amount was refused as the rejected call")
	}
	// The window: a day after the rejection, the owner is asked again.
	f.advance(DefaultQuarantineTTL + time.Minute)
	if id := f.held(t, 2_000_000); id == qid {
		t.Error("the rejection still refuses after its window")
	}
}

// TestDescriptionOwnersNames: a counterparty the owner named in
// [trust.names] is shown by that name, whatever case the call spells it
// in, over the shipped book's role; an unnamed stranger has no name.
func TestDescriptionOwnersNames(t *testing.T) {
	f := newFixture(t, fixtureOpts{book: testBook(t)})
	treasury := tool.Address{0x77, 0x01}
	stranger := tool.Address{0x51}
	f.tools.cfg.AddressNames = map[string]string{"treasury": strings.ToLower(common.Address(treasury).Hex()), "router": common.Address(router).Hex()}
	plan := &tool.Plan{Chain: 1337, ValueCents: 100, Payees: []tool.Address{treasury, stranger},
		Txs: []tool.Tx{{To: router}}}
	none, err := tool.ParseArgs([]byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	d := f.tools.describe(none, &policy.Decision{}, plan, policy.Trust{})
	names := map[string]string{}
	for _, p := range d.Parties {
		names[p.Address] = p.Name
	}
	if got := names[common.Address(treasury).Hex()]; got != "treasury" {
		t.Errorf("the treasury is shown as %q, want the owner's name", got)
	}
	if got := names[common.Address(router).Hex()]; got != "router" {
		t.Errorf("the router is shown as %q, want the owner's name over the book's role", got)
	}
	if got, ok := names[common.Address(stranger).Hex()]; !ok || got != "" {
		t.Errorf("the stranger is shown as %q (listed %v), want no name", got, ok)
	}
}

// A simulation that reverts says so, quoting the contract's reason as
// untrusted text, instead of showing no changes without a word.
func TestDescriptionSimulationReverts(t *testing.T) {
	var ds Description
	ds.withSimulation(nil, &hook.SimResult{OK: false, Reverted: 1, RevertReason: "STF"})
	if ds.Simulation != `transaction 1 reverts in the simulation with reason "STF" (from contract code: untrusted)` || len(ds.BalanceChanges) != 0 {
		t.Errorf("simulation %q, changes %+v", ds.Simulation, ds.BalanceChanges)
	}
}
