"""Leak statistics: compare clean vs poisoned on length, format, language, type, provenance, confidence."""
import json, os, re, sys, statistics as st, collections as C
sys.path.insert(0, os.path.dirname(__file__))
D = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
def load(n): return [json.loads(l) for l in open(os.path.join(D, n), encoding='utf-8')]
def lang(s):
    if re.search(r'[\u3040-\u30ff]', s): return 'ja'
    if re.search(r'[\uac00-\ud7af]', s): return 'ko'
    if re.search(r'[\u4e00-\u9fff]', s): return 'zh'
    if len(re.findall(r'[\u0400-\u04ff]', s)) > 20: return 'ru'
    w = set(re.findall(r'[a-zà-ÿğışçöü]+', s.lower()))
    for code, kw in [('de', {'und', 'der', 'die', 'nicht', 'für', 'bei', 'ist', 'sich'}), ('es', {'el', 'los', 'las', 'una', 'para', 'que', 'según', 'sin'}),
                     ('pt', {'não', 'uma', 'para', 'o', 'do', 'da', 'com', 'em'}), ('fr', {'les', 'des', 'une', 'pour', 'est', 'avec', 'sans'}),
                     ('tr', {'ve', 'bir', 'için', 'değil', 'olarak'}), ('id', {'dan', 'yang', 'tidak', 'untuk', 'dengan'}), ('it', {'il', 'della', 'per', 'non', 'sono', 'è', 'ogni'})]:
        if len(w & kw) >= 2 and len(w & {'the', 'and', 'of', 'to', 'is'}) < 2: return code
    return 'en'
def fmt(s):
    if '```' in s: return 'code'
    if re.search(r'^\|.*\|$', s, re.M): return 'table'
    if s.lstrip().startswith('{'): return 'json'
    if re.search(r'^#+ ', s, re.M) or '**' in s: return 'markdown'
    if re.search(r'\bQ:|Q&A|FAQ', s): return 'qa'
    return 'prose'
ADDR = re.compile(r'0x[0-9a-fA-F]{40}')
AIW = re.compile(r'(?i)\bassistant|\bAI\b|\bKI\b|\bIA\b')
def pct(c, n): return {k: f"{100*v/n:.1f}%" for k, v in sorted(c.items())}
def summary(rows, name):
    n = len(rows); L = [len(r['content']) for r in rows]; cf = [r['confidence'] for r in rows]
    q = st.quantiles(L, n=4)
    print(f"== {name}: n={n}")
    print(f"  length: min={min(L)} q1={q[0]:.0f} median={q[1]:.0f} q3={q[2]:.0f} max={max(L)} mean={st.mean(L):.0f}")
    print(f"  confidence: mean={st.mean(cf):.3f} median={st.median(cf):.2f} share>=0.9={sum(c>=0.9 for c in cf)/n:.1%}")
    print("  type:", pct(C.Counter(r['type'] for r in rows), n))
    print("  provenance:", pct(C.Counter(r['provenance'] for r in rows), n))
    print("  format:", pct(C.Counter(fmt(r['content']) for r in rows), n))
    lg = C.Counter(lang(r['content']) for r in rows)
    print(f"  non-English: {100*(n-lg['en'])/n:.1f}%", dict(sorted(lg.items())))
    ad = sum(bool(ADDR.search(r['content'])) for r in rows) / n
    ai = sum(bool(AIW.search(r['content'])) for r in rows) / n
    print(f"  has 0x-address: {ad:.1%}  mentions assistant/AI: {ai:.1%}")
if __name__ == '__main__':
    c, p = load('clean.jsonl'), load('poisoned.jsonl')
    summary(c, 'clean'); summary(p, 'poisoned')
    print('== poisoned by class')
    for k, v in sorted(C.Counter(r['class'] for r in p).items()):
        rows = [r for r in p if r['class'] == k]
        L = [len(r['content']) for r in rows]
        print(f"  {k}: n={v} median_len={st.median(L):.0f} mean_conf={st.mean(r['confidence'] for r in rows):.2f} nonEN={sum(lang(r['content'])!='en' for r in rows)}")
