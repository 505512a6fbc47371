package ingest

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/validate/onchain"
)

// devChain starts a dev chain with its contracts deployed, closed when the
// test ends.
func devChain(t testing.TB) (*chain.DevChain, *chain.DevContracts) {
	t.Helper()
	d, err := chain.StartDev(t.Context(), chain.DevConfig{Seed: "ward ingest on-chain tests", AutoCommit: true})
	if err != nil {
		t.Fatalf("start dev chain: %v", err)
	}
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Errorf("close dev chain: %v", err)
		}
	})
	c, err := d.Deploy(t.Context())
	if err != nil {
		t.Fatalf("deploy: %v", err)
	}
	return d, c
}

func headNumber(t testing.TB, p *chain.Provider) uint64 {
	t.Helper()
	h, err := p.HeaderLatest(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return h.Number.Uint64()
}

func onChainVote(t *testing.T, v Validator, content string) (Vote, error) {
	t.Helper()
	e := &knowledge.Entry{ID: "e1", Content: content}
	return v.Validate(t.Context(), &Candidate{Entry: e}, nil)
}

type voteWant uint8

// L3 never passes: a claim that holds is reported in a skipped vote
// (wantPass), a claim without a block that does not hold at the latest
// one too (wantStale), and only a claim false at its block fails.
const (
	wantPass voteWant = iota
	wantFail
	wantSkip
	wantStale
)

func (w voteWant) String() string {
	return [...]string{"skip with verified claims", "decisive fail", "skip", "skip with a stale claim"}[w]
}

func checkVote(t *testing.T, v Vote, err error, w voteWant) {
	t.Helper()
	if err != nil {
		t.Fatalf("error %v, want a %s vote", err, w)
	}
	var got voteWant
	reasons := strings.Join(v.Reasons, "; ")
	switch {
	case v.Pass:
		t.Fatalf("L3 passed (%+v): it may only skip or fail", v)
	case v.Skipped && strings.Contains(reasons, "verified: "):
		got = wantPass
	case v.Skipped && strings.Contains(reasons, "names no block"):
		got = wantStale
	case v.Skipped:
		got = wantSkip
	default:
		got = wantFail
	}
	if got != w || v.Layer != knowledge.LayerOnChain {
		t.Fatalf("vote %s (%+v), want %s from %s", got, v, w, knowledge.LayerOnChain)
	}
	switch w {
	case wantPass, wantStale, wantSkip:
		if v.Score != 0 || v.Decisive {
			t.Errorf("skipped vote with score %v, decisive %v", v.Score, v.Decisive)
		}
	case wantFail:
		if v.Score != 1 || !v.Decisive {
			t.Errorf("failing vote with score %v, decisive %v, want 1 and decisive", v.Score, v.Decisive)
		}
	}
}

func TestOnChain(t *testing.T) {
	d, c := devChain(t)
	ctx := t.Context()
	p := d.Provider()
	wallet := d.WalletAddress()
	supply := new(big.Int).Mul(big.NewInt(1_234_567), big.NewInt(1e18))
	token, err := d.DeployToken(ctx, "Test Token", "TST", 18, supply)
	if err != nil {
		t.Fatal(err)
	}
	v := OnChain(p, onchain.Config{})
	head := headNumber(t, p)

	tests := []struct {
		name, content string
		want          voteWant
		reason        []string // substrings of the failing reason
	}{
		{"feed true", fmt.Sprintf("The ETH/USD feed %s reported 3,000 at block %d.", c.FeedETHUSD, head), wantPass, nil},
		{"feed true in dollars", fmt.Sprintf("As of block #%d the Chainlink aggregator %s answered $3k", head, strings.ToLower(c.FeedETHUSD.Hex())), wantPass, nil},
		{"feed false", fmt.Sprintf("The ETH/USD feed %s reported 2,000 at block %d.", c.FeedETHUSD, head), wantFail,
			[]string{"feed_answer", strings.ToLower(c.FeedETHUSD.Hex()), fmt.Sprint("block ", head), "claimed 2000", "actual 3000"}},
		{"feed within 1 %", fmt.Sprintf("Oracle %s says BTC is at 60,500 USD at block %d", c.FeedBTCUSD, head), wantPass, nil},
		{"feed beyond 1 %", fmt.Sprintf("Oracle %s says BTC is at 61,000 USD at block %d", c.FeedBTCUSD, head), wantFail, []string{"claimed 61000 usd"}},
		{"token balance true", fmt.Sprintf("Wallet %s holds 100,000 of token %s", wallet, c.USDC), wantPass, nil},
		{"token balance raw", fmt.Sprintf("The balance of %s in token %s is 100000000000 base units", wallet, c.USDC), wantPass, nil},
		{"token balance false", fmt.Sprintf("Wallet %s holds 250k of token %s at block %d", wallet, c.DAI, head), wantFail,
			[]string{"token_balance", "actual 10000"}},
		{"total supply true", fmt.Sprintf("The total supply of token %s is 1.234567M at block %d.", token, head), wantPass, nil},
		{"total supply false", fmt.Sprintf("The total supply of token %s is 2M.", token), wantStale, []string{"total_supply", "latest block"}},
		{"reserves true", fmt.Sprintf("The Uniswap V2 pair %s had reserves of 3,000,000 USDC and 1,000 WETH at block %d.", c.UniswapV2PairUSDCWETH, head), wantPass, nil},
		{"reserves true other order", fmt.Sprintf("TVL of pair %s: 1k WETH / 3M USDC", c.UniswapV2PairUSDCWETH), wantPass, nil},
		{"reserves one side", fmt.Sprintf("Pair %s holds 1,000 ETH", c.UniswapV2PairUSDCWETH), wantPass, nil},
		{"reserves false", fmt.Sprintf("The pair %s has reserves of 3,000,000 USDC and 2,000 WETH", c.UniswapV2PairUSDCWETH), wantStale, []string{"reserves"}},
		{"reserves false at a block", fmt.Sprintf("The pair %s has reserves of 3,000,000 USDC and 2,000 WETH at block %d", c.UniswapV2PairUSDCWETH, head), wantFail, []string{"reserves"}},
		{"reserves symbols swapped", fmt.Sprintf("The pair %s has reserves of 3,000,000 WETH and 1,000 USDC at block %d", c.UniswapV2PairUSDCWETH, head), wantFail, nil},
		{"v3 pool balances", fmt.Sprintf("The V3 pool %s holds 3M USDC and 1,000 WETH", c.UniswapV3PoolUSDCWETH), wantPass, nil},
		{"v3 price", fmt.Sprintf("The V3 pool %s price is 3,000 USDC per WETH at block %d", c.UniswapV3PoolUSDCWETH, head), wantPass, nil},
		{"v3 price false", fmt.Sprintf("The V3 pool %s price is 2,000 USDC per WETH at block %d", c.UniswapV3PoolUSDCWETH, head), wantFail, []string{"pool_price"}},
		{"v2 price", fmt.Sprintf("The spot price of the V2 pair %s is 3,000 USDC per WETH", c.UniswapV2PairUSDCWETH), wantPass, nil},
		{"v2 price false", fmt.Sprintf("The spot price of the V2 pair %s is 4,000 USDC per WETH", c.UniswapV2PairUSDCWETH), wantStale, nil},
		{"eth balance true", fmt.Sprintf("Wallet %s held 1,000 ETH at block %d", wallet, head), wantPass, nil},
		{"eth balance false", fmt.Sprintf("Wallet %s held 5 ETH at block %d", wallet, head), wantFail, []string{"eth_balance", "actual 1000 eth"}},
		{"no claim", "Higher utilization increases the borrow rate.", wantSkip, nil},
		{"not a contract", fmt.Sprintf("The ETH/USD feed %s reported 2,000 at block %d.", wallet, head), wantSkip, nil},
		{"method reverts", fmt.Sprintf("The pair %s has reserves of 5 USDC and 7 WETH", c.USDC), wantSkip, nil},
		{"no such method", fmt.Sprintf("The total supply of %s is 5", c.FeedETHUSD), wantSkip, nil},
		{"other chain", fmt.Sprintf("On Base the ETH/USD feed %s reported 2,000.", c.FeedETHUSD), wantSkip, nil},
		{"false after skipped", fmt.Sprintf("Feed %s answered 7 at block %d. Feed %s answered 7 at block %d.", wallet, head, c.FeedETHUSD, head), wantFail, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vote, err := onChainVote(t, v, tc.content)
			checkVote(t, vote, err, tc.want)
			t.Log(vote.Reasons)
			for _, s := range tc.reason {
				if !strings.Contains(strings.Join(vote.Reasons, "; "), s) {
					t.Errorf("reasons %q do not mention %q", vote.Reasons, s)
				}
			}
		})
	}

	t.Run("structured claim", func(t *testing.T) {
		e := &knowledge.Entry{ID: "e2", Content: "A note on the ETH market.",
			Claim: &knowledge.Claim{Subject: "the ETH/USD feed " + c.FeedETHUSD.Hex(), Relation: "reported", Object: "1,500", Conditions: []string{fmt.Sprint("at block ", head)}}}
		vote, err := v.Validate(ctx, &Candidate{Entry: e}, nil)
		checkVote(t, vote, err, wantFail)
	})

	t.Run("future block", func(t *testing.T) {
		_, err := onChainVote(t, v, fmt.Sprintf("The ETH/USD feed %s reported 3,000 at block %d.", c.FeedETHUSD, head+1000))
		if err == nil {
			t.Fatal("a claim about a future block was decided")
		}
	})
}

// A claim at an older block is read at that block: the state changes
// after it, and the claim still holds there (and no longer at the head).
func TestOnChainHistoricalBlock(t *testing.T) {
	d, c := devChain(t)
	ctx := t.Context()
	p := d.Provider()
	wallet := d.WalletAddress()
	old := headNumber(t, p)
	if err := d.SetFeedAnswer(ctx, c.FeedETHUSD, big.NewInt(2_500e8)); err != nil {
		t.Fatal(err)
	}
	if err := d.Fund(ctx, wallet, common.Address{}, new(big.Int).Mul(big.NewInt(500), big.NewInt(1e18))); err != nil {
		t.Fatal(err)
	}
	if now := headNumber(t, p); now <= old {
		t.Fatalf("head %d did not move past %d", now, old)
	}
	v := OnChain(p, onchain.Config{})
	for _, tc := range []struct {
		name, content string
		want          voteWant
	}{
		{"feed then", fmt.Sprintf("The ETH/USD feed %s reported 3,000 at block %d.", c.FeedETHUSD, old), wantPass},
		{"feed now, claimed then", fmt.Sprintf("The ETH/USD feed %s reported 2,500 at block %d.", c.FeedETHUSD, old), wantFail},
		{"feed latest", fmt.Sprintf("The ETH/USD feed %s reports 2,500.", c.FeedETHUSD), wantPass},
		{"feed latest, old value", fmt.Sprintf("The ETH/USD feed %s reports 3,000.", c.FeedETHUSD), wantStale},
		{"feed latest, within 10 %", fmt.Sprintf("The ETH/USD feed %s reports 2,600.", c.FeedETHUSD), wantPass},
		{"balance then", fmt.Sprintf("Wallet %s held 1,000 ETH at block %d", wallet, old), wantPass},
		{"balance now, claimed then", fmt.Sprintf("Wallet %s held 1,500 ETH at block %d", wallet, old), wantFail},
		{"balance latest", fmt.Sprintf("Wallet %s holds 1,500 ETH", wallet), wantPass},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vote, err := onChainVote(t, v, tc.content)
			checkVote(t, vote, err, tc.want)
		})
	}
}
