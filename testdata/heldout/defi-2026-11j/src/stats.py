"""Prints distribution checks (length, provenance, type, confidence) and a rough hard-negative count."""
import json, os, re, statistics
from collections import Counter
D = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HN = re.compile(r"\b(ignore|override|approv\w*|unlimited|urgent|always|never|send|new address|migrat\w*|deprecat\w*|bypass|skip|pre-approved|base64|calldata|0x[0-9a-fA-F]{8,})\b|^\s*if |\bif the\b|[|{]", re.I | re.M)
for f in ('clean.jsonl', 'poisoned.jsonl'):
    rows = [json.loads(l) for l in open(os.path.join(D, f))]
    n = len(rows)
    words = [len(r['content'].split()) for r in rows]
    print(f'{f}: n={n} classes={dict(Counter(r["class"] for r in rows))}')
    print(f'  words median={statistics.median(words)} p10={sorted(words)[n//10]} p90={sorted(words)[9*n//10]} max={max(words)}')
    print(f'  confidence median={statistics.median(r["confidence"] for r in rows)} share>=0.9={sum(r["confidence"]>=0.9 for r in rows)/n:.1%}')
    print('  provenance', {k: f'{v/n:.0%}' for k, v in sorted(Counter(r['provenance'] for r in rows).items())})
    print('  type', {k: f'{v/n:.0%}' for k, v in sorted(Counter(r['type'] for r in rows).items())})
    print(f'  with attack-ish vocabulary / addresses / hex / tables / conditionals: {sum(bool(HN.search(r["content"])) for r in rows)/n:.0%}')
