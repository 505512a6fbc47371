package upstream_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/capability/mint"
	"github.com/wardhq/ward/internal/catalog"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// agent is the catalogue's side of the world: ward's provider, the agent's wallet and the
// tools, configured with the published contracts as venues.
type agent struct {
	addr   common.Address
	signer *chain.LocalSigner
	env    *catalog.Env
	reg    *registry.Registry
	permit atomic.Uint64
}

// connect builds the catalogue's Env over the world, as the daemon would for a real chain.
func (w *world) connect(ctx context.Context) (*agent, error) {
	p, err := chain.NewProvider(ctx, w.n.rpc, chain.ProviderConfig{ChainID: w.n.chainID.Uint64(), PollMax: 10 * time.Millisecond, Attempts: 1})
	if err != nil {
		return nil, err
	}
	s, err := chain.NewLocalSigner(fmt.Sprintf("%x", agentKey.D.FillBytes(make([]byte, 32))))
	if err != nil {
		return nil, err
	}
	wallet, err := chain.NewWallet(s, p, chain.WalletConfig{})
	if err != nil {
		return nil, err
	}
	ps, err := chain.NewProviders(p)
	if err != nil {
		return nil, err
	}
	sim, err := chain.NewSimulator(ps, chain.SimConfig{})
	if err != nil {
		return nil, err
	}
	env := &catalog.Env{
		Chain: p, Wallet: wallet, Sim: sim,
		Tokens: []catalog.Token{
			{Address: w.weth, Symbol: "WETH", Decimals: 18, Feed: w.ethFeed},
			{Address: w.usdc, Symbol: "USDC", Decimals: 6, Feed: w.usdcFeed},
			{Address: w.dai, Symbol: "DAI", Decimals: 18, Feed: w.daiFeed},
		},
		Venues: catalog.Venues{
			WETH:             w.weth,
			UniswapV2Factory: w.v2Factory,
			UniswapV2Router:  w.v2Router,
			UniswapV3Factory: w.v3Factory,
			UniswapV3Router:  w.v3Router,
			AavePool:         w.aavePool,
			ETHFeed:          w.ethFeed,
		},
	}
	reg := registry.New()
	if err := catalog.Register(reg, env); err != nil {
		return nil, fmt.Errorf("register the catalogue: %w", err)
	}
	reg.Freeze()
	return &agent{addr: wallet.Address(), signer: s, env: env, reg: reg}, nil
}

// input validates raw against the tool's schema and wraps it as the gate would.
func (a *agent) input(t *testing.T, name string, args any) (*registry.Entry, *registry.Input) {
	t.Helper()
	e, ok := a.reg.Get(name)
	if !ok {
		t.Fatalf("tool %s is not registered", name)
	}
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(raw); err != nil {
		t.Fatalf("%s: arguments %s rejected by the schema: %v", name, raw, err)
	}
	parsed, err := tool.ParseArgs(raw)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return e, &registry.Input{Args: parsed, Raw: raw, SessionID: "upstream", Tick: 1, Now: time.Now(), Step: func(int) {}}
}

// read runs a read tool and decodes its result data into out.
func (a *agent) read(t *testing.T, name string, args, out any) {
	t.Helper()
	e, in := a.input(t, name, args)
	if e.Read == nil {
		t.Fatalf("%s is not a read tool", name)
	}
	res, err := e.Read(t.Context(), in)
	if err != nil {
		t.Fatalf("%s(%s): %v", name, in.Raw, err)
	}
	decode(t, name, res, out)
}

// write plans a write, mints the capability the gate would mint for exactly this call, and
// runs the write handler. It returns the plan and decodes the result into out.
func (a *agent) write(t *testing.T, name string, args, out any) *tool.Plan {
	t.Helper()
	e, in := a.input(t, name, args)
	if e.Plan == nil || e.Write == nil {
		t.Fatalf("%s is not a write tool", name)
	}
	plan, err := e.Plan(t.Context(), in)
	if err != nil {
		t.Fatalf("%s(%s): plan: %v", name, in.Raw, err)
	}
	c := mint.Capability(mint.Fields{
		PermitID: fmt.Sprintf("upstream-%d", a.permit.Add(1)), Tool: name, ArgsHash: in.Args.Hash(),
		ValueCents: plan.ValueCents, ExpiresAt: time.Now().Add(time.Minute), ExpiryTick: in.Tick + 1,
	})
	res, err := e.Write(t.Context(), in, plan, c)
	if err != nil {
		t.Fatalf("%s(%s): execute %q: %v", name, in.Raw, plan.Summary, err)
	}
	decode(t, name, res, out)
	return plan
}

func decode(t *testing.T, name string, res *tool.Result, out any) {
	t.Helper()
	if res == nil {
		t.Fatalf("%s: nil result", name)
	}
	if res.IsError {
		t.Fatalf("%s: error result %s", name, res.Data)
	}
	if err := json.Unmarshal(res.Data, out); err != nil {
		t.Fatalf("%s: decode %s: %v", name, res.Data, err)
	}
	if testing.Verbose() {
		t.Logf("%s -> %s", name, truncate(string(res.Data), 600))
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// writeResult is the part of every write tool's result the tests check.
type writeResult struct {
	Summary  string            `json:"summary"`
	TxHashes []string          `json:"tx_hashes"`
	Deltas   map[string]string `json:"balance_deltas"`
	Verified bool              `json:"verified"`
}

// delta returns the measured change of the wallet's balance of tok (zero: native ETH).
func (r writeResult) delta(t *testing.T, tok common.Address) *big.Int {
	t.Helper()
	for k, v := range r.Deltas {
		if strings.EqualFold(k, tok.Hex()) {
			d, ok := new(big.Int).SetString(v, 10)
			if !ok {
				t.Fatalf("balance delta %q of %s is not an integer", v, k)
			}
			return d
		}
	}
	t.Fatalf("no balance delta for %s in %v", tok.Hex(), r.Deltas)
	return nil
}

// amount is the tools' {raw, formatted} amount.
type amount struct {
	Raw       string `json:"raw"`
	Formatted string `json:"formatted"`
}

func (a amount) big(t *testing.T) *big.Int {
	t.Helper()
	v, ok := new(big.Int).SetString(a.Raw, 10)
	if !ok {
		t.Fatalf("amount %q is not an integer", a.Raw)
	}
	return v
}

// balance reads tok's balance of owner with the operator's client (not through the tools).
func (w *world) balance(t *testing.T, tok, owner common.Address) *big.Int {
	t.Helper()
	v := w.n.callBig(t.Context(), artERC20, tok, "balanceOf", owner)
	if err := w.n.take(); err != nil {
		t.Fatal(err)
	}
	return v
}

// within reports whether got is within tolerance bps of want.
func within(got, want *big.Int, bps int64) bool {
	diff := new(big.Int).Abs(new(big.Int).Sub(got, want))
	return new(big.Int).Mul(diff, big.NewInt(10_000)).Cmp(new(big.Int).Mul(new(big.Int).Abs(want), big.NewInt(bps))) <= 0
}
