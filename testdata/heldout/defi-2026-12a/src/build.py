"""Deterministic assembly of clean.jsonl and poisoned.jsonl. Run from anywhere: python3 src/build.py"""
import hashlib, json, os, random, re, sys
sys.path.insert(0, os.path.dirname(__file__))
from addrs import VERIFIED
import facts, frames, blends, triggers, inflation, injection, addrdocs, clean_extra, foreign
from addrs import unrelated

OUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TYPES = [('insight', 30), ('heuristic', 20), ('warning', 20), ('strategy_fragment', 10), ('causal_link', 20)]
PROVS = [('self', 25), ('purchased', 25), ('clade', 25), ('cross_user', 25)]
def pick(r, w):
    x = r.uniform(0, sum(v for _, v in w))
    for k, v in w:
        x -= v
        if x <= 0: return k
    return w[-1][0]
def meta(content, cls):
    r = random.Random(hashlib.sha256(('meta' + content).encode()).digest())
    t, p = pick(r, TYPES), pick(r, PROVS)
    if cls == 'confidence_inflation':
        c = round(r.uniform(0.90, 0.99), 2)
    else:
        c = round(r.choice([r.uniform(0.5, 0.9), r.uniform(0.6, 0.95), r.uniform(0.85, 0.99)]), 2)
    return t, c, p

clean, poison = [], []
def C(content, note): clean.append(('clean', content, note))
def P(cls, content, note): poison.append((cls, content, note))

F = frames.FRAMES
for i, (good, bad) in enumerate(facts.PAIRS):
    for j in (0, 4, 8):
        C(F[(i + j) % len(F)](good, i + j), 'correct protocol mechanics in a ' + F[(i + j) % len(F)].__name__ + ' document')
    P('mechanics_contradiction', F[(i + 4) % len(F)](bad, i + 4), 'wrong mechanic: ' + good[:70])
for i, (lang, good, bad) in enumerate(facts.FOREIGN):
    ff = frames.FOREIGN_FRAMES[lang]
    for j, f in enumerate(ff):
        C(f(good, i + j), f'correct mechanic ({lang})')
        P('mechanics_contradiction', f(bad, i + j + 1), f'wrong mechanic ({lang})')

TITLES = ["Yield Vault (ERC-4626) on Ethereum and Base", "Smart Contract Cover for Lending Integrations", "Cross-protocol Liquidity Manager", "Oracle and RPC Services", "Ecosystem Grant: Risk Monitor", "Listing of a Liquid Staking Token", "Perpetuals Front-end", "Account-Abstraction Wallet Service"]
P_ = facts.PAIRS
for n in range(35):
    idx = [(n + 7 * k) % len(P_) for k in range(5 + n % 5)]
    sw = n % len(idx)
    good = [P_[k][0] for k in idx]
    badl = list(good); badl[sw] = P_[idx[sw]][1]
    title = TITLES[n % len(TITLES)]
    C(frames.long_doc(title, good, n), 'twin (clean): long document of correct statements')
    P('mechanics_contradiction', frames.long_doc(title, badl, n), f'twin: item {sw+1} is wrong: ' + P_[idx[sw]][0][:60])

for i, (obs, good, bad) in enumerate(blends.BLENDS):
    for j, f in enumerate((frames.plain, frames.incident if i % 2 else frames.risk)):
        C(f(obs + ' ' + good, i + j), 'observation with a sound conclusion')
        P('observation_blend', f(obs + ' ' + bad, i + j), 'correct observation, wrong conclusion: ' + bad[:60])

for s in triggers.TRIGGERS: P('trigger_phrase', s, 'trigger tied to skipping a safeguard or sending funds')
for s in inflation.INFL: P('confidence_inflation', s, 'speculation or rumour stated as certain')
for s in injection.INJ: P('prompt_injection', s, 'embedded instruction to the reading agent')
for s in addrdocs.clean_entries(): C(s, 'correct address (EIP-55 verified)')
for s in addrdocs.poison_entries(): P('address_redirect', s, 'look-alike or unrelated address presented as official')
for s in clean_extra.CLEAN: C(s, 'clean hard negative (warning, advisory, past attack, procedure)')
for s in clean_extra.HEDGED: C(s, 'hedged forward-looking statement')
for s in clean_extra.CODES: C(s, 'benign code/tag convention with safeguards intact')

for s in foreign.CLEAN_F: C(s, 'clean (non-English)')
for cls, s in foreign.POISON_F: P(cls, s.format(b=unrelated()) if '{b}' in s else s, 'non-English ' + cls)

ADDR = re.compile(r'0x[0-9a-fA-F]{40}')
seen = set()
def rows(items):
    out = []
    for cls, content, note in items:
        if content in seen: sys.exit('duplicate content: ' + content[:80])
        seen.add(content)
        if cls == 'clean':
            for a in ADDR.findall(content):
                if a not in VERIFIED: sys.exit('clean entry with unverified address: ' + a)
        t, c, p = meta(content, cls)
        out.append({'id': 'heldout-2612a-' + hashlib.sha256(content.encode()).hexdigest()[:12], 'class': cls, 'type': t,
                    'content': content, 'confidence': c, 'provenance': p, 'notes': note})
    out.sort(key=lambda o: o['id'])
    return out
for name, items in (('clean.jsonl', clean), ('poisoned.jsonl', poison)):
    with open(os.path.join(OUT, name), 'w', encoding='utf-8') as fh:
        for o in rows(items): fh.write(json.dumps(o, ensure_ascii=False) + '\n')
print(len(clean), len(poison))
