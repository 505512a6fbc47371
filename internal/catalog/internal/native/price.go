package native

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/chain"
)

// Price is a USD price from a Chainlink-style feed.
type Price struct {
	Feed      common.Address `json:"feed"`
	Answer    *big.Int       `json:"answer"`
	Decimals  uint8          `json:"decimals"`
	UpdatedAt time.Time      `json:"updated_at"`
	Stale     bool           `json:"stale"`
	USD       float64        `json:"usd"`
	// RoundID and AnsweredInRound are the latest round's ids; StartedAt
	// its start.
	RoundID         *big.Int  `json:"round_id"`
	AnsweredInRound *big.Int  `json:"answered_in_round"`
	StartedAt       time.Time `json:"started_at"`
	// Age is how old the answer is at the reference time (the later of
	// the clock and the latest block's timestamp); StaleReasons say why
	// Stale is set.
	Age          time.Duration `json:"age"`
	StaleReasons []string      `json:"stale_reasons,omitempty"`
}

// errUnpriced is returned for a token without a feed.
var ErrUnpriced = errors.New("no price feed for this token")

// token returns what the catalogue knows about addr; native ETH is the
// zero address.
func (e *Env) Token(addr common.Address) (Token, bool) {
	if addr == (common.Address{}) {
		return Token{Symbol: "ETH", Decimals: 18, Feed: e.Venues.ETHFeed}, true
	}
	for _, t := range e.Tokens {
		if t.Address == addr {
			return t, true
		}
	}
	if addr == e.Venues.WETH && e.Venues.WETH != (common.Address{}) {
		return Token{Address: addr, Symbol: "WETH", Decimals: 18, Feed: e.Venues.ETHFeed}, true
	}
	return Token{}, false
}

// feedPrice reads a feed's latest round.
func FeedPrice(ctx context.Context, env *Env, feed common.Address) (Price, error) {
	return FeedRound(ctx, env, feed, nil)
}

// feedRound reads round id of a feed (nil: the latest round). The price
// is stale when it is older than the maximum feed age, is not positive,
// was carried over from an earlier round (answeredInRound < roundId), or
// claims to be from the future.
func FeedRound(ctx context.Context, env *Env, feed common.Address, id *big.Int) (Price, error) {
	return feedRoundAt(ctx, env, feed, id, nil)
}

// feedRoundAt is FeedRound at block number (nil: the latest block).
func feedRoundAt(ctx context.Context, env *Env, feed common.Address, id, number *big.Int) (Price, error) {
	a := chain.AggregatorV3ABI()
	dec, err := CallAt(ctx, env.Chain, a, feed, number, "decimals")
	if err != nil {
		return Price{}, err
	}
	var round []any
	if id == nil {
		round, err = CallAt(ctx, env.Chain, a, feed, number, "latestRoundData")
	} else {
		round, err = CallAt(ctx, env.Chain, a, feed, number, "getRoundData", id)
	}
	if err != nil {
		return Price{}, err
	}
	p := Price{Feed: feed, Decimals: dec[0].(uint8), Answer: round[1].(*big.Int),
		RoundID: round[0].(*big.Int), AnsweredInRound: round[4].(*big.Int)}
	p.StartedAt = unixTime(round[2].(*big.Int))
	p.UpdatedAt = unixTime(round[3].(*big.Int))
	ref := refTime(ctx, env)
	p.Age = ref.Sub(p.UpdatedAt)
	switch {
	case round[3].(*big.Int).Sign() == 0:
		p.StaleReasons = append(p.StaleReasons, "the round has no update time")
	case p.Age > env.FeedMaxAge():
		p.StaleReasons = append(p.StaleReasons, fmt.Sprintf("updated %s ago, more than the %s allowed", p.Age.Round(time.Second), env.FeedMaxAge()))
	case p.Age < -futureSkew:
		p.StaleReasons = append(p.StaleReasons, "the update time is in the future")
	}
	if p.Answer.Sign() <= 0 {
		p.StaleReasons = append(p.StaleReasons, "the answer is not positive")
	}
	if p.AnsweredInRound.Cmp(p.RoundID) < 0 {
		p.StaleReasons = append(p.StaleReasons, "the answer was carried over from an earlier round")
	}
	p.Stale = len(p.StaleReasons) > 0
	f, _ := new(big.Float).Quo(new(big.Float).SetInt(p.Answer), new(big.Float).SetInt(Pow10(int(p.Decimals)))).Float64()
	p.USD = f
	return p, nil
}

// futureSkew is how far in the future a feed's update time may be before
// the price counts as stale (clock skew between ward and the chain).
const futureSkew = 5 * time.Minute

// unixTime converts a uint256 timestamp, saturating absurd values.
func unixTime(v *big.Int) time.Time {
	if !v.IsInt64() || v.Int64() > 1<<40 {
		return time.Unix(1<<40, 0).UTC()
	}
	return time.Unix(v.Int64(), 0).UTC()
}

// UnpricedWhy says why the catalogue cannot value the token at addr in
// USD, and what the operator can configure; "" when it can (see Valuate).
func UnpricedWhy(ctx context.Context, env *Env, addr common.Address) string {
	if v := Valuate(ctx, env, addr); !v.Priced() {
		return v.Why
	}
	return ""
}

// priceOf returns the USD price of a token.
func PriceOf(ctx context.Context, env *Env, addr common.Address) (Price, error) {
	t, ok := env.Token(addr)
	if !ok || t.Feed == (common.Address{}) {
		return Price{}, ErrUnpriced
	}
	return FeedPrice(ctx, env, t.Feed)
}

// ValueCents values amount base units of a token in US cents (rounded
// up), or -1 when Valuate cannot price it (the spending hook then refuses
// the action).
func ValueCents(ctx context.Context, env *Env, addr common.Address, amount *big.Int) int64 {
	c, ok := Valuate(ctx, env, addr).Cents(amount)
	if !ok {
		return -1
	}
	return c
}

// USD is ValueCents in dollars for a result, nil when unpriced.
func USD(ctx context.Context, env *Env, addr common.Address, amount *big.Int) *float64 {
	c := ValueCents(ctx, env, addr, amount)
	if c < 0 {
		return nil
	}
	f := float64(c) / 100
	return &f
}

// usdCents values amount base units of a token with decimals at price p,
// in US cents rounded down; false when p's answer is not positive or the
// value does not fit an int64. It does not look at staleness.
func UsdCents(amount *big.Int, decimals uint8, p Price) (int64, bool) {
	return cents(amount, decimals, p, false)
}

func cents(amount *big.Int, decimals uint8, p Price, up bool) (int64, bool) {
	if p.Answer == nil || p.Answer.Sign() <= 0 || amount == nil || amount.Sign() < 0 {
		return 0, false
	}
	// cents = amount * answer * 100 / 10^(decimals + feed decimals)
	v := new(big.Int).Mul(amount, p.Answer)
	v.Mul(v, big.NewInt(100))
	q, r := new(big.Int).QuoRem(v, Pow10(int(decimals)+int(p.Decimals)), new(big.Int))
	if up && r.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	if !q.IsInt64() {
		return 0, false
	}
	return q.Int64(), true
}

func Pow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }

// FormatCap writes a limit of base units with decimals like FormatUnits,
// and 2^256-1 (the contracts' "no limit") as "unlimited".
func FormatCap(limit *big.Int, decimals uint8) string {
	if limit.Cmp(MaxUint256) == 0 {
		return "unlimited"
	}
	return FormatUnits(limit, decimals)
}

// formatUnits writes amount base units with decimals as a decimal string.
func FormatUnits(amount *big.Int, decimals uint8) string {
	if amount == nil {
		return "0"
	}
	neg := amount.Sign() < 0
	a := new(big.Int).Abs(amount)
	q, r := new(big.Int).QuoRem(a, Pow10(int(decimals)), new(big.Int))
	s := q.String()
	if r.Sign() != 0 {
		frac := fmt.Sprintf("%0*s", int(decimals), r.String())
		for len(frac) > 0 && frac[len(frac)-1] == '0' {
			frac = frac[:len(frac)-1]
		}
		s += "." + frac
	}
	if neg {
		s = "-" + s
	}
	return s
}
