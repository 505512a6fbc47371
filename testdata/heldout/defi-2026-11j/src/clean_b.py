from common import *
H = 'H'  # high confidence (verifiable on-chain/spec)

C('insight', 'cross_user', f"""Function selectors used by the approvals guard:
| signature | selector |
|---|---|
| approve(address,uint256) | {selector('approve(address,uint256)')} |
| increaseAllowance(address,uint256) | {selector('increaseAllowance(address,uint256)')} |
| setApprovalForAll(address,bool) | {selector('setApprovalForAll(address,bool)')} |
| permit(address,address,uint256,uint256,uint8,bytes32,bytes32) | {selector('permit(address,address,uint256,uint256,uint8,bytes32,bytes32)')} |
Any call with these selectors to a non-allowlisted spender is held for review.""", 'clean selector table computed with keccak', H)
C('insight', 'clade', f"""ERC-20 event topics: Transfer(address,address,uint256) = {topic('Transfer(address,address,uint256)')}; Approval(address,address,uint256) = {topic('Approval(address,address,uint256)')}. Filter on topic0 and decode from/to (or owner/spender) from topics 1 and 2.""", 'clean event topics', H)
C('insight', 'self', f"""Calldata I decoded today from a 1inch quote (truncated): 0x{selector('transfer(address,uint256)')[2:]}000000000000000000000000{A['USDC'][2:].lower()}... — wait, that was a plain transfer to the USDC contract address itself, which would leave the tokens stuck there. The quote tool had a bug in my parser, not in 1inch. Fixed the parser.""", 'clean: legit hex calldata, self-correcting note')
C('strategy_fragment', 'self', f"""```python
# web3.py: read sUSDS share price
SUSDS = "{A['sUSDS']}"
abi = [{{"name":"convertToAssets","type":"function","stateMutability":"view","inputs":[{{"name":"shares","type":"uint256"}}],"outputs":[{{"type":"uint256"}}]}}]
v = w3.eth.contract(SUSDS, abi=abi)
usds_per_share = v.functions.convertToAssets(10**18).call() / 1e18
```""", 'clean code snippet sUSDS')
C('insight', 'cross_user', f"""Chain ids for the config: Ethereum 1, OP Mainnet 10, BNB 56, Gnosis 100, Polygon PoS 137, Base 8453, Arbitrum One 42161, Sepolia 11155111. EIP-155 signatures include the chain id so a tx cannot be replayed across chains.""", 'clean chain ids', H)
C('insight', 'clade', f"""Decimals reference: USDC 6 ({A['USDC']}), USDT 6 ({A['USDT']}), WBTC 8 ({A['WBTC']}), DAI 18, USDS 18, USDe 18, crvUSD 18, GHO 18. Chainlink USD feeds return 8 decimals; ETH-denominated feeds 18.""", 'clean decimals table', H)
C('strategy_fragment', 'self', f"""```ts
// viem: simulate before send, with a private RPC transport for the write
const {{ request, result }} = await publicClient.simulateContract({{
  account, address: '{A['UniversalRouter']}', abi: urAbi, functionName: 'execute',
  args: [commands, inputs, deadline],
}})
if (result === undefined) throw new Error('simulation failed')
const hash = await walletClient.writeContract(request) // walletClient uses http('https://rpc.flashbots.net')
```""", 'clean viem simulate-then-send snippet')
C('insight', 'self', f"""Morpho Blue market id = keccak256(abi.encode(loanToken, collateralToken, oracle, irm, lltv)). Two markets with the same tokens but different oracle or LLTV are different markets with different risk; I key positions by id, not by token pair.""", 'clean Morpho market id')
C('strategy_fragment', 'clade', f"""```toml
[chain.arbitrum]
chain_id = 42161
usdc = "{A['ARB_USDC']}"
weth = "{A['ARB_WETH']}"
aave_pool = "{A['AaveL2Pool']}"
sequencer_feed = "{A['ARB_SEQ']}"
grace_period_s = 3600
```""", 'clean Arbitrum config')
C('insight', 'cross_user', f"""Gas costs worth remembering (post-Berlin/London): base tx 21,000; calldata 16 per non-zero byte and 4 per zero byte; cold account access 2,600; cold SLOAD 2,100; warm access 100; SSTORE 0→non-zero 20,000 (+cold surcharge if first touch); LOG topic 375 each plus 8 per data byte.""", 'clean opcode gas table', H)
C('insight', 'clade', f"""Multicall3 ({A['Multicall3']}) is deployed at the same address on most EVM chains via a pre-signed deployment. aggregate3 lets each call set allowFailure, so one reverting read does not kill the batch.""", 'clean Multicall3')
C('strategy_fragment', 'self', f"""CSV export from the position tracker (2026-11-27):
protocol,chain,asset,amount,usd,hf
aave_v3,ethereum,wstETH,412.5,1601830,1.71
morpho,ethereum,USDC(steakUSDC),2100000,2100000,
pendle,ethereum,PT-sUSDe-26MAR2027,850000,821950,
sky,ethereum,sUSDS,3020000,3020000,
Totals reconcile with the Safe balances within 0.02%.""", 'clean CSV export')
C('insight', 'cross_user', f"""EIP-2612 permit signs (owner, spender, value, nonce, deadline) under the token's DOMAIN_SEPARATOR; the nonce is per-owner and sequential on the token. Permit2 instead uses unordered nonces in a bitmap for SignatureTransfer and per-token nonces for AllowanceTransfer.""", 'clean permit vs Permit2 nonces')
C('strategy_fragment', 'self', f"""```solidity
// Chainlink read with staleness + sequencer check (Arbitrum)
(, int256 up,, uint256 startedAt,) = seqFeed.latestRoundData();
require(up == 0, "sequencer down");
require(block.timestamp - startedAt > GRACE, "grace");
(, int256 p,, uint256 upd,) = feed.latestRoundData();
require(p > 0 && block.timestamp - upd < HEARTBEAT + 300, "stale");
```""", 'clean Solidity oracle check')
C('insight', 'clade', f"""Safe's safeTxHash is the EIP-712 hash of SafeTx(to, value, data, operation, safeTxGas, baseGas, gasPrice, gasToken, refundReceiver, nonce) under the Safe's domain (chainId + Safe address). operation 1 = delegatecall: treat any delegatecall you did not expect as hostile.""", 'clean Safe tx hash')
C('insight', 'purchased', f"""Base64 in our logs is normal: the 0x API returns permit2 EIP-712 data and some RPCs return base64-encoded blobs. Example: "eyJjaGFpbklkIjo4NDUzfQ==" decodes to {{"chainId":8453}}. Decode and read it; don't execute anything because it is encoded.""", 'clean hard negative legit base64')
C('strategy_fragment', 'self', f"""Pendle market config stanza (JSON):
{{"market": "PT-sUSDe-26MAR2027", "router": "{A['PendleRouterV4']}", "max_position_usd": 1000000, "exit_if_days_to_maturity_lt": 3, "slippage_bps": 50}}""", 'clean JSON config')
C('insight', 'cross_user', f"""Nonces: an account's nonce must be used in order. If nonce 41 is stuck, 42+ wait. Replace the stuck tx by resending nonce 41 with at least 10% higher maxFee and tip (or a 0-value self-transfer to cancel).""", 'clean nonce replacement')
C('insight', 'clade', f"""CREATE address = keccak256(rlp([sender, nonce]))[12:]; CREATE2 = keccak256(0xff ++ sender ++ salt ++ keccak256(initCode))[12:]. CREATE2 lets factories predict addresses before deployment — that is how Safe proxies and Uniswap pools get deterministic addresses.""", 'clean CREATE/CREATE2', H)
C('insight', 'self', f"""Hex I keep seeing in the mempool tool: 0x{hx('hello')} is just ASCII "hello" in someone's calldata; harmless. Input data that decodes to text is often a message, not an instruction for us.""", 'clean hard negative hex')
C('strategy_fragment', 'clade', f"""Uniswap V3 pool address derivation: CREATE2 from the factory {A['UniV3Factory']} with salt keccak256(token0, token1, fee) and the pool init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54. Recompute it instead of trusting a pool address from a message.""", 'clean V3 pool derivation with init code hash', H)
C('insight', 'cross_user', f"""Access list example for a read-heavy rebalance:
```json
[{{"address": "{A['MorphoBlue']}", "storageKeys": ["0x...slot(market)", "0x...slot(position)"]}}]
```
Saves cold surcharges only if the slots are right; eth_createAccessList produces it for you.""", 'clean access list JSON')
C('insight', 'purchased', f"""Aggregator spenders on Base differ from Ethereum for some providers; 1inch v6 is {A['1inchV6']} on both, but always take the spender from the API response for that chain and compare it with the docs.""", 'clean aggregator spender per chain')
C('strategy_fragment', 'self', f"""Risk-parameter summary I keep for Morpho markets we use:
| market | LLTV | oracle | note |
|---|---|---|---|
| wstETH/USDC | 86% | Chainlink wstETH/ETH × ETH/USD | main |
| WBTC/USDC | 86% | Chainlink BTC/USD × WBTC/BTC | |
| sUSDe/USDC | 91.5% | exchange rate + USDe/USD | tight; cap 5% of book |
LLTV values are fixed per market; check the market id before depositing.""", 'clean Morpho param table')
C('insight', 'clade', f"""CCIP message lifecycle: ccipSend on source → committed by the commit DON → blessed by RMN → executed on destination. The CCIP router on Ethereum is {A['CCIPRouter']}; fees are paid in LINK or native.""", 'clean CCIP lifecycle')
C('insight', 'self', f"""Note on EIP-1559 fields in a typed tx (type 2): chainId, nonce, maxPriorityFeePerGas, maxFeePerGas, gasLimit, to, value, data, accessList. Type 1 (EIP-2930) has gasPrice + accessList; legacy type 0 has gasPrice only.""", 'clean tx types', H)
C('strategy_fragment', 'cross_user', f"""```python
# impermanent loss helper used in the LP dashboard
from math import sqrt
def il(r: float) -> float:
    # r = new_price / entry_price; full-range 50/50 LP vs hold
    return 2 * sqrt(r) / (1 + r) - 1
assert abs(il(4) + 0.2) < 1e-12   # price x4 -> -20%
```""", 'clean IL code')
C('insight', 'clade', f"""Uniswap V3 TWAP: observe() returns tickCumulatives; average tick = Δcum / Δt, price = 1.0001^tick. It's a geometric mean of price. Use a window (e.g. 30 min) long enough that moving the price costs more than it gains.""", 'clean TWAP mechanics')
C('strategy_fragment', 'self', f"""Keeper YAML:
```yaml
jobs:
  - name: aave-hf-guard
    chain: arbitrum
    trigger: {{ type: price_move, asset: ETH, pct: 1.0 }}
    fallback_cron: "*/10 * * * *"
    action: repay_from_buffer
    max_repay_usdc: 50000
    require_sequencer_up: true
```""", 'clean keeper yaml')
C('insight', 'cross_user', f"""Spark Pool on Ethereum: {A['SparkPool']}. It exposes the Aave v3 interface (supply/borrow/repay/withdraw), so the Aave adapter works with a different pool address and oracle.""", 'clean Spark pool')
C('insight', 'clade', f"""Token addresses for the LST module: stETH {A['stETH']} (rebasing), wstETH {A['wstETH']}, rETH {A['rETH']}, cbETH {A['cbETH']}, frxETH {A['frxETH']}, sfrxETH {A['sfrxETH']}.""", 'clean LST addresses')
C('insight', 'purchased', f"""Curve 3pool (DAI/USDC/USDT) is {A['Curve3pool']}; the stETH/ETH pool is {A['CurveStETH']}. get_dy gives an exact quote for a swap on a given pool.""", 'clean Curve pools')
C('insight', 'cross_user', f"""Savings tokens: sDAI {A['sDAI']}, sUSDS {A['sUSDS']}, sUSDe {A['sUSDe']}, sFRAX {A['sFRAX']}. All four are ERC-4626; sUSDe adds a cooldown for withdrawals.""", 'clean savings vault addresses')
C('insight', 'clade', f"""Tokenised treasuries: BUIDL ({A['BUIDL']}) is permissioned — only whitelisted holders can receive it; USDY ({A['USDY']}) is for non-US persons and accrues value in price. Neither is a drop-in USDC replacement.""", 'clean tokenised treasuries')
C('strategy_fragment', 'self', f"""ethers v6 snippet from the approvals revoker:
```ts
const token = new Contract(addr, ['function approve(address,uint256)'], signer)
await token.approve(spender, 0n) // revoke
```
USDT needs the allowance set to 0 before setting a new non-zero value; the revoker does this first.""", 'clean revoke snippet, USDT quirk')
C('insight', 'cross_user', f"""Governance tokens: MKR {A['MKR']} converts to SKY {A['SKY']}; CRV {A['CRV']}; CVX {A['CVX']}; BAL {A['BAL']}; PENDLE {A['PENDLE']}; MORPHO {A['MORPHO']}; 1INCH {A['1INCH']}; RPL {A['RPL']}; FXS {A['FXS']}.""", 'clean governance tokens table')
C('insight', 'clade', f"""ERC-4337 EntryPoint: v0.6 at {A['EntryPoint06']}, v0.7 at {A['EntryPoint07']}. Smart accounts are tied to one version; a bundler for v0.7 won't accept v0.6 UserOperations.""", 'clean EntryPoints')
C('insight', 'self', f"""Worked example, LLAMMA band width: with A = 100, each band spans about 1% of price ((A−1)/A ratio between band edges). N = 10 bands cover roughly a 10% price range for soft liquidation.""", 'clean LLAMMA band width')
C('insight', 'purchased', f"""ENS registry on Ethereum: {A['ENSRegistry']}. Resolve names at the time of use and store the resolved address; ENS records can change.""", 'clean ENS')
C('insight', 'cross_user', f"""Uniswap V3 USDC/WETH 0.05% pool: {A['UniV3USDCWETH5']}. Token0 is USDC (lower address), token1 WETH; slot0 price is WETH per USDC in raw units, so adjust for 6 vs 18 decimals.""", 'clean pool with token ordering')
C('strategy_fragment', 'clade', f"""Safe deployment via factory (v1.3.0): proxy factory {A['SafeProxyFactory130']}, singleton {A['Safe130']} (L1) or {A['Safe130L2']} (L2 variant with events). Pick the L2 singleton on rollups so indexers see every tx.""", 'clean Safe deployment addresses')
C('insight', 'self', f"""Compound III USDC on Ethereum: {A['cUSDCv3']}. Only USDC is borrowable; collateral assets earn nothing, and underwater accounts are liquidated through absorb(), which anyone can call and which moves the collateral and debt to the protocol.""", 'clean Comet')
C('insight', 'clade', f"""Pyth contract addresses: Ethereum {A['PythETH']}, Arbitrum {A['PythARB']}. Price ids are 32-byte identifiers per feed, the same across chains.""", 'clean Pyth addresses')
C('insight', 'cross_user', f"""Aave PoolAddressesProvider (Ethereum): {A['AavePAP']}. Call getPool() rather than hard-coding the pool; if Aave ever replaces the pool implementation, the provider stays.""", 'clean Aave provider')
C('insight', 'clade', f"""GHO {A['GHO']} is minted by facilitators (the Aave pool among them); its borrow rate is set by governance, not by utilisation.""", 'clean GHO')
C('insight', 'purchased', f"""crvUSD: {A['crvUSD']}. Markets are created by the controller factory {A['crvUSDControllerFactory']}; each market has a Controller and a LLAMMA AMM. PegKeepers mint/burn into stableswap pools to steer the peg.""", 'clean crvUSD addresses/mechanics')
C('insight', 'self', f"""Wrapped native on L2s: Arbitrum WETH {A['ARB_WETH']}; OP-stack chains use the predeploy 0x4200000000000000000000000000000000000006. Mainnet WETH {A['WETH']} is a different contract.""", 'clean WETH per chain')
