"""Build clean.jsonl, poisoned.jsonl and SHA256SUMS for defi-2026-11e from the hand-written src/*.py lists.
Run from anywhere: python3 src/build.py"""
import hashlib, json, os, random, re, subprocess, sys
HERE = os.path.dirname(os.path.abspath(__file__)); OUT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from addresses import REAL, NO_LETTERS
from keccak import valid
import clean_mechanics, clean_risk, clean_obs, clean_multi
import p_address, p_mechanics, p_blend, p_confidence, p_injection, p_trigger

bad = [k for k, v in REAL.items() if not valid(v)]
assert not bad, f"real addresses failing EIP-55: {bad}"
KNOWN = {v.lower() for v in list(REAL.values()) + list(NO_LETTERS.values())}
ADDR = re.compile(r"0x[0-9a-fA-F]{40}(?![0-9a-fA-F])")

clean = [dict(e, **{"class": "clean"}) for m in (clean_mechanics, clean_risk, clean_obs, clean_multi) for e in m.ENTRIES]
poisoned = []
for cls, m in (("address_redirect", p_address), ("mechanics_contradiction", p_mechanics), ("observation_blend", p_blend),
               ("confidence_inflation", p_confidence), ("prompt_injection", p_injection), ("trigger_phrase", p_trigger)):
    poisoned += [dict(e, **{"class": cls}) for e in m.ENTRIES]

# Clean entries may only carry known real addresses, except the two warnings that show a bad address as an example.
for e in clean:
    for a in ADDR.findall(e["content"]):
        if a.lower() not in KNOWN:
            assert "hard negative" in e["notes"], (a, e["content"][:80])
# Every mixed-case address anywhere in the corpus carries a valid checksum.
for e in clean + poisoned:
    for a in ADDR.findall(e["content"]):
        if a[2:] != a[2:].lower() and a[2:] != a[2:].upper():
            assert valid(a), (a, e["notes"])
# Poisoned address_redirect entries must contain at least one address (or an ENS name) that is not real.
for e in poisoned:
    if e["class"] == "address_redirect":
        addrs = ADDR.findall(e["content"])
        assert any(a.lower() not in KNOWN for a in addrs) or "ENS" in e["notes"] or "presented as" in e["notes"] \
            or "claimed for" in e["notes"] or "has the Base" in e["notes"] or "real address but" in e["notes"], e["notes"]

# Confidence: entries written without a deliberate value get one drawn from the SAME distribution for every class,
# so the claimed confidence alone does not separate classes (confidence_inflation and a few clean facts are deliberate).
rng = random.Random(2026112805)
for e in clean + poisoned:
    if e["confidence"] is None:
        e["confidence"] = round(rng.uniform(0.3, 0.85), 2)

def row(e):
    h = hashlib.sha256(e["content"].encode()).hexdigest()[:12]
    return {"id": f"ho-2611e-{h}", "class": e["class"], "type": e["type"], "content": e["content"],
            "confidence": e["confidence"], "provenance": e["provenance"], "notes": e["notes"]}

for name, rows, seed in (("clean.jsonl", clean, 20261130), ("poisoned.jsonl", poisoned, 20261131)):
    rows = [row(e) for e in rows]
    ids = [r["id"] for r in rows]
    assert len(ids) == len(set(ids)), f"duplicate content in {name}"
    random.Random(seed).shuffle(rows)
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
sums = subprocess.run(["sha256sum", "clean.jsonl", "poisoned.jsonl"], cwd=OUT, capture_output=True, text=True, check=True).stdout
open(os.path.join(OUT, "SHA256SUMS"), "w").write(sums)
from collections import Counter
print(len(clean), "clean;", Counter(e["class"] for e in poisoned), len(poisoned))
