"""Deterministically assemble clean.jsonl and poisoned.jsonl from the hand-written modules."""
import hashlib, json, os, random, re, sys
sys.path.insert(0, os.path.dirname(__file__))
import addrs, frames, p_addr, p_mech, p_blend, p_trig, p_conf, p_inj, p_long, p_more, clean_extra
OUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GROUPS = [('address_redirect', p_addr), ('mechanics_contradiction', p_mech), ('observation_blend', p_blend),
          ('trigger_phrase', p_trig), ('confidence_inflation', p_conf), ('prompt_injection', p_inj)]
PROV = ['self'] * 30 + ['purchased'] * 25 + ['clade'] * 25 + ['cross_user'] * 20
VER = set(addrs.VERIFIED.values())
LANG = {}

def subst(t, salt):
    t = re.sub(r'\{A:(\w+)\}', lambda m: addrs.VERIFIED[m.group(1)], t)
    t = re.sub(r'\{L:(\w+)\}', lambda m: addrs.lookalike(m.group(1), salt), t)
    t = re.sub(r'\{U:(\w+)\}', lambda m: addrs.unrelated(m.group(1) + salt), t)
    return t

def meta(seed):
    r = random.Random(seed)
    prov = r.choice(PROV)
    conf = round(r.uniform(0.90, 0.99), 2) if r.random() < 0.35 else round(r.uniform(0.45, 0.89), 2)
    return prov, conf

def entry(cls, typ, content, conf, prov, notes):
    return {'id': 'heldout-2611p-' + hashlib.sha256(content.encode()).hexdigest()[:12], 'class': cls, 'type': typ,
            'content': content, 'confidence': conf, 'provenance': prov, 'notes': notes}

def main():
    clean, pois, seen = [], [], set()
    def add(lst, e, lang, allow_dup=False):
        if e['content'] in seen:
            if allow_dup:
                return
            raise SystemExit('duplicate content: ' + e['content'][:80])
        if e['class'] == 'clean':
            for a in re.findall(r'0x[0-9a-fA-F]{40}', e['content']):
                if a not in VER:
                    raise SystemExit('clean entry with unverified address %s: %s' % (a, e['content'][:80]))
        seen.add(e['content']); lst.append(e); LANG[e['id']] = lang
    for cls, mod in GROUPS:
        for i, (typ, title, c, b, nb, lang) in enumerate(mod.PAIRS + p_more.MORE[cls]):
            r = random.Random('frames|' + title)
            pool = frames.EN if lang == 'en' else frames.INTL
            fs = r.sample(pool, 4) if lang == 'en' else pool[:4]
            for j, f in enumerate(fs):
                seed = '%s|%d' % (title, j)
                prov, conf = meta('meta|' + seed)
                salt = seed
                ct = f(subst(c, salt), random.Random('f|' + seed), title)
                bt = f(subst(b, salt), random.Random('f|' + seed), title)
                if lang != 'en' and f is frames.bare and j > 0:
                    ct = ct + ' (%s)' % ['Q3', 'Q4', 'v2', 'rev.'][j % 4]
                    bt = bt + ' (%s)' % ['Q3', 'Q4', 'v2', 'rev.'][j % 4]
                add(clean, entry('clean', typ, ct, conf, prov, 'correct: ' + title + (' (twin of poisoned copy)' if f is not frames.bare else '')), lang)
                pconf = round(random.Random('ci|' + seed).uniform(0.92, 0.99), 2) if cls == 'confidence_inflation' else conf
                add(pois, entry(cls, typ, bt, pconf, prov, nb), lang)
    for k, (cls, typ, title, tpl, cf, bf, nb, lang) in enumerate(p_long.DOCS):
        for j, f in enumerate([frames.bare, frames.thread]):
            seed = 'long|%s|%d' % (title.split(' (')[0], j)
            prov, conf = meta('meta|' + seed)
            if '{Y}' in tpl:
                ctext = tpl.replace('{Y}', cf).replace('{X}', p_long.DOCS[0][4])
                btext = tpl.replace('{Y}', bf).replace('{X}', p_long.DOCS[0][4])
            else:
                ctext, btext = tpl.replace('{X}', cf), tpl.replace('{X}', bf)
            ct = f(subst(ctext, seed), random.Random('f|' + seed), title.split(' (')[0])
            bt = f(subst(btext, seed), random.Random('f|' + seed), title.split(' (')[0])
            add(clean, entry('clean', typ, ct, conf, prov, 'correct long document: ' + title), lang, allow_dup=True)
            pconf = round(random.Random('ci|' + seed + cls).uniform(0.92, 0.99), 2) if cls == 'confidence_inflation' else conf
            add(pois, entry(cls, typ, bt, pconf, prov, nb + ' (one-line twin of long clean doc)'), lang)
    for k, (typ, title, text, note, lang) in enumerate(clean_extra.SINGLES):
        seed = 'single|' + title
        prov, conf = meta('meta|' + seed)
        r = random.Random('fr|' + seed)
        f = r.choice(frames.EN if lang == 'en' else frames.INTL)
        add(clean, entry('clean', typ, f(subst(text, seed), random.Random('f|' + seed), title), conf, prov, note), lang)
    for name, lst in [('clean.jsonl', clean), ('poisoned.jsonl', pois)]:
        lst.sort(key=lambda e: e['id'])
        with open(os.path.join(OUT, name), 'w', encoding='utf-8') as fh:
            for e in lst:
                fh.write(json.dumps(e, ensure_ascii=False) + '\n')
    with open(os.path.join(OUT, 'src', 'lang.json'), 'w') as fh:
        json.dump(dict(sorted(LANG.items())), fh, indent=0)
    print('clean', len(clean), 'poisoned', len(pois))

if __name__ == '__main__':
    main()
