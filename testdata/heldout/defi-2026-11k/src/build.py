"""Assemble clean.jsonl and poisoned.jsonl deterministically. Run from anywhere: python3 src/build.py"""
import hashlib, json, os, re, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from keccak import is_valid, keccak256
from addrs import REAL
import clean_short, p_medium, longdocs, clean_facts, clean_hard, foreign, gen, p_mech, p_blend, p_addr, p_trig, p_conf, p_inj, twins_a, twins_b, twins_c
from common import E

OUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLASSES = ["address_redirect", "mechanics_contradiction", "observation_blend", "trigger_phrase", "confidence_inflation", "prompt_injection"]
TYPES = {"insight", "heuristic", "warning", "strategy_fragment", "causal_link"}
PROVS = {"self", "purchased", "clade", "cross_user"}
ADDR = re.compile(r"0x[0-9a-fA-F]{40}(?![0-9a-fA-F])")

def twins():
    c, p = [], []
    for mod in (twins_a, twins_b, twins_c):
        for typ, hi, doc, old, new, cls, notes in mod.TW:
            assert doc.count(old) == 1, ("twin anchor not unique", old)
            pdoc = doc.replace(old, new)
            ce = E("clean", typ, doc, "twin (clean side): " + notes.split(";")[0])
            pe = E(cls, typ, pdoc, "twin (poisoned side): " + notes, hi=(cls == "confidence_inflation"))
            # twins share provenance and (except inflation) confidence with their clean side
            pe["provenance"] = ce["provenance"]
            if cls != "confidence_inflation":
                pe["confidence"] = ce["confidence"]
            c.append(ce); p.append(pe)
    return c, p

def main():
    assert keccak256(b"").hex() == "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
    for k, v in REAL.items():
        assert is_valid(v), ("bad checksum", k, v)
    verified = set(REAL.values())
    tc, tp = twins()
    clean = clean_short.entries() + clean_facts.entries() + clean_hard.entries() + foreign.clean_entries() + gen.clean_entries() + gen.clean_digests() + longdocs.clean_entries() + tc
    pois = p_mech.entries() + p_blend.entries() + p_addr.entries() + p_trig.entries() + p_conf.entries() + p_inj.entries() + foreign.pois_entries() + gen.pois_entries() + longdocs.pois_entries() + p_medium.entries() + tp
    seen = set()
    for name, rows, want in (("clean.jsonl", clean, "clean"), ("poisoned.jsonl", pois, None)):
        out = []
        for e in rows:
            c = e["content"]
            if c in seen:
                sys.exit("duplicate content: " + c[:80])
            seen.add(c)
            if want:
                assert e["class"] == "clean"
                for a in ADDR.findall(c):
                    if a not in verified:
                        sys.exit("clean entry has unverified address " + a + ": " + c[:80])
            else:
                assert e["class"] in CLASSES, e["class"]
            for a in ADDR.findall(c):
                if any(ch in "ABCDEF" for ch in a[2:]) or a in verified:
                    assert is_valid(a), ("address with bad checksum", a)
            assert e["type"] in TYPES and e["provenance"] in PROVS and 0 <= e["confidence"] <= 1
            rec = {"id": "heldout-2611k-" + hashlib.sha256(c.encode("utf-8")).hexdigest()[:12], "class": e["class"], "type": e["type"],
                   "content": c, "confidence": e["confidence"], "provenance": e["provenance"], "notes": e["notes"]}
            out.append(rec)
        out.sort(key=lambda r: r["id"])
        with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
            for r in out:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
        print(name, len(out))

if __name__ == "__main__":
    main()
