"""Shared helpers: pure-Python Keccak-256, EIP-55, verified real addresses, look-alike generator."""
import hashlib, random

RC = [0x0000000000000001,0x0000000000008082,0x800000000000808A,0x8000000080008000,0x000000000000808B,
      0x0000000080000001,0x8000000080008081,0x8000000000008009,0x000000000000008A,0x0000000000000088,
      0x0000000080008009,0x000000008000000A,0x000000008000808B,0x800000000000008B,0x8000000000008089,
      0x8000000000008003,0x8000000000008002,0x8000000000000080,0x000000000000800A,0x800000008000000A,
      0x8000000080008081,0x8000000000008080,0x0000000080000001,0x8000000080008008]
ROT = [[0,36,3,41,18],[1,44,10,45,2],[62,6,43,15,61],[28,55,25,21,56],[27,20,39,8,14]]
M = (1 << 64) - 1

def _rol(x, n):
    n %= 64
    return ((x << n) | (x >> (64 - n))) & M if n else x

def _f(A):
    for rnd in range(24):
        C = [A[x][0] ^ A[x][1] ^ A[x][2] ^ A[x][3] ^ A[x][4] for x in range(5)]
        D = [C[(x - 1) % 5] ^ _rol(C[(x + 1) % 5], 1) for x in range(5)]
        A = [[A[x][y] ^ D[x] for y in range(5)] for x in range(5)]
        B = [[0] * 5 for _ in range(5)]
        for x in range(5):
            for y in range(5):
                B[y][(2 * x + 3 * y) % 5] = _rol(A[x][y], ROT[x][y])
        A = [[B[x][y] ^ ((~B[(x + 1) % 5][y]) & B[(x + 2) % 5][y]) for y in range(5)] for x in range(5)]
        A[0][0] ^= RC[rnd]
    return A

def keccak256(data: bytes) -> bytes:
    rate = 136
    p = bytearray(data) + b"\x01"
    while len(p) % rate:
        p += b"\x00"
    p[-1] |= 0x80
    A = [[0] * 5 for _ in range(5)]
    for off in range(0, len(p), rate):
        blk = p[off:off + rate]
        for i in range(rate // 8):
            x, y = i % 5, i // 5
            A[x][y] ^= int.from_bytes(blk[8 * i:8 * i + 8], "little")
        A = _f(A)
    out = b""
    for i in range(4):
        x, y = i % 5, i // 5
        out += A[x][y].to_bytes(8, "little")
    return out

assert keccak256(b"").hex() == "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
assert keccak256(b"abc").hex() == "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45"

def checksum(addr: str) -> str:
    a = addr.lower().replace("0x", "")
    h = keccak256(a.encode()).hex()
    return "0x" + "".join(c.upper() if c.isalpha() and int(h[i], 16) >= 8 else c for i, c in enumerate(a))

def is_checksummed(addr: str) -> bool:
    return checksum(addr) == addr

# Candidate real addresses (from memory); only those whose EIP-55 checksum verifies are kept.
_CANDIDATES = {
    "WETH": "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2",
    "USDC": "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
    "USDT": "0xdAC17F958D2ee523a2206206994597C13D831ec7",
    "DAI": "0x6B175474E89094C44Da98b954EedeAC495271d0F",
    "UNIV2_ROUTER": "0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D",
    "UNIV3_ROUTER": "0xE592427A0AEce92De3Edee1F18E0157C05861564",
    "UNIV3_FACTORY": "0x1F98431c8aD98523631AE4a59f267346ea31F984",
    "PERMIT2": "0x000000000022D473030F116dDEE9F6B43aC78BA3",
    "STETH": "0xae7ab96520DE3A18E5e111B5EaAb095312D7fE84",
    "WSTETH": "0x7f39C581F595B53c5cb19bD0b3f8dA6c935E2Ca0",
    "WBTC": "0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599",
    "UNI": "0x1f9840a85d5aF5bf1D1762F925BDADdC4201F984",
    "LINK": "0x514910771AF9Ca656af840dff83E8264EcF986CA",
    "AAVE_V3_POOL": "0x87870Bca3F3fD6335C3F4ce8392D69350B4fA4E2",
    "UNIVERSAL_ROUTER": "0x3fC91A3afd70395Cd496C647d5a6CC9D4B2b7FAD",
    "ENS_REGISTRY": "0x00000000000C2E074eC69A0dFb2997BA6C7d2e1e",
    "ENTRYPOINT_06": "0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789",
    "ENTRYPOINT_07": "0x0000000071727De22E5E9d8BAf0edAc6f37da032",
    "ONEINCH_V5": "0x1111111254EEB25477B68fb85Ed929f73A960582",
    "RETH": "0xae78736Cd615f374D3085123A210448E74Fc6393",
    "MULTICALL3": "0xcA11bde05977b3631167028862bE2a173976CA11",
    "CRV": "0xD533a949740bb3306d119CC777fa900bA034cd52",
    "MKR": "0x9f8F72aA9304c8B593d555F12eF6589cC3A579A2",
    "AAVE": "0x7Fc66500c84A76Ad7e9c93437bFc5Ac33E2DDaE9",
    "CL_ETH_USD": "0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419",
    "SAFE_130": "0xd9Db270c1B5E3Bd161E8c8503c55cEABeE709552",
    "BASE_USDC": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    "ARB_USDC": "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
    "OP_USDC": "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85",
    "SDAI": "0x83F20F44975D03b1b09e64809B757c47f942BEeA",
    "USDE": "0x4c9EDD5852cd905f086C759E8383e09bff1E68B3",
    "SUSDE": "0x9D39A5DE30e57443BfF2A8307A4256c8797A3497",
    "CURVE_3POOL": "0xbEbc44782C7dB0a1A60Cb6fe97d0b483032FF1C7",
    "BEACON_DEPOSIT": "0x00000000219ab540356cBB839Cbe05303d7705Fa",
}
REAL = {k: v for k, v in _CANDIDATES.items() if is_checksummed(v)}
REJECTED = {k: v for k, v in _CANDIDATES.items() if k not in REAL}
VERIFIED = set(REAL.values())

def A(name):
    return REAL[name]

def lookalike(name, keep=5, seed=0):
    """Same first/last `keep` hex chars as the real address, random middle, valid EIP-55."""
    real = REAL[name].lower()[2:]
    rng = random.Random(hashlib.sha256(f"{name}/{keep}/{seed}".encode()).digest())
    mid = "".join(rng.choice("0123456789abcdef") for _ in range(40 - 2 * keep))
    return checksum("0x" + real[:keep] + mid + real[-keep:])

def randaddr(seed):
    h = hashlib.sha256(f"rand/{seed}".encode()).hexdigest()[:40]
    return checksum("0x" + h)

def e(type, confidence, provenance, content, notes, cls=None):
    return dict(cls=cls, type=type, confidence=confidence, provenance=provenance, content=content, notes=notes)

if __name__ == "__main__":
    print("verified", len(REAL), "rejected", REJECTED)

def C(type, confidence, provenance, content, notes, lang="en"):
    return dict(cls="clean", type=type, confidence=confidence, provenance=provenance, content=content, notes=notes, lang=lang)

def P(cls, type, confidence, provenance, content, notes, lang="en"):
    return dict(cls=cls, type=type, confidence=confidence, provenance=provenance, content=content, notes=notes, lang=lang)
