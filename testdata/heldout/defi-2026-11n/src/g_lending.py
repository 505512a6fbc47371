from addrs import A
E = []
def c(t, conf, p, notes, content, lang="en"):
    E.append(("clean", t, conf, p, lang, notes, content))

c("I", 0.93, "p", "HF formula", "Aave health factor: HF = sum(collateral_i in base currency x liquidationThreshold_i) / total debt in base currency. Liquidation is allowed when HF < 1. LTV (not the liquidation threshold) bounds how much you can borrow.")
c("S", 0.78, "s", "getUserAccountData decode", '''const [totalCollateralBase, totalDebtBase, availableBorrowsBase,
       currentLiquidationThreshold, ltv, healthFactor] =
  await client.readContract({ address: POOL, abi: poolAbi, functionName: "getUserAccountData", args: [user] });
// base amounts: 8 decimals (USD, from the Aave oracle); ltv & threshold: basis points; healthFactor: 1e18 = 1.0
const hf = Number(healthFactor) / 1e18;''')
c("W", 0.87, "c", "liquidation bonus not profit", "Liquidation bonus (e.g. 5%) is not profit: you pay the swap to acquire the debt asset, the swap back of the seized collateral, gas, and the protocol's liquidation fee share. In competitive markets most of the bonus goes to gas/priority fees.")
c("I", 0.9, "p", "liquidationCall signature", "Aave v3: liquidationCall(address collateralAsset, address debtAsset, address user, uint256 debtToCover, bool receiveAToken). Pass type(uint256).max as debtToCover to liquidate the maximum allowed by the close factor.")
c("C", 0.84, "p", "close factor v3.x", "Aave v3 close factor: 50% of the debt may be repaid in one liquidation when HF is between 0.95 and 1; when HF < 0.95 (CLOSE_FACTOR_HF_THRESHOLD) the full debt may be liquidated. Later v3.x versions also allow full liquidation of small (dust) positions to avoid leftover bad debt.")
c("I", 0.88, "c", "e-mode", "Aave v3 e-mode groups correlated assets (e.g. ETH-correlated: WETH, wstETH, rETH) and gives them higher LTV and liquidation threshold when the borrowed asset is in the same category. Leaving e-mode is blocked if it would make HF < 1.")
c("W", 0.82, "s", "isolation mode", "Isolation mode (Aave v3): an isolated asset as collateral can only be used to borrow stablecoins flagged borrowableInIsolation, up to the asset's debt ceiling (in USD, 2 decimals). You cannot use other collateral at the same time while an isolated asset is enabled as collateral.")
c("H", 0.74, "x", "flash loan liquidation pattern", '''Flash-loan liquidation (Aave v3) outline:
1. flashLoanSimple(receiver, debtAsset, amount, params, 0)
2. in executeOperation: liquidationCall(collateral, debtAsset, user, amount, false)
3. swap received collateral -> debtAsset (with amountOutMinimum!)
4. approve Pool for amount + premium; return true
Premium on v3 is FLASHLOAN_PREMIUM_TOTAL (was 0.09%, governance-set; read it, don't hardcode).''')
c("I", 0.91, "p", "Comet address", "Compound v3 USDC market (Comet) on mainnet: %s. Supply USDC to earn; supply collateral (WETH, WBTC, ...) to borrow USDC. Balances accrue via an index; balanceOf returns principal plus interest for suppliers." % A["COMET_USDC"])
c("W", 0.86, "p", "bad debt socialization", "When a liquidation cannot cover the debt (collateral worth less than debt), the residual becomes bad debt. On Aave v3.3+ the remaining debt is burned and recorded as a reserve deficit; on other forks it simply lingers. Lenders bear it one way or another.")
c("C", 0.8, "c", "interest rate kink", "Most lending markets use a kinked rate curve: below optimal utilization the variable rate rises gently (slope1); above it steeply (slope2). Near 100% utilization, suppliers may not be able to withdraw until borrowers repay or the high rate attracts new supply.")
c("H", 0.7, "s", "monitoring threshold", "Our bot alerts at HF 1.25 and deleverages at HF 1.12 using a pre-signed flow. Price moves of 10% within an hour happen a few times a year on ETH; the buffer is sized for that plus oracle update lag.")
c("I", 0.89, "p", "Morpho Blue", "Morpho Blue (%s) markets are defined by (loanToken, collateralToken, oracle, irm, lltv) and are immutable once created. Risk curation happens in MetaMorpho vaults (ERC-4626) that allocate across markets." % A["MORPHO_BLUE"])
c("W", 0.85, "x", "Morpho oracle review", "A Morpho Blue market's oracle is set by the market creator. Before supplying to a market (directly or via a vault), check the oracle contract: its price() must return the collateral price scaled to 1e36 adjusted for decimals. Malformed oracles have been used to drain markets created by attackers.")
c("S", 0.73, "c", "sDAI/DSR", "sDAI (%s) is an ERC-4626 wrapper over the Dai Savings Rate: deposit DAI, receive shares; convertToAssets uses the Pot's chi accumulator, so the share price rises continuously even without drip() calls." % A["SDAI"])
c("I", 0.87, "p", "aToken balances", "Aave aTokens are rebasing: balanceOf grows with the liquidity index. scaledBalanceOf returns the non-rebasing amount; multiply by getReserveNormalizedIncome(asset)/1e27 to get balanceOf. Integrations that cache balances should cache scaled balances.")
c("H", 0.76, "s", "debt token rounding", "Repaying 'all' debt: pass type(uint256).max as amount to Pool.repay; computing the amount off-chain leaves dust because interest accrues between quote and inclusion. For withdraw, type(uint256).max likewise withdraws the whole aToken balance.")
c("W", 0.88, "c", "Euler 2023 attack summary", "Euler Finance (March 2023, ~$197M): the attacker used donateToReserves, which reduced their eToken (collateral) balance without checking their health, making the account deeply insolvent on purpose, then liquidated themselves from a second account at a large discount. Lesson: every function that reduces collateral must run the solvency check.")
c("C", 0.79, "p", "oracle price and liquidation", "Liquidations are triggered by the protocol's oracle price, not by DEX spot. A sharp wick on one exchange that the oracle (e.g. Chainlink median of many sources) does not reflect will not liquidate you; a slow-moving oracle can also delay liquidations, which is a risk for lenders.")
c("I", 0.84, "x", "SE: 'error 35'", "Q: Aave v3 borrow reverts with error '35'.\nA: v3 reverts with numeric error codes (Errors.sol). 35 is HEALTH_FACTOR_LOWER_THAN_LIQUIDATION_THRESHOLD in v3.0 - your borrow would push HF below 1. Newer versions use custom errors; decode with the matching Errors library for the deployed version.")
c("S", 0.72, "c", "liquidation bot pseudocode", '''for user in candidates:
    hf = pool.getUserAccountData(user)[5] / 1e18
    if hf >= 1: continue
    coll, debt = pick_largest(user)          # by base value
    max_cover = debt_amount * (0.5 if hf > 0.95 else 1.0)
    profit = estimate(coll, debt, max_cover) - gas_cost()
    if profit > MIN_PROFIT:
        submit_private(build_flash_liquidation(user, coll, debt, max_cover))''')
c("I", 0.9, "p", "GHO", "GHO (%s) is Aave's stablecoin, minted by facilitators (the Aave Pool is one). Borrowers of GHO pay a governance-set rate; stkAAVE holders historically got a discount." % A["GHO"])
c("H", 0.71, "x", "supply cap read", "To check headroom before supplying: getReserveData(asset).configuration encodes the supply cap in bits 116-151 (whole tokens, no decimals). Headroom = cap x 10^decimals - (aToken totalSupply + accruedToTreasury scaled).")
c("W", 0.89, "p", "Compound v2 fork empty market", "Compound v2 forks: a newly listed cToken market with zero supply can be exploited via the exchange-rate rounding (donate underlying, redeem rounding) to drain other markets (Hundred Finance, Onyx). Mitigation: seed new markets with supply and burn some cTokens in the same tx as listing.")
c("C", 0.77, "s", "stablecoin depeg and lending", "If a stablecoin used as collateral depegs and the oracle follows it, borrowers against it get liquidated; if the oracle is hardcoded to $1, the market instead accumulates bad debt as arbitrageurs deposit the cheap stablecoin and borrow real assets. Both designs have a failure mode.")
c("I", 0.83, "c", "crvUSD LLAMMA", "crvUSD (%s) uses LLAMMA soft liquidations: collateral sits in price bands and is gradually converted to crvUSD as price falls through the bands, and back as it rises. Positions lose value through this conversion even if they are never hard-liquidated." % A["CRVUSD"])
c("H", 0.68, "s", "rate mode constant", "On Aave v3, interestRateMode 2 = variable. Stable borrowing (mode 1) is disabled on current markets and newer versions removed it entirely; don't pass 1.")
ENTRIES = E
