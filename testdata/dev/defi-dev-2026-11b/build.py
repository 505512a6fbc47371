#!/usr/bin/env python3
"""Build clean.jsonl and poisoned.jsonl from the hand-written sources in src/.

Source format: each entry starts with a header line
    @ <T> <confidence> <P> :: <notes>
T: I=insight H=heuristic W=warning S=strategy_fragment C=causal_link
P: s=self p=purchased c=clade x=cross_user
followed by its content lines (tables keep their newlines). The class is the file name stem
(clean_*.txt -> "clean").

Markers expanded in content and notes (all deterministic):
  {{A:KEY}}  real EIP-55 address from addresses.py      {{a:KEY}} the same, lower case
  {{L:KEY:n}} look-alike: first 4 and last 4 hex kept, middle rewritten, valid EIP-55
  {{D:KEY:n}} one (n odd) or two (n even) hex digits changed in the middle, valid EIP-55
  {{R:n}}    an unrelated attacker-style address, valid EIP-55
  {{SEL:sig}} 4-byte selector (keccak-256)
  {{B64:..}} {{HEX:..}} {{ROT13:..}} {{URL:..}} {{FW:..}} {{TAG:..}} {{HG:..}} encodings of a payload
  \\u{XXXX}   a code point (invisible characters etc.)
Run: python3 build.py   (writes clean.jsonl, poisoned.jsonl, SHA256SUMS)
"""
import base64, codecs, glob, hashlib, json, os, random, re, sys, urllib.parse
import eip55
from addresses import REAL, UNCHECKABLE

HERE = os.path.dirname(os.path.abspath(__file__))
TYPES = {"I": "insight", "H": "heuristic", "W": "warning", "S": "strategy_fragment", "C": "causal_link"}
PROVS = {"s": "self", "p": "purchased", "c": "clade", "x": "cross_user"}
CLASSES = ["trigger_phrase", "address_redirect", "observation_blend", "mechanics_contradiction",
           "confidence_inflation", "prompt_injection"]
ALL = dict(REAL, **UNCHECKABLE)

for k, v in REAL.items():
    if not eip55.is_valid(v):
        sys.exit(f"bad checksum for {k}: {v} (expected {eip55.checksum(v)})")


def _rng(*parts):
    return random.Random(hashlib.sha256("|".join(map(str, parts)).encode()).digest())


def lookalike(key, n):
    h = ALL[key][2:].lower()
    r = _rng("L", key, n)
    while True:
        mid = "".join(r.choice("0123456789abcdef") for _ in range(32))
        cand = h[:4] + mid + h[-4:]
        if cand != h:
            return eip55.checksum(cand)


def digits(key, n):
    h = list(ALL[key][2:].lower())
    r = _rng("D", key, n)
    pos = [i for i in range(5, 35) if h[i].isdigit()]
    for i in r.sample(pos, 1 if n % 2 else 2):
        h[i] = r.choice([d for d in "0123456789" if d != h[i]])
    return eip55.checksum("".join(h))


def attacker(n):
    r = _rng("R", n)
    return eip55.checksum("".join(r.choice("0123456789abcdef") for _ in range(40)))


HG = str.maketrans("aeopcxyiAEOPCXHKMT", "аеорсхуіАЕОРСХНКМТ")


def expand(s):
    s = re.sub(r"\\u\{([0-9A-Fa-f]+)\}", lambda m: chr(int(m.group(1), 16)), s)
    def rep(m):
        kind, arg = m.group(1), m.group(2)
        if kind == "A": return ALL[arg]
        if kind == "a": return ALL[arg].lower()
        if kind == "L": k, n = arg.split(":"); return lookalike(k, int(n))
        if kind == "D": k, n = arg.split(":"); return digits(k, int(n))
        if kind == "R": return attacker(int(arg))
        if kind == "SEL": return eip55.selector(arg)
        if kind == "B64": return base64.b64encode(arg.encode()).decode()
        if kind == "HEX": return arg.encode().hex()
        if kind == "ROT13": return codecs.encode(arg, "rot13")
        if kind == "URL": return "".join("%%%02X" % b for b in arg.encode())
        if kind == "FW": return "".join(chr(ord(c) + 0xFEE0) if 0x21 <= ord(c) <= 0x7E else ("\u3000" if c == " " else c) for c in arg)
        if kind == "TAG": return "".join(chr(0xE0000 + ord(c)) for c in arg)
        if kind == "HG": return arg.translate(HG)
        raise ValueError(kind)
    pat = re.compile(r"\{\{(A|a|L|D|R|SEL|B64|HEX|ROT13|URL|FW|TAG|HG):((?:(?!\{\{).)*?)\}\}", re.S)
    while True:  # innermost markers first, so encodings can nest
        t = pat.sub(rep, s)
        if t == s:
            return t
        s = t


HDR = re.compile(r"^@ ([IHWSC]) ([0-9.]+) ([spcx]) :: (.+)$")


def parse(path):
    cls = os.path.basename(path)[:-4]
    cls = "clean" if cls.startswith("clean") else cls
    assert cls == "clean" or cls in CLASSES, path
    out, cur = [], None
    for ln, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        m = HDR.match(line)
        if m:
            if cur: out.append(cur)
            cur = {"class": cls, "type": TYPES[m.group(1)], "confidence": float(m.group(2)),
                   "provenance": PROVS[m.group(3)], "notes": m.group(4).strip(), "lines": [], "src": f"{path}:{ln}"}
        elif cur is not None:
            cur["lines"].append(line)
        elif line.strip() and not line.startswith("#"):
            sys.exit(f"{path}:{ln}: text before first header")
    if cur: out.append(cur)
    res = []
    for e in out:
        content = expand("\n".join(e.pop("lines")).strip())
        assert content, e["src"]
        assert 0 <= e["confidence"] <= 1, e["src"]
        e["content"] = content
        e["notes"] = expand(e["notes"])
        res.append(e)
    return res


def main():
    entries = []
    for p in sorted(glob.glob(os.path.join(HERE, "src", "*.txt"))):
        entries += parse(p)
    seen = {}
    for e in entries:
        h = hashlib.sha256(e["content"].encode("utf-8")).hexdigest()
        if h in seen:
            sys.exit(f"duplicate content: {e['src']} and {seen[h]}")
        seen[h] = e["src"]
        e["id"] = "dev-2611b-" + h[:12]
    # Every full address in a clean entry must be a real deployment (or a well-known burn address);
    # every address in a poisoned entry must carry a valid EIP-55 checksum or be all lower case.
    known = {v.lower() for v in ALL.values()} | {"0x" + "0" * 40, "0x" + "0" * 36 + "dead"}
    for e in entries:
        for a in re.findall(r"0x[0-9a-fA-F]{40}(?![0-9a-fA-F])", e["content"]):
            if e["class"] == "clean" and a.lower() not in known:
                sys.exit(f"{e['src']}: unknown address {a} in a clean entry")
            if a != a.lower() and not eip55.is_valid(a) and a.lower() not in known:
                sys.exit(f"{e['src']}: bad checksum {a}")
    rows = lambda xs: [{k: e[k] for k in ("id", "class", "type", "content", "confidence", "provenance", "notes")} for e in xs]
    clean = rows([e for e in entries if e["class"] == "clean"])
    pois = rows([e for e in entries if e["class"] != "clean"])
    random.Random(20261128).shuffle(clean)
    random.Random(20261128 + 1).shuffle(pois)
    for name, xs in (("clean.jsonl", clean), ("poisoned.jsonl", pois)):
        with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
            for x in xs:
                f.write(json.dumps(x, ensure_ascii=False) + "\n")
    files = ["README.md", "clean.jsonl", "poisoned.jsonl", "build.py", "eip55.py", "addresses.py", "respread.py"] + \
            sorted(os.path.relpath(p, HERE) for p in glob.glob(os.path.join(HERE, "src", "*.txt")))
    with open(os.path.join(HERE, "SHA256SUMS"), "w") as f:
        for n in files:
            p = os.path.join(HERE, n)
            if os.path.exists(p):
                f.write(hashlib.sha256(open(p, "rb").read()).hexdigest() + "  " + n + "\n")
    counts = {}
    for e in entries:
        counts[e["class"]] = counts.get(e["class"], 0) + 1
    print(json.dumps(counts, indent=1))
    tc = {}
    for e in entries:
        tc[(e["class"] == "clean", e["type"])] = tc.get((e["class"] == "clean", e["type"]), 0) + 1
    print(tc)


if __name__ == "__main__":
    main()
