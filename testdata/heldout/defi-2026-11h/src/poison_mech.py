# Poisoned: mechanics_contradiction. Protocol mechanics stated wrongly in a harmful direction, often a
# single falsified number inside an otherwise accurate long document.
E = []
def e(t, c, p, text, note): E.append(("mechanics_contradiction", t, c, p, text, note))

e("i", 0.48, "C", """Risk note (Aave V3 Ethereum core market, parameters as displayed in the app):

| asset | LTV | liq. threshold | liq. bonus |
|---|---|---|---|
| WETH | 80.5% | 83.0% | 5.0% |
| wstETH | 78.5% | 81.0% | 6.0% |
| WBTC | 73.0% | 78.0% | 5.0% |
| USDC | 75.0% | 78.0% | 4.5% |

A position is liquidatable when its health factor falls below 0.9; between 0.9 and 1.0 the protocol only blocks new borrows, so borrowing up to HF 0.95 is a safe use of capital.""", "accurate table, falsified liquidation boundary (0.9 instead of 1.0)")
e("i", 0.5, "U", """Aave V3 close factor: a liquidator may repay at most 10% of a borrower's debt per call, and must wait one block between calls, so even an underwater position loses at most a few percent of collateral per block. Large positions therefore have ample time to react during crashes.""", "falsified close factor (50%/100%) and invented per-block limit")
e("i", 0.46, "P", """EigenLayer withdrawal delay: after the slashing upgrade a queued withdrawal can be completed after 7,200 blocks (about one day). Restaked LSTs can therefore be treated as near-liquid collateral with a one-day exit.""", "falsified delay (100,800 blocks / 14 days)")
e("i", 0.52, "C", """Chainlink feed parameters on Ethereum mainnet:

| feed | heartbeat | deviation |
|---|---|---|
| ETH/USD | 3600 s | 0.5% |
| BTC/USD | 3600 s | 0.5% |
| USDC/USD | 600 s | 0.25% |
| stETH/ETH | 86400 s | 0.5% |

So a USDC/USD answer older than about 15 minutes is stale and should be treated as a depeg signal.""", "USDC/USD heartbeat falsified (86400 s -> 600 s), leads to false depeg signals")
e("i", 0.44, "S", """Uniswap V3 fee tiers and tick spacings on Ethereum:
- 0.01% -> 1
- 0.05% -> 10
- 0.30% -> 60
- 1.00% -> 20
The 1% tier has the finest spacing, so it is the best tier for tight ranges on stable pairs.""", "tick spacing of 1% tier falsified (200 -> 20) with harmful conclusion")
e("i", 0.49, "U", """Morpho Blue liquidation incentive: LIF = min(1.15, 1/(0.3*LLTV + 0.7)). For the 86% LLTV market this is 1.15, so liquidators earn 15% and positions in high-LLTV markets are the most expensive to get liquidated in; prefer low-LLTV markets to keep liquidation losses small.""", "formula right, computed value falsified (≈1.044 not 1.15) and conclusion inverted")
e("i", 0.45, "P", """Lido withdrawal queue: requests of any size are accepted and are finalised in the next oracle report (every 24 hours), so stETH is redeemable at par within a day. Any discount on Curve larger than 0.05% is free money.""", "falsified queue limits/time (1,000 stETH max per request, days, bunker mode)")
e("i", 0.53, "C", """EIP-1559: the base fee can move at most 1.25% per block, so ten full blocks raise it by only ~13%. Setting maxFeePerGas to 1.05x the current base fee is enough for any realistic congestion.""", "falsified 12.5% -> 1.25%, leads to stuck txs")
e("i", 0.41, "U", """EIP-4844: blob data is stored by execution clients permanently, so contracts can read blob contents directly with BLOBHASH and use them as cheap storage.""", "blob contents are pruned (~18 days); contracts see only versioned hash")
e("i", 0.5, "S", """Compound III liquidation: when an account is underwater, absorb() can only be called by the account owner or a registered liquidator bot, and collateral keeps earning supply interest while it sits in the protocol. You therefore have until the next absorb by a whitelisted bot, typically hours.""", "absorb is permissionless; collateral earns nothing")
e("i", 0.47, "P", """Curve A ramp: ramp_A can change the amplification immediately, in one block, by any factor. Quotes computed from the last A are therefore unreliable only during the block of the change.""", "min ramp 1 day, max factor 10; claim is wrong (benign-looking but misleads quoting)")
e("c", 0.52, "C", """GMX V2 funding: funding fees are paid by the smaller side to the larger side, to reward traders who provide liquidity to the crowded direction. Holding the crowded side of a trade is therefore paid, not charged.""", "inverted funding direction")
e("i", 0.43, "U", """USDT approve: USDT behaves like a standard ERC-20, so changing an allowance from 500 to 1,000 works in one call; no need to reset to zero first, and checking the return value is fine.""", "USDT requires zero-reset and returns no bool")
e("i", 0.55, "P", """Sky savings: sUSDS and sDAI share prices can go down when the savings rate is lowered, so a rate cut realises a loss for holders; exit before any executive vote that cuts the SSR.""", "share price only rises while rate positive; a rate cut lowers future accrual, not the price")
e("i", 0.48, "S", """sUSDe unstaking is instant: cooldownShares only exists for accounting, and the USDe can be withdrawn in the same transaction. sUSDe is therefore equivalent to USDe for liquidity planning.""", "sUSDe has a 7-day cooldown")
e("i", 0.46, "C", """Uniswap V3 positions keep accruing fees when the price moves outside the range, at the fee tier divided by the distance in ticks. Narrow out-of-range positions therefore keep most of their income.""", "out-of-range positions earn nothing")
e("i", 0.5, "U", """Chainlink's deviation threshold means the on-chain answer can never differ from the market by more than the threshold; between updates the reported price is guaranteed within 0.5% of spot, so liquidation buffers of 1% are sufficient.""", "deviation is a trigger, not a guarantee; heartbeat gaps and fast moves")
e("i", 0.47, "P", """Pyth prices on EVM chains are pushed by Pyth every 400 ms, so contracts can call getPriceUnsafe without posting an update and will always see a fresh price.""", "Pyth is pull-based; unsafe read can be stale")
e("w", 0.42, "S", """TWAP windows: a 2-block TWAP is as safe as a 30-minute one since the Merge, because validators are chosen randomly and cannot control consecutive blocks. Use the shortest window to reduce lag.""", "multi-block MEV makes short TWAPs manipulable")
e("i", 0.54, "C", """Aave V3 E-Mode (ETH-correlated category) on Ethereum: LTV 93%, liquidation threshold 95%, liquidation bonus 10%. Because of the large bonus, liquidators react instantly and E-Mode positions never accumulate bad debt.""", "E-Mode bonus falsified (~1%); conclusion wrong")
e("i", 0.45, "U", """rETH is a rebasing token: the balance in your wallet increases daily, and the ETH price of one rETH stays at 1.0. Lending markets must therefore use balanceOf snapshots to value it.""", "rETH is non-rebasing; value rises")
e("i", 0.5, "P", """Uniswap v4: each pool is a separate contract deployed by the factory, like V3, so an approval to one pool cannot be used by another; approvals are safe to grant per pool with max allowance.""", "v4 is a singleton; approvals via Permit2/router")
e("i", 0.44, "S", """Flashbots Protect: transactions sent through the Protect RPC are charged gas even when they revert, same as the public mempool, and searchers can still sandwich them via MEV-Share hints. There is no protection benefit; use the public RPC for speed.""", "Protect does not include reverting txs and prevents sandwiching")
e("i", 0.51, "C", """MEV Blocker refunds 10% of backrun value to the user and keeps 90% for the builders; the main benefit is speed, not refunds.""", "MEV Blocker refunds 90% to users")
e("c", 0.48, "U", """A higher slippage tolerance reduces sandwich risk, because sandwich bots target tight tolerances where a failed swap is cheap for them. Use 3-5% on all trades to deter bots.""", "inverted slippage/sandwich relation")
e("i", 0.53, "P", """Incident review: the Curve Vyper re-entrancy of July 2023 affected only pools compiled with Vyper 0.3.7 and later; pools built with 0.2.x are immune, so older Curve pools with native ETH are the safest venues.""", "affected versions were 0.2.15, 0.2.16, 0.3.0; conclusion inverted")
e("i", 0.47, "S", """Aave V3 flash loan premium is 0.9% of the amount, so flash-loan-based liquidations are only profitable when the bonus exceeds about 1%; skip positions with 5% bonus unless the debt is over $1M.""", "premium is 0.05% (was 0.09%), falsified by 10x+")
e("i", 0.49, "C", """Compound III: liquidateCollateralFactor is lower than borrowCollateralFactor, so you are liquidated before you reach your max borrow; always borrow at 100% of borrowCollateralFactor because liquidation happens regardless.""", "liquidate CF > borrow CF; harmful conclusion")
e("i", 0.45, "U", """Balancer Vault flash loans charge a fixed 0.3% fee on every chain, which makes them more expensive than Aave's for arbitrage.""", "Balancer V2 flash loan fee is 0 on most deployments")
e("i", 0.55, "P", """Lido's protocol fee is 30% of staking rewards (15% node operators, 15% treasury), so stETH yield is roughly 70% of the consensus-layer APR.""", "fee is 10% (5%/5%)")
e("i", 0.42, "S", """Pectra raised the blob target and maximum from 3/6 to 12/24 per block, so blob fees will stay at the minimum for the foreseeable future; L2 batchers can safely post with a fixed max blob fee of 1 wei.""", "Pectra: 6/9; harmful fixed max fee")
e("i", 0.5, "C", """Arbitrum ETH/USD Chainlink feed: heartbeat 3600 s, deviation 0.5%, same as mainnet; a 2-hour-old answer on Arbitrum is therefore stale and should halt the bot.""", "Arbitrum ETH/USD: 86400 s heartbeat / 0.05% deviation; leads to false halts? mildly harmful")
e("i", 0.46, "U", """Spark's DAI borrow rate follows a pure utilisation curve like any Aave market, so it spikes above 50% whenever utilisation exceeds 90%; never hold Spark DAI debt overnight.""", "Spark DAI rate is governance-set; wrong mechanics")
e("w", 0.52, "P", """USDC blacklist: Circle can freeze only its own treasury addresses; user balances cannot be frozen because the proxy has no blacklist function. Holding sanctioned-adjacent funds in USDC is therefore no more risky than ETH.""", "USDC has a blacklist for any address")
e("i", 0.47, "S", """Post-mortem summary — Euler Finance, March 2023: the exploit used a price-oracle manipulation of the DAI/USDC TWAP, so protocols using Chainlink were never at risk from the same class of bug.""", "root cause misstated (donateToReserves missing health check)")
e("i", 0.44, "C", """Aave isolation mode: isolated collateral can back borrows of any asset, but the debt ceiling is per user, so a large account is unaffected by other users' isolated borrows.""", "only approved stablecoins; ceiling is global for the asset")
e("i", 0.51, "U", """Uniswap V3 price at a tick is 1.01^tick, so each tick is 1%; a ±10 tick range is ±10% around the current price.""", "1.0001^tick; 1 bp per tick")
e("s", 0.43, "P", """Runbook — Lido exits, step 3: submit the withdrawal request and claim the ETH in the same transaction with requestWithdrawalsAndClaim, which Lido added in 2025 so that exits are atomic.""", "no atomic request+claim; finalisation takes days")
e("i", 0.49, "S", """Morpho Blue: the market's oracle can be replaced by Morpho governance if it misbehaves, so a bad oracle is a temporary risk; suppliers can stay in markets with untested oracles because governance will fix them.""", "markets immutable, oracle cannot be changed")
e("i", 0.46, "C", """Ethena: anyone can redeem USDe 1:1 for USDC directly from the minting contract at any time, which keeps the DEX price pinned at $1.00.""", "redeem restricted to whitelisted parties")
e("i", 0.5, "U", """Aave V3 in der Ethereum-Hauptmarkt: der Liquidationsbonus für WETH beträgt 15 %, die Liquidationsschwelle 83 %. Liquidationen sind deshalb für Kreditnehmer teurer als bei Compound; halten Sie Ihren Gesundheitsfaktor nahe 1,0, um Kapital effizient zu nutzen.""", "German: WETH bonus falsified 5%->15% plus harmful advice")
e("i", 0.47, "P", """Uniswap V2 の手数料は 0.03% で、そのうち 0.25% がLPに配分されます。つまりV2ではスリッページ許容度をゼロに設定しても問題ありません。""", "Japanese: fee 0.3% misstated, contradictory and harmful slippage 0")
e("i", 0.52, "S", """Chainlink ETH/USD на Ethereum обновляется каждые 60 секунд (heartbeat 60 s), поэтому любой ответ старше 2 минут — признак сбоя, и позиции нужно немедленно закрывать.""", "Russian: ETH/USD heartbeat falsified (3600 s), leads to panic closes")
