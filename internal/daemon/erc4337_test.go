package daemon

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/policy"
)

// TestERC4337WalletThroughTheGate runs `ward serve`'s embedded defaults
// with wallet_kind = "erc4337": ward deploys the EntryPoint and an
// account owned by the dev chain's operator, with the dev wallet's key
// as session key, and a transfer and a Uniswap V2 swap previewed and
// committed through the facade execute from the account (preview →
// permit → commit → the capability consumed → UserOperation signed by
// the session key → handleOps). The account's balances move; the key's
// tokens do not. A swap on a router outside the session key's scope
// (Uniswap V3) is refused at commit with nothing sent.
func TestERC4337WalletThroughTheGate(t *testing.T) {
	f, err := config.Parse("ward.toml", []byte("[chain]\nwallet_kind = \"erc4337\"\n[gate]\nannounce_delay = \"0s\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := OpenData(t.Context(), t.TempDir(), f)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	acct := st.Wallet.Account()
	if acct == (common.Address{}) || st.Wallet.Address() != acct || st.Env.Wallet.Address() != acct {
		t.Fatalf("wallet sends from %s (account %s), want the dev ERC-4337 account", st.Wallet.Address().Hex(), acct.Hex())
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
	ep := chain.EntryPointABI()
	userOpEvent, _ := ep.Event("UserOperationEvent")
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
			ok := false
			for _, l := range r.Logs {
				if l.Topics[0] == userOpEvent && common.BytesToAddress(l.Topics[2][:]) == acct {
					ok = true
				}
			}
			if !ok {
				t.Fatalf("%s: receipt %s has no UserOperationEvent of the account", what, h)
			}
		}
	}

	to := common.HexToAddress("0x00000000000000000000000000000000000b0b43")
	acctUSDC, keyUSDC := bal(dc.USDC, acct), bal(dc.USDC, key)
	id := preview("transfer", "erc20", map[string]any{"token": dc.USDC.Hex(), "to": to.Hex(), "amount": "5000000"})
	hashes, err := commit(id)
	if err != nil {
		t.Fatalf("transfer commit: %v", err)
	}
	mined("transfer", hashes)
	if got := bal(dc.USDC, to); got.Cmp(big.NewInt(5e6)) != 0 {
		t.Errorf("recipient holds %s USDC units, want 5 USDC", got)
	}
	if d := new(big.Int).Sub(acctUSDC, bal(dc.USDC, acct)); d.Cmp(big.NewInt(5e6)) != 0 {
		t.Errorf("the account spent %s USDC units, want 5 USDC", d)
	}
	if _, err := commit(id); err == nil {
		t.Error("the transfer's permit was committed twice")
	}

	acctUSDC, acctWETH := bal(dc.USDC, acct), bal(dc.WETH, acct)
	id = preview("swap", "uniswap_v2", map[string]any{"token_in": dc.USDC.Hex(), "token_out": dc.WETH.Hex(), "amount_in": "500000000"})
	hashes, err = commit(id)
	if err != nil {
		t.Fatalf("swap commit: %v", err)
	}
	mined("swap", hashes)
	if d := new(big.Int).Sub(acctUSDC, bal(dc.USDC, acct)); d.Cmp(big.NewInt(500e6)) != 0 {
		t.Errorf("the account spent %s USDC units, want 500 USDC", d)
	}
	if bal(dc.WETH, acct).Cmp(acctWETH) <= 0 {
		t.Error("the account received no WETH")
	}
	if bal(dc.USDC, key).Cmp(keyUSDC) != 0 {
		t.Error("the session key's USDC moved; only the account's should")
	}

	// Uniswap V3's router is not in the dev session key's scope.
	nonce := func() *big.Int {
		t.Helper()
		data, _ := ep.Pack("getNonce", acct, new(big.Int))
		epAddr := st.Wallet.EntryPoint()
		ret, err := p.Call(t.Context(), ethereum.CallMsg{To: &epAddr, Data: data})
		if err != nil {
			t.Fatal(err)
		}
		v, err := ep.Unpack("getNonce", ret)
		if err != nil {
			t.Fatal(err)
		}
		return v[0].(*big.Int)
	}
	before, acctUSDC := nonce(), bal(dc.USDC, acct)
	id = preview("swap", "uniswap_v3", map[string]any{"token_in": dc.USDC.Hex(), "token_out": dc.WETH.Hex(), "amount_in": "100000000"})
	if _, err := commit(id); err == nil || !strings.Contains(err.Error(), "not in the session key's scope") {
		t.Fatalf("commit of a swap outside the session key's scope: %v, want a refusal naming the scope", err)
	}
	if nonce().Cmp(before) != 0 || bal(dc.USDC, acct).Cmp(acctUSDC) != 0 {
		t.Error("the refused swap changed the account")
	}
}
