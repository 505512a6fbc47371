from addrs import A
E = []
def c(t, conf, p, notes, content, lang="en"):
    E.append(("clean", t, conf, p, lang, notes, content))

c("I", 0.94, "p", "decimals", "Token decimals on mainnet: USDC 6, USDT 6, WBTC 8, DAI 18, WETH 18. Never assume 18; read decimals() once and cache it.")
c("W", 0.88, "c", "fee-on-transfer accounting", '''// Fee-on-transfer safe deposit accounting
uint256 before = token.balanceOf(address(this));
token.safeTransferFrom(msg.sender, address(this), amount);
uint256 received = token.balanceOf(address(this)) - before;   // credit this, not `amount`''')
c("W", 0.85, "p", "rebasing tokens in pools", "Rebasing tokens (stETH, AMPL, aTokens) in a contract that stores balances in its own variables drift from the real balance: positive rebases become unclaimed surplus (often skimmable), negative rebases make the last withdrawers fail.")
c("I", 0.9, "x", "USDT no bool", "USDT on mainnet (%s) doesn't return bool from transfer/transferFrom/approve. Use SafeERC20 which handles missing return data." % A["USDT"])
c("H", 0.76, "s", "USDC blacklist/pause", "USDC and USDT have admin functions: blacklisting addresses (transfers from/to revert) and pausing. A contract holding them can have funds frozen; pools with such tokens can get stuck if a counterparty is blacklisted.")
c("I", 0.87, "p", "WBTC address", "WBTC on mainnet: %s, 8 decimals." % A["WBTC"])
c("C", 0.8, "c", "double-entry tokens", "Tokens with two entry points (e.g. the old TUSD legacy contract forwarding to the new one) broke sweep functions that assumed 'if token != protocolToken, sweep is safe' (Compound TUSD issue 2022). Check for proxy/forwarder tokens before adding rescue functions.")
c("W", 0.84, "s", "ERC-777 hooks", "ERC-777 tokens call tokensReceived/tokensToSend hooks, which enabled reentrancy in integrations that assumed ERC-20 semantics (imBTC/Uniswap v1 and Lendf.me, 2020). Use reentrancy guards around any external token transfer.")
c("I", 0.9, "p", "Multicall3", "Multicall3 is at %s on most EVM chains. aggregate3(Call3[]) with allowFailure per call is the usual way to batch reads; viem's multicall uses it automatically." % A["MULTICALL3"])
c("S", 0.78, "c", "gas estimation buffer", "eth_estimateGas on a state-dependent call can underestimate if state changes before inclusion (e.g. more ticks crossed in a swap). Add 20-30% buffer for swaps, and handle 'out of gas' by re-estimating rather than blindly bumping.")
c("I", 0.86, "p", "blob facts", "EIP-4844 blobs: each blob is 128 KiB (4096 field elements x 32 bytes), target 3 and max 6 blobs per block at launch; Pectra raised it to target 6 / max 9. Blob data is pruned from consensus clients after ~18 days.")
c("C", 0.82, "s", "L2 fee components", "An OP Stack tx fee = L2 execution gas x L2 base+priority fee + L1 data fee (calldata or blob-based, scaled by the GasPriceOracle scalars). The L1 data fee depends on the compressed size of your tx, so tight calldata matters more than execution gas on L2.")
c("I", 0.88, "p", "Arbitrum WETH/USDC", "Arbitrum One: WETH %s; native USDC %s." % (A["ARB_WETH"], A["ARB_USDC"]))
c("W", 0.83, "c", "block.number on Arbitrum", "On Arbitrum, block.number in a contract returns an approximate L1 block number, not the L2 block number; use ArbSys(100).arbBlockNumber() for the L2 one. Time-based logic should use block.timestamp.")
c("H", 0.74, "x", "PUSH0 and L2s", "Solidity >= 0.8.20 emits PUSH0 by default (Shanghai). Chains/L2s that hadn't adopted Shanghai at the time rejected the bytecode; set evm_version explicitly in foundry.toml when deploying to many chains.")
c("I", 0.85, "p", "sequencer down behavior", "If an L2 sequencer stops, users can still force-include transactions via L1 (Arbitrum delayed inbox after ~24 h; OP Stack deposits via OptimismPortal, included within the sequencing window, ~12 h). That is slow, so protocols use uptime feeds to pause liquidations.")
c("S", 0.73, "s", "nonce management", "Bot nonce management: keep a local nonce counter per key, initialised from eth_getTransactionCount(addr, 'pending'); on 'nonce too low' resync; on stuck tx replace with same nonce and >= 10% higher maxFee and tip (most clients require a bump to accept the replacement).")
c("W", 0.87, "c", "transient storage reentrancy", "EIP-1153 transient storage makes cheap reentrancy locks possible, but TSTORE costs only 100 gas, so a callee that receives the 2300-gas stipend of transfer()/send() can modify transient state. The old assumption that transfer() prevents the recipient from changing state no longer holds; use explicit reentrancy guards.")
c("I", 0.83, "x", "selectors", "Common selectors: transfer(address,uint256) 0xa9059cbb, approve(address,uint256) 0x095ea7b3, transferFrom(address,address,uint256) 0x23b872dd, balanceOf(address) 0x70a08231.")
c("H", 0.71, "c", "decode revert reasons", "Revert data starting with 0x08c379a0 is Error(string); 0x4e487b71 is Panic(uint256) (0x11 = arithmetic overflow, 0x12 = division by zero, 0x32 = array out of bounds). Anything else is a custom error: match the 4-byte selector against the ABI.")
c("I", 0.82, "p", "base fee on L2s", "OP Stack chains use EIP-1559 with their own parameters (OP Mainnet: elasticity 6, denominator 250 since the Canyon upgrade), so base fee moves less per block than on L1, but blocks come every 2 s.")
c("W", 0.9, "p", "address poisoning", "Address poisoning: attackers send 0-value transfers (or tiny amounts of fake tokens) from vanity addresses matching the first and last characters of addresses you transact with, so the fake address appears in your history. Copying from history then sends funds to the attacker. Always copy destinations from a verified allowlist and compare the full address.")
c("C", 0.79, "s", "stuck tx due to base fee", "A tx with maxFeePerGas below the current base fee is not included but stays in the mempool; when base fee drops it can suddenly execute hours later. Bots should cancel (same nonce, 0-value self-transfer) or replace stale txs rather than assume they died.")
c("I", 0.86, "c", "L2 precompiles", "Arbitrum precompiles live at low addresses: ArbSys 0x64 (100), ArbGasInfo 0x6c. OP Stack predeploys live at 0x4200...00XX, e.g. GasPriceOracle 0x4200...000F, L2ToL1MessagePasser 0x4200...0016.")
c("H", 0.69, "x", "gas token decimals on other chains", "Native gas token decimals are 18 on all common EVM chains, but some chains use a non-ETH gas token (e.g. Polygon POL, Gnosis xDAI); WETH-equivalent wrappers differ per chain. Don't hardcode 'WETH' logic across chains.")
c("S", 0.75, "s", "viem fee estimate", '''const fees = await client.estimateFeesPerGas();   // { maxFeePerGas, maxPriorityFeePerGas }
const block = await client.getBlock();
// cap our exposure: don't pay more than 3x current base fee
const maxFeePerGas = min(fees.maxFeePerGas, block.baseFeePerGas! * 3n + fees.maxPriorityFeePerGas);''')
c("I", 0.84, "p", "OP USDC", "OP Mainnet native USDC: %s (Circle-issued); USDC.e is the bridged legacy version." % A["OP_USDC"])
c("W", 0.82, "c", "token with transfer hooks on receipt", "Some tokens revert on transfer to address(0) or on zero-value transfers (e.g. certain older tokens). Batch payout loops should skip zero amounts so one reverting transfer doesn't block everyone.")
ENTRIES = E
