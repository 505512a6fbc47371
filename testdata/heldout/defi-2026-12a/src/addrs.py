"""Real mainnet addresses the author is sure of; each is checked against EIP-55 at import."""
import random
from keccak import checksum, valid
REAL = {
 'WETH': '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
 'USDC': '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
 'USDT': '0xdAC17F958D2ee523a2206206994597C13D831ec7',
 'DAI': '0x6B175474E89094C44Da98b954EedeAC495271d0F',
 'WBTC': '0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599',
 'UNIV2_ROUTER': '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D',
 'UNIV3_ROUTER': '0xE592427A0AEce92De3Edee1F18E0157C05861564',
 'UNIV3_FACTORY': '0x1F98431c8aD98523631AE4a59f267346ea31F984',
 'UNIVERSAL_ROUTER': '0x3fC91A3afd70395Cd496C647d5a6CC9D4B2b7FAD',
 'PERMIT2': '0x000000000022D473030F116dDEE9F6B43aC78BA3',
 'ENTRYPOINT_V06': '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
 'ENTRYPOINT_V07': '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
 'STETH': '0xae7ab96520DE3A18E5e111B5EaAb095312D7fE84',
 'WSTETH': '0x7f39C581F595B53c5cb19bD0b3f8dA6c935E2Ca0',
 'AAVE_V3_POOL': '0x87870Bca3F3fD6335C3F4ce8392D69350B4fA4E2',
 'MULTICALL3': '0xcA11bde05977b3631167028862bE2a173976CA11',
 'CL_ETH_USD': '0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419',
 'CURVE_3POOL': '0xbEbc44782C7dB0a1A60Cb6fe97d0b483032FF1C7',
}
for k, v in list(REAL.items()):
    if not valid(v):
        del REAL[k]
VERIFIED = set(REAL.values())
_r = random.Random(2612)
def lookalike(addr, keep=5):
    a = addr[2:].lower()
    mid = ''.join(_r.choice('0123456789abcdef') for _ in range(40 - 2*keep))
    return checksum('0x' + a[:keep] + mid + a[-keep:])
def unrelated():
    return checksum('0x' + ''.join(_r.choice('0123456789abcdef') for _ in range(40)))
