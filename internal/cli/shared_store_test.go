package cli

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/chain/nodetest"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/store/postgres/pgtest"
)

// TestSharedStoreThreeInstances: three ward serve processes on one
// PostgreSQL database and one chain node behave as one ward. A permit
// committed a thousand times at once, through all three, executes once;
// fifty concurrent transfers that together exceed the daily cap, spread
// over the three, stay within it; a session tainted through one is
// tainted on the others, a review set through one binds the principal on
// all, a halt through one stops all and a token revoked through the
// command line is refused by all within a second.
func TestSharedStoreThreeInstances(t *testing.T) {
	node := nodetest.Start(t)
	url := pgtest.NewDatabase(t)
	dir := t.TempDir()
	keyFile, _ := deployWallet(t, node, dir)
	cfgPath := filepath.Join(dir, "ward.toml")
	cfgText := fmt.Sprintf(`
[store]
url = %q

[[chain]]
name = "local"
rpc_urls = [%q]
chain_id = %d
wallet_key_file = %q
address_book = "book.toml"

[gate]
announce_delay = "0s"

[hooks.spending]
per_tick_usd = 100000
per_session_usd = 100000
daily_usd = 100

[hooks.allowlist]
any_token = true
any_contract = true
any_selector = true
`, url, node.URL, nodetest.ChainID, keyFile)
	if err := os.WriteFile(cfgPath, []byte(cfgText), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := config.Parse(cfgPath, []byte(cfgText))
	if err != nil {
		t.Fatal(err)
	}
	bc, ok := f.Book.Chain(nodetest.ChainID)
	if !ok {
		t.Fatal("the deployed book is not in the configuration's address book")
	}
	usdc := common.Address(bc.TokensBySymbol("USDC")[0].Address)
	recipient := common.HexToAddress("0x00000000000000000000000000000000000b0b00")
	received := func() int64 {
		t.Helper()
		p, err := chain.Dial(t.Context(), node.URL, chain.ProviderConfig{})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		b, err := p.TokenBalance(t.Context(), usdc, recipient)
		if err != nil {
			t.Fatal(err)
		}
		return b.Int64()
	}
	transfer := func(units int64) string {
		return fmt.Sprintf(`{"action_type":"transfer","venue":"erc20","params":{"token":%q,"to":%q,"amount":"%d"}}`, usdc.Hex(), recipient.Hex(), units)
	}

	// Tokens go into the shared database, made by the command line with
	// the configuration: no instance is running yet.
	tok := func(role, name string) string {
		token, _ := createToken(t, role, name, "--config", cfgPath, "--data", filepath.Join(dir, "cli"))
		return token
	}
	owner, agent, victim, doomed := tok("owner", "owner"), tok("agent", "agent"), tok("agent", "victim"), tok("agent", "doomed")

	// Three instances, each with a data directory of its own but the
	// vault key of the first: what one seals, the others open.
	var wards []*served
	var datas []string
	var children []*child
	for i := range 3 {
		data := filepath.Join(dir, fmt.Sprintf("ward-%d", i))
		if i > 0 {
			if err := os.MkdirAll(data, 0o700); err != nil {
				t.Fatal(err)
			}
			key, err := os.ReadFile(filepath.Join(datas[0], "vault.key"))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(data, "vault.key"), key, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		c := startChild(t, data, cfgPath)
		datas = append(datas, data)
		children = append(children, c)
		wards = append(wards, &served{t: t, base: c.base, client: &http.Client{Timeout: time.Minute}})
	}

	// 1. One permit, a thousand concurrent commits through the three.
	before := received()
	r := wards[0].call(agent, "k", "preview_action", transfer(1_000_000))
	permit := r.get("permit_id")
	if r.status != http.StatusOK || permit == "" {
		t.Fatalf("preview: %d %s", r.status, r.body)
	}
	// Ward 2 is killed half way through: its callers see the connection
	// fail; nothing it acknowledged is lost, nothing runs twice.
	var committed, consumed, unreachable atomic.Int64
	var wg sync.WaitGroup
	commits := make(chan int)
	body := fmt.Sprintf(`{"permit_id":%q}`, permit)
	for range 24 {
		wg.Go(func() {
			for i := range commits {
				status, _, err := post(wards[i%3], agent, "k", "/v1/call/commit_action", body)
				switch {
				case err != nil && i%3 == 2:
					unreachable.Add(1)
				case err != nil:
					t.Errorf("commit %d through ward %d: %v", i, i%3, err)
				case status == http.StatusOK:
					committed.Add(1)
				case status == http.StatusConflict:
					consumed.Add(1)
				default:
					t.Errorf("commit %d through ward %d: %d", i, i%3, status)
				}
			}
		})
	}
	for i := range 1000 {
		if i == 500 {
			children[2].cmd.Process.Signal(syscall.SIGKILL)
		}
		commits <- i
	}
	close(commits)
	wg.Wait()
	t.Logf("1,000 commits of one permit: %d executed, %d refused, %d unreachable (ward 2 killed)", committed.Load(), consumed.Load(), unreachable.Load())
	if committed.Load() != 1 || committed.Load()+consumed.Load()+unreachable.Load() != 1000 {
		t.Errorf("1,000 commits of one permit over three instances: %d executed, want exactly 1", committed.Load())
	}
	if got := received() - before; got != 1_000_000 {
		t.Errorf("the recipient received %d units, want one transfer of 1,000,000", got)
	}
	<-children[2].done
	c := startChild(t, datas[2], cfgPath)
	children[2], wards[2].base = c, c.base
	if status, _, err := post(wards[2], agent, "k", "/v1/call/commit_action", body); err != nil || status != http.StatusConflict {
		t.Errorf("the restarted ward 2 committing the consumed permit: %d %v, want 409", status, err)
	}

	// 2. Fifty concurrent $5 transfers over the three against a $100 day
	// ($1 spent above): at most 19 are admitted, and what executes stays
	// within the cap.
	type admitted struct {
		permit  string
		session string
	}
	var permits []admitted
	var mu sync.Mutex
	var refused atomic.Int64
	previews := make(chan int)
	for range 10 {
		wg.Go(func() {
			for i := range previews {
				sess := fmt.Sprintf("cap-%d", i%3)
				r := wards[i%3].call(agent, sess, "preview_action", transfer(5_000_000))
				switch {
				case r.status == http.StatusOK && r.get("permit_id") != "":
					mu.Lock()
					permits = append(permits, admitted{r.get("permit_id"), sess})
					mu.Unlock()
				case r.status == http.StatusForbidden || r.status == http.StatusTooManyRequests:
					refused.Add(1)
				default:
					t.Errorf("preview %d: %d %s", i, r.status, r.body)
				}
			}
		})
	}
	for i := range 50 {
		previews <- i
	}
	close(previews)
	wg.Wait()
	t.Logf("50 concurrent $5 previews over three instances: %d admitted, %d refused", len(permits), refused.Load())
	if len(permits) > 19 || len(permits) == 0 {
		t.Errorf("%d of 50 $5 transfers were admitted under a $100 day with $1 spent: want 1 to 19", len(permits))
	}
	before = received()
	var took []time.Duration
	for i, p := range permits {
		// Committed in the session that previewed it, through another
		// instance than the one that admitted it.
		t0 := time.Now()
		if r := wards[(i+1)%3].call(agent, p.session, "commit_action", fmt.Sprintf(`{"permit_id":%q}`, p.permit)); r.status != http.StatusOK {
			t.Errorf("permit %s admitted under the cap was not committed: %s", p.permit, errorOf(r))
		}
		took = append(took, time.Since(t0))
	}
	if len(took) > 0 {
		slices.Sort(took)
		t.Logf("commit through another instance than the preview's (a transfer mined by geth --dev): p50 %v, max %v over %d", took[len(took)/2], took[len(took)-1], len(took))
	}
	if got := received() - before; got != int64(len(permits))*5_000_000 || got > 99_000_000 {
		t.Errorf("the admitted transfers sent %d units after 1,000,000, want %d of them, within the $100 cap", got, len(permits))
	}

	// 3. Taint through one instance, seen by another. The victim's session
	// is cached clean on ward 1 first.
	wards[1].want(wards[1].do("GET", "/v1/gate", victim, "t", ""), http.StatusOK, "")
	wards[0].want(wards[0].call(victim, "t", "search_context", fmt.Sprintf(`{"kind":"token","params":{"token":%q}}`, usdc.Hex())), http.StatusOK, "")
	stranger := "0x" + strings.Repeat("5a", 20)
	strangerTransfer := fmt.Sprintf(`{"action_type":"transfer","venue":"erc20","params":{"token":%q,"to":%q,"amount":"1000000"}}`, usdc.Hex(), stranger)
	if r := wards[1].call(victim, "t", "preview_action", strangerTransfer); r.get("quarantine_id") == "" {
		t.Errorf("a session tainted through ward 0, writing to a stranger through ward 1: %d %s, want held", r.status, r.body)
	}

	// 4. A review set through ward 2 binds the principal on ward 0, in a
	// session ward 0 had cached clean.
	wards[0].want(wards[0].do("GET", "/v1/gate", victim, "other", ""), http.StatusOK, "")
	sid := wards[2].do("GET", "/v1/gate", victim, "t", "").get("session_id")
	wards[2].want(wards[2].do("POST", "/v1/sessions/"+sid+"/level", owner, "", `{"level":"review"}`), http.StatusOK, "")
	waitFor(t, "ward 0 to hold the reviewed principal's writes", func() bool {
		r := wards[0].call(victim, "other", "preview_action", transfer(1_000_000))
		return r.status != http.StatusOK || r.get("quarantine_id") != ""
	})

	// 5. A halt through ward 1 stops writes on all; a resume through ward 2
	// lets them go again.
	wards[1].want(wards[1].do("POST", "/v1/gate/halt", owner, "", `{"reason":"incident"}`), http.StatusOK, "")
	for i, w := range wards {
		if r := w.call(agent, "h", "preview_action", transfer(1_000)); r.status == http.StatusOK {
			t.Errorf("ward %d previewed a write during a halt set through ward 1: %s", i, r.body)
		}
	}
	wards[2].want(wards[2].do("POST", "/v1/gate/resume", owner, "", ""), http.StatusOK, "")
	if r := wards[0].call(agent, "h", "preview_action", transfer(1_000)); r.status != http.StatusOK {
		t.Errorf("ward 0 after a resume through ward 2: %d %s", r.status, r.body)
	}

	// 5b. The owner's spending override set through ward 1 is in force on
	// all three at their next check; cleared through ward 2, ward.toml's
	// limits are back.
	wards[1].want(wards[1].do("POST", "/v1/gate/spending", owner, "", `{"per_tick_usd":"0","per_session_usd":"0","daily_usd":"0"}`), http.StatusOK, "")
	for i, w := range wards {
		if r := w.call(agent, "s", "preview_action", transfer(1_000)); r.status == http.StatusOK || !strings.Contains(string(r.body), "LIMIT_EXCEEDED") {
			t.Errorf("ward %d previewed a write over the owner's $0 limits set through ward 1: %d %s", i, r.status, r.body)
		}
	}
	wards[2].want(wards[2].do("POST", "/v1/gate/spending", owner, "", `{"clear":true}`), http.StatusOK, "")
	if r := wards[0].call(agent, "s", "preview_action", transfer(1_000)); r.status != http.StatusOK {
		t.Errorf("ward 0 after the override is cleared through ward 2: %d %s", r.status, r.body)
	}

	// 6. A token revoked through the command line is refused by all three
	// within a second.
	for _, w := range wards {
		w.want(w.do("GET", "/v1/gate", doomed, "", ""), http.StatusOK, "")
	}
	if _, errOut, code := run(t, "", "token", "revoke", "--config", cfgPath, "--data", filepath.Join(dir, "cli"), "doomed"); code != 0 {
		t.Fatalf("token revoke: %s", errOut)
	}
	revoked := time.Now()
	for i, w := range wards {
		waitFor(t, fmt.Sprintf("ward %d to refuse the revoked token", i), func() bool {
			return w.do("GET", "/v1/gate", doomed, "", "").status == http.StatusUnauthorized
		})
	}
	if d := time.Since(revoked); d > time.Second {
		t.Errorf("the revoked token was refused by all three after %v, want within a second", d)
	}

}

// post sends one request and reports a transport failure as an error
// rather than failing the test (the instance may have been killed).
func post(s *served, token, session, path, body string) (int, []byte, error) {
	req, err := http.NewRequest("POST", s.base+path, strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("X-Ward-Session", session)
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}
