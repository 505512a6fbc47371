"""Leak check: compare clean vs poisoned on surface features. python3 src/stats.py"""
import json, os, re, statistics
from collections import Counter
D = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
def load(n): return [json.loads(l) for l in open(os.path.join(D, n), encoding="utf-8")]
C, P = load("clean.jsonl"), load("poisoned.jsonl")
ADDR = re.compile(r"0x[0-9a-fA-F]{40}")
LATIN_EN = re.compile(r"\b(the|and|is|of|to)\b", re.I)
EN = set("the and is of to a in for on are be it that with as by not this from at or an if can".split())
LANGW = {"de": "der die das und nicht ist eine einer werden wird auf mit im bei".split(), "es": "el los las para una del que por con es se".split(),
         "pt": "não os uma ao que para com são é do da".split(), "fr": "le les des une est que pour dans sur avec du".split(),
         "tr": "ve bir için bu olarak daha".split(), "vi": "và của được các trên khi cho".split(), "pl": "nie dla jest się".split()}
def lang(t):
    if re.search(r"[\u3040-\u30ff]", t): return "ja"
    if re.search(r"[\uac00-\ud7af]", t): return "ko"
    if re.search(r"[\u4e00-\u9fff]", t): return "zh"
    words = re.findall(r"[^\W\d_]+", t.lower())
    if not words: return "en"
    cyr = sum(bool(re.search(r"[\u0400-\u04ff]", w)) for w in words)
    if cyr / len(words) > 0.4: return "ru"
    en = sum(w in EN for w in words) / len(words)
    if en >= 0.06: return "en"
    best = max(LANGW, key=lambda k: sum(w in LANGW[k] for w in words))
    return best if sum(w in LANGW[best] for w in words) else "other"
def fmt(t):
    s = t.lstrip()
    if s.startswith("{"): return "json"
    if "|---" in t: return "md_table"
    if re.match(r"^[a-z_]+:\s*(\n|$)", s) or re.search(r"^\s+- \w+:", t, re.M): return "yaml"
    if "\n- " in t or "\n1. " in t: return "list"
    if "\n" in t: return "multiline_prose"
    return "one_paragraph"
def q(xs, p): xs = sorted(xs); return xs[min(len(xs) - 1, int(p * len(xs)))]
def show(title, fc, fp):
    keys = sorted(set(fc) | set(fp))
    print(f"\n{title}\n  {'value':22s} {'clean':>7s} {'pois':>7s}")
    for k in keys:
        print(f"  {str(k):22s} {fc.get(k,0)/len(C):7.1%} {fp.get(k,0)/len(P):7.1%}")
print("counts: clean", len(C), "poisoned", len(P))
print("poisoned per class:", dict(Counter(e["class"] for e in P)))
show("type", Counter(e["type"] for e in C), Counter(e["type"] for e in P))
show("provenance", Counter(e["provenance"] for e in C), Counter(e["provenance"] for e in P))
show("language", Counter(lang(e["content"]) for e in C), Counter(lang(e["content"]) for e in P))
show("format", Counter(fmt(e["content"]) for e in C), Counter(fmt(e["content"]) for e in P))
show("has full address", Counter(bool(ADDR.search(e["content"])) for e in C), Counter(bool(ADDR.search(e["content"])) for e in P))
for name, f in (("length (chars)", lambda e: len(e["content"])), ("confidence", lambda e: e["confidence"])):
    a, b = [f(e) for e in C], [f(e) for e in P]
    print(f"\n{name}: clean mean {statistics.mean(a):.2f} median {statistics.median(a):.2f} p10 {q(a,.1)} p90 {q(a,.9)} max {max(a)}")
    print(f"{' '*len(name)}  pois  mean {statistics.mean(b):.2f} median {statistics.median(b):.2f} p10 {q(b,.1)} p90 {q(b,.9)} max {max(b)}")
print("\nconfidence >= 0.90: clean %.1f%%, poisoned %.1f%%, poisoned excl. confidence_inflation %.1f%%" % (
    100 * sum(e["confidence"] >= .9 for e in C) / len(C), 100 * sum(e["confidence"] >= .9 for e in P) / len(P),
    100 * sum(e["confidence"] >= .9 for e in P if e["class"] != "confidence_inflation") / sum(e["class"] != "confidence_inflation" for e in P)))
print("\nper-class mean length:", {k: round(statistics.mean(len(e["content"]) for e in P if e["class"] == k)) for k in sorted(set(e["class"] for e in P))})
print("per-class language non-en:", {k: sum(lang(e["content"]) != "en" for e in P if e["class"] == k) for k in sorted(set(e["class"] for e in P))})
nonascii = lambda t: any(ord(ch) > 0x2000 and (0x200b <= ord(ch) <= 0x200f or ord(ch) >= 0xE0000) for ch in t)
print("invisible/tag chars: clean", sum(nonascii(e["content"]) for e in C), "poisoned", sum(nonascii(e["content"]) for e in P))
