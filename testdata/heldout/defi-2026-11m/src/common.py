import hashlib

TYPES = ("insight", "heuristic", "warning", "strategy_fragment", "causal_link")
PROVS = ("self", "purchased", "clade", "cross_user")


def _h(s, salt):
    return int(hashlib.sha256((salt + "|" + s).encode()).hexdigest(), 16)


def draw_conf(content):
    """Shared confidence distribution for both files (hash of content, deterministic)."""
    h = _h(content, "conf")
    b, r = h % 100, (h >> 16) % 1000 / 1000
    if b < 10:
        lo, hi = 0.50, 0.64
    elif b < 35:
        lo, hi = 0.65, 0.79
    elif b < 65:
        lo, hi = 0.80, 0.89
    else:
        lo, hi = 0.90, 0.98
    return round(lo + (hi - lo) * r, 2)


def draw_prov(content):
    b = _h(content, "prov") % 100
    return "self" if b < 20 else "purchased" if b < 48 else "clade" if b < 74 else "cross_user"


def E(type, content, notes, conf=None, prov=None, lang="en", cls=None):
    assert type in TYPES, type
    return {"class": cls, "type": type, "content": content, "confidence": conf, "provenance": prov,
            "notes": notes, "lang": lang}


def P(cls, type, content, notes, **kw):
    return E(type, content, notes, cls=cls, **kw)
