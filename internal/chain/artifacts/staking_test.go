package artifacts_test

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
)

// gasCost is what a receipt's transaction paid for gas.
func gasCost(r *types.Receipt) *big.Int {
	return new(big.Int).Mul(new(big.Int).SetUint64(r.GasUsed), r.EffectiveGasPrice)
}

// TestLido drives ward's Lido: shares against pooled ether, rewards,
// wstETH, withdrawal requests of stETH and of wstETH, finalization at a
// share rate and claims, with the amounts computed here from Lido's
// formulas.
func TestLido(t *testing.T) {
	c := newDevChain(t)
	e := func(n int64) *big.Int { return units(n, 18) }
	lido := c.deploy(deployer, "Lido")
	wst := c.deploy(deployer, "WstETH", lido.addr)
	queue := c.deploy(deployer, "WithdrawalQueueERC721", wst.addr)
	c.wantRevert(alice, lido, "setWithdrawalQueue", "APP_AUTH_FAILED", queue.addr)
	c.send(deployer, lido, "setWithdrawalQueue", queue.addr)
	if c.callAddr(queue, "STETH") != lido.addr || c.callAddr(queue, "WSTETH") != wst.addr || c.callAddr(wst, "stETH") != lido.addr {
		t.Fatal("the queue and wstETH do not name the deployment")
	}

	// The first stake is one share per wei; rewards raise balances, not shares.
	c.sendValue(alice, e(100), lido, "submit", bob.addr)
	wantBig(t, "alice's shares", c.callBig(lido, "sharesOf", alice.addr), e(100))
	day := big.NewInt(24 * 3600)
	c.wantRevertValue(alice, e(1), lido, "reportRewards", "APP_AUTH_FAILED", day)
	c.wantRevertValue(deployer, e(1), lido, "reportRewards", "ZERO_TIME_ELAPSED", new(big.Int))
	c.sendValue(deployer, e(10), lido, "reportRewards", day)
	wantBig(t, "alice's balance after 10 % rewards", c.callBig(lido, "balanceOf", alice.addr), e(110))
	wantBig(t, "total supply", c.callBig(lido, "totalSupply"), e(110))
	// 11 ETH at 1.1 ETH per share buys 10 shares.
	c.sendValue(bob, e(11), lido, "submit", bob.addr)
	wantBig(t, "bob's shares", c.callBig(lido, "sharesOf", bob.addr), e(10))
	c.wantRevertValue(bob, big.NewInt(0), lido, "submit", "ZERO_DEPOSIT", bob.addr)
	c.send(deployer, lido, "pauseStaking")
	c.wantRevertValue(bob, e(1), lido, "submit", "STAKING_PAUSED", bob.addr)
	wantBig(t, "stake limit while paused", c.callBig(lido, "getCurrentStakeLimit"), new(big.Int))
	c.send(deployer, lido, "resumeStaking")
	wantBig(t, "stake limit", c.callBig(lido, "getCurrentStakeLimit"), maxUint)

	// transferShares moves shares; transfer moves the shares an amount buys.
	c.send(bob, lido, "transferShares", alice.addr, e(1))
	wantBig(t, "bob's shares after transferShares", c.callBig(lido, "sharesOf", bob.addr), e(9))
	c.wantRevert(bob, lido, "transfer", "BALANCE_EXCEEDED", alice.addr, e(100))

	// wstETH is one share per token.
	c.send(alice, lido, "approve", wst.addr, maxUint)
	c.send(alice, wst, "wrap", e(22))
	wantBig(t, "wstETH for 22 stETH", c.callBig(wst, "balanceOf", alice.addr), e(20))
	wantBig(t, "stETH per wstETH", c.callBig(wst, "stEthPerToken"), new(big.Int).Div(e(11), big.NewInt(10)))
	c.wantRevert(alice, wst, "wrap", "wstETH: can't wrap zero stETH", new(big.Int))

	// Requests: one of stETH, one of wstETH (unwrapped by the queue).
	c.send(alice, lido, "approve", queue.addr, maxUint)
	c.send(alice, wst, "approve", queue.addr, maxUint)
	c.wantRevert(alice, queue, "requestWithdrawals", "RequestAmountTooSmall", []*big.Int{big.NewInt(99)}, alice.addr)
	c.wantRevert(alice, queue, "requestWithdrawals", "RequestAmountTooLarge", []*big.Int{e(1001)}, alice.addr)
	c.send(alice, queue, "requestWithdrawals", []*big.Int{e(11)}, alice.addr)
	c.send(alice, queue, "requestWithdrawalsWstETH", []*big.Int{e(10)}, alice.addr)
	wantBig(t, "requests", c.callBig(queue, "getLastRequestId"), big.NewInt(2))
	wantBig(t, "unfinalized stETH", c.callBig(queue, "unfinalizedStETH"), e(22))
	c.wantRevert(deployer, queue, "finalize", "NotLido", big.NewInt(1), e(1))
	c.wantRevert(alice, queue, "claimWithdrawal", "RequestNotFoundOrNotFinalized", big.NewInt(1))

	// Rewards after the requests are not paid to them: each pays the
	// stETH requested (11), not its shares' value at the higher rate.
	c.sendValue(deployer, e(24), lido, "reportRewards", day)
	lidoETH := c.ethBalance(lido.addr)
	c.send(deployer, lido, "finalizeWithdrawals", big.NewInt(2))
	wantBig(t, "ether sent to the queue", new(big.Int).Sub(lidoETH, c.ethBalance(lido.addr)), e(22))
	wantBig(t, "locked", c.callBig(queue, "getLockedEtherAmount"), e(22))
	wantBig(t, "queue's shares burnt", c.callBig(lido, "sharesOf", queue.addr), new(big.Int))
	hints := c.call(queue, "findCheckpointHints", []*big.Int{big.NewInt(1), big.NewInt(2)}, big.NewInt(1), big.NewInt(1))[0].([]*big.Int)
	if len(hints) != 2 || hints[0].Int64() != 1 || hints[1].Int64() != 1 {
		t.Fatalf("hints = %v", hints)
	}
	claimable := c.call(queue, "getClaimableEther", []*big.Int{big.NewInt(1), big.NewInt(2)}, hints)[0].([]*big.Int)
	wantBig(t, "claimable 1", claimable[0], e(11))
	wantBig(t, "claimable 2", claimable[1], e(11))
	c.wantRevert(bob, queue, "claimWithdrawal", "NotOwner", big.NewInt(1))
	c.wantRevert(alice, queue, "claimWithdrawals", "InvalidHint", []*big.Int{big.NewInt(1)}, []*big.Int{big.NewInt(2)})
	before := c.ethBalance(alice.addr)
	r := c.send(alice, queue, "claimWithdrawal", big.NewInt(1))
	wantBig(t, "claim paid", new(big.Int).Add(new(big.Int).Sub(c.ethBalance(alice.addr), before), gasCost(r)), e(11))
	c.wantRevert(alice, queue, "claimWithdrawal", "RequestAlreadyClaimed", big.NewInt(1))
	ids := c.call(queue, "getWithdrawalRequests", alice.addr)[0].([]*big.Int)
	if len(ids) != 1 || ids[0].Int64() != 2 {
		t.Errorf("alice's requests after claiming 1: %v", ids)
	}
}

// TestRocketPool drives ward's Rocket Pool: contracts found in storage,
// deposits less the fee at the exchange rate, the deposit rules, rewards
// and burns, with the amounts computed here.
func TestRocketPool(t *testing.T) {
	c := newDevChain(t)
	e := func(n int64) *big.Int { return units(n, 18) }
	storage := c.deploy(deployer, "RocketStorage")
	settings := c.deploy(deployer, "RocketDAOProtocolSettingsDeposit")
	pool := c.deploy(deployer, "RocketDepositPool", storage.addr)
	reth := c.deploy(deployer, "RocketTokenRETH", storage.addr)
	key := func(name string) [32]byte { return crypto.Keccak256Hash([]byte("contract.address"), []byte(name)) }
	c.wantRevert(alice, storage, "setAddress", "Invalid or outdated network contract", key("rocketDepositPool"), alice.addr)
	c.wantRevertValue(alice, e(1), pool, "deposit", "Contract not found")
	for name, at := range map[string]*contract{"rocketDAOProtocolSettingsDeposit": settings, "rocketDepositPool": pool, "rocketTokenRETH": reth} {
		c.send(deployer, storage, "setAddress", key(name), at.addr)
	}

	// The first deposit: 10 ETH less 0.05 % is 9.995 rETH at one to one.
	c.sendValue(alice, e(10), pool, "deposit")
	wantBig(t, "alice's rETH", c.callBig(reth, "balanceOf", alice.addr), units(9995, 15))
	c.wantRevert(alice, reth, "mint", "Invalid or outdated network contract", e(1), alice.addr)
	c.wantRevertValue(alice, units(1, 15), pool, "deposit", "The deposited amount is less than the minimum deposit size")
	c.wantRevertValue(alice, e(5_000), pool, "deposit", "The deposit pool size after depositing exceeds the maximum size")
	wantBig(t, "maximum deposit", c.callBig(pool, "getMaximumDepositAmount"), e(4_990))
	c.send(deployer, settings, "setDepositEnabled", false)
	c.wantRevertValue(alice, e(1), pool, "deposit", "Deposits into Rocket Pool are currently disabled")
	wantBig(t, "maximum deposit while disabled", c.callBig(pool, "getMaximumDepositAmount"), new(big.Int))
	c.send(deployer, settings, "setDepositEnabled", true)

	// Rewards of 0.9995 ETH on 9.995: 1.1 ETH per rETH.
	c.wantRevertValue(alice, e(1), reth, "depositRewards", "Account is not a temporary guardian")
	c.sendValue(deployer, units(9995, 14), reth, "depositRewards")
	wantBig(t, "exchange rate", c.callBig(reth, "getExchangeRate"), units(11, 17))
	// Bob's 11 ETH less the fee buys (11 - 0.0055) / 1.1 rETH.
	c.sendValue(bob, e(11), pool, "deposit")
	wantBig(t, "bob's rETH", c.callBig(reth, "balanceOf", bob.addr), units(99950, 14))

	// Burns pay getEthValue, drawing on the deposit pool.
	c.wantRevert(bob, reth, "burn", "Insufficient rETH balance", e(11))
	c.wantRevert(bob, reth, "burn", "Invalid token burn amount", new(big.Int))
	bal := c.callBig(reth, "balanceOf", alice.addr)
	want := c.callBig(reth, "getEthValue", bal)
	wantBig(t, "alice's rETH worth", want, new(big.Int).Div(new(big.Int).Mul(bal, big.NewInt(11)), big.NewInt(10)))
	before := c.ethBalance(alice.addr)
	r := c.send(alice, reth, "burn", bal)
	wantBig(t, "burn paid", new(big.Int).Add(new(big.Int).Sub(c.ethBalance(alice.addr), before), gasCost(r)), want)
	wantBig(t, "alice's rETH after the burn", c.callBig(reth, "balanceOf", alice.addr), new(big.Int))
}
