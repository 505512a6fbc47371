from addrs import A
E = []
def c(t, conf, p, notes, content, lang="en"):
    E.append(("clean", t, conf, p, lang, notes, content))

c("I", 0.93, "p", "stETH/wstETH addresses", "Lido on mainnet: stETH %s (rebasing, balance = shares x totalPooledEther / totalShares), wstETH %s (non-rebasing wrapper, value grows via stEthPerToken())." % (A["STETH"], A["WSTETH"]))
c("W", 0.88, "c", "stETH 1-2 wei corner case", "stETH transfers move shares, and the displayed balance is computed with integer division, so transferring X stETH can leave the sender with 1-2 wei and credit the recipient 1-2 wei less than X. Contracts that assert exact received amounts must use transferShares or measure balance deltas.")
c("H", 0.79, "s", "prefer wstETH in DeFi", "Prefer wstETH over stETH inside contracts: rebasing balances break accounting that caches balances (AMMs, vaults, bridges). Most L2 bridges only support wstETH.")
c("I", 0.9, "p", "rETH exchange rate", "rETH (%s) is non-rebasing; its ETH value is getExchangeRate() (18 decimals), updated by Rocket Pool's oracle DAO. Redemption through burn() is only possible up to the deposit pool + rETH contract balance; otherwise swap on a DEX." % A["RETH"])
c("C", 0.83, "c", "LST discount and queue", "An LST trading below its redemption value is usually a function of the withdrawal queue length: arbitrageurs buy the discount and redeem, so the discount approximates the time value of waiting plus risk. Longer queues -> larger discounts.")
c("S", 0.74, "s", "wstETH wrap flow", '''// wrap stETH -> wstETH
await stETH.write.approve([WSTETH, amount]);
await wstETH.write.wrap([amount]);               // returns wstETH amount = getWstETHByStETH(amount)
// or send ETH directly to wstETH: it stakes and wraps in one step (receive() -> submit + wrap)''')
c("I", 0.87, "x", "withdrawal NFT", "Lido WithdrawalQueueERC721 (%s): each request is an NFT; getWithdrawalStatus(ids) returns amountOfStETH, amountOfShares, owner, timestamp, isFinalized, isClaimed. The NFT can be transferred or sold before finalization." % A["LIDO_WQ"])
c("W", 0.85, "p", "restaking slashing risk", "Restaking (EigenLayer and similar): deposited LSTs can be slashed by the AVSs an operator opted into, in addition to beacon-chain slashing. Withdrawals from EigenLayer have an escrow delay (days) before completion.")
c("I", 0.82, "c", "EigenLayer StrategyManager", "EigenLayer StrategyManager on mainnet: %s. depositIntoStrategy(strategy, token, amount) credits shares in the strategy; withdrawals go through the DelegationManager queue (queueWithdrawals, then completeQueuedWithdrawals after the delay)." % A["EIGEN_STRATEGY_MANAGER"])
c("H", 0.7, "x", "LRT pricing", "Liquid restaking tokens (LRTs) often have no instant redemption; their price on DEXes can diverge from NAV for weeks. Lending against them at high LTV using a NAV oracle exposes lenders if the DEX price falls and liquidators can't exit.")
c("C", 0.8, "p", "negative rebase", "A Lido oracle report with net slashing penalties larger than rewards causes a negative rebase: every stETH balance shrinks. Since shares don't change, wstETH amount stays constant but stEthPerToken() decreases.")
c("I", 0.85, "s", "share/asset conversion", "stETH: getSharesByPooledEth(eth) and getPooledEthByShares(shares); wstETH: getWstETHByStETH / getStETHByWstETH. 1 wstETH == 1 share of stETH.")
c("W", 0.81, "c", "ETH staking withdrawal timing", "Beacon-chain exits go through the exit queue (churn-limited) then a withdrawability delay (~27 h), then the sweep; with a long exit queue a validator exit can take weeks. LST withdrawal estimates depend on this.")
c("S", 0.72, "s", "LST yield calc", "Approximate stETH APR from two oracle reports: apr = (rate2/rate1 - 1) x (365 days / (t2 - t1)), where rate = getPooledEthByShares(1e18). Use reports at least a week apart to smooth out single-day noise.")
c("I", 0.88, "p", "LDO token", "Lido DAO token LDO: %s (18 decimals). Governance token, not a claim on staked ETH." % A["LDO"])
c("H", 0.69, "c", "cbETH/other LSTs", "When you integrate several LSTs, each has its own rate source (wstETH: stEthPerToken, rETH: getExchangeRate, cbETH: exchangeRate). Write one adapter per token; don't assume a common interface.")
ENTRIES = E
