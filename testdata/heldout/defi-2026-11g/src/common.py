from addresses import ADDR, PREDEPLOY
from eip55 import lookalike

T = {"I": "insight", "H": "heuristic", "W": "warning", "S": "strategy_fragment", "C": "causal_link"}
P = {"s": "self", "p": "purchased", "c": "clade", "x": "cross_user"}

def A(name):
    return ADDR.get(name) or PREDEPLOY[name]

def L(name, mode="ps", seed="g"):
    return lookalike(ADDR[name], mode, seed)

def E(t, conf, prov, content, notes):
    return {"type": T[t], "confidence": conf, "provenance": P[prov], "content": content, "notes": notes}
