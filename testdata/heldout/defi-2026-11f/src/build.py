#!/usr/bin/env python3
"""Expands src/*.txt into ../clean.jsonl, ../poisoned.jsonl and ../SHA256SUMS.

Line format (one entry per line, '#' comments):  type ~~ provenance ~~ confidence ~~ content ~~ notes
  type: ins|heu|warn|strat|cause; provenance: self|pur|clade|cu; confidence: number or '-' (seeded draw).
  content: literal '\\n' becomes a newline. Markers (see expand()) become addresses / encodings.
File name gives the class: clean_*.txt -> clean, p_<class>.txt -> <class>.
"""
import base64, glob, hashlib, json, os, random, re, sys, urllib.parse
from keccak import checksum, is_valid
from addresses import ADDR, PREDEPLOY

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
TYPES = {"ins": "insight", "heu": "heuristic", "warn": "warning", "strat": "strategy_fragment", "cause": "causal_link"}
PROVS = {"self": "self", "pur": "purchased", "clade": "clade", "cu": "cross_user"}
ALL = dict(ADDR); ALL.update(PREDEPLOY)
for k, v in ADDR.items():
    if not is_valid(v):
        sys.exit(f"address {k} fails EIP-55: {v}")

def rng_for(*parts):
    return random.Random(hashlib.sha256("|".join(parts).encode()).digest())

def lookalike(key, kind, salt):
    real = ALL[key].lower()[2:]
    r = rng_for(key, kind, salt)
    h = list(real)
    if kind == "ps":      # keep first 4 and last 4 hex, rewrite the middle
        for i in range(4, 36):
            h[i] = r.choice("0123456789abcdef")
    elif kind == "ps6":   # keep first 6 and last 6
        for i in range(6, 34):
            h[i] = r.choice("0123456789abcdef")
    elif kind in ("n1", "n2"):
        n = 1 if kind == "n1" else 2
        for i in r.sample(range(6, 34), n):
            h[i] = r.choice([c for c in "0123456789abcdef" if c != h[i]])
    else:
        raise ValueError(kind)
    out = checksum("0x" + "".join(h))
    assert out.lower() != ALL[key].lower()
    return out

def fresh(name):
    r = rng_for("fresh", name)
    return checksum("0x" + "".join(r.choice("0123456789abcdef") for _ in range(40)))

TAGBASE = 0xE0000
def enc(kind, s):
    if kind == "B64": return base64.b64encode(s.encode()).decode()
    if kind == "HEX": return s.encode().hex()
    if kind == "ROT13": return s.translate(str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", "NOPQRSTUVWXYZABCDEFGHIJKLMnopqrstuvwxyzabcdefghijklm"))
    if kind == "URL": return urllib.parse.quote(s, safe="")
    if kind == "ZW": return "\u200b".join(s)
    if kind == "SHY": return "\u00ad".join(s)
    if kind == "TAG": return "".join(chr(TAGBASE + ord(c)) if 0x20 <= ord(c) < 0x7f else c for c in s)
    if kind == "FW": return "".join(chr(ord(c) + 0xFEE0) if 0x21 <= ord(c) <= 0x7e else ("\u3000" if c == " " else c) for c in s)
    if kind == "REV": return s[::-1]
    if kind == "HOMO": return s.translate(str.maketrans("aceopxyAEOPCHK", "асеорхуАЕОРСНК"))
    raise ValueError(kind)

def expand(content, salt, truths):
    def addr(m):
        tag, rest = m.group(1), m.group(2)
        if tag == "A": return ALL[rest]
        if tag == "Alc": return ALL[rest].lower()
        if tag == "X": return fresh(rest)
        key, kind = rest.split(":")
        la = lookalike(key, kind, salt)
        truths.append(f"{key} look-alike ({kind}) {la}; true {ALL[key]}")
        if tag == "L": return la
        if tag == "LH1": return la[:22]
        if tag == "LH2": return la[22:]
        if tag == "Llc": return la.lower()
    content = re.sub(r"\{(A|Alc|X|L|LH1|LH2|Llc):([A-Za-z0-9_:-]+)\}", addr, content)
    pat = re.compile(r"\{(B64|HEX|ROT13|URL|ZW|SHY|TAG|FW|REV|HOMO):([^{}]*)\}")
    while True:  # innermost first, so {B64:{URL:...}} nests
        new = pat.sub(lambda m: enc(m.group(1), m.group(2)), content)
        if new == content:
            break
        content = new
    return content.replace("\\n", "\n")

ADDR_RE = re.compile(r"0x[0-9a-fA-F]{40}")
def main():
    rows = {"clean": [], "poisoned": []}
    seen = {}
    for path in sorted(glob.glob(os.path.join(HERE, "*.txt"))):
        base = os.path.basename(path)[:-4]
        cls = "clean" if base.startswith("clean_") else base[2:]
        for ln, line in enumerate(open(path, encoding="utf-8"), 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split(" ~~ ")
            if len(parts) != 5:
                sys.exit(f"{base}:{ln}: expected 5 fields, got {len(parts)}")
            t, p, c, content, notes = [x.strip() for x in parts]
            truths = []
            content = expand(content, f"{base}:{ln}", truths)
            if c == "-":
                conf = round(rng_for("conf", content).uniform(0.3, 0.75), 2)
            else:
                conf = float(c)
            notes = expand(notes, f"{base}:{ln}", [])
            if truths:
                notes += " [" + "; ".join(dict.fromkeys(truths)) + "]"
            if cls == "clean":
                for a in ADDR_RE.findall(content):
                    if a not in ALL.values() and a.lower() not in [v.lower() for v in ALL.values()]:
                        sys.exit(f"{base}:{ln}: clean entry has unknown address {a}")
            h = hashlib.sha256(content.encode()).hexdigest()[:12]
            if h in seen:
                sys.exit(f"{base}:{ln}: duplicate content of {seen[h]}")
            seen[h] = f"{base}:{ln}"
            row = {"id": f"heldout-2611f-{h}", "class": cls, "type": TYPES[t], "content": content,
                   "confidence": conf, "provenance": PROVS[p], "notes": notes}
            rows["clean" if cls == "clean" else "poisoned"].append(row)
    for name, seed in (("clean", 20261129), ("poisoned", 20261130)):
        random.Random(seed).shuffle(rows[name])
        with open(os.path.join(OUT, name + ".jsonl"), "w", encoding="utf-8") as f:
            for r in rows[name]:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
    with open(os.path.join(OUT, "SHA256SUMS"), "w") as f:
        for name in ("clean", "poisoned"):
            d = hashlib.sha256(open(os.path.join(OUT, name + ".jsonl"), "rb").read()).hexdigest()
            f.write(f"{d}  {name}.jsonl\n")
    from collections import Counter
    print("clean", len(rows["clean"]), "poisoned", len(rows["poisoned"]))
    print(Counter(r["class"] for r in rows["poisoned"]))

if __name__ == "__main__":
    main()
