// Package onchain is Stage 2's deterministic layer L3 (seed 4.3): it
// checks what an entry says against the address book and, given a chain,
// the claims it makes about the chain's state (Checker.Vote). It returns
// validate's Vote with the reason code a decisive failure rejects the
// entry with; ingest adapts it to a Stage 2 validator.
//
// The checks call contracts through the interfaces the caller gives in
// Config.Contracts (ingest fills them from internal/chain: chain is a
// mechanism of its own, which validate does not import), and read the
// chain through a Reader that *chain.Provider satisfies.
package onchain

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/wardhq/ward/internal/addrbook"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/validate"
)

// Reader is what a Checker reads of a chain: its ID, the latest header
// and a contract call at a block. *chain.Provider satisfies it; a call that
// reverts must return an error matching Config.Contracts.Reverted.
type Reader interface {
	ChainID() uint64
	HeaderLatest(ctx context.Context) (*types.Header, error)
	CallAt(ctx context.Context, msg ethereum.CallMsg, block *big.Int) ([]byte, error)
}

// ABI encodes a contract call and decodes what it returns. *chain.ABI
// satisfies it.
type ABI interface {
	Pack(method string, args ...any) ([]byte, error)
	Unpack(method string, data []byte) ([]any, error)
}

// Contracts are the contract interfaces the checks call and the error a
// reverted call matches (errors.Is). A Checker with a Reader refuses to
// decide (Vote returns an error) unless every field is set.
type Contracts struct {
	ERC20         ABI // balanceOf, totalSupply, decimals, symbol
	Aggregator    ABI // a Chainlink feed: latestRoundData, decimals
	UniswapV2Pair ABI // token0, token1, getReserves
	UniswapV3Pool ABI // token0, token1, slot0, liquidity
	AaveV3Pool    ABI // getReserveData
	Reverted      error
}

func (c Contracts) complete() bool {
	return c.ERC20 != nil && c.Aggregator != nil && c.UniswapV2Pair != nil && c.UniswapV3Pool != nil &&
		c.AaveV3Pool != nil && c.Reverted != nil
}

// Config configures a Checker. The zero value takes every default; a
// field that is zero, negative or NaN takes its default.
type Config struct {
	// Tolerance is the relative difference between a claimed and the
	// actual value within which a claim stated at a block holds (default
	// 0.01, 1 %).
	Tolerance float64
	// LatestTolerance is the same for a claim that states no block: it is
	// read at the latest block, where the state has moved on since the
	// author wrote it, so it fails only beyond this wider margin (default
	// 0.10, 10 %).
	LatestTolerance float64
	// MaxClaims is how many verifiable claims of one entry are read
	// (default 8); the rest are not checked.
	MaxClaims int
	// Timeout bounds the reads for one entry (default 5 s).
	Timeout time.Duration
	// Book is the address book the entry's identities (what it says an
	// address is) and token decimals are checked against, with or
	// without a chain: the operator's book, overrides applied (nil: the
	// shipped book).
	Book *addrbook.Book
	// Verifier, if set, is the index of Book to check with: the one the
	// pipeline's Config.Verifier is too, so a process indexes its book
	// once. nil: the Checker indexes Book itself.
	Verifier *validate.BookVerifier
	// Contracts are the interfaces the chain's contracts are called
	// through (needed only with a Reader).
	Contracts Contracts
}

// Defaults of Config.
const (
	DefaultTolerance       = 0.01
	DefaultLatestTolerance = 0.10
	DefaultMaxClaims       = 8
	DefaultTimeout         = 5 * time.Second
)

func (c Config) withDefaults() Config {
	if c.Book == nil {
		c.Book = addrbook.Shipped()
	}
	if !(c.Tolerance > 0) || math.IsInf(c.Tolerance, 0) {
		c.Tolerance = DefaultTolerance
	}
	if !(c.LatestTolerance > 0) || math.IsInf(c.LatestTolerance, 0) {
		c.LatestTolerance = DefaultLatestTolerance
	}
	if c.MaxClaims <= 0 {
		c.MaxClaims = DefaultMaxClaims
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	return c
}

// Checker is layer L3. First it checks, against cfg.Book and without a
// chain, what the entry says addresses are and the protocol numbers it
// states (validate.BookVerifier: a token symbol, contract role or price
// feed bound to an address, a look-alike of a book address, token
// decimals, a Uniswap V3 tier's tick spacing, an impossible LTV or
// liquidation threshold): a contradiction fails decisively, score 1, with
// reasons starting "verifiable_claim_false: " and naming the book's value,
// and code KNOWLEDGE_VERIFIABLE_CLAIM_FALSE. Then it reads the chain to
// check the entry's verifiable claims (validate.EntryVerifiable: ETH and
// ERC-20 balances, total supplies, price feed answers, pool reserves, V3
// pool liquidity, pool prices, each naming its addresses), each at the
// block it states or, when it states none, at the latest block with the
// wider LatestTolerance.
//
// The vote is skipped when the entry makes no verifiable claim, when every
// claim names another chain, or when no claim can be read (the address is
// not a contract, or the contract does not implement the method: the call
// reverts or returns nothing). It is skipped too when every claim read
// holds, with the verified claims as its reasons: a true number does not
// make the rest of the entry good advice, so L3 never adds a pass to the
// consensus. It fails decisively, with score 1, when a claim that names
// its block is provably false at that block: the reason names the kind,
// the address, the block, the claimed and the actual value. A claim that
// names no block is read at the latest block with the wider
// LatestTolerance; a mismatch there proves nothing about when it was made,
// so it is reported and not decisive. An error (the node failed, the
// block is ahead of the chain's head or its state is pruned, the timeout
// passed, the contract interfaces are missing) means the layer could not
// decide. A nil Reader reads no chain: only the book decides.
//
// A Checker is safe for concurrent use.
type Checker struct {
	r    Reader
	cfg  Config
	book *validate.BookVerifier
}

// New returns a Checker reading r (nil: none) with cfg.
func New(r Reader, cfg Config) *Checker {
	cfg = cfg.withDefaults()
	book := cfg.Verifier
	if book == nil {
		book = validate.NewBookVerifier(cfg.Book)
	}
	return &Checker{r: r, cfg: cfg, book: book}
}

// errUnverifiable marks a claim the chain cannot answer: not a contract,
// or a method it does not implement.
var errUnverifiable = errors.New("unverifiable")

// Vote checks e (see Checker) and returns L3's vote and, for a decisive
// failure, the code the entry is rejected with.
func (o *Checker) Vote(ctx context.Context, e *knowledge.Entry) (validate.Vote, reason.Code, error) {
	if e == nil {
		return validate.Vote{}, "", errors.New("on-chain: no entry")
	}
	if err := ctx.Err(); err != nil {
		return validate.Vote{}, "", err
	}
	b := o.book.Vote(e)
	if b.Decisive {
		// A false claim comes first; a destination the entry supplies
		// (validate.UnvettedPrefix) alone is an injected instruction.
		code := reason.KnowledgeVerifiableFalse
		if len(b.Reasons) > 0 && strings.HasPrefix(b.Reasons[0], validate.UnvettedPrefix) {
			code = reason.KnowledgeInjection
		}
		return validate.Vote{Layer: knowledge.LayerOnChain, Score: b.Score, Decisive: true, Reasons: b.Reasons}, code, nil
	}
	if o.r != nil && !o.cfg.Contracts.complete() {
		return validate.Vote{}, "", errors.New("on-chain: no contract interfaces to call the chain with")
	}
	v, code, err := o.chain(ctx, e)
	if err != nil || v.Decisive || !v.Skipped {
		return v, code, err
	}
	lend, code, err := o.lending(ctx, e)
	if err != nil || lend.Decisive {
		return lend, code, err
	}
	v.Reasons = append(v.Reasons, lend.Reasons...)
	// What the book verified says nothing more about the entry's advice
	// than a verified number: it is reported in the skipped vote.
	if !slices.Equal(b.Reasons, []string{validate.NothingInBook}) {
		v.Reasons = append(b.Reasons, v.Reasons...)
	}
	return v, "", nil
}

// AaveGrossGap is how far, in percentage points, an Aave V3 reserve's LTV,
// liquidation threshold or reserve factor stated without a block may be
// from the chain's before the claim is false. Governance moves them by a
// few points at a time (risk stewards cap each change), so a stale figure
// is near the current one; one more than 10 points off was never true of
// the market, or is years out of date.
const AaveGrossGap = 10.0

// lending checks the Aave V3 numbers e states (validate.ExtractMechanics:
// LTV, liquidation threshold, liquidation bonus and reserve factor of a
// symbol) against the
// reserve's configuration on the reader's chain: the book gives the
// market's Pool and the symbol's token, getReserveData its configuration
// bitmap (LTV bits 0-15, threshold 16-31, liquidation bonus 32-47 as
// 100 % plus the bonus, reserve factor 64-79, in basis points). Numbers about another chain, a symbol the book does not list
// there, an asset that is no reserve, or a reserve factor the pool
// answers 0 for are not checked.
func (o *Checker) lending(ctx context.Context, e *knowledge.Entry) (validate.Vote, reason.Code, error) {
	if o.r == nil {
		return validate.Vote{Layer: knowledge.LayerOnChain, Skipped: true}, "", nil
	}
	id := o.r.ChainID()
	bc, ok := o.cfg.Book.Chain(id)
	if !ok {
		return validate.Vote{Layer: knowledge.LayerOnChain, Skipped: true}, "", nil
	}
	pool, ok := bc.Contract(addrbook.AaveV3Pool)
	if !ok {
		return validate.Vote{Layer: knowledge.LayerOnChain, Skipped: true}, "", nil
	}
	ctx, cancel := context.WithTimeout(ctx, o.cfg.Timeout)
	defer cancel()
	var why []string
	conf := map[common.Address]*big.Int{}
	for _, m := range validate.ExtractMechanics(e.Content) {
		at, isLending := aaveConfigShift[m.Kind]
		if !isLending || m.Symbol == "" || m.ChainID != 0 && m.ChainID != id {
			continue
		}
		toks := bc.TokensBySymbol(m.Symbol)
		if len(toks) != 1 {
			continue
		}
		asset := common.Address(toks[0].Address)
		data, ok := conf[asset]
		if !ok {
			call, err := o.cfg.Contracts.AaveV3Pool.Pack("getReserveData", asset)
			if err != nil {
				return validate.Vote{}, "", err
			}
			to := common.Address(pool)
			ret, err := o.r.CallAt(ctx, ethereum.CallMsg{To: &to, Data: call}, nil)
			switch {
			case errors.Is(err, o.cfg.Contracts.Reverted):
				continue
			case err != nil:
				return validate.Vote{}, "", fmt.Errorf("on-chain: aave reserve of %s: %w", toks[0].Symbol, err)
			case len(ret) < 32:
				continue
			}
			data = new(big.Int).SetBytes(ret[:32])
			conf[asset] = data
		}
		if data.Sign() == 0 {
			continue // not a reserve
		}
		bps := new(big.Int).And(new(big.Int).Rsh(data, at), big.NewInt(0xffff)).Int64()
		if bps == 0 && m.Kind == validate.MechReserveFactor {
			// A pool that keeps no reserve factor (ward's dev chain's
			// Pool) answers 0 too: nothing to contradict a claim with.
			continue
		}
		if m.Kind == validate.MechLiquidationBonus {
			// Stored as 100 % plus the bonus (10500 is 5 %); 0 is an
			// asset that is not collateral.
			if bps <= 10000 {
				continue
			}
			bps -= 10000
		}
		actual := float64(bps) / 100
		name := strings.ReplaceAll(m.Kind.String(), "_", " ")
		got := fmt.Sprintf("Aave V3 %s %s on chain %d: claimed %g %%, actual %g %%", toks[0].Symbol, name, id, m.Value, actual)
		switch d := math.Abs(m.Value - actual); {
		case d > AaveGrossGap:
			return validate.Vote{Layer: knowledge.LayerOnChain, Score: 1, Decisive: true,
				Reasons: []string{validate.FalsePrefix + got}}, reason.KnowledgeVerifiableFalse, nil
		case d < 0.005:
			why = append(why, "verified: "+got)
		default:
			why = append(why, "not at the latest block, and the claim names no block: "+got)
		}
	}
	return validate.Vote{Layer: knowledge.LayerOnChain, Skipped: true, Reasons: why}, "", nil
}

// aaveConfigShift is where each number sits in an Aave V3 reserve's
// configuration bitmap (ReserveConfiguration.sol), in basis points: the
// same fields the pool data provider's getReserveConfigurationData
// decodes from it.
var aaveConfigShift = map[validate.MechanicKind]uint{validate.MechLTV: 0, validate.MechLiquidationThreshold: 16,
	validate.MechLiquidationBonus: 32, validate.MechReserveFactor: 64}

// chain reads the chain to check the entry's verifiable claims.
func (o *Checker) chain(ctx context.Context, e *knowledge.Entry) (validate.Vote, reason.Code, error) {
	skip := func(why string) (validate.Vote, reason.Code, error) {
		return validate.Vote{Layer: knowledge.LayerOnChain, Skipped: true, Reasons: []string{why}}, "", nil
	}
	claims := validate.EntryVerifiable(e)
	if len(claims) == 0 {
		return skip("no verifiable on-chain claim")
	}
	if o.r == nil {
		return skip("no chain to read")
	}
	ctx, cancel := context.WithTimeout(ctx, o.cfg.Timeout)
	defer cancel()

	id := o.r.ChainID()
	var head *types.Header
	var verified, stale []string
	unread, other := 0, 0
	for i, cl := range claims {
		if i == o.cfg.MaxClaims {
			break
		}
		if cl.ChainID != 0 && cl.ChainID != id {
			other++
			continue
		}
		if head == nil {
			var err error
			if head, err = o.r.HeaderLatest(ctx); err != nil {
				return validate.Vote{}, "", fmt.Errorf("on-chain: latest header: %w", err)
			}
		}
		res, err := o.check(ctx, cl, head)
		switch {
		case errors.Is(err, errUnverifiable):
			unread++
		case err != nil:
			return validate.Vote{}, "", fmt.Errorf("on-chain: %s of %s: %w", cl.Kind, cl.Target, err)
		case !res.holds && res.latest:
			// The state has moved since a claim that names no block was
			// made: a mismatch now proves nothing about then.
			stale = append(stale, res.String())
		case !res.holds:
			return validate.Vote{Layer: knowledge.LayerOnChain, Score: 1, Decisive: true,
				Reasons: []string{validate.FalsePrefix + "provably false: " + res.String()}}, reason.KnowledgeVerifiableFalse, nil
		default:
			verified = append(verified, res.String())
		}
	}
	var why []string
	if n := len(claims) - o.cfg.MaxClaims; n > 0 {
		why = append(why, fmt.Sprintf("%d claims beyond the first %d not checked", n, o.cfg.MaxClaims))
	}
	if unread > 0 {
		why = append(why, fmt.Sprintf("%d claims unverifiable (not a contract, or no such method)", unread))
	}
	if other > 0 {
		why = append(why, fmt.Sprintf("%d claims about another chain than %d", other, id))
	}
	for _, r := range stale {
		why = append(why, "not at the latest block, and the claim names no block: "+r)
	}
	// A true number does not make the rest of an entry good advice, so a
	// verified claim never adds a pass to the consensus: L3 only rejects.
	for i := range verified {
		verified[i] = "verified: " + verified[i]
	}
	return validate.Vote{Layer: knowledge.LayerOnChain, Skipped: true, Reasons: append(verified, why...)}, "", nil
}

// result is one claim compared with the chain.
type result struct {
	cl      validate.Verifiable
	block   uint64
	latest  bool // the claim stated no block
	holds   bool
	actual  string
	claimed string
}

func (r result) String() string {
	at := fmt.Sprintf("block %d", r.block)
	if r.latest {
		at = fmt.Sprintf("latest block %d", r.block)
	}
	target := r.cl.Target.String()
	if r.cl.Kind == validate.KindTokenBalance {
		target = r.cl.Holder.String() + " in token " + target
	}
	return fmt.Sprintf("%s of %s at %s: claimed %s, actual %s", r.cl.Kind, target, at, r.claimed, r.actual)
}

// check reads claim cl and compares it with what it states.
func (o *Checker) check(ctx context.Context, cl validate.Verifiable, head *types.Header) (result, error) {
	res := result{cl: cl, latest: !cl.AtBlock, block: head.Number.Uint64()}
	tol := o.cfg.LatestTolerance
	if cl.AtBlock {
		if cl.Block > res.block {
			return res, fmt.Errorf("block %d is ahead of the chain's head %d", cl.Block, res.block)
		}
		res.block, tol = cl.Block, o.cfg.Tolerance
	}
	rd := &reader{r: o.r, k: o.cfg.Contracts, block: new(big.Int).SetUint64(res.block), cache: map[string][]any{}}
	tolR := new(big.Rat).SetFloat64(tol)
	claimed := cl.Values[0]
	res.claimed = claimed.String()

	if cl.Kind == validate.KindReserves {
		return o.reserves(ctx, rd, res, tolR)
	}
	actual, err := readActual(ctx, rd, cl)
	if err != nil {
		return res, err
	}
	unit := claimed.Unit
	if cl.Kind == validate.KindPoolPrice {
		unit = ""
	}
	res.actual = formatAll(actual, unit)
	for _, a := range actual {
		res.holds = res.holds || within(claimed.Value, a, tolR)
	}
	return res, nil
}

// readActual reads at rd's block the values claim cl (of any kind but
// reserves) may mean: it holds if it matches one. Kinds it cannot read
// are errUnverifiable.
func readActual(ctx context.Context, rd *reader, cl validate.Verifiable) ([]*big.Rat, error) {
	target := common.Address(cl.Target)
	switch cl.Kind {
	case validate.KindEthBalance:
		bal, err := rd.balance(ctx, target)
		if err != nil {
			return nil, err
		}
		shift := map[string]int{validate.UnitWei: 0, validate.UnitGwei: 9, validate.UnitETH: 18}[cl.Values[0].Unit]
		return []*big.Rat{scaled(bal, shift)}, nil
	case validate.KindTokenBalance, validate.KindTotalSupply:
		return readTokenAmount(ctx, rd, cl)
	case validate.KindFeedAnswer:
		return readFeedAnswer(ctx, rd, target)
	case validate.KindLiquidity:
		liq, err := rd.uint(ctx, target, rd.k.UniswapV3Pool, "liquidity")
		if err != nil {
			return nil, err
		}
		return []*big.Rat{new(big.Rat).SetInt(liq)}, nil
	case validate.KindPoolPrice:
		p, err := rd.poolPrice(ctx, target)
		if err != nil {
			return nil, err
		}
		if p.Sign() > 0 {
			return []*big.Rat{p, new(big.Rat).Inv(p)}, nil // either direction of the pair
		}
		return []*big.Rat{p}, nil
	}
	return nil, errUnverifiable
}

// readTokenAmount reads a holder's balance or the total supply of a
// token, in whole tokens unless the claim is raw.
func readTokenAmount(ctx context.Context, rd *reader, cl validate.Verifiable) ([]*big.Rat, error) {
	target := common.Address(cl.Target)
	var (
		raw *big.Int
		err error
	)
	if cl.Kind == validate.KindTokenBalance {
		raw, err = rd.uint(ctx, target, rd.k.ERC20, "balanceOf", common.Address(cl.Holder))
	} else {
		raw, err = rd.uint(ctx, target, rd.k.ERC20, "totalSupply")
	}
	if err != nil {
		return nil, err
	}
	dec := 0
	if !cl.Values[0].Raw() {
		if dec, err = rd.decimals(ctx, target, rd.k.ERC20); err != nil {
			return nil, err
		}
	}
	return []*big.Rat{scaled(raw, dec)}, nil
}

// readFeedAnswer reads a Chainlink feed's latest answer, scaled by its
// decimals.
func readFeedAnswer(ctx context.Context, rd *reader, feed common.Address) ([]*big.Rat, error) {
	out, err := rd.call(ctx, feed, rd.k.Aggregator, "latestRoundData")
	if err != nil {
		return nil, err
	}
	answer, ok := out[1].(*big.Int)
	if !ok {
		return nil, errUnverifiable
	}
	dec, err := rd.decimals(ctx, feed, rd.k.Aggregator)
	if err != nil {
		return nil, err
	}
	return []*big.Rat{scaled(answer, dec)}, nil
}

// reserves checks a claim about a pool's two token amounts: a Uniswap V2
// pair's reserves, or else the pool's balances of its two tokens (a V3
// pool). Claimed amounts whose units name the tokens' symbols are matched
// to them; otherwise the claim holds if the amounts match in either order.
func (o *Checker) reserves(ctx context.Context, rd *reader, res result, tol *big.Rat) (result, error) {
	cl := res.cl
	pool := common.Address(cl.Target)
	tokens, err := rd.pairTokens(ctx, pool)
	if err != nil {
		return res, err
	}
	raw, err := rd.poolAmounts(ctx, pool, tokens)
	if err != nil {
		return res, err
	}
	human, syms, err := rd.tokenAmounts(ctx, tokens, raw, cl.Values)
	if err != nil {
		return res, err
	}
	res.claimed, res.actual = describeAmounts(cl.Values, human, syms)
	if amountsHold(cl.Values, human, syms, tol) {
		res.holds = true
	}
	return res, nil
}

// pairTokens returns the pool's token0 and token1.
func (rd *reader) pairTokens(ctx context.Context, pool common.Address) ([2]common.Address, error) {
	var tokens [2]common.Address
	for i, m := range []string{"token0", "token1"} {
		out, err := rd.call(ctx, pool, rd.k.UniswapV2Pair, m)
		if err != nil {
			return tokens, err
		}
		a, ok := out[0].(common.Address)
		if !ok {
			return tokens, errUnverifiable
		}
		tokens[i] = a
	}
	return tokens, nil
}

// poolAmounts returns the raw amounts of tokens the pool holds: a V2
// pair's reserves, or else its balances of them.
func (rd *reader) poolAmounts(ctx context.Context, pool common.Address, tokens [2]common.Address) ([2]*big.Int, error) {
	var raw [2]*big.Int
	out, err := rd.call(ctx, pool, rd.k.UniswapV2Pair, "getReserves")
	switch {
	case err == nil:
		r0, ok0 := out[0].(*big.Int)
		r1, ok1 := out[1].(*big.Int)
		if !ok0 || !ok1 {
			return raw, errUnverifiable
		}
		raw = [2]*big.Int{r0, r1}
	case errors.Is(err, errUnverifiable):
		for i, t := range tokens {
			if raw[i], err = rd.uint(ctx, t, rd.k.ERC20, "balanceOf", pool); err != nil {
				return raw, err
			}
		}
	default:
		return raw, err
	}
	return raw, nil
}

// tokenAmounts scales the raw amounts of tokens to whole tokens (unless
// the claimed values are raw) and, when a claimed value names a symbol,
// reads the tokens' symbols ("" for a token without one).
func (rd *reader) tokenAmounts(ctx context.Context, tokens [2]common.Address, raw [2]*big.Int, values []validate.Amount) ([2]*big.Rat, [2]string, error) {
	var (
		human [2]*big.Rat
		syms  [2]string
	)
	for i, t := range tokens {
		dec := 0
		if !values[0].Raw() {
			var err error
			if dec, err = rd.decimals(ctx, t, rd.k.ERC20); err != nil {
				return human, syms, err
			}
		}
		human[i] = scaled(raw[i], dec)
		if needSymbols(values) {
			if out, err := rd.call(ctx, t, rd.k.ERC20, "symbol"); err == nil {
				syms[i], _ = out[0].(string)
			} else if !errors.Is(err, errUnverifiable) {
				return human, syms, err
			}
		}
	}
	return human, syms, nil
}

// describeAmounts renders the claimed values and the pool's amounts (with
// their symbols) for a result.
func describeAmounts(values []validate.Amount, human [2]*big.Rat, syms [2]string) (claimed, actual string) {
	var cs, as []string
	for _, v := range values {
		cs = append(cs, v.String())
	}
	for i := range human {
		s := validate.FormatRat(human[i])
		if syms[i] != "" {
			s += " " + syms[i]
		}
		as = append(as, s)
	}
	return strings.Join(cs, " and "), strings.Join(as, " and ")
}

// amountsHold reports whether the claimed values match the pool's amounts
// within tol, in either order, a value naming a token's symbol matched to
// that token.
func amountsHold(values []validate.Amount, human [2]*big.Rat, syms [2]string, tol *big.Rat) bool {
	for _, perm := range [][2]int{{0, 1}, {1, 0}} {
		ok := true
		for j, v := range values {
			k := perm[j]
			if sym := symbolIndex(v.Unit, syms); sym >= 0 && sym != k {
				ok = false
				break
			}
			ok = ok && within(v.Value, human[k], tol)
		}
		if ok {
			return true
		}
	}
	return false
}

// needSymbols reports whether a claimed amount names a token symbol.
func needSymbols(vs []validate.Amount) bool {
	for _, v := range vs {
		if v.Unit != "" && v.Unit != validate.UnitWei {
			return true
		}
	}
	return false
}

// symbolIndex returns which of syms unit names (ETH names WETH), or -1.
func symbolIndex(unit string, syms [2]string) int {
	if unit == "" || unit == validate.UnitWei {
		return -1
	}
	for i, s := range syms {
		if s != "" && (strings.EqualFold(s, unit) || strings.EqualFold(unit, validate.UnitETH) && strings.EqualFold(s, "WETH")) {
			return i
		}
	}
	return -1
}

// poolPrice returns a pool's price of token0 in token1, in whole tokens:
// for a V3 pool (sqrtPriceX96 / 2^96)^2 × 10^(decimals0 − decimals1) from
// slot0, for a V2 pair the ratio of its reserves.
func (rd *reader) poolPrice(ctx context.Context, pool common.Address) (*big.Rat, error) {
	var dec [2]int
	for i, m := range []string{"token0", "token1"} {
		out, err := rd.call(ctx, pool, rd.k.UniswapV3Pool, m)
		if err != nil {
			return nil, err
		}
		t, ok := out[0].(common.Address)
		if !ok {
			return nil, errUnverifiable
		}
		if dec[i], err = rd.decimals(ctx, t, rd.k.ERC20); err != nil {
			return nil, err
		}
	}
	out, err := rd.call(ctx, pool, rd.k.UniswapV3Pool, "slot0")
	if errors.Is(err, errUnverifiable) {
		out, err := rd.call(ctx, pool, rd.k.UniswapV2Pair, "getReserves")
		if err != nil {
			return nil, err
		}
		r0, ok0 := out[0].(*big.Int)
		r1, ok1 := out[1].(*big.Int)
		if !ok0 || !ok1 || r0.Sign() == 0 {
			return nil, errUnverifiable
		}
		p := new(big.Rat).SetFrac(r1, r0)
		return p.Mul(p, pow10(dec[0]-dec[1])), nil
	}
	if err != nil {
		return nil, err
	}
	sqrtP, ok := out[0].(*big.Int)
	if !ok {
		return nil, errUnverifiable
	}
	p := new(big.Rat).SetFrac(new(big.Int).Mul(sqrtP, sqrtP), new(big.Int).Lsh(big.NewInt(1), 192))
	return p.Mul(p, pow10(dec[0]-dec[1])), nil
}

// reader makes the calls of one claim at one block, each once.
type reader struct {
	r     Reader
	k     Contracts
	block *big.Int
	cache map[string][]any
}

// call calls method on to and decodes its outputs. A revert, an empty
// return (no code, or no such method) or undecodable output is
// errUnverifiable; any other failure is returned as is.
func (rd *reader) call(ctx context.Context, to common.Address, a ABI, method string, args ...any) ([]any, error) {
	data, err := a.Pack(method, args...)
	if err != nil {
		return nil, err
	}
	key := to.Hex() + string(data)
	if out, ok := rd.cache[key]; ok {
		return out, nil
	}
	ret, err := rd.r.CallAt(ctx, ethereum.CallMsg{To: &to, Data: data}, rd.block)
	if errors.Is(err, rd.k.Reverted) {
		return nil, errUnverifiable
	}
	if err != nil {
		return nil, err
	}
	out, err := a.Unpack(method, ret)
	if err != nil || len(out) == 0 {
		return nil, errUnverifiable
	}
	rd.cache[key] = out
	return out, nil
}

// uint calls a method returning one unsigned integer.
func (rd *reader) uint(ctx context.Context, to common.Address, a ABI, method string, args ...any) (*big.Int, error) {
	out, err := rd.call(ctx, to, a, method, args...)
	if err != nil {
		return nil, err
	}
	v, ok := out[0].(*big.Int)
	if !ok {
		return nil, errUnverifiable
	}
	return v, nil
}

// decimals returns a token's or feed's decimals (at most 77, the digits of
// a uint256).
func (rd *reader) decimals(ctx context.Context, to common.Address, a ABI) (int, error) {
	out, err := rd.call(ctx, to, a, "decimals")
	if err != nil {
		return 0, err
	}
	d, ok := out[0].(uint8)
	if !ok || d > 77 {
		return 0, errUnverifiable
	}
	return int(d), nil
}

// balance returns the native balance of account at the reader's block.
// Reader has no eth_getBalance at a block, so it runs, as a
// contract-creation eth_call, init code that returns BALANCE(account):
// PUSH20 account, BALANCE, PUSH1 0, MSTORE, PUSH1 32, PUSH1 0, RETURN. (A
// balance never starts with the byte 0xEF that EIP-3541 forbids as code.)
func (rd *reader) balance(ctx context.Context, account common.Address) (*big.Int, error) {
	code := make([]byte, 0, 30)
	code = append(code, 0x73)
	code = append(code, account[:]...)
	code = append(code, 0x31, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xf3)
	ret, err := rd.r.CallAt(ctx, ethereum.CallMsg{Data: code}, rd.block)
	if errors.Is(err, rd.k.Reverted) {
		return nil, errUnverifiable
	}
	if err != nil {
		return nil, err
	}
	if len(ret) != 32 {
		return nil, errUnverifiable
	}
	return new(big.Int).SetBytes(ret), nil
}

// scaled returns raw / 10^dec.
func scaled(raw *big.Int, dec int) *big.Rat {
	r := new(big.Rat).SetInt(raw)
	return r.Mul(r, pow10(-dec))
}

// pow10 returns 10^n for n in [-154, 154].
func pow10(n int) *big.Rat {
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(n, -n))), nil)
	if n < 0 {
		return new(big.Rat).SetFrac(big.NewInt(1), p)
	}
	return new(big.Rat).SetInt(p)
}

// within reports whether claimed is within tol (relative) of actual.
func within(claimed, actual, tol *big.Rat) bool {
	diff := new(big.Rat).Sub(claimed, actual)
	diff.Abs(diff)
	bound := new(big.Rat).Abs(actual)
	return diff.Cmp(bound.Mul(bound, tol)) <= 0
}

func formatAll(vs []*big.Rat, unit string) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = validate.FormatRat(v)
		if unit != "" {
			parts[i] += " " + unit
		}
	}
	if len(parts) == 2 {
		return parts[0] + " (inverse " + parts[1] + ")"
	}
	return strings.Join(parts, ", ")
}
