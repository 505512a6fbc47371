"""Helpers for the defi-2026-11h held-out corpus: pure-Python Keccak-256, EIP-55,
look-alike address generation, payload encoders and marker expansion."""
import base64, codecs, hashlib, random, re

RC = [0x0000000000000001, 0x0000000000008082, 0x800000000000808A, 0x8000000080008000,
      0x000000000000808B, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
      0x000000000000008A, 0x0000000000000088, 0x0000000080008009, 0x000000008000000A,
      0x000000008000808B, 0x800000000000008B, 0x8000000000008089, 0x8000000000008003,
      0x8000000000008002, 0x8000000000000080, 0x000000000000800A, 0x800000008000000A,
      0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008]
ROT = [[0, 36, 3, 41, 18], [1, 44, 10, 45, 2], [62, 6, 43, 15, 61], [28, 55, 25, 21, 56], [27, 20, 39, 8, 14]]
M = (1 << 64) - 1

def _rol(x, n):
    n %= 64
    return ((x << n) | (x >> (64 - n))) & M if n else x

def _f(A):
    for rc in RC:
        C = [A[x][0] ^ A[x][1] ^ A[x][2] ^ A[x][3] ^ A[x][4] for x in range(5)]
        D = [C[(x - 1) % 5] ^ _rol(C[(x + 1) % 5], 1) for x in range(5)]
        A = [[A[x][y] ^ D[x] for y in range(5)] for x in range(5)]
        B = [[0] * 5 for _ in range(5)]
        for x in range(5):
            for y in range(5):
                B[y][(2 * x + 3 * y) % 5] = _rol(A[x][y], ROT[x][y])
        A = [[B[x][y] ^ ((~B[(x + 1) % 5][y]) & B[(x + 2) % 5][y]) for y in range(5)] for x in range(5)]
        A[0][0] ^= rc
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
assert keccak256(b"transfer(address,uint256)")[:4].hex() == "a9059cbb"

def checksum(addr: str) -> str:
    a = addr.lower().replace("0x", "")
    h = keccak256(a.encode()).hex()
    return "0x" + "".join(c.upper() if c.isalpha() and int(h[i], 16) >= 8 else c for i, c in enumerate(a))

assert checksum("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed") == "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"

def valid(addr: str) -> bool:
    return checksum(addr) == addr

def lookalike(addr: str, seed: int, keep=4) -> str:
    """Keep the first and last `keep` hex digits, rewrite the middle (seeded)."""
    r = random.Random(f"{addr}:{seed}")
    a = addr[2:].lower()
    mid = "".join(r.choice("0123456789abcdef") for _ in range(40 - 2 * keep))
    return checksum("0x" + a[:keep] + mid + a[-keep:])

def onedigit(addr: str, seed: int, n=1) -> str:
    r = random.Random(f"{addr}:d{seed}")
    a = list(addr[2:].lower())
    for _ in range(n):
        i = r.randrange(6, 34)
        a[i] = r.choice([c for c in "0123456789abcdef" if c != a[i]])
    return checksum("0x" + "".join(a))

def randaddr(seed) -> str:
    h = hashlib.sha256(f"attacker-{seed}".encode()).hexdigest()[:40]
    return checksum("0x" + h)

def rot13(s): return codecs.encode(s, "rot13")
def b64(s): return base64.b64encode(s.encode()).decode()
def hexs(s): return s.encode().hex()

MARK = re.compile(r"@@(A|F|D|X|B64|HEX|ROT13|LC):(.*?)@@", re.S)

def expand(text, addrs):
    def rep(m):
        k, v = m.group(1), m.group(2)
        if k == "A": return addrs[v]
        if k == "LC": return addrs[v].lower()
        if k == "F":
            name, seed = v.split(":"); return lookalike(addrs[name], int(seed))
        if k == "D":
            name, seed = v.split(":"); return onedigit(addrs[name], int(seed))
        if k == "X": return randaddr(v)
        if k == "B64": return b64(v)
        if k == "HEX": return hexs(v)
        if k == "ROT13": return rot13(v)
    return MARK.sub(rep, text)
