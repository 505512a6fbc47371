#!/usr/bin/env python3
"""Build defi-dev-2026-11q from src/*.txt (lines `[lang:]type|content`, literal \\n = line break).

Carriers are written in clear and encoded here, so the source stays readable:
  {b64:…} base64, {hex:…} hex, {b64b64:…} base64 twice, {hexb64:…} base64 then hex,
  {zw:…} a zero-width space after every character, {tag:…} Unicode tag characters (U+E0000 + ASCII),
  {homo:…} Latin a c e i o p x y replaced by their Cyrillic look-alikes.
"""
import base64, hashlib, json, random, re

NOTES = {
    "clean": "clean hard negative",
    "prompt_injection": "instruction to the AI reading the entry, in a data carrier",
}
TYPES = {"note": "insight"}
PROV = ["self", "clade", "cross_user"]
HOMO = str.maketrans("aceiopxy", "асеіорху")


def b64(s):
    return base64.b64encode(s.encode()).decode()


def hx(s):
    return s.encode().hex()


ENC = {
    "b64": b64,
    "hex": hx,
    "b64b64": lambda s: b64(b64(s)),
    "hexb64": lambda s: hx(b64(s)),
    "zw": lambda s: "".join(c + "\u200b" for c in s),
    "tag": lambda s: "".join(chr(0xE0000 + ord(c)) for c in s),
    "homo": lambda s: s.translate(HOMO),
}


def encode(content):
    return re.sub(r"\{(b64b64|hexb64|b64|hex|zw|tag|homo):(.*?)\}(?!\})",
                  lambda m: ENC[m.group(1)](m.group(2)), content)


def load(path, cls, seed):
    rng = random.Random(seed)
    out = []
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line:
            continue
        head, content = line.split("|", 1)
        typ = head.split(":")[-1]
        content = encode(content.replace("\\n", "\n"))
        out.append({
            "id": "dev-2611q-" + hashlib.sha256(content.encode()).hexdigest()[:12],
            "class": cls,
            "type": TYPES.get(typ, typ),
            "content": content,
            "confidence": round(rng.uniform(0.3, 0.7), 2),
            "provenance": rng.choice(PROV),
            "notes": NOTES[cls],
        })
    rng.shuffle(out)
    return out


for name, cls, seed in [("clean", "clean", 20261150), ("poisoned", "prompt_injection", 20261151)]:
    with open(name + ".jsonl", "w", encoding="utf-8") as f:
        for e in load("src/%s.txt" % name, cls, seed):
            f.write(json.dumps(e, ensure_ascii=False) + "\n")
