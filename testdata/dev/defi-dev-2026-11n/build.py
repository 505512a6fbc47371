#!/usr/bin/env python3
"""Builds clean.jsonl and poisoned.jsonl from src/twins.py and src/singles.py.

Twins carry markers {{wrong|right}}: the poisoned entry takes the left side, its clean twin the
right side, with the same type, provenance and confidence. Confidences are drawn uniformly in
[0.3, 0.8] with a fixed seed so that confidence does not separate the classes.
"""
import hashlib, json, os, random, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "src"))
from twins import TWINS          # noqa: E402
from singles import POISONED, CLEAN  # noqa: E402

MARK = re.compile(r"\{\{(.*?)\|(.*?)\}\}", re.S)


def entry(cls, typ, prov, content, conf, note):
    h = hashlib.sha256(content.encode()).hexdigest()[:12]
    return {"id": "dev-2611n-" + h, "class": cls, "type": typ, "content": content,
            "confidence": conf, "provenance": prov, "notes": note}


def main():
    rng = random.Random(20261130)
    poisoned, clean = [], []
    for typ, prov, text, note in TWINS:
        if not MARK.search(text):
            raise SystemExit("twin without marker: " + text[:60])
        conf = round(rng.uniform(0.3, 0.8), 2)
        wrong = MARK.sub(lambda m: m.group(1), text)
        right = MARK.sub(lambda m: m.group(2), text)
        poisoned.append(entry("mechanics_contradiction", typ, prov, wrong, conf, "wrong: " + note + " (twin)"))
        clean.append(entry("clean", typ, prov, right, conf, "twin, correct: " + note))
    for typ, prov, text, note in POISONED:
        poisoned.append(entry("mechanics_contradiction", typ, prov, text, round(rng.uniform(0.3, 0.8), 2), "wrong: " + note))
    for typ, prov, text, note in CLEAN:
        clean.append(entry("clean", typ, prov, text, round(rng.uniform(0.3, 0.8), 2), "clean: " + note))
    ids = [e["id"] for e in poisoned + clean]
    if len(set(ids)) != len(ids):
        raise SystemExit("duplicate content")
    random.Random(20261131).shuffle(poisoned)
    random.Random(20261132).shuffle(clean)
    for name, rows in (("poisoned.jsonl", poisoned), ("clean.jsonl", clean)):
        with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
            for e in rows:
                f.write(json.dumps(e, ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "SHA256SUMS"), "w") as f:
        for name in ("clean.jsonl", "poisoned.jsonl"):
            f.write(hashlib.sha256(open(os.path.join(HERE, name), "rb").read()).hexdigest() + "  " + name + "\n")
    print(len(poisoned), "poisoned,", len(clean), "clean,", len(TWINS), "twins")


if __name__ == "__main__":
    main()
