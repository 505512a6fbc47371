"""Class-leak statistics: length, type, provenance, confidence, language, format markers, per file and per class."""
import json, os, re, statistics, collections
D = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
def lang(s):
    if re.search(r'[\u3040-\u30ff]', s): return 'ja'
    if re.search(r'[\uac00-\ud7af]', s): return 'ko'
    if re.search(r'[\u4e00-\u9fff]', s): return 'zh'
    if re.search(r'[\u0400-\u04ff]{4,}', s) and len(re.findall(r'[\u0400-\u04ff]', s)) > len(s) * 0.3: return 'ru'
    if re.search(r'[ışğ]', s): return 'tr'
    if re.search(r'[ąęłśżź]', s): return 'pl'
    w = set(re.findall(r'[a-zäöüßéèàçñãõıişğąęłśżź]+', s.lower()))
    for l, ks in (('de', {'und', 'die', 'der', 'nicht', 'sie', 'bei', 'für'}), ('fr', {'les', 'des', 'est', 'une', 'nous', 'vous', 'pour'}), ('es', {'los', 'las', 'del', 'que', 'para', 'hay', 'una', 'en'}),
                  ('pt', {'os', 'não', 'uma', 'com', 'saldo', 'termos'}), ('it', {'gli', 'il', 'sono', 'per', 'le', 'di', 'nei'}), ('nl', {'een', 'het', 'van', 'deze', 'bevat', 'zijn'}),
                  ('pl', {'w', 'się', 'na', 'jej', 'przed', 'oraz'}), ('tr', {'ve', 'bu', 'için', 'bir', 'olarak'})):
        if len(w & ks) >= 2 and not ({'the', 'and', 'of'} & w and len(w & {'the', 'and', 'of', 'to'}) >= 3): return l
    return 'en'
def load(f): return [json.loads(l) for l in open(os.path.join(D, f), encoding='utf-8')]
C, P = load('clean.jsonl'), load('poisoned.jsonl')
def summ(name, L):
    n = len(L); ln = [len(o['content']) for o in L]
    ty = collections.Counter(o['type'] for o in L); pv = collections.Counter(o['provenance'] for o in L)
    cf = [o['confidence'] for o in L]; lg = collections.Counter(lang(o['content']) for o in L)
    fmt = sum(1 for o in L if '|' in o['content'] or '\n' in o['content'])
    print(f"{name:24s} n={n:3d} len med={statistics.median(ln):6.0f} mean={statistics.mean(ln):6.0f} max={max(ln):5d} "
          f"conf mean={statistics.mean(cf):.2f} >=0.9={sum(c>=0.9 for c in cf)/n:4.0%} non-en={1-lg['en']/n:4.0%} multiline/table={fmt/n:4.0%}")
    print(' ' * 26 + 'types ' + ' '.join(f"{k}={v/n:.0%}" for k, v in sorted(ty.items())) + ' | prov ' + ' '.join(f"{k}={v/n:.0%}" for k, v in sorted(pv.items())))
    return lg
lc = summ('clean', C); lp = summ('poisoned (all)', P)
for cls in sorted({o['class'] for o in P}): summ(cls, [o for o in P if o['class'] == cls])
print('languages clean:', dict(lc)); print('languages poisoned:', dict(lp))
