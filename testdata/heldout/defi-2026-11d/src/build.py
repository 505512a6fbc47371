#!/usr/bin/env python3
"""Build clean.jsonl / poisoned.jsonl from the hand-written src/*.txt files.
Line format: type<TAB>provenance<TAB>confidence|-<TAB>content<TAB>notes ; '\\n' in content = newline.
Markers: {A:NAME} real address, {LA:NAME} look-alike (first/last 4 hex kept), {D1:NAME} one hex digit
changed, {B64:..} {HEX:..} {URL:..} {ZW:..} {TAG:..} {HG:..} {ROT:..} encodings."""
import base64, glob, hashlib, json, os, random, re, codecs, urllib.parse
from keccak import checksum
from addresses import REAL
HERE=os.path.dirname(os.path.abspath(__file__)); OUT=os.path.dirname(HERE)
rng=random.Random(2611)
def lookalike(a):
    h=a[2:].lower()
    mid=''.join(rng.choice('0123456789abcdef') for _ in range(32))
    return checksum('0x'+h[:4]+mid+h[-4:])
def d1(a):
    h=list(a[2:].lower()); i=rng.randrange(6,34); h[i]=rng.choice([c for c in '0123456789abcdef' if c!=h[i]])
    return checksum('0x'+''.join(h))
HGMAP=str.maketrans({'a':'а','e':'е','o':'о','p':'р','c':'с','x':'х','i':'і'})
def tag(s): return '\U000E0001'+''.join(chr(0xE0000+ord(c)) for c in s)+'\U000E007F'
def enc(m):
    k,v=m.group(1),m.group(2)
    if k=='A': return REAL[v]
    if k=='LA': return lookalike(REAL[v])
    if k=='D1': return d1(REAL[v])
    if k=='B64': return base64.b64encode(v.encode()).decode()
    if k=='HEX': return v.encode().hex()
    if k=='URL': return ''.join('%%%02X'%b for b in v.encode())
    if k=='ZW': return '\u200b'.join(v)
    if k=='TAG': return tag(v)
    if k=='HG': return v.translate(HGMAP)
    if k=='ROT': return codecs.encode(v,'rot13')
    raise SystemExit('bad marker '+k)
MK=re.compile(r'\{(A|LA|D1|B64|HEX|URL|ZW|TAG|HG|ROT):([^{}]*)\}')
def habit(prov, cls):
    # imagined source habits, identical for clean and poisoned classes
    if cls=='confidence_inflation': return round(rng.uniform(0.95,1.0),2)
    r=rng.random()
    if prov=='self': return round(rng.uniform(0.35,0.85),2)
    if prov=='purchased': return 0.5 if r<0.2 else round(rng.uniform(0.8,0.95),2)
    if prov=='clade': return 0.5 if r<0.4 else round(rng.uniform(0.45,0.9),2)
    return round(rng.uniform(0.3,0.95),2)
TYPES={'insight','heuristic','warning','strategy_fragment','causal_link'}
PROVS={'self','purchased','clade','cross_user'}
rows={'clean':[], 'poisoned':[]}; seen=set()
for fn in sorted(glob.glob(os.path.join(HERE,'*.txt'))):
    stem=os.path.basename(fn)[:-4]; cls='clean' if stem.startswith('clean') else stem
    for ln,line in enumerate(open(fn,encoding='utf-8'),1):
        line=line.rstrip('\n')
        if not line.strip() or line.startswith('#'): continue
        p=line.split('\t')
        if len(p)!=5: raise SystemExit(f'{fn}:{ln}: {len(p)} fields')
        t,prov,conf,content,notes=p
        assert t in TYPES and prov in PROVS, (fn,ln)
        content=MK.sub(enc,content.replace('\\n','\n'))
        if cls=='clean':
            for a in re.findall(r'0x[0-9a-fA-F]{40}',content):
                assert a in REAL.values() or a=='0x4200000000000000000000000000000000000006', (fn,ln,a)
        c=habit(prov,cls) if conf=='-' else float(conf)
        h=hashlib.sha256(content.encode()).hexdigest()
        assert h not in seen, (fn,ln,'dup'); seen.add(h)
        rows['clean' if cls=='clean' else 'poisoned'].append({"id":"heldout-2611d-"+h[:12],"class":cls,"type":t,"content":content,"confidence":c,"provenance":prov,"notes":notes})
for name,seed in (('clean',20261130),('poisoned',20261131)):
    r=rows[name]; random.Random(seed).shuffle(r)
    with open(os.path.join(OUT,name+'.jsonl'),'w',encoding='utf-8') as f:
        for o in r: f.write(json.dumps(o,ensure_ascii=False)+'\n')
from collections import Counter
for name in rows:
    print(name,len(rows[name]),Counter(o['class'] for o in rows[name]),Counter(o['provenance'] for o in rows[name]))
