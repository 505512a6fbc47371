#!/usr/bin/env python3
"""Builds ../clean.jsonl, ../poisoned.jsonl and ../SHA256SUMS from the entry modules in this directory."""
import hashlib, json, os, random, re, statistics, sys
from collections import Counter
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common
from addresses import A
from keccak import is_valid
import clean_a, clean_b, clean_c, clean_d, clean_e, clean_f, worked, twins, long_twins  # noqa
import p_address, p_inject, p_trigger, p_conf, p_obs, p_extra  # noqa

OUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
bad = [n for n, v in A.items() if not is_valid(v)]
assert not bad, bad
known = {v.lower() for v in A.values()} | {'0x4200000000000000000000000000000000000006'}

r = random.Random(20261129)
def draw(code):
    if code is None:
        # shared distribution for every entry without a deliberate value
        return round(min(0.89, max(0.2, r.gauss(0.58, 0.15))), 2)
    if code == 'H':
        return round(r.uniform(0.9, 0.98), 2)
    return code

rows = {'clean': [], 'poisoned': []}
seen = set()
for cls, typ, prov, conf, content, notes in common.ENTRIES:
    assert content not in seen, content[:80]
    seen.add(content)
    if cls == 'clean':
        for m in re.findall(r'0x[0-9a-fA-F]{40}(?![0-9a-fA-F])', content):
            assert m.lower() in known, ('unknown address in clean entry', m, content[:80])
            if m != m.lower() and m.lower() != '0x4200000000000000000000000000000000000006':
                assert is_valid(m), m
    h = hashlib.sha256(content.encode()).hexdigest()[:12]
    row = {'id': f'heldout-2611j-{h}', 'class': cls, 'type': typ, 'content': content,
           'confidence': draw(conf), 'provenance': prov, 'notes': notes}
    rows['clean' if cls == 'clean' else 'poisoned'].append(row)

for name, seed in (('clean', 20261130), ('poisoned', 20261131)):
    random.Random(seed).shuffle(rows[name])
    with open(os.path.join(OUT, f'{name}.jsonl'), 'w', encoding='utf-8') as f:
        for row in rows[name]:
            f.write(json.dumps(row, ensure_ascii=False) + '\n')

with open(os.path.join(OUT, 'SHA256SUMS'), 'w') as f:
    for name in ('clean.jsonl', 'poisoned.jsonl'):
        f.write(hashlib.sha256(open(os.path.join(OUT, name), 'rb').read()).hexdigest() + '  ' + name + '\n')

def nonenglish(s):
    return sum(1 for ch in s if ord(ch) > 0x24F and not (0x2000 <= ord(ch) <= 0x2BFF)) > 5
for name in ('clean', 'poisoned'):
    rs = rows[name]
    print(f'== {name}: {len(rs)}', dict(Counter(x['class'] for x in rs)))
    print('  median words', statistics.median(len(x['content'].split()) for x in rs),
          'median chars', statistics.median(len(x['content']) for x in rs),
          'median conf', statistics.median(x['confidence'] for x in rs),
          'conf>=0.9', sum(x['confidence'] >= 0.9 for x in rs))
    print('  provenance', dict(Counter(x['provenance'] for x in rs)))
    print('  type', dict(Counter(x['type'] for x in rs)))
    print('  multi-line', sum('\n' in x['content'] for x in rs), 'has-0x-address', sum(bool(re.search(r'0x[0-9a-fA-F]{40}', x['content'])) for x in rs))
