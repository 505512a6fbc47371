package daemon

import (
	"encoding/json"
	"fmt"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/policy"
)

// TestSafeWalletThroughTheGate runs `ward serve`'s embedded defaults with
// wallet_kind = "safe": ward deploys a 1-of-1 Safe of the dev wallet's
// key, and a swap and a transfer previewed and committed through the
// facade execute from the Safe (preview → permit → commit → the
// capability consumed → SafeTx signed → execTransaction). The Safe's
// balances move; the owner key's tokens do not. A second commit of the
// same permit is refused.
func TestSafeWalletThroughTheGate(t *testing.T) {
	f, err := config.Parse("ward.toml", []byte("[chain]\nwallet_kind = \"safe\"\n[gate]\nannounce_delay = \"0s\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := OpenData(t.Context(), t.TempDir(), f)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	safe := st.Wallet.Safe()
	if safe == (common.Address{}) || st.Wallet.Address() != safe || st.Env.Wallet.Address() != safe {
		t.Fatalf("wallet sends from %s (Safe %s), want the dev Safe", st.Wallet.Address().Hex(), safe.Hex())
	}
	key := st.Dev.WalletAddress()
	s, err := st.Session(t.Context(), "agent", policy.Agent, "dev")
	if err != nil {
		t.Fatal(err)
	}
	dc, p := st.Dev.Contracts(), st.Dev.Provider()
	bal := func(tok, who common.Address) *big.Int {
		t.Helper()
		b, err := p.TokenBalance(t.Context(), tok, who)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	preview := func(action, venue string, params map[string]any) string {
		t.Helper()
		raw, _ := json.Marshal(params)
		pv, err := st.Facade.Call(t.Context(), facade.NewSession(s), "preview_action", json.RawMessage(fmt.Sprintf(`{"action_type":%q,"venue":%q,"params":%s}`, action, venue, raw)))
		if err != nil {
			t.Fatalf("%s/%s preview: %v", action, venue, err)
		}
		var v struct {
			PermitID string `json:"permit_id"`
		}
		b, _ := json.Marshal(pv)
		if json.Unmarshal(b, &v); v.PermitID == "" {
			t.Fatalf("%s/%s preview gave no permit: %s", action, venue, b)
		}
		return v.PermitID
	}
	commit := func(id string) ([]string, error) {
		out, err := st.Facade.Call(t.Context(), facade.NewSession(s), "commit_action", json.RawMessage(`{"permit_id":"`+id+`"}`))
		if err != nil {
			return nil, err
		}
		b, _ := json.Marshal(out)
		var res struct {
			TxHashes []string `json:"tx_hashes"`
			Data     struct {
				TxHashes []string `json:"tx_hashes"`
			} `json:"data"`
		}
		json.Unmarshal(b, &res)
		return append(res.TxHashes, res.Data.TxHashes...), nil
	}
	mined := func(what string, hashes []string) {
		t.Helper()
		if len(hashes) == 0 {
			t.Fatalf("%s: no transaction", what)
		}
		for _, h := range hashes {
			r, err := p.Receipt(t.Context(), common.HexToHash(h))
			if err != nil || r.Status != types.ReceiptStatusSuccessful {
				t.Fatalf("%s: receipt %s: %+v %v", what, h, r, err)
			}
		}
	}

	safeUSDC, safeWETH := bal(dc.USDC, safe), bal(dc.WETH, safe)
	keyUSDC, keyWETH := bal(dc.USDC, key), bal(dc.WETH, key)
	id := preview("swap", "uniswap_v2", map[string]any{"token_in": dc.USDC.Hex(), "token_out": dc.WETH.Hex(), "amount_in": "500000000"})
	hashes, err := commit(id)
	if err != nil {
		t.Fatalf("swap commit: %v", err)
	}
	mined("swap", hashes)
	if d := new(big.Int).Sub(safeUSDC, bal(dc.USDC, safe)); d.Cmp(big.NewInt(500e6)) != 0 {
		t.Errorf("the Safe spent %s USDC units, want 500 USDC", d)
	}
	if bal(dc.WETH, safe).Cmp(safeWETH) <= 0 {
		t.Error("the Safe received no WETH")
	}
	if bal(dc.USDC, key).Cmp(keyUSDC) != 0 || bal(dc.WETH, key).Cmp(keyWETH) != 0 {
		t.Error("the owner key's tokens moved; only the Safe's should")
	}
	if _, err := commit(id); err == nil {
		t.Error("the swap's permit was committed twice")
	}

	to := common.HexToAddress("0x00000000000000000000000000000000000b0b02")
	id = preview("transfer", "erc20", map[string]any{"token": dc.USDC.Hex(), "to": to.Hex(), "amount": "5000000"})
	hashes, err = commit(id)
	if err != nil {
		t.Fatalf("transfer commit: %v", err)
	}
	mined("transfer", hashes)
	if got := bal(dc.USDC, to); got.Cmp(big.NewInt(5e6)) != 0 {
		t.Errorf("recipient holds %s USDC units, want 5 USDC", got)
	}
}
