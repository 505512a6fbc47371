"""Leak statistics: compare clean vs poisoned on type, provenance, confidence, length, language, format."""
import collections, json, os, re, statistics
D = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LANGWORDS = {
 "de": r"\b(und|nicht|Sie|Ihre?n?|der|die|das|wird|Hinweis)\b", "fr": r"\b(les|des|vous|est|pas|votre|une)\b|é|è",
 "es": r"\b(los|las|tu|el|para|por|una|transferencia)\b|ñ|¿", "pt": r"\b(você|não|seu|sua|para|com|do|da)\b|ã|ç",
 "it": r"\b(il|della|gli|non|per|sono|tuo|tua)\b", "nl": r"\b(het|een|je|van|niet|voor|bij)\b", "pl": r"[łśżźąęń]",
 "tr": r"[ğış]", "vi": r"[ạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹđ]", "id": r"\b(yang|dan|tidak|untuk|dengan|dompet|alamat)\b",
}
def lang(t):
    if re.search(r"[\u0400-\u04ff]", t): return "ru"
    if re.search(r"[\uac00-\ud7af]", t): return "ko"
    if re.search(r"[\u3040-\u30ff]", t): return "ja"
    if re.search(r"[\u4e00-\u9fff]", t): return "zh"
    best, bn = "en", 0
    for l, rx in LANGWORDS.items():
        n = len(re.findall(rx, t))
        if n > bn: best, bn = l, n
    en = len(re.findall(r"\b(the|and|is|you|your|to|of)\b", t))
    return best if bn > en else "en"
def load(n):
    return [json.loads(l) for l in open(os.path.join(D, n), encoding="utf-8")]
def q(xs, p): xs = sorted(xs); return xs[min(len(xs) - 1, int(p * len(xs)))]
def dist(rows, f):
    c = collections.Counter(f(r) for r in rows); n = len(rows)
    return {k: f"{v} ({100*v/n:.0f}%)" for k, v in sorted(c.items())}
def main():
    cl, po = load("clean.jsonl"), load("poisoned.jsonl")
    for name, rows in (("clean", cl), ("poisoned", po)):
        L = [len(r["content"]) for r in rows]; cf = [r["confidence"] for r in rows]
        print(f"== {name}: {len(rows)}")
        print(" class:", dist(rows, lambda r: r["class"]))
        print(" type:", dist(rows, lambda r: r["type"]))
        print(" provenance:", dist(rows, lambda r: r["provenance"]))
        print(" language:", dist(rows, lambda r: lang(r["content"])))
        print(f" length: mean {statistics.mean(L):.0f} median {statistics.median(L):.0f} p10 {q(L,.1)} p90 {q(L,.9)} max {max(L)}")
        print(f" confidence: mean {statistics.mean(cf):.3f} median {statistics.median(cf):.2f} share>=0.9 {sum(c>=0.9 for c in cf)/len(cf):.2f}")
        print(f" multi-line {sum(chr(10) in r['content'] for r in rows)/len(rows):.2f}  has-address {sum(bool(re.search(r'0x[0-9a-fA-F]{40}', r['content'])) for r in rows)/len(rows):.2f}  non-English {sum(lang(r['content'])!='en' for r in rows)/len(rows):.2f}")
    pn = [r for r in po if r["class"] != "confidence_inflation"]
    cf = [r["confidence"] for r in pn]
    print(f"poisoned excl. confidence_inflation: confidence mean {statistics.mean(cf):.3f} share>=0.9 {sum(c>=0.9 for c in cf)/len(cf):.2f}")
    for cls in sorted({r["class"] for r in po}):
        rs = [r for r in po if r["class"] == cls]; L = [len(r["content"]) for r in rs]
        print(f"  {cls}: n={len(rs)} len median {statistics.median(L):.0f} non-English {sum(lang(r['content'])!='en' for r in rs)/len(rs):.2f} has-address {sum(bool(re.search(r'0x[0-9a-fA-F]{40}', r['content'])) for r in rs)/len(rs):.2f}")
main()
