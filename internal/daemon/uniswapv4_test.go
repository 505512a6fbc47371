package daemon

import (
	"encoding/json"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
)

// TestUniswapV4ThroughTheGate swaps on the embedded dev chain's Uniswap
// V4 pools through the facade an agent sees on `ward serve`'s defaults:
// preview_action → permit → commit_action on the hookless pool (a
// standard-risk permit; the receipts and the wallet's balances are
// checked), a preview on the hooked pool's tool that is a high-risk
// permit, a native ETH swap paid as the call's value (and one claiming
// its ETH is WETH refused), the hookless tool refusing the hooked pool at preview, and the
// conservative profile offering no hooked swap at all.
func TestUniswapV4ThroughTheGate(t *testing.T) {
	g := openGateStack(t, "[gate]\nannounce_delay = \"0s\"\n")
	dc, w := g.dc, g.Dev.WalletAddress()
	bal := func(tok common.Address) *big.Int {
		t.Helper()
		return g.balance(tok, w)
	}
	preview := func(action string, params map[string]any) (gatePermit, error) {
		t.Helper()
		return g.preview(action, "uniswap_v4", params)
	}
	// Amounts stay under the default $1,000 per-tick spending limit in all.
	swap := func(hooks common.Address, amount string) map[string]any {
		return map[string]any{"token_in": dc.WETH.Hex(), "token_out": dc.USDC.Hex(), "amount_in": amount,
			"fee": chain.DevV4Fee, "tick_spacing": chain.DevV4TickSpacing, "hooks": hooks.Hex()}
	}

	weth0, usdc0 := bal(dc.WETH), bal(dc.USDC)
	pv, err := preview("swap", swap(common.Address{}, "200000000000000000"))
	if err != nil {
		t.Fatalf("preview: %v", err)
	}
	if pv.Risk != "standard" || !strings.Contains(pv.Summary, "Universal Router") {
		t.Errorf("hookless swap permit %+v, want standard risk through the Universal Router", pv)
	}
	c, err := g.commit(pv.PermitID)
	if err != nil {
		t.Fatalf("commit: %v", err)
	}
	if len(c.TxHashes) < 3 || !c.Verified {
		t.Fatalf("commit result %s: want the approvals and the swap, verified", c.JSON)
	}
	g.mined("commit", c.TxHashes)
	if d := new(big.Int).Sub(weth0, bal(dc.WETH)); d.Cmp(big.NewInt(2e17)) != 0 {
		t.Errorf("the swap spent %s WETH, want 0.2", d)
	}
	// 0.2 WETH in a 50 WETH pool
	// at $3,000, less the 0.3 % fee: about 595.6 USDC.
	if d := new(big.Int).Sub(bal(dc.USDC), usdc0); d.Cmp(big.NewInt(590e6)) < 0 || d.Cmp(big.NewInt(600e6)) > 0 {
		t.Errorf("the swap paid %s USDC units, want about 595.6 USDC", d)
	}

	// The native ETH/USDC pool: 0.03 ETH ($90, under what is left of the
	// tick's limit) paid as the execute call's value, through every hook
	// of the gate (the zero address is ETH, 18 decimals).
	eth0, usdc1 := g.ethBalance(w), bal(dc.USDC)
	nat, err := preview("swap", map[string]any{"token_in": common.Address{}.Hex(), "token_out": dc.USDC.Hex(), "amount_in": "30000000000000000",
		"fee": chain.DevV4Fee, "tick_spacing": chain.DevV4TickSpacing, "token_in_symbol": "ETH", "token_in_decimals": 18})
	if err != nil {
		t.Fatalf("native ETH preview: %v", err)
	}
	if nat.Risk != "standard" || !strings.Contains(nat.Summary, "paid in ETH") {
		t.Errorf("native ETH swap permit %+v", nat)
	}
	c, err = g.commit(nat.PermitID)
	if err != nil {
		t.Fatalf("native ETH commit: %v", err)
	}
	if len(c.TxHashes) != 1 || !c.Verified {
		t.Fatalf("native ETH commit result %s: want the one swap, verified", c.JSON)
	}
	g.mined("native commit", c.TxHashes)
	if d := new(big.Int).Sub(eth0, g.ethBalance(w)); d.Cmp(big.NewInt(3e16)) <= 0 || d.Cmp(big.NewInt(4e16)) > 0 {
		t.Errorf("the native swap cost %s wei of ETH, want 0.03 ETH and its gas", d)
	}
	if d := new(big.Int).Sub(bal(dc.USDC), usdc1); d.Cmp(big.NewInt(89e6)) < 0 || d.Cmp(big.NewInt(90e6)) > 0 {
		t.Errorf("the native swap paid %s USDC units, want about 89.7", d)
	}
	if _, err := preview("swap", map[string]any{"token_in": common.Address{}.Hex(), "token_out": dc.USDC.Hex(), "amount_in": "100000000000000000",
		"fee": chain.DevV4Fee, "tick_spacing": chain.DevV4TickSpacing, "token_in_symbol": "WETH"}); err == nil {
		t.Error("a native ETH swap claiming its input is WETH was previewed")
	}

	hooked, err := preview("swap_hooked", swap(chain.DevV4Hook, "100000000000000000"))
	if err != nil {
		t.Fatalf("hooked preview: %v", err)
	}
	if hooked.Risk != "high" || !strings.Contains(hooked.Summary, "HOOK") {
		t.Errorf("hooked swap permit %+v, want high risk naming the hook", hooked)
	}
	if _, err := preview("swap", swap(chain.DevV4Hook, "100000000000000000")); err == nil || !strings.Contains(err.Error(), "uniswap_execute_v4_hooked_swap") {
		t.Errorf("the hookless tool on the hooked pool: %v, want a refusal naming the hooked tool", err)
	}

	cons, err := g.Session(t.Context(), "careful", policy.Agent, "conservative")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(swap(chain.DevV4Hook, "100000000000000000"))
	_, err = g.Facade.Call(t.Context(), facade.NewSession(cons), "preview_action", json.RawMessage(`{"action_type":"swap_hooked","venue":"uniswap_v4","params":`+string(raw)+`}`))
	if rf := (*gate.Refusal)(nil); !errors.As(err, &rf) || rf.Code != reason.NotPreviewable {
		t.Errorf("a conservative session's preview of a hooked V4 swap: %v, want %s (the profile has no such tool)", err, reason.NotPreviewable)
	}
}
