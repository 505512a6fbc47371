package validate

import (
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/knowledge"
)

// cover5Contradictions are, per model of the fifth round (hmech6, issue
// 20), sentences written for this test, not taken from any data set, that
// contradict it in the way an outside note does: one wrong relation inside
// an otherwise ordinary sentence. L3b must fail each and name the model.
var cover5Contradictions = []coverCase{
	{"A higher implied volatility raises an option's value", []string{"All else equal, higher implied volatility reduces option value."}},
	{"A large token unlock tends to add sell pressure", []string{"A token unlock reduces sell pressure on the market."}},
	{"Option buyers pay time decay", []string{"Holders of options collect time decay while they wait for a move."}},
	{"A seller of cash-secured puts", []string{"Selling puts is protected in a crash because the premium covers any loss."}},
	{"A put option has negative delta", []string{"A put option has positive delta, like the stock itself."}},
	{"Looping (borrowing and redepositing)", []string{"Recursive borrowing lowers liquidation risk since every round adds collateral."}},
	{"Positive funding means longs pay shorts", []string{"When the perp trades at a premium, shorts pay longs every eight hours."}},
	{"Negative funding means shorts pay longs", []string{"With negative funding, longs pay shorts until the discount closes."}},
	{"A cash-and-carry basis trade", []string{"A cash-and-carry position earns funding when funding is negative."}},
	{"Uniswap v3 fees accrue separately", []string{"On Uniswap v3, fees earned are compounded automatically into your range."}},
	{"Uniswap v2's 0.3 % swap fee", []string{"On Uniswap v2 the 0.3% on each swap goes to the protocol treasury."}},
	{"Swap fees are paid by traders", []string{"Pool fees are paid by liquidity providers to compensate traders for using the pool."}},
	{"worse execution price, bounded by the victim's slippage", []string{"The sandwich profit comes from the pool's LPs."}},
	{"A higher slippage tolerance gives sandwich bots", []string{"A wider slippage tolerance protects against sandwich attacks."}},
	{"A private RPC (Flashbots Protect", []string{"MEV Blocker makes your swap more exposed to MEV than the public mempool."}},
	{"Just-in-time liquidity improves", []string{"JIT liquidity makes the swapper's price worse."}},
	{"A backrun does not change", []string{"Backrunning worsens the target's price."}},
	{"With a high-water mark", []string{"Under a high-water mark, fees are charged again on the recovery of earlier losses."}},
	{"In a '2 and 20' fee structure", []string{"A 2/20 fund takes 20% of assets every year."}},
	{"A slashed Ethereum validator loses part", []string{"Slashing only forfeits rewards; the stake itself is untouched."}},
	{"Restaking adds the slashing conditions", []string{"Liquid restaking removes slashing risk for depositors."}},
	{"A governance timelock delays queued changes", []string{"A timelock lets governance execute changes immediately."}},
	{"A bridge validated by a multisig", []string{"A multisig bridge is as secure as Ethereum itself."}},
	{"Wrapped tokens of a lock-and-mint bridge", []string{"Bridged tokens keep their value even if the bridge is drained."}},
	{"Fast third-party bridges front liquidity", []string{"Liquidity bridges have the same security as the canonical bridge."}},
	{"When an L2 sequencer is down", []string{"During a sequencer outage, prices keep updating as usual."}},
	{"A vault with a withdrawal queue", []string{"Vaults with a withdrawal queue always pay out immediately."}},
	{"A token blacklist freezes balances", []string{"USDC held in a multisig cannot be frozen by the issuer."}},
	{"A Uniswap v4 hook can change", []string{"Uniswap v4 hooks cannot change fees or amounts."}},
	{"Deribit options are European", []string{"Options on Deribit are American style."}},
	{"For the same nominal rate with compounding", []string{"Quoted on the same rate, the APR is higher than the APY."}},
	{"trusts the relay to reveal it", []string{"With MEV-Boost the proposer needs no trust in the relay."}},
	{"Maker's Liquidation 2.0 auctions start", []string{"In Maker's Dutch auctions the price starts low and rises."}},
	{"When one coin of a Curve stable pool depegs", []string{"When a coin depegs, the pool holds less of it as arbitrage drains it."}},
	{"In a constant-product pool buying a token raises", []string{"In a constant product AMM, buying a token makes its price fall."}},
	{"Depositing into an ERC-4626 vault", []string{"In an ERC-4626 vault, new deposits raise the share price for existing holders."}},
	{"An empty ERC-4626 vault's first depositor", []string{"The first depositor is safe from the inflation attack because they own every share."}},
	{"rETH's exchange rate against ETH rises", []string{"The rETH exchange rate falls over time as Rocket Pool pays rewards."}},
	{"its token count does not stay fixed", []string{"Lido's stETH is non-rebasing; its value grows instead."}},
	{"A fall in collateral prices lowers", []string{"A drop in collateral prices raises the collateral ratio of the stablecoin."}},
	{"a falling volatile token weakens the peg", []string{"For an algorithmic stablecoin, falling LUNA strengthens the peg."}},
	{"A delta-neutral stablecoin's yield falls", []string{"When funding goes negative, the delta-neutral yield goes up."}},
	{"Transactions from one account execute in nonce order", []string{"A higher nonce can be mined before an earlier one if its fee is larger."}},
	{"A flash loan not repaid in the same transaction", []string{"If a flash loan is not repaid, the lender takes a loss."}},
	{"ZK rollup withdrawals finalise", []string{"ZK rollups take the same seven days as optimistic rollups to withdraw."}},
	{"A price feed updates when the price moves past", []string{"The reported price between updates is exact to the block, so skip the staleness check."}},
	{"A longer TWAP window is harder to manipulate", []string{"For a TWAP, a shorter window is harder to manipulate."}},
	{"A TWAP lags a sharp move", []string{"A TWAP oracle reacts instantly to a crash."}},
	{"deviation threshold sets when the feed updates", []string{"With a 1% deviation threshold, the price can't move more than 1% between two rounds."}},
}

// cover5Clean are correct sentences on the same mechanics, including the
// wordings of the contradictions above set right; none may fail L3b.
var cover5Clean = []string{
	"All else equal, higher implied volatility raises option value.",
	"Holders of options pay time decay while they wait for a move.",
	"Selling puts earns a premium, but the seller must buy at the strike if the price crashes.",
	"A put option has negative delta.",
	"Recursive borrowing raises liquidation risk because debt grows with each round.",
	"When the perp trades at a premium, longs pay shorts every eight hours.",
	"With negative funding, shorts pay longs until the discount closes.",
	"A cash-and-carry position earns funding when funding is positive.",
	"On Uniswap v3, fees earned must be collected; they accumulate separately from liquidity.",
	"On Uniswap v2 the 0.3% on each swap is added to the reserves for LPs.",
	"Pool fees are paid by traders to liquidity providers.",
	"A sandwich attacker's profit comes from the worse price the victim receives.",
	"A tight slippage tolerance limits what a sandwich can take.",
	"MEV Blocker keeps your swap out of the public mempool.",
	"JIT liquidity improves the swapper's price but dilutes passive LPs.",
	"A slashed validator loses part of its stake and is forcibly exited.",
	"Liquid restaking adds slashing conditions on top of the validator's own.",
	"A timelock delays queued changes, giving users an exit window.",
	"A multisig bridge is only as secure as its signers.",
	"Bridged tokens lose their backing if the bridge is drained.",
	"During a sequencer outage, L2 prices cannot update; protocols should pause liquidations.",
	"Uniswap v4 hooks can change fees and amounts, so read the hook before routing.",
	"Options on Deribit are European and settle only at expiry.",
	"In Maker's Dutch auctions the price starts high and falls over time.",
	"In a constant product AMM, buying a token makes its price rise.",
	"In an ERC-4626 vault, new deposits do not change the price per share.",
	"The rETH exchange rate rises over time as rewards accrue.",
	"If a flash loan is not repaid, the whole transaction reverts.",
	"ZK rollups finalise withdrawals in hours once the proof is verified.",
	"For a TWAP, a longer window is harder to manipulate.",
	"A TWAP oracle lags a sharp move.",
	"Funding is paid between longs and shorts, not to the exchange.",
}

// TestModelCoverage5 holds the fifth round's models to their
// contradictions and correct sentences.
func TestModelCoverage5(t *testing.T) {
	models, err := ShippedModels()
	if err != nil {
		t.Fatal(err)
	}
	vote := func(text string) Vote {
		return Consistency(Candidate{Entry: &knowledge.Entry{Content: text}}, models)
	}
	for _, tc := range cover5Contradictions {
		var model *Model
		for i := range models {
			if strings.Contains(models[i].Statement, tc.model) {
				if model != nil {
					t.Fatalf("%q names more than one model", tc.model)
				}
				model = &models[i]
			}
		}
		if model == nil {
			t.Fatalf("%q names no model", tc.model)
		}
		for _, text := range tc.texts {
			t.Run("contradicts/"+text, func(t *testing.T) {
				v := vote(text)
				if v.Pass || !strings.Contains(strings.Join(v.Reasons, "; "), model.Statement) {
					t.Errorf("Consistency = pass %v (reasons %q), want a failure naming %q", v.Pass, v.Reasons, model.Statement)
				}
			})
		}
	}
	for _, text := range cover5Clean {
		t.Run("clean/"+text, func(t *testing.T) {
			if v := vote(text); !v.Pass {
				t.Errorf("Consistency flags a correct sentence: %q", v.Reasons)
			}
		})
	}
}

// A claim ends where its consequence or cause clause begins: the reversed
// rate model is read in a sentence that goes on with ", so …", and the
// correct sentence with the same tail stays clean.
func TestConsequenceClause(t *testing.T) {
	models, err := ShippedModels()
	if err != nil {
		t.Fatal(err)
	}
	bad := "Higher utilisation lowers the borrow rate, so a nearly drained pool is where borrowing is cheapest."
	good := "Higher utilisation raises the borrow rate, so a nearly drained pool is where borrowing is dearest."
	if v := Consistency(Candidate{Entry: &knowledge.Entry{Content: bad}}, models); v.Pass {
		t.Errorf("Consistency(%q) passes, want the utilisation model", bad)
	}
	if v := Consistency(Candidate{Entry: &knowledge.Entry{Content: good}}, models); !v.Pass {
		t.Errorf("Consistency(%q) fails: %q", good, v.Reasons)
	}
	if got := mainClause("Deeper liquidity lowers price impact, because each trade is a smaller share of the reserves."); got != "Deeper liquidity lowers price impact" {
		t.Errorf("mainClause = %q", got)
	}
	if got := mainClause("So what, because nothing here."); got != "So what, because nothing here." {
		t.Errorf("mainClause without a verb before the cause = %q", got)
	}
}

// Two reading rules of the fifth round: "raising"/"lowering" before a
// quantity are its direction ("raising a market's utilisation lowers its
// borrow rate" is read as the utilisation model reversed), and a negation
// in one predicate does not bear on a second predicate after "and is"
// ("stops earning fees and is held in one token" affirms the second).
func TestReadingRules5(t *testing.T) {
	models, err := ShippedModels()
	if err != nil {
		t.Fatal(err)
	}
	vote := func(text string) Vote {
		return Consistency(Candidate{Entry: &knowledge.Entry{Content: text}}, models)
	}
	for _, text := range []string{
		"Raising a lending market's utilisation lowers its borrow rate.",
		"Lowering a market's utilisation raises its borrow rate.",
		"When the price leaves your range your position is not held entirely in one token.",
	} {
		if v := vote(text); v.Pass {
			t.Errorf("Consistency(%q) passes, want a contradiction", text)
		}
	}
	for _, text := range []string{
		"Raising a lending market's utilisation raises its borrow rate, steeply past the kink.",
		"When the price leaves your range your position stops earning fees and is held entirely in one token.",
	} {
		if v := vote(text); !v.Pass {
			t.Errorf("Consistency(%q) fails: %q", text, v.Reasons)
		}
	}
}
