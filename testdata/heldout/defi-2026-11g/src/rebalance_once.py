"""Run ONCE (2026-11-29, before freezing) to rebalance metadata of clean entries, so that the `type` and
`provenance` fields do not separate clean from poisoned by construction:
 - 20 hand-picked clean heuristics that read as plans/rules were retyped strategy_fragment;
 - clean insights whose text states a cause->effect ('because', '→', 'which is why', 'so ') were retyped
   causal_link (first 18 in file order);
 - 30 clean entries from clade/cross_user were re-labelled purchased (seeded RNG 2611), since the author
   had under-used `purchased` for clean knowledge.
It edits the E(...) calls in the clean_*.py sources in place. Content and notes are untouched."""
import random, re
PICK_S = {"clean_l2ops": [11, 29, 35, 53], "clean_lending": [15, 22, 29], "clean_protocols": [4, 23, 27, 57],
          "clean_misc": [7, 28, 39, 53, 61], "clean_more": [16, 22, 30, 53]}
FILES = ["clean_l2ops", "clean_lending", "clean_protocols", "clean_misc", "clean_more"]
CAUSAL = re.compile(r"because|→|which is why|That is why|, so |; so ")
rng = random.Random(2611)
calls = []
src = {}
for f in FILES:
    lines = open(f + ".py", encoding="utf-8").read().split("\n")
    src[f] = lines
    idx = 0
    for ln, line in enumerate(lines):
        if line.startswith("E(\""):
            calls.append((f, idx, ln)); idx += 1
n_c = 0
for f, idx, ln in calls:
    line = src[f][ln]
    t = line[3]
    if idx in PICK_S.get(f, []):
        assert t == "H", (f, idx, line[:40])
        line = 'E("S"' + line[5:]
    elif t == "I" and n_c < 18 and CAUSAL.search(line):
        line = 'E("C"' + line[5:]; n_c += 1
    src[f][ln] = line
cands = [(f, ln) for f, idx, ln in calls if re.match(r'E\("\w",[0-9.]+,"[cx]"', src[f][ln])]
for f, ln in rng.sample(cands, 30):
    src[f][ln] = re.sub(r'^(E\("\w",[0-9.]+,)"[cx]"', r'\1"p"', src[f][ln])
for f in FILES:
    open(f + ".py", "w", encoding="utf-8").write("\n".join(src[f]))
print("causal retyped", n_c)
