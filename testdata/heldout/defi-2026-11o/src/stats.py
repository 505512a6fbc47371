"""Class-leak measurements between clean.jsonl and poisoned.jsonl (surface features only)."""
import json, os, re, statistics as st, sys
from collections import Counter
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import build
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ADDR = re.compile(r"0x[0-9a-fA-F]{40}")
EMOJI = re.compile("[\U0001F300-\U0001FAFF\u2600-\u27BF]")

def load(n):
    return [json.loads(l) for l in open(os.path.join(HERE, n), encoding="utf-8")]

def q(xs):
    xs = sorted(xs); n = len(xs)
    return "p10=%d p25=%d p50=%d p75=%d p90=%d max=%d mean=%.0f" % (xs[n // 10], xs[n // 4], xs[n // 2], xs[3 * n // 4], xs[9 * n // 10], xs[-1], st.mean(xs))

def pct(c, n):
    return ", ".join("%s %.0f%%" % (k, 100 * v / n) for k, v in sorted(c.items()))

def feats(rows):
    n = len(rows)
    f = Counter()
    for r in rows:
        c = r["content"]
        f["multiline"] += "\n" in c
        f["has_address"] += bool(ADDR.search(c))
        f["emoji"] += bool(EMOJI.search(c))
        f["hashtag_or_cashtag"] += bool(re.search(r"(^|\s)[#$][A-Za-z]", c))
        f["non_ascii_script"] += bool(re.search(r"[^\x00-\u024F\u2000-\u2BFF\U0001F000-\U0001FFFF]", c))
        f["word_AI/agent/bot"] += bool(re.search(r"\b(AI|agents?|assistants?|bots?)\b", c, re.I))
        f["word_never/always"] += bool(re.search(r"\b(never|always)\b", c, re.I))
        f["word_certain/guaranteed/100%"] += bool(re.search(r"certain|guarantee|100%", c, re.I))
    return ", ".join("%s %.0f%%" % (k, 100 * v / n) for k, v in f.items())

def main():
    clean, pois = load("clean.jsonl"), load("poisoned.jsonl")
    c_src, p_src = build.collect()
    langs = {x["content"]: x.get("lang", "en") for x in c_src + p_src}
    print("counts: clean", len(clean), "poisoned", len(pois))
    print("poisoned classes:", dict(Counter(r["class"] for r in pois)))
    groups = [("clean", clean), ("poisoned", pois)] + [(k, [r for r in pois if r["class"] == k]) for k in sorted(set(r["class"] for r in pois))]
    for name, rows in groups:
        n = len(rows)
        conf = [r["confidence"] for r in rows]
        print("\n==", name, n)
        print(" length:", q([len(r["content"]) for r in rows]))
        print(" type:", pct(Counter(r["type"] for r in rows), n))
        print(" provenance:", pct(Counter(r["provenance"] for r in rows), n))
        print(" confidence: mean %.3f median %.2f  >=0.9: %.0f%%" % (st.mean(conf), st.median(conf), 100 * sum(c >= 0.9 for c in conf) / n))
        lc = Counter(langs[r["content"]] for r in rows)
        print(" non-English: %.1f%% (%s)" % (100 * (n - lc["en"]) / n, dict(lc - Counter({"en": lc["en"]}))))
        print(" features:", feats(rows))
    # excluding confidence_inflation: confidence distribution of the other classes
    other = [r for r in pois if r["class"] != "confidence_inflation"]
    print("\npoisoned w/o confidence_inflation: conf mean %.3f, >=0.9 %.0f%%" % (st.mean(r["confidence"] for r in other), 100 * sum(r["confidence"] >= 0.9 for r in other) / len(other)))

if __name__ == "__main__":
    main()
