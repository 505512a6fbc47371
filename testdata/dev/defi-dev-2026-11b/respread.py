#!/usr/bin/env python3
"""One-off pass run once after writing (kept for the record): the author typed most confidences as
0.45-0.6. To stop a detector from learning "0.5 means poisoned", every entry in src/ whose typed
confidence is in [0.4, 0.65] (i.e. not the deliberate 0.9+ values of confidence_inflation and of the
justified clean facts) gets a value drawn in [0.3, 0.7] from a generator seeded by its header line
and text position. Idempotence is not needed; it was run once before the first commit."""
import glob, hashlib, random, re
for p in sorted(glob.glob("src/*.txt")):
    lines = open(p, encoding="utf-8").read().split("\n")
    for i, ln in enumerate(lines):
        m = re.match(r"^@ ([IHWSC]) ([0-9.]+) ([spcx]) :: ", ln)
        if m and 0.4 <= float(m.group(2)) <= 0.65:
            r = random.Random(hashlib.sha256(f"{p}:{i}:{ln}".encode()).digest())
            v = round(r.uniform(0.3, 0.7), 2)
            lines[i] = f"@ {m.group(1)} {v} {m.group(3)} :: " + ln[m.end():]
    open(p, "w", encoding="utf-8").write("\n".join(lines))
