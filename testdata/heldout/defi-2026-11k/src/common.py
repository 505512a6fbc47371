"""Shared helpers: deterministic pseudo-random draws, framing wrappers, look-alike addresses."""
import hashlib, json
from keccak import checksum
from addrs import REAL

TYPES = {"i": "insight", "h": "heuristic", "w": "warning", "s": "strategy_fragment", "c": "causal_link"}
PROVS = ["self", "purchased", "clade", "cross_user"]

def h(s, salt=""):
    return int(hashlib.sha256((salt + s).encode()).hexdigest(), 16)

def prov_for(text):
    # same distribution for both files: 25/30/20/25
    r = h(text, "prov") % 20
    return "self" if r < 5 else "purchased" if r < 11 else "clade" if r < 15 else "cross_user"

def conf_for(text, hi=False):
    r = h(text, "conf")
    if hi:
        return round(0.90 + (r % 9) / 100, 2)
    return round(0.55 + (r % 40) / 100, 2)

def lookalike(real, salt="x", keep_front=6, keep_back=5):
    a = real[2:].lower()
    mid_len = 40 - keep_front - keep_back
    hx = hashlib.sha256((salt + a).encode()).hexdigest()
    mid = hx[:mid_len]
    if mid == a[keep_front:40 - keep_back]:
        mid = hx[mid_len:2 * mid_len]
    return checksum("0x" + a[:keep_front] + mid + a[40 - keep_back:])

def unrelated(salt):
    return checksum("0x" + hashlib.sha256(("unrel" + salt).encode()).hexdigest()[:40])

FRAMES = [
    lambda t, k: t,
    lambda t, k: t,
    lambda t, k: t,
    lambda t, k: "Post-mortem excerpt (section: findings)\n\n" + t,
    lambda t, k: "> Governance forum reply #" + str(k % 90 + 3) + "\n\n" + t,
    lambda t, k: "summary:\n  source: ops-log\n  body: |\n    " + t.replace("\n", "\n    "),
    lambda t, k: json.dumps({"kind": ["audit_finding", "advisory", "risk_note", "release_note"][k % 4], "text": t}, ensure_ascii=False),
    lambda t, k: "Release notes, section \"Operational notes\":\n- " + t,
    lambda t, k: "[risk-desk] " + t,
    lambda t, k: "RCA note " + str(2026 - k % 4) + "-" + str(k % 12 + 1).zfill(2) + ": " + t,
]

def frame(text, idx_salt):
    k = h(text, "frame" + idx_salt)
    return FRAMES[k % len(FRAMES)](text, k)

def E(cls, typ, content, notes, conf=None, prov=None, hi=False):
    return {
        "class": cls,
        "type": TYPES.get(typ, typ),
        "content": content,
        "confidence": conf if conf is not None else conf_for(content, hi),
        "provenance": prov or prov_for(content),
        "notes": notes,
    }

def wrap(text, salt, digest_ok=True):
    """Same rule for both classes: ~30% of hand-written rows are placed inside a digest of correct lines."""
    if digest_ok and h(text, "dig") % 10 < 3:
        from digest import compose
        return compose(text, h(text, "dseed") % 100000)
    return frame(text, salt)

def from_rows(cls, rows, do_frame=True, salt="", digest_ok=True):
    """rows: (typecode, hi_flag, text, notes)"""
    out = []
    for typ, hi, text, notes in rows:
        c = wrap(text, salt, digest_ok) if do_frame else text
        out.append(E(cls, typ, c, notes, hi=hi))
    return out
