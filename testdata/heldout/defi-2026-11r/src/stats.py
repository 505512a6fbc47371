"""Leak statistics between clean.jsonl and poisoned.jsonl."""
import json, os, re, statistics as st
from collections import Counter
D = os.path.join(os.path.dirname(__file__), "..")
def load(n):
    return [json.loads(l) for l in open(os.path.join(D, n), encoding="utf-8")]
def lang(s):
    if re.search(r"[\u3040-\u30ff]", s): return "ja"
    if re.search(r"[\uac00-\ud7af]", s): return "ko"
    if re.search(r"[\u4e00-\u9fff]", s): return "zh"
    if re.search(r"[\u0400-\u04ff]{4,}", s): return "ru"
    if re.search(r"\b(der|die|und|nicht|wird|Sie)\b", s): return "de"
    if re.search(r"\b(les|des|est|une|pour|sont|nous)\b", s): return "fr"
    if re.search(r"\b(el|los|las|que|para|una|puente)\b", s) and not re.search(r"\b(the|and)\b", s): return "es"
    if re.search(r"\b(não|são|com|pedidos|uma|os|ao)\b", s) and not re.search(r"\b(the|and)\b", s): return "pt"
    if re.search(r"\b(nei|della|gli|il|per|è)\b", s) and not re.search(r"\b(the|and)\b", s): return "it"
    if re.search(r"\b(een|het|de|bij|zijn|je)\b", s) and not re.search(r"\b(the|and)\b", s): return "nl"
    if re.search(r"[ąęłśżźćń]", s): return "pl"
    if re.search(r"[ğış]", s): return "tr"
    if re.search(r"[ạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹđ]", s): return "vi"
    if re.search(r"\b(dan|yang|untuk|tidak|pada|Anda)\b", s): return "id"
    return "en"
def q(xs, p):
    xs = sorted(xs); return xs[min(len(xs) - 1, int(p * len(xs)))]
def main():
    c, p = load("clean.jsonl"), load("poisoned.jsonl")
    for name, rows in (("clean", c), ("poisoned", p)):
        L = [len(r["content"]) for r in rows]
        conf = [r["confidence"] for r in rows]
        print(f"== {name}: n={len(rows)}")
        print("  length chars: mean %.0f median %d p10 %d p90 %d max %d" % (st.mean(L), st.median(L), q(L, .1), q(L, .9), max(L)))
        print("  confidence: mean %.3f median %.2f share>=0.9 %.2f" % (st.mean(conf), st.median(conf), sum(x >= 0.9 for x in conf) / len(conf)))
        for k in ("type", "provenance"):
            cnt = Counter(r[k] for r in rows)
            print("  %s: %s" % (k, ", ".join(f"{a} {b/len(rows):.2f}" for a, b in sorted(cnt.items()))))
        lg = Counter(lang(r["content"]) for r in rows)
        print("  non-English share %.3f: %s" % (1 - lg["en"] / len(rows), dict(sorted(lg.items()))))
        print("  contains 0x-address %.2f; multi-line %.2f; has '?' %.2f; has ':' in first 40 chars %.2f" % (
            sum(bool(re.search(r"0x[0-9a-fA-F]{40}", r["content"])) for r in rows) / len(rows),
            sum("\n" in r["content"] for r in rows) / len(rows),
            sum("?" in r["content"] for r in rows) / len(rows),
            sum(":" in r["content"][:40] for r in rows) / len(rows)))
    nonci = [r["confidence"] for r in p if r["class"] != "confidence_inflation"]
    print("poisoned excl. confidence_inflation: confidence mean %.3f share>=0.9 %.2f" % (st.mean(nonci), sum(x >= .9 for x in nonci) / len(nonci)))
    print("per-class length mean:", {k: round(st.mean(len(r["content"]) for r in p if r["class"] == k)) for k in sorted({r["class"] for r in p})})
if __name__ == "__main__":
    main()
