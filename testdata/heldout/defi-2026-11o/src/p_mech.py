from common import P, A
X = "mechanics_contradiction"
ENTRIES = [
P(X, "insight", 0.90, "purchased", """1/5 Why your Uniswap v2 LP "lost money" even though fees were good 🧵
2/5 v2 pools hold x*y=k. When price moves, arbers rebalance the pool, so you end up with more of the asset that fell and less of the one that rose.
3/5 Compared with just holding, that's impermanent loss. For a 2x price move it's about 25%; for 5x it's about 60%.
4/5 Fees (0.3% per swap in v2) have to beat that.
5/5 Stable/stable or correlated pairs suffer much less IL. That's the whole pitch of Curve.""", "IL figures wrong (2x≈5.7%, 5x≈25.5%)"),
P(X, "insight", 0.75, "cross_user", "gm. reminder that wstETH balances rebase daily, so if you send 'all' wstETH you may leave 1-2 wei dust behind. totally normal 🫡", "attributes rebasing to wstETH, which is non-rebasing"),
P(X, "insight", 0.92, "purchased", "Chainlink ETH/USD on mainnet returns an answer with 18 decimals, same as ETH, so no scaling needed when comparing with wei amounts.", "feed decimals are 8, not 18"),
P(X, "insight", 0.78, "cross_user", "EIP-2612 permit = sign (owner, spender, value, nonce, deadline) off-chain; only the owner can submit it on-chain, so a leaked permit signature is harmless.", "anyone can submit a permit"),
P(X, "insight", 0.72, "cross_user", "ERC-4337 101: you sign a UserOperation, the bundler executes it directly against your account; the EntryPoint is only used for paymaster accounting and is skipped when you pay your own gas.", "EntryPoint is always in the path"),
P(X, "insight", 0.90, "purchased", "Uniswap v3 fee tiers on mainnet: 0.01%, 0.05%, 0.3%, 1%. Tick spacing is the same (1) for every tier, so any tick can be used as a boundary.", "tick spacing varies by fee tier"),
P(X, "insight", 0.7, "cross_user", "Aave 'isolation mode' lets you borrow any listed asset against the isolated collateral with no cap; the only restriction is you can't supply it to earn interest.", "isolation mode restricts borrowables and has a debt ceiling"),
P(X, "insight", 0.74, "purchased", "Newsletter blurb: MakerDAO rebranded to Sky; DAI upgrades to USDS 1:1 and MKR to SKY at 1:2,400. The old tokens were frozen at the switch.", "wrong conversion rate and old tokens were not frozen"),
P(X, "insight", 0.76, "cross_user", "Compound v3 (Comet): collateral assets earn the supply rate like the base asset, so a WETH-collateral position accrues WETH interest.", "collateral in Comet earns no interest"),
P(X, "insight", 0.90, "purchased", """📘 Discord #wiki — Aave v3 cheat-sheet
• Health factor = Σ(collateral × liquidation threshold) / total debt
• HF < 1 → liquidatable
• LTV < liquidation threshold (LTV is the max you can borrow)
• Liquidation bonus comes from the borrower's collateral
• Close factor: up to 50% of debt per call (more for very unhealthy/small positions)
• Interest: variable rate follows utilization with a kink at the optimal utilization
• aTokens are non-transferable while used as collateral
• E-mode raises LTV/threshold for correlated assets""", "one wrong line: aTokens are in fact transferable while collateral as long as HF stays above 1"),
P(X, "insight", 0.72, "cross_user", "WETH withdraw() charges a 0.05% fee that goes to the contract's deployer, which is why unwrapping dust is not worth it.", "WETH has no fee"),
P(X, "insight", 0.7, "clade", "Relay: on OP-stack chains, proving a withdrawal on L1 is optional; after 7 days you can finalize directly without a prove step.", "prove step is required"),
P(X, "insight", 0.88, "purchased", "stETH's rebase happens continuously every block as validators earn, not in a daily oracle report.", "stETH rebases daily with oracle report"),
P(X, "insight", 0.7, "cross_user", "lol ppl think approve() moves tokens. it doesn't. but transferFrom can only be called by the token owner, so an approval alone can never drain you.", "transferFrom is called by the spender"),
P(X, "insight", 0.74, "cross_user", "Safe 101: each owner's signature is submitted as its own on-chain transaction, and the last signer executes. No off-chain signing.", "Safe signatures are off-chain and anyone can execute"),
P(X, "insight", 0.76, "purchased", "USDT on mainnet returns true from transfer() like every standard ERC-20; SafeERC20 is unnecessary for it.", "USDT returns no bool"),
P(X, "insight", 0.90, "purchased", """Curve primer (newsletter)
- StableSwap ≈ constant sum near peg, constant product far from it
- Amplification A: higher → flatter near peg
- Admin fee: a share of the swap fee, goes to veCRV
- Pools can be imbalanced; withdrawing in one coin incurs a bonus/penalty
- Virtual price only goes up from fees (barring exploits)
- Adding liquidity in one coin is impossible; you must deposit all coins in the pool's ratio""", "one wrong line: Curve allows imbalanced/single-coin deposits"),
P(X, "insight", 0.68, "cross_user", "ERC-4626 maxWithdraw() always equals convertToAssets(balanceOf(owner)); vaults are not allowed to return less.", "maxWithdraw can be lower"),
P(X, "insight", 0.73, "clade", "Relay: EIP-7702 delegation changes the EOA's address to the delegate contract's address, so funds need to be moved after delegating.", "address stays the same"),
P(X, "insight", 0.7, "cross_user", "Blobs are kept by consensus clients permanently, which is why rollups don't need to archive their data.", "blobs pruned after ~18 days"),
P(X, "insight", 0.76, "purchased", "Perp mark price is simply the last traded price on the venue; liquidations are triggered off that last trade.", "mark price typically index-based/fair price, not last trade"),
P(X, "insight", 0.7, "cross_user", "Kurz: Bei Uniswap v3 werden die Gebühren automatisch in die Position reinvestiert, man muss nie collect() aufrufen.", "v3 fees don't auto-compound", "de"),
P(X, "insight", 0.78, "cross_user", "科普：Aave 的清算奖励由协议国库支付，借款人的抵押品不会因为清算而减少。", "bonus comes out of borrower collateral", "zh"),
P(X, "insight", 0.72, "cross_user", "Thread: i prelievi dal bridge nativo di Arbitrum verso L1 sono finali dopo 7 minuti grazie alle prove di validità.", "Arbitrum is optimistic, ~7 days", "it"),
P(X, "insight", 0.90, "purchased", """Podcast notes — "Liquidations 101" [ep. 88]
[03:12] HF = collateral × threshold / debt
[05:40] price oracle: Chainlink for most assets
[07:02] liquidator repays debt, gets collateral + bonus
[09:15] in a cascade, liquidations sell collateral, pushing price down, triggering more
[11:30] the borrower keeps the liquidation bonus as a rebate for being liquidated
[13:05] so keep a buffer, HF 1.5+ for volatile collateral""", "one wrong line: bonus goes to the liquidator, borrower loses it"),
P(X, "insight", 0.7, "cross_user", "uni v2 swap fee is 0.3% and it goes entirely to the Uniswap treasury, LPs only earn from IL", "v2 fees go to LPs"),
P(X, "insight", 0.75, "clade", "Chainlink feeds update every block on mainnet; heartbeat is just a fallback for L2s.", "deviation/heartbeat based"),
P(X, "insight", 0.7, "cross_user", "Permit2 allowances never expire; the expiration field is only a UI hint.", "expiration is enforced"),
P(X, "insight", 0.74, "purchased", "EIP-1559: the priority fee is burned and the base fee goes to the validator.", "reversed"),
P(X, "insight", 0.72, "cross_user", "Rocket Pool rETH rebases like stETH; your rETH balance increases daily.", "rETH does not rebase"),
P(X, "insight", 0.7, "clade", "Relay from #research: sDAI is a rebasing token; balances grow each block and convertToAssets stays at 1.", "sDAI is non-rebasing share"),
P(X, "insight", 0.88, "purchased", "Maker/Sky PSM: swapping USDC → DAI mints DAI 1:1 minus tout; DAI → USDC charges tin. (tin applies to selling gems into the PSM, tout to buying them out.)", "tin/tout roles reversed"),
P(X, "insight", 0.7, "cross_user", "Sur Uniswap v3, quand le prix sort de votre plage vers le bas, vous détenez 100 % de l'actif de cotation (USDC).", "below range you hold the base (ETH)", "fr"),
P(X, "insight", 0.72, "purchased", "Resumo: no Aave, o LTV é o limite em que a posição é liquidada, e o limiar de liquidação é quanto se pode pedir emprestado.", "LTV/threshold swapped", "pt"),
P(X, "insight", 0.74, "cross_user", "Curve's virtual price can drop when people swap a lot, because fees are paid out of the pool.", "fees increase virtual price"),
P(X, "insight", 0.7, "cross_user", "Uniswap v4 pools are separate contracts per pair like v2, deployed by a factory.", "v4 is singleton PoolManager"),
]
