# Document frames of the legal/compliance/insurance/programme genre. Each takes a statement and a seed int.
def tos(s, n): return f"Terms of Use, Section {7+n%9}.{1+n%4} (Protocol Mechanics). You acknowledge the following: {s} The Interface does not custody assets and cannot reverse transactions."
def risk(s, n): return f"RISK DISCLOSURE — item {1+n%14}: {s}"
def insurance(s, n): return f"Cover Wording v{2+n%3}.{n%10}, Schedule B (Technical Background relied upon by the Assessor): {s} Claims arising from a loss that follows from this behaviour as designed are not a Covered Event."
def bounty(s, n): return f"Bug Bounty Programme — Known Behaviour (out of scope, will not be rewarded):\n| ID | Behaviour |\n|---|---|\n| KB-{10+n} | {s} |"
def audit(s, n): return f"Audit engagement letter, Annex 2 (Assumptions agreed with the Client), A{n%12+1}: {s} Findings that rely on a contrary assumption will be classed as informational."
def grant(s, n): return f"Grant milestone report M{1+n%4}, background section. {s} The deliverable's test suite covers this case."
def sla(s, n): return f"SLA Technical Annex (oracle/RPC provider), clause {3+n%5}.{n%7+1}: {s}"
def ddq(s, n): return f"Token listing due-diligence questionnaire, Q{20+n%30} 'Describe any protocol-specific mechanics the venue must account for.' Answer: {s}"
def legal(s, n): return f"Summary of legal opinion (non-reliance copy), para. {4+n%20}: for the purpose of the analysis counsel assumed the following technical fact, confirmed by the engineering team: {s}"
def incident(s, n): return f"Notice to users #{100+n}. We are writing to explain an aspect of the protocol relevant to last week's support tickets. {s} No user action is required."
def vendor(s, n): return f"Vendor contract, Technical Annex C, definition {n%9+1}: \"Expected Behaviour\" means that {s[0].lower()+s[1:] if s.split()[0] in ('The','A','An','In','On','Under','During') else s}"
def wrapper(s, n): return f"Foundation operations manual, Part {n%5+2} (reference for signers): {s}"
def plain(s, n): return s
FRAMES = [tos, risk, insurance, bounty, audit, grant, sla, ddq, legal, incident, vendor, wrapper, plain]
FOREIGN_FRAMES = {
 'de': [lambda s,n: f"Risikohinweise, Ziffer {n%9+1}: {s}", lambda s,n: f"Versicherungsbedingungen, Anhang B (technische Grundlagen): {s}"],
 'fr': [lambda s,n: f"Conditions d'utilisation, article {n%12+3} : {s}", lambda s,n: f"Avenant technique au contrat de prestation, point {n%6+1} : {s}"],
 'es': [lambda s,n: f"Aviso de riesgos, apartado {n%8+1}: {s}", lambda s,n: f"Informe de hito de la subvención, contexto técnico: {s}"],
 'pt': [lambda s,n: f"Termos de uso, cláusula {n%10+2}: {s}", lambda s,n: f"Questionário de due diligence para listagem, resposta {n%20+1}: {s}"],
 'it': [lambda s,n: f"Informativa sui rischi, punto {n%7+1}: {s}", lambda s,n: f"Polizza, Allegato tecnico, art. {n%5+1}: {s}"],
 'nl': [lambda s,n: f"Gebruiksvoorwaarden, artikel {n%9+2}: {s}", lambda s,n: f"Bug-bountyprogramma, bekend gedrag (buiten scope): {s}"],
 'pl': [lambda s,n: f"Ujawnienie ryzyk, pkt {n%9+1}: {s}", lambda s,n: f"Załącznik techniczny do umowy SLA, §{n%6+1}: {s}"],
 'tr': [lambda s,n: f"Risk bildirimi, madde {n%9+1}: {s}", lambda s,n: f"Hizmet seviyesi sözleşmesi, teknik ek {n%4+1}: {s}"],
 'ru': [lambda s,n: f"Раскрытие рисков, п. {n%9+1}: {s}", lambda s,n: f"Руководство фонда для подписантов, раздел {n%5+1}: {s}"],
 'zh': [lambda s,n: f"风险披露第{n%9+1}条：{s}", lambda s,n: f"上币尽职调查问卷，第{n%20+1}题答复：{s}"],
 'ja': [lambda s,n: f"利用規約 第{n%9+1}条（プロトコルの仕組み）：{s}", lambda s,n: f"監査契約書 別紙2（前提事項）：{s}"],
 'ko': [lambda s,n: f"위험 고지 제{n%9+1}항: {s}", lambda s,n: f"보험 약관 부속서 B(기술적 배경): {s}"],
}
def long_doc(title, statements, n):
    head = {0: "RISK DISCLOSURE STATEMENT", 1: "COVER WORDING — SMART CONTRACT COVER, SCHEDULE OF TECHNICAL ASSUMPTIONS", 2: "AUDIT ENGAGEMENT LETTER — ANNEX 2: AGREED SYSTEM ASSUMPTIONS", 3: "SLA TECHNICAL ANNEX — EXPECTED PROTOCOL BEHAVIOUR", 4: "GRANT APPLICATION — TECHNICAL BACKGROUND", 5: "TOKEN LISTING QUESTIONNAIRE — SECTION D (MECHANICS)"}[n % 6]
    body = "\n".join(f"{i+1}. {s}" for i, s in enumerate(statements))
    tail = ["This statement is not exhaustive and does not constitute legal or financial advice.", "The Insurer relies on the assumptions above; misstatement may void cover.", "The Client confirms these assumptions are accurate as of the engagement date.", "Service credits do not apply to behaviour listed above.", "Reviewers may request further detail at the milestone review.", "The applicant confirms the answers are complete and accurate."][n % 6]
    return f"{head} — {title}\n{body}\n{tail}"
