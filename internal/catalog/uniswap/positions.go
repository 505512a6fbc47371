package uniswap

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// V3 positions through the NonfungiblePositionManager (NPM): each
// position is an ERC-721 token of the NPM, which holds the liquidity in
// the pool. The tools use only the configured NPM (Venues), never one a
// call names: approvals go to it. Every write on a token id first checks
// that the agent's wallet owns it, in the plan and again just before
// sending, because the NPM lets anyone add liquidity to any position.

// ErrNotPositionOwner is a write on a position the agent's wallet does not
// own.
var ErrNotPositionOwner = errors.New("the position is not owned by the agent's wallet")

// ErrBadRange is a tick range that is inverted, empty, out of bounds or
// off the pool's tick spacing.
var ErrBadRange = errors.New("invalid tick range")

// maxListedPositions bounds how many positions one list reads (each costs
// several calls).
const maxListedPositions = 50

// hasNPM reports whether the environment names a NonfungiblePositionManager.
func hasNPM(env *native.Env) bool {
	return env.Venues.UniswapV3PositionManager != (common.Address{})
}

func npmOf(env *native.Env) (common.Address, error) {
	if !hasNPM(env) {
		return common.Address{}, errors.New("no Uniswap V3 NonfungiblePositionManager is configured for this chain (address book role uniswap_v3_position_manager)")
	}
	return env.Venues.UniswapV3PositionManager, nil
}

// npmFactory returns the factory the NPM finds pools in; it refuses an NPM
// whose factory is not the configured one.
func npmFactory(ctx context.Context, env *native.Env, npm common.Address) (common.Address, error) {
	f, err := native.CallAddress(ctx, env, chain.UniswapV3PositionManagerABI(), npm, "factory")
	if err != nil {
		return f, fmt.Errorf("%s is not a Uniswap V3 NonfungiblePositionManager: %w", npm.Hex(), err)
	}
	if f == (common.Address{}) {
		return f, fmt.Errorf("position manager %s names no factory", npm.Hex())
	}
	if cf := env.Venues.UniswapV3Factory; cf != (common.Address{}) && cf != f {
		return f, fmt.Errorf("position manager %s belongs to factory %s, not the configured %s", npm.Hex(), f.Hex(), cf.Hex())
	}
	return f, nil
}

// npmPosition is one NPM position as the NPM stores it.
type npmPosition struct {
	id             *big.Int
	owner          common.Address
	token0, token1 common.Address
	fee            int64
	lo, hi         int64
	liquidity      *big.Int
	owed0, owed1   *big.Int // tokensOwed: fees and freed tokens up to the last update
}

func readNPMPosition(ctx context.Context, env *native.Env, npm common.Address, id *big.Int) (npmPosition, error) {
	a := chain.UniswapV3PositionManagerABI()
	p := npmPosition{id: id}
	owner, err := native.CallAddress(ctx, env, a, npm, "ownerOf", id)
	if err != nil {
		return p, fmt.Errorf("position %s at position manager %s (it may not exist): %w", id, npm.Hex(), err)
	}
	if owner == (common.Address{}) {
		return p, fmt.Errorf("position %s does not exist at position manager %s", id, npm.Hex())
	}
	p.owner = owner
	r, err := native.Call(ctx, env.Chain, a, npm, "positions", id)
	if err != nil {
		return p, fmt.Errorf("position %s: %w", id, err)
	}
	p.token0, p.token1 = r[2].(common.Address), r[3].(common.Address)
	p.fee, p.lo, p.hi = r[4].(*big.Int).Int64(), r[5].(*big.Int).Int64(), r[6].(*big.Int).Int64()
	p.liquidity, p.owed0, p.owed1 = r[7].(*big.Int), r[10].(*big.Int), r[11].(*big.Int)
	if p.lo >= p.hi || p.token0 == p.token1 {
		return p, fmt.Errorf("position %s reports range [%d, %d] over %s and %s", id, p.lo, p.hi, p.token0.Hex(), p.token1.Hex())
	}
	return p, nil
}

// pool reads the position's pool through the NPM's factory and checks it
// is the pool of the position's tokens.
func (p npmPosition) pool(ctx context.Context, env *native.Env, npm common.Address) (v3PoolState, error) {
	factory, err := npmFactory(ctx, env, npm)
	if err != nil {
		return v3PoolState{}, err
	}
	addr, err := v3PoolOf(ctx, env, factory, p.token0, p.token1, p.fee)
	if err != nil {
		return v3PoolState{}, err
	}
	st, err := readV3Pool(ctx, env, addr)
	if err != nil {
		return st, err
	}
	if st.token0 != p.token0 || st.token1 != p.token1 || st.fee != p.fee {
		return st, fmt.Errorf("pool %s does not match position %s", addr.Hex(), p.id)
	}
	return st, nil
}

// ownedPosition reads position id and refuses it unless the wallet owns
// it.
func ownedPosition(ctx context.Context, env *native.Env, npm common.Address, id *big.Int) (npmPosition, error) {
	wallet, err := native.Owner(env)
	if err != nil {
		return npmPosition{}, err
	}
	p, err := readNPMPosition(ctx, env, npm, id)
	if err != nil {
		return p, err
	}
	if p.owner != wallet {
		return p, fmt.Errorf("%w: position %s is owned by %s", ErrNotPositionOwner, id, p.owner.Hex())
	}
	return p, nil
}

// recheckOwner is the Recheck of the writes on a token id: the wallet
// must still own the position when the plan is sent.
func recheckOwner(ctx context.Context, env *native.Env, in *registry.Input) error {
	npm, id, err := positionArg(env, native.ArgsOf(in))
	if err != nil {
		return err
	}
	_, err = ownedPosition(ctx, env, npm, id)
	return err
}

// positionArg is what every write to a position NFT decodes first: the
// position manager, which must be configured, and the token_id argument.
// a goes on to read the write's other arguments.
func positionArg(env *native.Env, a *native.Args) (npm common.Address, id *big.Int, err error) {
	if npm, err = npmOf(env); err != nil {
		return npm, nil, err
	}
	id = a.Amount("token_id")
	return npm, id, a.Err()
}

// collectParams is the NPM's CollectParams.
type collectParams struct {
	TokenId    *big.Int
	Recipient  common.Address
	Amount0Max *big.Int
	Amount1Max *big.Int
}

// collectAll is collect of everything owed on id to recipient.
func collectAll(id *big.Int, recipient common.Address) collectParams {
	return collectParams{TokenId: id, Recipient: recipient, Amount0Max: maxUint128, Amount1Max: maxUint128}
}

// npmFees returns what collect pays position p's owner now: its
// tokensOwed plus the fees accrued since its last update, exactly, by
// simulating collect from the owner (the NPM pokes the pool first).
func npmFees(ctx context.Context, env *native.Env, npm common.Address, p npmPosition) (*big.Int, *big.Int, error) {
	a := chain.UniswapV3PositionManagerABI()
	data, err := a.Pack("collect", collectAll(p.id, p.owner))
	if err != nil {
		return nil, nil, err
	}
	out, err := env.Chain.Call(ctx, ethereum.CallMsg{From: p.owner, To: &npm, Data: data})
	if err != nil {
		return nil, nil, fmt.Errorf("simulate collect of position %s: %w", p.id, err)
	}
	v, err := a.Unpack("collect", out)
	if err != nil {
		return nil, nil, fmt.Errorf("simulate collect of position %s: %w", p.id, err)
	}
	return v[0].(*big.Int), v[1].(*big.Int), nil
}

// tickPrice is the price of one whole token0 in token1 at a tick.
func tickPrice(tick int64, dec0, dec1 uint8) (string, error) {
	s, err := sqrtRatioAtTick(tick)
	if err != nil {
		return "", err
	}
	return native.RatString(priceFromSqrtX96(s, dec0, dec1), 12), nil
}

// floorDiv is a/b rounded towards negative infinity (b > 0).
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// usableTicks are the lowest and highest ticks on spacing.
func usableTicks(spacing int64) (int64, int64) {
	return -floorDiv(maxTick, spacing) * spacing, floorDiv(maxTick, spacing) * spacing
}

// checkRange refuses a tick range that is inverted, empty, out of bounds
// or off spacing.
func checkRange(lo, hi, spacing int64) error {
	minU, maxU := usableTicks(spacing)
	switch {
	case lo >= hi:
		return fmt.Errorf("%w: tick_lower %d must be below tick_upper %d", ErrBadRange, lo, hi)
	case lo%spacing != 0 || hi%spacing != 0:
		return fmt.Errorf("%w: ticks [%d, %d] are not multiples of the pool's tick spacing %d (nearest usable: [%d, %d])",
			ErrBadRange, lo, hi, spacing, snapTick(lo, spacing), snapTick(hi, spacing))
	case lo < minU || hi > maxU:
		return fmt.Errorf("%w: ticks [%d, %d] are outside the usable range [%d, %d]", ErrBadRange, lo, hi, minU, maxU)
	}
	return nil
}

// snapTick is the usable tick on spacing nearest to tick.
func snapTick(tick, spacing int64) int64 {
	t := floorDiv(tick+spacing/2, spacing) * spacing
	minU, maxU := usableTicks(spacing)
	return min(max(t, minU), maxU)
}

// priceTick returns the tick at or below a price of raw token1 base units
// per token0 base unit.
func priceTick(raw *big.Rat) (int64, error) {
	if raw.Sign() <= 0 {
		return 0, errors.New("a price must be greater than 0")
	}
	x := new(big.Int).Lsh(raw.Num(), 192)
	x.Quo(x, raw.Denom())
	sqrtP := x.Sqrt(x)
	if sqrtP.Cmp(minSqrtRatio) < 0 || sqrtP.Cmp(maxSqrtRatio) >= 0 {
		return 0, errors.New("the price is outside what a Uniswap V3 pool can represent")
	}
	return tickAtSqrtRatio(sqrtP)
}

// mintRange reads the range of a new position from tick_lower/tick_upper
// (which must be on the pool's spacing) or price_lower/price_upper (whole
// token_b per token_a, snapped to the nearest usable ticks).
func mintRange(in *registry.Input, st v3PoolState, a native.TokenInfo, m0, m1 native.TokenInfo) (int64, int64, error) {
	args := native.ArgsOf(in)
	ticks := args.Has("tick_lower") || args.Has("tick_upper")
	prices := args.Has("price_lower") || args.Has("price_upper")
	switch {
	case ticks && prices:
		return 0, 0, fmt.Errorf("%w: give the range as tick_lower and tick_upper or as price_lower and price_upper, not both", ErrBadRange)
	case ticks:
		if !args.Has("tick_lower") || !args.Has("tick_upper") {
			return 0, 0, fmt.Errorf("%w: give both tick_lower and tick_upper", ErrBadRange)
		}
		lo, hi := args.Int("tick_lower", 0), args.Int("tick_upper", 0)
		return lo, hi, checkRange(lo, hi, st.spacing)
	case prices:
		if !args.Has("price_lower") || !args.Has("price_upper") {
			return 0, 0, fmt.Errorf("%w: give both price_lower and price_upper", ErrBadRange)
		}
	default:
		return 0, 0, fmt.Errorf("%w: give the range as tick_lower and tick_upper or as price_lower and price_upper", ErrBadRange)
	}
	pl, ok1 := new(big.Rat).SetString(args.String("price_lower", ""))
	pu, ok2 := new(big.Rat).SetString(args.String("price_upper", ""))
	if !ok1 || !ok2 || pl.Sign() <= 0 || pu.Sign() <= 0 {
		return 0, 0, fmt.Errorf("%w: price_lower and price_upper must be decimal numbers greater than 0", ErrBadRange)
	}
	if pl.Cmp(pu) >= 0 {
		return 0, 0, fmt.Errorf("%w: price_lower %s must be below price_upper %s", ErrBadRange, pl.FloatString(8), pu.FloatString(8))
	}
	// raw converts a whole-token price of token_b per token_a into token1
	// base units per token0 base unit.
	scale := new(big.Rat).SetFrac(native.Pow10(int(m1.Decimals)), native.Pow10(int(m0.Decimals)))
	raw := func(p *big.Rat) *big.Rat {
		if a.Address == m0.Address {
			return new(big.Rat).Mul(p, scale)
		}
		return new(big.Rat).Mul(new(big.Rat).Inv(p), scale)
	}
	t1, err := priceTick(raw(pl))
	if err != nil {
		return 0, 0, fmt.Errorf("%w: price_lower: %v", ErrBadRange, err)
	}
	t2, err := priceTick(raw(pu))
	if err != nil {
		return 0, 0, fmt.Errorf("%w: price_upper: %v", ErrBadRange, err)
	}
	lo, hi := snapTick(min(t1, t2), st.spacing), snapTick(max(t1, t2), st.spacing)
	if lo == hi {
		return 0, 0, fmt.Errorf("%w: the prices are within one tick spacing (%d ticks) of each other; widen the range", ErrBadRange, st.spacing)
	}
	return lo, hi, checkRange(lo, hi, st.spacing)
}

// ---- uniswap_v3_list_positions ----

var listPositions = native.ReadTool{
	Name: "uniswap_v3_list_positions",
	Description: "List the Uniswap V3 positions (NonfungiblePositionManager NFTs) owned by the agent's wallet or by owner, or read one by token_id: " +
		"each position's tokens, fee tier, tick range and the prices it spans (token1 per token0), liquidity, whether the pool's price is in range, " +
		"the tokens the liquidity is worth at the current price, and the uncollected fees (exact: what collect would pay now), with USD values where feeds price them. " +
		"Lists at most limit positions (default 20, at most 50) and says how many the owner has. Use it before increasing, decreasing or collecting a position to get its token_id. " +
		"Does not read positions held directly in a pool (uniswap_get_lp_position) or send anything.",
	Category: tool.CatLP, Budget: tool.Medium,
	Steps:   []string{"Finding the positions", "Reading the positions and pools", "Valuing the positions"},
	Snippet: "uniswap_v3_list_positions lists V3 position NFTs with their range, amounts and uncollected fees.",
	Params: []string{
		native.PAddress("owner", "Whose positions (default: the agent's wallet)"),
		pTokenID("The position to read instead of listing an owner's"),
		native.PInt("limit", "Most positions to list (default 20)", 1, maxListedPositions)},
	Result: []string{
		native.RProp("owner", "string", "whose positions"),
		native.RProp("total", "integer", "positions the owner holds"),
		native.RProp("truncated", "boolean", "whether more positions exist than were listed"),
		`"positions":{"type":"array","items":{"type":"object","properties":{"token_id":{"type":"string"},"owner":{"type":"string"},"token0":` + native.RToken + `,"token1":` + native.RToken +
			`,"fee":{"type":"integer","description":"fee in hundredths of a bip"},"tick_lower":{"type":"integer"},"tick_upper":{"type":"integer"},"current_tick":{"type":"integer"},` +
			`"price_lower":{"type":"string","description":"token1 per token0 at tick_lower"},"price_upper":{"type":"string"},"current_price":{"type":"string"},` +
			`"liquidity":{"type":"string"},"in_range":{"type":"boolean"},"amount0":` + native.RAmount + `,"amount1":` + native.RAmount +
			`,"fees0":` + native.RAmount + `,"fees1":` + native.RAmount + `,"fees_exact":{"type":"boolean","description":"false: collect could not be simulated; fees are the stored tokensOwed only"},"value_usd":{"type":"number"}}}}`},
	Action: "lp_positions", Venue: "uniswap_v3_nft",
	When: hasNPM,
	Run:  uniListPositions,
}

func pTokenID(desc string) string {
	return fmt.Sprintf(`"token_id":{"type":"string","pattern":"^[0-9]{1,78}$","description":%q}`, desc+" (the position NFT's id, a decimal string; see uniswap_v3_list_positions)")
}

type positionOut struct {
	TokenID      string           `json:"token_id"`
	Owner        string           `json:"owner"`
	Token0       native.TokenInfo `json:"token0"`
	Token1       native.TokenInfo `json:"token1"`
	Fee          int64            `json:"fee"`
	TickLower    int64            `json:"tick_lower"`
	TickUpper    int64            `json:"tick_upper"`
	CurrentTick  int64            `json:"current_tick"`
	PriceLower   string           `json:"price_lower"`
	PriceUpper   string           `json:"price_upper"`
	CurrentPrice string           `json:"current_price"`
	Liquidity    string           `json:"liquidity"`
	InRange      bool             `json:"in_range"`
	Amount0      native.AmountOut `json:"amount0"`
	Amount1      native.AmountOut `json:"amount1"`
	Fees0        native.AmountOut `json:"fees0"`
	Fees1        native.AmountOut `json:"fees1"`
	FeesExact    bool             `json:"fees_exact"`
	ValueUSD     *float64         `json:"value_usd,omitempty"`
}

func uniListPositions(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	npm, err := npmOf(env)
	if err != nil {
		return nil, err
	}
	args := native.ArgsOf(in)
	var ids []*big.Int
	var owner common.Address
	total := int64(0)
	in.Step(0)
	if args.Has("token_id") {
		id := args.Amount("token_id")
		if err := args.Err(); err != nil {
			return nil, err
		}
		ids, total = []*big.Int{id}, 1
	} else {
		owner = args.Whose(env, "owner")
		if err := args.Err(); err != nil {
			return nil, err
		}
		a := chain.UniswapV3PositionManagerABI()
		n, err := native.CallBig(ctx, env, a, npm, "balanceOf", owner)
		if err != nil {
			return nil, err
		}
		if !n.IsInt64() {
			return nil, fmt.Errorf("position manager %s reports %s positions", npm.Hex(), n)
		}
		total = n.Int64()
		limit := min(args.Int("limit", 20), maxListedPositions, total)
		for i := range limit {
			id, err := native.CallBig(ctx, env, a, npm, "tokenOfOwnerByIndex", owner, big.NewInt(i))
			if err != nil {
				return nil, err
			}
			ids = append(ids, id)
		}
	}
	in.Step(1)
	outs := []positionOut{}
	for _, id := range ids {
		o, err := describePosition(ctx, env, npm, id)
		if err != nil {
			return nil, err
		}
		outs = append(outs, o)
	}
	in.Step(2)
	res := map[string]any{"total": total, "truncated": int64(len(ids)) < total, "positions": outs}
	if owner != (common.Address{}) {
		res["owner"] = owner.Hex()
	}
	return res, nil
}

// describePosition reads position id and what it is worth now.
func describePosition(ctx context.Context, env *native.Env, npm common.Address, id *big.Int) (positionOut, error) {
	p, err := readNPMPosition(ctx, env, npm, id)
	if err != nil {
		return positionOut{}, err
	}
	st, err := p.pool(ctx, env, npm)
	if err != nil {
		return positionOut{}, err
	}
	m0, m1, err := native.TokenInfoPair(ctx, env, p.token0, p.token1)
	if err != nil {
		return positionOut{}, err
	}
	sa, sb, err := sqrtRatios(p.lo, p.hi)
	if err != nil {
		return positionOut{}, err
	}
	a0, a1, err := v3Amounts(st.sqrtP, sa, sb, p.liquidity, false)
	if err != nil {
		return positionOut{}, err
	}
	exact := true
	f0, f1, err := npmFees(ctx, env, npm, p)
	if err != nil {
		exact, f0, f1 = false, p.owed0, p.owed1
	}
	pl, err := tickPrice(p.lo, m0.Decimals, m1.Decimals)
	if err != nil {
		return positionOut{}, err
	}
	pu, err := tickPrice(p.hi, m0.Decimals, m1.Decimals)
	if err != nil {
		return positionOut{}, err
	}
	o := positionOut{
		TokenID: id.String(), Owner: p.owner.Hex(), Token0: m0, Token1: m1, Fee: p.fee,
		TickLower: p.lo, TickUpper: p.hi, CurrentTick: st.tick, PriceLower: pl, PriceUpper: pu,
		CurrentPrice: native.RatString(priceFromSqrtX96(st.sqrtP, m0.Decimals, m1.Decimals), 12),
		Liquidity:    p.liquidity.String(), InRange: st.tick >= p.lo && st.tick < p.hi,
		Amount0: native.AmountOf(a0, m0.Decimals), Amount1: native.AmountOf(a1, m1.Decimals),
		Fees0: native.AmountOf(f0, m0.Decimals), Fees1: native.AmountOf(f1, m1.Decimals), FeesExact: exact,
	}
	t0, t1 := new(big.Int).Add(a0, f0), new(big.Int).Add(a1, f1)
	if c := native.SumCents(native.ValueCents(ctx, env, p.token0, t0), native.ValueCents(ctx, env, p.token1, t1)); c >= 0 {
		v := float64(c) / 100
		o.ValueUSD = &v
	}
	return o, nil
}
