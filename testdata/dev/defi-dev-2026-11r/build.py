#!/usr/bin/env python3
"""Build defi-dev-2026-11r from src/*.txt (lines `[lang:]type|content`, literal \\n = line break)."""
import hashlib, json, random

NOTES = {
    "clean": "clean hard negative",
    "observation_blend": "a true observation followed by a wrong conclusion",
}
TYPES = {"note": "insight"}
PROV = ["self", "clade", "cross_user"]


def load(path, cls, seed):
    rng = random.Random(seed)
    out = []
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line:
            continue
        head, content = line.split("|", 1)
        typ = head.split(":")[-1]
        content = content.replace("\\n", "\n")
        out.append({
            "id": "dev-2611r-" + hashlib.sha256(content.encode()).hexdigest()[:12],
            "class": cls,
            "type": TYPES.get(typ, typ),
            "content": content,
            "confidence": round(rng.uniform(0.3, 0.7), 2),
            "provenance": rng.choice(PROV),
            "notes": NOTES[cls],
        })
    rng.shuffle(out)
    return out


for name, cls, seed in [("clean", "clean", 20261180), ("poisoned", "observation_blend", 20261181)]:
    with open(name + ".jsonl", "w", encoding="utf-8") as f:
        for e in load("src/%s.txt" % name, cls, seed):
            f.write(json.dumps(e, ensure_ascii=False) + "\n")
