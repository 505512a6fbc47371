package catalog_test

import (
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/wardhq/ward/internal/addrbook"
	"github.com/wardhq/ward/internal/catalog"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// permit2Pull is Permit2's single transferFrom, which a spender calls to
// pull an owner's tokens; the tests call it with eth_call from the
// spender's address to see what Permit2 itself would let it take.
var permit2Pull = func() *chain.ABI {
	a, err := chain.ParseABI([]byte(`[{"type":"function","name":"transferFrom","stateMutability":"nonpayable","inputs":[{"name":"from","type":"address"},{"name":"to","type":"address"},{"name":"amount","type":"uint160"},{"name":"token","type":"address"}],"outputs":[]}]`))
	if err != nil {
		panic(err)
	}
	return a
}()

// TestPermit2 drives the Permit2 tools against the published Permit2 code
// deployed by deploy.Deploy, with the catalogue configured from the
// deployment's book. The spender is the deployment's SwapRouter02 (any
// contract will do: what it may pull is asked of Permit2 directly, with
// eth_call from its address).
func TestPermit2(t *testing.T) {
	f := newNPMFixture(t)
	ctx := t.Context()
	p2, ok := f.r.Contract(addrbook.Permit2)
	if !ok || f.env.Venues.Permit2 != p2 {
		t.Fatalf("Permit2 %s in the book, %s in the venues", p2, f.env.Venues.Permit2)
	}
	spender, _ := f.r.Contract(addrbook.UniswapV3SwapRouter02)
	me := f.wallet.Address()
	p2abi, erc20 := chain.Permit2ABI(), chain.ERC20ABI()

	// pull reports whether Permit2 lets spender take amount of usdc from
	// the wallet now, and the revert otherwise.
	pull := func(t *testing.T, amount *big.Int) error {
		t.Helper()
		data, err := permit2Pull.Pack("transferFrom", me, f.deployer.Address(), amount, f.usdc)
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.env.Chain.Call(ctx, ethereum.CallMsg{From: spender, To: &p2, Data: data})
		return err
	}
	type allowanceRead struct {
		Amount     string `json:"amount"`
		Unlimited  bool   `json:"unlimited"`
		Expiration uint64 `json:"expiration"`
		ExpiresAt  string `json:"expires_at"`
		Expired    bool   `json:"expired"`
		Nonce      uint64 `json:"nonce"`
		ERC20      string `json:"erc20_allowance"`
		Spendable  string `json:"spendable"`
	}
	read := func(t *testing.T) allowanceRead {
		t.Helper()
		var out allowanceRead
		f.read(t, "permit2_get_allowance", fmt.Sprintf(`{"token":%q,"spender":%q}`, f.usdc.Hex(), spender.Hex()), &out)
		return out
	}
	onChain := func(t *testing.T) (*big.Int, uint64) {
		t.Helper()
		data, _ := p2abi.Pack("allowance", me, f.usdc, spender)
		raw, err := f.env.Chain.Call(ctx, ethereum.CallMsg{To: &p2, Data: data})
		if err != nil {
			t.Fatal(err)
		}
		v, err := p2abi.Unpack("allowance", raw)
		if err != nil {
			t.Fatal(err)
		}
		return v[0].(*big.Int), v[1].(*big.Int).Uint64()
	}
	amount := units(1_000, 6)

	t.Run("nothing approved", func(t *testing.T) {
		got := read(t)
		if got.Amount != "0" || got.Expiration != 0 || !got.Expired || got.Spendable != "0" || got.Nonce != 0 {
			t.Errorf("allowance %+v, want zero and expired", got)
		}
		if pull(t, big.NewInt(1)) == nil {
			t.Error("Permit2 lets the spender pull without an allowance")
		}
	})

	t.Run("approve: exact ERC-20 approval, then an expiring Permit2 allowance", func(t *testing.T) {
		head := freshHead(t, f.env.Chain)
		args := fmt.Sprintf(`{"token":%q,"spender":%q,"amount":%q,"symbol":"USDC","decimals":6}`, f.usdc.Hex(), spender.Hex(), amount.String())
		p := f.commit(t, "permit2_approve_token", args, nil)
		if len(p.Txs) != 2 || common.Address(p.Txs[0].To) != f.usdc || common.Address(p.Txs[1].To) != p2 {
			t.Fatalf("plan %+v: want approve on the token, then Permit2", p.Txs)
		}
		if m, a, err := erc20.UnpackArgs(p.Txs[0].Data); err != nil || m != "approve" || a[0].(common.Address) != p2 || a[1].(*big.Int).Cmp(amount) != 0 {
			t.Errorf("first tx %s %v (%v): want approve(Permit2, exactly %s)", m, a, err, amount)
		}
		if len(p.Grants) != 1 || common.Address(p.Grants[0].Spender) != spender || common.Address(p.Grants[0].Token) != f.usdc || p.Grants[0].Amount.Cmp(amount) != 0 {
			t.Errorf("grants %+v: want the spender's Permit2 allowance declared", p.Grants)
		}
		if len(p.Tokens) != 1 || common.Address(p.Tokens[0].Token) != f.usdc || p.Tokens[0].Symbol != "USDC" || p.Tokens[0].Decimals != 6 {
			t.Errorf("tokens %+v: want USDC with the agent's claims", p.Tokens)
		}
		if p.ValueCents <= 0 {
			t.Errorf("value %d cents: the allowance is priced", p.ValueCents)
		}
		got, exp := onChain(t)
		if got.Cmp(amount) != 0 || exp != head.Time+3600 {
			t.Errorf("Permit2 allowance %s expiring %d; want %s expiring %d (the block before the plan + 1 hour)", got, exp, amount, head.Time+3600)
		}
		if al, err := f.env.Chain.TokenBalance(ctx, f.usdc, me); err != nil || al.Sign() == 0 {
			t.Fatalf("wallet USDC %s (%v)", al, err)
		}
		r := read(t)
		if r.Amount != amount.String() || r.Expired || r.Spendable != amount.String() || r.ERC20 != amount.String() || r.ExpiresAt == "" || r.Unlimited {
			t.Errorf("allowance %+v, want %s spendable until %d", r, amount, exp)
		}
		if err := pull(t, amount); err != nil {
			t.Errorf("Permit2 refuses the spender the approved amount: %v", err)
		}
		if err := pull(t, new(big.Int).Add(amount, big.NewInt(1))); err == nil || !strings.Contains(err.Error(), "InsufficientAllowance") {
			t.Errorf("pull of more than the approved amount: %v, want Permit2's InsufficientAllowance", err)
		}
	})

	t.Run("the allowance expires", func(t *testing.T) {
		f.adjustTime(t, 2*time.Hour)
		// A transaction through ward's provider, so that it sees the
		// block two hours on rather than its cached latest header.
		f.send(t, f.deployer, mustTx(t, erc20, f.usdc, "transfer", f.deployer.Address(), big.NewInt(1)))
		r := read(t)
		if !r.Expired || r.Spendable != "0" || r.Amount != amount.String() {
			t.Errorf("allowance %+v two hours later: want expired, nothing spendable", r)
		}
		err := pull(t, big.NewInt(1))
		if err == nil || !strings.Contains(err.Error(), "AllowanceExpired") {
			t.Errorf("pull after expiry: %v, want Permit2's AllowanceExpired", err)
		}
	})

	t.Run("approve again: the ERC-20 allowance suffices, a chosen expiry", func(t *testing.T) {
		head := freshHead(t, f.env.Chain)
		half := units(500, 6)
		args := fmt.Sprintf(`{"token":%q,"spender":%q,"amount":%q,"expires_in_seconds":600}`, f.usdc.Hex(), spender.Hex(), half.String())
		p := f.commit(t, "permit2_approve_token", args, nil)
		if len(p.Txs) != 1 || common.Address(p.Txs[0].To) != p2 {
			t.Errorf("plan %+v: want only Permit2.approve", p.Txs)
		}
		if got, exp := onChain(t); got.Cmp(half) != 0 || exp != head.Time+600 {
			t.Errorf("Permit2 allowance %s expiring %d; want %s expiring %d", got, exp, half, head.Time+600)
		}
		if err := pull(t, half); err != nil {
			t.Errorf("pull of the new allowance: %v", err)
		}
	})

	t.Run("refusals", func(t *testing.T) {
		maxU160 := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 160), big.NewInt(1))
		for _, tc := range []struct {
			name, spender, amount, want string
		}{
			{"an account as spender", f.deployer.Address().Hex(), "1", "not a contract"},
			{"Permit2 as spender", p2.Hex(), "1", "cannot be"},
			{"the token as spender", f.usdc.Hex(), "1", "cannot be"},
			{"the wallet as spender", me.Hex(), "1", "cannot be"},
			{"the zero address as spender", common.Address{}.Hex(), "1", "cannot be"},
			{"an unlimited amount", spender.Hex(), maxU160.String(), "unlimited"},
			{"more than uint160", spender.Hex(), new(big.Int).Lsh(big.NewInt(1), 160).String(), "unlimited"},
			{"a zero amount", spender.Hex(), "0", "amount"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				_, _, err := f.plan(t, "permit2_approve_token", fmt.Sprintf(`{"token":%q,"spender":%q,"amount":%q}`, f.usdc.Hex(), tc.spender, tc.amount))
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("err = %v, want a refusal mentioning %q", err, tc.want)
				}
			})
		}
		e := f.entry(t, "permit2_approve_token")
		for _, secs := range []int64{0, 59, 30*24*3600 + 1, -1} {
			if err := e.Validate(fmt.Appendf(nil, `{"token":%q,"spender":%q,"amount":"1","expires_in_seconds":%d}`, f.usdc.Hex(), spender.Hex(), secs)); err == nil {
				t.Errorf("expires_in_seconds %d accepted by the schema", secs)
			}
		}
	})

	t.Run("the allowlist checks the spender", func(t *testing.T) {
		p, in, err := f.plan(t, "permit2_approve_token", fmt.Sprintf(`{"token":%q,"spender":%q,"amount":"1"}`, f.usdc.Hex(), spender.Hex()))
		if err != nil {
			t.Fatal(err)
		}
		call := &hook.Call{Def: f.entry(t, "permit2_approve_token").Def, Args: in.Args, Plan: p, Now: time.Now()}
		without, err := hook.NewAllowlist(hook.AllowlistConfig{Contracts: []tool.Address{tool.Address(p2), tool.Address(f.usdc)}, AnySelector: true, AnyToken: true})
		if err != nil {
			t.Fatal(err)
		}
		if v := without.Check(ctx, call); !v.Veto || v.Code != reason.ContractNotAllowed {
			t.Errorf("verdict %+v with the spender off the allowlist, want %s", v, reason.ContractNotAllowed)
		}
		with, err := hook.NewAllowlist(hook.AllowlistConfig{Contracts: []tool.Address{tool.Address(p2), tool.Address(f.usdc), tool.Address(spender)}, AnySelector: true, AnyToken: true})
		if err != nil {
			t.Fatal(err)
		}
		if v := with.Check(ctx, call); v.Veto {
			t.Errorf("verdict %+v with the spender on the allowlist, want a pass", v)
		}
	})

	t.Run("revoke with lockdown", func(t *testing.T) {
		args := fmt.Sprintf(`{"pairs":[{"token":%q,"spender":%q},{"token":%q,"spender":%q}]}`, f.usdc.Hex(), spender.Hex(), f.weth.Hex(), spender.Hex())
		p := f.commit(t, "permit2_revoke_approvals", args, nil)
		if len(p.Txs) != 1 || common.Address(p.Txs[0].To) != p2 {
			t.Fatalf("plan %+v: want one Permit2 lockdown", p.Txs)
		}
		m, a, err := p2abi.UnpackArgs(p.Txs[0].Data)
		if err != nil || m != "lockdown" {
			t.Fatalf("tx calls %s (%v), want lockdown", m, err)
		}
		if s := fmt.Sprint(a[0]); !strings.Contains(s, f.usdc.Hex()) || strings.Contains(s, f.weth.Hex()) {
			t.Errorf("lockdown of %s: want the USDC pair only (WETH's allowance is zero)", s)
		}
		if len(p.Tokens) != 1 || common.Address(p.Tokens[0].Token) != f.usdc || !strings.Contains(p.Summary, "1 already zero") {
			t.Errorf("plan tokens %+v, summary %q", p.Tokens, p.Summary)
		}
		if got, _ := onChain(t); got.Sign() != 0 {
			t.Errorf("Permit2 allowance %s after lockdown, want 0", got)
		}
		if pull(t, big.NewInt(1)) == nil {
			t.Error("Permit2 lets the spender pull after lockdown")
		}
		_, _, err = f.plan(t, "permit2_revoke_approvals", args)
		if err == nil || !strings.Contains(err.Error(), "nothing to revoke") {
			t.Errorf("second revoke: %v, want nothing to revoke", err)
		}
		dup := fmt.Sprintf(`{"pairs":[{"token":%q,"spender":%q},{"token":%q,"spender":%q}]}`, f.usdc.Hex(), spender.Hex(), f.usdc.Hex(), spender.Hex())
		if _, _, err := f.plan(t, "permit2_revoke_approvals", dup); err == nil || !strings.Contains(err.Error(), "repeats") {
			t.Errorf("repeated pair: %v, want a refusal", err)
		}
	})

	t.Run("no Permit2 in the book, no tools", func(t *testing.T) {
		env := *f.env
		env.Venues.Permit2 = common.Address{}
		for _, tl := range catalog.Tools(&env) {
			if strings.HasPrefix(tl.Def.Name, "permit2_") {
				t.Errorf("%s registered without Permit2", tl.Def.Name)
			}
		}
	})
}

// freshHead is the chain's latest header as a plan or a read sees it:
// asked of the node, as their pin is (chain.PinLatest), not the
// provider's cached latest header, which may be a block behind.
func freshHead(t *testing.T, p *chain.Provider) *types.Header {
	t.Helper()
	pinned, _, err := p.PinLatest(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	h, err := p.HeaderLatest(pinned)
	if err != nil {
		t.Fatal(err)
	}
	return h
}
