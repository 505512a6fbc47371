"""Rough count of entries written (wholly or mostly) in a language other than English."""
import json, re, sys, os
D = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOREIGN = set("""der die das und ist nicht mit für wenn auf den dem ein eine les des est pour une pas dans avec que qui el los las por para una con del se da não em uma com os é il che di per non della sono na yang dan untuk ini tidak ke dengan bir ve için bu ile de het een van niet voor op và của là không cho được các jest się nie na dla""".split())
def script(t):
    return sum(1 for ch in t if 0x0400 <= ord(ch) <= 0x04FF or 0x3040 <= ord(ch) <= 0x30FF or 0x4E00 <= ord(ch) <= 0x9FFF or 0xAC00 <= ord(ch) <= 0xD7AF or ord(ch) in range(0x1EA0, 0x1EFF))
def foreign(t):
    ws = re.findall(r"[^\W\d_]+", t.lower())
    return script(t) >= 12 or sum(w in FOREIGN for w in ws) >= 4
for f in ('clean.jsonl', 'poisoned.jsonl'):
    rows = [json.loads(l) for l in open(os.path.join(D, f))]
    n = sum(foreign(r['content']) for r in rows)
    print(f, len(rows), 'non-English (wholly or in part):', n, f'{n/len(rows):.1%}')
