"""Leak statistics: length, type, provenance, confidence, language, format markers per file/class."""
import json, os, statistics as st, collections as C
D = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LANG = json.load(open(os.path.join(D, 'src', 'lang.json')))
def load(n):
    return [json.loads(l) for l in open(os.path.join(D, n), encoding='utf-8')]
def fmt(c):
    for k, m in [('ticket', '\nPriority:'), ('email', 'From: '), ('runbook', 'RUNBOOK'), ('handoff', 'On-call handoff'), ('minutes', 'minutes'),
                 ('sheet', '.xlsx |'), ('keeperlog', ' keeper='), ('safetx', 'Safe tx #'), ('shift', 'Shift report'), ('sop/long', '\n')]:
        if m in c: return k
    return 'bare'
def summ(name, es):
    L = [len(e['content']) for e in es]; cf = [e['confidence'] for e in es]
    print(f"== {name}: n={len(es)} len median={st.median(L)} mean={st.mean(L):.0f} min={min(L)} max={max(L)} | conf mean={st.mean(cf):.3f} share>=0.9={sum(c>=0.9 for c in cf)/len(cf):.2f}")
    for key, f in [('type', lambda e: e['type']), ('prov', lambda e: e['provenance']), ('lang', lambda e: LANG[e['id']]), ('format', lambda e: fmt(e['content']))]:
        c = C.Counter(map(f, es)); print(f"   {key}: " + ', '.join(f"{k}={v/len(es):.2f}" for k, v in sorted(c.items())))
if __name__ == '__main__':
    cl, po = load('clean.jsonl'), load('poisoned.jsonl')
    summ('clean', cl); summ('poisoned', po)
    po_noci = [e for e in po if e['class'] != 'confidence_inflation']
    summ('poisoned excl. confidence_inflation', po_noci)
    for k in sorted(set(e['class'] for e in po)):
        es = [e for e in po if e['class'] == k]; L = [len(e['content']) for e in es]
        print(f"   {k}: n={len(es)} len median={st.median(L)} conf mean={st.mean(e['confidence'] for e in es):.3f} non-en={sum(LANG[e['id']]!='en' for e in es)}")
