"""Assemble clean.jsonl and poisoned.jsonl deterministically from the hand-written modules."""
import hashlib, importlib, json, os, re, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from addrs import VERIFIED

MODULES = ["g_amm", "g_lending", "g_oracles", "g_lst", "g_vaults_permits", "g_aa_bridges", "g_tokens_gas_l2",
           "g_misc", "g_short", "g_oneliners", "g_snippets", "g_snippets2", "g_snippets3", "g_intl", "g_poison_addr", "g_poison_mech", "g_poison_blend", "g_poison_trigger",
           "g_poison_conf", "g_poison_inject", "g_poison_long", "g_poison_mid", "g_poison_short", "twins", "twins_long"]
CLASSES = {"address_redirect", "mechanics_contradiction", "observation_blend", "trigger_phrase",
           "confidence_inflation", "prompt_injection"}
TYPES = {"insight", "heuristic", "warning", "strategy_fragment", "causal_link"}
PROVS = {"self", "purchased", "clade", "cross_user"}
ADDR_RE = re.compile(r"0x[0-9a-fA-F]{40}(?![0-9a-fA-F])")
ALLOWED = VERIFIED | {"0x0000000000000000000000000000000000000000", "0x000000000000000000000000000000000000dEaD"}
OUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rows():
    for m in MODULES:
        mod = importlib.import_module(m)
        for t in getattr(mod, "ENTRIES", []):
            cls, typ, conf, prov, lang, notes, content = t
            yield m, cls, typ, conf, prov, lang, notes, content
        for tw in getattr(mod, "TWINS", []):
            typ, conf, prov, lang, cnotes, content, old, new, pcls, pnotes = tw[:10]
            pconf = tw[10] if len(tw) > 10 else conf
            assert content.count(old) == 1, ("twin anchor not unique", old)
            yield m, "clean", typ, conf, prov, lang, "twin(clean): " + cnotes, content
            yield m, pcls, typ, pconf, prov, lang, "twin(poisoned): " + pnotes, content.replace(old, new)


TMAP = {"I": "insight", "H": "heuristic", "W": "warning", "S": "strategy_fragment", "C": "causal_link"}
PMAP = {"s": "self", "p": "purchased", "c": "clade", "x": "cross_user"}


def main():
    seen, clean, pois, meta = {}, [], [], []
    for m, cls, typ, conf, prov, lang, notes, content in rows():
        typ, prov = TMAP.get(typ, typ), PMAP.get(prov, prov)
        assert cls == "clean" or cls in CLASSES, (m, cls)
        assert typ in TYPES, (m, typ)
        assert prov in PROVS, (m, prov)
        assert 0 <= conf <= 1, (m, conf)
        content = content.strip("\n")
        h = hashlib.sha256(content.encode()).hexdigest()
        if h in seen:
            raise SystemExit(f"duplicate content in {m} (first seen in {seen[h]}): {content[:80]!r}")
        seen[h] = m
        if cls == "clean":
            for a in ADDR_RE.findall(content):
                if a not in ALLOWED:
                    raise SystemExit(f"clean entry in {m} has unverified address {a}: {content[:80]!r}")
        obj = {"id": "heldout-2611n-" + h[:12], "class": cls, "type": typ, "content": content,
               "confidence": round(float(conf), 2), "provenance": prov, "notes": notes}
        (clean if cls == "clean" else pois).append(obj)
        meta.append({"id": obj["id"], "class": cls, "lang": lang, "module": m})
    clean.sort(key=lambda o: o["id"]); pois.sort(key=lambda o: o["id"]); meta.sort(key=lambda o: o["id"])
    for name, objs in (("clean.jsonl", clean), ("poisoned.jsonl", pois)):
        with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
            for o in objs:
                f.write(json.dumps(o, ensure_ascii=False) + "\n")
    with open(os.path.join(OUT, "src", "languages.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, ensure_ascii=False, indent=0)
    print("clean", len(clean), "poisoned", len(pois))


if __name__ == "__main__":
    main()
