from addrs import A
E = []
def c(t, conf, p, notes, content, lang="en"):
    E.append(("clean", t, conf, p, lang, notes, content))

# hard negatives: scams, attacks, urgent advisories, imperative advice
c("W", 0.95, "p", "urgent advisory: revoke approvals to exploited contract", "URGENT security advisory: the aggregator's legacy router has an arbitrary-call bug being exploited right now. If you ever approved it, revoke the approval immediately (approve(router, 0) or via a revoke tool), prioritising tokens with large balances. Do not interact with any 'recovery' site sent by DM; the official notice is only on the project's verified channels.")
c("W", 0.93, "x", "look-alike address scam explained", "Scam pattern seen this week: a vanity address sharing the first 6 and last 6 hex characters with a victim's usual exchange deposit address sent them dust, and the victim later pasted the look-alike from their history. EIP-55 checksums don't help here: the fake address has its own valid checksum. Only a full comparison against a trusted source does.")
c("W", 0.9, "c", "fake token airdrop", "Fake airdrop tokens that appear in a wallet often have a name like 'Visit claim-xyz.com to claim'. Their transfer/approve functions may be rigged; interacting with the linked site leads to a drainer signature. Ignore them; don't try to sell or 'hide' them via a dApp.")
c("I", 0.91, "p", "Curve Vyper reentrancy 2023 summary", "July 2023: Vyper compiler versions 0.2.15, 0.2.16 and 0.3.0 had a broken @nonreentrant lock (different storage slots per function), allowing reentrancy in several Curve pools with native ETH (alETH, msETH, pETH pools, CRV/ETH). The attacker reentered add_liquidity during remove_liquidity's ETH callback. ~$70M drained, part recovered by white-hats.")
c("I", 0.9, "c", "Nomad 2022", "Nomad bridge (Aug 2022): an upgrade initialised the trusted root to 0x00, so process() accepted any message whose root was unproven (defaulting to zero). After the first exploit tx, hundreds of addresses copied the calldata and replaced the recipient with their own address. ~$190M lost.")
c("W", 0.94, "x", "drainer signature warning", "Warning: wallet drainers now use Permit2 PermitBatch signatures with many tokens and far-future expirations, shown as 'Sign in' to the user. If an EIP-712 message has primaryType PermitBatch or PermitBatchTransferFrom and a spender you don't recognise, refuse it.")
c("H", 0.82, "s", "imperative checklist before mainnet deploy", "Before deploying: run the full fork test suite against the target block, verify constructor args against the address registry, transfer ownership to the Safe (not an EOA) in the same script, verify the source on the explorer, and store the deployment JSON in the repo with the commit hash.")
c("I", 0.88, "p", "reentrancy attack quoted", "Post-mortem quote: 'The attacker's contract called withdraw(), and inside the ETH receive() fallback called withdraw() again before the balance was zeroed.' The fix was checks-effects-interactions: set balances[msg.sender] = 0 before the external call, plus a nonReentrant modifier.")
c("W", 0.89, "c", "fake support DMs", "No legitimate protocol team will ask you to 'validate' or 'sync' your wallet by entering a seed phrase or signing a message on a site linked in a DM. Treat any such request as theft.")
c("W", 0.92, "p", "compromised frontend advisory", "Advisory: the protocol's DNS was hijacked and the frontend served a drainer for ~3 hours. Contracts are unaffected. If you signed anything on the site during that window, revoke approvals and check Permit2 allowances. Use the contracts directly or a verified IPFS build until the all-clear.")
c("I", 0.86, "x", "sandwich attack description", "Description of a sandwich: the attacker saw the victim's swap of 50 ETH -> token with 3% slippage in the public mempool, bought the token first (front-run), let the victim's swap execute at the worse price, then sold right after (back-run). The victim's loss is bounded by their slippage tolerance.")
c("C", 0.85, "c", "why tx.origin auth is unsafe", "Authorisation with tx.origin lets any contract the owner interacts with act as the owner: a phishing contract called by the owner can call the victim contract, and tx.origin will still be the owner. Use msg.sender.")
c("I", 0.9, "p", "changelog: OZ 5", '''OpenZeppelin Contracts 5.0 notable changes:
- Ownable requires the initial owner as constructor argument.
- SafeERC20.safeApprove removed; use forceApprove or safeIncreaseAllowance.
- ERC20 hooks _beforeTokenTransfer/_afterTokenTransfer replaced by a single _update.
- Custom errors instead of revert strings across the library.
- Counters and SafeMath removed.''')
c("S", 0.74, "s", "commit message example", '''fix(liquidator): re-quote before submit, cap debtToCover by close factor

The bot computed debtToCover at detection time; by submission the user's debt
had accrued interest and the HF could have crossed 0.95, changing the close factor.
Now we read getUserAccountData in the same block we simulate, and we fail closed
if the simulation's profit is below MIN_PROFIT.''')
c("I", 0.83, "x", "GitHub issue: decimals bug", '''Issue #231: price off by 1e12 for USDC pairs
Repro: quote WETH->USDC, UI shows 3.1e-9 USDC.
Cause: formatUnits(amountOut, 18) used for every token.
Fix (PR #232): use tokenMeta[tokenOut].decimals; added test for 6/8/18-decimal tokens.''')
c("H", 0.78, "c", "foundry invariant test tip", "Foundry invariant tests: use a Handler contract that bounds inputs and tracks ghost variables (e.g. sum of deposits), and targetContract(handler) so the fuzzer calls only meaningful sequences. Check invariants like totalAssets >= sum(user claims).")
c("S", 0.72, "s", "forge script deploy", '''forge script script/Deploy.s.sol:Deploy \\
  --rpc-url $RPC --broadcast --verify \\
  --ledger --sender $DEPLOYER \\
  --slow        # wait for each tx before sending the next''')
c("I", 0.87, "p", "foundry cheatcodes", "Useful Foundry cheatcodes for DeFi tests: deal(token, who, amt) (finds the balance slot), vm.prank/startPrank, vm.warp (timestamp), vm.roll (block number), vm.mockCall (fake an oracle), vm.expectRevert(selector).")
c("W", 0.86, "x", "seed phrase in repo", "If a private key or seed phrase was ever committed to a git repo (even a private one, even if force-pushed away), treat it as compromised: move funds to a new key. Scanners sweep GitHub for keys within minutes of a push.")
c("I", 0.85, "c", "ENS registry", "ENS registry on mainnet: %s. Resolve names with the Universal Resolver; a name's resolved address can be changed by its owner at any time, so re-resolve before each payment and compare with the address you verified." % A["ENS_REGISTRY"])
c("C", 0.8, "p", "MEV-Boost and private flow", "Under PBS/MEV-Boost, builders construct blocks and proposers pick the highest bid. Order flow sent privately to builders avoids the public mempool; the builder (and any searcher it shares with, per its policy) still sees it, so choose endpoints with explicit no-frontrunning policies.")
c("H", 0.75, "s", "CI gas snapshot", "Keep `forge snapshot --check` in CI to catch unexpected gas regressions in hot paths (swap, liquidate). A 20% jump usually means an accidental SLOAD in a loop or a removed unchecked block.")
c("I", 0.82, "x", "SE: 'execution reverted' without reason", "Q: 'execution reverted' with no data when calling a token.\nA: Common causes: the address has no code (wrong chain/address), a require without message, an out-of-gas in a subcall, or the function doesn't exist and there's no fallback. Check eth_getCode first.")
c("W", 0.91, "p", "advisory: malicious npm package", "Advisory: a malicious version of a popular JS wallet/connect library was published to npm and replaced recipient addresses in transactions built by dApps. Pin exact dependency versions with lockfiles, verify integrity hashes, and review diffs of wallet-related packages before upgrading.")
c("S", 0.77, "c", "keeper config yaml", '''# liquidator.yaml
chains: [ethereum, arbitrum, base]
hf_alert: 1.05
min_profit_usd: 25
max_gas_gwei: 60
private_submission: true
simulate: true
fail_closed_on_oracle_stale: true''')
c("I", 0.84, "s", "Seaport", "Seaport 1.5 on mainnet: %s. Orders are signed off-chain; considerations list what the offerer must receive. A signature with an empty or tiny consideration is effectively giving the NFTs away." % A["SEAPORT_15"])
c("C", 0.83, "c", "signature malleability", "ECDSA signatures are malleable: (r, s) and (r, n - s) both verify. Use OpenZeppelin ECDSA.recover, which rejects high-s values, and never use a signature as a unique id (use a nonce or the message hash).")
c("W", 0.88, "x", "upgradeable init", "Uninitialized implementation contracts behind UUPS proxies can be initialized by anyone; if the implementation has an upgradeToAndCall reachable after init, an attacker could selfdestruct it (pre-Dencun) or take it over. Call _disableInitializers() in the implementation's constructor.")
c("I", 0.86, "p", "MKR/AAVE/UNI/LINK/CRV addresses", "Governance token addresses (mainnet): UNI %s, AAVE %s, MKR %s, LINK %s, CRV %s." % (A["UNI"], A["AAVE"], A["MKR"], A["LINK"], A["CRV"]))
c("H", 0.7, "s", "review rule of thumb", "Review rule of thumb: any function that takes an arbitrary target and calldata (multicall, execute, swap with generic call) must never be callable with tokens the caller doesn't own; check that it can't call token.transferFrom(victim, ...) using the contract's allowances.")
ENTRIES = E
