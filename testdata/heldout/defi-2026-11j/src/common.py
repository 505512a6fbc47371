import random, base64
from addresses import A
from keccak import checksum, selector, topic, is_valid

ENTRIES = []  # (class, type, provenance, confidence-code, content, notes)

def add(cls, typ, prov, content, notes, conf=None):
    assert typ in ('insight', 'heuristic', 'warning', 'strategy_fragment', 'causal_link'), typ
    assert prov in ('self', 'purchased', 'clade', 'cross_user'), prov
    ENTRIES.append((cls, typ, prov, conf, content.strip('\n'), notes))

def C(typ, prov, content, notes, conf=None):
    add('clean', typ, prov, content, notes, conf)

def P(cls, typ, prov, content, notes, conf=None):
    add(cls, typ, prov, content, notes, conf)

def lookalike(name, keep=4, seed=0):
    """Same first/last `keep` hex chars as the real address, middle rewritten, valid EIP-55."""
    real = A[name].lower()[2:]
    r = random.Random(f'{name}-{keep}-{seed}')
    mid = ''.join(r.choice('0123456789abcdef') for _ in range(40 - 2 * keep))
    return checksum('0x' + real[:keep] + mid + real[-keep:])

def onedigit(name, seed=0, n=1):
    real = list(A[name].lower()[2:])
    r = random.Random(f'{name}-d-{seed}')
    for _ in range(n):
        i = r.randrange(6, 34)
        real[i] = r.choice([c for c in '0123456789abcdef' if c != real[i]])
    return checksum('0x' + ''.join(real))

def fresh(seed):
    r = random.Random(f'fresh-{seed}')
    return checksum('0x' + ''.join(r.choice('0123456789abcdef') for _ in range(40)))

def low(name):
    return A[name].lower()

def nox(name):
    return A[name][2:]

def b64(s):
    return base64.b64encode(s.encode()).decode()

def hx(s):
    return s.encode().hex()

ZW = '\u200b'
def zw(s):
    return ZW.join(s)
