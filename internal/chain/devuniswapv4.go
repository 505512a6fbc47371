package chain

import (
	"bytes"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/chain/artifacts/published"
)

// UniswapV4PoolKey is V4's PoolKey: the two currencies (currency0 the
// lower address), the LP fee in hundredths of a bip, the tick spacing and
// the hooks contract.
type UniswapV4PoolKey struct {
	Currency0   common.Address
	Currency1   common.Address
	Fee         *big.Int
	TickSpacing *big.Int
	Hooks       common.Address
}

// ID is the pool's id, keccak256(abi.encode(key)). The tick spacing
// must be positive (V4 refuses others).
func (k UniswapV4PoolKey) ID() common.Hash {
	word := func(b []byte) []byte { return common.LeftPadBytes(b, 32) }
	return crypto.Keccak256Hash(word(k.Currency0[:]), word(k.Currency1[:]), word(k.Fee.Bytes()), word(k.TickSpacing.Bytes()), word(k.Hooks[:]))
}

// The dev chains' Uniswap V4 pools (on the embedded chain and on a node
// `ward chain deploy` sets up): WETH/USDC at 0.3 % with tick spacing 60,
// one without a hook and one whose key names DevV4Hook.
const (
	DevV4Fee         = 3000
	DevV4TickSpacing = 60
)

// DevV4Hook is the hooks address of the dev chains' hooked V4 pool. V4
// reads a hook's permissions from the low 14 bits of its address and
// calls it only for those; this one carries beforeDonate alone (bit 5)
// and has no code, so swaps and liquidity changes never call it, while
// the pool is still, by its key, a pool with a hook: what ward's tools
// treat as high risk. It is derived from a fixed phrase, the same on
// every chain.
var DevV4Hook = func() common.Address {
	var a common.Address
	copy(a[:], crypto.Keccak256([]byte("ward dev Uniswap V4 hook"))[12:])
	a[18] &^= 0x3f
	a[19] = 0x20
	return a
}()

// DevV4Pools returns the keys of the two dev V4 pools over weth and usdc:
// without a hook, then with DevV4Hook.
func DevV4Pools(weth, usdc common.Address) [2]UniswapV4PoolKey {
	t0, t1 := usdc, weth
	if bytes.Compare(t0[:], t1[:]) > 0 {
		t0, t1 = t1, t0
	}
	var out [2]UniswapV4PoolKey
	for i, h := range []common.Address{{}, DevV4Hook} {
		out[i] = UniswapV4PoolKey{Currency0: t0, Currency1: t1, Fee: big.NewInt(DevV4Fee), TickSpacing: big.NewInt(DevV4TickSpacing), Hooks: h}
	}
	return out
}

// DevV4NativePool is the key of the dev chains' native ETH/USDC V4 pool:
// currency0 is ETH (the zero address, below every token), no hook, the
// same fee and spacing as the WETH pools.
func DevV4NativePool(usdc common.Address) UniswapV4PoolKey {
	return UniswapV4PoolKey{Currency1: usdc, Fee: big.NewInt(DevV4Fee), TickSpacing: big.NewInt(DevV4TickSpacing)}
}

// UniversalRouterParameters is the Universal Router's constructor
// argument (RouterParameters); a zero address leaves that leg out.
type UniversalRouterParameters struct {
	Permit2              common.Address
	Weth9                common.Address
	V2Factory            common.Address
	V3Factory            common.Address
	PairInitCodeHash     [32]byte
	PoolInitCodeHash     [32]byte
	V4PoolManager        common.Address
	V3NFTPositionManager common.Address
	V4PositionManager    common.Address
	SpokePool            common.Address
}

// V4ModifyLiquidityParams is IPoolManager.ModifyLiquidityParams.
type V4ModifyLiquidityParams struct {
	TickLower      *big.Int
	TickUpper      *big.Int
	LiquidityDelta *big.Int
	Salt           [32]byte
}

// DevV4FullRange is the full-range position of a dev V4 pool that costs
// about amount0 and amount1: L = sqrt(amount0 * amount1) less 1 %, over
// the widest ticks of DevV4TickSpacing.
func DevV4FullRange(amount0, amount1 *big.Int) V4ModifyLiquidityParams {
	l := new(big.Int).Sqrt(new(big.Int).Mul(amount0, amount1))
	l.Div(l.Mul(l, big.NewInt(99)), big.NewInt(100))
	maxTick := int64(887272 / DevV4TickSpacing * DevV4TickSpacing)
	return V4ModifyLiquidityParams{TickLower: big.NewInt(-maxTick), TickUpper: big.NewInt(maxTick), LiquidityDelta: l}
}

// Dev V4 pool size: 50 WETH (or ETH) and $150,000 of USDC in each pool.
const devV4PoolWETH = 50

// deployUniswapV4 adds Permit2 (its published runtime code, put on chain
// by RuntimeDeployer), Uniswap V4's PoolManager, StateView and V4Quoter,
// the Universal Router (over V4 and Permit2; its V2 and V3 legs point at
// ward's own factories, whose init code hashes are not mainnet's, so only
// its V4 commands are usable) and v4-core's PoolModifyLiquidityTest to
// the batch, all as their npm packages publish them, then initialises the
// two DevV4Pools and adds full-range liquidity to each.
func deployUniswapV4(b *batch, c *DevContracts) {
	op := b.from.Address()
	p2, err := published.Load("Permit2")
	if err != nil {
		b.fail(err)
		return
	}
	code, ok := p2.Runtime()
	if !ok {
		b.fail(fmt.Errorf("permit2 is not published as runtime code"))
		return
	}
	c.Permit2 = b.deploy("RuntimeDeployer", code)
	c.UniswapV4PoolManager = b.deployPublished("PoolManager", op)
	c.UniswapV4StateView = b.deployPublished("StateView", c.UniswapV4PoolManager)
	c.UniswapV4Quoter = b.deployPublished("V4Quoter", c.UniswapV4PoolManager)
	c.UniversalRouter = b.deployPublished("UniversalRouter", UniversalRouterParameters{
		Permit2: c.Permit2, Weth9: c.WETH, V2Factory: c.UniswapV2Factory, V3Factory: c.UniswapV3Factory,
		V4PoolManager: c.UniswapV4PoolManager,
	})
	c.UniswapV4LiquidityRouter = b.deployPublished("PoolModifyLiquidityTest", c.UniswapV4PoolManager)

	amtWETH, amtUSDC := units(devV4PoolWETH, 18), units(devV4PoolWETH*3_000, 6)
	b.call("wrap ETH for V4", c.WETH, new(big.Int).Mul(amtWETH, big.NewInt(2)), WETH9ABI(), "deposit")
	b.call("mint USDC for V4", c.USDC, nil, erc20Mint(), "mint", op, new(big.Int).Mul(amtUSDC, big.NewInt(2)))
	for _, tok := range []common.Address{c.WETH, c.USDC} {
		b.call("approve V4 liquidity router", tok, nil, ERC20ABI(), "approve", c.UniswapV4LiquidityRouter, maxUint256)
	}
	amt0, amt1 := amtUSDC, amtWETH
	if lessAddr(c.WETH, c.USDC) {
		amt0, amt1 = amtWETH, amtUSDC
	}
	position := DevV4FullRange(amt0, amt1)
	for _, key := range DevV4Pools(c.WETH, c.USDC) {
		b.call("v4 initialize", c.UniswapV4PoolManager, nil, devV4ABI(), "initialize", key, sqrtPriceX96(amt0, amt1))
		b.call("v4 add liquidity", c.UniswapV4LiquidityRouter, nil, devV4ABI(), "modifyLiquidity", key,
			position, []byte{})
	}
}

// seedNativeV4Pool initialises DevV4NativePool at $3,000 per ETH and
// adds full-range liquidity to it (50 ETH, paid as the call's value, and
// $150,000 of USDC) through the liquidity router deployUniswapV4 approved.
func seedNativeV4Pool(b *batch, c *DevContracts) {
	amtETH, amtUSDC := units(devV4PoolWETH, 18), units(devV4PoolWETH*3_000, 6)
	b.call("mint USDC for the native V4 pool", c.USDC, nil, erc20Mint(), "mint", b.from.Address(), amtUSDC)
	key := DevV4NativePool(c.USDC)
	b.call("v4 initialize native", c.UniswapV4PoolManager, nil, devV4ABI(), "initialize", key, sqrtPriceX96(amtETH, amtUSDC))
	b.call("v4 add native liquidity", c.UniswapV4LiquidityRouter, amtETH, devV4ABI(), "modifyLiquidity", key, DevV4FullRange(amtETH, amtUSDC), []byte{})
}

// devV4ABI is PoolManager.initialize and PoolModifyLiquidityTest's
// three-argument modifyLiquidity, which seed the dev pools.
var devV4ABI = onceABI(`[
{"type":"function","name":"initialize","stateMutability":"nonpayable","inputs":[` + poolKeyTuple + `,{"name":"sqrtPriceX96","type":"uint160"}],"outputs":[{"name":"tick","type":"int24"}]},
{"type":"function","name":"modifyLiquidity","stateMutability":"payable","inputs":[` + poolKeyTuple + `,{"name":"params","type":"tuple","components":[{"name":"tickLower","type":"int24"},{"name":"tickUpper","type":"int24"},{"name":"liquidityDelta","type":"int256"},{"name":"salt","type":"bytes32"}]},{"name":"hookData","type":"bytes"}],"outputs":[{"name":"delta","type":"int256"}]}]`)

func (b *batch) fail(err error) {
	if b.err == nil {
		b.err = err
	}
}

// deployPublished is deploy for a contract as its npm package publishes
// it (chain/artifacts/published), which must link no library.
func (b *batch) deployPublished(name string, args ...any) common.Address {
	if b.err != nil {
		return common.Address{}
	}
	p, err := published.Load(name)
	if err != nil {
		b.fail(err)
		return common.Address{}
	}
	code, err := p.Link(nil)
	if err != nil {
		b.fail(err)
		return common.Address{}
	}
	a, err := ParseABI(p.ABI)
	if err != nil {
		b.fail(fmt.Errorf("%s: %w", name, err))
		return common.Address{}
	}
	ctor, err := a.abi.Pack("", args...)
	if err != nil {
		b.fail(fmt.Errorf("%s constructor: %w", name, err))
		return common.Address{}
	}
	addr := crypto.CreateAddress(b.from.Address(), b.nonce)
	b.add("deploy "+name, nil, nil, append(code, ctor...))
	return addr
}
