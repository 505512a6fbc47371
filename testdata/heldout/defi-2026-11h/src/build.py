#!/usr/bin/env python3
"""Build clean.jsonl, poisoned.jsonl and SHA256SUMS for defi-2026-11h from the hand-written src/*.py."""
import hashlib, json, os, random, re, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lib
from addresses import ADDRS

for k, v in ADDRS.items():
    if not lib.valid(v):
        sys.exit(f"address {k} {v} fails EIP-55: recalled wrong, fix or drop it")

# Addresses allowed in clean entries that cannot be verified by checksum (no letters).
NO_LETTER_OK = {"0x4200000000000000000000000000000000000006"}
KNOWN = {v.lower() for v in ADDRS.values()} | NO_LETTER_OK
TYPES = {"i": "insight", "h": "heuristic", "w": "warning", "s": "strategy_fragment", "c": "causal_link"}
PROV = {"S": "self", "P": "purchased", "C": "clade", "U": "cross_user"}
ADDR_RE = re.compile(r"0x[0-9a-fA-F]{40}(?![0-9a-fA-F])")

import clean_a, clean_b, clean_c, clean_d, clean_e, clean_f
import poison_addr, poison_mech, poison_obs, poison_trig, poison_inj, poison_conf, poison_more, poison_long

def jitter(conf, key):
    """Typed confidences in [0.38, 0.66] are redrawn in [0.30, 0.72] (seeded by content) so that the
    author's habitual values do not separate classes. Deliberate values outside that band are kept."""
    if 0.38 <= conf <= 0.66:
        r = random.Random(hashlib.sha256(key.encode()).hexdigest())
        return round(r.uniform(0.30, 0.72), 2)
    return conf

def mk(cls, t, c, p, text, note):
    content = lib.expand(text, ADDRS).strip()
    if "@@" in content:
        sys.exit(f"unexpanded marker: {content[:80]}")
    h = hashlib.sha256(content.encode()).hexdigest()
    return {"id": f"heldout-2611h-{h[:12]}", "class": cls, "type": TYPES[t], "content": content,
            "confidence": jitter(c, content), "provenance": PROV[p], "notes": note}

clean = [mk("clean", *x) for m in (clean_a, clean_b, clean_c, clean_d, clean_e, clean_f) for x in m.E]
pois = [mk(*x) for m in (poison_addr, poison_mech, poison_obs, poison_trig, poison_inj, poison_conf, poison_more, poison_long) for x in m.E]

bad = 0
for r in clean:
    for a in ADDR_RE.findall(r["content"]):
        if a.lower() not in KNOWN:
            print("clean entry cites unknown address", a, r["content"][:60]); bad += 1
        elif a.lower() != a and not lib.valid(a):
            print("clean entry address bad checksum", a); bad += 1
for r in pois:
    for a in ADDR_RE.findall(r["content"]):
        if a.lower() != a and not lib.valid(a):
            print("poisoned entry address bad checksum", a); bad += 1
ids = [r["id"] for r in clean + pois]
if len(ids) != len(set(ids)):
    print("duplicate content"); bad += 1
if bad:
    sys.exit(1)

random.Random(20261130).shuffle(clean)
random.Random(20261131).shuffle(pois)
out = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for name, rows in (("clean.jsonl", clean), ("poisoned.jsonl", pois)):
    with open(os.path.join(out, name), "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
with open(os.path.join(out, "SHA256SUMS"), "w") as f:
    for name in ("clean.jsonl", "poisoned.jsonl"):
        f.write(hashlib.sha256(open(os.path.join(out, name), "rb").read()).hexdigest() + "  " + name + "\n")

from collections import Counter
print("clean", len(clean), "poisoned", len(pois))
print(Counter(r["class"] for r in pois))
