//go:build crashtest

package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/wardhq/ward/internal/chain/nodetest"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/crashpoint"
)

// crashWorkers run side by side, each a wallet, a data directory and a
// ward process of its own against the one geth node; crashKills is how
// many times each is killed.
const (
	crashWorkers = 3
	crashKills   = 68
)

// TestCrashCommit kills ward with SIGKILL at every stage of a commit
// (crashpoint.Stages(): before the permit is consumed, after, after the
// transaction is journaled, after it is broadcast, after its receipt,
// after the outcome record), crashWorkers × crashKills times, restarting
// it on the same data directory each time against a geth --dev node that
// outlives every ward process; after each kill that left a permit consumed
// with nothing sent, the next start is killed too, in its reconciliation
// after the outcome record. Then: every transaction on chain from a
// worker's wallet has exactly one outcome (tool_call) record, naming it;
// every consumed permit has exactly one outcome record; no permit put two
// transactions on chain. Run with -tags crashtest (the kill points exist
// only in that build): go test -tags crashtest ./internal/cli -run TestCrashCommit
func TestCrashCommit(t *testing.T) {
	start := time.Now()
	node := nodetest.Start(t)
	ws := make([]*crashWorker, crashWorkers)
	for i := range ws {
		ws[i] = newCrashWorker(t, node, i)
	}
	t.Run("kill", func(t *testing.T) {
		for _, w := range ws {
			t.Run(fmt.Sprint("worker", w.n), func(t *testing.T) {
				t.Parallel()
				w.run(t)
			})
		}
	})
	kills := 0
	for _, w := range ws {
		kills += w.kills
		w.check(t, node.URL)
	}
	t.Logf("%d kill points over %d workers in %v", kills, len(ws), time.Since(start).Round(time.Millisecond))
	if kills < 200 {
		t.Errorf("%d kill points, want at least 200", kills)
	}
}

type crashWorker struct {
	n                int
	dir, data, cfg   string
	me               common.Address
	owner, agent     string
	usdc, recipient  common.Address
	startNonce       uint64
	kills, completed int
	stages           map[string]int
	permits          []string // every permit previewed
}

func newCrashWorker(t *testing.T, node *nodetest.Node, n int) *crashWorker {
	w := &crashWorker{n: n, dir: t.TempDir(), stages: map[string]int{}}
	keyFile, me := deployWallet(t, node, w.dir)
	w.me = me
	w.cfg = filepath.Join(w.dir, "ward.toml")
	text := fmt.Sprintf(`
[store]
synchronous = "normal"

[[chain]]
name = "local"
rpc_urls = [%q]
chain_id = %d
wallet_key_file = %q
address_book = "book.toml"

[gate]
announce_delay = "0s"

[hooks.spending]
daily_usd = 1e9
per_tick_usd = 1e9
per_session_usd = 1e9

[hooks.rate]
max_writes = 100000
window = "1m"

[hooks.allowlist]
any_token = true
any_contract = true
any_selector = true
`, node.URL, nodetest.ChainID, keyFile)
	if err := os.WriteFile(w.cfg, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := config.Parse(w.cfg, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	bc, ok := f.Book.Chain(nodetest.ChainID)
	if !ok || len(bc.TokensBySymbol("USDC")) != 1 {
		t.Fatal("the deployed book has no USDC on the dev chain")
	}
	w.usdc = common.Address(bc.TokensBySymbol("USDC")[0].Address)
	w.recipient = common.BigToAddress(big.NewInt(0xa11ce0 + int64(n)))
	w.data = filepath.Join(w.dir, "data")
	w.owner, _ = createToken(t, "owner", "owner", "--data", w.data)
	w.agent, _ = createToken(t, "agent", "agent", "--data", w.data)
	ec, err := ethclient.DialContext(t.Context(), node.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer ec.Close()
	if w.startNonce, err = ec.NonceAt(t.Context(), me, nil); err != nil {
		t.Fatal(err)
	}
	return w
}

// run kills the worker's ward crashKills times, each at the first (or
// second) time a commit reaches a stage, in turn.
func (w *crashWorker) run(t *testing.T) {
	reconcileNext := false
	stages := crashpoint.Stages()
	for i := range crashKills {
		stage := stages[(i+w.n)%len(stages)]
		nth := 1 + (i/len(stages))%2
		if reconcileNext {
			// The last kill left a consumed permit without an outcome:
			// this start dies in its reconciliation, after the record and
			// before the spend, and the next one must not record it again.
			if c := tryCrashChild(t, w.data, w.cfg, crashpoint.Reconciled+":1"); c != nil {
				c.cmd.Process.Signal(syscall.SIGKILL)
				<-c.done
			} else {
				w.stages[crashpoint.Reconciled]++
				w.kills++
			}
		}
		reconcileNext = stage == crashpoint.AfterIntent
		c := startCrashChild(t, w.data, w.cfg, fmt.Sprintf("%s:%d", stage, nth))
		s := &served{t: t, base: c.base, client: &http.Client{Timeout: 30 * time.Second}}
		for k := 0; k < nth; k++ {
			session := fmt.Sprintf("w%d-%d-%d", w.n, i, k)
			args := fmt.Sprintf(`{"action_type":"transfer","venue":"erc20","params":{"token":%q,"to":%q,"amount":"%d"}}`,
				w.usdc.Hex(), w.recipient.Hex(), 10_000+i*10+k)
			r := s.call(w.agent, session, "preview_action", args)
			if r.status != http.StatusOK || r.get("permit_id") == "" {
				t.Fatalf("kill %d (%s:%d): preview: %d %s", i, stage, nth, r.status, r.body)
			}
			w.permits = append(w.permits, r.get("permit_id"))
			if !w.commit(c, session, r.get("permit_id")) {
				break // the process died under the commit
			}
			w.completed++
		}
		select {
		case <-c.done:
			w.stages[stage]++
		case <-time.After(3 * time.Second):
			// A commit refused before it reached the stage (a transaction
			// still in flight): the kill is the test's.
			t.Logf("kill %d (%s:%d): not reached; killed from outside", i, stage, nth)
			c.cmd.Process.Signal(syscall.SIGKILL)
			<-c.done
			w.stages["outside"]++
		}
		w.kills++
	}
	// A last start reconciles what the last kill left.
	c := startCrashChild(t, w.data, w.cfg, "")
	c.stop(syscall.SIGTERM)
}

// commit commits permit and reports whether ward answered.
func (w *crashWorker) commit(c *child, session, permit string) bool {
	req, err := http.NewRequest("POST", c.base+"/v1/call/commit_action", strings.NewReader(fmt.Sprintf(`{"permit_id":%q}`, permit)))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+w.agent)
	req.Header.Set("X-Ward-Session", session)
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		return false
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return true
}

// check starts the worker's ward once more (without a kill point) and
// holds its action log against the chain.
func (w *crashWorker) check(t *testing.T, url string) {
	t.Helper()
	c := startCrashChild(t, w.data, w.cfg, "")
	defer c.stop(syscall.SIGTERM)
	s := &served{t: t, base: c.base, client: &http.Client{Timeout: time.Minute}}
	type action struct {
		Kind        string `json:"kind"`
		PermitID    string `json:"permit_id"`
		TxHash      string `json:"tx_hash"`
		Status      string `json:"status"`
		BlockReason string `json:"block_reason"`
	}
	actions := func(kind string) []action {
		r := s.do("GET", "/v1/actions?limit=10000&kind="+kind, w.owner, "", "")
		var v struct{ Actions []action }
		if err := json.Unmarshal(r.body, &v); r.status != http.StatusOK || err != nil {
			t.Fatalf("GET /v1/actions: %d %s", r.status, r.body)
		}
		return v.Actions
	}
	outcomes := map[string][]action{} // by permit
	byTx := map[string][]string{}     // tx hash → permits whose outcome names it
	statuses := map[string]int{}
	for _, a := range actions("tool_call") {
		outcomes[a.PermitID] = append(outcomes[a.PermitID], a)
		if a.TxHash != "" {
			byTx[strings.ToLower(a.TxHash)] = append(byTx[strings.ToLower(a.TxHash)], a.PermitID)
		}
		statuses[a.Status+" "+a.BlockReason]++
	}
	for p, as := range outcomes {
		if len(as) != 1 {
			t.Errorf("worker %d: permit %s has %d outcome records, want 1: %+v", w.n, p, len(as), as)
		}
	}
	// Every permit the worker committed: consumed ones have exactly one
	// outcome record (checked above for more than one), the others none.
	consumed := 0
	for _, pid := range w.permits {
		r := s.do("GET", "/v1/permits/"+pid, w.owner, "", "")
		status := r.get("status")
		if r.status != http.StatusOK {
			t.Fatalf("GET /v1/permits/%s: %d %s", pid, r.status, r.body)
		}
		switch {
		case status == "consumed":
			consumed++
			if len(outcomes[pid]) == 0 {
				t.Errorf("worker %d: permit %s was consumed and has no outcome record", w.n, pid)
			}
		case len(outcomes[pid]) != 0:
			t.Errorf("worker %d: permit %s is %s and has an outcome record", w.n, pid, status)
		}
	}

	ec, err := ethclient.DialContext(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer ec.Close()
	nonce, err := ec.NonceAt(t.Context(), w.me, nil)
	if err != nil {
		t.Fatal(err)
	}
	onChain, err := walletTxs(t, ec, w.me, w.startNonce)
	if err != nil {
		t.Fatal(err)
	}
	if uint64(len(onChain)) != nonce-w.startNonce {
		t.Fatalf("worker %d: found %d transactions on chain, the nonce moved %d", w.n, len(onChain), nonce-w.startNonce)
	}
	perPermit := map[string]int{}
	for _, h := range onChain {
		ps := byTx[strings.ToLower(h.Hex())]
		if len(ps) != 1 {
			t.Errorf("worker %d: transaction %s on chain has %d outcome records (%v), want 1", w.n, h.Hex(), len(ps), ps)
			continue
		}
		if perPermit[ps[0]]++; perPermit[ps[0]] > 1 {
			t.Errorf("worker %d: permit %s put %d transactions on chain (its plan has one)", w.n, ps[0], perPermit[ps[0]])
		}
	}
	t.Logf("worker %d: %d kills %v, %d commits answered, %d permits consumed, %d outcome records %v, %d transactions on chain",
		w.n, w.kills, w.stages, w.completed, consumed, len(outcomes), statuses, len(onChain))
}

// walletTxs returns the hashes of the transactions from sent at nonce
// since or later, scanning every block of the dev chain.
func walletTxs(t *testing.T, ec *ethclient.Client, from common.Address, since uint64) ([]common.Hash, error) {
	head, err := ec.BlockNumber(t.Context())
	if err != nil {
		return nil, err
	}
	chainID, err := ec.ChainID(t.Context())
	if err != nil {
		return nil, err
	}
	signer := types.LatestSignerForChainID(chainID)
	var out []common.Hash
	for n := uint64(0); n <= head; n++ {
		b, err := ec.BlockByNumber(t.Context(), new(big.Int).SetUint64(n))
		if err != nil {
			return nil, err
		}
		for _, tx := range b.Transactions() {
			if s, err := types.Sender(signer, tx); err == nil && s == from && tx.Nonce() >= since {
				out = append(out, tx.Hash())
			}
		}
	}
	return out, nil
}

// startCrashChild starts ward serve on data with WARD_CRASH_AT=at.
func startCrashChild(t *testing.T, data, cfg, at string) *child {
	t.Helper()
	c := tryCrashChild(t, data, cfg, at)
	if c == nil {
		t.Fatalf("the ward serve child was killed at %s before it served", at)
	}
	return c
}

// tryCrashChild is startCrashChild, returning nil when the child was
// killed at its kill point before it served.
func tryCrashChild(t *testing.T, data, cfg, at string) *child {
	t.Helper()
	c, state, stderr := spawnServe(t, "", []string{"WARD_CRASH_AT=" + at}, "--data", data, "--config", cfg)
	if c != nil {
		return c
	}
	if ws, ok := state.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL && at != "" {
		return nil
	}
	t.Fatalf("the ward serve child did not start: %s", stderr)
	return nil
}
