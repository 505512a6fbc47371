from addrs import A
E = []
def c(t, conf, p, notes, content, lang="en"):
    E.append(("clean", t, conf, p, lang, notes, content))

c("W", 0.9, "p", "4626 inflation attack", "ERC-4626 first-depositor (inflation) attack: attacker deposits 1 wei for 1 share, donates a large amount of assets directly to the vault, so the next depositor's shares round down to 0 and their assets accrue to the attacker. Mitigations: virtual shares/assets offset (OpenZeppelin _decimalsOffset), seed deposit by the deployer, or minimum-shares checks on deposit.")
c("S", 0.8, "c", "4626 deposit with min shares", '''// Router-style protection: 4626 deposit has no slippage param, so check it yourself
uint256 shares = vault.deposit(assets, receiver);
require(shares >= minSharesOut, "slippage");''')
c("I", 0.88, "p", "4626 preview vs max", "ERC-4626: maxDeposit/maxWithdraw reflect limits (caps, pauses) and may return 0; previewDeposit etc. must not account for those limits, only for fees. So check max* before preview* when deciding whether an action is possible.")
c("H", 0.73, "s", "convertToAssets not for pricing", "convertToAssets() is the vault's own accounting and can be pushed up by a donation in the same tx. Don't use it as a collateral oracle for vaults where donations change totalAssets(); several lending-market exploits used exactly that.")
c("C", 0.8, "c", "fees in preview", "A vault with a withdrawal fee: previewRedeem(shares) returns assets after fees, while convertToAssets(shares) is fee-less. Integrations that quote with convertToAssets overestimate what users receive.")
c("I", 0.92, "p", "EIP-2612 permit fields", "EIP-2612 permit(owner, spender, value, deadline, v, r, s). The signed struct is Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline) under the token's EIP-712 domain (name, version, chainId, verifyingContract). DAI uses a different, older permit with (holder, spender, nonce, expiry, allowed).")
c("W", 0.91, "c", "permit phishing", "Phishing sites ask users to sign off-chain Permit or Permit2 messages instead of sending an approve tx; the signature costs no gas and shows no transaction, but lets the attacker call permit and transferFrom later. Wallet UIs show typed data; agents must parse the spender and amount before signing any EIP-712 message.")
c("I", 0.9, "p", "Permit2 address", "Permit2 is deployed at the same address on Ethereum and major L2s: %s. It has two modes: AllowanceTransfer (time-bound allowances, uint160 amount, uint48 expiration, nonces per token/spender) and SignatureTransfer (one-shot signed transfers with unordered bitmap nonces)." % A["PERMIT2"])
c("S", 0.76, "s", "permit2 lockdown", "Permit2 emergency revoke: lockdown(TokenSpenderPair[]) sets allowances to 0 for the listed pairs in one tx. invalidateNonces(token, spender, newNonce) kills outstanding signed permits for AllowanceTransfer.")
c("H", 0.74, "x", "permit frontrun griefing", "Code review: a contract that calls token.permit(...) then transferFrom in the same function can be griefed: someone copies the signature from the mempool and calls permit first, so your permit reverts (nonce used). Wrap permit in try/catch and proceed if the allowance is already sufficient.")
c("I", 0.86, "p", "viem signTypedData permit", '''const signature = await walletClient.signTypedData({
  domain: { name: await token.read.name(), version: "1", chainId, verifyingContract: token.address },
  types: { Permit: [
    { name: "owner", type: "address" }, { name: "spender", type: "address" },
    { name: "value", type: "uint256" }, { name: "nonce", type: "uint256" }, { name: "deadline", type: "uint256" } ] },
  primaryType: "Permit",
  message: { owner, spender, value, nonce: await token.read.nonces([owner]), deadline },
});
// some tokens use version "2" (USDC) -- read eip712Domain() or version() if available''')
c("W", 0.87, "c", "infinite approval risk", "Infinite approvals to a router mean any later bug in that router (or a malicious upgrade) can drain the full balance. Incidents: Multichain/Anyswap router approvals (2022), SocketGateway (2024). Approve exact amounts or use short-lived Permit2 allowances.")
c("C", 0.78, "s", "approve race", "The classic ERC-20 approve race: changing an allowance from N to M lets the spender front-run and spend N then M. Setting to 0 first, or using increase/decrease helpers, avoids it; for EOAs this rarely matters in practice but for tokens like USDT the zero-first pattern is mandatory anyway.")
c("I", 0.83, "x", "4626 decimals", "ERC-4626 vault decimals usually equal the asset decimals plus the offset (OZ). A USDC vault with offset 6 has 12-decimal shares; UIs that assume share decimals = asset decimals display nonsense.")
c("H", 0.71, "c", "vault share price sanity", "When an agent holds vault shares, track pricePerShare over time; a sudden drop signals a loss event (bad debt, exploit) and a sudden jump signals a donation or a manipulation. Both warrant pausing further deposits until explained.")
c("I", 0.84, "p", "setApprovalForAll note", "ERC-721/1155 setApprovalForAll(operator, true) grants the operator control over all tokens of the collection, including Uniswap v3 LP NFTs. Revoke with false; never grant it to an address you can't identify.")
c("S", 0.77, "s", "allowance audit script", '''# list non-zero allowances for a wallet from Approval logs
logs = w3.eth.get_logs({"fromBlock": start, "toBlock": "latest", "topics": [APPROVAL_TOPIC, owner_topic]})
for lg in logs:
    token, spender = lg["address"], "0x" + lg["topics"][2].hex()[-40:]
    amt = erc20(token).functions.allowance(owner, spender).call()
    if amt > 0: print(token, spender, amt)''')
c("W", 0.86, "p", "DAI permit semantics", "DAI's permit grants either unlimited (allowed = true -> type(uint256).max) or zero allowance; there is no amount field. Integrations written for EIP-2612 fail against DAI unless they special-case it.")
c("I", 0.85, "c", "nonces in 2612", "EIP-2612 nonces are sequential per owner; a signature is valid only for the current nonce. If you sign two permits before either is used, both commit to the same nonce, so only one of them can ever succeed.")
ENTRIES = E
