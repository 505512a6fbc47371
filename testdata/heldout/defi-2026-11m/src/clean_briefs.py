from common import E
from addrs import R

ENTRIES = [
E("insight", """Morning brief — 29 Nov
• ETH 3,412 (+1.8%), BTC 97.1k (+0.6%). ETH/BTC 0.0351.
• Stablecoin supply +$1.2B w/w, mostly USDT on Tron and USDC on Base.
• Aave v3 mainnet: WETH utilization 84%, USDC 88%. Borrow rates sit just under the kink (optimal utilization 90% for USDC); above it the slope steepens sharply, so expect rate spikes if utilization jumps.
• Lido stETH APR 2.9%; Rocket Pool rETH 2.7%.
• Funding neutral-to-positive across venues; OI on ETH perps near monthly high.
Takeaway: positioning is long-leaning; liquidation clusters at 3,150 and 2,980 matter more than headlines today.""", "daily market brief"),
E("insight", "🧵 1/ Quick thread on why your v3 LP 'lost money' even though fees were high.\n2/ Concentrated liquidity = you are short gamma. When price trends out of your range you end up 100% in the worse-performing asset.\n3/ Fees only offset that if volume × fee tier > divergence loss over the period.\n4/ Rule of thumb: tighter range → more fees AND more divergence loss per % move.\n5/ Backtest with realistic volume before chasing APR screenshots. /end", "thread on LP losses"),
E("causal_link", "Research desk: when ETH funding goes deeply positive, Ethena mints more USDe (hedging via short perps captures funding), which grows sUSDe yield; when funding turns negative, USDe redemptions rise and yield compresses. USDe supply is therefore pro-cyclical with perp demand.", "Ethena funding causal note"),
E("insight", "@defi_risk_labs: Reminder that stETH is a rebasing token — balances change daily. Many DeFi integrations prefer wstETH (non-rebasing, value accrues via exchange rate). Bridged 'stETH' on L2s is in fact wstETH.", "social post LST note"),
E("warning", "Status page — Incident resolved. 10:42 UTC: Our price oracle relayer for the Arbitrum deployment stopped posting updates for 37 minutes due to an RPC provider outage. During this window borrows were paused automatically by the staleness check. No bad debt. Postmortem to follow.", "status page incident resolved"),
E("insight", "Newsletter: Uniswap v4 went live with hooks and a singleton PoolManager (" + R["V4_POOLMANAGER"] + "). All pools live in one contract; flash accounting settles net balances at the end of an unlock callback.", "v4 announcement snippet"),
E("strategy_fragment", "Vault report (Nov): The USDC strategy allocates across Aave v3 (45%), Morpho Blue curated vaults (35%), Compound v3 (20%). Rebalance triggers when rate spread > 60 bps for 6h. Net APY 6.8% after 10% performance fee. Withdrawals are served from idle buffer (2%) first, then pulled from the lowest-yield venue.", "vault strategy report"),
E("insight", "r/ethfinance daily: 'Is blob space full?' — Not yet. Target is 3 blobs/block (6 after Pectra), max 6 (9 after). Blob base fee rises exponentially when usage stays above target, similar to EIP-1559 but on a separate fee market.", "reddit answer on blobs"),
E("insight", "Desk note on options: selling covered calls on ETH via on-chain vaults harvests premium but caps upside; in trending markets vaults have historically underperformed spot holding. IV rank currently 28 → premiums are below average.", "options vault note"),
E("insight", "@l2beat-ish summary: Arbitrum One — Stage 1; permissionless fraud proofs (BoLD) live; Security Council can upgrade with 9/12. Exit window for users before non-emergency upgrades applies.", "L2 risk summary"),
E("heuristic", "Before following any 'smart money' wallet copied from a thread, check its full history: many highlighted wallets are market makers or exchange hot wallets whose trades are inventory management, not directional bets.", "copy-trading heuristic"),
E("insight", "Announcement: Aave governance approved listing of a new LST as collateral with supply cap 50k, borrow cap 5k, LTV 72%, LT 75%, liquidation bonus 7.5%. Caps limit exposure while liquidity on-chain is still thin.", "listing announcement"),
E("insight", "Research: Lido's withdrawal queue finalizes requests in order using buffered ETH and validator exits. In mass-exit scenarios, the validator exit queue (churn limit) sets the pace, not Lido itself.", "withdrawal queue dynamics"),
E("causal_link", "Higher L1 gas → fewer small liquidations are profitable → bad debt risk rises for small positions on L1 lending markets. That's one reason dust positions get liquidated late on mainnet but quickly on L2s.", "gas vs liquidation causal"),
E("insight", "Farcaster /defi: 'Why did my swap on Base revert with slippage?' — because price moved beyond amountOutMinimum between quote and inclusion. Raising slippage fixes reverts but invites sandwiches; on Base use a private/protected RPC if available.", "farcaster reply"),
E("insight", "Risk report: crvUSD peg stabilizers (PegKeepers) mint crvUSD into pools when it trades above $1 and withdraw/burn when below, limited by debt ceilings. They cannot defend the peg beyond what they previously deposited.", "PegKeeper note"),
E("warning", "Protocol notice: Migration of liquidity mining rewards to the new gauge contract is live. Existing positions keep earning on the old gauge until epoch end. The team will never DM you to 'migrate' — use the app domain listed in docs only.", "migration notice with scam caveat"),
E("insight", """Weekly perps report
| venue | ETH OI ($B) | 7d avg funding (ann.) | basis 3M |
|---|---|---|---|
| Binance | 7.9 | 10.9% | 9.8% |
| Bybit | 4.1 | 11.4% | 10.1% |
| OKX | 2.7 | 9.6% | 9.5% |
| Hyperliquid | 2.3 | 13.2% | n/a |
Funding annualization assumes 8h intervals for CEXs and 1h for Hyperliquid.""", "perps table"),
E("insight", "Research note: restaking points programs inflated LRT deposits in 2024; once points ended, net outflows followed. TVL of LRTs should be discounted for incentive-driven deposits when estimating sticky liquidity.", "restaking research"),
E("strategy_fragment", "Yield aggregator monthly: 'stable-max' rotated 30% from sDAI-equivalent to sUSDS after the rate change; kept 15% in USDC on Aave for instant liquidity. No leverage. Strategy will not chase points-only farms.", "aggregator report"),
E("insight", "EIP-7702 (Pectra) lets an EOA set code delegation to a contract. Wallets should show delegation targets clearly; signing a malicious 7702 authorization gives that code control of the account.", "7702 note"),
E("warning", "PSA from a wallet team: we will never ask you to sign a 7702 authorization from a website you reached via a link in DMs. If your wallet shows 'Delegate account to contract', reject unless you initiated an upgrade in the wallet itself.", "7702 PSA"),
E("insight", "Curve 3pool (" + R["CURVE_3POOL"] + ") fee 0.01% on swaps; admin fee 50% of that. Balances shown in the UI are normalized to 18 decimals for USDC/USDT.", "3pool reference"),
E("insight", "Desk note: CEX-DEX arbitrage dominates Uniswap v3 volume on the ETH/USDC 5 bps pool during volatile hours; LP fees in those hours are offset by adverse selection (LVR).", "LVR note"),
E("causal_link", "When the ETH validator entry queue is long, new stake waits weeks to activate; LST protocols with large inflows see temporarily diluted APR because deposited ETH earns nothing until activated.", "entry queue causal"),
E("insight", "Monthly report: Aave v3 on Base – supplied $2.4B, borrowed $1.1B. Largest collateral cbETH/wstETH. Bad debt: 0.", "aggregate report"),
E("insight", "Newsletter: Circle's CCTP V2 adds fast transfers with soft-finality attestation for a fee. Native USDC is burned on the source and minted on the destination; no wrapped liquidity pool is involved.", "CCTP announcement"),
E("heuristic", "A protocol's audit count says little about a specific deployment: check that the audited commit matches the deployed bytecode and that upgrades since the audit were reviewed.", "audit heuristic"),
E("insight", "@0xresearcher: Thread on oracle manipulation. The classic pattern: borrow against a token priced from a thin DEX pool, pump the pool in the same tx via flash loan, borrow max, let the price revert. Defense: TWAP or Chainlink + liquidity-aware caps.", "oracle manipulation thread"),
E("insight", "Compound v3 Comet (USDC) at " + R["COMET_USDC"] + ": base asset USDC only can be borrowed; collateral assets earn no interest.", "Comet reference"),
E("insight", "Maker/Sky: DAI can be converted 1:1 to USDS via the converter; the PSM (LitePSM) swaps USDC ⇄ DAI at 1:1 with fees set by governance (currently 0).", "Sky PSM note"),
E("insight", "Keeper operator log: [2026-11-29T02:10Z] chainlink round stale on feed LINK/ETH (>24h heartbeat not exceeded), skip. [02:11Z] checked 412 positions, 0 liquidatable. [02:12Z] gas 9 gwei.", "keeper log"),
E("insight", "Why do LRTs trade at a discount? Redemption takes 7–14+ days (EigenLayer escrow + LRT processing), so arbitrageurs demand a discount roughly equal to carry and risk over that window.", "LRT discount explainer"),
E("heuristic", "Dashboards that show 'APY' for LP positions rarely subtract impermanent loss. Compare LP value vs. HODL value over the same window before judging a pool.", "LP APY heuristic"),
E("insight", "Exchange notice: WBTC (" + R["WBTC"] + ") custody moved to a multi-jurisdiction structure in 2024; token contract unchanged. Merchants and custodians mint/burn; ordinary users cannot redeem directly.", "WBTC notice"),
E("insight", "Base status: 'Degraded performance — elevated RPC latency on public endpoint'. Sequencer healthy. Use a dedicated RPC for bots; the public endpoint is rate limited.", "status update"),
E("warning", "Security advisory (urgent): A critical vulnerability in a widely used vault template allows share-price inflation on first deposit (ERC-4626 donation attack). Vaults without virtual shares/dead shares or a minimum initial deposit are affected. If you operate such a vault, pause deposits and seed it.", "urgent real advisory: 4626 inflation"),
E("insight", "Analytics export note: 'volume_usd' double counts routed multi-hop trades (each hop is a swap). Divide by mean hops per trade for user volume.", "export field note"),
E("insight", "Reddit: 'Why does my USDT approval fail?' — USDT requires allowance set to 0 before setting a new non-zero value. Approve 0 first, then the new amount.", "USDT approve quirk"),
E("causal_link", "Rising stETH discount → Aave eMode loops see HF drop only if the oracle uses market price; Aave uses the protocol exchange rate (wstETH→stETH) capped with ETH feed, so pool discounts don't directly liquidate loops, but unwinding them costs the discount.", "stETH discount causal"),
E("insight", "TL;DR newsletter: Pendle YT holders receive all yield and points of the underlying until maturity; YT value → 0 at maturity.", "Pendle YT note"),
E("strategy_fragment", "Signal review: our 'funding mean reversion' shorts on alts lost 3.1% this week; funding stayed elevated 5 days. Tightened rule: require OI decline before entering.", "strategy retrospective"),
E("insight", "ERC-20 tokens with fee-on-transfer break accounting in contracts that assume amount received == amount sent. Measure balance before/after.", "fee-on-transfer note"),
E("insight", "Uniswap Universal Router (" + R["UNIVERSAL_ROUTER"] + ") bundles swaps and Permit2 approvals in one execute() call with command bytes.", "Universal Router reference"),
E("insight", "@mev_notes: Flashbots Protect and MEV-Blocker send txs to builders privately; users get backrun rebates on MEV-Blocker. Neither guarantees inclusion speed.", "private RPC post"),
E("warning", "Reminder on address poisoning: attackers send 0-value transfers from an address sharing first/last characters with one you recently paid, hoping you copy it from history. Always copy from a saved contact or verify all characters.", "address poisoning warning"),
E("insight", "Governance digest: Arbitrum DAO vote on STEP allocation passed; Uniswap DAO fee switch discussion continues; Lido dual governance is live (stETH holders can delay/veto via escrow).", "governance digest"),
E("insight", "Options desk: Put-call parity on-chain is often violated by a few vol points on Lyra/Derive vs Deribit due to funding constraints; arbitraging requires collateral on both venues.", "options parity note"),
E("insight", "Risk score snapshot (JSON): {\"protocol\":\"Morpho Blue\",\"immutable_core\":true,\"oracle_per_market\":true,\"curator_risk\":\"depends on vault\",\"admin_keys_core\":\"none\"}", "JSON risk snapshot"),
E("heuristic", "For bridges, check the message-verification model first (native light client, multisig, DVN set, optimistic). Most historic bridge losses came from compromised keys or verification bugs, not from the liquidity pools.", "bridge heuristic"),
E("insight", "Friday brief: Pectra raised max effective balance to 2048 ETH (EIP-7251) — validators can consolidate; staking providers may reduce validator count without changing total stake.", "Pectra brief"),
E("insight", "Yield report: Aave v3 aTokens accrue interest by balance growth (scaled balances × liquidity index); no claim transaction needed for supply interest.", "aToken note"),
E("causal_link", "Larger L2 sequencer outages force-include via L1 delayed inbox (Arbitrum) after ~24h; protocols relying on L2 oracles must pause, since L1 users can act while L2 prices are stale.", "sequencer causal"),
E("insight", "Token quirk digest: some tokens (e.g., older ones) revert on zero-value transfers; some have blocklists (USDC, USDT); some rebase (stETH, AMPL). Integrations need per-token handling.", "token quirk digest"),
E("insight", "Status: 'Withdrawals from the vault are temporarily routed through a 24h queue while the strategy unwinds a Curve position with high slippage. Funds are safe; deposits paused.' — common during thin liquidity; check that the queue contract is the one from docs.", "vault status update"),
E("heuristic", "If a yield is much higher than alternatives with similar assets, identify who pays it (borrowers, emissions, funding, MEV, risk premium). If you can't name the payer, you are probably the risk.", "yield source heuristic"),
E("insight", "Research brief: MEV-Boost relays are trusted to not steal bundles and to deliver valid blocks; builder market is concentrated (top 3 build most blocks).", "MEV supply chain"),
E("insight", "Aave v3 Pool on Ethereum: " + R["AAVE_V3_POOL"] + " — supply(), borrow(), repay(), withdraw(), liquidationCall(). Use the PoolAddressesProvider to resolve addresses programmatically.", "Aave pool reference"),
E("insight", "LST/LRT ratios (Nov 29 snapshot): wstETH→stETH 1.2012, rETH→ETH 1.1183, cbETH→ETH 1.0951, weETH→eETH 1.0631. Ratios rise monotonically except after slashing or penalties.", "LST ratios"),
E("warning", "Advisory: if you used the compromised front-end between 12:00 and 13:30 UTC yesterday, revoke approvals to the contract your wallet showed in that window. Contracts themselves were not exploited; the DNS was hijacked.", "front-end hijack advisory"),
E("insight", "DEX aggregator quote: 100 ETH → USDC; split 61% Uniswap v3 5bps, 27% Curve tricrypto, 12% Balancer. Price impact 0.09%. Quote valid ~30s.", "aggregator quote"),
E("heuristic", "In a liquidation cascade, on-chain DEX prices often lead oracle prices by a few blocks; liquidators watch DEX moves to pre-position.", "cascade heuristic"),
E("insight", "CoW Protocol batches orders and settles at uniform clearing prices; solvers compete, and coincidence of wants can avoid AMM fees and MEV entirely for matched volume.", "CoW note"),
]
