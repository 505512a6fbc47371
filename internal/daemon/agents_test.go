package daemon_test

import (
	"encoding/json"
	"fmt"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/daemon"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules"
	"github.com/wardhq/ward/internal/tool"
)

// TestGateAgentsAndRestaking commits the ERC-8004 and EigenLayer writes
// through the whole gate of a stack on its embedded dev chain, with the
// default policy and the dev allowlist: the registries and managers are
// reachable and the writes that move no token (feedback, delegation) pass
// the hooks and are verified.
func TestGateAgentsAndRestaking(t *testing.T) {
	snap, err := rules.Compile(rules.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	st, err := daemon.Open(t.Context(), daemon.Config{
		DB: daemon.DefaultDB(t.TempDir()), Policy: snap, DevSeed: "ward-agents-test", AnnounceDelay: -1,
		Hooks: hook.Config{
			Spending: hook.SpendingConfig{PerTickCents: hook.Unlimited, PerSessionCents: hook.Unlimited, DailyCents: hook.Unlimited},
			Rate:     hook.RateConfig{Max: 1 << 20, Window: time.Hour},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := st.Session(t.Context(), "agent", policy.Agent, "dev")
	if err != nil {
		t.Fatal(err)
	}
	dc := st.Dev.Contracts()
	p := st.Dev.Provider()
	commit := func(t *testing.T, action, venue, params string) {
		t.Helper()
		out, err := st.Facade.Call(t.Context(), facade.NewSession(s), "preview_action",
			json.RawMessage(fmt.Sprintf(`{"action_type":%q,"venue":%q,"params":%s}`, action, venue, params)))
		if err != nil {
			t.Fatalf("preview %s/%s: %v", action, venue, err)
		}
		var pv gate.PermitView
		if err := json.Unmarshal(out, &pv); err != nil {
			t.Fatal(err)
		}
		out, err = st.Facade.Call(t.Context(), facade.NewSession(s), "commit_action", json.RawMessage(`{"permit_id":"`+pv.PermitID+`"}`))
		if err != nil {
			t.Fatalf("commit %s/%s: %v", action, venue, err)
		}
		var res tool.Result
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatal(err)
		}
		var data struct {
			Verified bool `json:"verified"`
		}
		if err := json.Unmarshal(res.Data, &data); err != nil || !data.Verified {
			t.Errorf("%s/%s: outcome not verified: %s", action, venue, res.Data)
		}
	}
	call := func(t *testing.T, a *chain.ABI, to common.Address, method string, args ...any) []any {
		t.Helper()
		data, err := a.Pack(method, args...)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := p.Call(t.Context(), ethereum.CallMsg{To: &to, Data: data})
		if err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		v, err := a.Unpack(method, raw)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	me := st.Wallet.Address()
	idABI := chain.ERC8004IdentityABI()

	commit(t, "identity_register", "erc8004", `{"agent_uri":"https://ward.invalid/agent.json"}`)
	if n := call(t, idABI, dc.IdentityRegistry, "balanceOf", me)[0].(*big.Int); n.Int64() != 1 {
		t.Fatalf("wallet holds %s agents after the registration", n)
	}

	// Another principal registers an agent, which the wallet then rates.
	key, err := crypto.ToECDSA(crypto.Keccak256([]byte("ward daemon agents test other")))
	if err != nil {
		t.Fatal(err)
	}
	other := crypto.PubkeyToAddress(key.PublicKey)
	if err := st.Dev.Fund(t.Context(), other, common.Address{}, big.NewInt(1e18)); err != nil {
		t.Fatal(err)
	}
	data, _ := idABI.Pack("register0", "ipfs://bafyother")
	head, err := p.HeaderLatest(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(big.NewInt(chain.DevChainID)), &types.DynamicFeeTx{
		ChainID: big.NewInt(chain.DevChainID), Nonce: 0, GasTipCap: big.NewInt(1e9), GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(4)), big.NewInt(1e9)),
		Gas: 500_000, To: &dc.IdentityRegistry, Data: data,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.SendTransaction(t.Context(), tx); err != nil {
		t.Fatal(err)
	}
	if r, err := p.WaitReceipt(t.Context(), tx.Hash()); err != nil || r.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("other registration: %v %+v", err, r)
	}
	theirs := call(t, idABI, dc.IdentityRegistry, "tokenOfOwnerByIndex", other, big.NewInt(0))[0].(*big.Int)
	commit(t, "identity_feedback", "erc8004", fmt.Sprintf(`{"agent_id":%d,"score":"95","tag1":"starred"}`, theirs.Int64()))
	if n := call(t, chain.ERC8004ReputationABI(), dc.ReputationRegistry, "getLastIndex", theirs, me)[0].(uint64); n != 1 {
		t.Errorf("wallet's feedback count on agent %s is %d, want 1", theirs, n)
	}

	commit(t, "restake", "eigenlayer", `{"amount":"1000000000000000000"}`)
	commit(t, "delegate", "eigenlayer", fmt.Sprintf(`{"operator":%q}`, dc.EigenOperator.Hex()))
	if op := call(t, chain.EigenDelegationManagerABI(), dc.EigenDelegationManager, "delegatedTo", me)[0].(common.Address); op != dc.EigenOperator {
		t.Errorf("delegated to %s, want the dev operator", op.Hex())
	}
}
