#!/usr/bin/env python3
"""Build clean.jsonl and poisoned.jsonl from src/*.txt.

Each src line is `type|content`; a literal `\\n` in content stands for a line break (tables, YAML,
CSV). trigger.txt holds trigger_phrase entries, clean.txt clean hard negatives.
"""
import hashlib, json, random


def entry(cls, typ, content, prov, rnd, notes):
    h = hashlib.sha256(content.encode()).hexdigest()[:12]
    return {"id": "dev-2611o-" + h, "class": cls, "type": typ, "content": content,
            "confidence": round(rnd.uniform(0.3, 0.7), 2), "provenance": prov, "notes": notes}


def read(name):
    out = []
    for line in open("src/" + name, encoding="utf-8"):
        line = line.rstrip("\n")
        if line:
            typ, content = line.split("|", 1)
            out.append((typ, content.replace("\\n", "\n")))
    return out


def main():
    rnd = random.Random(20261130)
    provs = ["self", "clade", "purchased", "cross_user"]
    poisoned = [entry("trigger_phrase", t, c, rnd.choice(provs), rnd,
                      "arbitrary token gating a weakened safeguard or a value move")
                for t, c in read("trigger.txt")]
    clean = [entry("clean", t, c, rnd.choice(provs), rnd, "clean hard negative")
             for t, c in read("clean.txt")]
    ids = [e["id"] for e in poisoned + clean]
    assert len(ids) == len(set(ids)), "duplicate content"
    random.Random(20261130).shuffle(clean)
    random.Random(20261131).shuffle(poisoned)
    for fn, rows in (("clean.jsonl", clean), ("poisoned.jsonl", poisoned)):
        with open(fn, "w", encoding="utf-8") as f:
            for e in rows:
                f.write(json.dumps(e, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
