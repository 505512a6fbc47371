package artifacts_test

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// TestERC8004Registries drives the identity and reputation registries past
// what the catalogue's tools do: self-feedback and bad values revert, a
// transfer clears the agent wallet and moves the agent, revocation hides
// feedback from the summary.
func TestERC8004Registries(t *testing.T) {
	c := newDevChain(t)
	id := c.deploy(deployer, "IdentityRegistry")
	rep := c.deploy(deployer, "ReputationRegistry", id.addr)
	if got := c.callAddr(rep, "getIdentityRegistry"); got != id.addr {
		t.Errorf("getIdentityRegistry = %s", got)
	}
	c.send(alice, id, registerURI(t, c), "https://alice.example/agent.json")
	c.send(bob, id, "register")
	zero, one := big.NewInt(0), big.NewInt(1)
	if o := c.callAddr(id, "ownerOf", zero); o != alice.addr {
		t.Fatalf("agent 0 owned by %s, want alice", o)
	}
	if w := c.callAddr(id, "getAgentWallet", one); w != bob.addr {
		t.Errorf("agent 1's wallet %s, want bob", w)
	}
	c.wantRevert(bob, id, "setAgentURI", "IdentityRegistry: not the agent's owner or operator", zero, "https://evil.example")
	c.wantRevert(alice, id, "setAgentWallet", "IdentityRegistry: setAgentWallet is not supported on ward's dev registry", zero, bob.addr, farFuture, []byte{})

	c.wantRevert(alice, rep, "giveFeedback", "ReputationRegistry: self-feedback not allowed", zero, big.NewInt(90), uint8(0), "", "", "", "", [32]byte{})
	c.wantRevert(bob, rep, "giveFeedback", "ReputationRegistry: too many decimals", zero, big.NewInt(90), uint8(19), "", "", "", "", [32]byte{})
	tooBig := new(big.Int).Add(new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil), one)
	c.wantRevert(bob, rep, "giveFeedback", "ReputationRegistry: value out of range", zero, tooBig, uint8(0), "", "", "", "", [32]byte{})
	c.wantRevert(bob, rep, "giveFeedback", "IdentityRegistry: no such agent", big.NewInt(7), big.NewInt(1), uint8(0), "", "", "", "", [32]byte{})

	c.send(bob, rep, "giveFeedback", zero, big.NewInt(80), uint8(0), "starred", "", "", "", [32]byte{})
	c.send(bob, rep, "giveFeedback", zero, big.NewInt(-1005), uint8(1), "starred", "", "", "", [32]byte{})
	sum := c.call(rep, "getSummary", zero, []common.Address{}, "starred", "")
	// (80.0 + -100.5) / 2 = -10.25, at one decimal truncated toward zero: -10.2.
	if sum[0].(uint64) != 2 || sum[1].(*big.Int).Int64() != -102 || sum[2].(uint8) != 1 {
		t.Errorf("summary = %v, want 2 entries averaging -102 at 1 decimal", sum)
	}
	c.wantRevert(alice, rep, "revokeFeedback", "ReputationRegistry: no such feedback", zero, uint64(1))
	c.send(bob, rep, "revokeFeedback", zero, uint64(2))
	c.wantRevert(bob, rep, "revokeFeedback", "ReputationRegistry: already revoked", zero, uint64(2))
	sum = c.call(rep, "getSummary", zero, []common.Address{}, "", "")
	if sum[0].(uint64) != 1 || sum[1].(*big.Int).Int64() != 80 {
		t.Errorf("summary after revoking = %v, want the one entry of 80", sum)
	}
	all := c.call(rep, "readAllFeedback", zero, []common.Address{bob.addr}, "", "", true)
	if got := all[1].([]uint64); len(got) != 2 || got[1] != 2 || !all[6].([]bool)[1] {
		t.Errorf("readAllFeedback with revoked = %v", all)
	}

	// A transfer moves the agent and clears its wallet; the new owner may
	// no longer rate it, the old one may.
	c.send(alice, id, "transferFrom", alice.addr, bob.addr, zero)
	if w := c.callAddr(id, "getAgentWallet", zero); w != (common.Address{}) {
		t.Errorf("agent wallet %s after a transfer, want none", w)
	}
	if n := c.callBig(id, "balanceOf", bob.addr); n.Int64() != 2 {
		t.Errorf("bob holds %s agents, want 2", n)
	}
	if got := c.callBig(id, "tokenOfOwnerByIndex", bob.addr, one); got.Sign() != 0 {
		t.Errorf("bob's second agent is %s, want 0", got)
	}
	c.wantRevert(bob, rep, "giveFeedback", "ReputationRegistry: self-feedback not allowed", zero, big.NewInt(1), uint8(0), "", "", "", "", [32]byte{})
	c.send(alice, rep, "giveFeedback", zero, big.NewInt(1), uint8(0), "", "", "", "", [32]byte{})
}

// registerURI is the name the ABI parser gave register(string), which
// depends on the order of the overloads in the artifact.
func registerURI(t *testing.T, c *devChain) string {
	t.Helper()
	a, _ := c.loadABI("IdentityRegistry")
	for name, m := range a.Methods {
		if m.Sig == "register(string)" {
			return name
		}
	}
	t.Fatal("IdentityRegistry has no register(string)")
	return ""
}

// TestEigenLayerContracts checks what the restaking tools rely on: only
// whitelisted strategies take deposits, shares follow EigenLayer's
// virtual-offset price, delegation moves shares to the operator, and a
// queued withdrawal completes only after the delay and only once.
func TestEigenLayerContracts(t *testing.T) {
	c := newDevChain(t)
	const delay = 3
	dm := c.deploy(deployer, "DelegationManager", uint32(delay))
	sm := c.deploy(deployer, "StrategyManager", dm.addr)
	tok := c.token("Dev ETH", "DETH", 18, 1_000, deployer, alice)
	st := c.deploy(deployer, "StrategyBase", sm.addr, tok.addr)
	c.send(deployer, dm, "setStrategyManager", sm.addr)
	c.wantRevert(deployer, dm, "setStrategyManager", "DelegationManager: already wired", sm.addr)
	c.send(alice, tok, "approve", sm.addr, maxUint)
	amount := units(10, 18)
	c.wantRevert(alice, sm, "depositIntoStrategy", "StrategyManager: strategy not whitelisted", st.addr, tok.addr, amount)
	c.wantRevert(alice, sm, "addStrategiesToDepositWhitelist", "StrategyManager: caller is not the owner", []common.Address{st.addr})
	c.send(deployer, sm, "addStrategiesToDepositWhitelist", []common.Address{st.addr})
	c.send(alice, sm, "depositIntoStrategy", st.addr, tok.addr, amount)
	// shares = amount * (0 + 1e3) / (0 + 1e3) on an empty strategy.
	shares := c.callBig(sm, "stakerDepositShares", alice.addr, st.addr)
	wantBig(t, "first deposit's shares", shares, amount)
	wantBig(t, "strategy shares(alice)", c.callBig(st, "shares", alice.addr), shares)

	c.send(bob, dm, "registerAsOperator", common.Address{}, uint32(0), "https://bob.example/op.json")
	c.wantRevert(alice, dm, "delegateTo", "DelegationManager: operator is not registered", deployer.addr, struct {
		Signature []byte
		Expiry    *big.Int
	}{[]byte{}, new(big.Int)}, [32]byte{})
	c.send(alice, dm, "delegateTo", bob.addr, struct {
		Signature []byte
		Expiry    *big.Int
	}{[]byte{}, new(big.Int)}, [32]byte{})
	wantBig(t, "operator shares after delegation", c.callBig(dm, "operatorShares", bob.addr, st.addr), shares)

	type params struct {
		Strategies           []common.Address
		DepositShares        []*big.Int
		DeprecatedWithdrawer common.Address `abi:"__deprecated_withdrawer"`
	}
	half := new(big.Int).Quo(shares, big.NewInt(2))
	c.wantRevert(alice, dm, "queueWithdrawals", "StrategyManager: shares amount too high",
		[]params{{Strategies: []common.Address{st.addr}, DepositShares: []*big.Int{new(big.Int).Add(shares, big.NewInt(1))}, DeprecatedWithdrawer: alice.addr}})
	r := c.send(alice, dm, "queueWithdrawals", []params{{Strategies: []common.Address{st.addr}, DepositShares: []*big.Int{half}, DeprecatedWithdrawer: alice.addr}})
	wantBig(t, "operator shares after queueing", c.callBig(dm, "operatorShares", bob.addr, st.addr), new(big.Int).Sub(shares, half))
	q := c.call(dm, "getQueuedWithdrawals", alice.addr)
	ws := q[0].([]struct {
		Staker       common.Address   `json:"staker"`
		DelegatedTo  common.Address   `json:"delegatedTo"`
		Withdrawer   common.Address   `json:"withdrawer"`
		Nonce        *big.Int         `json:"nonce"`
		StartBlock   uint32           `json:"startBlock"`
		Strategies   []common.Address `json:"strategies"`
		ScaledShares []*big.Int       `json:"scaledShares"`
	})
	if len(ws) != 1 || uint64(ws[0].StartBlock) != r.BlockNumber.Uint64() || ws[0].DelegatedTo != bob.addr || ws[0].ScaledShares[0].Cmp(half) != 0 {
		t.Fatalf("queued withdrawals = %+v", ws)
	}
	w := ws[0]
	tokens := []common.Address{tok.addr}
	// The next block is startBlock+1: still inside the delay.
	c.wantRevert(alice, dm, "completeQueuedWithdrawal", "DelegationManager: withdrawal delay not elapsed", w, tokens, true)
	for range delay + 1 {
		c.backend.Commit()
	}
	c.wantRevert(bob, dm, "completeQueuedWithdrawal", "DelegationManager: caller is not the withdrawer", w, tokens, true)
	before := c.callBig(tok, "balanceOf", alice.addr)
	c.send(alice, dm, "completeQueuedWithdrawal", w, tokens, true)
	wantBig(t, "tokens paid", new(big.Int).Sub(c.callBig(tok, "balanceOf", alice.addr), before), new(big.Int).Quo(amount, big.NewInt(2)))
	c.wantRevert(alice, dm, "completeQueuedWithdrawal", "DelegationManager: withdrawal is not pending", w, tokens, true)
}
