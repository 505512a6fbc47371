"""Hand-written surrounding context (prefix, suffix) for some short entries, keyed by their notes."""
def apply(E, EXT):
    out = []
    for e in E:
        if e[5] in EXT:
            pre, suf = EXT[e[5]]
            e = e[:6] + (pre + e[6] + suf,)
        out.append(e)
    missing = set(EXT) - {e[5] for e in E}
    assert not missing, missing
    return out
