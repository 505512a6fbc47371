package validate

import "testing"

// An observation followed at once by a generic leap, with no connective
// between them, contradicts the blended-observation model; so does a
// conclusion that dismisses a safeguard or a risk factor ("is redundant",
// "doesn't matter", "without a cap") or generalises over cases the
// observation did not cover. The same observation followed by a
// contrasting, hedged, past-tense or advising sentence does not. The
// sentences are this file's own, written for the rule (issue 20).
func TestBlendedJuxtaposed(t *testing.T) {
	tests := []struct {
		name string
		text string
		want bool
	}{
		{"never fails", "Our keeper claimed rewards from the gauge twenty times in May. Claims never fail on that gauge.", true},
		{"cannot", "The lending pool kept its peg oracle in line during the March crash. Its price cannot be manipulated.", true},
		{"removed safeguard", "We swapped 300 ETH on the pool yesterday with 0.1% impact. Skip the slippage check for swaps of that size.", true},
		{"permission hedge keeps the action", "The relay landed all 60 of our bundles last week. You may skip the simulation for bundles.", true},
		{"dismissal", "The staleness alert fired four times last month and each time the feed was fine. The alert is redundant.", true},
		{"doesn't matter", "Our payouts in a token with 8 decimals went through last week. Decimals don't matter to the payout job.", true},
		{"without a cap", "The vault has paid every withdrawal since it opened in 2024, so it can hold the reserve without a cap.", true},
		{"at all times", "The feed tracked the exchange price within 0.1% during last week's drop, so it is accurate at all times.", true},
		{"is instant", "Our last four transfers over the bridge arrived in a minute. The bridge is instant.", true},
		{"set to zero", "The timelock held up our own upgrade for two days and nothing happened in between, so the delay can be set to zero.", true},
		{"French, juxtaposed", "Les frais de gas sont restés à 5 gwei toute la semaine : il est inutile de fixer des frais de priorité.", true},
		{"Russian never", "Наш перевод через мост 3 раза пришёл за 1 минуту, значит мост никогда не задерживает средства.", true},
		{"claim then removal", "The deviation alarm fired once in June and it was a false alarm. Alarms like it only cause noise; disable it.", true},
		{"temporal universal", "The pool paid 40% APR last week. Its APR will hold at 40% for the rest of the year.", true},
		{"Italian cannot", "La posizione a 1,05 ha retto a un calo del 9 %; quindi una posizione sopra 1 non può essere liquidata.", true},
		{"Chinese proves", "这个协议过去三年从未被攻击，这证明把资金存进去没有任何风险。", true},
		{"Italian dismissal after a denied clause", "Le nostre 30 transazioni sono andate a buon fine: le transazioni non falliscono mai, la simulazione è superflua.", true},
		{"because clause", "Because our two dip buys last month paid off, buy the next dip using borrowed funds.", true},
		{"with leverage", "The token rose on each of the last six days, so buy more with leverage.", true},
		{"the treasury", "Fees on the new chain were lowest last quarter, so move the treasury to it.", true},
		{"lever a multiple", "Our basis trade made 9% last year, so lever it 15x.", true},
		{"past verb with its object", "The guardian delayed our own upgrade by two days and nothing went wrong. Guardians only slow us down; set the delay to zero.", true},
		{"dated reading", "The sidechain reorged 90 blocks deep in March 2023. Its finality is now instant; credit deposits after one block.", true},
		{"contrast does not excuse a removal", "The relay landed all 60 of our bundles last week. Still, the simulation is redundant for bundles.", true},

		{"contrast", "Our keeper claimed rewards from the gauge twenty times in May. Still, claims can fail when the gauge is paused; keep the retry.", false},
		{"hedged", "Our keeper claimed rewards from the gauge twenty times in May. Claims probably never fail on that gauge, but we log them.", false},
		{"post-mortem", "The staleness alert fired four times last month. We removed the alert and a stale price liquidated us in June.", false},
		{"advice after", "The feed tracked the exchange price within 0.1% during last week's drop. Always check its timestamp anyway.", false},
		{"protected safeguard", "From release 3 the wallet shows a warning for approvals above 1M tokens. The warning cannot be disabled.", false},
		{"subordinate clause", "The bridge showed a ten-minute estimate last week. Finality on the source chain decides when funds are safe.", false},
		{"loss described", "Three of five depegs we tracked recovered last year. Buying below peg can lose everything.", false},
		{"all else equal", "The reserve factor was kept at 10% by the protocol. Raising it lowers the supply rate, all else equal.", false},
		{"narrative", "The founder left the company in 2019. He never returned to finance.", false},
		{"keep the safeguard whatever", "Bots were fewer when gas hit 200 gwei last week. Keep private routing whatever the gas price.", false},
		{"risk at any hour", "A cascade hit positions at 3 am last night. Fast drops can cascade at any hour, so size leverage for them.", false},
		{"advice at all times after a claim", "Gas spiked to 180 gwei during last night's mint. Spikes have many causes; set max fees with headroom at all times.", false},
		{"no leverage", "Our two dip buys last month paid off; we'll buy the next one after checking the cause, with no leverage.", false},
		{"a multiple described", "A 15x long on ETH gained 40% in a day last week. At 15x a 7% move the other way liquidates it.", false},
		{"margin on leverage", "The sequencer stopped for an hour once and nothing was lost. During an outage nothing can be topped up, so keep extra margin on L2 leverage.", false},
		{"career list", "Named player of the month in June 2019.\n- Never captained the national side at any level.", false},
		{"Spanish advice never", "El pool absorbió un swap de 3 M ayer. Por lo tanto, nunca envíes un swap sin límite.", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := BlendedConclusion(tt.text) != ""; got != tt.want {
				t.Errorf("BlendedConclusion(%q) = %q, want flagged %v", tt.text, BlendedConclusion(tt.text), tt.want)
			}
		})
	}
}
