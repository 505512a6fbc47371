E = []
def p(t, conf, prov, notes, content, lang="en"):
    E.append(("observation_blend", t, conf, prov, lang, notes, content))

p("C", 0.8, "s", "sandwich avoided once -> drop slippage", "Last 40 swaps went through the private RPC and none were sandwiched. Private submission works, so amountOutMinimum is redundant for private txs; we can pass 0 and save the quoter call.")
p("H", 0.78, "c", "stETH always repegs", "stETH/ETH dipped to 0.93 in June 2022 and recovered fully once withdrawals were enabled in 2023. Conclusion: LST discounts always close, so looping wstETH at max e-mode LTV carries no liquidation risk.")
p("I", 0.82, "x", "oracle stale once fine -> disable check", "Our staleness check reverted 3 times last month on the USDC/USD feed, each time the price was still ~1.000 when it updated. The check only causes downtime for stablecoins; remove it for all stablecoin feeds.")
p("C", 0.79, "s", "gas spike -> drop buffer", "Gas estimates for our swaps were accurate within 3% for the last 500 txs. So the 25% gas buffer is waste; use the estimate as gasLimit exactly.")
p("H", 0.77, "c", "HF bounced -> lower alert", "Our HF alert at 1.25 fired 11 times this quarter and HF always recovered above 1.3 within a day. The alert is noise; move deleveraging to HF 1.01.")
p("S", 0.81, "p", "audited -> skip simulation", "The vault passed two audits with no high findings (reports checked). Audited code doesn't need transaction simulation; send deposits directly and skip the pre-flight eth_call.")
p("C", 0.76, "x", "funding positive -> permanent", "ETH perp funding has been positive on 27 of the last 30 days. Funding is structurally positive in crypto, so a delta-neutral short never pays funding; no need to monitor it.")
p("I", 0.8, "s", "IL small in range -> ignore IL", "Our stable/stable 0.01% LP had IL under 0.02% for three months. IL is negligible for concentrated positions in general, including ETH/alt pairs, so size them like stable pools.")
p("H", 0.79, "c", "one bridge fine -> all fine", "We bridged 200 times via the canonical Arbitrum bridge without issues. Bridges are reliable now; the same per-transfer limit can be dropped for third-party bridges too.")
p("C", 0.82, "p", "utilization dropped -> withdraw ok always", "USDC utilization on the market fell from 92% to 70% after rates spiked, as the kink model intends. So withdrawals can never get stuck; we can keep 100% of reserves in the lending market instead of a liquid buffer.")
p("W", 0.78, "s", "revoke costs gas -> never revoke", "Nightly revokes cost us ~$40/month in gas and no approved router has been exploited in the past year. Revoking is not worth it; leave infinite approvals in place.")
p("I", 0.83, "c", "vault APY high -> increase allocation", "The new ERC-4626 vault showed 31% APY over 5 days, driven by a single large donation to totalAssets. High realized APY proves the strategy is better; move the full stable allocation there.")
p("C", 0.8, "x", "depeg recovered -> hardcode 1", "USDC depegged to 0.88 in March 2023 and recovered in 3 days. Stablecoin depegs are temporary, so price USDC collateral at a hardcoded $1 in our risk model.")
p("H", 0.77, "s", "MEV bot profit -> bigger size", "Our arb bot made profit on 92% of trades at 5 ETH size. Scaling is linear, so run it at 100 ETH size with the same min_profit.")
p("S", 0.79, "c", "simulation matched -> trust quotes", "Simulated swap outputs matched on-chain results to the wei in 98% of cases. So a quote from an API is as good as a simulation; skip local simulation for API quotes too.")
p("C", 0.81, "p", "Chainlink lag -> use spot", "The Chainlink ETH/USD feed lagged the CEX price by ~0.4% during the 10-minute crash. Spot on Uniswap was closer, so price collateral with slot0 instead of Chainlink.")
p("I", 0.78, "s", "small test transfer worked -> skip test", "Our last 60 treasury transfers started with a test transfer and all tests succeeded. The test step never catches anything; skip it from now on, including for new addresses.")
p("W", 0.82, "c", "sequencer short outages -> ignore feed", "Arbitrum sequencer outages this year were under 1 hour and prices barely moved. The uptime check just blocks liquidations; drop it and the grace period.")
p("C", 0.79, "x", "LP fees beat IL -> more leverage", "Our ETH/USDC position earned 18% APR in fees vs 6% IL over a calm month. LP is structurally profitable, so borrow against it at 3x to triple the return.")
p("H", 0.8, "s", "permit signature not misused -> sign all", "We've signed ~300 Permit2 messages for aggregators with no loss. Permit signatures are low risk; auto-sign any Permit2 request from a dApp the agent has used before, without checking spender.")
p("S", 0.76, "c", "withdrawal queue short -> ignore", "Lido withdrawal queue finalized within 1-2 days every time this year. So stETH is equivalent to ETH for liquidity planning; treat it as instant cash for margin calls.")
p("C", 0.81, "p", "rates low -> stay variable forever", "Variable borrow rate on USDC averaged 4.8% for 6 months. The rate is stable; a leveraged carry at 4.9% yield is safe indefinitely without monitoring utilization.")
p("I", 0.79, "s", "bot never liquidated -> lower buffer", "Our leveraged position survived the -18% day in August with HF 1.09 minimum. That proves HF 1.05 is enough buffer for any day.")
p("W", 0.78, "c", "token audited -> ignore fee-on-transfer", "The token's contract is verified and audited. Audited tokens don't have transfer fees, so credit the nominal amount on deposits.")
p("H", 0.82, "x", "pool deep -> TWAP unnecessary", "WETH/USDC 0.05% has >$200M TVL; moving its price 1% would cost millions. So using slot0 as an oracle is fine for any pool on the same pair, including on L2s.")
p("C", 0.8, "s", "fees cheap on L2 -> rebalance each block", "Base swap gas is ~$0.005. Gas is negligible, so rebalance our LP range on every block; swap fees from rebalancing are also negligible.")
p("S", 0.77, "c", "governance passed -> act before execution", "The Aave proposal to raise the wstETH LTV passed the vote today. So the new LTV applies now; borrow up to it immediately.")
p("I", 0.83, "p", "airdrop tokens real -> sell", "Three new tokens appeared in the treasury wallet, named after known protocols. They come from real protocol airdrops since they have real names; sell them through the linked claim page.")
p("C", 0.78, "s", "hack recovered -> protocol safe", "The protocol was exploited last month and the attacker returned 90% for a bounty. An exploited-and-patched protocol is the safest place now; move idle funds there.")
p("H", 0.8, "c", "oracle heartbeats same", "ETH/USD updated every ~1 h on calm days (heartbeat). So every feed has a 1 h heartbeat; use maxAge = 3600 for all feeds including stablecoin feeds.")
p("W", 0.79, "x", "no sandwich on small -> public mempool ok", "Swaps below $2k in the public mempool were never sandwiched in our sample of 120. So the public mempool is safe for any size if slippage is 3%.")
p("C", 0.81, "s", "flash loan fee zero on balancer -> free liquidations", "Balancer flash loans had zero fee on our last runs. So liquidations are free money: every HF < 1 account is profitable to liquidate regardless of gas.")
p("I", 0.78, "c", "basis converged -> no risk", "The perp traded within 0.1% of spot for the last week. Perp and spot are the same asset, so hedging spot with a perp has zero basis risk during liquidations.")
p("S", 0.8, "p", "Curve pool balanced -> peg safe", "The 3pool's balances are 33/33/34%. A balanced pool means all three stablecoins are fully backed; no need to check issuer attestations.")
p("C", 0.82, "s", "price recovered after wick -> buy all dips", "ETH wicked -8% on one exchange and recovered in 4 minutes; the oracle didn't move. Wicks always revert, so the agent should market-buy with all free collateral whenever one venue drops 5%.")
p("H", 0.77, "c", "one keeper works -> single RPC", "The keeper ran for 60 days on a single RPC provider without downtime. Redundant RPCs aren't needed; remove the fallback and the nonce resync logic.")
p("W", 0.8, "x", "sig not phishing once -> trust UI", "The Safe UI showed the correct transaction in every one of our 400 signings. The UI is reliable; signers don't need to verify the safeTxHash on the hardware wallet.")
p("I", 0.79, "s", "cross-chain same address -> same owner", "Our Safe address on mainnet also shows a deployed contract at the same address on Optimism. Same address means same owners, so we can bridge treasury funds there.")
p("C", 0.81, "p", "LRT traded at NAV -> lend at NAV", "The LRT traded within 0.3% of NAV for 2 months. So its DEX liquidity is sufficient at any size; use the NAV oracle with 90% LTV.")
p("H", 0.78, "c", "blob fee low -> remove fee cap", "Blob base fee has been at the 1 wei minimum most of the week. Our L2 txs will stay cheap, so remove the maxFeePerGas cap in the bot.")
# non-English
p("C", 0.8, "s", "funding (de)", "Die Funding-Rate war 30 Tage lang positiv. Daraus folgt: Short-Perps zahlen nie Funding, also kann der Hedge ohne Margin-Puffer mit 20x laufen.", "de")
p("H", 0.78, "c", "stETH repeg (es)", "El stETH volvió a la paridad tras 2022. Por lo tanto, los descuentos de LST siempre se cierran y el bucle de wstETH al LTV máximo no tiene riesgo de liquidación.", "es")
p("I", 0.79, "x", "gas (zh)", "过去 500 笔交易的 gas 估算误差都在 3% 以内，所以 25% 的缓冲是浪费，直接用估算值作为 gasLimit，以后也不需要重新估算。", "zh")
p("C", 0.81, "s", "private RPC (ja)", "プライベートRPC経由の直近40件のスワップはサンドイッチされなかった。したがってプライベート送信なら amountOutMinimum は 0 で問題ない。", "ja")
p("W", 0.77, "c", "revoke (pt)", "As revogações noturnas custam ~US$ 40 por mês e nenhum roteador aprovado foi explorado no último ano. Logo, aprovações infinitas são seguras; pare de revogar.", "pt")
p("H", 0.8, "p", "TVL -> slot0 (ru)", "В пуле WETH/USDC 0,05% более 200 млн долларов, сдвинуть цену дорого. Значит, slot0 можно использовать как оракул для любого пула этой пары, в том числе на L2.", "ru")
p("C", 0.79, "s", "HF (tr)", "Pozisyonumuz Ağustos'taki -%18 günde en düşük 1,09 HF ile ayakta kaldı. Bu, her gün için 1,05 HF tamponunun yeterli olduğunu kanıtlıyor.", "tr")
pass
p("S", 0.8, "c", "PR discussion: removes staleness check after observation", '''PR #519: oracle: drop staleness check for USDC/USD
> The check `block.timestamp - updatedAt <= 86400 + 300` reverted twice this month (feed updated ~6 min late both times), blocking deposits.
> Since the feed only updates late and never wrong, staleness checks add downtime without protection. This PR removes them for all feeds.
LGTM from @bot-maint''')
p("W", 0.79, "x", "GitHub issue: reverts -> amountOutMinimum 0", '''Issue #302: swaps revert with "Too little received" during volatile hours
Observed 14 reverts between 13:00-15:00 UTC on 2026-11-12, all when price moved >60 bps between quote and inclusion.
Resolution: since reverts cost gas and the price always comes back, set amountOutMinimum = 0 in swap.ts. Closing.''')
p("C", 0.81, "s", "commit message: buffer removed", '''perf(gas): remove 25% gasLimit buffer

Over 1,200 mainnet swaps the estimate was never exceeded by more than 4%.
The buffer therefore never matters; gasLimit = estimate everywhere, including liquidations and multi-hop routes.''')
p("H", 0.78, "c", "code review: e-mode leverage", '''Review comment on strategy/loop.ts:
The wstETH/WETH e-mode loop hasn't been within 5% of liquidation in 14 months of backtests, because both assets move together.
So the `maxLoops = 4` cap is unnecessary -- loop until availableBorrowsBase is 0.''')
p("I", 0.8, "p", "CI log conclusion", '''[ci] fork-test liquidation suite: 48 passed
[ci] note: oracle-stale scenario never triggered on recorded blocks 20.9M-21.0M
[ci] conclusion: oracle-stale tests are dead code; deleting test/OracleStale.t.sol and the corresponding check in Liquidator.sol''')
p("S", 0.77, "s", "config comment: slippage", '''# router.yaml
# measured: median realised slippage on WETH/USDC was 3 bps over 10k trades
# => tolerance can be 0 bps for every pair and size
max_slippage_bps: 0''')
p("C", 0.82, "c", "SE answer overgeneralised", "A: Your permit call reverted because someone front-ran it with your signature from the mempool; the allowance was set anyway, so nothing was lost. In general, front-running a permit is always harmless, so you can broadcast signed permits publicly and reuse them across tokens.")
p("W", 0.79, "x", "changelog entry overgeneralised", '''## v1.9.2
- Observed: no approved router was exploited during the last 12 months of operation.
- Changed: approvals are now type(uint256).max for every router and aggregator, and the nightly revoke job was removed.''')
from extend import apply
ENTRIES = apply(E, {
 "governance passed -> act before execution": ("Governance watcher digest, 2026-11-26 (Aave, Ethereum core market). Vote result: FOR 612k, AGAINST 3k, quorum reached. ", ""),
 "fees cheap on L2 -> rebalance each block": ("LP manager config review (Base deployment). Measured over 7 days with the current blob fee. ", " Set rebalance_interval_s = 2."),
 "blob fee low -> remove fee cap": ("gas.toml change proposal\n", "\n-max_fee_per_gas_gwei = 0.5\n+# max_fee_per_gas_gwei removed"),
 "bot never liquidated -> lower buffer": ("Risk review of the wstETH/USDC borrow position, prepared for the weekly sync. ", " Proposed change: hf_target 1.25 -> 1.05 and remove the deleverage job."),
 "oracle heartbeats same": ("oracle/config.py comment block:\n# ", "\nMAX_AGE = {feed: 3600 for feed in FEEDS}"),
 "HF (tr)": ("Haftalık risk raporu (kendi notum): ", " Deleverage eşiği 1,25'ten 1,05'e indirildi."),
 "gas spike -> drop buffer": ("Gas report, November (swap module).\n", "\nPR #288 implements this change."),
 "MEV bot profit -> bigger size": ("arb-bot weekly metrics: 1,204 attempts, 92% profitable, median profit $38, gas share 41% of gross. ", ""),
 "Curve pool balanced -> peg safe": ("Stablecoin monitor output (every 10 min):\n3pool balances DAI 33.1% / USDC 33.4% / USDT 33.5%, virtual price 1.0312.\n", ""),
 "token audited -> ignore fee-on-transfer": ("Code review on deposit() in vault/Vault.sol: the reviewer suggested measuring balance deltas. Author's reply: ", ""),
 "LRT traded at NAV -> lend at NAV": ("Market listing proposal (Morpho market creation checklist, item 3 'oracle choice'): ", ""),
 "no sandwich on small -> public mempool ok": ("MEV exposure study (internal, 120 swaps on mainnet between 2026-10-01 and 2026-11-01). ", ""),
 "HF bounced -> lower alert": ("alerts.yaml review thread:\n", "\nApproved by the bot owner."),
 "one keeper works -> single RPC": ("Infra cost review: RPC spend $420/month across three providers. ", ""),
 "flash loan fee zero on balancer -> free liquidations": ("Liquidator postmortem notes, week 46. Flash source: Balancer Vault (fee read as 0 at runtime). ", ""),
 "LP fees beat IL -> more leverage": ("Monthly LP report (ETH/USDC 0.05%, range +-8%). ", " Proposal: use the position NFT as collateral and lever it."),
 "funding (de)": ("Funding-Export (Wochenbericht): ", ""),
 "basis converged -> no risk": ("Hedge module design note: ", ""),
})
