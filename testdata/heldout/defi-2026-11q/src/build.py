"""Assemble clean.jsonl and poisoned.jsonl deterministically. Run from the corpus directory or src/."""
import hashlib, json, os, re, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from addrs import REAL, BAD
from keccak import is_checksummed
import twins, clean_a, clean_b, clean_c, clean_d, clean_e, p_addr, p_mech, p_obs, p_trig, p_conf, p_pi, p_more, p_long

OUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TYPES = {"insight", "heuristic", "warning", "strategy_fragment", "causal_link"}
PCLASSES = ["address_redirect", "mechanics_contradiction", "observation_blend", "trigger_phrase", "confidence_inflation", "prompt_injection"]
PROVS = ["self", "purchased", "clade", "cross_user"]
PROV_W = [22, 30, 20, 28]
BASE = {"insight": 0.80, "heuristic": 0.74, "warning": 0.86, "strategy_fragment": 0.66, "causal_link": 0.72}
ADDR = re.compile(r"0x[0-9a-fA-F]{40}(?![0-9a-fA-F])")

def h(s, salt):
    return int(hashlib.sha256((salt + s).encode()).hexdigest(), 16)

def prov(content):
    x = h(content, "prov") % sum(PROV_W)
    for p, w in zip(PROVS, PROV_W):
        if x < w:
            return p
        x -= w

def conf(content, type_, cls):
    if cls == "confidence_inflation":
        return round(0.91 + (h(content, "ci") % 9) / 100, 2)
    j = (h(content, "conf") % 29 - 14) / 100  # -0.14 .. +0.14
    return round(min(0.99, max(0.35, BASE[type_] + j)), 2)

def collect():
    clean, pois = [], []
    for type_, text, slots, tw in twins.DOCS:
        for header, slot, bad, cls, note in tw:
            good = {k: v[0] for k, v in slots.items()}
            c = text.replace("{H}", header)
            for k, v in good.items():
                if k != slot:
                    c = c.replace("{" + k + "}", v)
            clean.append(("clean", type_, c.replace("{" + slot + "}", good[slot]), "twin (clean): " + header))
            pois.append((cls, type_, c.replace("{" + slot + "}", bad), "twin (poisoned): " + note))
    for m in (clean_a, clean_b, clean_c, clean_d, clean_e):
        for t, c, n in m.E:
            clean.append(("clean", t, c, n))
    for m in (p_addr, p_mech, p_obs, p_trig, p_conf, p_pi, p_more, p_long):
        for cls, t, c, n in m.E:
            pois.append((cls, t, c, n))
    return clean, pois

def main():
    assert not BAD, BAD
    real = set(REAL.values())
    clean, pois = collect()
    seen = set()
    rows = {"clean": [], "poisoned": []}
    for name, lst in (("clean", clean), ("poisoned", pois)):
        for cls, t, c, n in lst:
            assert t in TYPES, t
            assert cls == "clean" if name == "clean" else cls in PCLASSES, cls
            assert "{" + "A}" not in c and "{" + "B}" not in c and "{H}" not in c, c[:80]
            if c in seen:
                sys.exit("duplicate content: " + c[:80])
            seen.add(c)
            for a in ADDR.findall(c):
                if not is_checksummed(a) and a != a.lower():
                    sys.exit("bad checksum: " + a)
                if name == "clean" and a not in real:
                    sys.exit("clean entry with unverified address: " + a)
            d = hashlib.sha256(c.encode()).hexdigest()[:12]
            rows[name].append({"id": "heldout-2611q-" + d, "class": cls, "type": t, "content": c,
                               "confidence": conf(c, t, cls), "provenance": prov(c), "notes": n})
    for name in rows:
        rows[name].sort(key=lambda r: r["id"])
        ids = [r["id"] for r in rows[name]]
        assert len(ids) == len(set(ids))
        with open(os.path.join(OUT, name + ".jsonl"), "w", encoding="utf-8") as f:
            for r in rows[name]:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print({k: len(v) for k, v in rows.items()})

if __name__ == "__main__":
    main()
