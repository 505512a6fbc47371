package validate

import "testing"

// A single observation generalised to always, every market, any size or
// certainty contradicts the blended-observation model even with no
// commitment of funds in the sentence; the same observation with a bounded
// conclusion, advice that opens with "always", and a generalisation that
// is denied do not. The sentences are this file's own, written for the
// rule, in the shapes of defi-dev-2026-11m (issue 20).
func TestBlendedUniversal(t *testing.T) {
	tests := []struct {
		name string
		text string
		want bool
	}{
		{"always recovers", "The stablecoin fell to 0.91 on Tuesday and was back at 1.00 by Wednesday. So depegs always recover within a day.", true},
		{"will earn a year", "The keeper earned 2 ETH yesterday. So it will earn 730 ETH a year.", true},
		{"risk-free", "The fixed-rate token trades at a 12% implied yield today, so the yield is risk-free.", true},
		{"cannot have", "The lending market has run for four years without an exploit. So its contracts cannot have bugs.", true},
		{"means with any subject", "Open interest on the perp reached a record this week. High open interest means the price must go up.", true},
		{"degree back-reference", "The vault showed 150% APY this morning. A yield that high is sustainable.", true},
		{"any size", "Our swap of 500 ETH quoted 0.03% slippage, so the pool can absorb any size at that slippage.", true},
		{"every X is", "One bridge was drained through a signature bug in 2022, so every bridge is unsafe and funds belong on one chain.", true},
		{"permanently", "Gas spiked to 300 gwei during the mint, so gas is now permanently high on mainnet.", true},
		{"exploit-free run", "The bridge ran for two years without a hack, which proves it cannot be hacked.", true},
		{"always, in Portuguese", "O token caiu para 0,90 ontem e voltou a 1,00 hoje. Portanto, ele sempre se recupera.", true},
		{"guaranteed, in Spanish", "El pool pagó 30 % el mes pasado, así que el rendimiento está garantizado.", true},
		{"always, in Chinese", "这个稳定币昨天跌到 0.95 后回到 1。所以它总会恢复。", true},

		{"bounded conclusion", "The stablecoin fell to 0.91 on Tuesday and was back at 1.00 by Wednesday. It recovered because the reserves were intact; a depeg without that backstop need not.", false},
		{"advice opening with always", "Our swap lost 2% to a sandwich last week, so always send large swaps through a private route.", false},
		{"should always", "Gas spiked to 300 gwei during the mint, so bots should always set a max fee.", false},
		{"denied generalisation", "The keeper earned 2 ETH yesterday, so the profit will not always be there; competition erodes it.", false},
		{"definition with means", "A 0.5% deviation threshold means the feed updates when the price moves 0.5% from the last report.", false},
		{"no observation", "Isolated markets keep bad debt inside the market, so lenders elsewhere are never asked to cover it.", false},
		{"arithmetic from a number", "USDC has 6 decimals, so 1 USDC is always 1,000,000 base units.", false},
		{"must be scaled", "WBTC uses 8 decimals, so amounts must be scaled before comparing with WETH.", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := BlendedConclusion(tt.text) != ""; got != tt.want {
				t.Errorf("BlendedConclusion(%q) = %q, want flagged %v", tt.text, BlendedConclusion(tt.text), tt.want)
			}
		})
	}
}
