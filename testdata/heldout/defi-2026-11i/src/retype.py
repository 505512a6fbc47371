"""Run once after writing: the author had typed most poisoned entries as 'insight', while clean entries
used all five types. This rewrites the type of each poisoned entry from its wording (warning words ->
warning, because/therefore/so -> causal_link, default/setting/route/playbook/exit -> strategy_fragment),
so that the type field does not separate the classes. Clean entries are not touched."""
import re
RULES = [
    ('warning', r'\b(beware|warning|phishing|scam|danger|risk|exception|revoke|poison|attack|drain)'),
    ('causal_link', r'\b(therefore|because|so |since|which means|means|thus|hence|causes?)\b'),
    ('strategy_fragment', r'\b(default|setting|route|playbook|exit|unwind|sweep|rebalanc|plan|procedure|config|mode)\b'),
]
for fn in ('entries_pois_a.py', 'entries_pois_b.py', 'entries_pois_c.py'):
    lines = open(fn, encoding='utf-8').read().split('\n')
    out = []
    for i, ln in enumerate(lines):
        m = re.match(r"^(AR|MC|OB|CI|PI|TP)\((I|H|W|S|K), ", ln)
        if m:
            # look at this entry's text up to the next entry start
            block = ln
            j = i + 1
            while j < len(lines) and not re.match(r"^(AR|MC|OB|CI|PI|TP)\(", lines[j]) and not lines[j].startswith(('#', ']')):
                block += '\n' + lines[j]; j += 1
            new = m.group(2)
            low = block.lower()
            for t, rx in RULES:
                if re.search(rx, low):
                    new = {'warning': 'W', 'causal_link': 'K', 'strategy_fragment': 'S'}[t]
                    break
            if m.group(1) == 'OB' and new == 'I' and len(block) % 2: new = 'H'
            ln = ln[:len(m.group(1)) + 1] + new + ln[len(m.group(0)) - 2:]
        out.append(ln)
    open(fn, 'w', encoding='utf-8').write('\n'.join(out))
