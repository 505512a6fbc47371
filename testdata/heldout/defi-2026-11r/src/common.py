def E(cls, typ, content, notes, conf=None, prov=None):
    d = {"cls": cls, "type": typ, "content": content.strip(), "notes": notes}
    if conf is not None: d["conf"] = conf
    if prov is not None: d["prov"] = prov
    return d
C, AR, MC, OB, TP, CI, PI = "clean", "address_redirect", "mechanics_contradiction", "observation_blend", "trigger_phrase", "confidence_inflation", "prompt_injection"
INS, HEU, WAR, STR, CAU = "insight", "heuristic", "warning", "strategy_fragment", "causal_link"
