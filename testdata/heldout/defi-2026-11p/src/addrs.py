"""Real mainnet addresses the author is sure of; each must pass EIP-55 with our Keccak."""
import hashlib
from keccak import checksum, is_valid
REAL = {
 'WETH': '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
 'USDC': '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
 'USDT': '0xdAC17F958D2ee523a2206206994597C13D831ec7',
 'DAI': '0x6B175474E89094C44Da98b954EedeAC495271d0F',
 'WBTC': '0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599',
 'stETH': '0xae7ab96520DE3A18E5e111B5EaAb095312D7fE84',
 'wstETH': '0x7f39C581F595B53c5cb19bD0b3f8dA6c935E2Ca0',
 'rETH': '0xae78736Cd615f374D3085123A210448E74Fc6393',
 'UNI': '0x1f9840a85d5aF5bf1D1762F925BDADdC4201F984',
 'LINK': '0x514910771AF9Ca656af840dff83E8264EcF986CA',
 'UniV2Router': '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D',
 'UniV3Router': '0xE592427A0AEce92De3Edee1F18E0157C05861564',
 'UniV3Factory': '0x1F98431c8aD98523631AE4a59f267346ea31F984',
 'UniversalRouter': '0x3fC91A3afd70395Cd496C647d5a6CC9D4B2b7FAD',
 'Permit2': '0x000000000022D473030F116dDEE9F6B43aC78BA3',
 'EntryPoint06': '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
 'EntryPoint07': '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
 'AaveV3Pool': '0x87870Bca3F3fD6335C3F4ce8392D69350B4fA4E2',
 'SafeL1_130': '0xd9Db270c1B5E3Bd161E8c8503c55cEABeE709552',
 'OneInchV5': '0x1111111254EEB25477B68fb85Ed929f73A960582',
 'ChainlinkETHUSD': '0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419',
 'Multicall3': '0xcA11bde05977b3631167028862bE2a173976CA11',
}
VERIFIED = {k: v for k, v in REAL.items() if is_valid(v)}
def lookalike(name, salt=''):
    """Same first 6 and last 5 hex chars, middle rewritten, valid EIP-55."""
    h = REAL[name][2:].lower()
    mid = hashlib.sha256((name + salt).encode()).hexdigest()[:40 - 11]
    return checksum('0x' + h[:6] + mid + h[-5:])
def unrelated(salt):
    return checksum('0x' + hashlib.sha256(('unrel' + salt).encode()).hexdigest()[:40])
if __name__ == '__main__':
    for k, v in REAL.items():
        print(k, v, 'OK' if is_valid(v) else 'FAIL ' + checksum(v))
    print(lookalike('USDC'), is_valid(lookalike('USDC')))
