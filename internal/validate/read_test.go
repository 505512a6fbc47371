package validate

import (
	"slices"
	"testing"

	"github.com/wardhq/ward/internal/knowledge"
)

// TestReadingsPinned pins a sample of what the two readings of the shipped
// models (Model.read) made of the dev corpora and of this package's test
// inputs when they became one walk: 18,519 texts gave the same verdicts
// before and after. For each text, Agree's confirmations with every model
// and with the models at HighConfidence or above, and Consistency's vote.
func TestReadingsPinned(t *testing.T) {
	models, err := ShippedModels()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name                        string
		text                        string
		confirmedAll, confirmedHigh int
		contradicted                bool
		score                       float64
		pass                        bool
		reasons                     []string
	}{
		{"confirms a property 1",
			"On volatile days the mainnet ETH/USD feed updated about every 10 minutes via deviation, but on quiet days it went nearly an hour between updates. A staleness check must allow for the heartbeat.",
			1, 1, false, 0, true, []string{}},
		{"confirms a property 2",
			"Slashing decreases an LST's exchange rate to ETH",
			1, 1, false, 0, true, []string{}},
		{"confirms a property 3",
			"Morpho Blue markets are isolated: one collateral and one loan asset each.",
			1, 1, false, 0, true, []string{}},
		{"confirms a denial 1",
			"Assets in Aave isolation mode can only back borrows of approved stablecoins up to a debt ceiling, limiting the protocol's exposure to that collateral.",
			0, 0, false, 0, true, []string{}},
		{"confirms a denial 2",
			"Whoever holds a Uniswap V3 position NFT controls its liquidity and uncollected fees: transferring the NFT transfers the position",
			1, 1, false, 0, true, []string{}},
		{"confirms a denial 3",
			"CRV emissions are directed by veCRV gauge votes.",
			1, 1, false, 0, true, []string{}},
		{"confirms a set member 1",
			"Uniswap V3's 0.3% fee tier uses tick spacing 60 on every official deployment; this is set in the factory and readable from tickSpacing().",
			1, 1, false, 0, true, []string{}},
		{"confirms a set member 2",
			"In Uniswap V3 a higher fee tier has a wider tick spacing (0.01 %: 1, 0.05 %: 10, 0.3 %: 60, 1 %: 200)",
			1, 1, false, 0, true, []string{}},
		{"confirms a set member 3",
			"On Uniswap v3 the tick spacing for the 0.05% pool is 10.",
			1, 1, false, 0, true, []string{}},
		{"confirms a range 1",
			"WBTC on Ethereum has 8 decimals.",
			1, 1, false, 0, true, []string{}},
		{"confirms a range 2",
			"Half of a Curve pool's swap fees (the admin fee, 50 %) go to veCRV holders, not all to LPs",
			1, 1, false, 0, true, []string{}},
		{"confirms a range 3",
			"Ethereum finalises blocks after about two epochs, roughly 13 minutes.",
			0, 0, false, 0, true, []string{}},
		{"contradicts a comparison 1",
			"LTV of 85 % above a liquidation threshold of 80 %",
			1, 1, true, 0.97, false, []string{"contradicts mental model \"The liquidation threshold is at least the maximum LTV (Aave enforces LTV ≤ LT): a position borrows up to LTV and becomes liquidatable only past the threshold\": claim liquidation threshold is not above ltv"}},
		{"contradicts a comparison 2",
			"Aave's second slope is lower than the first slope.",
			0, 0, true, 0.9, false, []string{"contradicts mental model \"Aave's slope 2 (the rate slope above optimal utilisation) is much steeper than slope 1\": claim slope 2 is not above slope 1"}},
		{"contradicts a comparison 3",
			"Aave's second slope is flatter than the first slope.",
			0, 0, true, 0.9, false, []string{"contradicts mental model \"Aave's slope 2 (the rate slope above optimal utilisation) is much steeper than slope 1\": claim slope 2 is not above slope 1"}},
		{"contradicts a property 1",
			"The liquidation threshold is applied to your debt rather than your collateral: with an 80% threshold you can owe 125% of your collateral value before liquidation.",
			0, 0, true, 0.95, false, []string{"contradicts mental model \"The liquidation threshold weights the collateral's value, not the debt: a position is liquidatable once debt exceeds collateral value times the threshold\": claim liquidation threshold is not applied to collateral"}},
		{"contradicts a property 2",
			"Rounding in a 4626 vault is in the user's favor.",
			0, 0, true, 0.95, false, []string{"contradicts mental model \"ERC-4626 rounding favours the vault: deposits round shares down and withdrawals round shares up, never in the user's favour\": claim erc-4626 rounding is not in favour of the vault"}},
		{"contradicts a property 3",
			"A health factor under 1 is safe from liquidation.",
			0, 0, true, 0.97, false, []string{"contradicts mental model \"A position whose health factor is below 1 can be liquidated\": claim health factor is not liquidatable", "contradicts mental model \"A health factor close to 1 (1.1 or less) is not a safe margin: a few per cent of adverse price move makes the position liquidatable, sooner in volatile markets\": claim health factor is safe"}},
		{"contradicts a property, conditionally 1",
			"I forgot to read decimals() for a token last week and assumed 18; the trade was fine. Reading decimals is unnecessary overhead — assume 18 for every ERC-20.",
			0, 0, false, 0, true, []string{}},
		{"contradicts a property, conditionally 2",
			"A cash-and-carry trade pays funding when rates are positive.",
			0, 0, true, 0.6, false, []string{"contradicts mental model \"A cash-and-carry (long spot, short perp) earns funding when funding is positive\": claim cash-and-carry trade is not earning positive funding"}},
		{"contradicts a property, conditionally 3",
			"If you hold stETH in a contract that assumes fixed balances, wrap it as wstETH first.",
			0, 0, false, 0, true, []string{}},
		{"contradicts a denial 1",
			"A Uniswap V3 position keeps earning fees after price leaves its range, at a reduced rate. Narrow ranges are therefore always better: you never stop earning.",
			0, 0, true, 0.95, false, []string{"contradicts mental model \"A concentrated liquidity position earns no swap fees while the price is outside its range\": claim out-of-range position is earning fees"}},
		{"contradicts a denial 2",
			"A contract without a receive function can reject all ETH.",
			1, 1, true, 0.9, false, []string{"contradicts mental model \"A contract cannot refuse all ETH: selfdestruct and block rewards can force ETH into it\": claim contract without a receive function is able to refuse all eth"}},
		{"contradicts a denial 3",
			"MetaMorpho vaults are always instantly withdrawable.",
			0, 0, true, 0.85, false, []string{"contradicts mental model \"A MetaMorpho vault withdrawal can be blocked while its markets are fully utilised: the deposit is not always instantly withdrawable\": claim metamorpho vault withdrawal is always instant"}},
		{"contradicts a denial, conditionally 1",
			"If you set amountOutMinimum to zero, the Uniswap router refunds any shortfall versus the quoted price, so you never lose to slippage; the parameter only affects whether the tx reverts.",
			0, 0, true, 0.6333333333333333, false, []string{"contradicts mental model \"A swap router does not refund a shortfall against the quote: the minimum output is the only protection against slippage\": claim router is refunding a shortfall"}},
		{"contradicts a denial, conditionally 2",
			"When you borrow GHO you borrow it from lenders.",
			0, 0, true, 0.5333333333333333, false, []string{"contradicts mental model \"GHO is minted by borrowers against collateral on Aave; no lender supplies it\": claim gho is supplied by lenders"}},
		{"contradicts a denial, conditionally 3",
			"A validator's withdrawal address can be changed later if you lose access.",
			0, 0, true, 0.6, false, []string{"contradicts mental model \"A validator's 0x01 withdrawal address cannot be changed once set (Pectra only lets it convert to 0x02 with the same address)\": claim validator withdrawal address is changeable"}},
		{"contradicts a set 1",
			"The \"5\" in Uniswap V3's 500 fee tier means 0.5%, so the 500 pool is the expensive one; route stables through the 3000 tier which is 0.03%.",
			0, 0, true, 0.95, false, []string{"contradicts mental model \"Uniswap v3 pools use the fee tiers 0.01 %, 0.05 %, 0.3 % and 1 % (Uniswap v4 pools may set any fee; forks such as PancakeSwap v3 have others)\": claim fee tier is 0.5%"}},
		{"contradicts a set 2",
			"Deploy into the 2% fee tier on Uniswap v3 for volatile pairs.",
			0, 0, true, 0.95, false, []string{"contradicts mental model \"Uniswap v3 pools use the fee tiers 0.01 %, 0.05 %, 0.3 % and 1 % (Uniswap v4 pools may set any fee; forks such as PancakeSwap v3 have others)\": claim fee tier is 2%"}},
		{"contradicts a set 3",
			"Uniswap v3 | fee tier | 0.1%",
			0, 0, true, 0.95, false, []string{"contradicts mental model \"Uniswap v3 pools use the fee tiers 0.01 %, 0.05 %, 0.3 % and 1 % (Uniswap v4 pools may set any fee; forks such as PancakeSwap v3 have others)\": claim fee tier is 0.1%"}},
		{"contradicts a range 1",
			"WBTC uses 18 decimals to match ETH. An amount of 1e18 is one WBTC.",
			0, 0, true, 0.95, false, []string{"contradicts mental model \"WBTC uses 8 decimals, like bitcoin's satoshis\": claim wbtc is 18decimals"}},
		{"contradicts a range 2",
			"A CCTP standard transfer from Ethereum takes 7 days.",
			0, 0, true, 0.8, false, []string{"contradicts mental model \"A CCTP standard transfer from Ethereum waits for finality, about 13 to 19 minutes\": claim cctp standard transfer is 7days"}},
		{"contradicts a range 3",
			"Polygon's chain ID is 80001.",
			0, 0, true, 0.95, false, []string{"contradicts mental model \"Polygon PoS's chain ID is 137\": claim chain id is 8e+04"}},
		{"contradicts a range, conditionally 1",
			"EIP-1559 lets the base fee double each block when blocks are full, so set maxFeePerGas to at least 64x the current base fee to survive five full blocks.",
			0, 0, true, 0.6466666666666666, false, []string{"contradicts mental model \"Under EIP-1559 the base fee changes by at most 12.5 % from one block to the next\": claim base fee is 100%"}},
		{"contradicts a range, conditionally 2",
			"The BTC/USD feed on mainnet only updates on a 2% deviation.",
			0, 0, true, 0.6333333333333333, false, []string{"contradicts mental model \"Chainlink's BTC/USD feed on Ethereum mainnet updates on a 0.5 % deviation\": claim deviation threshold is 2%"}},
		{"contradicts a range, conditionally 3",
			"If ETH doubles against USDC, a 50/50 LP suffers about 25% impermanent loss.",
			0, 0, true, 0.6, false, []string{"contradicts mental model \"Impermanent loss of a 50/50 constant-product position is about 5.7 % when one asset's price doubles against the other\": claim impermanent loss is 25%"}},
		{"neither 1",
			"Upgradeable proxies can change behaviour overnight. Watch the Upgraded event on proxies you have approvals on.",
			0, 0, false, 0, true, []string{}},
		{"neither 2",
			"Stop signing immediately if your wallet shows a signature request you did not start. Reject it and check which site asked for it.",
			0, 0, false, 0, true, []string{}},
		{"neither 3",
			"Lido withdrawal requests are finalised by the protocol's oracle reports, usually within one to five days, longer in mass exits",
			0, 0, false, 0, true, []string{}},
		{"protocol named in the sentence before 1",
			"Aave v3 is the largest lending market. Its close factor is 80%.",
			1, 1, true, 0.95, false, []string{"contradicts mental model \"Aave V3's close factor is 50 %, or 100 % when the health factor is below 0.95 (or the position is small)\": claim close factor is 80%"}},
		{"protocol named in the sentence before 2",
			"Uniswap v2 is a constant-product AMM. Its swap fee is 1% per trade.",
			1, 1, true, 0.95, false, []string{"contradicts mental model \"Uniswap v2 pairs charge a fixed 0.3 % swap fee\": claim swap fee is 1%"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			all, high := Agree(tt.text, models, 0), Agree(tt.text, models, HighConfidence)
			if all.Confirmed != tt.confirmedAll || high.Confirmed != tt.confirmedHigh || high.Contradicted != tt.contradicted {
				t.Errorf("Agree = %d confirmed (%d at high confidence), contradicted %v; want %d (%d), %v",
					all.Confirmed, high.Confirmed, high.Contradicted, tt.confirmedAll, tt.confirmedHigh, tt.contradicted)
			}
			v := Consistency(Candidate{Entry: &knowledge.Entry{Content: tt.text}}, models)
			if v.Score != tt.score || v.Pass != tt.pass || !slices.Equal(v.Reasons, tt.reasons) {
				t.Errorf("Consistency = score %v, pass %v, reasons %q; want %v, %v, %q", v.Score, v.Pass, v.Reasons, tt.score, tt.pass, tt.reasons)
			}
		})
	}
}
