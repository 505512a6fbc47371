package chain

import (
	"math/big"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/tool"
)

func newSim(t testing.TB, ps ...*Provider) *Simulator {
	t.Helper()
	reg, err := NewProviders(ps...)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSimulator(reg, SimConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// v2SwapPlan is approve + swapExactTokensForTokens of in USDC for WETH.
func v2SwapPlan(t testing.TB, c *DevContracts, me common.Address, in, minOut *big.Int) []tool.Tx {
	path := []common.Address{c.USDC, c.WETH}
	deadline := big.NewInt(time.Now().Add(time.Hour).Unix())
	return []tool.Tx{
		{To: tool.Address(c.USDC), Data: pack(t, ERC20ABI(), "approve", c.UniswapV2Router, in), Label: "approve"},
		{To: tool.Address(c.UniswapV2Router), Data: pack(t, UniswapV2Router02ABI(), "swapExactTokensForTokens", in, minOut, path, me, deadline), Label: "swap"},
	}
}

func TestSimulate(t *testing.T) {
	d, c := startDev(t)
	p, me := d.Provider(), d.WalletAddress()
	s := newSim(t, p)
	from := tool.Address(me)
	eth := tool.Address{}
	usdc, weth := tool.Address(c.USDC), tool.Address(c.WETH)
	watch := []tool.Address{usdc, weth, eth}

	t.Run("transfer", func(t *testing.T) {
		to := common.Address{0x77}
		res, err := s.Simulate(t.Context(), DevChainID, from,
			[]tool.Tx{{To: usdc, Data: pack(t, ERC20ABI(), "transfer", to, units(250, 6))}}, watch)
		if err != nil {
			t.Fatal(err)
		}
		if !res.OK || res.Reverted != -1 || len(res.GasUsed) != 1 || res.GasUsed[0] <= 21_000 || res.TotalGas != res.GasUsed[0] {
			t.Errorf("result = %+v", res)
		}
		wantBig(t, "USDC delta", res.Deltas[0].Delta, units(-250, 6))
		wantBig(t, "USDC before", res.Deltas[0].Before, units(100_000, 6))
		wantBig(t, "WETH delta", res.Deltas[1].Delta, big.NewInt(0))
		wantBig(t, "ETH delta (gas is not charged)", res.Deltas[2].Delta, big.NewInt(0))
		// Nothing happened on chain.
		wantBig(t, "USDC on chain", tokenBalance(t, p, c.USDC, me), units(100_000, 6))
	})

	t.Run("approve then swap in one fork", func(t *testing.T) {
		in := units(3_000, 6)
		quote := view(t, p, c.UniswapV2Router, UniswapV2Router02ABI(), "getAmountsOut", in, []common.Address{c.USDC, c.WETH})[0].([]*big.Int)
		res, err := s.Simulate(t.Context(), DevChainID, from, v2SwapPlan(t, c, me, in, big.NewInt(0)), watch)
		if err != nil {
			t.Fatal(err)
		}
		if !res.OK || len(res.GasUsed) != 2 || res.TotalGas != res.GasUsed[0]+res.GasUsed[1] {
			t.Fatalf("result = %+v", res)
		}
		wantBig(t, "USDC delta", res.Deltas[0].Delta, new(big.Int).Neg(in))
		wantBig(t, "WETH delta", res.Deltas[1].Delta, quote[1])
		amounts, err := UniswapV2Router02ABI().Unpack("swapExactTokensForTokens", res.Outputs[1])
		if err != nil {
			t.Fatal(err)
		}
		wantBig(t, "swap output", amounts[0].([]*big.Int)[1], quote[1])
	})

	t.Run("swap without approve reverts", func(t *testing.T) {
		plan := v2SwapPlan(t, c, me, units(3_000, 6), big.NewInt(0))[1:]
		res, err := s.Simulate(t.Context(), DevChainID, from, plan, watch)
		if err != nil {
			t.Fatal(err)
		}
		if res.OK || res.Reverted != 0 || !strings.Contains(res.RevertReason, "allowance") {
			t.Errorf("result = %+v, want a revert about the allowance", res)
		}
	})

	t.Run("revert reason", func(t *testing.T) {
		plan := v2SwapPlan(t, c, me, units(3_000, 6), units(2, 18))
		res, err := s.Simulate(t.Context(), DevChainID, from, plan, watch)
		if err != nil {
			t.Fatal(err)
		}
		if res.OK || res.Reverted != 1 || res.RevertReason != "UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT" {
			t.Errorf("result = %+v", res)
		}
		if len(res.GasUsed) != 2 || len(res.RevertData) < 4 {
			t.Errorf("gas %v, revert data %x: want both transactions' gas and the data", res.GasUsed, res.RevertData)
		}
		// The approve ran; the failed swap moved nothing.
		wantBig(t, "USDC delta", res.Deltas[0].Delta, big.NewInt(0))
	})

	t.Run("native value", func(t *testing.T) {
		res, err := s.Simulate(t.Context(), DevChainID, from,
			[]tool.Tx{{To: weth, Data: pack(t, WETH9ABI(), "deposit"), Value: ether(2)}}, watch)
		if err != nil {
			t.Fatal(err)
		}
		wantBig(t, "ETH delta", res.Deltas[2].Delta, ether(-2))
		wantBig(t, "WETH delta", res.Deltas[1].Delta, ether(2))
	})

	t.Run("more ETH than the wallet has", func(t *testing.T) {
		res, err := s.Simulate(t.Context(), DevChainID, from, []tool.Tx{{To: tool.Address{0x99}, Value: ether(5_000)}}, watch)
		if err != nil {
			t.Fatal(err)
		}
		if res.OK || res.Reverted != 0 || !strings.Contains(res.RevertReason, "insufficient funds") {
			t.Errorf("result = %+v", res)
		}
	})

	t.Run("could not simulate", func(t *testing.T) {
		tx := []tool.Tx{{To: usdc, Data: pack(t, ERC20ABI(), "transfer", common.Address{1}, big.NewInt(1))}}
		if _, err := s.Simulate(t.Context(), 999, from, tx, watch); err == nil || !strings.Contains(err.Error(), "no provider for chain 999") {
			t.Errorf("unknown chain: err = %v", err)
		}
		if _, err := s.Simulate(t.Context(), DevChainID, from, tx, []tool.Address{{0x42}}); err == nil {
			t.Error("watching an address that is not a token succeeded")
		}
		if _, err := s.Simulate(t.Context(), DevChainID, from, nil, watch); err == nil {
			t.Error("an empty plan simulated")
		}
	})
}

// TestSimulateFollowsChain checks that a simulation after a block sees
// that block's state (the fork cache is per block).
func TestSimulateFollowsChain(t *testing.T) {
	d, c := startDev(t)
	p, w, me := d.Provider(), d.Wallet(), d.WalletAddress()
	s := newSim(t, p)
	to := common.Address{0x55}
	tx := []tool.Tx{{To: tool.Address(c.USDC), Data: pack(t, ERC20ABI(), "transfer", to, units(40_000, 6))}}
	watch := []tool.Address{tool.Address(c.USDC)}
	res, err := s.Simulate(t.Context(), DevChainID, tool.Address(me), tx, watch)
	if err != nil || !res.OK {
		t.Fatalf("first simulation: %+v, %v", res, err)
	}
	args := [32]byte{7}
	for range 2 {
		if _, err := w.Send(t.Context(), capFor("erc20_transfer_token", args), scopeFor("erc20_transfer_token", args), tx); err != nil {
			t.Fatal(err)
		}
	}
	res2, err := s.Simulate(t.Context(), DevChainID, tool.Address(me), tx, watch)
	if err != nil {
		t.Fatal(err)
	}
	if res2.Block <= res.Block {
		t.Errorf("second simulation forked block %d, first %d", res2.Block, res.Block)
	}
	wantBig(t, "USDC before, after two sends", res2.Deltas[0].Before, units(20_000, 6))
	if res2.OK {
		t.Error("a third transfer of 40,000 USDC with 20,000 left succeeded in simulation")
	}
}

// TestSimulateOverHTTP forks the dev chain through a real HTTP endpoint
// and checks that a warm simulation reads nothing from the node.
func TestSimulateOverHTTP(t *testing.T) {
	d, c := startDev(t)
	srv := serveHTTP(t, d)
	p, err := Dial(t.Context(), srv.URL, ProviderConfig{HeaderTTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	s := newSim(t, p)
	me := d.WalletAddress()
	plan := v2SwapPlan(t, c, me, units(1_000, 6), big.NewInt(0))
	watch := []tool.Address{tool.Address(c.USDC), tool.Address(c.WETH)}
	cold, err := s.Simulate(t.Context(), DevChainID, tool.Address(me), plan, watch)
	if err != nil || !cold.OK {
		t.Fatalf("cold: %+v %v", cold, err)
	}
	reads := srv.count("eth_getStorageAt") + srv.count("eth_getCode")
	if reads == 0 {
		t.Fatal("the cold simulation read no state")
	}
	warm, err := s.Simulate(t.Context(), DevChainID, tool.Address(me), plan, watch)
	if err != nil || !warm.OK {
		t.Fatalf("warm: %+v %v", warm, err)
	}
	if again := srv.count("eth_getStorageAt") + srv.count("eth_getCode"); again != reads {
		t.Errorf("warm simulation made %d state reads, want 0", again-reads)
	}
	wantBig(t, "same WETH out", warm.Deltas[1].Delta, cold.Deltas[1].Delta)
}

func TestProviderHeaderCache(t *testing.T) {
	d, _ := startDev(t)
	srv := serveHTTP(t, d)
	p, err := Dial(t.Context(), srv.URL, ProviderConfig{HeaderTTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	h1, err := p.HeaderLatest(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.HeaderLatest(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := srv.count("eth_getBlockByNumber"); n != 1 {
		t.Errorf("two HeaderLatest within the TTL made %d requests, want 1", n)
	}
	// The latest header was also filed by number.
	if _, err := p.HeaderByNumber(t.Context(), h1.Number.Uint64()); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := p.HeaderByNumber(t.Context(), 0); err != nil {
			t.Fatal(err)
		}
	}
	if n := srv.count("eth_getBlockByNumber"); n != 2 {
		t.Errorf("requests = %d, want 2 (latest once, genesis once)", n)
	}
	// A receipt from a newer block drops the cached latest header.
	p.sawBlock(new(big.Int).Add(h1.Number, big.NewInt(1)))
	if _, err := p.HeaderLatest(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := srv.count("eth_getBlockByNumber"); n != 3 {
		t.Errorf("requests = %d, want 3 after a newer block was seen", n)
	}
	p.sawBlock(h1.Number)
	if _, err := p.HeaderLatest(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := srv.count("eth_getBlockByNumber"); n != 3 {
		t.Errorf("requests = %d, want 3: an older block must not drop the cache", n)
	}
}

// BenchmarkSimulateSwapV2 is a full swap preview on the dev chain: build
// the approve + swap calldata, simulate both on a warm fork, diff three
// balances. It reports the median (p50) and p99 latency.
func BenchmarkSimulateSwapV2(b *testing.B) {
	benchSimulate(b, func(b *testing.B, c *DevContracts, me common.Address) []tool.Tx {
		return v2SwapPlan(b, c, me, units(3_000, 6), big.NewInt(0))
	})
}

// BenchmarkSimulateSwapV3 is the same through the V3 SwapRouter.
func BenchmarkSimulateSwapV3(b *testing.B) {
	benchSimulate(b, func(b *testing.B, c *DevContracts, me common.Address) []tool.Tx {
		type params struct {
			TokenIn, TokenOut                                       common.Address
			Fee                                                     *big.Int
			Recipient                                               common.Address
			Deadline, AmountIn, AmountOutMinimum, SqrtPriceLimitX96 *big.Int
		}
		in := units(3_000, 6)
		swap := params{c.USDC, c.WETH, big.NewInt(3000), me, big.NewInt(time.Now().Add(time.Hour).Unix()), in, big.NewInt(0), big.NewInt(0)}
		return []tool.Tx{
			{To: tool.Address(c.USDC), Data: pack(b, ERC20ABI(), "approve", c.UniswapV3SwapRouter, in)},
			{To: tool.Address(c.UniswapV3SwapRouter), Data: pack(b, UniswapV3SwapRouterABI(), "exactInputSingle", swap)},
		}
	})
}

func benchSimulate(b *testing.B, plan func(*testing.B, *DevContracts, common.Address) []tool.Tx) {
	d, c := startDev(b)
	s := newSim(b, d.Provider())
	me := d.WalletAddress()
	watch := []tool.Address{tool.Address(c.USDC), tool.Address(c.WETH), {}}
	if res, err := s.Simulate(b.Context(), DevChainID, tool.Address(me), plan(b, c, me), watch); err != nil || !res.OK {
		b.Fatalf("warm-up: %+v %v", res, err)
	}
	var lat []time.Duration
	for b.Loop() {
		t0 := time.Now()
		res, err := s.Simulate(b.Context(), DevChainID, tool.Address(me), plan(b, c, me), watch)
		lat = append(lat, time.Since(t0))
		if err != nil || !res.OK {
			b.Fatalf("%+v %v", res, err)
		}
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkSimulateSwapV2Cold is the first preview at a new block: a new
// fork reads every account and slot the swap touches from the node (here
// in-process; over a network each read is a round trip).
func BenchmarkSimulateSwapV2Cold(b *testing.B) {
	d, c := startDev(b)
	me := d.WalletAddress()
	watch := []tool.Address{tool.Address(c.USDC), tool.Address(c.WETH), {}}
	plan := v2SwapPlan(b, c, me, units(3_000, 6), big.NewInt(0))
	for b.Loop() {
		s := newSim(b, d.Provider())
		if res, err := s.Simulate(b.Context(), DevChainID, tool.Address(me), plan, watch); err != nil || !res.OK {
			b.Fatalf("%+v %v", res, err)
		}
	}
}

// BenchmarkSimulateSwapV2ColdHTTP is a cold preview over real HTTP; it
// reports the round trips one needs (each costs the network's latency on
// a remote node).
func BenchmarkSimulateSwapV2ColdHTTP(b *testing.B) {
	d, c := startDev(b)
	srv := serveHTTP(b, d)
	p, err := Dial(b.Context(), srv.URL, ProviderConfig{HeaderTTL: time.Hour})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	if _, err := p.HeaderLatest(b.Context()); err != nil {
		b.Fatal(err)
	}
	me := d.WalletAddress()
	watch := []tool.Address{tool.Address(c.USDC), tool.Address(c.WETH), {}}
	plan := v2SwapPlan(b, c, me, units(3_000, 6), big.NewInt(0))
	start := srv.roundTrips()
	for b.Loop() {
		s := newSim(b, p)
		if res, err := s.Simulate(b.Context(), DevChainID, tool.Address(me), plan, watch); err != nil || !res.OK {
			b.Fatalf("%+v %v", res, err)
		}
	}
	b.ReportMetric(float64(srv.roundTrips()-start)/float64(b.N), "round-trips/op")
}
