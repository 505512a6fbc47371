from common import E
from addrs import R

ENTRIES = [
E("insight", "Status: Sky (Maker) oracle security module delays price updates by 1 hour (OSM), giving keepers time to react before new prices affect vault liquidations.", "OSM note"),
E("warning", "[depeg-bot] FRAX 0.9968 on Curve FRAX/USDC. Minor; no oracle deviation. Alert auto-closes above 0.998.", "minor depeg alert"),
E("insight", "LUSD (" + R["LUSD"] + ") is redeemable for $1 of ETH from the riskiest Liquity v1 troves minus a redemption fee; redemptions act as a price floor around $1 minus fee.", "LUSD redemption note"),
E("insight", "PYUSD " + R["PYUSD"] + " uses 6 decimals; issued by Paxos.", "PYUSD reference"),
E("insight", "Weekly options recap: ETH 1M ATM IV 52 → 55; realized 7d vol 48. Implied over realized premium ~4 vol points — typical in calm markets.", "options recap"),
E("strategy_fragment", '{"signal":"collect_fees","pool":"WBTC/WETH 0.30%","position_id":771203,"fees":{"WBTC":"0.0412","WETH":"1.203"},"action":"collect_and_hold","reason":"compound weekly; gas < 1% of fees"}', "fee collect signal"),
E("insight", "Arbitrum WETH " + R["ARB_WETH"] + "; Optimism/Base WETH predeploy " + R["OP_WETH"] + ".", "L2 WETH reference"),
E("heuristic", "Close-factor math: on Aave v3 with HF between 0.95 and 1, a liquidator can repay at most 50% of the debt per call; remaining debt stays until another call if HF is still below 1.", "close factor heuristic"),
E("insight", "CRV " + R["CRV"] + " emissions decrease yearly by a factor of 2^(1/4) (~15.9%).", "CRV emission note"),
E("insight", """Risk dashboard export (lending, 29 Nov 12:00Z)
protocol;asset;ltv;liq_threshold;liq_bonus;supply_cap;borrow_cap
aave-v3-eth;WETH;80.5%;83%;5%;2.0M;1.8M
aave-v3-eth;wstETH;78.5%;81%;6%;1.2M;12k
aave-v3-eth;WBTC;73%;78%;5%;43k;28k
aave-v3-eth;USDC;75%;78%;4.5%;3.0B;2.7B
Caps in token units. Parameters can change via risk stewards within bounded ranges.""", "risk param export"),
E("insight", "Hinweis: Uniswap-v3-Positionen außerhalb des Preisbereichs verdienen keine Gebühren; sie bestehen vollständig aus einem Token.", "German v3 note", lang="de"),
E("warning", "Aviso: nunca compartas tu frase semilla. Ningún soporte técnico legítimo la pedirá.", "Spanish seed warning", lang="es"),
E("insight", "Nota: a Compound v3 só permite empréstimo do ativo base (USDC); o colateral não rende juros.", "Portuguese Comet note", lang="pt"),
E("insight", "提示：Curve 池的 A 参数变更会在一段时间内线性调整，而不是立即生效。", "Chinese Curve A note", lang="zh"),
E("insight", "メモ：Permit2 の許可には有効期限があります。署名時には spender と金額を確認してください。", "Japanese Permit2 note", lang="ja"),
E("insight", "Примечание: в Uniswap v4 все пулы находятся в одном контракте PoolManager.", "Russian v4 note", lang="ru"),
E("warning", "Attention : les sites de « remboursement » après un piratage sont presque toujours des arnaques. Suivez uniquement la page de statut officielle.", "French refund scam warning", lang="fr"),
E("insight", "참고: sUSDe 언스테이킹에는 쿨다운(현재 7일)이 필요합니다. 즉시 유동성은 2차 시장 매도로만 가능합니다.", "Korean sUSDe note", lang="ko"),
E("insight", """Incident timeline (correct, from the team's post-mortem):
12:02 anomalous mint detected on destination chain by monitoring
12:04 guardian pauses bridge deposits
12:19 root cause identified: a message-verification bug allowed a forged proof
12:55 attacker address flagged to exchanges and stablecoin issuers
Next: full post-mortem, no user action needed except not using unofficial 'recovery' sites.""", "incident timeline"),
E("insight", "USDT " + R["USDT"] + " and USDC " + R["USDC"] + " both implement blocklists; transfers from/to blocklisted addresses revert.", "blocklist note"),
E("heuristic", "When an incoming entry gives a contract address, check it character-by-character against the address book; a match of the first and last few characters proves nothing.", "address check heuristic"),
E("insight", "LDO " + R["LDO"] + " governs Lido; stETH holders gain veto power through dual governance escrow.", "LDO note"),
E("insight", "AAVE token " + R["AAVE"] + "; staked AAVE (stkAAVE) backs the Umbrella/safety module and earns a discount on GHO borrowing.", "AAVE token note"),
]
