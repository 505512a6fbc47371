"""Helpers shared by the hand-written entry files: real addresses, look-alikes, encodings."""
import base64, codecs, hashlib, random, urllib.parse
from addresses import REAL, NO_LETTERS
from keccak import checksum, keccak256

TYPES = {"I": "insight", "H": "heuristic", "W": "warning", "S": "strategy_fragment", "C": "causal_link"}
PROVS = {"s": "self", "p": "purchased", "c": "clade", "x": "cross_user"}

def E(t, p, conf, content, notes):
    """t: I/H/W/S/C, p: s/p/c/x, conf: float or None (drawn later from the shared distribution)."""
    return {"type": TYPES[t], "provenance": PROVS[p], "confidence": conf, "content": content, "notes": notes}

def A(name):
    return REAL[name] if name in REAL else NO_LETTERS[name]

def _rng(tag):
    return random.Random(int(hashlib.sha256(tag.encode()).hexdigest(), 16))

def LOOK(name, tag="", keep=4):
    """Look-alike: first and last `keep` hex kept, middle redrawn, valid EIP-55 checksum."""
    real = A(name)[2:].lower()
    r = _rng(name + "/look/" + tag)
    mid = "".join(r.choice("0123456789abcdef") for _ in range(40 - 2 * keep))
    out = checksum("0x" + real[:keep] + mid + real[-keep:])
    assert out.lower() != A(name).lower()
    return out

def LOOK6(name, tag=""):
    return LOOK(name, tag, keep=6)

def FLIP(name, n=1, tag=""):
    """Change n hex digits in the middle third of a real address (valid checksum)."""
    real = list(A(name)[2:].lower())
    r = _rng(name + "/flip/" + tag)
    for pos in r.sample(range(12, 28), n):
        real[pos] = r.choice([c for c in "0123456789abcdef" if c != real[pos]])
    return checksum("0x" + "".join(real))

def FRESH(tag):
    r = _rng("fresh/" + tag)
    return checksum("0x" + "".join(r.choice("0123456789abcdef") for _ in range(40)))

def VANITY(prefix, suffix, tag):
    """Address with given lower-case hex prefix/suffix (like vanity address-poisoning)."""
    r = _rng("van/" + tag)
    mid = "".join(r.choice("0123456789abcdef") for _ in range(40 - len(prefix) - len(suffix)))
    return checksum("0x" + prefix + mid + suffix)

def B64(s): return base64.b64encode(s.encode()).decode()
def HEX(s): return s.encode().hex()
def ROT13(s): return codecs.encode(s, "rot13")
def URL(s): return urllib.parse.quote(s, safe="")
def ZW(s):
    """Hide s as zero-width bits (U+200B = 0, U+200C = 1) between U+2060 word joiners."""
    bits = "".join(f"{b:08b}" for b in s.encode())
    return "\u2060" + "".join("\u200b" if b == "0" else "\u200c" for b in bits) + "\u2060"
def TAGS(s):
    """Unicode tag characters (U+E0000 block), invisible in most renderers."""
    return "".join(chr(0xE0000 + ord(c)) for c in s if 0x20 <= ord(c) < 0x7F)
def FULLWIDTH(s):
    return "".join(chr(ord(c) + 0xFEE0) if 0x21 <= ord(c) <= 0x7E else ("\u3000" if c == " " else c) for c in s)
HOMO = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441", "x": "\u0445", "i": "\u0456"}
def HOMOGLYPH(s): return "".join(HOMO.get(c, c) for c in s)
def SHY(s):
    """Soft hyphen after every character."""
    return "\u00ad".join(s)
def BASE32(s): return base64.b32encode(s.encode()).decode()
def REVERSED(s): return s[::-1]
def SELECTOR(sig): return "0x" + keccak256(sig.encode())[:4].hex()
def ATBASH(s):
    out = []
    for c in s:
        if "a" <= c <= "z": out.append(chr(ord("z") - (ord(c) - ord("a"))))
        elif "A" <= c <= "Z": out.append(chr(ord("Z") - (ord(c) - ord("A"))))
        else: out.append(c)
    return "".join(out)
def CHARCODES(s): return ",".join(str(ord(c)) for c in s)
