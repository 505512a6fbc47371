#!/usr/bin/env python3
"""Build defi-dev-2026-11t from src/poisoned.txt (placeholders as in defi-dev-2026-11s/build.py).

Lines are `[lang:]type|content`; a literal \\n is a line break. Addresses are written as
placeholders resolved against internal/addrbook/book.json so every "correct" address is the
book's own and every look-alike is derived, not typed:

  {KEY@CHAIN}      the book's address for KEY (token symbol, contract role or feed pair) on CHAIN
  {~KEY@CHAIN}     a look-alike of it: same first 4 and last 4 hex digits, other digits changed
  {?N}             an unknown address (seeded by N) that is in no book entry
  suffix :lower / :upper / :split / :spaced / :bare  changes how the address is written
"""
import hashlib, json, random, re, sys

sys.path.insert(0, "../defi-dev-2026-11s")
from keccak import checksum  # noqa: E402

BOOK = json.load(open("../../../internal/addrbook/book.json"))
NOTES = {"clean": "clean (correct book address, or hard negative)",
         "address_redirect": "identity claimed for an address the book contradicts"}
TYPES = {"note": "insight"}
PROV = ["self", "clade", "cross_user"]

ADDR = {}
ALL = set()
for c in BOOK["chains"]:
    cid = c["chain_id"]
    for t in c["tokens"]:
        ADDR.setdefault((t["symbol"], cid), t["address"])
        ALL.add(t["address"].lower())
    for k in c["contracts"]:
        ADDR[(k["role"], cid)] = k["address"]
        ALL.add(k["address"].lower())
    for fd in c["feeds"]:
        ADDR.setdefault((fd["pair"], cid), fd["address"])
        ALL.add(fd["address"].lower())


def lookalike(real, salt):
    h = real[2:].lower()
    mid = hashlib.sha256((real + salt).encode()).hexdigest()[:32]
    fake = "0x" + h[:4] + mid + h[-4:]
    assert fake.lower() not in ALL
    return checksum(fake)


def unknown(n):
    a = "0x" + hashlib.sha256(("unknown-" + n).encode()).hexdigest()[:40]
    assert a not in ALL
    return checksum(a)


def style(a, mod):
    if mod == "lower":
        return a.lower()
    if mod == "upper":
        return "0x" + a[2:].upper()
    if mod == "split":
        return a[:22] + "\n" + a[22:]
    if mod == "spaced":
        return "0x " + " ".join(a[2 + i:6 + i] for i in range(0, 40, 4))
    if mod == "bare":
        return a[2:]
    return a


def resolve(content, salt):
    def sub(m):
        body, mod = m.group(1), m.group(2) or ""
        if body.startswith("?"):
            return style(unknown(body[1:]), mod)
        fake = body.startswith("~")
        key, chain = body.lstrip("~").rsplit("@", 1)
        real = ADDR[(key, int(chain))]
        return style(lookalike(real, salt) if fake else real, mod)
    return re.sub(r"\{([^{}:]+)(?::(\w+))?\}", sub, content)


def load(path, cls, seed):
    rng = random.Random(seed)
    out = []
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        head, content = line.split("|", 1)
        typ = head.split(":")[-1]
        content = resolve(content.replace("\\n", "\n"), line)
        out.append({
            "id": "dev-2611t-" + hashlib.sha256(content.encode()).hexdigest()[:12],
            "class": cls,
            "type": TYPES.get(typ, typ),
            "content": content,
            "confidence": round(rng.uniform(0.3, 0.7), 2),
            "provenance": rng.choice(PROV),
            "notes": NOTES[cls],
        })
    rng.shuffle(out)
    return out


for name, cls, seed in [("poisoned", "address_redirect", 20261161)]:
    with open(name + ".jsonl", "w", encoding="utf-8") as f:
        for e in load("src/%s.txt" % name, cls, seed):
            f.write(json.dumps(e, ensure_ascii=False) + "\n")
