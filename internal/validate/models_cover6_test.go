package validate

import (
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/knowledge"
)

// cover6Contradictions are, per model of the sixth round (hmech7, issue
// 20), sentences written for this test, not taken from any data set, that
// contradict it as an outside note would: in a code comment, a config
// note, an FAQ answer or a plain sentence. L3b must fail each and name the
// model.
var cover6Contradictions = []coverCase{
	{"ERC-4626 previewDeposit, previewRedeem", []string{
		"previewRedeem rounds the assets up so redeemers are never short-changed.",
		"// convertToShares: rounds up, in favour of the user",
	}},
	{"ERC-4626 previewMint and previewWithdraw round up", []string{
		"In a 4626 vault previewWithdraw rounds the shares down.",
		"previewMint rounds down, so minting is slightly cheaper than depositing.",
	}},
	{"A liquidation bonus is never paid to the liquidated borrower", []string{
		"The liquidation incentive is refunded to the borrower once the position is closed.",
		"On Aave the liquidation bonus goes to the borrower to soften the loss.",
	}},
	{"the liquidation bonus goes to the liquidator", []string{
		"On Compound the liquidation bonus is never paid to liquidators; it stays with the protocol.",
	}},
	{"A perp trading below its index", []string{
		"If the perp trades at a discount, longs pay shorts.",
		"When the mark price is below the index, funding is positive.",
	}},
	{"A perp trading above its index", []string{
		"When the perp trades at a premium, funding turns negative.",
	}},
	{"A flash loan must be repaid in the same transaction, not in a later block", []string{
		"Flash loans may be repaid in a separate transaction within the hour.",
	}},
	{"A transaction that runs out of gas still pays", []string{
		"If a transaction runs out of gas, the fee is refunded.",
		"A transaction that ran out of gas costs nothing because its state changes are undone.",
	}},
	{"An EIP-2612 permit signature can be submitted by anyone", []string{
		"A signed EIP-2612 permit can be used only by the spender named in it.",
	}},
	{"A Permit2 SignatureTransfer signature authorises a single transfer", []string{
		"A SignatureTransfer gives the router a standing allowance until you revoke it.",
	}},
	{"A private mempool or relay keeps a transaction out of the public mempool", []string{
		"A private RPC increases exposure to front-running because searchers see it first.",
	}},
	{"A swap's deadline makes it revert", []string{
		"A swap's deadline parameter means the router executes at the deadline block.",
	}},
	{"A sandwich trades the same way as the victim", []string{
		"A sandwich bot buys ahead of your buy and then buys again once it lands.",
	}},
	{"A ZK rollup proves its state with validity proofs", []string{
		"zkSync withdrawals also wait out a 7-day challenge window.",
	}},
	{"An optimistic rollup's state root is final on L1 only after", []string{
		"On Arbitrum an output root is final once it is posted, the challenge is a formality.",
	}},
	{"A withdrawal from an optimistic rollup through its canonical bridge is not final when its batch is posted", []string{
		"Base withdrawals through the canonical bridge are done once the batch is posted to L1.",
	}},
	{"Uniswap charges its swap fee on the input token", []string{
		"On Uniswap the pool fee is deducted from the output, so LPs are paid in the token you buy.",
	}},
	{"An ERC-4337 paymaster pays for a sponsored user operation", []string{
		"A paymaster sponsors gas, which is then taken from the user's account balance.",
	}},
	{"An ERC-4337 account's validateUserOp must only be callable", []string{
		"validateUserOp can be called by anyone, so it should not check the caller.",
	}},
	{"ERC-4337 nonces are kept by the EntryPoint", []string{
		"For user operations the nonce is assigned by the bundler when it builds the bundle.",
	}},
	{"A governance timelock delays the execution of passed proposals so that users", []string{
		"With a governance timelock, users cannot exit before a proposal executes.",
	}},
	{"A Chainlink deviation threshold triggers an update", []string{
		"The deviation threshold is purely informational; feeds refresh on the heartbeat.",
	}},
	{"not on the heartbeat alone", []string{
		"Chainlink price feeds refresh only at fixed intervals set by the heartbeat.",
	}},
	{"Higher leverage moves a position's liquidation price closer", []string{
		"More leverage puts the liquidation price further away from entry.",
	}},
	{"A higher liquidation threshold lets a position carry more debt", []string{
		"Increasing the liquidation threshold makes a position liquidatable sooner.",
	}},
	{"Interest on a borrow accrues to the debt", []string{
		"On a variable-rate loan, interest is added to your collateral each block.",
	}},
	{"An ERC-20 approval is revoked by its owner", []string{
		"Revoking an approval is done from the spender's address with approve(spender, 0).",
	}},
}

// cover6Clean are correct sentences on the same mechanics, hard
// negatives included; none may fail L3b.
var cover6Clean = []string{
	"previewDeposit rounds shares down and previewMint rounds assets up, both in the vault's favour.",
	"previewRedeem rounds down; previewWithdraw rounds up.",
	"The liquidation bonus goes to the liquidator and comes out of the borrower's collateral.",
	"In Maker, the liquidation penalty is added to the debt the auction must cover.",
	"When the perp trades at a discount, shorts pay longs.",
	"When the perp trades above the index, funding is positive and longs pay shorts.",
	"A flash loan must be repaid before the transaction ends.",
	"A transaction that runs out of gas reverts, and the gas it used is still paid; unused gas is refunded.",
	"Anyone holding an EIP-2612 permit signature can submit it before its deadline.",
	"A Permit2 SignatureTransfer is single-use: its nonce is consumed.",
	"A private RPC keeps your swap out of the public mempool.",
	"The router reverts a swap mined after its deadline.",
	"A sandwich buys before the victim's buy and sells right after it.",
	"ZK rollup withdrawals wait for a validity proof, not a challenge window.",
	"On Arbitrum a state root is final only after the challenge period passes.",
	"Deposits to Base arrive in minutes; withdrawals through the canonical bridge take about a week.",
	"On Uniswap the swap fee is taken from the input amount and paid to LPs in the input token.",
	"Curve charges its fee on the output of an exchange.",
	"A paymaster pays gas from its deposit at the EntryPoint.",
	"validateUserOp is called by the EntryPoint, and accounts should check the caller.",
	"For user operations the EntryPoint tracks each account's nonce.",
	"A timelock gives users time to exit before a change executes.",
	"Only the owner can revoke an approval, by calling approve(spender, 0).",
	"A deviation threshold triggers an update as soon as the price moves past it.",
	"Chainlink feeds update on the deviation threshold or the heartbeat, whichever comes first.",
	"Higher leverage puts the liquidation price closer to entry.",
	"A higher liquidation threshold lets you borrow closer to your collateral's value before liquidation.",
	"Interest on a borrow accrues to the debt, so the health factor drifts down.",
	"Suppliers earn interest that is added to their aToken balance, which can back a borrow as collateral.",
}

// TestModelCoverage6 holds the sixth round's models to their
// contradictions and correct sentences.
func TestModelCoverage6(t *testing.T) {
	models, err := ShippedModels()
	if err != nil {
		t.Fatal(err)
	}
	vote := func(text string) Vote {
		return Consistency(Candidate{Entry: &knowledge.Entry{Content: text}}, models)
	}
	for _, tc := range cover6Contradictions {
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
	for _, text := range cover6Clean {
		t.Run("clean/"+text, func(t *testing.T) {
			if v := vote(text); !v.Pass {
				t.Errorf("Consistency flags a correct sentence: %q", v.Reasons)
			}
		})
	}
}
