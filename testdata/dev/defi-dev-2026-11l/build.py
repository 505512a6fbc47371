#!/usr/bin/env python3
"""Builds clean.jsonl and poisoned.jsonl from src/*.txt (hand-written entries).

Confidences are drawn uniformly in [0.3, 0.75] with a fixed seed so that they do
not separate classes; lines are shuffled with a fixed seed."""
import base64, codecs, hashlib, json, random, re

def expand(s):
    s = s.replace("\\n", "\n")
    def rep(m):
        kind, text = m.group(1), m.group(2)
        if kind == "B64": return base64.b64encode(text.encode()).decode()
        if kind == "HEX": return text.encode().hex()
        if kind == "ROT13": return codecs.encode(text, "rot13")
        if kind == "ZW": return "\u200b".join(text)
        if kind == "TAG": return "".join(chr(0xE0000 + ord(c)) for c in text)
        if kind == "FW": return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else "\u3000" for c in text)
        raise ValueError(kind)
    return re.sub(r"\{(B64|HEX|ROT13|ZW|TAG|FW):([^}]*)\}", rep, s)

def rows(path, poisoned):
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        if poisoned:
            cls, typ, prov, notes, content = line.split("|", 4)
        else:
            typ, prov, notes, content = line.split("|", 3)
            cls = "clean"
        yield cls, typ, prov, notes, expand(content)

def build(src, out, poisoned, seed):
    rng = random.Random(seed)
    objs = []
    for cls, typ, prov, notes, content in rows(src, poisoned):
        objs.append({"id": "dev-2611l-" + hashlib.sha256(content.encode()).hexdigest()[:12],
                     "class": cls, "type": typ, "content": content,
                     "confidence": round(rng.uniform(0.3, 0.75), 2), "provenance": prov,
                     "notes": ("clean: " if not poisoned else "") + notes})
    assert len({o["id"] for o in objs}) == len(objs)
    rng.shuffle(objs)
    with open(out, "w", encoding="utf-8") as f:
        for o in objs:
            f.write(json.dumps(o, ensure_ascii=False) + "\n")
    return objs

c = build("src/clean.txt", "clean.jsonl", False, 202611291)
p = build("src/poisoned.txt", "poisoned.jsonl", True, 202611292)
from collections import Counter
print(len(c), Counter(o["class"] for o in p))
