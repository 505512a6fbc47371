package daemon

import (
	"encoding/json"
	"fmt"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/policy"
)

// gateStack is `ward serve`'s embedded stack on a dev chain with a funded
// wallet, opened from a ward.toml, and one agent session on the dev
// profile that speaks to it through the facade: the set-up every
// through-the-gate test shares. The stack is closed when the test ends.
type gateStack struct {
	*Stack
	t  *testing.T
	s  *gate.Session
	dc *chain.DevContracts
	p  *chain.Provider
}

// openGateStack opens the stack of toml (ward.toml's text) in a temporary
// directory and an agent session on the dev profile; any failure ends the
// test.
func openGateStack(t *testing.T, toml string) *gateStack {
	t.Helper()
	f, err := config.Parse("ward.toml", []byte(toml))
	if err != nil {
		t.Fatal(err)
	}
	st, err := OpenData(t.Context(), t.TempDir(), f)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s, err := st.Session(t.Context(), "agent", policy.Agent, "dev")
	if err != nil {
		t.Fatal(err)
	}
	return &gateStack{Stack: st, t: t, s: s, dc: st.Dev.Contracts(), p: st.Dev.Provider()}
}

// balance is who's balance of the token tok.
func (g *gateStack) balance(tok, who common.Address) *big.Int {
	g.t.Helper()
	b, err := g.p.TokenBalance(g.t.Context(), tok, who)
	if err != nil {
		g.t.Fatal(err)
	}
	return b
}

// ethBalance is who's native ETH.
func (g *gateStack) ethBalance(who common.Address) *big.Int {
	g.t.Helper()
	b, err := g.p.BalanceOf(g.t.Context(), who)
	if err != nil {
		g.t.Fatal(err)
	}
	return b
}

// gatePermit is what preview_action answers with.
type gatePermit struct {
	PermitID string `json:"permit_id"`
	Risk     string `json:"risk_tier"`
	Summary  string `json:"summary"`
}

// preview calls preview_action for action at venue with params; a refusal
// is the error, and an answer without a permit ends the test.
func (g *gateStack) preview(action, venue string, params map[string]any) (gatePermit, error) {
	g.t.Helper()
	raw, _ := json.Marshal(params)
	out, err := g.Facade.Call(g.t.Context(), facade.NewSession(g.s), "preview_action", json.RawMessage(fmt.Sprintf(`{"action_type":%q,"venue":%q,"params":%s}`, action, venue, raw)))
	if err != nil {
		return gatePermit{}, err
	}
	var v gatePermit
	b, _ := json.Marshal(out)
	if json.Unmarshal(b, &v); v.PermitID == "" {
		g.t.Fatalf("%s/%s preview gave no permit: %s", action, venue, b)
	}
	return v, nil
}

// gateCommit is what commit_action answers with: the transactions it sent
// (at the top or under data, as the handler puts them) and the answer as
// JSON for what a test checks beyond them.
type gateCommit struct {
	TxHashes []string
	Verified bool
	JSON     []byte
}

// commit calls commit_action on the permit id; a refusal is the error.
func (g *gateStack) commit(id string) (gateCommit, error) {
	out, err := g.Facade.Call(g.t.Context(), facade.NewSession(g.s), "commit_action", json.RawMessage(`{"permit_id":"`+id+`"}`))
	if err != nil {
		return gateCommit{}, err
	}
	b, _ := json.Marshal(out)
	var res struct {
		TxHashes []string `json:"tx_hashes"`
		Data     struct {
			TxHashes []string `json:"tx_hashes"`
			Verified bool     `json:"verified"`
		} `json:"data"`
	}
	json.Unmarshal(b, &res)
	return gateCommit{TxHashes: append(res.TxHashes, res.Data.TxHashes...), Verified: res.Data.Verified, JSON: b}, nil
}

// mined ends the test unless hashes name at least one transaction and
// every one of them was mined successfully; what labels the failure.
func (g *gateStack) mined(what string, hashes []string) {
	g.t.Helper()
	if len(hashes) == 0 {
		g.t.Fatalf("%s: no transaction", what)
	}
	for _, h := range hashes {
		r, err := g.p.Receipt(g.t.Context(), common.HexToHash(h))
		if err != nil || r.Status != types.ReceiptStatusSuccessful {
			g.t.Fatalf("%s: receipt %s: %+v %v", what, h, r, err)
		}
	}
}
