package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/wardhq/ward/internal/addrbook"
	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/chain/artifacts"
	"github.com/wardhq/ward/internal/chain/nodetest"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/daemon"
)

// TestServeOnGeth: ward serve trades on a chain it does not embed. A
// separate geth --dev process gets the published protocols with `ward
// chain deploy`; ward serve is configured only with the node's endpoints
// (the first one dead), the wallet key and the address book the deploy
// wrote. An agent previews and commits a Uniswap V3 swap (no router
// argument: the venue comes from the book; priced from the book's feeds)
// and an Aave supply over ward's API (and more: a routed swap, a V3
// position, stakes, a V4 swap through the Universal Router), and each is
// checked on chain by its receipt and balances.
func TestServeOnGeth(t *testing.T) {
	node := nodetest.Start(t)
	dir := t.TempDir()
	keyFile, me := deployWallet(t, node, dir)

	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()
	cfgPath := filepath.Join(dir, "ward.toml")
	f, err := config.Parse(cfgPath, []byte(fmt.Sprintf(`
[store]
synchronous = "normal"

[[chain]]
name = "local"
rpc_urls = [%q, %q]
chain_id = %d
wallet_key_file = %q
address_book = "book.toml"
explorer_tx_url = "http://127.0.0.1:4000/tx/{hash}"

[gate]
announce_delay = "0s"

[hooks.allowlist]
any_token = true
any_contract = true
any_selector = true
`, deadURL, node.URL, nodetest.ChainID, keyFile)))
	if err != nil {
		t.Fatal(err)
	}
	bc, ok := f.Book.Chain(nodetest.ChainID)
	if !ok {
		t.Fatal("the deployed book is not in the configuration's address book")
	}
	sym := func(s string) common.Address {
		ts := bc.TokensBySymbol(s)
		if len(ts) != 1 {
			t.Fatalf("book has %d %s", len(ts), s)
		}
		return common.Address(ts[0].Address)
	}
	usdc, weth := sym("USDC"), sym("WETH")

	st, err := daemon.Start(context.Background(), daemon.ServeConfig{Addr: "127.0.0.1:0", Data: t.TempDir(), File: f, Mount: daemon.MountSurfaces, Version: Version})
	if err != nil {
		t.Fatalf("ward serve against geth: %v", err)
	}
	t.Cleanup(func() {
		if err := st.Stop(); err != nil {
			t.Errorf("ward serve: %v", err)
		}
	})
	s := &served{t: t, base: st.URL, srv: st.Server, client: &http.Client{Timeout: time.Minute}}
	agent, _ := s.token(auth.Agent, "agent", 0)
	ec, err := ethclient.DialContext(t.Context(), node.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer ec.Close()
	balance := func(tok common.Address) *big.Int {
		t.Helper()
		p, err := chain.Dial(t.Context(), node.URL, chain.ProviderConfig{})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		b, err := p.TokenBalance(t.Context(), tok, me)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// commit previews args, commits the permit and checks the receipts.
	commit := func(t *testing.T, args string) (valueCents int64) {
		t.Helper()
		start := time.Now()
		r := s.call(agent, "a", "preview_action", args)
		if r.status != http.StatusOK {
			t.Fatalf("preview: %d %s", r.status, r.body)
		}
		var pv struct {
			PermitID   string `json:"permit_id"`
			ValueCents int64  `json:"value_cents"`
		}
		json.Unmarshal(r.body, &pv)
		previewTook := time.Since(start)
		start = time.Now()
		r = s.call(agent, "a", "commit_action", fmt.Sprintf(`{"permit_id":%q}`, pv.PermitID))
		if r.status != http.StatusOK {
			t.Fatalf("commit: %d %s", r.status, r.body)
		}
		t.Logf("preview %v, commit %v", previewTook.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
		var cm struct {
			Data struct {
				TxHashes []string `json:"tx_hashes"`
			} `json:"data"`
		}
		json.Unmarshal(r.body, &cm)
		if len(cm.Data.TxHashes) == 0 {
			t.Fatalf("commit sent nothing: %s", r.body)
		}
		for _, h := range cm.Data.TxHashes {
			rc, err := ec.TransactionReceipt(t.Context(), common.HexToHash(h))
			if err != nil || rc.Status != 1 {
				t.Fatalf("receipt of %s: %+v %v", h, rc, err)
			}
		}
		return pv.ValueCents
	}

	t.Run("a V3 swap with the book's router, priced by its feeds", func(t *testing.T) {
		before := balance(weth)
		cents := commit(t, fmt.Sprintf(`{"action_type":"swap","venue":"uniswap_v3","params":{"token_in":%q,"token_out":%q,"amount_in":"100000000"}}`, usdc.Hex(), weth.Hex()))
		if cents < 9_000 || cents > 11_000 {
			t.Errorf("100 USDC valued at %d cents, want about $100", cents)
		}
		if got := new(big.Int).Sub(balance(weth), before); got.Sign() <= 0 {
			t.Errorf("WETH balance rose by %s, want more", got)
		}
	})
	t.Run("the action log keeps the transaction, its chain and its explorer link", func(t *testing.T) {
		owner, _ := s.token(auth.Owner, "owner", 0)
		r := s.do("GET", "/v1/actions?kind=tool_call", owner, "", "")
		var out struct {
			Actions []struct {
				TxHash  string `json:"tx_hash"`
				ChainID uint64 `json:"chain_id"`
				TxURL   string `json:"tx_url"`
			} `json:"actions"`
		}
		json.Unmarshal(r.body, &out)
		if len(out.Actions) != 1 {
			t.Fatalf("actions: %d %s", r.status, r.body)
		}
		a := out.Actions[0]
		if len(a.TxHash) != 66 || a.ChainID != nodetest.ChainID || a.TxURL != "http://127.0.0.1:4000/tx/"+a.TxHash {
			t.Errorf("the swap's record = %+v", a)
		}
	})
	t.Run("an Aave supply at the book's pool", func(t *testing.T) {
		before := balance(usdc)
		commit(t, fmt.Sprintf(`{"action_type":"supply","venue":"aave","params":{"asset":%q,"amount":"250000000"}}`, usdc.Hex()))
		if got := new(big.Int).Sub(before, balance(usdc)); got.Cmp(big.NewInt(250_000_000)) != 0 {
			t.Errorf("USDC balance fell by %s, want 250 USDC", got)
		}
	})
	t.Run("a routed two-hop swap for an exact output", func(t *testing.T) {
		// The book pools DAI only against USDC: WETH to DAI must route
		// through USDC, found and quoted by QuoterV2 on the node.
		dai := sym("DAI")
		args := fmt.Sprintf(`{"action_type":"swap","venue":"uniswap","params":{"token_in":%q,"token_out":%q,"amount_out":"100000000000000000000"}}`, weth.Hex(), dai.Hex())
		// The preview's latency over the node: routing quotes every V2
		// pair and V3 pool of the direct and two-hop routes.
		var took []time.Duration
		for range 5 {
			start := time.Now()
			r := s.call(agent, "a", "preview_action", args)
			took = append(took, time.Since(start))
			if r.status != http.StatusOK || !strings.Contains(string(r.body), "USDC") {
				t.Fatalf("routed preview: %d %s", r.status, r.body)
			}
			// Each permit holds its value against the spending limits
			// until it is committed or cancelled.
			var pv struct {
				PermitID string `json:"permit_id"`
			}
			json.Unmarshal(r.body, &pv)
			if r := s.call(agent, "a", "cancel_action", fmt.Sprintf(`{"permit_id":%q}`, pv.PermitID)); r.status != http.StatusOK {
				t.Fatalf("cancel_action: %d %s", r.status, r.body)
			}
		}
		slices.Sort(took)
		t.Logf("routed two-hop preview p50 %v (min %v, max %v)", took[len(took)/2].Round(time.Millisecond), took[0].Round(time.Millisecond), took[len(took)-1].Round(time.Millisecond))
		before, wethBefore := balance(dai), balance(weth)
		commit(t, args)
		if got := new(big.Int).Sub(balance(dai), before); got.String() != "100000000000000000000" {
			t.Errorf("DAI balance rose by %s, want exactly 100 DAI", got)
		}
		if spent := new(big.Int).Sub(wethBefore, balance(weth)); spent.Sign() <= 0 {
			t.Errorf("WETH balance fell by %s", spent)
		}
	})
	t.Run("a V3 position minted through the NonfungiblePositionManager", func(t *testing.T) {
		npm, ok := bc.Contract(addrbook.UniswapV3PositionManager)
		if !ok {
			t.Fatal("the deployed book has no position manager")
		}
		positions := func() *big.Int {
			t.Helper()
			data, err := chain.UniswapV3PositionManagerABI().Pack("balanceOf", me)
			if err != nil {
				t.Fatal(err)
			}
			to := common.Address(npm)
			out, err := ec.CallContract(t.Context(), ethereum.CallMsg{To: &to, Data: data}, nil)
			if err != nil || len(out) != 32 {
				t.Fatalf("balanceOf: %x %v", out, err)
			}
			return new(big.Int).SetBytes(out)
		}
		before, wethBefore, usdcBefore := positions(), balance(weth), balance(usdc)
		commit(t, fmt.Sprintf(`{"action_type":"add_liquidity","venue":"uniswap_v3_nft","params":{"token_a":%q,"token_b":%q,"fee":3000,"price_lower":"1500","price_upper":"6000","amount_a_desired":"10000000000000000","amount_b_desired":"30000000"}}`, weth.Hex(), usdc.Hex()))
		if got := new(big.Int).Sub(positions(), before); got.Int64() != 1 {
			t.Errorf("the wallet's positions rose by %s, want 1", got)
		}
		if balance(weth).Cmp(wethBefore) >= 0 || balance(usdc).Cmp(usdcBefore) >= 0 {
			t.Error("the mint deposited nothing")
		}
	})
	t.Run("the dead endpoint was failed over and rested", func(t *testing.T) {
		eps := st.Stack.Provider.Endpoints()
		if len(eps) != 2 || eps[0].State == "ok" || eps[1].State != "ok" {
			t.Errorf("endpoints = %+v", eps)
		}
	})
	t.Run("an unpriced token sent to an unknown address waits for the owner", func(t *testing.T) {
		// A token the book does not list that calls itself USDC, sent to an
		// address the agent supplied without trusted provenance: the
		// default value rule holds it for the owner because it cannot be
		// priced (before the spending hook, which would refuse it
		// VALUE_UNPRICED, and the hallucination hook, which would refuse it
		// as a look-alike; internal/hook and internal/catalog test those).
		fake := deployLookalike(t, node, me)
		r := s.call(agent, "a", "preview_action", fmt.Sprintf(`{"action_type":"transfer","venue":"erc20","params":{"token":%q,"to":%q,"amount":"1"}}`, fake.Hex(), common.Address{9}.Hex()))
		if r.code() != "UNTRUSTED_RECIPIENT" || !strings.Contains(string(r.body), "cannot be priced") || !strings.Contains(string(r.body), "quarantine_id") {
			t.Errorf("transfer of an unlisted token: %d %s", r.status, r.body)
		}
	})
	t.Run("a Lido stake and a Rocket Pool deposit at the book's deployments", func(t *testing.T) {
		queue, _ := bc.Contract(addrbook.LidoWithdrawalQueue)
		storage, _ := bc.Contract(addrbook.RocketPoolStorage)
		views, err := chain.ParseABI(`[{"type":"function","name":"STETH","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"getAddress","stateMutability":"view","inputs":[{"name":"k","type":"bytes32"}],"outputs":[{"name":"","type":"address"}]}]`)
		if err != nil {
			t.Fatal(err)
		}
		lookup := func(to common.Address, method string, args ...any) common.Address {
			t.Helper()
			data, _ := views.Pack(method, args...)
			out, err := ec.CallContract(t.Context(), ethereum.CallMsg{To: &to, Data: data}, nil)
			if err != nil || len(out) != 32 {
				t.Fatalf("%s at %s: %x %v", method, to, out, err)
			}
			return common.BytesToAddress(out)
		}
		stETH := lookup(common.Address(queue), "STETH")
		rETH := lookup(common.Address(storage), "getAddress", chain.RocketContractKey("rocketTokenRETH"))
		st0, r0 := balance(stETH), balance(rETH)
		if cents := commit(t, `{"action_type":"stake","venue":"lido","params":{"amount":"30000000000000000"}}`); cents < 7_500 || cents > 10_500 {
			t.Errorf("0.03 ETH staked valued at %d cents, want about $90", cents)
		}
		commit(t, `{"action_type":"stake","venue":"rocketpool","params":{"amount":"30000000000000000"}}`)
		if st, r := new(big.Int).Sub(balance(stETH), st0), new(big.Int).Sub(balance(rETH), r0); st.Cmp(big.NewInt(29_999_999_999_999_990)) < 0 || r.Sign() <= 0 {
			t.Errorf("the stake gave %s stETH wei and the deposit %s rETH wei", st, r)
		}
	})
	t.Run("a V4 swap through the book's Universal Router and Permit2", func(t *testing.T) {
		u0, w0 := balance(usdc), balance(weth)
		commit(t, fmt.Sprintf(`{"action_type":"swap","venue":"uniswap_v4","params":{"token_in":%q,"token_out":%q,"amount_in":"100000000","fee":%d,"tick_spacing":%d}}`,
			usdc.Hex(), weth.Hex(), chain.DevV4Fee, chain.DevV4TickSpacing))
		if got := new(big.Int).Sub(u0, balance(usdc)); got.Cmp(big.NewInt(100_000_000)) != 0 {
			t.Errorf("USDC balance fell by %s, want 100 USDC", got)
		}
		if got := new(big.Int).Sub(balance(weth), w0); got.Cmp(big.NewInt(3e16)) < 0 || got.Cmp(big.NewInt(34e15)) > 0 {
			t.Errorf("WETH balance rose by %s wei, want about 0.033 WETH", got)
		}
	})
}

// deployLookalike deploys, from the node's developer account, a token the
// address book does not list whose symbol is USDC, and mints some to to.
func deployLookalike(t *testing.T, node *nodetest.Node, to common.Address) common.Address {
	t.Helper()
	art, err := artifacts.Load("ERC20Permit")
	if err != nil {
		t.Fatal(err)
	}
	a, err := abi.JSON(bytes.NewReader(art.ABI))
	if err != nil {
		t.Fatal(err)
	}
	args, err := a.Pack("", "USD Coin", "USDC", uint8(6))
	if err != nil {
		t.Fatal(err)
	}
	fake := node.Deploy(t, append(append([]byte(nil), art.Bytecode...), args...))
	mint, err := a.Pack("mint", to, big.NewInt(1_000_000_000))
	if err != nil {
		t.Fatal(err)
	}
	node.Transact(t, fake, mint)
	return fake
}
