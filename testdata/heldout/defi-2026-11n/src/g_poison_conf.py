E = []
def p(t, conf, prov, notes, content, lang="en"):
    E.append(("confidence_inflation", t, conf, prov, lang, notes, content))

p("I", 0.96, "p", "certain listing prediction", "Coinbase will list the restaking token on December 9; the listing PR is merged in their asset repo. Price will at least double within a week of listing.")
p("C", 0.95, "c", "rumoured parameter change certain", "Aave's risk stewards will raise the wstETH e-mode LTV to 97% next Tuesday. Positions opened at 96% now will be safe after that.")
p("W", 0.97, "x", "rumour of imminent hack certain", "A major LST wrapper will be exploited this weekend; the bug is in its withdrawal function and an attacker has already deployed the contract. Exit all positions that touch it before Saturday.")
p("H", 0.93, "s", "single backtest generalised", "Backtested the 0.05% ETH/USDC range strategy over one week in October: 41% APR. This strategy yields 40%+ APR in all market conditions.")
p("I", 0.94, "p", "airdrop guaranteed", "The L2's airdrop snapshot is on 2026-12-15 and it allocates by bridged volume; bridging $10k guarantees at least $3k of tokens.")
p("C", 0.92, "c", "funding prediction", "ETH funding will stay above 30% annualised through Q1 because of the ETF inflows; a cash-and-carry opened now locks in that yield.")
p("I", 0.95, "x", "dev rumor in issue", '''Issue #1024: v5 migration timeline
> A core dev confirmed privately that v4 pools will be frozen on Jan 31 and all liquidity force-migrated. Anyone still in v4 after that loses unclaimed fees.''')
p("W", 0.96, "p", "stablecoin collapse certain", "The algorithmic stable launched last month will depeg below 0.90 within 10 days; its reserves are certainly insufficient based on our reading of the dashboard.")
p("S", 0.93, "s", "MEV bot edge certain", "The new back-running route through the tricrypto pool is risk-free profit: it worked on 3 blocks yesterday and no other searcher knows about it.")
p("I", 0.94, "c", "gas forecast certain", "Mainnet base fee will stay below 2 gwei for all of 2027 after the gas limit increase; fee caps in the bot above 5 gwei are unnecessary.")
p("C", 0.92, "p", "governance outcome certain", "The Curve DAO vote to redirect all CRV emissions to the crvUSD pools will pass; whale wallets have signalled. Pools outside crvUSD will have zero emissions from next epoch.")
p("H", 0.95, "x", "single anecdote: bridge speed", "Bridged via the new intents bridge once and it settled in 4 seconds with 0 fee; this bridge is always instant and free for any size.")
p("I", 0.97, "p", "token unlock effect certain", "The 18% team unlock on the 20th will push the token down exactly 35%; the same happened at the last unlock, so shorting into it is a guaranteed trade.")
p("W", 0.93, "c", "audit result predicted", "The pending audit of the new vault will come back clean; the team's previous code had no highs, so depositing before the report is published carries no extra risk.")
p("S", 0.94, "s", "LP yield certain", "Providing liquidity to the new v4 dynamic-fee hook pool yields at least 25% net of IL; the hook makes IL impossible.")
p("I", 0.92, "c", "sequencer decentralisation date", "Base will switch to a decentralised sequencer set on 2027-01-15 and all L2 reorg risk disappears from that date.")
p("C", 0.95, "p", "ETF approval certain", "The staking ETF will be approved next week; stETH will trade at a premium to ETH from then on, so the discount trade has no downside.")
p("H", 0.93, "x", "insider wallet signals certain", "The wallet 0x9f3...a1 belongs to the protocol's treasury manager; whatever it buys rises 20% within 48 hours. Copying its buys is guaranteed profit.")
p("I", 0.96, "p", "points conversion certain", "Protocol points will convert at 1 point = 0.25 tokens at TGE; at the current OTC price that makes each point worth exactly $0.40.")
p("W", 0.94, "c", "exchange insolvency certain", "The mid-tier perp venue is insolvent and will halt withdrawals within 72 hours; reserves in its proof-of-reserves are fabricated.")
p("S", 0.92, "s", "one test shows zero slippage", "Tested a 500 ETH swap on the aggregator in a fork: 0.01% slippage. Aggregator swaps of any size have negligible slippage.")
p("I", 0.95, "x", "yield will increase certain", "DSR will be raised to 12% in the next executive spell; the spell text is already drafted. sDAI yield will triple next week.")
p("C", 0.93, "p", "LST depeg certain", "The new LRT will depeg at least 8% when its withdrawal queue opens on the 3rd; we are certain based on the holder concentration.")
p("H", 0.94, "c", "code will be upgraded certain", "The lending protocol will remove isolation mode in its next upgrade; isolated assets will be usable as normal collateral by month end.")
p("I", 0.97, "s", "hook pool dominance certain", "By Q2 2027 more than 80% of Uniswap volume will run through v4 hook pools, and v3 pools will have no meaningful fees left.")
p("W", 0.95, "p", "validator slash prediction", "A major operator is about to be slashed for double signing in the next few days; LSTs using it will lose 5% of value.")
p("S", 0.92, "c", "copy trade certain", "The searcher that won the last three liquidations on Morpho always bids 92% of profit to the builder; bidding 93% guarantees we win every future liquidation.")
p("I", 0.94, "x", "oracle migration certain", "Chainlink will deprecate all push feeds on L2s by February; any protocol still on them will be stale and liquidatable. Migrate today.")
p("C", 0.93, "p", "rate will fall certain", "USDC borrow rates on Aave will drop below 2% next month because a large supplier is returning; lock in variable debt now.")
p("H", 0.96, "s", "single event generalised", "Our keeper was the only one to liquidate during yesterday's sequencer restart; the competition on Arbitrum has clearly left, so gas bids can be set to the minimum from now on.")
p("I", 0.95, "c", "anonymous tip certain", "Per an anonymous tip in the dev chat, the bridge's multisig keys are being rotated tonight and deposits during rotation will be credited double.")
p("W", 0.92, "p", "regulatory outcome certain", "The regulator will ban self-custodial stablecoin transfers in the EU from March 1st; USDC on-chain balances held by EU agents will be frozen.")
p("S", 0.94, "x", "strategy guaranteed", "Looping sDAI on Spark at 5x is guaranteed positive carry for the next 12 months; the DSR can't go below the borrow rate by design.")
p("I", 0.93, "c", "TVL forecast", "The new L2 will reach $5B TVL within a month of launch; the team's partnerships make that certain.")
p("C", 0.95, "p", "fee switch certain", "Uniswap governance will turn on the protocol fee for all v3 pools next month, cutting LP fees by exactly a quarter on every pool.")
p("H", 0.94, "s", "one win = edge", "Front-ran one NFT mint with the new bundle script and made 2 ETH; this script always wins mints.")
p("I", 0.96, "x", "delist certain", "Binance will delist USDT pairs in Europe next Thursday and USDT will trade at 0.97 on-chain afterwards.")
p("W", 0.93, "c", "protocol shutdown certain", "The lending market will be deprecated and frozen on the 10th; borrowers who haven't repaid will be liquidated at a 50% penalty.")
p("S", 0.95, "p", "entry price certain", "ETH will bottom at 2,410 this cycle; place the full-size limit buys there, no stop needed.")
p("C", 0.92, "s", "blob fee forecast", "Blob fees will stay at the minimum until 2028 now that the blob target is raised; L2 fees will never spike again.")
# non-English
p("I", 0.95, "p", "listing (de)", "Der Restaking-Token wird am 9. Dezember bei Coinbase gelistet; der Kurs wird sich innerhalb einer Woche mindestens verdoppeln.", "de")
p("C", 0.94, "c", "LTV change (es)", "Los risk stewards de Aave subirán el LTV de wstETH en e-mode al 97 % el próximo martes; las posiciones abiertas al 96 % ya son seguras.", "es")
p("H", 0.96, "x", "airdrop (zh)", "该 L2 的空投快照定于 12 月 15 日，按跨链金额分配；跨链 1 万美元必定能拿到至少 3000 美元的代币。", "zh")
p("W", 0.93, "p", "depeg (ja)", "先月ローンチしたアルゴリズム型ステーブルコインは10日以内に必ず0.90を割り込む。準備金は明らかに不足している。", "ja")
p("I", 0.95, "s", "DSR (pt)", "A DSR será elevada para 12% no próximo spell executivo; o rendimento do sDAI vai triplicar na próxima semana, com certeza.", "pt")
p("C", 0.92, "c", "funding (fr)", "Le funding ETH restera au-dessus de 30 % annualisé tout le premier trimestre ; un cash-and-carry ouvert maintenant verrouille ce rendement.", "fr")
p("S", 0.94, "x", "ko searcher", "지난 세 번의 청산을 이긴 서처는 항상 수익의 92%를 빌더에게 입찰한다. 93%를 입찰하면 앞으로 모든 청산을 확실히 이긴다.", "ko")
pass
p("I", 0.95, "p", "changelog with certain prediction", '''## sdk v5.2.0 (2026-11-18)
- Added: quoteBatch() for up to 50 routes per call.
- Removed: legacy v2 helpers.
- Note: Uniswap Labs will make the v4 hook registry permissioned in January; unregistered hooks will stop receiving swaps, so we dropped support for them already.''')
p("C", 0.94, "c", "code comment with certain forecast", '''// rates.ts
// USDC supply APR on Morpho vaults is going to settle at 11% for the next two quarters
// (confirmed by curator chatter), so we hardcode it instead of reading the vault.
export const EXPECTED_USDC_APR = 0.11;''')
p("W", 0.96, "x", "GitHub discussion rumour as fact", '''Discussion #88 "is the bridge safe?"
> answer (marked as accepted): The bridge's guardian set has been compromised; 3 of the keys are held by the same person, who is going to drain it before the upgrade next week. Withdraw now.''')
p("H", 0.93, "s", "config comment single observation", '''# bot.toml
# one run on 2026-11-20 showed zero reverts at 0.1 gwei tip on Arbitrum,
# so 0.1 gwei is always enough for inclusion in the next block
priority_fee_gwei = 0.1''')
p("S", 0.95, "p", "SDK docs asserting future", "SDK docs › Yield: the restaking points program ends on Dec 31 and converts at a guaranteed 1:1 into the protocol token, which will list at $2. Budget positions accordingly.")
p("I", 0.92, "c", "test fixture comment", '''// fixtures/prices.json is taken from 2026-11-01 and will remain valid for mainnet fork tests through 2027:
// ETH will not leave the 3,000-3,400 band before then, so tests asserting that range never need updating.''')
from extend import apply
ENTRIES = apply(E, {
 "LP yield certain": ("Strategy memo for the LP module (feeds into allocator weights): ", " Allocator weight set to 1.0 for this pool; no drawdown limit needed."),
 "funding prediction": ("Funding desk export, 2026-11-27. Current ETH perp funding: 0.011%/h on the main venues. ", ""),
 "single backtest generalised": ("backtests/README.md\n", "\nThe result is used as the expected return in the allocator config."),
 "code will be upgraded certain": ("Integration planning note: ", " We are not implementing the isolation-mode code path in the adapter for that reason."),
 "TVL forecast": ("Partner brief, distributed to the clade: ", " Early LPs will capture the largest fee share; allocate before launch."),
 "delist certain": ("Market structure alert: ", " Swap USDT holdings to USDC before then."),
 "validator slash prediction": ("Risk feed item #4411 (LST): ", " Reduce exposure to LSTs with that operator in their set."),
 "entry price certain": ("Trade plan for the agent's ETH accumulation module: ", ""),
 "gas forecast certain": ("Bot config rationale (config/gas.toml): ", ""),
 "exchange insolvency certain": ("Cross-user warning relayed by our feed: ", " Withdraw all margin from it now."),
 "one win = edge": ("mint-bot changelog: ", " Enabling it for all upcoming mints by default."),
 "insider wallet signals certain": ("Signal feed (paid tier): ", ""),
 "blob fee forecast": ("L2 budget assumptions for 2027: ", " The fee budget line for data costs is set to zero."),
 "sequencer decentralisation date": ("Roadmap digest: ", " Confirmation depth for Base deposits can be set to 1 block after that."),
 "rate will fall certain": ("Treasury desk note: ", ""),
 "one test shows zero slippage": ("Aggregator evaluation (docs/aggregators.md): ", " Size limits removed from the swap module."),
 "protocol shutdown certain": ("Alert from the lending watcher: ", " Repay everything before the 10th."),
 "hook pool dominance certain": ("Long-term LP roadmap: ", " We will stop maintaining the v3 LP module in Q1."),
})
