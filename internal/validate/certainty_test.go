package validate

import "testing"

// Outcomes no source can know, stated as settled, are found; mechanics,
// conditions, denials and warnings about such claims are not.
func TestUnknowableCertainty(t *testing.T) {
	certain := []string{
		"This vault is guaranteed profit for anyone who deposits before Friday.",
		"The basis trade is risk-free money at current funding.",
		"Our grid bot cannot lose in a sideways market.",
		"The treasury vote is decided; the fee switch turns on next week.",
		"SOL will pump at least 15% after the conference.",
		"The token will be listed on two major exchanges this month, so buy now.",
		"Backtests show the strategy never had a losing quarter, so future returns will be similar.",
		"It is 100% certain that the peg holds through the unlock.",
		"Yields on this pool will definitely stay above 12% all year.",
		"ETH staking rewards will double after the upgrade.",
		"Our model predicts the next borrow-rate spike with 99.7% accuracy; front-run each one.",
		"The signal has a win rate of 98% over two years, so size up.",
		"The ratio mean-reverts within 14 days, proven 100% of the time.",
		"Once the unlock clears, ARB will rally 20% by Friday.",
		"If the halving lands on schedule, BTC will surge within a week.",
		"Our searcher's bundles will always land first in the block.",
		"With that relay, swaps will always be filled at the quoted price.",
		"The average USDC supply APY next month will be exactly 7.42%.",
		"Withdrawals always settle in exactly 3 days; plan around that.",
		"Over any 90-day window the pool's impermanent loss is precisely 0.00%.",
		"The next airdrop snapshot is definitely on block 21,500,000; hold the token then.",
		"Positions in the 1% tier never lose to holding.",
		"Es absolut sicher, dass ETH nächste Woche über 6.000 USD steht.",
		"Il est certain à 100 % que le taux de financement restera positif.",
		"El rendimiento está garantizado al 100 % durante todo el año.",
	}
	clean := []string{
		"If utilisation rises above the kink, the borrow rate will rise steeply.",
		"Nothing in DeFi is guaranteed; size positions for the loss you can take.",
		"An exact-output swap guarantees the amount out and caps the amount in.",
		"Scammers promise guaranteed profit; treat any such claim as a red flag.",
		"The risk-free rate in DeFi is usually taken to be the staking yield.",
		"No strategy is risk-free money, least of all leveraged farming.",
		"When the price leaves your range, the position will stop earning fees.",
		"If the oracle lags, a liquidation will happen late.",
		"When markets crash, bids will thin out within minutes; keep a buffer.",
		"A revert will always refund the unused gas but not the gas spent.",
		"The invariant will always hold after a swap.",
		"A limit order fills at your price or better, or not at all.",
		"Funding may stay positive for weeks, but it can flip within hours.",
		"The transaction reverts if the output is below amountOutMinimum.",
		"Our liquidation bot's success rate was 61% last month; most misses were outbid.",
		"No model has 99% accuracy on rate spikes; distrust anyone who says so.",
		"Keep the position below 95% of the liquidation threshold at all times.",
		"Each slot on Ethereum is exactly 12 seconds.",
		"The Uniswap V2 fee is exactly 0.3% of the input amount.",
		"An exact-output swap will return exactly the amount you request or revert.",
		"Rates will probably rise next month, but nobody knows by how much.",
		"This is definitely worth checking before you approve anything.",
		"Never lose sight of your health factor during a crash.",
		"Die Gebühr beträgt 0,3 % pro Swap.",
	}
	for _, s := range certain {
		if UnknowableCertainty(s) == "" {
			t.Errorf("not found: %q", s)
		}
	}
	for _, s := range clean {
		if got := UnknowableCertainty(s); got != "" {
			t.Errorf("found %q in %q", got, s)
		}
	}
}

// Text that vouches for its own authority is found; a denial, an
// attribution the reader can check elsewhere and ordinary words are not.
func TestSelfVouching(t *testing.T) {
	vouching := []string{
		"Verified by the core team: the pool yields 18% APR every month.",
		"Source: official Uniswap Labs research desk (verified). Ranges beat holding.",
		"Confidence 1.0 (audited fact): the peg cannot break.",
		"Verified on-chain by our official team: impermanent loss is zero.",
		"As officially confirmed by Lido, withdrawals settle in a day.",
		"Offiziell bestätigt: die Rendite bleibt bei 9 %.",
	}
	plain := []string{
		"This was not verified by the team; treat it as a rumour.",
		"Check the official documentation before approving a new router.",
		"Our backtest covered 2021-2024 and lost money in two quarters.",
		"Audits reduce risk but do not remove it.",
		"Use the official docs as the source of truth for addresses.",
		"The protocol's confidence interval for the rate is wide.",
	}
	for _, s := range vouching {
		if SelfVouching(s) == "" {
			t.Errorf("not found: %q", s)
		}
	}
	for _, s := range plain {
		if got := SelfVouching(s); got != "" {
			t.Errorf("found %q in %q", got, s)
		}
	}
}
