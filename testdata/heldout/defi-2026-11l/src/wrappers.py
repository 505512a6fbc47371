# Genre wrappers for single statements and document builders.  Applied identically to both classes.
import hashlib
def h(s, n): return int(hashlib.sha256(s.encode()).hexdigest(), 16) % n
TOPIC = {'amm': 'AMMs', 'lending': 'Lending & borrowing', 'oracle': 'Oracles', 'stable': 'Stablecoins',
 'lst': 'Liquid staking & restaking', 'perps': 'Perpetuals', 'options': 'Options', 'vault': 'Yield vaults',
 'bridge': 'Bridges & messaging', 'mev': 'MEV & order flow', 'aa': 'Account abstraction & wallets',
 'token': 'Token standards', 'gas': 'Gas & fee markets', 'l2': 'L2 rollups', 'security': 'Wallet & contract security'}
SINGLE = [
 lambda t, s: s,
 lambda t, s: f"Glossary ({TOPIC[t]}): {s}",
 lambda t, s: f"FAQ — {TOPIC[t]}\n\nQ: Quick check on how this works?\nA: {s}",
 lambda t, s: f"Course notes, {TOPIC[t]} module:\n- {s}",
 lambda t, s: f"```solidity\n// {s}\n```",
 lambda t, s: f"Newsletter digest, {TOPIC[t]} corner: {s}",
 lambda t, s: f"Video transcript excerpt: \"So the key point here — {(s[0].lower() if s[1:2].islower() else s[0]) + s[1:]}\"",
 lambda t, s: f"> **Note**\n> {s}",
 lambda t, s: f"Developer Q&A\n\nQ: Can someone confirm the behaviour here? ({TOPIC[t]})\n\nAccepted answer: {s}",
 lambda t, s: f"```python\n# {s}\n```",
 lambda t, s: f"Workshop handout ({TOPIC[t]}), key fact: {s}",
 lambda t, s: f"TL;DR from the explainer: {s}",
 lambda t, s: f"/**\n * {s}\n */",
 lambda t, s: f"Reference page, {TOPIC[t]} > Mechanics\n\n{s}",
]
def single(topic, stmt, lang, key):
    if lang != 'en':
        return stmt
    return SINGLE[h(key, len(SINGLE))](topic, stmt)
PAIR = [
 lambda t, a, b: f"Developer Q&A ({TOPIC[t]})\n\nQ: Two things I keep mixing up — can someone explain?\n\nAccepted answer:\n1. {a}\n2. {b}",
 lambda t, a, b: f"Course notes — {TOPIC[t]}\n\n* {a}\n* {b}",
 lambda t, a, b: f"Newsletter digest: two reminders on {TOPIC[t]}. {a} Also: {b}",
 lambda t, a, b: f"Podcast excerpt (guest, ~00:23:10): \"{a} And the second thing people miss: {b}\"",
 lambda t, a, b: f"### {TOPIC[t]}: cheat sheet\n\n| # | Fact |\n|---|---|\n| 1 | {a} |\n| 2 | {b} |",
]
DOC_HEAD = [
 lambda t: (f"# {TOPIC[t]} — workshop notes\n\nThese notes summarise the session. Read them before the hands-on lab.\n\n", "- ", "\n\nLab: reproduce each point on a fork before using it with real funds."),
 lambda t: (f"## FAQ: {TOPIC[t]}\n\n", "**Q/A** ", "\n\n_Last reviewed by the docs team._"),
 lambda t: (f"{TOPIC[t]} explained (blog tutorial)\n\nIf you are new to this, start here. We go through the mechanics one at a time.\n\n", "", "\n\nThat's it for part one; next time we look at the failure modes."),
 lambda t: (f"Glossary — {TOPIC[t]}\n\n", "• ", ""),
 lambda t: (f"```\n{TOPIC[t].upper()} :: REFERENCE CARD\n```\n\n", "1) ", "\n\nSee also the protocol docs for parameters, which change by governance."),
 lambda t: (f"Transcript — \"DeFi from scratch\", episode on {TOPIC[t]}\n\nHOST: Let's go through the basics.\n\n", "GUEST: ", "\n\nHOST: Great, thanks."),
 lambda t: (f"SDK README — background on {TOPIC[t]}\n\nThe SDK assumes you know the following.\n\n", "- ", "\n\nOpen an issue if anything here is out of date."),
]
def document(topic, stmts, key):
    head, bullet, tail = DOC_HEAD[h(key, len(DOC_HEAD))](topic)
    return head + "\n".join(bullet + s for s in stmts) + tail
