"""Class-leak statistics: compares clean vs poisoned on length, type, provenance, confidence, language, format."""
import collections, json, os, re, statistics, sys

sys.path.insert(0, os.path.dirname(__file__))
import build

D = os.path.join(os.path.dirname(__file__), "..")
clean_src, poison_src = build.load()
lang = {e["content"]: e["lang"] for e in clean_src + poison_src}
files = {n: [json.loads(l) for l in open(os.path.join(D, n + ".jsonl"), encoding="utf-8")] for n in ("clean", "poisoned")}
ADDR = re.compile(r"0x[0-9a-fA-F]{40}")


def fmt(c):
    s = c.lstrip()
    if s.startswith("{") or s.startswith("```"):
        return "json/code"
    if "\n" in c and (c.count(",") > 6 or "\t" in c or "|" in c or ";" in c.split("\n")[1] if c.count("\n") > 1 else False):
        return "table"
    if "\n" in c:
        return "multiline"
    return "line"


def pct(cnt, n):
    return {k: "%d (%.0f%%)" % (v, 100 * v / n) for k, v in sorted(cnt.items())}


out = []
for name, rows in files.items():
    n = len(rows)
    L = sorted(len(r["content"]) for r in rows)
    q = lambda p: L[min(n - 1, int(p * n))]
    conf = [r["confidence"] for r in rows]
    out.append("== %s: %d entries" % (name, n))
    if name == "poisoned":
        out.append("class: %s" % pct(collections.Counter(r["class"] for r in rows), n))
    out.append("length chars: min %d p10 %d p25 %d median %d p75 %d p90 %d max %d mean %.0f" % (
        L[0], q(.1), q(.25), q(.5), q(.75), q(.9), L[-1], statistics.mean(L)))
    out.append("type: %s" % pct(collections.Counter(r["type"] for r in rows), n))
    out.append("provenance: %s" % pct(collections.Counter(r["provenance"] for r in rows), n))
    out.append("confidence: mean %.3f, >=0.9: %.0f%%" % (statistics.mean(conf), 100 * sum(c >= .9 for c in conf) / n))
    nonin = [r for r in rows if r["class"] != "confidence_inflation"]
    c2 = [r["confidence"] for r in nonin]
    out.append("confidence excl. inflation: mean %.3f, >=0.9: %.0f%%" % (statistics.mean(c2), 100 * sum(c >= .9 for c in c2) / len(c2)))
    lc = collections.Counter(lang[r["content"]] for r in rows)
    out.append("language: non-English %d (%.1f%%) %s" % (n - lc["en"], 100 * (n - lc["en"]) / n, dict(sorted(lc.items()))))
    out.append("format: %s" % pct(collections.Counter(fmt(r["content"]) for r in rows), n))
    out.append("contains full address: %.0f%%; contains emoji/non-ASCII symbol: %.0f%%; multi-line: %.0f%%" % (
        100 * sum(bool(ADDR.search(r["content"])) for r in rows) / n,
        100 * sum(bool(re.search(r"[\U0001F300-\U0001FAFF\u2600-\u27BF]", r["content"])) for r in rows) / n,
        100 * sum("\n" in r["content"] for r in rows) / n))
    if name == "poisoned":
        for cls in sorted(set(r["class"] for r in rows)):
            cl = [len(r["content"]) for r in rows if r["class"] == cls]
            out.append("  %-24s n=%d median len %d" % (cls, len(cl), statistics.median(cl)))
print("\n".join(out))
