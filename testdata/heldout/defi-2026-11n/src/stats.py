"""Class-leak statistics: compare clean vs poisoned on surface features."""
import json, os, re, statistics as st
from collections import Counter
D = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
clean = [json.loads(l) for l in open(os.path.join(D, "clean.jsonl"), encoding="utf-8")]
pois = [json.loads(l) for l in open(os.path.join(D, "poisoned.jsonl"), encoding="utf-8")]
lang = {m["id"]: m["lang"] for m in json.load(open(os.path.join(D, "src", "languages.json"), encoding="utf-8"))}
ADDR = re.compile(r"0x[0-9a-fA-F]{40}(?![0-9a-fA-F])")

def q(xs, ps=(10, 25, 50, 75, 90)):
    xs = sorted(xs)
    return [xs[min(len(xs) - 1, int(p / 100 * len(xs)))] for p in ps]

def feats(L):
    n = len(L)
    lens = [len(o["content"]) for o in L]
    confs = [o["confidence"] for o in L]
    return {
        "n": n,
        "len p10/25/50/75/90": q(lens),
        "len mean": round(st.mean(lens)),
        "conf mean": round(st.mean(confs), 3),
        "conf p10/25/50/75/90": q(confs),
        "conf>=0.9": round(sum(c >= 0.9 for c in confs) / n, 3),
        "multiline": round(sum("\n" in o["content"] for o in L) / n, 3),
        "has full address": round(sum(bool(ADDR.search(o["content"])) for o in L) / n, 3),
        "non-English": round(sum(lang[o["id"]] != "en" for o in L) / n, 3),
        "non-ASCII": round(sum(any(ord(ch) > 127 for ch in o["content"]) for o in L) / n, 3),
        "code-ish ({ ; // #)": round(sum(bool(re.search(r"[{};]|//|^#", o["content"], re.M)) for o in L) / n, 3),
        "type": {k: round(v / n, 3) for k, v in sorted(Counter(o["type"] for o in L).items())},
        "provenance": {k: round(v / n, 3) for k, v in sorted(Counter(o["provenance"] for o in L).items())},
    }

def show(name, f):
    print(f"== {name}")
    for k, v in f.items():
        print(f"  {k:22s} {v}")

show("clean", feats(clean))
show("poisoned", feats(pois))
for c in sorted(set(o["class"] for o in pois)):
    sub = [o for o in pois if o["class"] == c]
    f = feats(sub)
    print(f"-- {c:24s} n={f['n']:3d} len50={f['len p10/25/50/75/90'][2]:5d} lenmean={f['len mean']:5d} conf={f['conf mean']:.3f} "
          f"ml={f['multiline']:.2f} addr={f['has full address']:.2f} nonEn={f['non-English']:.2f}")
print("languages clean:", dict(Counter(lang[o["id"]] for o in clean)))
print("languages poisoned:", dict(Counter(lang[o["id"]] for o in pois)))

def auc(pos, neg):
    """P(score(poisoned) > score(clean)) + 0.5 P(tie); 0.5 = no signal."""
    allv = sorted([(v, 1) for v in pos] + [(v, 0) for v in neg])
    # rank-based Mann-Whitney with average ranks for ties
    ranks, i = {}, 0
    vals = [v for v, _ in allv]
    r = [0.0] * len(allv)
    while i < len(allv):
        j = i
        while j < len(allv) and vals[j] == vals[i]:
            j += 1
        for k in range(i, j):
            r[k] = (i + j + 1) / 2
        i = j
    rp = sum(r[k] for k, (_, y) in enumerate(allv) if y == 1)
    n1, n0 = len(pos), len(neg)
    return (rp - n1 * (n1 + 1) / 2) / (n1 * n0)

print("single-feature AUC (poisoned vs clean; 0.5 = no leak):")
for name, fn in [("length", lambda o: len(o["content"])), ("confidence", lambda o: o["confidence"]),
                 ("lines", lambda o: o["content"].count("\n")), ("has address", lambda o: int(bool(ADDR.search(o["content"])))),
                 ("non-English", lambda o: int(lang[o["id"]] != "en")),
                 ("non-ASCII", lambda o: int(any(ord(ch) > 127 for ch in o["content"]))),
                 ("code-ish", lambda o: int(bool(re.search(r"[{};]|//|^#", o["content"], re.M))))]:
    print(f"  {name:12s} {auc([fn(o) for o in pois], [fn(o) for o in clean]):.3f}")
