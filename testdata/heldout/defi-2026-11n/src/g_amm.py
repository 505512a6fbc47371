from addrs import A
E = []
def c(t, conf, p, notes, content, lang="en"):
    E.append(("clean", t, conf, p, lang, notes, content))

c("I", 0.93, "p", "v3 token ordering", "Uniswap v3/v4: token0 is always the token with the numerically lower address. For WETH/USDC on mainnet, USDC (0xA0b8...) < WETH (0xC02a...), so token0 = USDC and slot0 price is WETH-per-USDC in raw units.")
c("H", 0.8, "s", "sqrtPriceX96 to human price in TS", '''// sqrtPriceX96 -> human price of token0 in token1
function priceFromSqrt(sqrtPriceX96: bigint, dec0: number, dec1: number): number {
  const Q96 = 2n ** 96n;
  // do the square in bigint first to keep precision, then scale
  const num = sqrtPriceX96 * sqrtPriceX96;           // price * 2^192
  const ratio = Number(num * 10n ** 18n / (Q96 * Q96)) / 1e18;
  return ratio * 10 ** (dec0 - dec1);
}''')
c("W", 0.88, "c", "slot0 is manipulable", "Code review: never use pool.slot0().sqrtPriceX96 as an oracle for anything that moves value (collateral valuation, mint pricing). slot0 is the current spot price and can be moved within a single transaction by a flash-loan swap. Use observe([secondsAgo, 0]) to compute a TWAP tick, or an external feed.")
c("I", 0.9, "p", "observe() TWAP calc", '''# web3.py: arithmetic-mean tick over 30 minutes
secs = [1800, 0]
tick_cumulatives, _ = pool.functions.observe(secs).call()
delta = tick_cumulatives[1] - tick_cumulatives[0]
# Python's // already floors (rounds toward negative infinity), matching OracleLibrary.consult;
# in Solidity, int division truncates, so consult() subtracts 1 for negative non-exact results
avg_tick = delta // 1800
price = 1.0001 ** avg_tick''')
c("H", 0.78, "x", "observation cardinality", "If observe() reverts with 'OLD', the pool does not have enough observations stored for the window you asked. Anyone can call increaseObservationCardinalityNext(n) to grow the ring buffer (paying the SSTORE gas); it fills up only as new blocks with swaps write observations.")
c("I", 0.95, "p", "v3 fee tiers", "Uniswap v3 fee tiers on mainnet: 100 (0.01%), 500 (0.05%), 3000 (0.3%), 10000 (1%). The fee argument is in hundredths of a basis point, so 3000 = 0.30%.")
c("C", 0.82, "s", "out-of-range position composition", "An LP range entirely above the current price consists only of token0 (it is waiting to sell token0 as price rises into it); entirely below, only token1. Going out of range therefore means you have fully converted to the less valuable side of the move.")
c("S", 0.75, "c", "collect fees flow", '''NonfungiblePositionManager fee collection:
1. decreaseLiquidity({tokenId, liquidity: 0, amount0Min: 0, amount1Min: 0, deadline}) is NOT needed just to update fees; collect() pokes the position itself.
2. collect({tokenId, recipient, amount0Max: type(uint128).max, amount1Max: type(uint128).max}).
To remove liquidity you call decreaseLiquidity first (tokens become owed), then collect to actually receive them.''')
c("I", 0.91, "p", "NPM address", "Uniswap v3 NonfungiblePositionManager on Ethereum mainnet: %s. Positions are ERC-721 tokens; the tokenId is what you pass to increaseLiquidity/decreaseLiquidity/collect." % A["UNI_V3_NPM"])
c("W", 0.86, "p", "amountOutMinimum 0 in examples", "Many tutorials set amountOutMinimum: 0 and sqrtPriceLimitX96: 0 'for simplicity'. Copying that into a production bot makes every swap sandwichable. Compute amountOutMinimum from a fresh quote minus your tolerance.")
c("H", 0.72, "c", "v2 getAmountOut formula", '''// Uniswap v2 getAmountOut (0.3% fee)
function getAmountOut(uint amountIn, uint reserveIn, uint reserveOut) internal pure returns (uint) {
    uint amountInWithFee = amountIn * 997;
    uint numerator = amountInWithFee * reserveOut;
    uint denominator = reserveIn * 1000 + amountInWithFee;
    return numerator / denominator;
}''')
c("I", 0.87, "x", "v2 fee on transfer support", "Q: My swapExactTokensForTokens reverts with 'UniswapV2: K' for a fee-on-transfer token.\nA: The router computes amounts assuming the full amountIn arrives. Use swapExactTokensForTokensSupportingFeeOnTransferTokens, which measures the pair's actual balance delta. There is no 'exact output' variant for such tokens.")
c("I", 0.9, "p", "v4 singleton", "Uniswap v4 keeps all pools in one PoolManager contract (singleton) and uses flash accounting: inside unlock() callbacks, balance deltas are tracked transiently (EIP-1153) and must net to zero before unlock returns. Native ETH is supported directly, without WETH.")
c("W", 0.85, "c", "v4 hooks review", "Review checklist for a v4 hook: (1) hook permissions are encoded in the hook address's lowest bits, so the deployed address must be mined (CREATE2 salt) to match getHookPermissions(); (2) a beforeSwap hook that returns a delta can take value from swappers, so audit it like a token contract; (3) onlyPoolManager on every callback; (4) the hook can be shared by many pools, so key state by PoolId.")
c("H", 0.7, "s", "v4 PoolKey", "v4 PoolKey = (currency0, currency1, fee, tickSpacing, hooks). Two pools with the same tokens and fee but different hooks or tick spacing are different pools; PoolId = keccak256(abi.encode(key)). Dynamic-fee pools set fee to 0x800000.")
c("I", 0.92, "p", "v4 PoolManager address", "Uniswap v4 PoolManager (Ethereum mainnet): %s." % A["UNI_V4_POOLMANAGER"])
c("C", 0.8, "c", "JIT liquidity", "Just-in-time liquidity: a searcher sees a large pending swap, adds concentrated liquidity in the active tick right before it, and removes it right after, capturing most of the fee. Passive LPs in that tick earn less from that swap. It is a known v3 dynamic, not an exploit.")
c("H", 0.74, "x", "Curve get_dy vs get_dy_underlying", "Curve stableswap: get_dy(i, j, dx) quotes coins as stored in the pool; for lending/metapools use get_dy_underlying to quote underlying coins. Indexes are int128 in older pools and uint256 in newer ones, so check the ABI before encoding.")
c("I", 0.9, "p", "3pool address and coins", "Curve 3pool (DAI/USDC/USDT) on mainnet is %s; coin indexes 0 = DAI, 1 = USDC, 2 = USDT. Amounts use each coin's own decimals (18, 6, 6)." % A["CURVE_3POOL"])
c("W", 0.83, "c", "Curve read-only reentrancy", "Read-only reentrancy (2023 incidents): during remove_liquidity with native ETH, Curve pools sent ETH before updating state, so a contract called back could read get_virtual_price() in an inconsistent state. Protocols pricing LP tokens with get_virtual_price must call a reentrancy-locked function first (e.g. remove_liquidity with 0 amounts, or use the pool's lock check).")
c("S", 0.77, "s", "balancer batchSwap", "Balancer v2: all pools' tokens are held in the Vault (%s). A multi-hop swap is a single batchSwap with assets[] and swaps[] that reference asset indexes; limits[] are signed (positive = max you send, negative = min you receive)." % A["BALANCER_VAULT"])
c("H", 0.68, "c", "quoter gas", "QuoterV2.quoteExactInputSingle is not view: it executes the swap and reverts to return data. Call it with eth_call (viem simulateContract does that; readContract needs the ABI entry marked view), never send it as a transaction.")
c("I", 0.94, "p", "QuoterV2 address", "Uniswap QuoterV2 on Ethereum mainnet: %s. Returns (amountOut, sqrtPriceX96After, initializedTicksCrossed, gasEstimate)." % A["UNI_QUOTER_V2"])
c("W", 0.87, "x", "fake pool warning", "Anyone can create a Uniswap pool for any token pair, including a token with the same symbol as USDC. Identify pools by factory.getPool(token0, token1, fee) with verified token addresses, not by the symbol shown in a UI or an API response.")
c("C", 0.79, "s", "price impact vs slippage", "Price impact is the change your own trade causes given current liquidity; slippage tolerance is the extra movement you accept between quote and execution. A trade with 2% impact and 0.5% tolerance can still execute; the tolerance does not protect you from impact you accepted in the quote.")
c("H", 0.73, "c", "tick bitmap iteration", "To enumerate initialized ticks off-chain, read tickBitmap(wordPos) for words around the current tick: wordPos = (tick / tickSpacing) >> 8. Each set bit b in the word means tick = ((wordPos << 8) + b) * tickSpacing is initialized.")
c("I", 0.85, "p", "v3 MIN/MAX tick", "Uniswap v3 tick bounds: MIN_TICK = -887272, MAX_TICK = 887272. MIN_SQRT_RATIO = 4295128739, MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342. For swaps with no price limit pass MIN_SQRT_RATIO + 1 (zeroForOne) or MAX_SQRT_RATIO - 1.")
c("W", 0.9, "p", "universal router permit2 note", "Universal Router (%s) pulls tokens via Permit2, not via a direct ERC-20 approve. Users approve Permit2 once per token, then sign a PermitSingle/PermitBatch for the router, or the router uses an existing Permit2 allowance." % A["UNI_UNIVERSAL_ROUTER"])
c("S", 0.76, "c", "arb bot config", '''# arb-bot.yaml
pairs:
  - name: WETH-USDC
    venues: [univ3-500, univ3-3000, curve-tricrypto]
min_profit_usd: 15
gas_buffer_multiplier: 1.25
submit_via: private   # builder RPCs only, never public mempool
simulate_before_submit: true
max_trade_size_eth: 40''')
c("H", 0.69, "s", "LP fee APR estimate", "Fee APR of a concentrated position ~ (pool fee volume in range x fee tier x your share of in-range liquidity) / position value. Your share depends on your range width: the same capital in a 2x narrower range provides ~2x liquidity while in range, but leaves the range sooner.")
c("I", 0.88, "x", "SE: why does mint revert 'Price slippage check'", "Q: NonfungiblePositionManager.mint reverts with 'Price slippage check'.\nA: amount0Min/amount1Min were not satisfied: the pool price moved (or your range/ratio calculation is off) so the actual amounts deposited were below the minimums. Recompute amounts from the current sqrtPriceX96 right before minting.")
c("W", 0.84, "c", "deadline = block.timestamp", "Code review: `deadline: block.timestamp` in an on-chain call gives no protection, since it always equals the current block's time. Deadlines must be set off-chain by the signer (e.g. now + 300 s) and passed in as a parameter.")
c("C", 0.81, "p", "fee growth outside", "In v3, feeGrowthOutside of a tick is flipped each time price crosses it; fees earned inside [lower, upper] = global - below(lower) - above(upper). This is why a position's uncollected fees only update when the position is poked (mint/burn/collect).")
c("H", 0.66, "x", "sandwich detection heuristic", "Heuristic used in our dashboard: a swap is likely sandwiched if the same address swaps the same pool in the opposite direction immediately before and after it in the same block, and the victim received near its amountOutMinimum.")
c("I", 0.92, "p", "v2 factory/router addresses", "Uniswap v2 on mainnet: Factory %s, Router02 %s. Pair addresses are deterministic: CREATE2 with init code hash 0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f." % (A["UNI_V2_FACTORY"], A["UNI_V2_ROUTER02"]))
c("S", 0.74, "s", "liquidity calc python", '''def liquidity_for_amounts(sp, sa, sb, a0, a1):
    """sp, sa, sb: sqrt prices (floats); a0, a1 raw amounts."""
    if sa > sb: sa, sb = sb, sa
    if sp <= sa:
        return a0 * sa * sb / (sb - sa)
    if sp < sb:
        l0 = a0 * sp * sb / (sb - sp)
        l1 = a1 / (sp - sa)
        return min(l0, l1)
    return a1 / (sb - sa)''')
c("I", 0.86, "c", "1inch router", "1inch AggregationRouterV5 on mainnet: %s. Calldata comes from the 1inch API; always re-check the returned `to` and the token/amount fields before signing." % A["ONEINCH_V5"])
c("H", 0.71, "s", "tricrypto ng", "Curve crypto pools (tricrypto, twocrypto-ng) rebalance liquidity around an internal price_scale that follows an EMA oracle; get_dy includes the dynamic fee, which rises when the pool is imbalanced. Quote right before execution.")
ENTRIES = E
