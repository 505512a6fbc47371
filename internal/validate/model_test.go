package validate

import (
	"errors"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/knowledge"
)

// mechanicCases are, per mental model, entries that contradict it (they
// must fail L3b with scrutiny, and decisively when the model is a
// definition or bound) and correct paraphrases of the same mechanics (they
// must pass: a layer that flags correct knowledge keeps it out).
var mechanicCases = []struct {
	area, model string // model: a substring of the contradicted statement
	decisive    bool
	contradict  []string
	correct     []string
}{
	// concentrated liquidity and impermanent loss
	{"amm", "not on its direction", false,
		[]string{"Impermanent loss only occurs when the price falls.", "IL only happens when price drops.", "LPs suffer impermanent loss only in a falling market."},
		[]string{"Impermanent loss occurs whether the price rises or falls.", "IL depends on how far the price ratio moves, not on the direction.", "A 2x pump costs an LP as much against holding as a halving does.", "Impermanent loss is not limited to falling markets."}},
	{"amm", "A rise in the price ratio causes impermanent loss", false,
		[]string{"Rising prices never cause impermanent loss.", "A price increase does not create impermanent loss.", "Price pumps don't cause IL."},
		[]string{"A price rise causes impermanent loss just like a fall.", "Rising prices also cause impermanent loss for LPs.", "Price increases cause impermanent loss too."}},
	{"amm", "entirely in one of the two assets", false,
		[]string{"An out-of-range Uniswap v3 position still holds both tokens.", "Out of range positions keep a balanced mix of both assets.", "Positions out of range hold two assets."},
		[]string{"An out-of-range position is entirely in one token.", "Once the price leaves your range, the position holds a single asset.", "Out-of-range liquidity sits 100% in one asset until the price returns."}},
	{"amm", "earns no swap fees", false,
		[]string{"Out of range positions keep earning fees.", "An out-of-range position still earns trading fees.", "Out-of-range liquidity continues to earn swap fees."},
		[]string{"Out-of-range positions stop earning fees.", "Out of range liquidity does not earn fees until the price returns.", "A position out of range earns nothing from swaps."}},
	{"amm", "Uniswap v3 pools use the fee tiers", true,
		[]string{"Uniswap v3 has a 0.25% fee tier.", "The Uniswap v3 fee tiers are 0.01%, 0.05%, 0.25% and 1%.", "Deploy into the 2% fee tier on Uniswap v3 for volatile pairs."},
		[]string{"Uniswap v3 offers fee tiers of 0.01%, 0.05%, 0.3% and 1%.", "The 5 bps fee tier on Uniswap v3 suits stable pairs.", "PancakeSwap v3 has a 0.25% fee tier, unlike Uniswap v3.", "Uniswap v3's 1% fee tier is for exotic pairs."}},
	// lending utilisation and rates
	{"lending", "supply rate is below the borrow rate", false,
		[]string{"The supply APY is higher than the borrow APY.", "On Aave the borrow rate is lower than the supply rate.", "The supply rate is above the borrow rate."},
		[]string{"The borrow rate is always higher than the supply rate.", "Supply rates are lower than borrow rates because only part of the pool is lent.", "Suppliers earn less than borrowers pay."}},
	{"lending", "At 100 % utilisation suppliers cannot withdraw", false,
		[]string{"At 100% utilization suppliers can always withdraw.", "Even at 100% utilisation lenders can withdraw instantly."},
		[]string{"At 100% utilization, suppliers cannot withdraw until borrowers repay.", "Withdrawals stall when utilization reaches 100%.", "At 100% utilisation there is no idle liquidity to withdraw."}},
	{"lending", "Higher utilization increases the borrow rate", false,
		[]string{"Higher utilization lowers the borrow rate.", "Borrow rates fall when utilization rises.", "Utilisation does not increase borrowing costs."},
		[]string{"Higher utilization increases the borrow rate.", "Borrow APRs rise as utilisation climbs.", "When utilization goes up, borrowing gets more expensive."}},
	// liquidation
	{"liquidation", "liquidation threshold is at least the maximum LTV", true,
		[]string{"The liquidation threshold is below the LTV.", "On Aave, LTV is higher than the liquidation threshold.", "The liquidation threshold is lower than the maximum LTV.", "The LT is not above the LTV."},
		[]string{"The liquidation threshold is always set above the LTV.", "LTV is lower than the liquidation threshold, leaving a buffer.", "When your LTV rises above the liquidation threshold, you get liquidated.", "If the position's LTV exceeds the liquidation threshold the position is liquidated."}},
	{"liquidation", "close factor", true,
		[]string{"The close factor is 150%.", "Aave's close factor can be 200% of the debt.", "A close factor of 120% lets liquidators clear the debt in one call."},
		[]string{"The close factor is 50%.", "Aave's close factor is 50%, or 100% when the health factor is below 0.95.", "The close factor caps how much of a debt one liquidation can repay.", "A close factor of 100% allows the whole debt to be repaid at once."}},
	{"liquidation", "health factor is below 1 can be liquidated", true,
		[]string{"A health factor below 1 cannot be liquidated.", "Positions with HF under 1 are safe from liquidation.", "A position with a health factor of 0.9 is immune to liquidation."},
		[]string{"Positions with a health factor below 1 can be liquidated.", "Once HF drops below 1, liquidators can repay part of the debt.", "A health factor under 1 makes the position eligible for liquidation.", "A health factor above 1 cannot be liquidated."}},
	{"liquidation", "health factor close to 1", false,
		[]string{"A health factor of 1.05 is safe in volatile markets.", "HF 1.05 is safe.", "Running at a health factor of 1.02 is fine."},
		[]string{"A health factor of 1.05 is not safe in volatile markets.", "Keep your health factor above 1.5 to stay safe.", "A health factor of 2 is a safe margin.", "An HF of 1.05 leaves little room: a 5% drop liquidates you."}},
	// oracle behaviour
	{"oracle", "longer heartbeat", false,
		[]string{"A longer heartbeat reduces oracle staleness.", "Longer heartbeats decrease staleness."},
		[]string{"A longer oracle heartbeat increases staleness.", "Shorter heartbeats reduce staleness.", "Staleness grows with a longer heartbeat."}},
	{"oracle", "Push oracles such as Chainlink", false,
		[]string{"Chainlink updates every block.", "Chainlink price feeds are real-time.", "Chainlink oracles are always up to date."},
		[]string{"Chainlink feeds update on a deviation threshold or heartbeat, not every block.", "Chainlink prices can lag the market between updates.", "A Chainlink feed is not real-time."}},
	{"oracle", "AMM spot price can be moved", false,
		[]string{"Spot AMM prices are a safe oracle.", "Pool spot prices cannot be manipulated.", "The DEX spot price is manipulation-resistant."},
		[]string{"Spot prices can be manipulated with flash loans.", "Never use an AMM spot price as an oracle.", "A pool's spot price is not a safe oracle."}},
	// MEV and slippage
	{"mev", "Private mempools and protected RPCs reduce MEV", false,
		[]string{"Private mempools eliminate MEV.", "Using Flashbots Protect makes you immune to MEV.", "A private RPC means no MEV."},
		[]string{"Private RPCs reduce but do not eliminate MEV.", "Private mempools reduce MEV exposure.", "A private RPC does not make a trade immune to MEV."}},
	{"mev", "Slippage protection (a minimum output) is needed", false,
		[]string{"Slippage protection is never needed.", "You don't need slippage protection on stablecoin swaps.", "Slippage protection is unnecessary on L2s."},
		[]string{"Always set a minimum output on swaps.", "Slippage protection is essential for large swaps.", "Slippage protection matters most in thin pools."}},
	{"mev", "minimum output of zero", false,
		[]string{"Setting amountOutMin to 0 is safe.", "A minimum output of 0 is fine for small swaps."},
		[]string{"Setting amountOutMin to 0 is never safe.", "A minimum output of 0 invites a sandwich.", "amountOutMin of 0 is dangerous."}},
	{"mev", "higher slippage tolerance lets searchers", false,
		[]string{"Higher slippage tolerance reduces MEV.", "A looser slippage tolerance lowers MEV."},
		[]string{"Higher slippage tolerance increases MEV extraction.", "Tighter slippage tolerance reduces MEV.", "MEV grows with slippage tolerance."}},
	// LST/LRT pricing
	{"lst", "wstETH does not rebase", true,
		[]string{"wstETH rebases daily.", "wstETH balances grow every day as rewards accrue.", "Like stETH, wstETH is a rebasing token."},
		[]string{"wstETH does not rebase; its exchange rate to stETH rises instead.", "Unlike stETH, wstETH does not rebase.", "wstETH is the non-rebasing wrapper of stETH.", "stETH rebases daily while wstETH accrues value through its exchange rate."}},
	{"lst", "stETH rebases", true,
		[]string{"stETH does not rebase.", "stETH is a non-rebasing token.", "stETH has a fixed balance."},
		[]string{"stETH balances rebase every day to reflect staking rewards.", "stETH is a rebasing token.", "Holders of stETH see their balance grow daily."}},
	{"lst", "rETH does not rebase", true,
		[]string{"rETH rebases like stETH.", "rETH is a rebasing token."},
		[]string{"rETH accrues value through an exchange rate rather than rebasing.", "rETH does not rebase.", "rETH is non-rebasing."}},
	{"lst", "stETH is not instantly redeemable", true,
		[]string{"stETH is 1:1 redeemable instantly.", "You can always redeem stETH for ETH instantly at 1:1.", "stETH is instantly redeemable for ETH through Lido."},
		[]string{"stETH withdrawals go through Lido's withdrawal queue, which can take days.", "stETH is not instantly redeemable; withdrawals wait in the queue.", "You can swap stETH for ETH instantly on Curve at the market price."}},
	{"lst", "can trade below their backing", false,
		[]string{"stETH can never depeg from ETH.", "stETH always trades 1:1 with ETH.", "LRTs are hard-pegged to ETH."},
		[]string{"stETH can trade at a discount to ETH during market stress.", "LSTs can depeg when liquidity dries up.", "rETH can trade below its backing."}},
	// bridging
	{"bridge", "about 7 days", false,
		[]string{"Withdrawing from Arbitrum through the canonical bridge takes 10 minutes.", "Exiting a rollup through its canonical bridge takes ten minutes."},
		[]string{"Withdrawals from Optimism via the canonical bridge take about 7 days.", "Withdrawing through the native bridge takes a week because of the challenge period.", "Third-party bridges like Across can get you out of Arbitrum in minutes."}},
	{"bridge", "challenge period on its canonical bridge", true,
		[]string{"Canonical bridge withdrawals from Optimism take about 2 hours.", "Arbitrum One's challenge period is 24 hours.", "On Base the dispute window lasts three days.", "Withdrawals from OP Mainnet to Ethereum through the canonical bridge finalise after one hour."},
		[]string{"Arbitrum One's challenge period is about seven days.", "Withdrawals from Optimism take 7 days on the canonical bridge.", "Across moves funds from Base in two minutes.", "Deposits to Arbitrum arrive in ten minutes.", "Withdrawals from Arbitrum One to Ethereum through the canonical bridge finalise after about seven days."}},
	{"bridge", "optimistic rollup through the canonical bridge is not instant", false,
		[]string{"Withdrawals via the native bridge from Optimism are instant.", "Canonical bridge withdrawals are immediate."},
		[]string{"Withdrawals through the canonical bridge are not instant.", "Deposits through the canonical bridge arrive within minutes.", "Canonical bridge withdrawals wait out the challenge period."}},
	{"bridge", "Bridged USDC", true,
		[]string{"USDC.e is the same as native USDC.", "USDC.e is issued by Circle."},
		[]string{"USDC.e is bridged USDC, not native USDC.", "USDC.e can be swapped for native USDC on most DEXs.", "USDC.e is not the same as native USDC.", "Native USDC is issued by Circle."}},
	{"bridge", "does not exist at the same address on every chain", false,
		[]string{"Your Safe multisig has the same address on every chain.", "Smart contract wallets exist on all chains automatically."},
		[]string{"EOAs have the same address on every EVM chain.", "A Safe multisig must be deployed on each chain before receiving funds there.", "Do not send funds to your multisig address on a chain where it is not deployed."}},
	{"bridge", "A deposit from Ethereum to a rollup", false,
		[]string{"Deposits to Arbitrum through the canonical bridge take 7 days.", "A canonical bridge deposit takes about a week."},
		[]string{"Deposits through the canonical bridge arrive within 15 minutes.", "Canonical bridge withdrawals take 7 days, while deposits take minutes.", "Depositing via the native bridge takes about 10 minutes."}},
	{"bridge", "CCTP burns USDC", false,
		[]string{"CCTP gives you USDC.e on the destination chain.", "Circle's CCTP is a lock-and-mint bridge that delivers wrapped USDC."},
		[]string{"CCTP burns USDC on the source chain and mints native USDC on the destination.", "With CCTP you receive native USDC, not a wrapped token.", "CCTP does not deliver USDC.e."}},
	// gas
	{"gas", "base fee changes by at most 12.5", true,
		[]string{"The maximum change of the base fee between consecutive blocks is 50%.", "From one block to the next the base fee can move 25%."},
		[]string{"The base fee can rise by at most 12.5% per block.", "Between consecutive blocks the base fee moves 12.5% at most.", "On Arbitrum the base fee can jump 50% from one block to the next."}},
	{"gas", "base fee is burned", true,
		[]string{"The base fee goes to the validator.", "Under EIP-1559 the base fee is paid to miners.", "Validators earn the base fee."},
		[]string{"The base fee is burned and the tip goes to the validator.", "Under EIP-1559, the base fee is burned.", "EIP-1559 burns the base fee."}},
	{"gas", "priority fee (tip) goes to the block's proposer", true,
		[]string{"Priority fees are burned.", "The tip is burned along with the base fee."},
		[]string{"Priority fees go to the block proposer.", "The tip is paid to the validator.", "Validators keep the priority fee while the base fee is burned."}},
	{"gas", "reverted transaction still pays", false,
		[]string{"Failed transactions are free.", "Reverted transactions don't cost gas.", "A reverted transaction gets a full refund."},
		[]string{"Reverted transactions still pay for gas used.", "A failed transaction still costs gas.", "Reverts burn the gas consumed up to the failure."}},
	{"gas", "nonce orders it", true,
		[]string{"Ethereum transaction nonces can be used in any order.", "Account nonces can be skipped freely."},
		[]string{"Transactions from an account execute in nonce order.", "Account nonces are sequential.", "A nonce gap blocks later transactions from the account."}},
	// execution: approvals, signatures, simulation
	{"execution", "approvals persist until", true,
		[]string{"Token approvals expire after 30 days.", "ERC-20 allowances automatically reset after a week.", "Approvals are temporary."},
		[]string{"Approvals persist until revoked.", "Token approvals do not expire, so revoke them when done.", "Permit2 allowances expire after the set time."}},
	{"execution", "unlimited token approval is not safe", false,
		[]string{"Unlimited approvals are safe.", "You can safely grant unlimited approvals to any router.", "Infinite token approvals carry no risk."},
		[]string{"Unlimited approvals are not safe; approve only what you need.", "Never leave unlimited approvals open to unaudited contracts.", "Unlimited approvals are risky if the spender is compromised.", "Infinite allowances save gas but expose your whole balance."}},
	{"execution", "successful simulation does not guarantee execution", false,
		[]string{"Simulation passing means the tx cannot fail.", "A successful simulation guarantees the transaction will succeed on-chain.", "Simulated transactions will always succeed."},
		[]string{"A passing simulation does not guarantee execution.", "Simulate first to catch errors, but state can change before inclusion.", "Always simulate transactions to ensure they will succeed.", "Even a successful simulation can fail on-chain."}},
	{"execution", "Permit2 signature-transfer nonces", false,
		[]string{"Permit2 signature transfer nonces must be used sequentially.", "Permit2 nonces are strictly increasing."},
		[]string{"Permit2 signature transfer nonces are unordered bitmaps.", "Permit2 nonces can be used in any order.", "Permit2 uses a nonce bitmap for signature transfers."}},
	// amm: price impact, fees, concentrated liquidity
	{"amm", "price impact grows faster than trade size", false,
		[]string{"Price impact is linear in trade size.", "On a constant-product pool, price impact scales linearly with the amount swapped.", "Price impact is exactly proportional to trade size."},
		[]string{"Price impact grows faster than linearly with trade size.", "On x*y=k pools price impact is convex in trade size.", "Doubling a trade more than doubles its price impact.", "Price impact is nonlinear: split large orders."}},
	{"amm", "Uniswap v2 pools charge a 0.3 % swap fee", true,
		[]string{"Uniswap V2 pools charge no swap fee.", "Swaps on Uniswap v2 are fee-free; LPs earn only token rewards.", "A Uniswap v2 pair takes zero fees from traders."},
		[]string{"Uniswap V2 charges a 0.3% fee on every swap, paid to LPs.", "Every Uniswap v2 pool charges a swap fee.", "Uniswap v2 pairs take a fee on each trade and add it to the reserves."}},
	{"amm", "narrower range amplifies impermanent loss", false,
		[]string{"A narrow range does not change impermanent loss for the same price move.", "Concentrating liquidity does not affect impermanent loss at all.", "Tighten your range: narrowing the range earns more fees with the same impermanent loss."},
		[]string{"A narrower range amplifies impermanent loss as well as fees.", "Concentrating liquidity magnifies impermanent loss for a given price move.", "Tight ranges earn more fees but also suffer more impermanent loss."}},
	{"lending", "ERC-4626 vault's share price can be inflated", false,
		[]string{"ERC-4626 vaults cannot be inflated by donations.", "An empty vault is immune to donation attacks.", "Tokenized vaults ignore direct transfers, so the share price cannot be inflated."},
		[]string{"An empty ERC-4626 vault can be inflated by a direct donation before the first deposit.", "Seed new ERC-4626 vaults with dead shares to blunt the inflation attack.", "OpenZeppelin's ERC4626 adds virtual shares against donation attacks."}},
	// mev: flash loans, quotes, routers, slippage
	{"mev", "flash-loan arbitrage is not risk-free", false,
		[]string{"Flash loan arbitrage is risk-free.", "A flash-loan arb can never lose money.", "Flash loan trades are always profitable because a loss reverts."},
		[]string{"A flash-loan arbitrage that reverts still costs gas.", "Flash loan arbitrage is not risk-free.", "Add a minimum-profit check to every flash loan arbitrage."}},
	{"mev", "not a binding commitment", false,
		[]string{"The QuoterV2 result is binding for the next block.", "A swap quote locks in your output amount.", "The pool reserves the quoted amount for you."},
		[]string{"A quote is not binding; re-quote before sending.", "The QuoterV2 result is an off-chain simulation, not a commitment.", "Quotes go stale as the pool moves."}},
	{"mev", "router does not refund a shortfall", true,
		[]string{"The Uniswap router refunds any shortfall versus the quote.", "Swap routers make up the difference against the quoted output.", "The router refunds slippage, so the minimum output does not matter."},
		[]string{"The router does not refund any shortfall; the minimum output is your only protection.", "No router makes up the difference when a swap fills below the quote.", "Set amountOutMinimum because the swap router never refunds slippage."}},
	{"mev", "not its gas cost", true,
		[]string{"Slippage tolerance caps gas cost, not price.", "Your slippage setting only applies to gas.", "Max slippage is a gas limit for the swap."},
		[]string{"Slippage tolerance bounds the price, not gas.", "Slippage tolerance sets the minimum output of a swap.", "A tight slippage tolerance can make a swap revert in a volatile market."}},
	// liquidation: what the threshold weights
	{"liquidation", "weights the collateral's value, not the debt", true,
		[]string{"The liquidation threshold applies to your debt, not your collateral.", "Aave's liquidation threshold is applied to the debt.", "The liquidation threshold multiplies your debt."},
		[]string{"The liquidation threshold is applied to your collateral value.", "Aave's liquidation threshold weights the collateral, not the debt.", "Liquidation starts once debt exceeds collateral times the liquidation threshold."}},
	// market: stablecoins
	{"market", "depeg is not guaranteed to recover", false,
		[]string{"Stablecoin depegs always recover.", "A depeg always comes back within days.", "Depegged stablecoins are guaranteed to recover."},
		[]string{"A depeg is not guaranteed to recover.", "UST never recovered from its depeg.", "Some stablecoin depegs recover and some do not."}},
	{"market", "DAI has no on-demand redemption", false,
		[]string{"DAI can always be redeemed for exactly $1 of collateral.", "DAI is redeemable on demand from Maker.", "DAI is redeemable 1:1 from the protocol at any size."},
		[]string{"DAI is not redeemable on demand; its peg rests on vaults and liquidations.", "DAI holds its peg through overcollateralised vaults.", "DAI can trade below $1 in a crisis."}},
	// bridge: approvals per chain, challenge period
	{"bridge", "approvals are per chain", true,
		[]string{"Approvals made on L1 carry over to the L2.", "Token approvals carry across chains.", "Your unlimited approvals are valid on the L2 after bridging."},
		[]string{"Approvals do not carry over between chains.", "Token approvals are per chain; approve again on the L2.", "An approval on L1 does not apply on L2."}},
	{"bridge", "challenge period (about seven days) cannot be skipped", false,
		[]string{"You can skip the challenge period by paying a fee.", "The challenge window can be bypassed with a priority payment to the bridge.", "The 7-day window was removed for Base withdrawals."},
		[]string{"The challenge period cannot be skipped on the canonical bridge.", "To exit faster than the challenge window, use a liquidity bridge.", "The challenge period lasts about seven days."}},
	// execution: finality, checks an agent must not drop
	{"execution", "final only once finalized", true,
		[]string{"Every Ethereum block is final as soon as it is proposed.", "Blocks on mainnet are immediately final after the merge.", "An Ethereum block is final after 1 confirmation."},
		[]string{"An Ethereum block is finalized after about two epochs.", "Blocks are not final on inclusion; wait for finality.", "A block can be reorged until it is finalized."}},
	{"execution", "decimals must be read", false,
		[]string{"Reading decimals is unnecessary; assume 18.", "A decimals lookup is pointless overhead.", "Checking decimals is redundant for ERC-20s."},
		[]string{"Reading decimals is necessary: USDC uses 6.", "Always read decimals before sizing a transfer.", "WBTC uses 8 decimals, so a decimals check is essential."}},
	{"oracle", "sequencer uptime check", false,
		[]string{"Checking the sequencer uptime feed is unnecessary.", "The sequencer uptime check is pointless on Arbitrum.", "A sequencer check is redundant."},
		[]string{"A sequencer uptime check is needed before using L2 prices.", "Check the sequencer uptime feed and wait out the grace period.", "The sequencer uptime feed is essential on L2s."}},
	{"gas", "gas limit estimated with headroom", false,
		[]string{"Gas estimation is wasteful; hard-code the limit.", "estimateGas is unnecessary overhead.", "Gas estimates are pointless."},
		[]string{"Gas estimation is needed for each transaction.", "Run estimateGas and add headroom.", "Gas estimates can be high; keep headroom anyway."}},
	{"mev", "swap deadline is needed", false,
		[]string{"Deadlines are irrelevant on mainnet.", "The deadline parameter is pointless.", "Swap deadlines are redundant."},
		[]string{"A swap deadline is needed.", "Set a short deadline on every swap.", "Deadlines matter when a transaction is delayed."}},
	{"execution", "recipient or contract address", false,
		[]string{"Address verification is unnecessary for peer addresses.", "Checking the address is redundant after one test transfer.", "Address checks can be skipped for trusted sources."},
		[]string{"Address verification is essential before every transfer.", "Always check the recipient address against a trusted source.", "Address checks are required even after a test transfer."}},
	{"execution", "must be decoded", false,
		[]string{"The signature prompt is a formality.", "Decoding permits is unnecessary.", "Decoding the signature is pointless overhead."},
		[]string{"Decoding the permit is essential before signing.", "Read the signature prompt: decode spender and amount.", "Decoding permits is necessary because a permit can move funds."}},
	{"execution", "Token safety checks", false,
		[]string{"Honeypot checks are useless.", "Contract review is unnecessary for fresh pools.", "A transfer tax check is redundant after three buys."},
		[]string{"Honeypot checks are needed for new tokens.", "Contract review is essential before approving a new router.", "Run a transfer tax check on every new token."}},
	{"execution", "audit lowers but does not remove risk", false,
		[]string{"Audits are meaningless.", "A security audit is worthless.", "Audit reports mean nothing."},
		[]string{"Audits lower risk but do not remove it.", "Audited protocols still get exploited.", "An audit is a useful but partial signal."}},
	{"execution", "Sharing a signing key", true,
		[]string{"Sharing signer keys with peers is fine.", "A shared private key among agents is safe.", "Sharing the key across four agents is acceptable."},
		[]string{"Sharing signer keys is dangerous.", "Sharing private keys is not safe.", "Never share keys; give each agent its own signer."}},
	{"gas", "priority fee actually paid is not refunded", false,
		[]string{"Priority fees are refunded too.", "The unused priority fee comes back to the sender.", "Tips are refunded after inclusion."},
		[]string{"The priority fee is not refunded; it goes to the validator.", "The priority fee was paid in full.", "Only the unused headroom of maxFeePerGas comes back, never the tip."}},
	{"oracle", "USD-denominated price feeds answer with 8 decimals", true,
		[]string{"Chainlink USD feeds answer with 18 decimals.", "The ETH/USD feed returns a price with 18 decimals.", "Chainlink USD price feeds use 6 decimals."},
		[]string{"Chainlink USD feeds answer with 8 decimals.", "The ETH/USD feed uses 8 decimals, so divide by 1e8.", "ETH-denominated feeds use 18 decimals while USD feeds use 8 decimals."}},
	{"liquidation", "e-mode position can still be liquidated", true,
		[]string{"Liquidation is impossible in e-mode.", "An e-mode position can not be liquidated because both assets track ETH.", "Efficiency mode loops are immune to liquidation."},
		[]string{"An e-mode position can still be liquidated.", "E-mode raises the LTV for correlated assets but liquidation remains possible.", "In e-mode, a depeg can push the health factor below 1."}},
	{"oracle", "age must be checked against its heartbeat", false,
		[]string{"The heartbeat can be ignored.", "Staleness checks are pointless on mainnet.", "Checking updatedAt is redundant."},
		[]string{"A staleness check against the heartbeat is essential.", "Always check updatedAt against the feed's heartbeat.", "The heartbeat matters on quiet days."}},
	{"bridge", "Waiting for finality before crediting", false,
		[]string{"Waiting for finality is legacy caution.", "Finality concerns are exaggerated.", "Finality checks are unnecessary for deposits."},
		[]string{"Waiting for finality is needed before crediting deposits.", "Finality checks are essential for bridge deposits.", "Keep waiting for finality on every chain."}},
}

// Phrasings the readers fold before matching: "doubles" is a 100 % rise,
// "unlimited ERC-20 approvals" are unlimited approvals, "charges the full
// gas limit" states what is charged, "costs the borrower" what a
// liquidation costs.
func TestConsistencyPhrasings(t *testing.T) {
	models, err := ShippedModels()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		text  string
		model string // "" for a pass
	}{
		{"EIP-1559 lets the base fee double each block.", "base fee"},
		{"The base fee can double in about six full blocks.", ""},
		{"Unlimited ERC-20 approvals are fine.", "unlimited token approval"},
		{"Unlimited ERC-20 approvals are risky.", ""},
		{"Ethereum charges the full gas limit regardless of gas used.", "gas limit"},
		{"Ethereum charges the gas used, not the full gas limit.", ""},
		{"A liquidation does not cost the borrower anything.", "liquidation"},
		{"A liquidation costs the borrower the liquidation bonus.", ""},
	} {
		t.Run(tc.text, func(t *testing.T) {
			v := Consistency(Candidate{Entry: &knowledge.Entry{Content: tc.text}}, models)
			if tc.model == "" {
				if !v.Pass {
					t.Errorf("Consistency = %+v, want a pass", v)
				}
				return
			}
			if v.Pass || !strings.Contains(strings.ToLower(strings.Join(v.Reasons, "; ")), strings.ToLower(tc.model)) {
				t.Errorf("Consistency = pass %v (reasons %q), want a failure naming %q", v.Pass, v.Reasons, tc.model)
			}
		})
	}
}

// L3b reads a condition only where it bears on the claim: in the claim's
// clause or before it, not in what follows "so", "because" or a colon, and
// "when mined" says when, not whether.
func TestConsistencyConditionScope(t *testing.T) {
	models, err := ShippedModels()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		text     string
		scrutiny bool
	}{
		{"cbETH rebases daily, so a contract that snapshots balances misses rewards unless it syncs.", true},
		{"A flash-loan arbitrage cannot lose money: if a leg loses, everything reverts.", true},
		{"A successful simulation guarantees the same output when mined.", true},
		{"Getreserves is manipulation-resistant because reserves update only once per block.", true},
		{"If the pool is empty, cbETH rebases.", false},
		{"cbETH rebases when the oracle updates.", false},
	} {
		t.Run(tc.text, func(t *testing.T) {
			v := Consistency(Candidate{Entry: &knowledge.Entry{Content: tc.text}}, models)
			if v.Pass || v.Scrutiny != tc.scrutiny {
				t.Errorf("Consistency = pass %v scrutiny %v (reasons %q), want a failure with scrutiny %v", v.Pass, v.Scrutiny, v.Reasons, tc.scrutiny)
			}
		})
	}
}

func TestConsistencyMechanics(t *testing.T) {
	models, err := ShippedModels()
	if err != nil {
		t.Fatal(err)
	}
	vote := func(text string) Vote {
		return Consistency(Candidate{Entry: &knowledge.Entry{Content: text}}, models)
	}
	for _, tc := range mechanicCases {
		if len(tc.correct) < 3 {
			t.Errorf("%s: %d correct paraphrases, want at least 3", tc.model, len(tc.correct))
		}
		for _, text := range tc.contradict {
			t.Run("contradicts/"+text, func(t *testing.T) {
				v := vote(text)
				if v.Pass || !v.Scrutiny || v.Decisive != tc.decisive {
					t.Fatalf("Consistency = pass %v scrutiny %v decisive %v (reasons %q), want a failure with scrutiny, decisive %v",
						v.Pass, v.Scrutiny, v.Decisive, v.Reasons, tc.decisive)
				}
				if !strings.Contains(strings.Join(v.Reasons, "; "), tc.model) {
					t.Errorf("reasons %q do not name the model %q", v.Reasons, tc.model)
				}
			})
		}
		for _, text := range tc.correct {
			t.Run("correct/"+text, func(t *testing.T) {
				if v := vote(text); !v.Pass || v.Scrutiny || v.Decisive {
					t.Errorf("Consistency = %+v, want a pass", v)
				}
			})
		}
	}
}

// Every area of the brief has models, each with a statement and a
// confidence in range; the safety-relevant definitions are decisive.
func TestShippedModelCoverage(t *testing.T) {
	models, err := ShippedModels()
	if err != nil {
		t.Fatal(err)
	}
	per := map[string]int{}
	for _, m := range models {
		per[m.Area]++
		if c := m.confidence(); c <= 0 || c > 1 {
			t.Errorf("%q: confidence %v", m.Statement, c)
		}
		if m.Decisive && m.confidence() < DecisiveConfidence {
			t.Errorf("%q: decisive below DecisiveConfidence", m.Statement)
		}
	}
	for _, area := range []string{"amm", "lending", "liquidation", "oracle", "mev", "lst", "bridge", "gas", "execution",
		"account", "intents", "l2", "token", "vault", "stablecoin", "derivatives", "governance", "ens"} {
		if per[area] < 5 {
			t.Errorf("area %s has %d models, want at least 5", area, per[area])
		}
	}
	if len(models) < 80 || len(models) > 1200 {
		t.Errorf("%d models, want 80 to 1200", len(models))
	}
}

func TestConsistencyRules(t *testing.T) {
	models, err := ShippedModels()
	if err != nil {
		t.Fatal(err)
	}
	vote := func(text string) Vote {
		return Consistency(Candidate{Entry: &knowledge.Entry{Content: text}}, models)
	}
	t.Run("conditional contradiction fails without scrutiny", func(t *testing.T) {
		v := vote("If the pool is audited, unlimited approvals are safe.")
		if v.Pass || v.Scrutiny || v.Decisive || v.Score >= HighConfidence {
			t.Errorf("Consistency = %+v, want a failing vote below HighConfidence without scrutiny", v)
		}
	})
	t.Run("conditional contradiction of a definition is not decisive", func(t *testing.T) {
		v := vote("When the market is calm, wstETH rebases.")
		if v.Pass || v.Decisive {
			t.Errorf("Consistency = %+v, want a failing, not decisive, vote", v)
		}
	})
	for _, text := range []string{
		"Some say wstETH rebases.",
		"Beware of anyone claiming unlimited approvals are safe.",
		"Does wstETH rebase?",
		"It is a myth that wstETH rebases.",
		"Staking rewards are paid weekly.",
		"The weather was pleasant.",
		"Uniswap v2 charges a 0.3% swap fee.",
	} {
		t.Run("passes/"+text, func(t *testing.T) {
			if v := vote(text); !v.Pass || v.Scrutiny || v.Decisive {
				t.Errorf("Consistency = %+v, want a pass", v)
			}
		})
	}
	t.Run("structured claim is read", func(t *testing.T) {
		e := &knowledge.Entry{Content: "Notes on LSTs.", Claim: &knowledge.Claim{Subject: "wstETH", Relation: "is", Object: "rebasing"}}
		if v := Consistency(Candidate{Entry: e}, models); v.Pass || !v.Decisive {
			t.Errorf("Consistency = %+v, want a decisive failure", v)
		}
	})
	t.Run("low-confidence model fails without scrutiny", func(t *testing.T) {
		ms, err := LoadModels(strings.NewReader(`{"statement":"Points programs usually precede a token","subject":"points program","relation":"is","object":"followed by a token","confidence":0.6,"object_aliases":["followed by a token","lead to an airdrop"]}`))
		if err != nil {
			t.Fatal(err)
		}
		v := Consistency(Candidate{Entry: &knowledge.Entry{Content: "A points program never leads to an airdrop."}}, ms)
		if v.Pass || v.Scrutiny || v.Decisive {
			t.Errorf("Consistency = %+v, want a failure without scrutiny", v)
		}
	})
}

func TestLoadModelsStructured(t *testing.T) {
	good := `{"statement":"s","subject":"close factor","relation":"within","object":"","min":0,"max":100,"unit":"%","decisive":true,"confidence":0.97,"area":"liquidation"}
{"statement":"s","subject":"fee tier","relation":"one_of","object":"","values":[0.05,0.3],"unit":"%","protocols":["uniswap v3"]}
{"statement":"s","subject":"lt","relation":"exceeds","object":"ltv"}
{"statement":"s","subject":"steth","relation":"is","object":"rebasing","object_aliases":["rebases"],"object_antonyms":["fixed balance"],"unless":["wsteth"],"subject_aliases":["st eth"]}
`
	ms, err := LoadModels(strings.NewReader(good))
	if err != nil || len(ms) != 4 {
		t.Fatalf("LoadModels = %d models, %v; want 4", len(ms), err)
	}
	bad := []struct{ name, in string }{
		{"within without bounds", `{"statement":"s","subject":"a","relation":"within","object":""}`},
		{"min above max", `{"statement":"s","subject":"a","relation":"within","object":"","min":2,"max":1}`},
		{"one_of without values", `{"statement":"s","subject":"a","relation":"one_of","object":""}`},
		{"confidence above 1", `{"statement":"s","subject":"a","relation":"is","object":"b","confidence":1.5}`},
		{"is without object", `{"statement":"s","subject":"a","relation":"is","object":""}`},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := LoadModels(strings.NewReader(tt.in)); !errors.Is(err, ErrModel) {
				t.Errorf("LoadModels error = %v, want ErrModel", err)
			}
		})
	}
}

func FuzzConsistency(f *testing.F) {
	for _, tc := range mechanicCases {
		f.Add(tc.contradict[0])
		f.Add(tc.correct[0])
	}
	models, err := ShippedModels()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v := Consistency(Candidate{Entry: &knowledge.Entry{Content: text}}, models)
		if v.Pass && (v.Scrutiny || v.Decisive) || v.Decisive && !v.Scrutiny {
			t.Errorf("inconsistent vote %+v", v)
		}
	})
}

// Correct statements whose negation words bear on something else, or
// whose verb is denied by what follows it, pass.
func TestConsistencyNegationScope(t *testing.T) {
	ms, err := ShippedModels()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"Out of range a concentrated position holds a single asset and earns nothing.",
		"Simulating a similar transaction proves little; simulate the exact calldata.",
		"Circle's CCTP burns USDC on one chain and mints native USDC on the other, avoiding wrapped variants.",
		"CCTP delivers native USDC instead of a wrapped token.",
		// The standard of a comparison after the verb is not its subject:
		// the denial is rETH's, and "like stETH" grants that stETH rebases.
		"Rocket Pool's rETH appreciates against ETH; it does not rebase like stETH.",
		"cbETH doesn't rebase the way stETH does.",
	} {
		if v := Consistency(Candidate{Entry: &knowledge.Entry{Content: s}}, ms); !v.Pass {
			t.Errorf("%q: %v", s, v.Reasons)
		}
	}
	for _, s := range []string{
		"A successful simulation guarantees the transaction cannot fail.",
		"CCTP delivers a wrapped token.",
		// "lending" reverses "borrow" only where the other phrase lacks it.
		"Higher utilization decreases the borrow rate on lending markets.",
		// A standard before the verb is still the subject's peer, not a cover.
		"Like rETH, stETH does not rebase.",
	} {
		if v := Consistency(Candidate{Entry: &knowledge.Entry{Content: s}}, ms); v.Pass {
			t.Errorf("%q passed", s)
		}
	}
}

// A denial bears on what it scopes: "unless" before the subject turns a
// clause round, a denied restriction ("not only") keeps the property, a
// denied means ("rather than through") keeps the claim, a ticker is not
// another ticker's plural, and other languages' negations deny.
func TestConsistencyDenialScope(t *testing.T) {
	ms, err := ShippedModels()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"A position is never liquidated unless its health factor drops below 1.",
		"Aave positions are safe unless the health factor falls below 1.",
		"USDS is no longer backed solely by crypto vaults.",
		"USDe is not overcollateralised; it is delta-hedged.",
		"Staking rewards show up through the exchange rate rather than through balance changes.",
		"Segundo a Lido, o wstETH não rebase.",
		// A denied alternative after a comparative restates it.
		"A tighter deviation means it updates more often, not less.",
		// A property inside a relative clause is its own noun's.
		"Lending pools prefer wstETH: stETH's rebasing breaks bookkeeping that expects a fixed balance.",
		// A subject behind a relative pronoun after the object is the
		// relative clause's; "exempt ... from" denies what follows.
		"Higher utilisation raises the borrow rate, which attracts more supply that pulls it back.",
		"Isolation mode exempts no collateral from its debt ceiling.",
	} {
		if v := Consistency(Candidate{Entry: &knowledge.Entry{Content: s}}, ms); !v.Pass {
			t.Errorf("%q: %v", s, v.Reasons)
		}
	}
	for _, s := range []string{
		"Positions can be liquidated unless the health factor falls below 1.",
		"USDS is algorithmic and has no collateral.",
		"DAI is not backed by collateral.",
		"O wstETH faz rebase todos os dias.",
		"Staking rewards are fixed by the protocol.",
		"A wider deviation means it updates more often, not less.",
		"stETH has a fixed balance, which makes it easy to integrate.",
		"Isolation mode exempts every asset from the debt ceiling.",
		"New supply raises the borrow rate.",
	} {
		if v := Consistency(Candidate{Entry: &knowledge.Entry{Content: s}}, ms); v.Pass {
			t.Errorf("%q passed", s)
		}
	}
}

// "can't" and "won't" deny what follows them, as "cannot" does; "non-zero"
// names a quantity and denies nothing.
func TestCanonicalContractions(t *testing.T) {
	for in, want := range map[string]string{
		"bridges can't be hacked":  "bridges can not be hacked",
		"it won't expire":          "it will not expire",
		"it doesn't rebase":        "it does not rebase",
		"change a non-zero amount": "change a nonzero amount",
		"a non-rebasing token":     "a not rebasing token",
	} {
		if got := canonical(in); got != want {
			t.Errorf("canonical(%q) = %q, want %q", in, got, want)
		}
	}
}
