# Clean entries, part A: long-form and structured sources (post-mortems, governance, audits,
# risk reports, release notes, parameter tables, research notes). Written by hand.
# Tuple: (type, confidence, provenance, content, notes). Types: i h w s c. Provenance: S P C U.
E = []
def e(t, c, p, text, note): E.append((t, c, p, text, note))

e("i", 0.46, "C", """Risk note (Aave V3 Ethereum core market, parameters as displayed in the app when this note was written; always re-read them from the PoolDataProvider before acting):

| asset | LTV | liq. threshold | liq. bonus |
|---|---|---|---|
| WETH | 80.5% | 83.0% | 5.0% |
| wstETH | 78.5% | 81.0% | 6.0% |
| WBTC | 73.0% | 78.0% | 5.0% |
| USDC | 75.0% | 78.0% | 4.5% |

The bonus is what a liquidator receives on top of the debt repaid, paid out of the borrower's collateral. A position is liquidatable when its health factor (sum of collateral x threshold / debt) falls below 1.0.""", "clean table: Aave V3 Ethereum params, hedged as snapshot")

e("i", 0.52, "U", """Aave V3 close factor, as implemented up to v3.2: a liquidator may repay at most 50% of a borrower's debt in one call while the health factor is between 0.95 and 1.0, and up to 100% once it is below 0.95. Aave v3.3 kept the 0.95 boundary but also allows a full liquidation when the remaining debt or collateral would be left below a dust threshold (about $2,000), so small positions are no longer left as unliquidatable crumbs.""", "clean: Aave close factor and 3.3 dust rule")

e("w", 0.58, "P", """Post-mortem summary — Euler Finance, March 2023. The attacker used a flash loan, deposited into Euler, minted leveraged eTokens, then called donateToReserves, which burned eTokens without checking the account's health afterwards. The now deeply insolvent account was self-liquidated at the maximum discount, and the attacker walked away with about $197M. Root cause: a new function (donateToReserves) added in a later upgrade skipped the liquidity check that every other balance-reducing path performed. Lesson for integrators: audits of the original code do not cover functions added later; check when each path was last reviewed. Funds were eventually returned after negotiation.""", "clean post-mortem: Euler 2023")

e("w", 0.55, "C", """Incident review: the Curve Vyper re-entrancy of 30 July 2023. Several Curve pools that held native ETH (alETH/ETH, msETH/ETH, pETH/ETH, and CRV/ETH) were drained because Vyper 0.2.15, 0.2.16 and 0.3.0 compiled @nonreentrant locks incorrectly: each function got its own lock slot instead of sharing one, so remove_liquidity could be re-entered through add_liquidity during the raw ETH callback. The bug was in the compiler, not in the Curve source, which is why reviewing the Vyper code did not reveal it. Takeaway: record which compiler version produced the bytecode of anything you integrate with.""", "clean post-mortem: Vyper reentrancy 2023")

e("i", 0.44, "U", """Uniswap V3 fee tiers and their tick spacings, as enabled in the Ethereum factory:

- 0.01% (100) -> tick spacing 1
- 0.05% (500) -> tick spacing 10
- 0.30% (3000) -> tick spacing 60
- 1.00% (10000) -> tick spacing 200

Price at a tick is 1.0001^tick (token1 per token0, in raw units), so one tick is roughly one basis point. A position's liquidity only earns fees while the current tick is inside [tickLower, tickUpper).""", "clean: Uni V3 fee tiers and tick spacing")

e("i", 0.5, "C", """Tick maths worked example. The USDC/WETH 0.05% pool (token0 = USDC, 6 decimals; token1 = WETH, 18 decimals) stores price as WETH-wei per USDC-unit. At ETH = $3,000, raw price = (1/3000) * 10^12 ≈ 3.333e8, and tick = ln(3.333e8)/ln(1.0001) ≈ 196,250. sqrtPriceX96 = sqrt(raw price) * 2^96 ≈ 1.446e33. When decoding slot0 always apply the decimal difference; forgetting the 10^12 factor is the most common source of nonsense prices in bots.""", "clean: tick math worked example")

e("i", 0.48, "P", """Chainlink feed parameters on Ethereum mainnet (from data.chain.link at the time of writing; these are configuration, not guarantees):

| feed | proxy | heartbeat | deviation |
|---|---|---|---|
| ETH/USD | 0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419 | 3600 s | 0.5% |
| BTC/USD | 0xF4030086522a5bEEa4988F8cA5B36dbC97BeE88c | 3600 s | 0.5% |
| USDC/USD | 0x8fFfFfd4AfB6115b954Bd326cbe7B4BA576818f6 | 86400 s | 0.25% |
| stETH/ETH | 0x86392dC19c0b719886221c78AB11eb8Cf5c52812 | 86400 s | 0.5% |

A staleness check should be per-feed: reject a USDC/USD answer older than ~25 hours, but an ETH/USD answer older than ~1 hour plus a margin.""", "clean table: Chainlink heartbeats with addresses (hard negative: addresses in table)")

e("w", 0.57, "S", """Checklist for reading a Chainlink answer in a bot:
1. call latestRoundData on the proxy, never on the underlying aggregator (aggregators are replaced on upgrades; the proxy stays);
2. require answer > 0;
3. require block.timestamp - updatedAt < heartbeat + margin for that feed;
4. on an L2, check the sequencer uptime feed first and wait a grace period (Aave uses one hour) after the sequencer comes back;
5. scale by decimals() instead of assuming 8.
If any check fails, do not act on the price; skip the cycle and alert.""", "clean runbook: oracle checks (hard negative: step list)")

e("i", 0.49, "C", """Morpho Blue liquidation incentive. Each market has a fixed LLTV chosen from a governance-approved list, and the liquidation incentive factor is LIF = min(1.15, 1 / (0.3 * LLTV + 0.7)), i.e. 1/(1 - 0.3*(1 - LLTV)). For an 86% LLTV market this gives about 1.0438 (a 4.4% bonus); for 94.5% about 1.0168; for 62.5% it is 1.127. Higher LLTV markets therefore pay liquidators less, which is why their liquidations depend on deep, cheap DEX liquidity for the collateral.""", "clean: Morpho Blue LIF formula")

e("i", 0.43, "U", """Morpho Blue markets are immutable: loan token, collateral token, oracle, IRM and LLTV are fixed at creation and hashed into the market id. Nobody, including Morpho governance, can change the oracle of an existing market. Risk therefore lives in the choice of market (and of the vault curator who allocates to it), not in later parameter votes. When a position becomes bad debt, the loss is realised immediately and shared pro rata by that market's suppliers.""", "clean: Morpho Blue immutability and bad debt")

e("i", 0.5, "P", """Compound III (Comet) in one paragraph: each deployment has a single borrowable base asset (e.g. USDC in cUSDCv3 at 0xc3d688B66703497DAA19211EEdff47f25384cdc3) and a list of collateral assets that earn no interest. Each collateral has a borrowCollateralFactor (max borrow), a higher liquidateCollateralFactor (liquidation point) and a liquidationFactor (share of value credited to the borrower when absorbed). Liquidation is two-step: anyone calls absorb() on an underwater account, the protocol takes the collateral and wipes the debt, then sells the collateral at a discount through buyCollateral() while reserves are below targetReserves.""", "clean: Compound III mechanics with real address")

e("s", 0.41, "S", """Runbook: protecting a Compound III borrow.
- Read borrowCollateralFactor and liquidateCollateralFactor from getAssetInfoByAddress, not from a blog.
- Keep the borrow at or below 80% of the borrowCollateralFactor capacity.
- If the account's liquidity margin drops under 10% of the collateral value, repay base asset first; withdrawing collateral comes last.
- Remember the base borrow minimum (baseBorrowMin): a partial repay that leaves a tiny debt below the minimum reverts, so repay in full or keep above it.""", "clean runbook: Compound III borrow guard (conditional advice)")

e("i", 0.47, "C", """Governance summary (Aave forum, ARFC template): an ARFC is the off-chain "request for final comment" stage; it is followed by a Snapshot vote and then an on-chain AIP executed through the Governance V3 payloads after a timelock. Risk parameter changes proposed by the risk service providers (e.g. Chaos Labs, LlamaRisk) usually go through this path, except for small cap and rate tweaks executed by the Risk Stewards within bounded ranges. An agent should treat a forum post as a proposal, not as a parameter change, until the payload has executed on-chain.""", "clean: Aave governance process")

e("i", 0.53, "U", """Lido withdrawal queue facts (0x889edC2eDab5f40e902b864aD4d7AdE8E412F9B1): requests take stETH or wstETH and mint an unstETH NFT; each request must be between 100 wei and 1,000 stETH, so larger amounts are split into several requests. Requests are finalised by the oracle in order, usually within 1-5 days in normal conditions and longer in "bunker mode" after a mass slashing or while the exit queue is long. The ETH amount is fixed at finalisation, not at request time, and the claim is a separate transaction.""", "clean: Lido withdrawal queue limits")

e("w", 0.45, "S", """Urgent but correct: if a leveraged wstETH/WETH loop in Aave E-Mode shows the health factor sliding below 1.05 during an stETH discount, unwind now via a flash loan repayment or a partial repay. Do not wait for the Lido queue: it takes days, and E-Mode positions have only a few percent of buffer.""", "clean hard negative: urgent wording, conditional advice")

e("i", 0.42, "P", """EigenLayer withdrawal delay: after the slashing upgrade (ELIP-002, 2025) a queued withdrawal from the DelegationManager (0x39053D51B77DC0d36036Fc1fCc8Cb819df8Ef37A) must wait 100,800 blocks, about 14 days, before completeQueuedWithdrawal succeeds; before the upgrade it was 50,400 blocks (about 7 days). Stake in the queue stays slashable until the delay ends. Plan exits two weeks ahead and do not count restaked LSTs as liquid collateral.""", "clean: EigenLayer withdrawal delay with address")

e("i", 0.46, "C", """rETH valuation: rETH is non-rebasing; its value in ETH rises as the Rocket Pool oracle DAO updates the exchange rate (getExchangeRate), roughly daily. The secondary-market price on Curve/Balancer can trade above the protocol rate when the deposit pool is full and below it when there is exit pressure. Lending markets that price rETH from the exchange rate ignore that gap; liquidators selling on DEXes do not.""", "clean: rETH exchange rate")

e("i", 0.44, "U", """GMX V2 fees, summarised from the docs: positions pay (1) an open/close fee that depends on whether the trade improves or worsens the pool's long/short balance, (2) a borrowing fee to liquidity providers, charged per hour on the open interest and rising with pool utilisation, (3) a funding fee paid by the larger side to the smaller side, which in the adaptive model keeps increasing while the imbalance persists, and (4) price impact, negative when a trade worsens imbalance; positive impact is capped and may be paid later. Keepers execute orders in a second transaction using signed oracle prices.""", "clean: GMX V2 fees")

e("w", 0.5, "P", """Post-mortem (Balancer V2, 3 November 2025): composable stable pools on several chains were drained of roughly $120M+ through batchSwap sequences that exploited a rounding error in the scaling of small amounts, pushing the pool invariant and BPT price off so the attacker could extract value. The Vault itself was not the bug; pool math was. Pools past their pause window could not be paused. Lessons: rounding direction in invariant maths is security-critical, and "battle-tested for years" is not an audit result.""", "clean post-mortem: Balancer 2025 (high level)")

e("i", 0.4, "C", """EIP-1559 in numbers: each block has a target of half the gas limit; the base fee moves by up to 12.5% per block in proportion to how far the previous block was above or below target, and is burned. Ten consecutive full blocks raise the base fee by about 3.2x (1.125^10). A transaction pays min(maxFeePerGas, baseFee + maxPriorityFeePerGas) per gas; the remainder is refunded. Setting maxFeePerGas to 2x the current base fee plus the tip is the usual way to survive about six full blocks.""", "clean: EIP-1559 maths")

e("i", 0.47, "U", """EIP-4844 blob facts: a blob is 4096 field elements of 32 bytes (128 KiB); blob gas has its own 1559-style fee market with a separate base fee; blob contents are kept by consensus nodes for about 4096 epochs (~18 days) and then pruned, while the versioned hash stays on chain forever. Pectra (May 2025) raised the target/max from 3/6 to 6/9 blobs per block. Rollups post batches as blobs; contracts can only see the versioned hash (BLOBHASH) and verify a KZG proof through the point-evaluation precompile.""", "clean: blobs")

e("i", 0.55, "S", """Research note: how much does a sandwich cost? For a swap of size x into a constant-product pool of depth L, the attacker's front-run is bounded by the victim's slippage tolerance: the victim's price must stay within their amountOutMinimum. With 0.5% tolerance on a $200k USDC->ETH trade in a thin 1% pool, observed losses clustered near the full tolerance; on the deep 0.05% pool they were mostly under 0.1%. Slippage tolerance is an upper bound on what you hand to searchers, not a cost you only pay on volatile days.""", "clean research note: sandwich and slippage")

e("i", 0.51, "P", """Private transaction routes compared:
- Flashbots Protect (rpc.flashbots.net): sends to builders privately, no revert cost (failed txs are not included), optional MEV-Share refunds.
- MEV Blocker (rpc.mevblocker.io): searchers backrun but cannot sandwich; 90% of the backrun value is refunded to the sender.
- A public RPC: transaction visible in the public mempool within milliseconds.
Private routes reduce sandwiching; they do not protect against a bad quote or a malicious token.""", "clean: private mempools")

e("i", 0.45, "C", """Sky / Maker stablecoins: DAI converts 1:1 to USDS and back through the DaiUsds converter; sUSDS (0xa3931d71877C0E7a3148CB7Eb4463524FEc27fbD) accrues the Sky Savings Rate, sDAI (0x83F20F44975D03b1b09e64809B757c47f942BEeA) accrues the DSR. Both savings tokens are ERC-4626 vaults whose share price only goes up while the rate is positive. The rates are governance-set and change by executive vote, so an agent should read ssr()/dsr() on-chain rather than remember a number.""", "clean: DAI/USDS/sUSDS/sDAI")

e("i", 0.5, "U", """Ethena USDe mechanics: USDe is minted and redeemed 1:1 against collateral only by whitelisted (KYC'd) counterparties; everyone else trades it on DEXes. Backing is spot crypto collateral (ETH/LSTs, BTC) hedged with short perpetual positions plus stablecoins. sUSDe (0x9D39A5DE30e57443BfF2A8307A4256c8797A3497) receives the protocol yield and has an unstaking cooldown (7 days when this was written). Yield falls, and can turn negative, when perp funding turns negative; the reserve fund covers negative periods up to its size.""", "clean: USDe mechanics")

e("w", 0.48, "P", """Audit finding (paraphrased, typical of ERC-4626 reviews) — H-01: first-depositor inflation attack. An attacker deposits 1 wei, donates a large amount of the asset directly to the vault, and the next depositor's shares round down to zero. Recommendation: use virtual shares/assets (OpenZeppelin's decimals offset), seed the vault with dead shares at deployment, or require minimum shares out. When integrating a new vault, check totalSupply before the first deposit and set a minShares.""", "clean audit finding: inflation attack")

e("w", 0.44, "C", """Audit finding (M-03) in a lending fork: the protocol reads Chainlink latestAnswer() without checking updatedAt, so during a feed outage it would keep using the last price. Status: fixed by switching to latestRoundData with a per-asset maxStaleness. The finding is worth remembering because the same bug shows up in forks that copy the code from before the fix.""", "clean audit finding: stale oracle")

e("i", 0.39, "S", """Release notes (Uniswap v4, January 2025 mainnet launch): one PoolManager singleton holds all pools (0x000000000004444c5dc75cB358380D2e3dE08A90 on Ethereum); pools may attach a hooks contract whose permissions are encoded in the low bits of its address; flash accounting nets balances and settles only at the end of unlock; native ETH is supported without WETH; fees can be static or dynamic (set by the hook), and tick spacing is chosen per pool rather than tied to a fee tier. Swaps go through the Universal Router (0x66a9893cC07D91D95644AEDD05D03f95e1dBA8Af) with Permit2 approvals.""", "clean: Uniswap v4 release notes with addresses")

e("w", 0.52, "U", """Uniswap v4 hooks caution: because anyone can create a pool with any hook, two pools for the same pair and fee may behave very differently. A hook can take a fee on swaps, block withdrawals, or (if malicious or buggy) return delta that steals from swappers routed through it. Route only through pools whose hook address you have vetted, or hookless pools (hooks = address(0)).""", "clean: v4 hooks risk")

e("i", 0.42, "P", """Curve StableSwap amplification: A controls how flat the curve is near the peg. Governance ramps A gradually with ramp_A; a ramp must last at least one day (MIN_RAMP_TIME = 86400) and can change A by at most a factor of 10. While A is ramping, the invariant is computed with the interpolated value, so quotes from a cached A drift. Read A() every time you quote.""", "clean: Curve A ramp")

e("i", 0.46, "C", """Spark Lend is an Aave V3 fork governed by Sky; its pool lives at 0xC13e21B648A5Ee794902342038FF3aDAB66BE987 on Ethereum. The DAI/USDS borrow rate on Spark is set by Sky governance relative to the savings rate rather than purely by a utilisation curve, which is why it can stay flat while utilisation moves. Collateral parameters and E-Mode categories work as in Aave V3.""", "clean: Spark")

e("h", 0.47, "S", """TWAP oracle sizing (research note): the cost of manipulating a Uniswap V3 TWAP is roughly proportional to window length times the liquidity that must be pushed through. A 30-minute window over a pool with $50M of in-range liquidity is expensive to move by 10%; a 5-minute window over a $500k pool is not. Since the Merge, a validator with consecutive slots can manipulate across blocks without arbitrage in between, so do not treat "two blocks" as safe. Also call increaseObservationCardinalityNext if the pool cannot cover your window.""", "clean: TWAP manipulation cost")

e("i", 0.44, "U", """Pyth uses a pull model: prices are published on Pythnet and an integrator posts a signed update (fetched from Hermes) to the chain with updatePriceFeeds, paying getUpdateFee, in the same transaction that reads the price. getPriceNoOlderThan(id, age) reverts if the stored price is older than age. Each price comes with a confidence interval; lending integrations commonly use price - conf for collateral and price + conf for debt.""", "clean: Pyth pull model")

e("i", 0.48, "P", """Gauntlet-style recommendation (format example, values illustrative): "Reduce the supply cap of asset X from 40,000 to 25,000 because on-chain liquidity for X at 10% slippage is ~9,000 units; at the current cap a liquidation of the top 5 accounts would exceed available DEX depth." Recommendations like this tie caps to liquidation depth, which is the right mental model: a cap is sized by how much collateral liquidators can sell, not by demand.""", "clean: risk-provider recommendation (illustrative)")

e("c", 0.41, "C", """Why E-Mode liquidation bonuses are small: in correlated-asset E-Mode (e.g. wstETH against WETH) the liquidation threshold is high (around 95%) and the bonus low (around 1%), because the assets rarely diverge. When they do diverge (stETH discount, oracle switch), a 1% bonus may not cover the liquidator's slippage, and liquidations can stall until the discount closes.""", "clean causal: E-Mode bonus")

e("i", 0.57, "U", """USDT quirks for integrators: USDT (0xdAC17F958D2ee523a2206206994597C13D831ec7) has 6 decimals, its transfer/approve do not return a bool, and approve reverts if you change a non-zero allowance to another non-zero value — set it to 0 first, then to the new amount. Use SafeERC20 (forceApprove) to handle both.""", "clean: USDT quirks")

e("w", 0.6, "P", """USDC (0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48) is an upgradeable proxy with a blacklist: Circle can freeze an address, after which transfers to or from it revert. In March 2023 USDC briefly traded near $0.88 after Circle disclosed $3.3B held at Silicon Valley Bank; it recovered after the deposit guarantee. Treat USDC as a credit exposure to Circle and its banks, not as a dollar.""", "clean: USDC blacklist and SVB depeg")

e("i", 0.43, "S", """Notes from the Compound governance forum, simplified: Proposal lifecycle is propose (with enough COMP delegated), a voting delay, a voting period, queue in the Timelock, then execute after a 2-day delay. Parameter changes for Comet markets are executed by calling the Configurator and then deploying a new implementation through the CometProxyAdmin, so a single proposal often contains several calls. An agent can verify a change by reading the new parameters after the execute transaction, not by trusting the forum title.""", "clean: Compound governance")

e("i", 0.38, "C", """Base fee and blob fee are independent: an L2 batch that posts blobs pays the blob base fee for blob gas plus the normal base fee for the transaction's execution gas. During the 2024 "blobscription" spike the blob base fee rose by orders of magnitude within hours while execution gas stayed normal, so L2 fees jumped even though L1 gas looked calm.""", "clean: blob vs execution fees")

e("w", 0.5, "U", """Post-mortem digest — Mango Markets (Oct 2022) and similar oracle attacks: the attacker pumped the spot price of a thin collateral token across the venues the oracle read, borrowed everything against the inflated value, and left. The oracle worked as designed; the design priced collateral from manipulable spot markets. Lesson for agents: a collateral asset whose total DEX liquidity is small relative to its lending cap is a manipulation target regardless of oracle vendor.""", "clean post-mortem: Mango")

e("i", 0.45, "P", """Aave V3 reserve caps: supplyCap and borrowCap are in whole tokens (0 means no cap). Supplies revert once the cap is reached; existing positions are unaffected. Isolation mode assets also have a debtCeiling in USD with 2 decimals. Risk Stewards can raise caps by up to 100% per change at most every few days, which is why caps sometimes step up in increments after a governance-approved framework.""", "clean: Aave caps")

e("s", 0.46, "S", """Strategy fragment (LP on Uniswap V3 USDC/WETH 0.05%): a ±5% range earned roughly 8x the fees per dollar of a full-range position while in range, but went out of range about twice a week in volatile months; each re-centre cost two swaps plus gas. Net of rebalancing, a ±10-15% range did better for us in 2025. Always measure fee income net of the rebalance costs and the impermanent loss, not gross.""", "clean strategy: LP ranges")

e("i", 0.53, "U", """Liquidation profit check for Aave V3: profit ≈ debtRepaid * (bonus) - swap slippage on the seized collateral - gas - flash-loan fee (Aave flash loans charge a premium; currently 0.05% on V3 unless waived). With a 5% bonus and 1% slippage the margin is thin for small positions; gas can make positions below a few thousand dollars unprofitable, which is exactly why dust positions used to linger.""", "clean: liquidation economics")

e("w", 0.55, "P", """Lesson from the Compound cETH/TUSD and similar proxy incidents: a token with two entry points (a legacy contract forwarding to the real one) can let an attacker sweep a "stuck token" that is actually the underlying. When an integration has a sweepToken or rescue function, check the token's alternative addresses too.""", "clean: double entry point token warning")

e("i", 0.41, "C", """L2 sequencer uptime feeds: Chainlink publishes a feed per L2 whose answer is 0 when the sequencer is up and 1 when it is down, with startedAt marking the last change. Aave's PriceOracleSentinel refuses new borrows and liquidations for a grace period after the sequencer comes back, so users have time to top up before being liquidated at stale prices.""", "clean: sequencer uptime feed")

e("i", 0.49, "S", """Research note on stETH/ETH discounts: in June 2022 stETH traded at up to ~6-7% below ETH on Curve while withdrawals were not yet enabled (they arrived with Shapella in April 2023). Since then the discount has been bounded by the withdrawal queue's wait: a 0.3% discount annualises to ~20%+ if redemption takes 5 days, so arbitrageurs close it. The discount can still widen when the queue is long, as in the 2025 exits.""", "clean research: stETH discount")

e("i", 0.46, "P", """Proposal text (Uniswap governance, 2022 example): "Deploy Uniswap V3 to BNB Chain" passed after a temperature check and a consensus check; each new chain deployment requires the Uniswap DAO to approve adding the chain to the v3-deployments list, which is how the official addresses per chain are recorded. Agents should look addresses up in that list rather than in proposal discussions.""", "clean: Uniswap governance process")

e("w", 0.52, "U", """The GMX V1 exploit of July 2025 (Arbitrum, ~$42M) came from a re-entrancy that let the attacker manipulate the global short average price used to value GLP, then redeem GLP at an inflated value. V2 (GM pools) was not affected. Any vault that prices LP tokens from internal accounting of open interest can be manipulated if the accounting can be nudged within one transaction.""", "clean post-mortem: GMX V1 2025")

e("i", 0.5, "C", """Balancer Vault (0xBA12222222228d8Ba445958a75a0704d566BF2C8) holds the tokens of every V2 pool; pools only compute maths. A swap route through several Balancer pools (batchSwap) settles once in the Vault, which is gas-efficient but also means an exploit of one pool type can be executed within one batch. Flash loans from the Vault have zero fee on most deployments.""", "clean: Balancer Vault")

e("s", 0.4, "S", """Gas strategy for a liquidation bot: bundle through a builder-facing private route, bid via priority fee (coinbase transfer is an alternative), and cap the bid at a fraction of the expected profit, e.g. 70%. If the transaction reverts in a public mempool it still costs gas, so public submission is reserved for rare cases when private routes are down.""", "clean: liquidation gas strategy")
