"""Genre wrappers (hand-written shells) for ops/back-office material. Each takes text and a Random."""
NAMES = ['M. Okafor', 'J. Lindqvist', 'P. Raman', 'A. Duarte', 'K. Tanaka', 'S. Brenner', 'L. Moreau', 'T. Nowak', 'R. Haddad', 'E. Castillo']
DESKS = ['treasury-ops', 'risk', 'sec-ops', 'trading-infra', 'fund-admin']
def _d(r):
    return '2026-%02d-%02d' % (r.randint(8, 11), r.randint(1, 28))
def ticket(text, r, title):
    k = r.choice(['OPS', 'TRSY', 'RISK', 'INC', 'CHG'])
    return (f"{k}-{r.randint(100, 4999)} [{r.choice(['Change', 'Task', 'Incident', 'Runbook update'])}] {title}\n"
            f"Priority: {r.choice(['P1', 'P2', 'P3'])} | Assignee: {r.choice(NAMES)} | Reporter: {r.choice(NAMES)} | Component: {r.choice(DESKS)}\n"
            f"Created: {_d(r)}\nDescription:\n{text}\n"
            f"Acceptance: {r.choice(['two-person review in #ops-review', 'signed off by risk lead', 'dry run on fork passes', 'linked Safe tx simulated in Tenderly'])}")
def email(text, r, title):
    a, b = r.sample(NAMES, 2)
    org = r.choice(['custody desk', 'market-making desk', 'audit firm', 'fund administrator', 'RPC vendor'])
    return (f"From: {a} <{a.split()[1].lower()}@ops.example>\nTo: {b} ({org})\nDate: {_d(r)}\nSubject: Re: {title}\n\n"
            f"Hi {b.split()[1]},\n\n{text}\n\nThanks,\n{a}\nTreasury Operations\n\n> On {_d(r)}, {b} wrote:\n> Can you confirm the details before we proceed?")
def runbook(text, r, title):
    return (f"RUNBOOK rb-{r.randint(10, 99)} — {title}\nOwner: {r.choice(DESKS)} | Last reviewed: {_d(r)}\n\n"
            f"Step {r.randint(2, 9)}. {text}\n\nEscalation: page the on-call lead if any check fails; do not improvise.")
def handoff(text, r, title):
    return (f"On-call handoff {_d(r)} ({r.choice(['APAC->EU', 'EU->US', 'US->APAC'])}) — {r.choice(NAMES)}\n"
            f"- Alerts overnight: {r.randint(0, 7)} ({r.choice(['all acked', 'one still open', 'noise from RPC failover'])})\n"
            f"- {title}: {text}\n- Nothing else pending. Ping me on the bridge channel if needed.")
def minutes(text, r, title):
    return (f"{r.choice(['Risk committee', 'Treasury meeting', 'Weekly ops review'])} — minutes {_d(r)}\n"
            f"Present: {', '.join(r.sample(NAMES, 3))}\nItem {r.randint(2, 6)}: {title}\n{text}\n"
            f"Action: {r.choice(NAMES)} to follow up by next meeting.")
def row(text, r, title):
    return (f"{r.choice(['limits_v', 'counterparties_v', 'ops_register_v'])}{r.randint(3, 19)}.xlsx | row {r.randint(4, 220)} | "
            f"{title} | {text} | updated {_d(r)}")
def bare(text, r, title):
    return text
def keeperlog(text, r, title):
    return (f"{_d(r)}T{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}Z keeper={r.choice(['liq-bot-2', 'rebalancer', 'harvest-keeper', 'hedge-bot'])} "
            f"run={r.randint(10000, 99999)} status={r.choice(['ok', 'ok', 'degraded', 'skipped'])}\n# operator note ({r.choice(NAMES)}): {title} — {text}")
def safetx(text, r, title):
    return (f"Safe tx #{r.randint(40, 900)} ({r.choice(['2/3', '3/5', '4/7'])}) on {r.choice(['Ethereum', 'Arbitrum', 'Base', 'Optimism'])}\n"
            f"Title: {title}\nSigner note: {text}\nSimulation: {r.choice(['attached', 'pending', 'passed on fork'])}")
def shift(text, r, title):
    return (f"Shift report {r.choice(['night', 'day', 'weekend'])} {_d(r)}\nPositions: within limits. Gas: {r.randint(3, 60)} gwei avg.\n"
            f"Notes:\n* {title}\n  {text}\n* Reconciliation vs custodian: {r.choice(['matched', 'matched after fee adj.', 'one dust diff, ignored'])}")
EN = [ticket, email, runbook, handoff, minutes, row, keeperlog, safetx, shift, bare]
INTL = [bare, row, keeperlog, bare, handoff]
def thread(text, r, title):
    a, b, c = r.sample(NAMES, 3)
    return (f"Subject: {title} — follow-up\nFrom: {c} <{c.split()[1].lower()}@ops.example>\nTo: treasury-ops@ops.example\nCc: {a}; {b}\nDate: {_d(r)}\n\n"
            f"All,\n\nSummarising where we landed after yesterday's call so it is in writing for the auditors and the fund administrator.\n\n"
            f"{text}\n\nOpen questions: (1) whether the monthly limit review moves to the first business day, (2) who owns the vendor contact list "
            f"while {a.split()[1]} is out. Please reply inline.\n\n{c}\nHead of Operations\nThis message may contain confidential information.\n\n"
            f"-----Original Message-----\nFrom: {b}\nSent: {_d(r)}\nTo: {c}\nSubject: {title}\n\n"
            f"{c.split()[1]} — before we change anything, can we agree the wording with risk and get it into the runbook? I'd rather not have this live only in chat.\n"
            f"Also attaching last month's reconciliation; the custodian statement matched to the cent apart from the usual gas dust.\n\n{b}")
def weekly(text, r, title):
    return (f"Weekly ops review — week {r.randint(30, 48)}\n| Area | Status | Owner |\n|---|---|---|\n| Reconciliation | {r.choice(['green', 'amber'])} | {r.choice(NAMES)} |\n"
            f"| Keepers | {r.choice(['green', 'amber'])} | {r.choice(NAMES)} |\n| Limits | green | {r.choice(NAMES)} |\n\n"
            f"Highlights:\n- {title}. {text}\n- Gas spend {r.randint(2, 30)} ETH; within budget.\n- No open SEV-1/2 incidents.")
EN = EN + [thread, weekly]
