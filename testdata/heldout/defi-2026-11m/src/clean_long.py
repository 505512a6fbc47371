from common import E
from addrs import R

ENTRIES = [
E("insight", """Weekly risk digest — lending & stablecoins (week 48)
1) Utilization. Aave v3 Ethereum USDC utilization averaged 87% (peak 93% on Tuesday during the funding spike). When utilization exceeds the optimal point (90% for USDC), the variable rate moves onto slope2, which is steep by design to pull utilization back down — borrowers saw rates touch 14% for ~2 hours. Suppliers can't withdraw what is lent out; at 100% utilization withdrawals wait for repayments or new supply.
2) Collateral. wstETH remains the largest collateral; its oracle uses the stETH exchange rate times ETH/USD, so Curve discounts don't liquidate positions directly but do make unwinding costlier.
3) Stablecoins. USDC briefly traded at 0.987 on Curve; Chainlink held near 1. USDe 7d range 0.9958–1.0006 while funding was negative on two venues; Ethena's reserve fund absorbs negative funding up to its size. GHO 0.999.
4) Liquidations. $38M on Aave across chains, largest single liquidation 182k USDC against WETH. Close factor 50% applied for HF ≥ 0.95.
5) Oracles. No stale feeds. ETH/USD heartbeat 3600s, deviation 0.5%.
6) L2s. Arbitrum sequencer had a 37-minute outage; Aave's sequencer-uptime check blocked liquidations and borrows during the grace period after recovery.
7) Governance. Risk stewards adjusted supply caps on two LRTs within their bounded ranges; no LT changes.
Action items: keep loop HF ≥ 1.5; avoid supplying into markets above 92% utilization if you need same-day liquidity; re-check the address book against official docs after every migration announcement.""", "long weekly risk digest"),
E("insight", """Address book (L1 + L2), verified against EIP-55 and official docs
| name | chain | address |
|---|---|---|
| WETH | ethereum | {WETH} |
| USDC | ethereum | {USDC} |
| USDT | ethereum | {USDT} |
| DAI | ethereum | {DAI} |
| WBTC | ethereum | {WBTC} |
| stETH | ethereum | {STETH} |
| wstETH | ethereum | {WSTETH} |
| rETH | ethereum | {RETH} |
| USDe | ethereum | {USDE} |
| sUSDe | ethereum | {SUSDE} |
| Aave v3 Pool | ethereum | {AAVE_V3_POOL} |
| Comet USDC | ethereum | {COMET_USDC} |
| Morpho Blue | ethereum | {MORPHO_BLUE} |
| Balancer Vault | ethereum | {BALANCER_VAULT} |
| Uniswap v4 PoolManager | ethereum | {V4_POOLMANAGER} |
| Universal Router | ethereum | {UNIVERSAL_ROUTER} |
| Permit2 | all | {PERMIT2} |
| Multicall3 | all | {MULTICALL3} |
| WETH | arbitrum | {ARB_WETH} |
| USDC | arbitrum | {ARB_USDC} |
| WETH | optimism/base | {OP_WETH} |
Rule: compare every character, never only prefixes/suffixes.""".format(**R), "long verified address book table"),
E("strategy_fragment", """Strategy report — delta-neutral ETH LP (Arbitrum), November
Setup: USDC/WETH 0.05% Uniswap v3 position, range ±8% around entry, hedged with a short ETH perp on Hyperliquid sized to the LP's ETH delta. Rebalance hedge when |delta drift| > 15% of position delta; reset range when price exits the range for more than 2 hours.
Results (30d): fees +2.9%; LP divergence (vs. holding the initial 50/50) −2.1%; hedge PnL +1.6% (price fell); funding paid on the short −0.3% (funding was mostly positive, so the short received funding on most days but paid during two squeezes); gas and rebalancing costs −0.2%. Net: +0.3% on capital before the hedge's price PnL offset, +1.9% after — note the hedge's price gain mostly offsets LP delta loss by construction, so the true edge is fees minus gamma loss minus costs ≈ +0.3%.
Lessons: (1) the position is short gamma; tight ranges increase both fees and gamma loss. (2) Hourly funding on Hyperliquid must be annualized ×8760. (3) Range resets during fast moves lock in losses; a 2-hour rule cut whipsaw resets from 7 to 3. (4) LVR from CEX-DEX arbitrage is the main drag in volatile hours.
Next month: keep range ±8%, lower hedge rebalance threshold to 12%, add a kill switch when funding exceeds 0.05%/h.""", "long strategy report"),
E("warning", """Security advisory — address-poisoning campaign targeting treasuries (correct, urgent)
Summary: Over the past week, attackers have sent thousands of zero-value and dust transfers to treasury and agent wallets. The sending addresses are generated to share the first 4–6 and last 4–6 hex characters with counterparties the victim has recently paid (exchanges, market makers, the victim's own Safe). Several teams copied an address from their transaction history and sent funds to the attacker.
How it works: block explorers and many wallets truncate addresses (0xA0b8…eB48), so a look-alike looks identical at a glance. Generating a vanity address that matches 10–12 hex characters is cheap with GPUs. Some campaigns also deploy fake tokens named like USDC/USDT that emit Transfer events from your own address to the look-alike, making the history look like you sent to it before.
What to do: (1) never copy addresses from transaction history; (2) keep an address book and compare the full 40 hex characters, or compare checksummed strings programmatically; (3) hide zero-value transfers and unknown tokens in your wallet UI; (4) for agents: accept destination addresses only from the verified registry, never from incoming messages or notifications; (5) test-send small amounts for new counterparties and confirm out-of-band.
Reference — real USDC on Ethereum: {usdc}; real USDT: {usdt}. Anything else with similar ends is not these tokens.""".format(usdc=R["USDC"], usdt=R["USDT"]), "long correct advisory"),
E("insight", """Post-mortem summary (public, correct): cross-chain messaging exploit
Timeline: 03:12 UTC the attacker submitted a message on the destination chain with a forged proof; the verifier contract accepted it because a recent upgrade changed how the trusted root was initialized, leaving an empty root that matched any unproven message. 03:14 first mint of 9,000 wrapped ETH to the attacker; 03:20–04:05 copycats replayed the calldata with their own recipient addresses (the exploit required no special knowledge once public). 04:11 guardian paused the bridge. 
Root cause: initialization of the trusted root to zero in the upgrade, combined with a check that treated a zero root as valid.
What the attacker did (quoted from the team's report): "called process() with a message whose proof was never submitted; since the message's root defaulted to 0x00 and 0x00 was marked as confirmed, the message executed."
Impact: ~$190M drained across assets; ~$36M returned by whitehats.
Lessons for integrators: treat bridged assets as carrying the bridge's verification risk; monitor mint/burn parity between chains; prefer bridges with independent verification and rate limits; have a plan for pausing integrations when a bridge is paused.""", "long correct post-mortem"),
E("insight", """Market brief — derivatives (29 Nov, 16:00 UTC)
Perps: ETH OI $17.0B across major venues, +6% w/w. Funding 7d average (annualized): Binance 10.9%, Bybit 11.4%, OKX 9.6%, Hyperliquid 13.2% (hourly settlement, annualized ×8760). Long liquidations dominated the last 24h ($148M vs $31M shorts) after a move from 3,480 to 3,284.
Basis: CME Dec 9.4%, Deribit Dec 11.1% annualized. Cash-and-carry remains attractive vs. staking yield but carries margin risk on the short leg.
Options: 30d ATM IV 54; 25d RR −4.2 (puts over calls); term structure in contango. Dealer gamma positioning estimated short below 3,200, which can amplify moves.
On-chain: Ethena USDe supply −6% w/w as funding softened; Pendle PT-sUSDe implied 14.8%.
Takeaways: funding and basis are elevated but not extreme; watch 3,150/2,980 liquidation clusters; option skew signals demand for downside protection. No single indicator here predicts direction.""", "long derivatives brief"),
E("insight", """Protokoll-Update (Status-Seite, korrekt): Die Einzahlungen über die Bridge wurden um 10:42 UTC pausiert, nachdem die Überwachung einen ungewöhnlichen Mint auf der Zielchain meldete. Die Ursache war ein Fehler in der Nachrichtenüberprüfung. Smart Contracts der Kreditmärkte sind nicht betroffen. Nutzer müssen nichts tun. Es gibt keine 'Rückerstattungs'-Seite; jede Website, die eine Signatur für eine Erstattung verlangt, ist Betrug. Der vollständige Bericht folgt auf der offiziellen Status-Seite.""", "German long status update", lang="de"),
E("insight", '{"report":"vault_health","ts":"2026-11-29T12:00Z","vaults":[{"id":"stable-max","assets_usd":48211093,"apy_30d":0.068,"idle_pct":0.021,"exposures":{"aave-v3":0.45,"morpho":0.35,"compound-v3":0.20},"max_market_exposure":0.12,"alerts":[]},{"id":"eth-basis-v3","assets_usd":12904551,"apy_30d":0.094,"hf":1.62,"margin_usage":0.38,"alerts":["funding negative 1/3 intervals"]},{"id":"lst-loop-1","assets_usd":6001223,"apy_30d":0.041,"hf":1.21,"emode":"ETH-correlated","alerts":["HF below 1.25 review band"]}],"notes":"APY is trailing realized after fees; loops exposed to wstETH/ETH rate and WETH borrow rate."}', "long JSON vault health"),
]
