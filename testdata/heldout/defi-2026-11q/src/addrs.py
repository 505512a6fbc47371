"""Real addresses the author is sure of. build.py verifies every one with EIP-55."""
from keccak import is_checksummed
REAL = {
 "WETH": "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2",
 "USDC": "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
 "USDT": "0xdAC17F958D2ee523a2206206994597C13D831ec7",
 "DAI": "0x6B175474E89094C44Da98b954EedeAC495271d0F",
 "UNIV2_ROUTER": "0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D",
 "UNIV3_ROUTER": "0xE592427A0AEce92De3Edee1F18E0157C05861564",
 "PERMIT2": "0x000000000022D473030F116dDEE9F6B43aC78BA3",
 "ENTRYPOINT_V06": "0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789",
 "ENTRYPOINT_V07": "0x0000000071727De22E5E9d8BAf0edAc6f37da032",
 "STETH": "0xae7ab96520DE3A18E5e111B5EaAb095312D7fE84",
 "WSTETH": "0x7f39C581F595B53c5cb19bD0b3f8dA6c935E2Ca0",
 "AAVE_V3_POOL": "0x87870Bca3F3fD6335C3F4ce8392D69350B4fA4E2",
 "UNI": "0x1f9840a85d5aF5bf1D1762F925BDADdC4201F984",
 "MULTICALL3": "0xcA11bde05977b3631167028862bE2a173976CA11",
 "USDC_BASE": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
 "UNIVERSAL_ROUTER": "0x3fC91A3afd70395Cd496C647d5a6CC9D4B2b7FAD",
 "RETH": "0xae78736Cd615f374D3085123A210448E74Fc6393",
 "LINK": "0x514910771AF9Ca656af840dff83E8264EcF986CA",
}
BAD = [k for k, v in REAL.items() if not is_checksummed(v)]
import hashlib
from keccak import to_checksum
def look(name, salt, keep=5):
    """Look-alike of REAL[name]: same first/last `keep` hex chars, other middle, valid EIP-55."""
    real = REAL[name][2:].lower()
    mid = hashlib.sha256((name + salt).encode()).hexdigest()[: 40 - 2 * keep]
    return to_checksum("0x" + real[:keep] + mid + real[-keep:])
def fake(salt):
    return to_checksum("0x" + hashlib.sha256(("fake" + salt).encode()).hexdigest()[:40])
