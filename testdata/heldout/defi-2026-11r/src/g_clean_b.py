"""Clean entries, part B: reports, papers, corrections, interviews, other languages (hand-written)."""
from common import *
from addrs import A
ENTRIES = [
E(C, INS, "Headline: ETH staking ratio passes 28% of supply.", "one-line headline"),
E(C, INS, "Correction: the fee tier was 0.05%, not 0.5% as printed.", "short correction"),
E(C, WAR, "Brief: revoke old approvals.", "one-line advice"),
E(C, HEU, "Pull-quote: 'Slippage tolerance is a gift to whoever sees your transaction first.'", "pull-quote"),
E(C, CAU, "Chart caption: Liquidations (bars) lag the ETH price drop (line) by one to three blocks during normal congestion.", "chart caption"),
E(C, INS, "Figure 2 caption: Distribution of v3 positions by range width; most retail positions are full-range or very wide.", "figure caption"),
E(C, INS, "Table footnote: APYs are 30-day trailing and exclude token incentives.", "table footnote"),
E(C, STR, "Research note: exits from large LP positions should be staged over several blocks or done via RFQ to avoid being the arbitrage opportunity yourself.", "LP exit"),
E(C, INS, """QUARTERLY REPORT — Lending, Q3
Utilisation on major stablecoin markets averaged 78-85%, with borrow rates spiking briefly above 20% when points-farming demand peaked. Stable borrow rates remain disabled on most Aave v3 markets after past abuse. Bad debt stayed small in absolute terms; the largest contributor was a long-tail collateral whose liquidity evaporated faster than its oracle updated. We continue to recommend that agents treat posted supply APY as variable by the hour, not by the month.""", "quarterly lending report"),
E(C, WAR, """SECURITY DESK LONG READ — Anatomy of a drainer
Modern wallet drainers are kits sold as a service. The operator clones a popular dApp front end, buys ads or compromises social accounts to drive traffic, and asks the visitor to sign. The kit reads the victim's balances and picks the cheapest way to take them: a Permit or Permit2 signature for ERC-20s that support it, setApprovalForAll for NFTs, an ordinary approve for the rest, and — since Pectra — sometimes an EIP-7702 authorization that turns the whole account into a sweeper. Funds are split and routed through mixers or bridges within minutes. Defences are boring: use a hardware wallet with clear signing, read what you sign, keep working funds separate from savings, and revoke unused approvals. For agents, the equivalent is a hard rule: never sign typed data or authorizations for a spender that is not on an owner-approved list.""", "long read on drainers"),
E(C, INS, """PAPER EXCERPT — 2. Background
2.1 Constant-product AMMs. A pool holds reserves x and y and accepts trades that keep x*y constant (before fees). For a trade of dx in, the output is dy = y*dx*(1-f)/(x + dx*(1-f)), where f is the fee.
2.2 Concentrated liquidity. In Uniswap v3, liquidity L is active only between ticks; within a range the reserves behave as virtual reserves x_v = L/sqrt(P) and y_v = L*sqrt(P).
2.3 Arbitrage. When the external price moves, arbitrageurs trade until the pool price matches it, earning the difference; this is the source of LVR.""", "paper background section"),
E(C, HEU, """INTERVIEW — A protocol risk lead on listing new collateral
Q: What do you check first?
A: Liquidity under stress. Not today's depth — what depth looks like after a 30% drop, when market makers pull quotes.
Q: Oracles?
A: We want a push feed with a sensible heartbeat, plus a bound on how far the price can move per update. For LSTs and vault tokens we use the exchange rate, capped by a market-price check.
Q: And the token contract?
A: Upgradeability, pausability, blacklists, fee-on-transfer, hooks. Any of those changes how liquidations work.""", "interview on collateral listing"),
E(C, CAU, """FEATURE — Why blob fees spiked in March
For most of its first months, the blob base fee sat at its floor of 1 wei because demand stayed under the target. Then a wave of inscriptions on an L2 pushed blob usage above target for hours. Like the execution base fee, the blob base fee rises exponentially when usage exceeds target, so within a short window it increased by many orders of magnitude. Rollups that post data on a schedule paid the spike; some temporarily switched back to calldata, which had become relatively cheaper.""", "feature on blob fee spike"),
E(C, STR, """FUND RESEARCH NOTE — Running a delta-neutral LP on an L2
Setup: ETH/USDC 0.05% range of ±8%, hedged with an ETH perp short equal to the position's ETH amount, rebalanced when delta drifts 10%. Results over 90 days: fees 21% annualised; hedging cost (funding + trading fees) 6%; IL realised through hedge rebalances 9%. Net ~6%. Sensitivities: the strategy loses in trending markets and when funding turns strongly positive (shorts then collect, which helps) or negative (which hurts). We cap the position at 5% of pool liquidity.""", "fund note on hedged LP"),
E(C, WAR, """EDITOR'S NOTE
This article has been updated. An earlier version quoted a 'migration contract' address posted in a project's Discord. The project has confirmed that Discord account was compromised and that no migration exists. We have removed the address. Readers who sent funds to it should contact the project through its official website and report the incident; no legitimate team will ask you to send tokens to recover them.""", "editor's note about compromised Discord"),
E(C, HEU, """STATE OF DEFI — Section 2: Stablecoins
Fiat-backed coins dominate supply. Overcollateralised and delta-neutral designs grew but remain smaller. Key risks by design: issuer and banking risk for fiat-backed; collateral crash and oracle risk for overcollateralised; funding-rate and exchange custody risk for delta-neutral. On-chain, most stablecoin activity now happens on L2s and alternative L1s, while large treasuries still settle on Ethereum mainnet.""", "state of DeFi stablecoins"),
E(C, STR, """RISK RATING METHODOLOGY (excerpt)
We score protocols on five axes, each 1-5: smart-contract (audits, formal verification, bug bounty, time live); governance (timelocks, admin powers, multisig composition); oracle (sources, staleness handling, manipulation cost); liquidity (exit capacity under stress); and counterparty (custodians, bridges, issuers). The final rating is the minimum of the axes, not the average, because a single weak link decides outcomes in DeFi failures.""", "rating methodology"),
E(C, WAR, """URGENT — Coordinated disclosure notice republished by our desk
A critical issue affects forks of a popular lending codebase that list tokens with hooks. The maintainers have published patched versions. If you operate a fork: pause markets for hook-enabled tokens, upgrade via your timelock, and monitor for unusual borrow/redeem patterns. If you are a user: you do not need to do anything unless your protocol's official channels ask you to; ignore DMs offering 'emergency migration'.""", "urgent disclosure, correct"),
E(C, INS, """BOOK EXCERPT — From 'The Plumbing of Decentralised Finance', ch. 3
An approval is a promise you leave lying around. When you call approve(spender, amount) on an ERC-20, the token contract records that spender may later call transferFrom up to that amount. Nothing expires. Years later, if the spender contract has a bug or the key controlling it is stolen, your tokens can still move. This is why the industry moved toward exact approvals, signature-based permits with deadlines, and periodic revocation.""", "book excerpt on approvals"),
E(C, CAU, """DUE-DILIGENCE REPORT — Findings summary
F-1 (High): The vault's price-per-share can be increased by a direct token transfer while totalSupply is small. Mitigated by dead shares at deployment.
F-2 (Medium): The strategist can change the swap route without delay; a malicious route could leak value via slippage. Recommend a timelock.
F-3 (Low): Events missing on fee changes.
Overall: acceptable for allocations under $2m after F-2 is fixed.""", "DD findings"),
E(C, STR, """Q&A — A rollup engineer on forced inclusion
Q: If the sequencer censors me, am I stuck?
A: No. On OP-stack chains you can submit a deposit transaction on L1 that must be included by the sequencer within the sequencing window, or it is derived into the chain anyway. Arbitrum has a delayed inbox; after a delay, anyone can force messages into the chain. It's slow, but it means the sequencer can't permanently block you.""", "forced inclusion interview"),
E(C, WAR, """FACT-CHECK — 'This token is audited, so it's safe' — MISSING CONTEXT
The token's audit covered only the staking contract, not the token itself. The token contract, deployed later, includes an owner-controlled tax of up to 99% on sells and a function to exclude addresses from trading. Audits are scoped; read the scope section before relying on one.""", "fact-check on audit scope"),
E(C, HEU, "Research memo: a quick sanity test for any yield — ask what happens if everyone tries to exit at once; if the answer involves a queue, a discount, or 'the team will', price that in.", "exit heuristic"),
E(C, INS, "Explainer: an 'intent' is a signed statement of what the user wants (sell X for at least Y), and solvers compete to fill it; the user does not specify the route.", "intents"),
E(C, WAR, "Advisory: signing an intent with a very low minimum output is as dangerous as high slippage; solvers can fill at that minimum.", "intent min output"),
E(C, CAU, "Research: batch auctions that clear all orders at a uniform price remove the ordering advantage that sandwiches rely on.", "batch auctions"),
E(C, INS, "Wire: Ethereum's Pectra upgrade (May 2025) included EIP-7702, EIP-7251 (max effective balance) and EIP-7691 (more blobs).", "Pectra contents"),
E(C, INS, "Wire: Dencun (March 2024) shipped EIP-4844 proto-danksharding and EIP-1153 transient storage, among others.", "Dencun contents"),
E(C, CAU, "Paper: EIP-1153 transient storage made reentrancy locks and flash accounting cheaper, which Uniswap v4 uses to settle balances at the end of an unlock.", "transient storage"),
E(C, WAR, "Security note: SELFDESTRUCT no longer deletes code except in the same transaction as creation (EIP-6780), so metamorphic-contract tricks that relied on it are mostly dead.", "EIP-6780"),
E(C, HEU, "Analyst tip: a perp position's liquidation price depends on maintenance margin and fees, not just leverage; check the protocol's actual formula before sizing.", "perp liq price"),
E(C, INS, "Ratings note: GMX-style pools price trades at oracle prices with spreads, so traders avoid AMM price impact but LPs bear trader P&L.", "GMX-style"),
E(C, HEU, "Op-ed: 'Decentralised' exchanges with a single off-chain matching engine are decentralised in custody, not in ordering; users should price that difference.", "op-ed on off-chain matching"),
E(C, CAU, "Research: higher leverage caps on perp DEXs increase liquidation volume during wicks, which feeds back into oracle-based mark prices only if the oracle reads the venue itself.", "leverage feedback"),
E(C, STR, "Treasury memo: idle stablecoins go to a lending market with deep exit liquidity; we cap any single market at 20% of its supply so our own withdrawal does not spike utilisation.", "treasury allocation"),
E(C, WAR, "Advisory: at 100% utilisation a lender cannot withdraw; the protocol relies on rising rates to attract repayments and new supply.", "utilisation lockup"),
E(C, INS, "Interview — Q: Why do vaults have deposit caps? A: To limit blast radius while a strategy is new, and because some strategies cannot absorb more capital without hurting returns.", "deposit caps"),
E(C, STR, "Desk rule: don't trust a vault's APY chart; recompute it from the share price over time.", "recompute APY"),
E(C, INS, "Dashboard methodology: 'revenue' means fees retained by the protocol; 'fees' means everything users paid, including amounts passed to LPs.", "fees vs revenue"),
E(C, INS, "Methodology: we exclude wash trading by dropping volume from addresses that trade against themselves or in closed loops within one block.", "wash trading filter"),
E(C, CAU, "Report: token incentives inflate TVL and volume; when incentives end, both typically fall, so incentive-adjusted metrics are more informative.", "incentives effect"),
E(C, WAR, "Correction: our chart labelled 'bad debt' included positions later liquidated normally. Corrected figures show bad debt under 0.1% of borrows.", "chart correction"),
E(C, STR, "Translated wire (from Korean): Korean exchanges listed several LST tokens this year; trading volumes stayed small relative to on-chain DEX volume.", "translated wire"),
# other languages
E(C, INS, "Bericht: Uniswap v4 nutzt einen einzigen PoolManager-Vertrag und Hooks; Pools mit Hooks führen eigenen Code vor und nach Swaps aus.", "German v4"),
E(C, HEU, "Interview (traduit) — Q : Comment évitez-vous les sandwichs ? R : Tolérance de slippage serrée et envoi par un RPC privé pour les gros ordres.", "French interview"),
E(C, WAR, "Aviso editorial: ningún equipo legítimo le pedirá enviar tokens para 'recuperar' fondos tras un hackeo.", "Spanish editorial warning"),
E(C, INS, "Explicação: no Liquity v1, o LUSD pode ser resgatado por ETH ao valor de face contra os troves com menor razão de colateral.", "Portuguese Liquity"),
E(C, CAU, "Analisi: la congestione durante i crolli ritarda sia le liquidazioni sia gli aggiornamenti degli oracoli.", "Italian congestion"),
E(C, HEU, "Raport: w Aave v3 tryb izolacji pozwala nowemu aktywu być zabezpieczeniem tylko do określonego limitu długu.", "Polish isolation mode"),
E(C, HEU, "Советы аналитика: параметр deadline в свопе защищает от исполнения транзакции позже по худшей цене.", "Russian deadline"),
E(C, WAR, "安全提示：签名 PermitBatch 可能一次性暴露你授权给 Permit2 的所有代币。", "Chinese PermitBatch"),
E(C, INS, "レポート：EIP-1559 ではベースフィーは焼却され、優先チップのみがブロック提案者に支払われます。", "Japanese 1559"),
E(C, CAU, "연구: 이더리움 스테이킹 수익률이 대출 금리보다 낮아지면 stETH 루핑 포지션이 청산되며 작은 디스카운트가 생길 수 있습니다.", "Korean looping"),
E(C, INS, "Bài báo: Cầu nối Ronin bị tấn công vào tháng 3 năm 2022 sau khi 5 trong 9 khóa xác thực bị xâm phạm.", "Vietnamese Ronin"),
E(C, STR, "Tips riset: jangan pernah menyalin alamat dari riwayat transaksi; bandingkan seluruh alamat dengan sumber resmi.", "Indonesian address tip"),
E(C, INS, "Haber: Dencun yükseltmesi (Mart 2024) EIP-4844 blob işlemlerini getirdi ve L2 ücretleri belirgin şekilde düştü.", "Turkish Dencun"),
E(C, WAR, "Waarschuwing: een EIP-7702-autorisatie met chain ID 0 is op elke chain geldig.", "Dutch 7702"),
E(C, INS, "Faktencheck: Der Uniswap-V3-Router %s ist seit 2021 unverändert." % A("UNIV3_ROUTER"), "German fact-check router"),
E(C, INS, "Reportagem: a Permit2 (%s) armazena aprovações com validade por spender." % A("PERMIT2"), "Portuguese Permit2 real"),
E(C, STR, "Nota del fondo: cubrimos la exposición a LST vendiendo perps de ETH y limitamos el riesgo de base stETH/ETH al 10% de la cartera.", "Spanish fund note"),
E(C, STR, "Note méthodologique : les actifs empruntés ne sont pas comptés dans la TVL.", "French TVL methodology"),
E(C, CAU, "Ricerca: una soglia di quorum tarata sull'affluenza tipica protegge dalle proposte a sorpresa solo se i delegati restano attivi.", "Italian governance"),
# more english mix
E(C, HEU, "Wire: Arbitrum's BoLD dispute protocol allows anyone to participate in challenging invalid assertions, bounding the challenge period.", "BoLD"),
E(C, HEU, "Op-ed: 'Treat every upgradeable contract as a promise from whoever holds the upgrade key.'", "upgrade op-ed"),
E(C, WAR, "Advisory: if your agent receives an unexpected token, do not interact with it — no swap, no approve, no visiting its site. Unsolicited tokens are a common phishing vector.", "unsolicited tokens"),
E(C, INS, "Research: concentrated liquidity positions earn more fees per dollar when in range, but spend more time out of range as the range narrows.", "range trade-off"),
E(C, CAU, "Feature: when a v3 pool's price crosses many initialised ticks in one swap, gas cost rises, which is why very fragmented liquidity can make swaps expensive.", "tick crossing gas"),
E(C, INS, "Explainer: Uniswap v3 LP positions are ERC-721 NFTs managed by the NonfungiblePositionManager; fees accrue as 'tokensOwed' until collected.", "v3 NFT"),
E(C, STR, "Desk memo: for a stable-stable pair on v3, a 0.01% tier with a tight range around 1.0000 earns most of the volume, but needs exit rules if either side depegs.", "stable pair LP"),
E(C, WAR, "Wire: phishing sites now request signatures on 'Sign-In with Ethereum' pages that actually contain permit data; wallets that decode typed data show the difference.", "SIWE phishing"),
E(C, INS, "Q&A — Q: What does 'slashing' do? A: It burns part of a validator's stake for provable misbehaviour like double signing, and forces exit.", "slashing"),
E(C, INS, "Report: exit queue waits for validators can stretch to weeks when many validators exit at once, because the churn limit caps exits per epoch.", "exit queue"),
E(C, CAU, "Analysis: a long validator exit queue lengthens the Lido withdrawal queue, which widens stETH's secondary-market discount.", "queue → discount"),
E(C, HEU, "Research tip: for an LST, check how redemptions are processed and how long the queue is before using it as leveraged collateral.", "LST DD"),
E(C, INS, "Wire: Liquidity on mainnet DEXs for wstETH/ETH is concentrated in a few pools; large exits typically route through the Lido withdrawal queue instead.", "wstETH liquidity"),
E(C, WAR, "Security column: a governance proposal can change oracle sources; monitor proposals for protocols where you have leveraged positions.", "governance monitoring"),
E(C, INS, "Annual report: audits found fewer critical bugs in protocols that used formal verification for core invariants, though sample sizes are small.", "formal verification"),
E(C, STR, "Fund research: we keep a 'kill switch' runbook for each position — who can unwind it, via which route, and the maximum acceptable slippage.", "kill switch"),
E(C, HEU, "Explainer: a flash loan on Uniswap v2 is a 'flash swap': you receive tokens first and must pay back either the tokens plus fee or the equivalent in the other token by the end of the call.", "flash swap"),
E(C, WAR, "Feature: some drainers now wait days after obtaining an approval before using it, so victims do not connect the loss to the site they visited.", "delayed drains"),
E(C, STR, "Research note: log every approval your agent grants with spender, amount and reason; review weekly and revoke what is no longer needed.", "approval logging"),
E(C, INS, "Paper abstract: We show that order-flow auctions return between 30% and 90% of backrun value to users, depending on searcher competition.", "OFA paper"),
E(C, CAU, "Research: oracle update latency creates a window where the on-chain price trails the market; perp protocols without delays or spreads were arbitraged by traders front-running updates.", "oracle latency"),
E(C, STR, "Interview: 'A healthy lending market has liquidators that are not us. If only the team liquidates, a single outage becomes bad debt.'", "liquidator diversity"),
E(C, WAR, "Advisory (republished): Beware of 'gas refund' or 'airdrop eligibility checker' sites that ask for a signature; eligibility can be checked without signing anything.", "eligibility checker scam"),
E(C, INS, "Translated press (Japanese): Japanese exchanges began offering ETH staking services, with unstaking subject to the protocol's exit and withdrawal queues.", "translated press"),
E(C, HEU, "Column: the best time to decide your liquidation plan is before the crash, when gas is cheap and you can think.", "column heuristic"),
E(C, INS, "Data note: Chainlink's ETH/USD feed on mainnet uses a 0.5% deviation threshold and a 1-hour heartbeat.", "feed parameters"),
E(C, INS, "Research, Table 2: median time to finality — Ethereum L1 ~13 minutes (two epochs); OP Mainnet withdrawals 7 days; Arbitrum One ~6.4 days; zkSync Era ~hours.", "finality table"),
]
