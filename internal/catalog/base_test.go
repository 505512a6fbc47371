package catalog_test

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/capability"
	"github.com/wardhq/ward/internal/capability/mint"
	"github.com/wardhq/ward/internal/catalog"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// These tests run the base tools' handlers against a real in-process dev
// chain with the dev contract set deployed, shared by the whole test
// binary (started on first use; the process's exit ends it).

type baseFixture struct {
	dev *chain.DevChain
	c   *chain.DevContracts
	env *catalog.Env
	reg *registry.Registry
}

var (
	baseMu   sync.Mutex
	baseFix  *baseFixture
	baseErr  error
	baseSeen = map[string]bool{} // top-level tests that used the current chain
	baseLast string              // the last of them
)

// base returns the shared dev chain fixture. The tests build on each
// other's state in their file order, so when a test asks for the chain a
// second time (go test -count=N runs the list again in one process) a
// fresh chain replaces the old one.
func base(t *testing.T) *baseFixture {
	t.Helper()
	baseMu.Lock()
	defer baseMu.Unlock()
	top, _, _ := strings.Cut(t.Name(), "/")
	if baseSeen[top] && top != baseLast && baseFix != nil {
		baseFix.dev.Close()
		baseFix, baseErr, baseSeen = nil, nil, map[string]bool{}
	}
	baseSeen[top], baseLast = true, top
	if baseFix == nil && baseErr == nil {
		baseFix, baseErr = newFixture("ward catalog base tests")
	}
	if baseErr != nil {
		t.Fatalf("dev chain fixture: %v", baseErr)
	}
	return baseFix
}

// setETHPrice sets the dev chain's ETH/USD feed to answer (8 decimals) and
// returns restore, which sets it back to the chain's $3,000. restore runs
// when the test ends too, unless it already ran: a test that moves the
// price leaves the shared chain as it found it.
func (f *baseFixture) setETHPrice(t *testing.T, answer int64) (restore func()) {
	t.Helper()
	if err := f.dev.SetFeedAnswer(t.Context(), f.c.FeedETHUSD, big.NewInt(answer)); err != nil {
		t.Fatal(err)
	}
	restored, ctx := false, context.WithoutCancel(t.Context()) // t.Context is done when cleanups run
	restore = func() {
		if restored {
			return
		}
		restored = true
		if err := f.dev.SetFeedAnswer(ctx, f.c.FeedETHUSD, big.NewInt(3_000e8)); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(restore)
	return restore
}

func venuesOf(c *chain.DevContracts) catalog.Venues {
	return catalog.Venues{
		WETH: c.WETH, UniswapV2Factory: c.UniswapV2Factory, UniswapV2Router: c.UniswapV2Router,
		UniswapV3Factory: c.UniswapV3Factory, UniswapV3Router: c.UniswapV3SwapRouter, AavePool: c.AavePool,
		Vaults: []common.Address{c.VaultUSDC}, ETHFeed: c.FeedETHUSD, UniswapV3LiquidityHelper: c.UniswapV3LiquidityHelper,
		MorphoBlue: c.MorphoBlue, Comet: c.CometUSDC,
		LidoWithdrawalQueue: c.LidoWithdrawalQueue, RocketStorage: c.RocketStorage,
		IdentityRegistry: c.IdentityRegistry, ReputationRegistry: c.ReputationRegistry,
		EigenStrategyManager: c.EigenStrategyManager, EigenDelegationManager: c.EigenDelegationManager,
		EigenStrategies:   []common.Address{c.EigenStrategyWETH},
		GmxExchangeRouter: c.GmxV2, GmxRouter: c.GmxV2, GmxOrderVault: c.GmxV2, GmxDataStore: c.GmxV2, GmxReader: c.GmxV2,
		GmxMarkets:   []common.Address{c.GmxMarketETHUSD},
		PendleRouter: c.PendleRouter, PendleMarkets: []common.Address{c.PendleMarketDAI},
		SavingsDai: c.SavingsDai, StakedUSDe: c.EthenaSUSDe, YearnVaults: []common.Address{c.YearnVaultUSDC},
	}
}

// newFixture starts a dev chain of its own (outliving any one test),
// deploys on it and registers the catalogue against it.
func newFixture(seed string) (*baseFixture, error) {
	ctx := context.Background()
	dev, err := chain.StartDev(ctx, chain.DevConfig{Seed: seed, AutoCommit: true})
	if err != nil {
		return nil, err
	}
	c, err := dev.Deploy(ctx)
	if err != nil {
		return nil, err
	}
	ps, err := chain.NewProviders(dev.Provider())
	if err != nil {
		return nil, err
	}
	sim, err := chain.NewSimulator(ps, chain.SimConfig{})
	if err != nil {
		return nil, err
	}
	env := &catalog.Env{Chain: dev.Provider(), Wallet: dev.Wallet(), Sim: sim, Dev: dev, Venues: venuesOf(c)}
	for _, tk := range dev.Tokens() {
		env.Tokens = append(env.Tokens, catalog.Token{Address: tk.Address, Symbol: tk.Symbol, Decimals: tk.Decimals, Feed: tk.Feed})
	}
	r := registry.New()
	if err := catalog.Register(r, env); err != nil {
		return nil, err
	}
	r.Freeze()
	return &baseFixture{dev: dev, c: c, env: env, reg: r}, nil
}

// input builds a handler input from JSON arguments.
func input(t *testing.T, args string) *registry.Input {
	t.Helper()
	a, err := tool.ParseArgs([]byte(args))
	if err != nil {
		t.Fatalf("parse args %s: %v", args, err)
	}
	return &registry.Input{Args: a, Raw: json.RawMessage(args), SessionID: "test", Tick: 1, Now: time.Now(), Step: func(int) {}}
}

func (f *baseFixture) entry(t *testing.T, name string) *registry.Entry {
	t.Helper()
	e, ok := f.reg.Get(name)
	if !ok {
		t.Fatalf("tool %s is not registered", name)
	}
	return e
}

// read runs a read tool and decodes its data into out.
func (f *baseFixture) read(t *testing.T, name, args string, out any) {
	t.Helper()
	if err := f.readErr(t, name, args, out); err != nil {
		t.Fatalf("%s %s: %v", name, args, err)
	}
}

func (f *baseFixture) readErr(t *testing.T, name, args string, out any) error {
	t.Helper()
	e := f.entry(t, name)
	if err := e.Validate(json.RawMessage(args)); err != nil {
		t.Fatalf("%s: arguments %s do not match the schema: %v", name, args, err)
	}
	res, err := e.Read(t.Context(), input(t, args))
	if err != nil {
		return err
	}
	if res.SchemaVersion != 1 {
		t.Errorf("%s: schema version %d", name, res.SchemaVersion)
	}
	if err := json.Unmarshal(res.Data, out); err != nil {
		t.Fatalf("%s: decode %s: %v", name, res.Data, err)
	}
	return nil
}

// plan previews a write tool.
func (f *baseFixture) plan(t *testing.T, name, args string) (*tool.Plan, *registry.Input, error) {
	t.Helper()
	e := f.entry(t, name)
	if err := e.Validate(json.RawMessage(args)); err != nil {
		t.Fatalf("%s: arguments %s do not match the schema: %v", name, args, err)
	}
	in := input(t, args)
	p, err := e.Plan(t.Context(), in)
	return p, in, err
}

// capFor mints the capability the gate would mint for this call.
func capFor(name string, in *registry.Input) *capability.Capability {
	return mint.Capability(mint.Fields{PermitID: "test-permit", Tool: name, ArgsHash: in.Args.Hash(),
		ExpiresAt: time.Now().Add(time.Minute), ExpiryTick: in.Tick + 10})
}

// commit plans and executes a write tool with a freshly minted
// capability, and decodes its data into out.
func (f *baseFixture) commit(t *testing.T, name, args string, out any) *tool.Plan {
	t.Helper()
	p, in, err := f.plan(t, name, args)
	if err != nil {
		t.Fatalf("plan %s %s: %v", name, args, err)
	}
	res, err := f.entry(t, name).Write(t.Context(), in, p, capFor(name, in))
	if err != nil {
		t.Fatalf("write %s %s: %v", name, args, err)
	}
	if res.ExpectedOutcome == "" || res.ActualOutcome == "" || res.GroundTruthSource == "" {
		t.Errorf("%s: result without ground truth: %+v", name, res)
	}
	// The typed outcome the gate records is what the data reports.
	var sent struct {
		TxHashes []string `json:"tx_hashes"`
		GasUsed  uint64   `json:"gas_used"`
	}
	if err := json.Unmarshal(res.Data, &sent); err != nil || !slices.Equal(res.TxHashes, sent.TxHashes) || res.GasUsed != sent.GasUsed {
		t.Errorf("%s: result txs %v gas %d, data %s (%v)", name, res.TxHashes, res.GasUsed, res.Data, err)
	}
	if out != nil {
		if err := json.Unmarshal(res.Data, out); err != nil {
			t.Fatalf("%s: decode %s: %v", name, res.Data, err)
		}
	}
	return p
}

func (f *baseFixture) wallet() common.Address { return f.dev.WalletAddress() }

func (f *baseFixture) balance(t *testing.T, token, owner common.Address) *big.Int {
	t.Helper()
	var b *big.Int
	var err error
	if token == (common.Address{}) {
		b, err = f.env.Chain.BalanceOf(t.Context(), owner)
	} else {
		b, err = f.env.Chain.TokenBalance(t.Context(), token, owner)
	}
	if err != nil {
		t.Fatalf("balance: %v", err)
	}
	return b
}

func units(n int64, dec int) *big.Int {
	return new(big.Int).Mul(big.NewInt(n), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(dec)), nil))
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// argsOf writes JSON arguments from alternating keys and values.
func argsOf(kv ...any) string {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		v := kv[i+1]
		if a, ok := v.(common.Address); ok {
			v = a.Hex()
		}
		if b, ok := v.(*big.Int); ok {
			v = b.String()
		}
		m[kv[i].(string)] = v
	}
	return js(m)
}

// recipient is an address with no code and no history.
var recipient = common.HexToAddress("0x00000000000000000000000000000000000b0b01")

func TestDefs(t *testing.T) {
	f := base(t)
	seen := map[[2]string]string{}
	for _, tl := range catalog.Tools(f.env) {
		d := tl.Def
		t.Run(d.Name, func(t *testing.T) {
			if err := d.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
			if !tool.ValidDefName(d.Name) {
				t.Errorf("name %q is not <prefix>_<action>_<subject>", d.Name)
			}
			if len(slices.Compact(slices.Clone(d.Requires))) != len(d.Requires) {
				t.Errorf("requirements repeated: %v", d.Requires)
			}
			if tl.Action != "" {
				k := [2]string{tl.Action, tl.Venue}
				if prev, dup := seen[k]; dup {
					t.Errorf("adapter (%s, %s) also taken by %s", tl.Action, tl.Venue, prev)
				}
				seen[k] = d.Name
			}
			if !slices.Contains(baseNames, d.Name) && d.Name != "testnet_fund_wallet" {
				return // the protocol tools have their own tests
			}
			if d.SchemaVersion != 1 {
				t.Errorf("schema version %d, want 1", d.SchemaVersion)
			}
			if len(d.ProgressSteps) == 0 {
				t.Error("no progress steps")
			}
			var params struct {
				Type  string `json:"type"`
				Extra *bool  `json:"additionalProperties"`
			}
			if err := json.Unmarshal(d.Params, &params); err != nil || params.Type != "object" || params.Extra == nil || *params.Extra {
				t.Errorf("parameter schema is not a closed object: %s", d.Params)
			}
			if len(d.Description) < 120 || !strings.Contains(d.Description, "not") {
				t.Errorf("description too thin for a model (say what it does not do): %q", d.Description)
			}
			switch d.Tier {
			case tool.Read:
				if d.Budget == tool.Slow {
					t.Errorf("a read with a slow budget")
				}
				if d.Effect != tool.EffectNone {
					t.Errorf("a read with effect %v", d.Effect)
				}
			default:
				if d.Budget != tool.Slow {
					t.Errorf("a write with budget %v, want slow", d.Budget)
				}
				if !hasRequirement(d, tool.NeedsWallet) {
					t.Error("a write that does not require the wallet")
				}
			}
			if strings.HasPrefix(d.Name, "testnet_") != (d.Category == tool.CatTestnet) {
				t.Errorf("testnet prefix and category disagree: %s", d.Category)
			}
		})
	}
}

func hasRequirement(d *tool.Def, r tool.Requirement) bool {
	for _, x := range d.Requires {
		if x == r {
			return true
		}
	}
	return false
}

// baseNames are the tools this file covers; each must be registered on
// the dev chain.
var baseNames = []string{
	"data_get_chain_info", "wallet_get_status", "data_get_native_balance", "data_get_token_balance", "data_get_token_balances",
	"data_get_token_info", "data_get_token_allowance", "data_get_portfolio_snapshot", "data_get_gas_price",
	"data_get_token_price", "chainlink_get_feed_data",
	"erc20_approve_token", "erc20_revoke_approval", "erc20_transfer_token", "erc20_sign_permit", "erc20_verify_permit",
	"weth_wrap_eth", "weth_unwrap_eth",
	"safety_simulate_transaction", "safety_check_token", "safety_check_approvals", "safety_check_price_deviation",
	"intel_compute_impermanent_loss", "intel_estimate_gas_cost", "intel_forecast_gas", "intel_compute_lvr",
	"testnet_set_price", "testnet_advance_time", "bootstrap_check_setup",
}

func TestRegistered(t *testing.T) {
	f := base(t)
	for _, n := range baseNames {
		if _, ok := f.reg.Get(n); !ok {
			t.Errorf("%s is not registered on the dev chain", n)
		}
	}
}

func TestWithoutWallet(t *testing.T) {
	f := base(t)
	env := *f.env
	env.Wallet = nil
	for _, tl := range catalog.Tools(&env) {
		if tl.Def.Tier != tool.Read {
			t.Errorf("%s (a %v tool) registered without a wallet", tl.Def.Name, tl.Def.Tier)
		}
		if hasRequirement(tl.Def, tool.NeedsWallet) {
			t.Errorf("%s needs a wallet but was registered without one", tl.Def.Name)
		}
	}
	r := registry.New()
	if err := catalog.Register(r, &env); err != nil {
		t.Fatalf("register without wallet: %v", err)
	}
	if _, ok := r.Get("data_get_portfolio_snapshot"); !ok {
		t.Error("reads are missing without a wallet")
	}
	// A read that defaults to the wallet asks for the address instead.
	e, _ := r.Get("data_get_native_balance")
	if _, err := e.Read(t.Context(), input(t, `{}`)); err == nil {
		t.Error("data_get_native_balance without wallet or owner succeeded")
	}
}

func TestWithoutChain(t *testing.T) {
	for _, tl := range catalog.Tools(&catalog.Env{}) {
		if slices.Contains(baseNames, tl.Def.Name) && tl.Def.Name != "intel_compute_impermanent_loss" {
			t.Errorf("%s registered without a chain", tl.Def.Name)
		}
	}
	f := base(t)
	env := *f.env
	env.Dev, env.Sim = nil, nil
	for _, tl := range catalog.Tools(&env) {
		if tl.Def.Category == tool.CatTestnet || tl.Def.Name == "safety_simulate_transaction" {
			t.Errorf("%s registered without a dev chain or simulator", tl.Def.Name)
		}
	}
}

func TestChainAndWalletReads(t *testing.T) {
	f := base(t)
	var info struct {
		ChainID     uint64 `json:"chain_id"`
		Name        string `json:"name"`
		BlockNumber uint64 `json:"block_number"`
		BaseFee     string `json:"base_fee_wei"`
		GasPrice    string `json:"gas_price_wei"`
	}
	f.read(t, "data_get_chain_info", `{}`, &info)
	if info.ChainID != chain.DevChainID || info.Name != "ward dev chain" || info.BlockNumber == 0 || info.GasPrice == "" || info.BaseFee == "" {
		t.Errorf("chain info = %+v", info)
	}
	for _, id := range []string{"1", "99999999999999999999999"} {
		if err := f.readErr(t, "data_get_chain_info", `{"chain_id":`+id+`}`, &info); err == nil {
			t.Errorf("chain_id %s on the dev chain was accepted", id)
		}
	}
	f.read(t, "data_get_chain_info", `{"chain_id":1337}`, &info)

	var st struct {
		Address    string `json:"address"`
		ChainID    uint64 `json:"chain_id"`
		BalanceWei string `json:"balance_wei"`
		CanPayGas  bool   `json:"can_pay_gas"`
	}
	f.read(t, "wallet_get_status", `{}`, &st)
	bal := f.balance(t, common.Address{}, f.wallet())
	if common.HexToAddress(st.Address) != f.wallet() || st.ChainID != chain.DevChainID || st.BalanceWei != bal.String() || !st.CanPayGas {
		t.Errorf("wallet status = %+v, want balance %s", st, bal)
	}

	var nb struct {
		BalanceWei string `json:"balance_wei"`
		BalanceETH string `json:"balance_eth"`
	}
	f.read(t, "data_get_native_balance", argsOf("owner", f.dev.OperatorAddress()), &nb)
	if opBal := f.balance(t, common.Address{}, f.dev.OperatorAddress()); nb.BalanceWei != opBal.String() {
		t.Errorf("operator balance = %s, want %s", nb.BalanceWei, opBal)
	}
	f.read(t, "data_get_native_balance", argsOf("owner", recipient), &nb)
	if nb.BalanceWei != "0" || nb.BalanceETH != "0" {
		t.Errorf("empty account balance = %+v", nb)
	}

	var gp struct {
		BaseFee string `json:"base_fee_wei"`
		Tip     string `json:"priority_fee_wei"`
		MaxFee  string `json:"max_fee_wei"`
	}
	f.read(t, "data_get_gas_price", `{}`, &gp)
	base, _ := new(big.Int).SetString(gp.BaseFee, 10)
	tip, _ := new(big.Int).SetString(gp.Tip, 10)
	maxFee, _ := new(big.Int).SetString(gp.MaxFee, 10)
	if base == nil || tip == nil || maxFee == nil || maxFee.Cmp(new(big.Int).Add(new(big.Int).Mul(base, big.NewInt(2)), tip)) != 0 {
		t.Errorf("gas price = %+v: max fee is not 2 x base + tip", gp)
	}
}

func TestTokenReads(t *testing.T) {
	f := base(t)
	usdc := f.c.USDC
	var bs struct {
		Balances []struct {
			Token   string `json:"token"`
			Symbol  string `json:"symbol"`
			Known   bool   `json:"known"`
			Balance string `json:"balance"`
			Error   string `json:"error"`
		} `json:"balances"`
	}
	f.read(t, "data_get_token_balances", `{}`, &bs)
	got := map[string]string{}
	for _, b := range bs.Balances {
		got[b.Symbol] = b.Balance
	}
	for _, tk := range []struct {
		sym  string
		addr common.Address
	}{{"ETH", common.Address{}}, {"USDC", usdc}, {"WETH", f.c.WETH}, {"DAI", f.c.DAI}, {"WBTC", f.c.WBTC}} {
		if want := f.balance(t, tk.addr, f.wallet()).String(); got[tk.sym] != want {
			t.Errorf("%s balance = %q, want %s", tk.sym, got[tk.sym], want)
		}
	}
	// An unlisted token gets no symbol; a non-token gets an error entry.
	bs.Balances = nil
	f.read(t, "data_get_token_balances", argsOf("tokens", []string{f.c.UniswapV2PairUSDCWETH.Hex(), recipient.Hex()}, "include_native", false), &bs)
	if len(bs.Balances) != 2 || bs.Balances[0].Known || bs.Balances[0].Symbol != "" || bs.Balances[0].Balance == "" || bs.Balances[1].Error == "" {
		t.Errorf("unlisted balances = %+v", bs.Balances)
	}

	var one struct {
		Balance  string `json:"balance"`
		Symbol   string `json:"symbol"`
		Decimals int    `json:"decimals"`
		Known    bool   `json:"known"`
	}
	f.read(t, "data_get_token_balance", argsOf("token", usdc), &one)
	if want := f.balance(t, usdc, f.wallet()).String(); one.Balance != want || one.Symbol != "USDC" || one.Decimals != 6 || !one.Known {
		t.Errorf("USDC balance = %+v, want %s", one, want)
	}
	one.Symbol = ""
	f.read(t, "data_get_token_balance", argsOf("token", f.c.UniswapV2PairUSDCWETH, "owner", f.dev.OperatorAddress()), &one)
	if one.Symbol != "" || one.Known || one.Decimals != 18 || one.Balance == "0" {
		t.Errorf("operator's LP balance = %+v", one)
	}

	var ti struct {
		Name        string `json:"name"`
		Symbol      string `json:"symbol"`
		Decimals    int    `json:"decimals"`
		TotalSupply string `json:"total_supply"`
		Known       bool   `json:"known"`
		KnownSymbol string `json:"known_symbol"`
	}
	f.read(t, "data_get_token_info", argsOf("token", usdc), &ti)
	if ti.Symbol != "USDC" || ti.Decimals != 6 || !ti.Known || ti.KnownSymbol != "USDC" || ti.TotalSupply == "0" || ti.Name == "" {
		t.Errorf("USDC info = %+v", ti)
	}
	if err := f.readErr(t, "data_get_token_info", argsOf("token", recipient), &ti); err == nil {
		t.Error("token info of an account without code succeeded")
	}
	if !f.entry(t, "data_get_token_info").Def.ThirdParty {
		t.Error("data_get_token_info is not marked third-party")
	}

	var al struct {
		Allowance string `json:"allowance"`
		Unlimited bool   `json:"unlimited"`
	}
	f.read(t, "data_get_token_allowance", argsOf("token", usdc, "spender", recipient), &al)
	if al.Allowance != "0" || al.Unlimited {
		t.Errorf("fresh allowance = %+v", al)
	}
}

func TestPrices(t *testing.T) {
	f := base(t)
	var p struct {
		Priced        bool    `json:"priced"`
		PriceUSD      float64 `json:"price_usd"`
		Stale         bool    `json:"stale"`
		Feed          string  `json:"feed"`
		MaxAgeSeconds int64   `json:"max_age_seconds"`
		Reason        string  `json:"reason"`
	}
	f.read(t, "data_get_token_price", `{}`, &p)
	if !p.Priced || p.PriceUSD != 3000 || p.Stale || common.HexToAddress(p.Feed) != f.c.FeedETHUSD || p.MaxAgeSeconds != 3600 {
		t.Errorf("ETH price = %+v", p)
	}
	f.read(t, "data_get_token_price", argsOf("token", f.c.WBTC), &p)
	if !p.Priced || p.PriceUSD != 60000 || p.Stale {
		t.Errorf("WBTC price = %+v", p)
	}
	f.read(t, "data_get_token_price", argsOf("token", f.c.UniswapV2PairUSDCWETH), &p)
	if p.Priced || p.Reason == "" {
		t.Errorf("unlisted token price = %+v", p)
	}

	var fd struct {
		Description  string   `json:"description"`
		Decimals     int      `json:"decimals"`
		Answer       string   `json:"answer"`
		AnswerScaled string   `json:"answer_scaled"`
		RoundID      string   `json:"round_id"`
		Stale        bool     `json:"stale"`
		Listed       []string `json:"prices_listed_tokens"`
	}
	f.read(t, "chainlink_get_feed_data", argsOf("feed", f.c.FeedBTCUSD), &fd)
	if fd.Decimals != 8 || fd.Answer != "6000000000000" || fd.AnswerScaled != "60000" || fd.RoundID == "" || fd.Stale ||
		!strings.Contains(fd.Description, "BTC") || strings.Join(fd.Listed, ",") != "WBTC" {
		t.Errorf("BTC feed = %+v", fd)
	}
	f.read(t, "chainlink_get_feed_data", argsOf("feed", f.c.FeedBTCUSD, "round_id", "1"), &fd)
	if fd.RoundID != "1" {
		t.Errorf("round 1 = %+v", fd)
	}
	if err := f.readErr(t, "chainlink_get_feed_data", argsOf("feed", f.c.FeedBTCUSD, "round_id", "999999"), &fd); err == nil {
		t.Error("a round that does not exist was read")
	}
	if err := f.readErr(t, "chainlink_get_feed_data", argsOf("feed", f.c.USDC), &fd); err == nil {
		t.Error("a token was read as a feed")
	}
}

func TestPortfolio(t *testing.T) {
	f := base(t)
	var ps struct {
		TotalCents int64 `json:"total_cents"`
		Holdings   []struct {
			Symbol     string `json:"symbol"`
			Balance    string `json:"balance"`
			Priced     bool   `json:"priced"`
			ValueCents int64  `json:"value_cents"`
			Stale      bool   `json:"stale"`
		} `json:"holdings"`
		Unpriced []string `json:"unpriced"`
	}
	f.read(t, "data_get_portfolio_snapshot", `{}`, &ps)
	prices := map[string]int64{"ETH": 3000, "WETH": 3000, "USDC": 1, "DAI": 1, "WBTC": 60000, "USDe": 1}
	decs := map[string]int{"ETH": 18, "WETH": 18, "USDC": 6, "DAI": 18, "WBTC": 8, "USDe": 18}
	var sum int64
	for _, h := range ps.Holdings {
		bal, _ := new(big.Int).SetString(h.Balance, 10)
		want := new(big.Int).Mul(bal, big.NewInt(prices[h.Symbol]*100))
		want.Quo(want, units(1, decs[h.Symbol]))
		if !h.Priced || h.Stale || h.ValueCents != want.Int64() {
			t.Errorf("%s holding = %+v, want %d cents", h.Symbol, h, want)
		}
		sum += h.ValueCents
	}
	if ps.TotalCents != sum || sum == 0 || len(ps.Unpriced) != 0 {
		t.Errorf("total = %d cents, want %d; unpriced %v", ps.TotalCents, sum, ps.Unpriced)
	}
}

func TestTransfer(t *testing.T) {
	f := base(t)
	usdc := f.c.USDC
	amount := units(1_000, 6)
	before, rBefore := f.balance(t, usdc, f.wallet()), f.balance(t, usdc, recipient)
	var out struct {
		TxHashes []string `json:"tx_hashes"`
		Verified bool     `json:"verified"`
	}
	p := f.commit(t, "erc20_transfer_token", argsOf("token", usdc, "to", recipient, "amount", amount, "symbol", "USDC", "decimals", 6), &out)
	if p.ValueCents != 100_000 {
		t.Errorf("value of 1,000 USDC = %d cents, want 100000", p.ValueCents)
	}
	if len(p.Tokens) != 1 || !p.Tokens[0].Out || p.Tokens[0].Amount.Cmp(amount) != 0 || p.Tokens[0].Symbol != "USDC" || p.Tokens[0].Decimals != 6 {
		t.Errorf("plan tokens = %+v", p.Tokens)
	}
	if len(out.TxHashes) != 1 || !out.Verified {
		t.Errorf("transfer result = %+v", out)
	}
	if got := new(big.Int).Sub(before, f.balance(t, usdc, f.wallet())); got.Cmp(amount) != 0 {
		t.Errorf("wallet sent %s, want %s", got, amount)
	}
	if got := new(big.Int).Sub(f.balance(t, usdc, recipient), rBefore); got.Cmp(amount) != 0 {
		t.Errorf("recipient got %s, want %s", got, amount)
	}

	for name, args := range map[string]string{
		"zero recipient":  argsOf("token", usdc, "to", common.Address{}, "amount", "1"),
		"token recipient": argsOf("token", usdc, "to", usdc, "amount", "1"),
		"self":            argsOf("token", usdc, "to", f.wallet(), "amount", "1"),
		"zero amount":     argsOf("token", usdc, "to", recipient, "amount", "0"),
		"too much":        argsOf("token", usdc, "to", recipient, "amount", units(1, 30)),
		"not a token":     argsOf("token", recipient, "to", recipient, "amount", "1"),
	} {
		if _, _, err := f.plan(t, "erc20_transfer_token", args); err == nil {
			t.Errorf("%s: transfer planned", name)
		}
	}
}

func TestCapabilityIsConsumed(t *testing.T) {
	f := base(t)
	usdc := f.c.USDC
	args := argsOf("token", usdc, "to", recipient, "amount", "1")
	p, in, err := f.plan(t, "erc20_transfer_token", args)
	if err != nil {
		t.Fatal(err)
	}
	e := f.entry(t, "erc20_transfer_token")
	before := f.balance(t, usdc, f.wallet())
	// A capability for another tool, for other arguments, or none, sends
	// nothing.
	other := mint.Capability(mint.Fields{PermitID: "p", Tool: "erc20_approve_token", ArgsHash: in.Args.Hash(), ExpiresAt: time.Now().Add(time.Minute)})
	if _, err := e.Write(t.Context(), in, p, other); !errors.Is(err, capability.ErrScope) {
		t.Errorf("write with another tool's capability: %v, want ErrScope", err)
	}
	if _, err := e.Write(t.Context(), in, p, nil); !errors.Is(err, capability.ErrInvalid) {
		t.Errorf("write without capability: %v, want ErrInvalid", err)
	}
	c := capFor("erc20_transfer_token", in)
	if _, err := e.Write(t.Context(), in, p, c); err != nil {
		t.Fatalf("write: %v", err)
	}
	if _, err := e.Write(t.Context(), in, p, c); !errors.Is(err, capability.ErrConsumed) {
		t.Errorf("second write with the same capability: %v, want ErrConsumed", err)
	}
	if got := new(big.Int).Sub(before, f.balance(t, usdc, f.wallet())); got.Cmp(big.NewInt(1)) != 0 {
		t.Errorf("wallet sent %s base units, want exactly 1", got)
	}
}

func TestApproveCheckRevoke(t *testing.T) {
	f := base(t)
	dai, router := f.c.DAI, f.c.UniswapV2Router
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	p := f.commit(t, "erc20_approve_token", argsOf("token", dai, "spender", router, "amount", max), nil)
	if p.ValueCents != -1 {
		t.Errorf("unlimited approval valued %d cents, want -1 (unpriceable)", p.ValueCents)
	}
	f.commit(t, "erc20_approve_token", argsOf("token", f.c.USDC, "spender", f.c.AavePool, "amount", units(5, 6)), nil)

	var al struct {
		Allowance string `json:"allowance"`
		Unlimited bool   `json:"unlimited"`
	}
	f.read(t, "data_get_token_allowance", argsOf("token", dai, "spender", router), &al)
	if al.Allowance != max.String() || !al.Unlimited {
		t.Errorf("allowance after approve = %+v", al)
	}

	var ca struct {
		Checked   int `json:"checked"`
		Unlimited int `json:"unlimited"`
		Approvals []struct {
			Token       string `json:"token"`
			Spender     string `json:"spender"`
			SpenderName string `json:"spender_name"`
			Allowance   string `json:"allowance"`
			Unlimited   bool   `json:"unlimited"`
			Risk        string `json:"risk"`
		} `json:"approvals"`
	}
	f.read(t, "safety_check_approvals", `{}`, &ca)
	found := map[string]string{}
	for _, a := range ca.Approvals {
		found[common.HexToAddress(a.Token).Hex()+"/"+a.SpenderName] = a.Risk
	}
	if found[dai.Hex()+"/uniswap_v2_router"] != "high" || found[f.c.USDC.Hex()+"/aave_pool"] != "low" || ca.Unlimited < 1 || ca.Checked < 10 {
		t.Errorf("approvals = %+v", ca)
	}

	var out struct {
		Verified bool `json:"verified"`
	}
	p = f.commit(t, "erc20_revoke_approval", argsOf("token", dai, "spender", router, "symbol", "DAI"), &out)
	if p.ValueCents != 0 || len(p.Txs) != 1 || !out.Verified {
		t.Errorf("revoke plan %+v, result %+v", p, out)
	}
	f.read(t, "data_get_token_allowance", argsOf("token", dai, "spender", router), &al)
	if al.Allowance != "0" {
		t.Errorf("allowance after revoke = %s", al.Allowance)
	}
	if _, _, err := f.plan(t, "erc20_revoke_approval", argsOf("token", dai, "spender", router)); err == nil {
		t.Error("revoking a zero allowance was planned")
	}
	f.commit(t, "erc20_revoke_approval", argsOf("token", f.c.USDC, "spender", f.c.AavePool), nil)
}

func TestWETH(t *testing.T) {
	f := base(t)
	weth := f.c.WETH
	amount := units(2, 18)
	eth0, weth0 := f.balance(t, common.Address{}, f.wallet()), f.balance(t, weth, f.wallet())
	var out struct {
		Verified   bool   `json:"verified"`
		GasCostWei string `json:"gas_cost_wei"`
	}
	p := f.commit(t, "weth_wrap_eth", argsOf("amount", amount), &out)
	if len(p.Txs) != 1 || p.Txs[0].Value.Cmp(amount) != 0 || p.ValueCents != 600_000 || !out.Verified {
		t.Errorf("wrap: plan %+v result %+v", p, out)
	}
	gas, _ := new(big.Int).SetString(out.GasCostWei, 10)
	if got := new(big.Int).Sub(f.balance(t, weth, f.wallet()), weth0); got.Cmp(amount) != 0 {
		t.Errorf("WETH after wrap +%s, want +%s", got, amount)
	}
	if got := new(big.Int).Sub(eth0, f.balance(t, common.Address{}, f.wallet())); got.Cmp(new(big.Int).Add(amount, gas)) != 0 {
		t.Errorf("ETH after wrap -%s, want -%s (amount + gas %s)", got, new(big.Int).Add(amount, gas), gas)
	}

	eth1 := f.balance(t, common.Address{}, f.wallet())
	p = f.commit(t, "weth_unwrap_eth", argsOf("amount", units(1, 18)), &out)
	if !out.Verified || p.ValueCents != 300_000 {
		t.Errorf("unwrap: plan %+v result %+v", p, out)
	}
	gas, _ = new(big.Int).SetString(out.GasCostWei, 10)
	if got := new(big.Int).Sub(f.balance(t, common.Address{}, f.wallet()), eth1); got.Cmp(new(big.Int).Sub(units(1, 18), gas)) != 0 {
		t.Errorf("ETH after unwrap +%s, want 1 ETH less gas %s", got, gas)
	}
	if _, _, err := f.plan(t, "weth_unwrap_eth", argsOf("amount", units(1_000_000, 18))); err == nil {
		t.Error("unwrapping more WETH than held was planned")
	}
	if _, _, err := f.plan(t, "weth_wrap_eth", argsOf("amount", units(1_000_000, 18))); err == nil {
		t.Error("wrapping more ETH than held was planned")
	}
}

func TestPermit(t *testing.T) {
	f := base(t)
	usdc, spender := f.c.USDC, f.c.VaultUSDC
	amount := units(250, 6)
	args := argsOf("token", usdc, "spender", spender, "amount", amount, "valid_for_seconds", 600, "symbol", "USDC", "decimals", 6)
	p, in, err := f.plan(t, "erc20_sign_permit", args)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Txs) != 0 || p.ValueCents != 25_000 || len(p.Tokens) != 1 || p.Tokens[0].Amount.Cmp(amount) != 0 || !p.Tokens[0].Out ||
		!strings.Contains(p.Summary, "permit") {
		t.Errorf("permit plan = %+v", p)
	}
	// A dust permit is still worth a cent to the spending limits.
	if dust, _, err := f.plan(t, "erc20_sign_permit", argsOf("token", usdc, "spender", spender, "amount", "1")); err != nil || dust.ValueCents != 1 {
		t.Errorf("dust permit plan %+v, %v: want value 1 cent", dust, err)
	}
	e := f.entry(t, "erc20_sign_permit")
	if _, err := e.Write(t.Context(), in, p, nil); !errors.Is(err, capability.ErrInvalid) {
		t.Errorf("signing without a capability: %v", err)
	}
	c := capFor("erc20_sign_permit", in)
	res, err := e.Write(t.Context(), in, p, c)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Used() {
		t.Error("the capability was not consumed")
	}
	if _, err := e.Write(t.Context(), in, p, c); !errors.Is(err, capability.ErrConsumed) {
		t.Errorf("second signature with one capability: %v", err)
	}
	var sig struct {
		Owner, Spender, Value, Nonce, Deadline, Signature, Calldata string
		Accepted                                                    bool `json:"accepted_by_token"`
	}
	if err := json.Unmarshal(res.Data, &sig); err != nil {
		t.Fatal(err)
	}
	if !sig.Accepted || common.HexToAddress(sig.Owner) != f.wallet() || sig.Value != amount.String() || res.ActualOutcome != res.ExpectedOutcome {
		t.Errorf("permit = %+v (%s / %s)", sig, res.ExpectedOutcome, res.ActualOutcome)
	}

	type verified struct {
		Valid          bool     `json:"valid"`
		Signer         string   `json:"recovered_signer"`
		Matches        bool     `json:"signer_matches_owner"`
		NonceIsCurrent bool     `json:"nonce_is_current"`
		Expired        bool     `json:"expired"`
		Accepted       bool     `json:"accepted_by_token"`
		Problems       []string `json:"problems"`
	}
	verify := func(owner common.Address, value string) verified {
		var v verified
		f.read(t, "erc20_verify_permit", argsOf("token", usdc, "owner", owner, "spender", spender, "value", value,
			"deadline", sig.Deadline, "signature", sig.Signature), &v)
		return v
	}
	if v := verify(f.wallet(), sig.Value); !v.Valid || !v.Matches || common.HexToAddress(v.Signer) != f.wallet() || !v.Accepted || !v.NonceIsCurrent {
		t.Errorf("the wallet's permit does not verify: %+v", v)
	}
	if v := verify(f.dev.OperatorAddress(), sig.Value); v.Valid || v.Matches || v.Accepted {
		t.Errorf("a permit claimed for another owner verifies: %+v", v)
	}
	if v := verify(f.wallet(), "1"); v.Valid || v.Matches || v.Accepted {
		t.Errorf("a permit with another value verifies: %+v", v)
	}

	for name, a := range map[string]string{
		"both deadlines":     argsOf("token", usdc, "spender", spender, "amount", "1", "valid_for_seconds", 600, "deadline", "99999999999"),
		"past deadline":      argsOf("token", usdc, "spender", spender, "amount", "1", "deadline", "1"),
		"far deadline":       argsOf("token", usdc, "spender", spender, "amount", "1", "deadline", "99999999999"),
		"no EIP-2612 (WETH)": argsOf("token", f.c.WETH, "spender", spender, "amount", "1"),
	} {
		if _, _, err := f.plan(t, "erc20_sign_permit", a); err == nil {
			t.Errorf("%s: permit planned", name)
		}
	}
}

func TestSimulate(t *testing.T) {
	f := base(t)
	usdc := f.c.USDC
	erc20 := chain.ERC20ABI()
	held := f.balance(t, usdc, f.wallet())
	type sim struct {
		OK           bool   `json:"ok"`
		RevertReason string `json:"revert_reason"`
		GasUsed      uint64 `json:"gas_used"`
		Method       string `json:"method"`
		Deltas       []struct {
			Token  string `json:"token"`
			Symbol string `json:"symbol"`
			Delta  string `json:"delta"`
		} `json:"deltas"`
	}
	run := func(amount *big.Int) sim {
		data, err := erc20.Pack("transfer", recipient, amount)
		if err != nil {
			t.Fatal(err)
		}
		var s sim
		f.read(t, "safety_simulate_transaction", argsOf("to", usdc, "data", "0x"+common.Bytes2Hex(data)), &s)
		return s
	}
	s := run(units(10, 6))
	deltas := map[string]string{}
	for _, d := range s.Deltas {
		deltas[d.Symbol] = d.Delta
	}
	if !s.OK || s.GasUsed == 0 || s.Method != "transfer" || deltas["USDC"] != "-10000000" || deltas["ETH"] != "0" {
		t.Errorf("simulated transfer = %+v", s)
	}
	s = run(new(big.Int).Add(held, big.NewInt(1)))
	if s.OK || s.RevertReason == "" {
		t.Errorf("simulated overdraft = %+v, want a revert reason", s)
	}
	if got := f.balance(t, usdc, f.wallet()); got.Cmp(held) != 0 {
		t.Errorf("simulation changed the chain: balance %s, was %s", got, held)
	}
	var s2 sim
	f.read(t, "safety_simulate_transaction", argsOf("to", recipient, "value", units(1, 18), "watch_tokens", []string{}), &s2)
	if !s2.OK || len(s2.Deltas) != 1 || s2.Deltas[0].Delta != "-1000000000000000000" {
		t.Errorf("simulated ETH send = %+v", s2)
	}
}

func TestCheckToken(t *testing.T) {
	f := base(t)
	type result struct {
		Verdict string `json:"verdict"`
		Checks  []struct {
			Name   string `json:"name"`
			Status string `json:"status"`
		} `json:"checks"`
	}
	status := func(r result, name string) string {
		for _, c := range r.Checks {
			if c.Name == name {
				return c.Status
			}
		}
		return ""
	}
	var r result
	f.read(t, "safety_check_token", argsOf("token", f.c.USDC), &r)
	if r.Verdict != "pass" {
		t.Errorf("USDC = %+v, want pass", r)
	}
	f.read(t, "safety_check_token", argsOf("token", recipient), &r)
	if r.Verdict != "fail" || status(r, "has_code") != "fail" {
		t.Errorf("an account without code = %+v, want fail", r)
	}
	f.read(t, "safety_check_token", argsOf("token", f.c.FeedETHUSD), &r)
	if r.Verdict != "fail" || status(r, "decimals") != "pass" || status(r, "balance_of") != "fail" {
		t.Errorf("a price feed = %+v, want fail", r)
	}
	f.read(t, "safety_check_token", argsOf("token", f.c.UniswapV2PairUSDCWETH), &r)
	if r.Verdict != "warn" || status(r, "token_list") != "warn" || status(r, "price_feed") != "warn" {
		t.Errorf("an unlisted LP token = %+v, want warn", r)
	}
}

func TestPriceDeviation(t *testing.T) {
	f := base(t)
	weth, usdc := f.c.WETH, f.c.USDC
	type dev struct {
		Source      string  `json:"source"`
		Observed    string  `json:"observed_price"`
		Feed        string  `json:"feed_price"`
		Deviation   float64 `json:"deviation_bps"`
		WithinLimit bool    `json:"within_limit"`
	}
	cases := []struct {
		name   string
		args   string
		source string
		within bool
		minBps float64
	}{
		{"v2 pair", argsOf("token_in", weth, "token_out", usdc, "pool", f.c.UniswapV2PairUSDCWETH), "uniswap_v2_pair", true, 0},
		{"v2 pair reversed", argsOf("token_in", usdc, "token_out", weth, "pool", f.c.UniswapV2PairUSDCWETH), "uniswap_v2_pair", true, 0},
		{"v3 pool", argsOf("token_in", weth, "token_out", usdc, "pool", f.c.UniswapV3PoolUSDCWETH), "uniswap_v3_pool", true, 0},
		{"fair price", argsOf("token_in", weth, "token_out", usdc, "price", "3010"), "price", true, 0},
		{"bad price", argsOf("token_in", weth, "token_out", usdc, "price", "2500"), "price", false, 1600},
		{"quote", argsOf("token_in", weth, "token_out", usdc, "amount_in", units(1, 18), "amount_out", units(2940, 6), "max_deviation_bps", 300), "quote", true, 199},
		{"tight quote", argsOf("token_in", weth, "token_out", usdc, "amount_in", units(1, 18), "amount_out", units(2940, 6)), "quote", false, 199},
		{"unpriced token", argsOf("token_in", f.c.AaveAUSDC, "token_out", usdc, "price", "1"), "price", false, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var d dev
			f.read(t, "safety_check_price_deviation", c.args, &d)
			if d.Source != c.source || d.WithinLimit != c.within || d.Deviation < c.minBps {
				t.Errorf("got %+v, want source %s within %v deviation >= %v", d, c.source, c.within, c.minBps)
			}
		})
	}
	var d dev
	if err := f.readErr(t, "safety_check_price_deviation", argsOf("token_in", f.c.DAI, "token_out", usdc, "pool", f.c.UniswapV2PairUSDCWETH), &d); err == nil {
		t.Error("a pool of other tokens was accepted")
	}
	if err := f.readErr(t, "safety_check_price_deviation", argsOf("token_in", weth, "token_out", usdc, "price", "1", "pool", f.c.UniswapV2PairUSDCWETH), &d); err == nil {
		t.Error("two price sources were accepted")
	}
}

func TestIntel(t *testing.T) {
	f := base(t)
	var il struct {
		IL      float64 `json:"impermanent_loss"`
		Hold    float64 `json:"hold_value_usd"`
		LP      float64 `json:"lp_value_usd"`
		LossUSD float64 `json:"loss_usd"`
	}
	f.read(t, "intel_compute_impermanent_loss", `{"price_ratio":4,"deposit_value_usd":1000}`, &il)
	if diff(il.IL, -0.2) > 1e-12 || diff(il.Hold, 2500) > 1e-9 || diff(il.LP, 2000) > 1e-9 || diff(il.LossUSD, 500) > 1e-9 {
		t.Errorf("IL at 4x = %+v", il)
	}
	f.read(t, "intel_compute_impermanent_loss", `{"entry_price":2000,"current_price":2000}`, &il)
	if il.IL != 0 {
		t.Errorf("IL without a price change = %v", il.IL)
	}
	if err := f.readErr(t, "intel_compute_impermanent_loss", `{"price_ratio":2,"entry_price":1,"current_price":2}`, &il); err == nil {
		t.Error("two ways to give the ratio were accepted")
	}

	var gc struct {
		CostWei string  `json:"cost_wei"`
		CostETH string  `json:"cost_eth"`
		CostUSD float64 `json:"cost_usd"`
		Priced  bool    `json:"priced"`
		Stale   bool    `json:"price_stale"`
	}
	f.read(t, "intel_estimate_gas_cost", `{"gas_units":21000,"gas_price_gwei":10}`, &gc)
	if gc.CostWei != "210000000000000" || gc.CostETH != "0.00021" || diff(gc.CostUSD, 0.63) > 1e-9 || !gc.Priced || gc.Stale {
		t.Errorf("gas cost = %+v", gc)
	}
	f.read(t, "intel_estimate_gas_cost", `{"gas_units":100000}`, &gc)
	if gc.CostWei == "" || gc.CostWei == "0" {
		t.Errorf("gas cost at the current price = %+v", gc)
	}
}

// TestIntelForecast runs the gas forecast on the dev chain: the next base
// fee by EIP-1559's rule must be what the node itself reports.
func TestIntelForecast(t *testing.T) {
	f := base(t)
	var g struct {
		Blocks int    `json:"blocks"`
		Next   string `json:"next_base_fee_wei"`
		Node   string `json:"node_next_base_fee_wei"`
		P10    string `json:"priority_fee_p10_wei"`
		P50    string `json:"priority_fee_p50_wei"`
		P90    string `json:"priority_fee_p90_wei"`
		MaxFee string `json:"suggested_max_fee_wei"`
	}
	f.read(t, "intel_forecast_gas", `{"blocks":5}`, &g)
	if g.Blocks < 1 || g.Blocks > 5 || g.Next == "" || g.Next != g.Node {
		t.Errorf("gas forecast = %+v: want 1-5 blocks and the node's next base fee", g)
	}
	p10, _ := new(big.Int).SetString(g.P10, 10)
	p50, _ := new(big.Int).SetString(g.P50, 10)
	p90, _ := new(big.Int).SetString(g.P90, 10)
	if p10 == nil || p50 == nil || p90 == nil || p10.Cmp(p50) > 0 || p50.Cmp(p90) > 0 {
		t.Errorf("tip percentiles out of order: %s %s %s", g.P10, g.P50, g.P90)
	}
	t.Logf("gas forecast: %+v", g)
}

// TestIntelLVR runs the IL and LVR tool on the dev chain, with a given
// volatility (hand-worked: σ = 0.8, V = 1000 full range: 0.64/8·1000 =
// 80 a year) and with the WETH feed's rounds.
func TestIntelLVR(t *testing.T) {
	f := base(t)
	var l struct {
		IL       float64  `json:"impermanent_loss"`
		Year     float64  `json:"lvr_usd_per_year"`
		Day      float64  `json:"lvr_usd_per_day"`
		Vol      float64  `json:"volatility_annual"`
		Source   string   `json:"volatility_source"`
		Rounds   int      `json:"feed_rounds_used"`
		InRange  bool     `json:"in_range"`
		Assumpts []string `json:"assumptions"`
	}
	f.read(t, "intel_compute_lvr", `{"value_usd":1000,"entry_price":1000,"current_price":4000,"volatility_annual":0.8}`, &l)
	if diff(l.IL, -0.2) > 1e-12 || diff(l.Year, 80) > 1e-9 || diff(l.Day, 80.0/365) > 1e-9 || len(l.Assumpts) == 0 {
		t.Errorf("full range LVR = %+v", l)
	}
	f.read(t, "intel_compute_lvr", `{"value_usd":1000,"entry_price":1,"current_price":1,"price_lower":0.25,"price_upper":4,"volatility_annual":0.8}`, &l)
	if l.IL != 0 || diff(l.Year, 160) > 1e-9 || !l.InRange {
		t.Errorf("V3 range LVR = %+v, want 160 a year", l)
	}
	// Measured from the feed: move WETH up 10% and back, so its feed's
	// last three rounds have log returns ln 1.1 and -ln 1.1.
	var tp struct {
		PriceUSD float64 `json:"price_usd"`
	}
	f.read(t, "data_get_token_price", `{}`, &tp)
	var sp struct{}
	f.commit(t, "testnet_set_price", argsOf("token", f.c.WETH, "price", strconv.FormatFloat(tp.PriceUSD*1.1, 'f', 2, 64)), &sp)
	f.commit(t, "testnet_set_price", argsOf("token", f.c.WETH, "price", strconv.FormatFloat(tp.PriceUSD, 'f', -1, 64)), &sp)
	f.read(t, "intel_compute_lvr", argsOf("value_usd", 1000, "entry_price", 3000, "current_price", 3000, "token", f.c.WETH, "feed_rounds", 3), &l)
	if l.Rounds != 3 || !strings.Contains(l.Source, "realised volatility of feed") || !(l.Vol > 0) || diff(l.Year, l.Vol*l.Vol/8*1000) > 1e-12*l.Year {
		t.Errorf("feed volatility = %+v", l)
	}
	t.Logf("feed volatility: %v from %s", l.Vol, l.Source)
	for _, bad := range []string{
		`{"value_usd":1000,"entry_price":1,"current_price":1}`,
		`{"value_usd":1000,"entry_price":1,"current_price":1,"price_lower":2,"volatility_annual":0.5}`,
		`{"value_usd":1000,"entry_price":1,"current_price":1,"price_lower":4,"price_upper":2,"volatility_annual":0.5}`,
	} {
		if err := f.readErr(t, "intel_compute_lvr", bad, &l); err == nil {
			t.Errorf("%s was accepted", bad)
		}
	}
}

func diff(a, b float64) float64 {
	if a > b {
		return a - b
	}
	return b - a
}

// TestDevWorld runs last among the dev chain tests that need fresh
// prices: it moves a feed and the clock and puts the prices back.
func TestDevWorld(t *testing.T) {
	f := base(t)
	var setup struct {
		Ready   bool   `json:"ready"`
		Verdict string `json:"verdict"`
		Checks  []struct {
			Name, Status, Detail string
		} `json:"checks"`
	}
	f.read(t, "bootstrap_check_setup", `{}`, &setup)
	if !setup.Ready || setup.Verdict != "pass" {
		t.Errorf("setup on a fresh dev chain = %+v", setup)
	}

	var sp struct {
		PriceUSD float64 `json:"price_usd"`
		Stale    bool    `json:"stale"`
	}
	p := f.commit(t, "testnet_set_price", argsOf("token", f.c.WETH, "price", "1500.5"), &sp)
	if sp.PriceUSD != 1500.5 || sp.Stale || p.ValueCents != 0 || len(p.Txs) != 0 {
		t.Errorf("set price: plan %+v result %+v", p, sp)
	}
	var tp struct {
		PriceUSD float64 `json:"price_usd"`
	}
	f.read(t, "data_get_token_price", `{}`, &tp)
	if tp.PriceUSD != 1500.5 {
		t.Errorf("ETH after set price = %v", tp.PriceUSD)
	}
	// The pool still trades at 3,000: the deviation check catches it.
	var d struct {
		WithinLimit bool `json:"within_limit"`
	}
	f.read(t, "safety_check_price_deviation", argsOf("token_in", f.c.WETH, "token_out", f.c.USDC, "pool", f.c.UniswapV2PairUSDCWETH), &d)
	if d.WithinLimit {
		t.Error("a pool at 3,000 against a feed at 1,500 is within the limit")
	}
	if _, _, err := f.plan(t, "testnet_set_price", argsOf("feed", f.c.USDC, "price", "1")); err == nil {
		t.Error("a price was set on a token address")
	}
	if _, _, err := f.plan(t, "testnet_set_price", argsOf("token", f.c.USDC, "feed", f.c.FeedUSDCUSD, "price", "1")); err == nil {
		t.Error("feed and token were both accepted")
	}

	var adv struct {
		Advanced int64 `json:"advanced_seconds"`
	}
	f.commit(t, "testnet_advance_time", `{"seconds":7200}`, &adv)
	if adv.Advanced != 7200 {
		t.Errorf("advanced %d s, want 7200", adv.Advanced)
	}
	var stale struct {
		Stale        bool     `json:"stale"`
		StaleReasons []string `json:"stale_reasons"`
	}
	f.read(t, "data_get_token_price", argsOf("token", f.c.USDC), &stale)
	if !stale.Stale || len(stale.StaleReasons) == 0 {
		t.Errorf("USDC two hours after its last update = %+v, want stale", stale)
	}
	// Stale prices value nothing: a transfer's plan is unpriced.
	tp2, _, err := f.plan(t, "erc20_transfer_token", argsOf("token", f.c.USDC, "to", recipient, "amount", "1"))
	if err != nil || tp2.ValueCents != -1 {
		t.Errorf("transfer at a stale price: plan %+v err %v, want value -1", tp2, err)
	} else if len(tp2.Unpriced) != 1 || tp2.Unpriced[0].Symbol != "USDC" || !strings.Contains(tp2.Unpriced[0].Why, "is stale: updated") {
		t.Errorf("transfer at a stale price: unpriced = %+v, want USDC's stale feed", tp2.Unpriced)
	}
	f.read(t, "bootstrap_check_setup", `{}`, &setup)
	if setup.Verdict != "warn" {
		t.Errorf("setup with stale feeds = %+v, want warn", setup)
	}

	// Fresh prices again (the feeds update at the new block time).
	for _, tk := range []struct {
		tok   common.Address
		price string
	}{{f.c.WETH, "3000"}, {f.c.USDC, "1"}, {f.c.DAI, "1"}, {f.c.WBTC, "60000"}, {f.c.USDe, "1"}} {
		f.commit(t, "testnet_set_price", argsOf("token", tk.tok, "price", tk.price), &sp)
		if sp.Stale {
			t.Errorf("%s price after update is stale", tk.tok)
		}
	}
	f.read(t, "bootstrap_check_setup", `{}`, &setup)
	if setup.Verdict != "pass" {
		t.Errorf("setup after the update = %+v, want pass", setup)
	}
}

func TestFundWallet(t *testing.T) {
	f := base(t)
	if _, ok := f.reg.Get("testnet_fund_wallet"); !ok {
		t.Skip("the dev chain does not offer Fund: testnet_fund_wallet is not registered")
	}
	for _, tk := range []common.Address{{}, f.c.USDC, f.c.WETH, f.c.WBTC} {
		amount := units(3, 6)
		before := f.balance(t, tk, f.wallet())
		p := f.commit(t, "testnet_fund_wallet", argsOf("token", tk, "amount", amount), nil)
		if len(p.Tokens) != 1 || p.Tokens[0].Out {
			t.Errorf("fund plan tokens = %+v", p.Tokens)
		}
		got := new(big.Int).Sub(f.balance(t, tk, f.wallet()), before)
		if got.Cmp(amount) != 0 {
			t.Errorf("funding %s: +%s, want +%s", tk, got, amount)
		}
	}
	if _, _, err := f.plan(t, "testnet_fund_wallet", argsOf("token", f.c.UniswapV2PairUSDCWETH, "amount", "1")); err == nil {
		t.Error("funding a non-dev token was planned")
	}
}

func TestSetPriceBackdated(t *testing.T) {
	f := base(t)
	e := f.entry(t, "testnet_set_price")
	if !strings.Contains(string(e.Def.Params), "age_seconds") {
		t.Fatal("no age_seconds parameter")
	}
	args := argsOf("token", f.c.DAI, "price", "0.99", "age_seconds", 7200)
	if _, ok := any(f.dev).(interface {
		SetFeedRound(context.Context, common.Address, *big.Int, time.Time) error
	}); !ok {
		if _, _, err := f.plan(t, "testnet_set_price", args); err == nil {
			t.Error("a back-dated price was planned on a dev chain that cannot back-date")
		}
		t.Skip("the dev chain cannot back-date prices")
	}
	var sp struct {
		PriceUSD float64 `json:"price_usd"`
		Stale    bool    `json:"stale"`
	}
	f.commit(t, "testnet_set_price", args, &sp)
	if sp.PriceUSD != 0.99 || !sp.Stale {
		t.Errorf("back-dated DAI price = %+v, want 0.99 and stale", sp)
	}
	f.commit(t, "testnet_set_price", argsOf("token", f.c.DAI, "price", "1"), &sp)
	if sp.Stale {
		t.Error("DAI still stale after a fresh update")
	}
}

// TestApprovalCarriesSupply: an approval's plan declares its grant with the
// token's total supply read from the chain, once, so that the policy's
// unlimited-approval rule can read an allowance of the whole supply as the
// unlimited one it is.
func TestApprovalCarriesSupply(t *testing.T) {
	f := base(t)
	supply := f.supply(t, f.c.DAI)
	p, _, err := f.plan(t, "erc20_approve_token", argsOf("token", f.c.DAI, "spender", f.c.UniswapV2Router, "amount", supply))
	if err != nil {
		t.Fatal(err)
	}
	gs := p.AllGrants()
	if len(gs) != 1 || gs[0].Supply == nil || gs[0].Supply.Cmp(supply) != 0 || gs[0].Amount.Cmp(supply) != 0 {
		t.Fatalf("grants %+v, want one of the whole supply %s carrying it", gs, supply)
	}
}

func (f *baseFixture) supply(t *testing.T, tok common.Address) *big.Int {
	t.Helper()
	out, err := f.dev.Provider().Call(t.Context(), ethereum.CallMsg{To: &tok, Data: common.FromHex("0x18160ddd")})
	if err != nil || len(out) != 32 {
		t.Fatalf("totalSupply of %s: %x %v", tok.Hex(), out, err)
	}
	return new(big.Int).SetBytes(out)
}
