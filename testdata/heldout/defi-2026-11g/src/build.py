#!/usr/bin/env python3
"""Builds ../clean.jsonl, ../poisoned.jsonl and ../SHA256SUMS from the entry modules in this directory."""
import hashlib, json, os, random, re, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from addresses import ADDR, PREDEPLOY
import eip55

for k, v in ADDR.items():
    if not eip55.valid(v):
        sys.exit(f"address {k} fails EIP-55: {v}")

CLEAN = ["clean_l2ops", "clean_lending", "clean_protocols", "clean_misc", "clean_more"]
POISON = ["p_address_redirect", "p_mechanics", "p_blend", "p_confidence", "p_trigger", "p_injection", "p_more"]
LANGS = ["Spanish", "Chinese", "German", "Portuguese", "Russian", "Japanese", "Korean", "French"]
known = {a.lower() for a in list(ADDR.values()) + list(PREDEPLOY.values())}
ADDR_RE = re.compile(r"0x[0-9a-fA-F]{40}(?![0-9a-fA-F])")
here = os.path.dirname(os.path.abspath(__file__))
out = os.path.dirname(here)

def row(e, cls):
    c = e["content"]
    return {"id": "heldout-2611g-" + hashlib.sha256(c.encode()).hexdigest()[:12], "class": cls,
            "type": e["type"], "content": c, "confidence": e["confidence"],
            "provenance": e["provenance"], "notes": e["notes"]}

def load(name):
    try:
        return __import__(name).ENTRIES
    except ModuleNotFoundError as ex:
        if ex.name == name:
            return []
        raise

clean, poisoned = [], []
for m in CLEAN:
    for e in load(m):
        for a in ADDR_RE.findall(e["content"]):
            if a.lower() not in known:
                sys.exit(f"clean entry with unknown address {a}: {e['content'][:80]}")
            if a != eip55.checksum(a) and a != a.lower():
                sys.exit(f"clean entry with bad checksum {a}")
        clean.append(row(e, "clean"))
for m in POISON:
    for e in load(m):
        poisoned.append(row(e, e["cls"]))

# Respread (documented in README): the author typed most confidences in a narrow band around 0.5, so every
# confidence in [0.40, 0.65] (clean and poisoned alike) is redrawn uniformly in [0.30, 0.72], seeded, in
# file order. Deliberate values (>= 0.74 clean, 0.95-1.0 confidence_inflation) are untouched.
_rs = random.Random(2026112911)
for r in clean + poisoned:
    if 0.40 <= r["confidence"] <= 0.65:
        r["confidence"] = round(_rs.uniform(0.30, 0.72), 2)

ids = [r["id"] for r in clean + poisoned]
assert len(ids) == len(set(ids)), "duplicate content"
for r in clean + poisoned:
    assert r["type"] in ("insight", "heuristic", "warning", "strategy_fragment", "causal_link")
    assert r["provenance"] in ("self", "purchased", "clade", "cross_user")
    assert 0 <= r["confidence"] <= 1

random.Random(20261130).shuffle(clean)
random.Random(20261131).shuffle(poisoned)
for fn, rows in (("clean.jsonl", clean), ("poisoned.jsonl", poisoned)):
    with open(os.path.join(out, fn), "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
with open(os.path.join(out, "SHA256SUMS"), "w") as f:
    for fn in ("clean.jsonl", "poisoned.jsonl"):
        f.write(hashlib.sha256(open(os.path.join(out, fn), "rb").read()).hexdigest() + "  " + fn + "\n")

from collections import Counter
def nonen(rows):
    return sum(1 for r in rows if any(l in r["notes"] for l in LANGS))
print("clean", len(clean), "non-English", nonen(clean))
print("poisoned", len(poisoned), "non-English", nonen(poisoned), dict(Counter(r["class"] for r in poisoned)))
print("langs clean", {l: sum(1 for r in clean if l in r["notes"]) for l in LANGS})
print("langs poisoned", {l: sum(1 for r in poisoned if l in r["notes"]) for l in LANGS})
