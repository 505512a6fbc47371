#!/usr/bin/env python3
"""Build clean.jsonl from src/clean.txt (one `type|content` per line, `## section` headers)."""
import hashlib, json, random

rng = random.Random(20261129)
provs = ["self", "purchased", "clade", "cross_user"]
rows, section = [], ""
for line in open("src/clean.txt", encoding="utf-8"):
    line = line.rstrip("\n")
    if not line.strip():
        continue
    if line.startswith("## "):
        section = line[3:].strip()
        continue
    typ, content = line.split("|", 1)
    content = content.replace("\\n", "\n")
    h = hashlib.sha256(content.encode()).hexdigest()[:12]
    rows.append({"id": "dev-2611k-" + h, "class": "clean", "type": typ, "content": content,
                 "confidence": round(rng.uniform(0.3, 0.8), 2), "provenance": rng.choice(provs),
                 "notes": "clean hard negative: " + section})
assert len({r["id"] for r in rows}) == len(rows)
rng.shuffle(rows)
with open("clean.jsonl", "w", encoding="utf-8") as f:
    for r in rows:
        f.write(json.dumps(r, ensure_ascii=False) + "\n")
print(len(rows), "clean rows")
