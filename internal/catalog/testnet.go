package catalog

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/capability"
	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// The testnet tools change the dev chain's world: fund the wallet, move a
// price feed, advance the clock. They exist only when Env.Dev is set.
// They are writes like any other (previewed, gated, capability consumed)
// but the wallet sends nothing: the dev chain's operator account, which
// owns the dev tokens and feeds, acts. Their plans therefore carry no
// transactions, name what arrives in the wallet, and are worth nothing to
// the spending limits (the wallet spends nothing). Their Effect is open,
// the most restricted one, so no wind-down phase allows them.

// devFunder is the dev chain's funding of an account by its operator
// (optional: testnet_fund_wallet is registered only when the dev chain
// offers it). token is the zero address for native ETH.
type devFunder interface {
	Fund(ctx context.Context, to, token common.Address, amount *big.Int) error
}

// canFund reports whether env's dev chain can fund accounts.
func canFund(env *Env) bool {
	_, ok := any(env.Dev).(devFunder)
	return ok
}

// devRoundSetter publishes a feed answer with an explicit update time in
// the past (optional: without it testnet_set_price cannot back-date).
type devRoundSetter interface {
	SetFeedRound(ctx context.Context, feed common.Address, answer *big.Int, updatedAt time.Time) error
}

var fundWallet = native.WriteTool{
	Name: "testnet_fund_wallet",
	Description: "On ward's local dev chain only: give the agent's wallet an amount of a dev token (USDC, DAI, WBTC, WETH) or of native " +
		"ETH, paid by the dev chain's operator. Use it to set up a test or demo scenario. The wallet spends nothing. Does not exist on a " +
		"real network, and cannot fund any other address or token.",
	Category: tool.CatTestnet, Risk: tool.Layer2, Effect: tool.EffectOpen,
	Steps:    []string{"Funding from the operator", "Confirming the balance"},
	Snippet:  "testnet_fund_wallet gives the wallet dev tokens or ETH on the dev chain.",
	Required: []string{"amount"},
	Params: []string{
		native.PAddress("token", "The dev token; omit for native ETH"),
		native.PAmount("amount", "How much, in base units")},
	Action: "fund", Venue: "testnet",
	Dev: true, When: canFund,
	Plan: planFund, Execute: execFund,
}

// devTokens returns the dev chain's tokens, WETH included.
func devTokens(env *Env) []Token {
	var out []Token
	for _, t := range env.Dev.Tokens() {
		out = append(out, Token{Address: t.Address, Symbol: t.Symbol, Decimals: t.Decimals, Feed: t.Feed})
	}
	return out
}

func devToken(env *Env, addr common.Address) (Token, bool) {
	if addr == (common.Address{}) {
		return Token{Symbol: "ETH", Decimals: 18}, true
	}
	for _, t := range devTokens(env) {
		if t.Address == addr {
			return t, true
		}
	}
	return Token{}, false
}

// maxFund bounds one funding: 10^12 whole tokens.
func maxFund(decimals uint8) *big.Int { return native.Pow10(int(decimals) + 12) }

func fundArgs(env *Env, in *registry.Input) (common.Address, Token, *big.Int, error) {
	if err := native.CheckChain(env, in); err != nil {
		return common.Address{}, Token{}, nil, err
	}
	tok, err := native.ArgAddressOr(in, "token", common.Address{})
	if err != nil {
		return common.Address{}, Token{}, nil, err
	}
	t, ok := devToken(env, tok)
	if !ok {
		return common.Address{}, Token{}, nil, fmt.Errorf("%s is not a dev chain token: only the dev tokens and ETH can be funded", tok.Hex())
	}
	amount, err := native.ArgAmount(in, "amount")
	if err != nil {
		return common.Address{}, Token{}, nil, err
	}
	if amount.Sign() == 0 || amount.Cmp(maxFund(t.Decimals)) > 0 {
		return common.Address{}, Token{}, nil, errors.New("amount must be positive and at most 10^12 whole tokens")
	}
	return tok, t, amount, nil
}

func planFund(ctx context.Context, env *Env, in *registry.Input) (*tool.Plan, error) {
	tok, t, amount, err := fundArgs(env, in)
	if err != nil {
		return nil, err
	}
	return &tool.Plan{
		Chain: env.Chain.ChainID(), From: tool.Address(env.Wallet.Address()), Txs: []tool.Tx{},
		Tokens:     []tool.TokenUse{{Token: tool.Address(tok), Decimals: -1, Amount: amount}},
		ValueCents: 0,
		Summary:    fmt.Sprintf("dev chain: the operator gives the wallet %s %s", native.FormatUnits(amount, t.Decimals), t.Symbol),
	}, nil
}

type fundOut struct {
	Token     string `json:"token"`
	Symbol    string `json:"symbol"`
	Amount    string `json:"amount"`
	Before    string `json:"balance_before"`
	After     string `json:"balance_after"`
	Formatted string `json:"balance_after_formatted"`
}

func execFund(env *Env, d *tool.Def) registry.WriteHandler {
	return func(ctx context.Context, in *registry.Input, plan *tool.Plan, c *capability.Capability) (*tool.Result, error) {
		f, ok := any(env.Dev).(devFunder)
		if !ok {
			return nil, errors.New("this dev chain cannot fund accounts")
		}
		tok, t, amount, err := fundArgs(env, in)
		if err != nil {
			return nil, err
		}
		owner := env.Wallet.Address()
		before, err := native.Balances(ctx, env.Chain, owner, []common.Address{tok})
		if err != nil {
			return nil, err
		}
		if err := c.Consume(d.Name, in.Args.Hash(), in.Tick, in.Now); err != nil {
			return nil, fmt.Errorf("fund wallet: %w", err)
		}
		in.Step(0)
		if err := f.Fund(ctx, owner, tok, amount); err != nil {
			return nil, fmt.Errorf("fund wallet: %w", err)
		}
		in.Step(1)
		after, err := native.Balances(ctx, env.Chain, owner, []common.Address{tok})
		if err != nil {
			return nil, err
		}
		got := new(big.Int).Sub(after[0], before[0])
		expected := fmt.Sprintf("%s +%s", t.Symbol, amount)
		return tool.WriteResult(d, fundOut{Token: tok.Hex(), Symbol: t.Symbol, Amount: amount.String(), Before: before[0].String(),
			After: after[0].String(), Formatted: native.FormatUnits(after[0], t.Decimals)},
			expected, fmt.Sprintf("%s +%s", t.Symbol, got), "balance_check")
	}
}

var setPrice = native.WriteTool{
	Name: "testnet_set_price",
	Description: "On ward's local dev chain only: publish a new USD price on one of the dev chain's Chainlink-style feeds (give the feed, " +
		"or a dev token whose feed to move), optionally back-dated by age_seconds so that it reads as stale. Everything that prices from " +
		"the feed sees it at once: the lending pool's health factors (a price drop can make a position liquidatable), portfolio values, " +
		"spending limits. Use it to stage market scenarios in tests and demos. Does not move DEX pool prices, and does not exist on a " +
		"real network.",
	Category: tool.CatTestnet, Risk: tool.Layer2, Effect: tool.EffectOpen,
	Steps:    []string{"Publishing the answer", "Reading the feed back"},
	Snippet:  "testnet_set_price moves a dev chain price feed.",
	Required: []string{"price"},
	Params: []string{
		native.PAddress("feed", "The dev price feed; or give token"),
		native.PAddress("token", "A dev token whose feed to move; or give feed"),
		native.PDecimal("price", "The new price in USD"),
		native.PInt("age_seconds", "Back-date the new round by this many seconds before the latest block (default 0: now)", 0, 365*24*3600)},
	Action: "set_price", Venue: "testnet",
	Dev:  true,
	Plan: planSetPrice, Execute: execSetPrice,
}

// devFeeds returns the dev chain's feeds by address, with the symbol of
// the token each prices.
func devFeeds(env *Env) map[common.Address]string {
	out := map[common.Address]string{}
	for _, t := range devTokens(env) {
		if t.Feed != (common.Address{}) {
			out[t.Feed] = t.Symbol
		}
	}
	return out
}

type setPriceArgs struct {
	feed   common.Address
	symbol string
	answer *big.Int
	age    int64
	dec    uint8
}

func readSetPrice(ctx context.Context, env *Env, in *registry.Input) (setPriceArgs, error) {
	var a setPriceArgs
	if err := native.CheckChain(env, in); err != nil {
		return a, err
	}
	_, hasFeed := in.Args.Get("feed")
	_, hasToken := in.Args.Get("token")
	if hasFeed == hasToken {
		return a, errors.New("give feed or token, exactly one")
	}
	feeds := devFeeds(env)
	if hasFeed {
		f, err := native.ArgAddress(in, "feed")
		if err != nil {
			return a, err
		}
		a.feed, a.symbol = f, feeds[f]
	} else {
		tok, err := native.ArgAddress(in, "token")
		if err != nil {
			return a, err
		}
		t, ok := devToken(env, tok)
		if !ok || tok == (common.Address{}) {
			return a, fmt.Errorf("%s is not a dev chain token", tok.Hex())
		}
		a.feed, a.symbol = t.Feed, t.Symbol
	}
	if _, ok := feeds[a.feed]; !ok {
		return a, fmt.Errorf("%s is not one of the dev chain's price feeds", a.feed.Hex())
	}
	dec, err := native.Call(ctx, env.Chain, chain.AggregatorV3ABI(), a.feed, "decimals")
	if err != nil {
		return a, err
	}
	a.dec = dec[0].(uint8)
	p, ok := ratDecimal(native.ArgString(in, "price", ""))
	if !ok || p.Sign() <= 0 {
		return a, errors.New("price must be a positive decimal number")
	}
	scaled := new(big.Rat).Mul(p, new(big.Rat).SetInt(native.Pow10(int(a.dec))))
	a.answer = new(big.Int).Quo(scaled.Num(), scaled.Denom())
	if a.answer.Sign() == 0 {
		return a, fmt.Errorf("price is below the feed's precision (%d decimals)", a.dec)
	}
	a.age = native.ArgInt(in, "age_seconds", 0)
	if a.age > 0 {
		if _, ok := any(env.Dev).(devRoundSetter); !ok {
			return a, errors.New("this dev chain cannot back-date a price: omit age_seconds")
		}
	}
	return a, nil
}

func planSetPrice(ctx context.Context, env *Env, in *registry.Input) (*tool.Plan, error) {
	a, err := readSetPrice(ctx, env, in)
	if err != nil {
		return nil, err
	}
	old := "unknown"
	if p, err := native.FeedPrice(ctx, env, a.feed); err == nil {
		old = native.FormatUnits(p.Answer, p.Decimals)
	}
	when := "now"
	if a.age > 0 {
		when = fmt.Sprintf("%d seconds ago", a.age)
	}
	return &tool.Plan{
		Chain: env.Chain.ChainID(), From: tool.Address(env.Wallet.Address()), Txs: []tool.Tx{}, ValueCents: 0,
		Summary: fmt.Sprintf("dev chain: move the %s/USD feed %s from %s to %s USD, updated %s",
			a.symbol, a.feed.Hex(), old, native.FormatUnits(a.answer, a.dec), when),
	}, nil
}

type setPriceOut struct {
	Feed      string    `json:"feed"`
	Symbol    string    `json:"symbol"`
	Answer    string    `json:"answer"`
	PriceUSD  float64   `json:"price_usd"`
	RoundID   string    `json:"round_id"`
	UpdatedAt time.Time `json:"updated_at"`
	Stale     bool      `json:"stale"`
}

func execSetPrice(env *Env, d *tool.Def) registry.WriteHandler {
	return func(ctx context.Context, in *registry.Input, plan *tool.Plan, c *capability.Capability) (*tool.Result, error) {
		a, err := readSetPrice(ctx, env, in)
		if err != nil {
			return nil, err
		}
		var at time.Time
		if a.age > 0 {
			h, err := native.Head(ctx, env)
			if err != nil {
				return nil, err
			}
			at = time.Unix(int64(h.Time)-a.age, 0)
		}
		if err := c.Consume(d.Name, in.Args.Hash(), in.Tick, in.Now); err != nil {
			return nil, fmt.Errorf("set price: %w", err)
		}
		in.Step(0)
		if a.age > 0 {
			err = any(env.Dev).(devRoundSetter).SetFeedRound(ctx, a.feed, a.answer, at)
		} else {
			err = env.Dev.SetFeedAnswer(ctx, a.feed, a.answer)
		}
		if err != nil {
			return nil, fmt.Errorf("set price: %w", err)
		}
		in.Step(1)
		p, err := native.FeedPrice(ctx, env, a.feed)
		if err != nil {
			return nil, err
		}
		return tool.WriteResult(d, setPriceOut{Feed: a.feed.Hex(), Symbol: a.symbol, Answer: p.Answer.String(), PriceUSD: p.USD,
			RoundID: p.RoundID.String(), UpdatedAt: p.UpdatedAt, Stale: p.Stale},
			"answer "+a.answer.String(), "answer "+p.Answer.String(), "latestRoundData()")
	}
}

var advanceTime = native.WriteTool{
	Name: "testnet_advance_time",
	Description: "On ward's local dev chain only: mine an empty block a number of seconds after the latest one, moving the chain's clock " +
		"forward. Interest accrues, deadlines pass and price feeds age (they turn stale once older than ward's maximum feed age) as they " +
		"would over that time. Use it to stage time-dependent scenarios in tests and demos. Time cannot go backwards. Fails while " +
		"transactions are pending. Does not exist on a real network.",
	Category: tool.CatTestnet, Risk: tool.Layer2, Effect: tool.EffectOpen,
	Steps:    []string{"Mining a later block"},
	Snippet:  "testnet_advance_time moves the dev chain's clock forward.",
	Required: []string{"seconds"},
	Params: []string{
		native.PInt("seconds", "How far to move the clock, in seconds (at most 365 days)", 1, 365*24*3600)},
	Action: "advance_time", Venue: "testnet",
	Dev:  true,
	Plan: planAdvanceTime, Execute: execAdvanceTime,
}

func planAdvanceTime(ctx context.Context, env *Env, in *registry.Input) (*tool.Plan, error) {
	s := native.ArgInt(in, "seconds", 0)
	if s <= 0 {
		return nil, errors.New("seconds must be positive")
	}
	return &tool.Plan{
		Chain: env.Chain.ChainID(), From: tool.Address(env.Wallet.Address()), Txs: []tool.Tx{}, ValueCents: 0,
		Summary: fmt.Sprintf("dev chain: mine an empty block %s after the latest one", time.Duration(s)*time.Second),
	}, nil
}

type advanceOut struct {
	BlockBefore uint64    `json:"block_before"`
	TimeBefore  time.Time `json:"time_before"`
	BlockAfter  uint64    `json:"block_after"`
	TimeAfter   time.Time `json:"time_after"`
	Advanced    int64     `json:"advanced_seconds"`
}

func execAdvanceTime(env *Env, d *tool.Def) registry.WriteHandler {
	return func(ctx context.Context, in *registry.Input, plan *tool.Plan, c *capability.Capability) (*tool.Result, error) {
		if err := native.CheckChain(env, in); err != nil {
			return nil, err
		}
		s := native.ArgInt(in, "seconds", 0)
		if s <= 0 {
			return nil, errors.New("seconds must be positive")
		}
		h0, err := native.Head(ctx, env)
		if err != nil {
			return nil, err
		}
		if err := c.Consume(d.Name, in.Args.Hash(), in.Tick, in.Now); err != nil {
			return nil, fmt.Errorf("advance time: %w", err)
		}
		in.Step(0)
		if err := env.Dev.AdjustTime(time.Duration(s) * time.Second); err != nil {
			return nil, fmt.Errorf("advance time: %w", err)
		}
		h1, err := native.Head(ctx, env)
		if err != nil {
			return nil, err
		}
		// The block the adjustment sealed is measured against its parent,
		// not against h0, which the provider may have served from its
		// header cache a block late.
		if n := h1.Number.Uint64(); n > 0 {
			if p, err := env.Chain.HeaderByNumber(ctx, n-1); err == nil {
				h0 = p
			}
		}
		out := advanceOut{BlockBefore: h0.Number.Uint64(), TimeBefore: time.Unix(int64(h0.Time), 0).UTC(),
			BlockAfter: h1.Number.Uint64(), TimeAfter: time.Unix(int64(h1.Time), 0).UTC(), Advanced: int64(h1.Time) - int64(h0.Time)}
		return tool.WriteResult(d, out, fmt.Sprintf("clock +%ds", s), fmt.Sprintf("clock +%ds", out.Advanced), "latest block header")
	}
}
