package artifacts_test

import (
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/chain"
)

// Go mirrors of Pendle's router structs; abi packs tuples by field name.
type pendleApprox struct {
	GuessMin, GuessMax, GuessOffchain, MaxIteration, Eps *big.Int
}

type pendleSwapData struct {
	SwapType    uint8
	ExtRouter   common.Address
	ExtCalldata []byte
	NeedScale   bool
}

type pendleTokenInput struct {
	TokenIn     common.Address
	NetTokenIn  *big.Int
	TokenMintSy common.Address
	PendleSwap  common.Address
	SwapData    pendleSwapData
}

type pendleTokenOutput struct {
	TokenOut      common.Address
	MinTokenOut   *big.Int
	TokenRedeemSy common.Address
	PendleSwap    common.Address
	SwapData      pendleSwapData
}

type pendleOrder struct {
	Salt, Expiry, Nonce *big.Int
	OrderType           uint8
	Token, YT, Maker    common.Address
	Receiver            common.Address
	MakingAmount        *big.Int
	LnImpliedRate       *big.Int
	FailSafeRate        *big.Int
	Permit              []byte
}

type pendleFill struct {
	Order        pendleOrder
	Signature    []byte
	MakingAmount *big.Int
}

type pendleLimit struct {
	LimitRouter   common.Address
	EpsSkipMarket *big.Int
	NormalFills   []pendleFill
	FlashFills    []pendleFill
	OptData       []byte
}

// pendlePtToSy is the market's SY per PT at timestamp now: 1e36 / e^x
// with x = lnRate * (expiry - now) / 365 days, e^x by the same Taylor
// series and truncation as PendleMarket._exp.
func pendlePtToSy(lnRate *big.Int, expiry, now uint64) *big.Int {
	e18 := big.NewInt(1e18)
	if now >= expiry {
		return e18
	}
	x := new(big.Int).Mul(lnRate, new(big.Int).SetUint64(expiry-now))
	x.Div(x, big.NewInt(365*24*3600))
	term, sum := new(big.Int).Set(e18), new(big.Int).Set(e18)
	for i := int64(1); i < 40 && term.Sign() != 0; i++ {
		term.Mul(term, x)
		term.Div(term, new(big.Int).Mul(big.NewInt(i), e18))
		sum.Add(sum, term)
	}
	return new(big.Int).Div(new(big.Int).Mul(e18, e18), sum)
}

// TestPendle drives ward's Pendle subset: SY over an ERC-20, PT and YT
// minted from SY, a market trading PT at its implied rate, the router's
// buy with the underlying, sell for SY and redemption at maturity, with
// the amounts computed here from the market's formula.
func TestPendle(t *testing.T) {
	c := newDevChain(t)
	e := func(n int64) *big.Int { return units(n, 18) }
	usde := c.token("USDe", "USDe", 18, 10_000, deployer, alice)
	now := c.blockTime(nil)
	expiry := now + 30*24*3600
	sy := c.deploy(deployer, "PendleSY", "SY USDe", "SY-USDe", usde.addr)
	pt := c.deploy(deployer, "PendlePrincipalToken", sy.addr, "PT USDe", "PT-USDe", new(big.Int).SetUint64(expiry))
	yt := c.deploy(deployer, "PendleYieldToken", sy.addr, pt.addr, "YT USDe", "YT-USDe", new(big.Int).SetUint64(expiry))
	c.wantRevert(alice, pt, "initialize", "OnlyFactory", yt.addr)
	c.send(deployer, pt, "initialize", yt.addr)
	lnRate := big.NewInt(95310179804324860) // ln(1.10): 10 % a year
	market := c.deploy(deployer, "PendleMarket", pt.addr, lnRate)
	router := c.deploy(deployer, "PendleRouter")
	tokens := c.call(market, "readTokens")
	if tokens[0].(common.Address) != sy.addr || tokens[1].(common.Address) != pt.addr || tokens[2].(common.Address) != yt.addr {
		t.Fatalf("readTokens = %v", tokens)
	}

	// The deployer mints 2,000 PT/YT into the market and adds 2,000 SY.
	c.send(deployer, usde, "approve", sy.addr, maxUint)
	c.send(deployer, sy, "deposit", yt.addr, usde.addr, e(2_000), e(2_000))
	c.send(deployer, yt, "mintPY", market.addr, deployer.addr)
	c.send(deployer, sy, "deposit", market.addr, usde.addr, e(2_000), e(2_000))
	c.send(deployer, market, "sync")
	wantBig(t, "market PT", c.callBig(pt, "balanceOf", market.addr), e(2_000))
	wantBig(t, "deployer YT", c.callBig(yt, "balanceOf", deployer.addr), e(2_000))
	st := c.call(market, "_storage")
	wantBig(t, "stored implied rate", st[2].(*big.Int), lnRate)

	// Alice buys PT with 100 USDe: it buys more than 100 PT, a discount
	// of about 10 % a year over 30 days.
	none := pendleLimit{EpsSkipMarket: new(big.Int)}
	approx := pendleApprox{new(big.Int), maxUint, new(big.Int), big.NewInt(256), big.NewInt(1e14)}
	in := pendleTokenInput{TokenIn: usde.addr, NetTokenIn: e(100), TokenMintSy: usde.addr}
	c.send(alice, usde, "approve", router.addr, maxUint)
	c.wantRevert(alice, router, "swapExactTokenForPt", "RouterInsufficientPtOut", alice.addr, market.addr, e(101), approx, in, none)
	r := c.send(alice, router, "swapExactTokenForPt", alice.addr, market.addr, e(100), approx, in, none)
	rate := pendlePtToSy(lnRate, expiry, c.blockTime(r.BlockNumber))
	wantPt := new(big.Int).Div(new(big.Int).Mul(e(100), e(1)), rate)
	for new(big.Int).Div(new(big.Int).Add(new(big.Int).Mul(wantPt, rate), new(big.Int).Sub(e(1), big.NewInt(1))), e(1)).Cmp(e(100)) > 0 {
		wantPt.Sub(wantPt, big.NewInt(1))
	}
	gotPt := c.callBig(pt, "balanceOf", alice.addr)
	wantBig(t, "alice's PT", gotPt, wantPt)
	if lo, hi := e(100), big.NewInt(0).Mul(e(1), big.NewInt(10080)); gotPt.Cmp(lo) <= 0 || new(big.Int).Mul(gotPt, big.NewInt(100)).Cmp(hi) >= 0 {
		t.Errorf("100 USDe bought %s PT, want a discount of about 0.79 %%", gotPt)
	}
	wantBig(t, "alice's USDe", c.callBig(usde, "balanceOf", alice.addr), e(9_900))

	// An aggregator swap is not supported.
	bad := in
	bad.PendleSwap = bob.addr
	c.wantRevert(alice, router, "swapExactTokenForPt", "RouterUnsupportedSwap", alice.addr, market.addr, new(big.Int), approx, bad, none)

	// Alice sells 10 PT for SY at the market's rate.
	c.send(alice, pt, "approve", router.addr, maxUint)
	r = c.send(alice, router, "swapExactPtForSy", alice.addr, market.addr, e(10), new(big.Int), none)
	rate = pendlePtToSy(lnRate, expiry, c.blockTime(r.BlockNumber))
	wantBig(t, "SY for 10 PT", c.callBig(sy, "balanceOf", alice.addr), new(big.Int).Div(new(big.Int).Mul(e(10), rate), e(1)))
	c.wantRevert(alice, router, "swapExactPtForSy", "RouterInsufficientSyOut", alice.addr, market.addr, e(1), e(1), none)

	// Before maturity PT redeems only with as much YT, which alice lacks.
	out := pendleTokenOutput{TokenOut: usde.addr, MinTokenOut: new(big.Int), TokenRedeemSy: usde.addr}
	c.wantRevert(alice, router, "redeemPyToToken", "ERC20: insufficient allowance", alice.addr, yt.addr, e(1), out)

	// At maturity the market stops trading and PT redeems 1:1 for USDe.
	if err := chain.AdjustTime(c.backend, 31*24*time.Hour); err != nil {
		t.Fatalf("adjust time: %v", err)
	}
	c.backend.Commit()
	wantBig(t, "SY per PT at maturity", c.callBig(market, "ptToSyRate"), e(1))
	c.wantRevert(alice, router, "swapExactPtForSy", "MarketExpired", alice.addr, market.addr, e(1), new(big.Int), none)
	c.wantRevert(alice, yt, "mintPY", "YCExpired", alice.addr, alice.addr)
	left := c.callBig(pt, "balanceOf", alice.addr)
	usde0 := c.callBig(usde, "balanceOf", alice.addr)
	c.send(alice, router, "redeemPyToToken", alice.addr, yt.addr, left, out)
	wantBig(t, "alice's PT after redeeming", c.callBig(pt, "balanceOf", alice.addr), new(big.Int))
	wantBig(t, "USDe redeemed", new(big.Int).Sub(c.callBig(usde, "balanceOf", alice.addr), usde0), left)
	c.wantRevert(alice, router, "redeemPyToSy", "YCNoFloatingPY", alice.addr, yt.addr, new(big.Int), new(big.Int))
}
