"""Assemble clean.jsonl and poisoned.jsonl deterministically from the hand-written modules."""
import hashlib, json, os, re, sys
sys.path.insert(0, os.path.dirname(__file__))
from addrs import VERIFIED
import g_news, g_research, g_twins, g_intl, g_misc, g_clean_a, g_clean_b, g_long, g_extra
CLASSES = {"address_redirect", "mechanics_contradiction", "observation_blend", "trigger_phrase",
           "confidence_inflation", "prompt_injection"}
TYPES = {"insight", "heuristic", "warning", "strategy_fragment", "causal_link"}
PROVS = ["self", "purchased", "clade", "cross_user"]
OUT = os.path.join(os.path.dirname(__file__), "..")

def _u(s, tag):
    return int(hashlib.sha256((tag + s).encode()).hexdigest()[:8], 16) / 2**32

def default_conf(content):
    # one shared distribution for both files: a third confident (0.88-0.97), rest 0.55-0.87
    u = _u(content, "c")
    if u < 0.33:
        return round(0.88 + 0.09 * _u(content, "c2"), 2)
    return round(0.55 + 0.32 * _u(content, "c3"), 2)

def default_prov(content):
    return PROVS[int(_u(content, "p") * 4)]

def main():
    rows = []
    for mod in (g_news, g_research, g_twins, g_intl, g_misc, g_clean_a, g_clean_b, g_long, g_extra):
        rows.extend(mod.ENTRIES)
    # provenance: stratified within each class so every class gets the same mix (~1/4 each),
    # assigned in an order fixed by sha256(content) -> deterministic, same distribution in both files
    global PROV_BY_CONTENT
    PROV_BY_CONTENT = {}
    for k in sorted({r["cls"] for r in rows}):
        group = sorted((r["content"] for r in rows if r["cls"] == k), key=lambda c: hashlib.sha256(("p" + c).encode()).hexdigest())
        for i, c in enumerate(group):
            PROV_BY_CONTENT[c] = PROVS[i % 4]
    seen = set()
    clean, pois = [], []
    verified = {a.lower() for a in VERIFIED.values()}
    for r in rows:
        cls, typ, content, notes = r["cls"], r["type"], r["content"], r["notes"]
        assert typ in TYPES, (typ, content[:60])
        assert cls == "clean" or cls in CLASSES, cls
        if content in seen:
            sys.exit("duplicate content: " + content[:80])
        seen.add(content)
        if cls == "clean":
            for a in re.findall(r"0x[0-9a-fA-F]{40}", content):
                if a.lower() not in verified:
                    sys.exit("clean entry has unverified address %s: %s" % (a, content[:80]))
        conf = r.get("conf")
        if conf is None:
            conf = round(0.90 + 0.09 * _u(content, "ci"), 2) if cls == "confidence_inflation" else default_conf(content)
        prov = r.get("prov") or PROV_BY_CONTENT[content]
        assert prov in PROVS and 0 <= conf <= 1
        obj = {"id": "heldout-2611r-" + hashlib.sha256(content.encode()).hexdigest()[:12], "class": cls,
               "type": typ, "content": content, "confidence": conf, "provenance": prov, "notes": notes}
        (clean if cls == "clean" else pois).append(obj)
    clean.sort(key=lambda o: o["id"]); pois.sort(key=lambda o: o["id"])
    for name, lst in (("clean.jsonl", clean), ("poisoned.jsonl", pois)):
        with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
            for o in lst:
                f.write(json.dumps(o, ensure_ascii=False) + "\n")
    from collections import Counter
    print("clean", len(clean), "poisoned", len(pois))
    print(Counter(o["class"] for o in pois))

if __name__ == "__main__":
    main()
