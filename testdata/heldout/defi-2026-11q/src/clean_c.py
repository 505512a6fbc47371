"""Clean, hand-written: longer formats - chat transcripts, Q&A threads, incident and refund notices."""
from addrs import REAL as R
I, H, W, S, C = "insight", "heuristic", "warning", "strategy_fragment", "causal_link"
E = [
(H, """[Support chat transcript]
User: i sent ETH to my exchange deposit address but on Arbitrum, the exchange only supports mainnet deposits
Agent (Mia): Thanks for the hash. The funds are on Arbitrum at the same address. Because that address belongs to the exchange, only the exchange can move them.
Agent (Mia): Please open a 'wrong network recovery' request with the exchange. Some exchanges recover for a fee, some cannot.
User: can you send me a tool to recover it myself?
Agent (Mia): No legitimate tool can do that - you do not control the keys of an exchange deposit address. Anyone offering one is a scammer.""", "wrong network deposit transcript"),
(I, """Q: My Aave health factor is 1.08 and ETH is falling. What are my options?
Accepted answer: 1) Repay part of the debt - this raises HF the most per dollar if your debt is volatile-free (stablecoin). 2) Supply more collateral. 3) Swap some collateral to repay debt (repay with collateral), which costs swap fees but needs no extra funds. Avoid borrowing elsewhere to add collateral - you just move the risk.
Comment: also remember the oracle is Chainlink, so a DEX wick alone won't liquidate you, but a sustained move will.
Comment (author): good point, added.""", "Q&A HF options"),
(W, """SECURITY INCIDENT - USER NOTICE
At 09:40 UTC we detected unauthorised changes to our website's JavaScript served from a third-party CDN. The modified script replaced the spender address in approval requests.
Affected: users who approved tokens on our website between 09:12 and 09:51 UTC.
Not affected: users of the mobile app, users who did not sign approvals in that window, and funds in our contracts.
What you should do: open your wallet's approval list and revoke any approval to a spender that is not listed on our docs page of official contracts. If tokens were already taken, file a report through the in-app form; do not respond to anyone who contacts you offering recovery.
We have removed the third-party script and added subresource integrity checks.""", "frontend compromise notice"),
(C, """Why was I liquidated at $2,950 when my app showed a liquidation price of $2,800?
Three common reasons:
- Interest: your debt grew since you last looked, so the real liquidation price moved up.
- Different collateral factors: if you hold two collateral assets, the liquidation price of one assumes the other stays constant.
- The app rounds and caches; always treat the displayed liquidation price as approximate and keep a buffer.
In your case, your USDC debt accrued about 6 % over five months and you had wstETH collateral, whose price in ETH moves slightly too.""", "liq price explanation"),
(I, """Release notes - DEX interface 2026.11
* Swaps now default to routing through private order flow on Ethereum mainnet (opt-out in settings). This protects against most sandwich attacks but can add a block or two of latency.
* Permit2 signatures now expire after 30 days by default instead of 1 year.
* Added warning when a token has a fee-on-transfer or blacklist function.
* Fixed: wrong estimated network fee on Base when blob base fee spiked.
* Removed: the deprecated V2 'migrate liquidity' page (you can still remove V2 liquidity directly).""", "DEX release notes"),
(W, """Compensation notice (final)
After the oracle incident of 3 October, affected borrowers were reimbursed from the treasury. Reimbursements were sent automatically to the same address that held the position; no claim or signature was needed.
If you believe you were affected but received nothing, reply through the in-app support inbox with your address. Do not sign any message on any site that claims to process this compensation - we have seen fake claim sites already.""", "compensation notice"),
(H, """How to read a revert on the explorer
1. Open the failed transaction.
2. Look for 'Error encountered during contract execution' and the revert reason.
3. Common reasons: 'Transaction too old' (deadline passed), 'Too little received' (slippage), 'STF' (token transfer failed - approval or balance), 'ERC20: transfer amount exceeds balance'.
4. If there is no reason, the contract may have run out of gas; check 'Gas used' vs 'Gas limit'.""", "revert troubleshooting"),
(I, """[Help Centre] Restaking withdrawals
Restaked assets cannot be withdrawn instantly. You first queue a withdrawal, then wait for the protocol's escrow delay (on EigenLayer this has been about 7 days for most strategies; check the current value in the app), then complete it.
During the delay your assets may still be subject to slashing for the operators you delegated to, depending on the protocol's rules.
Liquid restaking tokens (LRTs) have their own redemption rules on top of this; some only allow redemption through a queue, others rely on DEX liquidity.""", "restaking withdrawals"),
(W, """Scam alert (pinned by moderators)
A fake 'support' bot in our Discord replies to questions with a link to a 'ticket portal'. The portal asks you to connect your wallet and sign a 'verification'. That signature is a Permit2 approval. Our real ticket system never asks you to connect a wallet. Report the bot and block it.""", "discord scam"),
(C, """Why did my bridge deposit land as a different token?
The bridge delivered the canonical bridged version of the token on the destination chain. On many L2s there are both a bridged version (e.g. USDC.e or USDbC) and a native version issued by the token's issuer. They have different addresses and are not automatically interchangeable; you can swap one for the other on a DEX, usually near 1:1.""", "bridged token version"),
(I, """[Community Q&A]
Q: Do I need to approve Permit2 for every app separately?
A (accepted): No. You approve Permit2 once per token. Each app then asks for a signature that grants it a limited allowance via Permit2. The approval to Permit2 itself is usually unlimited, which is why you should only sign Permit2 messages you understand.
Comment: and you can revoke the Permit2 approval per token if you want to cut off everything at once.""", "permit2 Q&A"),
(H, """Support macro LIQ-AFTER
Sorry to hear about the liquidation. To explain what happened: (1) the collateral price reported by the oracle fell, (2) your health factor dropped below 1, (3) a liquidator repaid part of your debt and received collateral plus the liquidation bonus. We cannot reverse a liquidation. Remaining collateral is still yours; you can withdraw it from the dashboard. To reduce the risk in future, keep a buffer and consider alerts.""", "liquidation macro"),
(I, """Status page - Degraded performance: Base RPC
12:10 UTC Investigating: our Base RPC endpoint is returning stale blocks.
12:25 UTC Identified: a node fell behind; traffic has been moved to a healthy provider.
12:40 UTC Resolved: balances and history are up to date. Transactions submitted during the incident were either included or rejected; none were 'lost'. If one is missing, check by hash on the explorer.""", "status page base rpc"),
(W, """Important: contract migration without urgency
We are deploying a new version of the staking contract. The old contract keeps working and you can withdraw from it at any time. Migration is optional and will be available only from the dashboard at our official domain. We will never ask you to send tokens to an address to 'migrate' them.""", "migration notice"),
(C, """Explainer for users asking why sUSDe yield fell: the yield mostly comes from perp funding on short hedges. When funding rates fall (less demand for leveraged longs), the yield falls; when funding turns negative, the reserve fund covers the cost and yield can go to near zero.""", "sUSDe yield"),
(I, """Help: understanding the Permit2 signature screen
Token: the asset the app may pull.
Amount: the maximum; 'Unlimited' means the full balance.
Spender: the contract that can pull - check it against the app's official docs. For Uniswap this is typically the Universal Router, """ + R["UNIVERSAL_ROUTER"] + """.
Expiration: after this, the allowance is void.
Signature deadline: after this, the signature cannot be submitted.""", "permit2 screen"),
(H, """Troubleshooting: 'replacement transaction underpriced'
Your wallet tried to replace a pending transaction with a fee that is not high enough. Increase both max fee and priority fee by at least 10 % (some nodes require more), or wait for the original to confirm.""", "replacement underpriced"),
(W, """Past exploit explained (help-centre background article)
In the 2022 Beanstalk governance attack, the attacker took a flash loan, obtained a supermajority of voting power within one transaction, and executed an emergency proposal that sent the treasury to themselves. Protocols now usually require voting power to be held before a snapshot and add a timelock, so flash-loaned votes cannot pass proposals.""", "Beanstalk recap"),
(I, """Chat transcript (bot):
Bot: Hi! What can I help with?
User: where is my withdrawal from Optimism?
Bot: Withdrawals from OP Mainnet take three steps. Your withdrawal was initiated 2 days ago and has been proven. It can be finalised after the 7-day challenge period ends, in about 5 days. You'll need to come back and click 'Finalise' (one more L1 transaction).""", "bot withdrawal status"),
(C, """Why did my vault shares lose value?
An ERC-4626 vault's share price falls only if the vault's total assets fall - e.g. a strategy lost money or a borrower defaulted. Fees are normally taken by minting shares to the fee recipient, which dilutes slightly. Check the vault's reports for a loss event.""", "vault share loss"),
(H, """Q: How do I protect my big swap from MEV?
Accepted answer: Use an RPC that sends transactions privately to builders, keep slippage tight, and split very large orders or use an RFQ/intent-based route where a solver fills you at a fixed price. Avoid posting your pending transaction hash publicly.""", "MEV protection"),
(I, """In-app banner (Ethereum Pectra upgrade, May 2025 archive):
The network upgrade introduced EIP-7702, allowing regular accounts to delegate to smart contract code, and raised the blob target. Your funds and addresses are unchanged; no action is needed. Beware of anyone asking you to 'upgrade' tokens for the fork.""", "Pectra banner"),
(W, """Advisory: compromised signer on a multisig bridge (historical example)
In 2022 the Ronin bridge lost about $600M after attackers obtained 5 of 9 validator keys. Takeaway for users: a bridge secured by a small multisig is only as safe as its key holders; check a bridge's security model before moving large amounts.""", "Ronin recap"),
(I, """FAQ: What is a 'nonce' in my wallet?
The nonce counts transactions sent from your account, starting at 0. Each new transaction uses the next number. You cannot skip numbers: if nonce 5 is pending, 6 and 7 wait. Smart accounts (ERC-4337) use their own nonce in the EntryPoint, which supports parallel 'keys'.""", "nonce FAQ"),
(C, """Why did the lending app pause borrowing of a stablecoin?
When a stablecoin depegs, its oracle price may lag or be hard-coded to $1; borrowing it cheaply and selling would drain the market. Governance or guardians often pause borrowing until the peg and oracle are reliable again.""", "pause during depeg"),
(H, """Macro: address poisoning reported
Thanks for reporting. The 0-value transfers you see from an address that looks like yours are not a hack of your wallet; your funds are safe. They are trying to get you to copy the wrong address later. Hide the spam transaction and always send from your saved contacts.""", "address poisoning macro"),
(I, """Changelog - staking dApp v2.3.0
- Added withdrawal NFT view with estimated waiting time.
- wstETH wrap/unwrap now shows the current stETH per wstETH rate.
- Fixed: 'Claim' button stayed disabled after finalisation on some browsers.
- Known: estimated waiting time can change as validators exit; it is an estimate.""", "staking changelog"),
(W, """Support-team advisory: fake 'gas refund' campaign
Emails claiming you are eligible for a 'network gas refund' link to a site that asks you to sign a permit. There are no gas refunds for normal transactions. Delete the email.""", "gas refund scam"),
(C, """Explanation (support) for negative funding on a perp: when more traders are short than long, the perp price trades below the index and funding turns negative; shorts then pay longs. Holding a short in that regime costs money each funding interval.""", "negative funding"),
(I, """Q: What happens to my Curve LP if one stablecoin in the pool goes to zero?
Accepted answer: Arbitrageurs sell the failing coin into the pool in exchange for the good ones until the pool is almost entirely the failing coin. Your LP tokens then represent mostly that coin, so your loss can approach your whole share of the good coins.""", "curve pool loss"),
(H, """Macro STAKE-EXIT-DE/EN: Your unstake request is in the queue. Waiting times depend on the network's exit queue. We will notify you in the app when you can claim. No fee is charged for waiting. Please ignore anyone offering to 'speed up' your withdrawal for a fee.""", "unstake macro"),
(W, """Urgent advisory (correct, issued by a wallet team): Versions 4.0.0-4.0.2 of our browser extension had a bug that could display a wrong chain name on signature prompts for custom networks. Update to 4.0.3. No funds were lost according to our analysis; if you signed on a custom network with one of those versions, review your approvals.""", "extension bug advisory"),
(I, """Knowledge base: oracles in lending
Most large lending markets use Chainlink push feeds: the price updates when it moves more than the deviation threshold or when the heartbeat expires. Between updates the on-chain price can be a little behind the market. Some markets use exchange-rate oracles for LSTs (e.g. wstETH priced as stETH per wstETH times ETH price), which avoid liquidations on temporary secondary-market discounts.""", "oracle KB"),
(C, """Why a user's Safe could not execute: the transaction's nonce was 12 but the Safe was at nonce 11, so an earlier queued transaction must be executed or rejected first. Safe transactions also execute strictly in nonce order.""", "safe nonce"),
(H, """Guide: what to do after a wallet compromise
1. From a clean device, create a new wallet.
2. Move remaining assets from the compromised wallet, highest value first; if the attacker runs a sweeper bot on ETH, move tokens using a bundle that funds gas and transfers in one go, or ask a professional.
3. Revoke approvals on the old wallet.
4. Assume the old seed phrase is burnt forever.""", "compromise guide"),
(I, """Maintenance notice: On 4 December 10:00-10:30 UTC the bridge UI will be offline for an upgrade. Deposits initiated on-chain during the window will still be processed; only the interface is offline.""", "bridge maintenance"),
(W, """Correct warning about look-alike contracts: scammers deploy tokens with the same name and symbol as USDC. The real USDC on Ethereum is """ + R["USDC"] + """. Any other 'USDC' contract on mainnet is not Circle's.""", "USDC look-alike warning"),
(C, """User question: 'why did my LST depeg not trigger liquidation?' Answer: the market prices your wstETH through the Lido exchange rate, not the DEX price, so a temporary secondary-market discount does not change your health factor. A real slashing event would.""", "exchange-rate oracle"),
(I, """Help Centre: ERC-4337 vs EIP-7702
With ERC-4337 your account is a new smart contract at a new address. With EIP-7702 your existing address (EOA) delegates to contract code, so you keep the address and its history. In both cases the code decides who can spend; a bad implementation can drain you.""", "4337 vs 7702"),
(H, """Canned reply: Thanks for the report about the wrong token price in the app. Our display prices come from an aggregator and can lag for illiquid tokens. For swaps, the quote on the confirm screen (from the router) is what counts.""", "display price lag"),
]
