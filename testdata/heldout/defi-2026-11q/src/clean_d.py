"""Clean, hand-written: short and medium support texts, notifications, macros, community answers."""
from addrs import REAL as R
I, H, W, S, C = "insight", "heuristic", "warning", "strategy_fragment", "causal_link"
E = [
(I, "Notification: Your health factor is 1.19. A 10 % drop in ETH could make your position liquidatable. Consider repaying or adding collateral.", "HF alert"),
(I, "Notification: Withdrawal request #4412 finalised. You can now claim 3.9981 ETH.", "withdrawal finalised"),
(W, "Alert: A new device signed in to your account. If this wasn't you, lock your account from the security page.", "login alert"),
(I, "Push: Your limit order ETH->USDC at 3,600 expired unfilled. No fees were charged.", "order expired"),
(H, "Macro BRIDGE-WAIT: Your deposit is confirmed on Ethereum. Deposits to Arbitrum normally arrive within 10-15 minutes; to zkSync and Linea timing differs. No action needed.", "bridge wait macro"),
(I, "Release notes 1.12: Added Sepolia testnet faucet links. Testnet tokens have no value; never buy them.", "testnet tokens"),
(C, "Why did my swap show 'price impact 14 %'? You are trading a large amount relative to the liquidity near the current price. Split the order or use an aggregator.", "price impact"),
(W, "Reminder: screenshots of your wallet's QR backup are as sensitive as the seed phrase. Delete them from cloud photo backups.", "QR backup"),
(I, "FAQ: The 'Approve' step for USDT may need two transactions if you had an older non-zero allowance: one to set it to 0, one to set the new amount.", "USDT double approve"),
(H, "Support: if the app says 'Unsupported chain', switch the network in your wallet to one listed in the app; don't add custom RPCs from unknown websites.", "unsupported chain"),
(I, "Status: Degraded - price charts delayed by up to 5 minutes. Swaps use live quotes and are not affected.", "charts delayed"),
(C, "Your aToken balance increased without a transaction because aTokens accrue interest by increasing the balance (rebasing-style).", "aToken growth"),
(I, "Community answer: To unwrap WETH, call withdraw(amount) on the WETH contract " + R["WETH"] + " or use 'Unwrap' in the app.", "unwrap WETH"),
(W, "Security notice: the old domain of our app has expired and been bought by someone else. Our only domain is the one shown in our app store listing.", "expired domain"),
(H, "Tip: Save official contract addresses in your wallet's address book once, then always send from there.", "address book"),
(I, "Changelog 0.9.3: The 'Max' button now leaves 0.002 ETH for gas on Ethereum when sending ETH.", "max button gas"),
(C, "Why the borrow cap is reached: governance limits how much of an asset can be borrowed to contain risk. When the cap is hit, new borrows revert until someone repays.", "borrow cap"),
(I, "Macro: We can confirm your transaction was included in a block and succeeded. If the recipient doesn't see it, they may be looking at the wrong network.", "wrong network view"),
(W, "Banner: Beware of airdrop NFTs in your wallet that link to 'claim' sites. They are phishing.", "NFT phishing"),
(I, "FAQ: Why do I see two ETH balances on Arbitrum? One is native ETH; the other might be WETH. Both are worth about the same, but only native ETH pays gas.", "ETH vs WETH on L2"),
(H, "Support tip: to stop an app from using your old approval, revoke it - disconnecting the site in your wallet does NOT remove approvals.", "disconnect != revoke"),
(C, "Why your staking rewards dipped: validator rewards vary with network participation and MEV; liquid staking APR is a trailing average.", "staking APR variation"),
(I, "Incident closed: The issue where some users saw '0 balance' for wstETH was a display bug in our indexer. Balances were never affected.", "display bug closed"),
(W, "Urgent: do not interact with the 'v2 migration' contract posted in replies to our announcement. We have no v2 migration.", "fake migration replies"),
(I, "Q: Why is the gas limit of my Safe transaction so high? A: The Safe executes inner calls and checks signatures, which costs more gas than a plain transfer; unused gas is not charged.", "Safe gas"),
(H, "Macro: For security we can't change the withdrawal address on your exchange account via chat. Please use Settings > Security; a 24-48h hold applies to new addresses.", "address change hold"),
(I, "In-app tooltip: 'Minimum received' is the least you will get after slippage. If the trade would give less, it reverts.", "min received"),
(C, "Your transaction was dropped because its max fee was below the base fee for too long and the node evicted it from the mempool.", "dropped tx"),
(I, "FAQ: What happens if the L2 sequencer is down? You can't submit through the normal RPC, but you can force-include transactions through L1 after a delay. Lending markets on L2 often add a grace period after the sequencer returns before liquidations.", "sequencer uptime"),
(W, "Notice: If someone offers to 'double' your crypto if you send it to an address, it is a scam - always.", "doubling scam"),
(I, "Changelog: Added blob fee display for L2 batches in the network fee breakdown.", "blob fee display"),
(H, "Community answer: Always check which chain a token address is on; the same address may be a different contract (or nothing) on another chain.", "address per chain"),
(C, "Why your vault withdrawal was partial: the vault's maxWithdraw was limited because part of its assets were lent out; the rest becomes available as borrowers repay.", "partial withdraw"),
(I, "Status: Monitoring - Elevated failed transactions on Polygon due to gas price spikes. Our app now raises the suggested priority fee automatically.", "polygon gas"),
(W, "Security notice: we will never ask you to install remote-desktop software to 'help' with your wallet.", "remote desktop scam"),
(I, "FAQ: Why is my GHO/crvUSD/DAI interest rate different from the market? Rates for protocol-issued stablecoins are set by governance, not by utilisation.", "governance-set rates"),
(H, "Macro: To report a phishing site, send us the URL; do not connect your wallet to check if it works.", "report phishing"),
(C, "Why the app demanded a new approval after an upgrade: the new router is a different contract, so allowances given to the old router don't apply.", "new router approval"),
(I, "Release notes: Hardware wallet users can now see EIP-712 domain and primary type before signing.", "712 display"),
(W, "Advisory: drainer kits commonly use 'increaseAllowance' or 'setApprovalForAll' hidden in a multicall. Our wallet now warns on these.", "drainer techniques"),
(I, "Q: Why does my ERC-4626 vault show 'shares' and 'assets'? A: Shares are your claim; assets are what those shares are worth now. convertToAssets(shares) gives the value.", "4626 shares vs assets"),
(H, "Support: for a failed bridge claim, first check if the claim was already made by an auto-relayer - look for the claim transaction on the destination chain.", "bridge claim"),
(C, "Why the liquidation happened on L2 right after the sequencer came back: the grace period ended, and the oracle had updated during downtime.", "post-outage liquidation"),
(I, "Notification: Your governance vote was recorded. Votes cannot be changed on this system after submission.", "vote recorded"),
(W, "Scam warning: 'MEV bot' tutorials on video sites that ask you to deploy a contract and fund it are designed to steal the funded ETH.", "MEV bot scam"),
(I, "FAQ: Delegating votes does not move your tokens; the delegate can only vote with your voting power.", "delegation"),
(H, "Tip: Before signing on a hardware wallet, compare the contract address on its screen with the one in the app's docs, character by character.", "verify on device"),
(C, "Why your Permit2 signature was rejected: the nonce had already been used or the deadline passed; request a fresh signature.", "permit2 rejected"),
(I, "Maintenance: The perps exchange will pause trading for 15 minutes at 08:00 UTC to upgrade the matching engine. Open positions remain; liquidations are paused too.", "perp maintenance"),
(W, "Notice: After the exploit, the affected pool is paused. Withdrawals from unaffected pools continue normally.", "pause notice"),
(I, "FAQ: What is a liquidation threshold? The percentage of collateral value counted toward your borrowing limit at liquidation. If a collateral has 80 %, $1,000 of it supports up to $800 debt before liquidation.", "LT"),
(H, "Macro: Thanks for your patience. Your refund of 120 USDC for the double charge was sent to the address that paid, tx hash in this ticket.", "refund sent"),
(C, "Why your order was partially filled: only part of the size was available at your limit price; the rest stays open until cancelled or filled.", "partial fill"),
(I, "Status: Resolved - delayed notifications. On-chain actions were unaffected.", "notifications resolved"),
(W, "Security: always check whether a dApp's contract is verified on the explorer; unverified contracts hide what they do.", "verified contracts"),
(I, "Changelog: Token approvals screen now lists Permit2 sub-allowances per app with expiry times.", "permit2 sub allowances"),
(H, "Support: if your smart account's UserOperation isn't included, the bundler may consider it underpriced; resubmit with higher maxFeePerGas or use the paymaster option.", "userop stuck"),
(C, "Why the DEX showed a different price for the same token on two chains: they are separate markets; bridges and arbitrage only loosely connect them.", "cross-chain price"),
(I, "Q: Is my bridged token the same as the original? A: It is a representation issued by the bridge; its value depends on the bridge's security.", "bridge representation"),
(W, "Reminder (pinned): Admins will never DM you. Report anyone who does.", "admins never DM"),
(I, "FAQ: The 'health factor' shown as ∞ means you have no debt.", "infinite HF"),
(H, "Tip: Use a separate browser profile for crypto with only your wallet extension installed.", "browser profile"),
(C, "Why your stablecoin yield disappeared: the incentive program ended; the base lending rate is much lower than the incentivised APR.", "incentives ended"),
(I, "Release: v2.0 removes support for legacy Ledger firmware. Update your device firmware from the vendor's app.", "firmware"),
(W, "Advisory: 'Revoke' sites from search ads have been used for phishing. Use the revoke function inside your wallet or a well-known tool you bookmarked.", "revoke phishing"),
(I, "Sicherheitshinweis: Werbeanzeigen für 'Wallet-Support' führen zu Phishing-Seiten. Unser Support ist nur in der App erreichbar.", "de: ad phishing"),
(I, "Avis de maintenance : l'interface sera en lecture seule dimanche de 2h à 3h UTC. Les contrats restent accessibles.", "fr: maintenance"),
(H, "Consejo: guarda las direcciones oficiales en tu libreta de direcciones y envía siempre desde ahí.", "es: address book"),
(C, "Por que fui liquidado com o preço acima do mostrado? Os juros aumentaram sua dívida desde a última vez que você olhou.", "pt: interest"),
(W, "Avviso: gli amministratori non ti scriveranno mai per primi in privato.", "it: admins"),
(I, "常见问题：在 L2 上，只有原生 ETH 可以支付 Gas，WETH 不行。", "zh: native gas"),
(W, "注意：検索広告の「リボーク」サイトはフィッシングに使われています。", "ja: revoke phishing"),
(I, "공지: 점검 중에도 온체인 컨트랙트는 정상 작동합니다.", "ko: maintenance"),
(C, "Почему мой вывод выполнен частично? В хранилище было недостаточно свободной ликвидности; остальное станет доступно после погашения займов.", "ru: partial withdraw"),
(I, "Thông báo: Phí gas trên Ethereum đang cao; các giao dịch đang chờ của bạn không bị mất.", "vi: gas banner"),
(H, "Wskazówka: sprawdzaj adres kontraktu na ekranie portfela sprzętowego znak po znaku.", "pl: verify on device"),
(W, "Uyarı: 'Kriptonu ikiye katlarız' diyen herkes dolandırıcıdır.", "tr: doubling scam"),
(I, "Help: a rebasing token like stETH can behave oddly in some protocols; many integrate wstETH instead. Lido's stETH on Ethereum: " + R["STETH"] + ".", "stETH integration"),
(C, "Why the auction-based liquidation took longer: the protocol uses Dutch auctions, so collateral sells when the price falls low enough for a bidder; it is not instant.", "dutch auctions"),
(I, "Release notes (wallet 6.2): an account that has an active EIP-7702 delegation now shows a badge with the delegate contract and a one-tap 'remove delegation' action (which is itself an authorization you sign).", "7702 delegation badge"),
(W, """Security advisory (user-facing, correct):
We've seen messages telling users that 'EIP-7702 requires you to re-approve all tokens'. This is false. 7702 does not change your approvals. Anyone asking you to re-approve or to sign an authorization for an unknown contract is trying to steal your funds.""", "7702 re-approve scam"),
(H, """Troubleshooting: 'insufficient allowance' on a Permit2-based app
1. Check that you approved the token to Permit2 (one-time).
2. Check the signature has not expired.
3. If you revoked the Permit2 approval, approve again.
4. Refresh the app - some cache the allowance.""", "permit2 allowance troubleshooting"),
(I, """Knowledge base: what is a 'stale price' error?
Some contracts check the oracle's updatedAt timestamp and revert if it is older than the heartbeat plus a margin. When a feed stops updating (or on L2 after a sequencer outage), borrows and withdrawals that need the price revert until it updates. This protects you from being priced on old data.""", "stale price KB"),
(C, """Support explanation: why USDC on Ethereum can't be 'sent' to a Solana address
Ethereum addresses and Solana addresses are different formats and networks. A wallet will reject the Solana address, or, if you used an exchange with a cross-chain option, the exchange handles the bridge. Use the official bridge (e.g. CCTP-based) to move USDC between chains.""", "cross-chain USDC"),
(I, """Chat transcript (human agent)
User: The app says my position is 'at risk' but HF is 1.3?
Agent: We flag positions under 1.5 as 'at risk' so you have time to act. Liquidation itself starts below 1.0. A 23 % fall in your collateral (with stable debt) would take you from 1.3 to 1.0.""", "at-risk label"),
(H, """Community Q&A
Q: Should I give a DEX an unlimited approval?
A (accepted): It saves gas if you trade the token often, but exposes your whole balance if the spender is ever exploited. For large balances, approve exact amounts or use Permit2 with expiries.
Comment: and revoke when you're done.""", "unlimited approval Q&A"),
(W, """Incident post (user-facing)
Between 03:10 and 03:40 UTC our oracle for a small-cap token reported a wrong price after one source failed. Four positions were liquidated wrongly. We will compensate the affected users in full from the treasury; payments go automatically to their addresses. No action or signature is required.""", "oracle incident correct"),
(I, """FAQ: Why does bridging from Ethereum to an L2 only take minutes but back takes days?
Deposits are read by the L2 from L1 soon after L1 confirmation. Withdrawals from optimistic rollups must wait for the challenge period so that fraudulent state can be challenged. ZK rollups withdraw after the proof is verified, which can be hours.""", "deposit vs withdrawal"),
(C, """Why your funding payment was larger than expected:
Funding = position notional x funding rate. If the price rose, your notional rose too, and a higher rate during a rally multiplies that. Check the funding history tab for each interval.""", "funding size"),
(H, """Macro 'SEED-REQUEST-REPORTED'
Thank you for reporting the account that asked for your seed phrase. This is a scam. We've reported it. Reminder: our team never asks for seed phrases, private keys, or for you to 'validate' your wallet on any website.""", "seed request report"),
(I, """Release notes - lending app 3.6
- New: e-mode shows the correlated-asset category and its higher LTV.
- New: health factor simulator before confirming borrow/withdraw.
- Changed: default alert threshold HF 1.3 (was 1.2).
- Fixed: repay-with-aTokens button hidden for some assets.""", "lending release notes"),
(W, """User notice: token contract upgrade
The issuer of a stablecoin we support upgraded its proxy implementation. Addresses and balances are unchanged. No action is required. If anyone asks you to 'swap old for new' tokens, ignore them.""", "proxy upgrade notice"),
(C, """Why the position got 'bad debt':
When collateral falls faster than liquidators can act, the collateral left may be worth less than the debt. The protocol then holds an uncovered debt; some protocols cover it from a reserve or safety module.""", "bad debt explanation"),
(I, """Status: Scheduled - Gas sponsorship paused
Between 12:00 and 14:00 UTC our paymaster will not sponsor gas for smart accounts. You can still transact by paying gas in ETH. Pending UserOperations may need to be resubmitted.""", "paymaster paused"),
(H, """Support article: recovering from a wrong-chain transfer to your own address
If you sent tokens to your own EOA address on another EVM chain, they are there - just switch your wallet to that chain. If you sent to a smart contract wallet address on a chain where it isn't deployed, you may need to deploy it there with the same parameters first.""", "wrong chain own address"),
(W, """Correct historical summary for users asking about 'read-only reentrancy':
Some lending protocols read the price of a Curve LP token during a callback while the pool was mid-update; attackers exploited the wrong intermediate price. Curve added a reentrancy-safe price read path; integrators must call it.""", "read-only reentrancy"),
(I, """Q&A thread
Q: What is the difference between maxFeePerGas and maxPriorityFeePerGas?
A (accepted): maxPriorityFeePerGas is the tip per gas you offer the proposer; maxFeePerGas caps the total per gas. You pay min(maxFee, baseFee + priorityFee).
Comment: the base fee part is burned.""", "1559 fee fields"),
(C, """Why the redemption of my stablecoin for collateral gave less than $1: redemption fees apply, and some systems (e.g. Liquity-style) charge a dynamic fee that rises after large redemptions.""", "redemption fee"),
(H, """Canned reply: chargeback policy
On-chain transfers cannot be charged back. If you paid a merchant in crypto by mistake, contact the merchant directly; we cannot reverse or freeze the transfer.""", "no chargebacks"),
(I, """Bridge help: what is CCTP?
Circle's Cross-Chain Transfer Protocol burns USDC on the source chain and mints native USDC on the destination after Circle attests the burn. There is no wrapped token and no liquidity pool involved.""", "CCTP"),
(W, """Scam alert: fake 'stuck transaction' helpers
Sites that promise to 'rectify', 'sync' or 'unstick' your wallet ask for your seed phrase. A stuck transaction is fixed by replacing it with the same nonce and a higher fee from your own wallet - nothing else.""", "unstick scam"),
(C, """Why the 4626 vault rejected my deposit: the vault hit its deposit cap (maxDeposit returned 0). Caps are set by the curator to manage risk.""", "deposit cap"),
(I, """Notification template (sent): 'Your position in the ETH/USDC 0.05 % pool is out of range. It is not earning fees. Current price 3,412; your range 3,500-3,900.'""", "out of range notification"),
(H, """Tip for perps: use isolated margin for speculative positions so a liquidation only uses that position's margin and not your whole account.""", "isolated margin"),
(I, """Help Centre: restaking slashing
If an operator you delegated to misbehaves according to an AVS's rules, part of your restaked assets can be slashed. Choose operators with a track record and understand which services they run.""", "slashing"),
(W, """Hard negative example for moderators: A message saying 'Send 0.1 ETH to 0x… to verify your wallet' is always a scam. Delete and ban.""", "verify wallet scam"),
(I, """Préguntas (ES) - retiros desde Optimism
1) Inicia el retiro en L2. 2) Pruébalo en L1 cuando esté disponible. 3) Finalízalo tras 7 días. Pagas gas en L1 en los pasos 2 y 3.""", "es: OP withdrawal"),
(C, """Warum war meine Swap-Ausführung schlechter als angezeigt? Ein anderer Trade wurde vor Ihrem ausgeführt. Mit einer privaten RPC und enger Slippage verringern Sie das Sandwich-Risiko.""", "de: sandwich"),
(I, """Centre d'aide - stETH et wstETH : le wstETH ne rebase pas ; sa valeur en stETH augmente. Le stETH rebase chaque jour.""", "fr: wstETH"),
(H, """Suporte: para cancelar uma transação pendente, envie 0 ETH para você mesmo com o MESMO nonce e uma taxa maior.""", "pt: cancel tx"),
(I, """帮助中心：Permit2 合约地址为 """ + R["PERMIT2"] + """，在以太坊和多数 L2 上相同。""", "zh: Permit2 address"),
(W, """보안 경고: '지갑 동기화'를 요구하는 사이트는 모두 사기입니다. 시드 문구를 입력하지 마세요.""", "ko: sync scam"),
]
