#!/usr/bin/env python3
"""Expand markers in the hand-written entries and write ../clean.jsonl, ../poisoned.jsonl, ../SHA256SUMS.

Markers inside content:
  {A:NAME}  real address, EIP-55        {a:NAME}  real address, lower case     {n:NAME} real, no 0x, lower
  {L:NAME}  look-alike (first/last 5 hex kept, middle redrawn, valid EIP-55)
  {l:NAME}  look-alike lower case       {nl:NAME} look-alike, no 0x, lower case
  {g:NAME}  look-alike split in groups of 4 hex     {L4:NAME} look-alike keeping first/last 4 only
  {R:tag}   attacker address (random, valid EIP-55)  {r:tag} same, lower case
  {B64:text} base64   {HEX:text} hex   {ZW:text} zero-width spaces between characters
"""
import base64, hashlib, json, os, random, re, sys
sys.path.insert(0, os.path.dirname(__file__))
import eip55
from addresses import A, NO_LETTERS

for k, v in A.items():
    if k not in NO_LETTERS and not eip55.valid(v):
        sys.exit(f"address {k} {v} fails EIP-55")

_look = {}
def lookalike(name, keep=5):
    key = (name, keep)
    if key in _look: return _look[key]
    real = A[name]
    h = real[2:]
    rng = random.Random(f"look-{name}-{keep}")
    best = None
    for i in range(4000):
        mid = ''.join(rng.choice('0123456789abcdef') for _ in range(40 - 2 * keep))
        cand = eip55.checksum(h[:keep].lower() + mid + h[-keep:].lower())
        if cand.lower() == real.lower(): continue
        if best is None: best = cand
        if cand[2:2+keep] == h[:keep] and cand[-keep:] == h[-keep:]:
            best = cand; break
    _look[key] = best
    return best

def attacker(tag):
    rng = random.Random(f"atk-{tag}")
    return eip55.checksum(''.join(rng.choice('0123456789abcdef') for _ in range(40)))

def expand(s):
    def rep(m):
        kind, arg = m.group(1), m.group(2)
        if kind == 'A': return A[arg]
        if kind == 'a': return A[arg].lower()
        if kind == 'n': return A[arg][2:].lower()
        if kind == 'L': return lookalike(arg)
        if kind == 'L4': return lookalike(arg, 4)
        if kind == 'l': return lookalike(arg).lower()
        if kind == 'nl': return lookalike(arg)[2:].lower()
        if kind == 'g':
            h = lookalike(arg)[2:]
            return '0x ' + ' '.join(h[i:i+4] for i in range(0, 40, 4))
        if kind == 'R': return attacker(arg)
        if kind == 'r': return attacker(arg).lower()
        if kind == 'B64': return base64.b64encode(arg.encode()).decode()
        if kind == 'HEX': return arg.encode().hex()
        if kind == 'ZW': return '\u200b'.join(arg)
        raise ValueError(kind)
    return re.sub(r'\{(A|a|n|L4|L|l|nl|g|R|r|B64|HEX|ZW):([^{}]+)\}', rep, s)

TYPES = {'insight', 'heuristic', 'warning', 'strategy_fragment', 'causal_link'}
PROVS = {'self', 'purchased', 'clade', 'cross_user'}
CLASSES = {'clean', 'trigger_phrase', 'address_redirect', 'observation_blend',
           'mechanics_contradiction', 'confidence_inflation', 'prompt_injection'}

def load(modname, cls_default=None):
    mod = __import__(modname)
    return mod.ENTRIES

def build():
    import entries_clean_a, entries_clean_b, entries_clean_c
    import entries_pois_a, entries_pois_b, entries_pois_c
    out = {'clean': [], 'poisoned': []}
    crng = random.Random(202611291)
    seen = set()
    for mod in (entries_clean_a, entries_clean_b, entries_clean_c, entries_pois_a, entries_pois_b, entries_pois_c):
        for e in mod.ENTRIES:
            cls, typ, prov, conf, content, notes = e
            assert cls in CLASSES and typ in TYPES and prov in PROVS, e
            if conf is None:
                conf = round(crng.uniform(0.3, 0.72), 2)
            text = expand(content)
            if text in seen: sys.exit("duplicate: " + text[:80])
            seen.add(text)
            if cls == 'clean':
                real = {v.lower() for v in A.values()}
                for m in re.findall(r'(?<![0-9a-fA-Fx])0x[0-9a-fA-F]{40}(?![0-9a-fA-F])', text):
                    if m.lower() not in real and 'dummy' not in notes:
                        sys.exit(f"clean entry with unknown address {m}: {text[:80]}")
            rec = {"id": "heldout-2611i-" + hashlib.sha256(text.encode()).hexdigest()[:12],
                   "class": cls, "type": typ, "content": text, "confidence": conf,
                   "provenance": prov, "notes": expand(notes)}
            out['clean' if cls == 'clean' else 'poisoned'].append(rec)
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    random.Random(20261129).shuffle(out['clean'])
    random.Random(20261130).shuffle(out['poisoned'])
    for name in ('clean', 'poisoned'):
        with open(os.path.join(root, name + '.jsonl'), 'w', encoding='utf-8') as f:
            for r in out[name]:
                f.write(json.dumps(r, ensure_ascii=False) + '\n')
    with open(os.path.join(root, 'SHA256SUMS'), 'w') as f:
        for name in ('clean', 'poisoned'):
            d = hashlib.sha256(open(os.path.join(root, name + '.jsonl'), 'rb').read()).hexdigest()
            f.write(f"{d}  {name}.jsonl\n")
    from collections import Counter
    c = Counter(r['class'] for r in out['clean'] + out['poisoned'])
    for k, v in sorted(c.items()): print(k, v)

if __name__ == '__main__':
    build()
