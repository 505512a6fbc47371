"""Assemble clean.jsonl and poisoned.jsonl deterministically from the hand-written modules."""
import hashlib, json, os, re, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import VERIFIED, is_checksummed
import twins
MODULES = ["clean_a", "clean_b", "clean_c", "clean_d", "clean_e", "clean_f", "p_addr", "p_mech", "p_blend", "p_trig", "p_conf", "p_inj", "p_long"]
CLASSES = {"address_redirect", "mechanics_contradiction", "observation_blend", "trigger_phrase", "confidence_inflation", "prompt_injection"}
TYPES = {"insight", "heuristic", "warning", "strategy_fragment", "causal_link"}
PROVS = {"self", "purchased", "clade", "cross_user"}
ADDR = re.compile(r"0x[0-9a-fA-F]{40}(?![0-9a-fA-F])")

def collect():
    clean, pois = [], []
    for t in twins.TWINS:
        typ, conf, prov, lang, text, old, new, cls, cnote, pnote = t
        assert text.count(old) == 1, cnote
        clean.append(dict(cls="clean", type=typ, confidence=conf, provenance=prov, content=text, notes=cnote + " (twin)", lang=lang))
        pois.append(dict(cls=cls, type=typ, confidence=conf, provenance=prov, content=text.replace(old, new), notes=pnote + " (twin of a clean entry)", lang=lang))
    import importlib
    for m in MODULES:
        try:
            mod = importlib.import_module(m)
        except ModuleNotFoundError:
            continue
        for x in getattr(mod, "ENTRIES", []):
            (clean if x["cls"] == "clean" else pois).append(x)
    return clean, pois

def row(x):
    c = x["content"]
    return {"id": "heldout-2611o-" + hashlib.sha256(c.encode()).hexdigest()[:12], "class": x["cls"], "type": x["type"],
            "content": c, "confidence": x["confidence"], "provenance": x["provenance"], "notes": x["notes"]}

def main():
    clean, pois = collect()
    seen = set()
    for x in clean + pois:
        c = x["content"]
        assert c not in seen, "duplicate content: " + c[:80]
        seen.add(c)
        assert x["type"] in TYPES and x["provenance"] in PROVS and 0 <= x["confidence"] <= 1, x
    for x in clean:
        assert x["cls"] == "clean"
        for a in ADDR.findall(x["content"]):
            assert a in VERIFIED, "clean entry with unverified address " + a + " :: " + x["content"][:60]
    for x in pois:
        assert x["cls"] in CLASSES, x["cls"]
        for a in ADDR.findall(x["content"]):
            assert is_checksummed(a) or a.lower() == a, "bad checksum " + a
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for name, xs in (("clean.jsonl", clean), ("poisoned.jsonl", pois)):
        rows = sorted((row(x) for x in xs), key=lambda r: r["id"])
        ids = [r["id"] for r in rows]
        assert len(set(ids)) == len(ids)
        with open(os.path.join(here, name), "w", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print("clean", len(clean), "poisoned", len(pois))
    from collections import Counter
    print(Counter(x["cls"] for x in pois))

if __name__ == "__main__":
    main()
