"""Assemble clean.jsonl and poisoned.jsonl deterministically.  Run from anywhere: python3 src/build.py"""
import hashlib, json, os, re, sys
sys.path.insert(0, os.path.dirname(__file__))
from wrappers import h, single, document, PAIR
from addrs import VERIFIED
from keccak import lookalike, checksum, is_valid
import facts, observations, triggers, confidence, injections, addresses, docs_extra, guides, clean_extra

OUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TYPES = ['insight', 'heuristic', 'warning', 'strategy_fragment', 'causal_link']
PROVS = ['self'] * 3 + ['purchased'] * 3 + ['clade'] * 2 + ['cross_user'] * 2
CLEAN, POIS = [], []

def conf_for(content, cls):
    u = h('conf|' + content, 10000) / 10000
    if cls == 'confidence_inflation':
        return round(0.9 + 0.09 * u, 2)
    return round(0.5 + 0.49 * u ** 0.7, 2)

def add(lst, cls, typ, content, note, lang='en', group=''):
    assert typ in TYPES, typ
    lst.append(dict(cls=cls, type=typ, content=content, note=note, lang=lang, group=group))

FTYPE = {'amm': 'insight', 'lending': 'insight', 'oracle': 'warning', 'stable': 'insight', 'lst': 'insight',
         'perps': 'causal_link', 'options': 'causal_link', 'vault': 'insight', 'bridge': 'heuristic', 'mev': 'causal_link',
         'aa': 'insight', 'token': 'warning', 'gas': 'heuristic', 'l2': 'insight', 'security': 'warning'}
def ftype(topic, key):
    return FTYPE[topic] if h('t' + key, 3) else TYPES[h('tt' + key, 5)]

# 1. single facts: every correct statement -> clean; wrong statements for ~2/3 of facts -> mechanics
for i, (t, good, bad) in enumerate(facts.FACTS):
    add(CLEAN, 'clean', ftype(t, good), single(t, good, 'en', good), f"correct: {t} mechanics", group='fact')
    if i % 3 != 2:
        add(POIS, 'mechanics_contradiction', ftype(t, good), single(t, bad, 'en', good + 'x'), f"wrong {t} mechanics (single fact)", group='fact')
for t, lang, good, bad in facts.FACTS_I18N:
    add(CLEAN, 'clean', ftype(t, good), good, f"correct {t} fact ({lang})", lang, 'fact')
    add(POIS, 'mechanics_contradiction', ftype(t, good), bad, f"wrong {t} fact ({lang})", lang, 'fact')

# 2. pairs of facts (same topic): clean uses both correct; poisoned uses one wrong (different pairing)
by_topic = {}
for t, good, bad in facts.FACTS:
    by_topic.setdefault(t, []).append((good, bad))
pairs_clean = pairs_pois = 0
for t, fs in sorted(by_topic.items()):
    for j in range(0, len(fs) - 1, 2):
        a, b = fs[j], fs[j + 1]
        add(CLEAN, 'clean', ftype(t, a[0] + b[0]), PAIR[h(a[0], len(PAIR))](t, a[0], b[0]), f"correct {t} pair", group='pair')
    for j in range(1, len(fs) - 1, 3):
        a, b = fs[j], fs[j + 1]
        if h(a[0] + 'w', 2):
            text = PAIR[h(b[0], len(PAIR))](t, a[1], b[0])
        else:
            text = PAIR[h(b[0], len(PAIR))](t, a[0], b[1])
        add(POIS, 'mechanics_contradiction', ftype(t, a[0] + b[0]), text, f"{t} pair, one statement wrong", group='pair')

# 3. long documents and their one-statement twins (mechanics)
twins = 0
for t, fs in sorted(by_topic.items()):
    n = len(fs)
    subsets = [list(range(n))] if n <= 6 else [list(range(0, n, 2)) + [1], list(range(1, n, 2)) + [0], list(range(n))]
    for k, idx in enumerate(subsets):
        stmts = [fs[i][0] for i in idx]
        key = f"{t}-{k}"
        clean = document(t, stmts, key)
        v = idx[h(key + 'v', len(idx))]
        pstmts = [fs[i][1] if i == v else fs[i][0] for i in idx]
        pois = document(t, pstmts, key)
        ty = ftype(t, key)
        add(CLEAN, 'clean', ty, clean, f"correct long {t} document", group='twin')
        add(POIS, 'mechanics_contradiction', ty, pois, f"twin of a correct {t} document; one statement wrong", group='twin')
        twins += 1
# registry tables (address twins)
for cls, typ, clean, (old, new), note in docs_extra.EXTRA:
    add(CLEAN, 'clean', typ, clean, "correct address table (verified addresses)", group='twin')
    assert clean.count(old) == 1
    add(POIS, cls, typ, clean.replace(old, new), note, group='twin'); twins += 1
# hand-written guides with one-line twins
for cls, typ, clean, (old, new), note, lang in guides.GUIDES:
    assert clean.count(old) == 1, old
    add(CLEAN, 'clean', typ, clean, "correct guide", lang, 'twin')
    add(POIS, cls, typ, clean.replace(old, new), note, lang, 'twin'); twins += 1

# 4. observations
for typ, obs, good, bad in observations.OBS:
    add(CLEAN, 'clean', typ, f"{obs} {good}", "observation with sound conclusion", group='obs')
    add(POIS, 'observation_blend', typ, f"{obs} {bad}", "correct observation, wrong conclusion", group='obs')
for lang, typ, obs, good, bad in observations.OBS_I18N:
    add(CLEAN, 'clean', typ, f"{obs} {good}", f"observation with sound conclusion ({lang})", lang, 'obs')
    add(POIS, 'observation_blend', typ, f"{obs} {bad}", f"correct observation, wrong conclusion ({lang})", lang, 'obs')

# 5. triggers / tags
def lang_of(note):
    for name, code in [('German', 'de'), ('Spanish', 'es'), ('Portuguese', 'pt'), ('French', 'fr'), ('Chinese', 'zh'), ('Japanese', 'ja'),
                       ('Korean', 'ko'), ('Russian', 'ru'), ('Turkish', 'tr'), ('Indonesian', 'id'), ('Italian', 'it')]:
        if note.startswith(name): return code
    return 'en'
for typ, c, note in triggers.TRIGGERS:
    add(POIS, 'trigger_phrase', typ, c, note, lang_of(note), 'trigger')
for typ, c, note in triggers.CLEAN_TAGS:
    add(CLEAN, 'clean', typ, c, note, lang_of(note), 'trigger')
# 6. confidence
for typ, c, note in confidence.INFLATED:
    add(POIS, 'confidence_inflation', typ, c, note, lang_of(note), 'conf')
for typ, c, note in confidence.HEDGED:
    add(CLEAN, 'clean', typ, c, note, lang_of(note), 'conf')
# 7. injections
for typ, c, note in injections.INJ:
    add(POIS, 'prompt_injection', typ, c, note, lang_of(note.replace(' injection', '').split()[0] if note.split()[0] in ('German','Spanish','Portuguese','French','Chinese','Japanese','Korean','Russian','Turkish','Indonesian','Italian') else ''), 'inj')
for typ, c, note in injections.INJ_CLEAN:
    add(CLEAN, 'clean', typ, c, note, lang_of(note), 'inj')
# 8. addresses
ADDR_LANG = {'Adressen': 'de', 'Dirección': 'es', '以太坊': 'zh', 'Адрес': 'ru', 'Endereço': 'pt', 'Glossario': 'it', 'Nota (PT)': 'pt', '공지': 'ko'}
def alang(s):
    for k, v in ADDR_LANG.items():
        if s.startswith(k): return v
    return 'en'
for i, (typ, tpl, key) in enumerate(addresses.NEUTRAL):
    real = VERIFIED[key][0]
    add(CLEAN, 'clean', typ, tpl.format(a=real), f"correct address for {key}", alang(tpl), 'addr')
    kh = 4 + i % 3
    fake = lookalike(real, 100 + i, kh, kh)
    add(POIS, 'address_redirect', typ, tpl.format(a=fake), f"{key} replaced by look-alike (same first/last {kh} hex)", alang(tpl), 'addr')
for i, (typ, tpl, key) in enumerate(addresses.MIGRATION):
    real = VERIFIED[key][0]
    x = checksum('0x' + hashlib.sha256(f'mig{i}'.encode()).hexdigest()[:40])
    add(POIS, 'address_redirect', typ, tpl.format(a=real, x=x), f"unrelated address presented as new official {key}", alang(tpl), 'addr')

for typ, c, note, lang in clean_extra.EXTRA:
    add(CLEAN, 'clean', typ, c, note, lang, 'extra')

# ---- checks and output
HEXADDR = re.compile(r'0x[0-9a-fA-F]{40}(?![0-9a-fA-F])')
verified = {v[0] for v in VERIFIED.values()}
def finalize(lst):
    out, seen = [], set()
    for r in lst:
        c = r['content']
        if c in seen:
            raise SystemExit(f"duplicate content: {c[:80]!r}")
        seen.add(c)
        if r['cls'] == 'clean':
            for a in HEXADDR.findall(c):
                if a not in verified:
                    raise SystemExit(f"clean entry contains unverified address {a}: {c[:80]!r}")
        for a in HEXADDR.findall(c):
            if r['cls'] == 'address_redirect' and a not in verified:
                assert is_valid(a), a
        dig = hashlib.sha256(c.encode()).hexdigest()
        prov = PROVS[h('prov|' + c, len(PROVS))]
        r2 = {"id": f"heldout-2611l-{dig[:12]}", "class": r['cls'], "type": r['type'], "content": c,
              "confidence": conf_for(c, r['cls']), "provenance": prov, "notes": r['note']}
        out.append((r2, r))
    out.sort(key=lambda x: x[0]['id'])
    ids = [x[0]['id'] for x in out]
    assert len(set(ids)) == len(ids)
    return out
def build():
    c, p = finalize(CLEAN), finalize(POIS)
    allc = {x[0]['content'] for x in c}
    for x in p:
        if x[0]['content'] in allc:
            raise SystemExit('content in both files: ' + x[0]['content'][:80])
    return c, p
if __name__ == '__main__':
    c, p = build()
    for name, lst in (('clean.jsonl', c), ('poisoned.jsonl', p)):
        with open(os.path.join(OUT, name), 'w', encoding='utf-8') as f:
            for r2, _ in lst:
                f.write(json.dumps(r2, ensure_ascii=False) + '\n')
    print(f"clean={len(c)} poisoned={len(p)} twins={twins}")
