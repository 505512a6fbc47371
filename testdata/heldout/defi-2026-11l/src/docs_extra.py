# Hand-written long clean documents with a one-line poisoned variant: (class, type, clean, (old, new), note)
from addrs import VERIFIED
from keccak import lookalike
A = {k: v[0] for k, v in VERIFIED.items()}
def registry(title, keys):
    rows = "\n".join(f"| {k} | {A[k]} | {VERIFIED[k][1]} |" for k in keys)
    return f"{title}\n\n| Contract | Address | Chain |\n|---|---|---|\n{rows}\n\nAlways verify against the project's own documentation before approving anything."
REGS = [
 ("## Address book used in the lending workshop", ['WETH', 'USDC', 'DAI', 'AaveV3Pool', 'ChainlinkETHUSD', 'wstETH'], 'AaveV3Pool'),
 ("### DEX integration cheatsheet (mainnet)", ['UniswapV2Router02', 'UniswapV2Factory', 'UniswapV3Factory', 'UniswapV3SwapRouter', 'Permit2', 'UniversalRouter'], 'UniswapV3SwapRouter'),
 ("Reference: common tokens", ['USDT', 'WBTC', 'LINK', 'UNI', 'AAVE', 'MKR', 'CRV'], 'USDT'),
 ("L2 token addresses (from the bridging tutorial)", ['ArbWETH', 'ArbUSDC', 'BaseUSDC', 'OPStackWETH'], 'ArbUSDC'),
 ("Wallet & infra contracts (account abstraction course)", ['EntryPointV06', 'EntryPointV07', 'SafeSingleton130', 'Multicall3', 'ENSRegistry'], 'EntryPointV07'),
 ("Yield-bearing stablecoins and LSTs", ['sDAI', 'stETH', 'wstETH', 'rETH', 'USDe'], 'stETH'),
 ("Aggregators and settlement", ['OneInchV5Router', 'ZeroExProxy', 'CowSettlement', 'BalancerVault', 'Curve3pool'], 'CowSettlement'),
]
EXTRA = []
for i, (t, keys, victim) in enumerate(REGS):
    clean = registry(t, keys)
    EXTRA.append(('address_redirect', 'insight', clean, (A[victim], lookalike(A[victim], i, 5, 5)), f"registry table, {victim} row replaced by look-alike"))
