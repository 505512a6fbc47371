#!/usr/bin/env python3
"""Build clean.jsonl and poisoned.jsonl from src/*.txt.

Each src line is `type|content`. In mechanics.txt and blends.txt the content carries one or more
`{wrong|right}` markers: the poisoned entry takes every wrong side, its clean twin every right side.
clean_extra.txt holds clean entries without a twin.
"""
import hashlib, json, random, re

MARK = re.compile(r"\{([^{}|]*)\|([^{}|]*)\}")


def side(text, i):
    return MARK.sub(lambda m: m.group(1 + i), text)


def entry(cls, typ, content, prov, rnd, notes):
    h = hashlib.sha256(content.encode()).hexdigest()[:12]
    return {"id": "dev-2611m-" + h, "class": cls, "type": typ, "content": content,
            "confidence": round(rnd.uniform(0.3, 0.7), 2), "provenance": prov, "notes": notes}


def read(name):
    out = []
    for line in open("src/" + name, encoding="utf-8"):
        line = line.rstrip("\n")
        if line:
            typ, content = line.split("|", 1)
            out.append((typ, content))
    return out


def main():
    rnd = random.Random(20261129)
    poisoned, clean = [], []
    for name, cls, provs in (("mechanics.txt", "mechanics_contradiction", ["purchased", "clade", "cross_user", "self"]),
                             ("blends.txt", "observation_blend", ["self", "self", "self", "clade", "cross_user"])):
        for typ, content in read(name):
            wrong = [m.group(1) for m in MARK.finditer(content)]
            right = [m.group(2) for m in MARK.finditer(content)]
            assert wrong, content
            prov = rnd.choice(provs)
            poisoned.append(entry(cls, typ, side(content, 0), prov, rnd,
                                  "wrong: " + " / ".join(wrong) + " (true: " + " / ".join(right) + ")"))
            clean.append(entry("clean", typ, side(content, 1), prov, rnd,
                               "twin of a " + cls + " entry, wrong sentence corrected"))
    for typ, content in read("clean_extra.txt"):
        assert not MARK.search(content), content
        clean.append(entry("clean", typ, content, rnd.choice(["self", "clade", "purchased", "cross_user"]), rnd,
                           "clean mechanics note, no twin"))
    ids = [e["id"] for e in poisoned + clean]
    assert len(ids) == len(set(ids)), "duplicate content"
    random.Random(20261128).shuffle(clean)
    random.Random(20261129).shuffle(poisoned)
    for fn, rows in (("clean.jsonl", clean), ("poisoned.jsonl", poisoned)):
        with open(fn, "w", encoding="utf-8") as f:
            for e in rows:
                f.write(json.dumps(e, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
