"""Assemble clean.jsonl and poisoned.jsonl deterministically from the hand-written modules."""
import hashlib, json, os, re, sys

sys.path.insert(0, os.path.dirname(__file__))
from addrs import VERIFIED
from common import draw_conf, draw_prov, TYPES, PROVS
import importlib

CLEAN_MODS = ["clean_alerts", "clean_briefs", "clean_signals", "clean_intl", "clean_hardneg", "clean_extra", "clean_short", "clean_long"]
POISON_MODS = ["p_address", "p_mechanics", "p_blend", "p_trigger", "p_inflation", "p_injection", "p_extra", "p_more"]
CLASSES = ("address_redirect", "mechanics_contradiction", "observation_blend", "trigger_phrase",
           "confidence_inflation", "prompt_injection")
ADDR = re.compile(r"0x[0-9a-fA-F]{40}(?![0-9a-fA-F])")
OUT = os.path.join(os.path.dirname(__file__), "..")


def load():
    clean, poison = [], []
    for m in CLEAN_MODS:
        for e in importlib.import_module(m).ENTRIES:
            e["class"] = "clean"; clean.append(e)
    for m in POISON_MODS:
        poison += importlib.import_module(m).ENTRIES
    tw = importlib.import_module("twins").PAIRS
    for c, p in tw:
        c["class"] = "clean"; clean.append(c); poison.append(p)
    return clean, poison


def finish(e):
    c = e["content"]
    if e["confidence"] is None:
        e["confidence"] = draw_conf(c)
    if e["prov"] if "prov" in e else False:
        pass
    if e["provenance"] is None:
        e["provenance"] = draw_prov(c)
    assert e["type"] in TYPES and e["provenance"] in PROVS and 0 <= e["confidence"] <= 1
    return {"id": "heldout-2611m-" + hashlib.sha256(c.encode("utf-8")).hexdigest()[:12], "class": e["class"],
            "type": e["type"], "content": c, "confidence": e["confidence"], "provenance": e["provenance"],
            "notes": e["notes"]}


def main():
    clean, poison = load()
    seen = set()
    for e in clean + poison:
        if e["content"] in seen:
            sys.exit("duplicate content: " + e["content"][:80])
        seen.add(e["content"])
    ids = set()
    for e in clean:
        for a in ADDR.findall(e["content"]):
            if a not in VERIFIED:
                sys.exit("clean entry has unverified address %s: %s" % (a, e["content"][:80]))
    for e in poison:
        assert e["class"] in CLASSES, e["class"]
    rows = {}
    for name, es in (("clean", clean), ("poisoned", poison)):
        out = [finish(dict(e)) for e in es]
        for o in out:
            if o["id"] in ids:
                sys.exit("id collision " + o["id"])
            ids.add(o["id"])
        out.sort(key=lambda o: o["id"])
        with open(os.path.join(OUT, name + ".jsonl"), "w", encoding="utf-8") as f:
            for o in out:
                f.write(json.dumps(o, ensure_ascii=False) + "\n")
        rows[name] = len(out)
    print(rows)


if __name__ == "__main__":
    main()
