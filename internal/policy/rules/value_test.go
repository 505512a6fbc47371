package rules

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// The value rules under the default policy, on plans shaped like those of
// ward's erc20 tools. The tool names are deliberately not ward's: the rules
// select by the plan, never by name.
func TestValueRules(t *testing.T) {
	s := compile(t, DefaultConfig())
	if !s.NeedsProvenance() {
		t.Fatal("the default policy does not ask for provenance in clean sessions, so the recipient rule would see none")
	}
	var (
		usdc      = addr(0xa0)
		stranger  = addr(0x51)
		owners    = addr(0x0b)
		router    = addr(0x77)
		usdc250   = big.NewInt(250_000_000)
		uintMax   = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
		twoTo255  = new(big.Int).Lsh(big.NewInt(1), 255)
		justUnder = new(big.Int).Sub(twoTo255, big.NewInt(1))
		uint96Max = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 96), big.NewInt(1))
		supply    = big.NewInt(1_000_000_000_000)
	)
	// withSupply declares the approve's grant with the token's supply, as
	// ward's planners do.
	withSupply := func(p *tool.Plan, amount *big.Int) *tool.Plan {
		p.Grants = []tool.Grant{{Token: usdc, Spender: owners, Amount: amount, Supply: supply}}
		return p
	}
	transfer := func(to tool.Address, cents int64) *tool.Plan {
		return &tool.Plan{Tokens: []tool.TokenUse{{Token: usdc, Amount: usdc250, Out: true}}, Payees: []tool.Address{to}, ValueCents: cents}
	}
	approve := func(spender tool.Address, amount *big.Int, cents int64) *tool.Plan {
		data := append([]byte{0x09, 0x5e, 0xa7, 0xb3}, make([]byte, 64)...)
		copy(data[4+12:4+32], spender[:])
		amount.FillBytes(data[4+32 : 4+64])
		return &tool.Plan{Txs: []tool.Tx{{To: usdc, Data: data, Label: "approve"}}, ValueCents: cents}
	}
	permit := func(spender tool.Address, amount *big.Int) *tool.Plan {
		return &tool.Plan{Grants: []tool.Grant{{Token: usdc, Spender: spender, Amount: amount}}, ValueCents: 500}
	}
	call := func(p *tool.Plan, prov map[string]string) func(*policy.Request) {
		return func(r *policy.Request) {
			r.Tool = tool.Ref{Name: r.Tool.Name, Category: tool.CatWallet, Risk: tool.Dangerous, Tier: tool.Write}
			r.Plan = p
			r.Trust = policy.Trust{Provenance: prov}
		}
	}
	to := func(a tool.Address) string {
		return fmt.Sprintf(`{"token":%q,"to":%q,"amount":"250000000"}`, usdc.Hex(), a.Hex())
	}
	spend := func(a tool.Address) string {
		return fmt.Sprintf(`{"token":%q,"spender":%q,"amount":"1"}`, usdc.Hex(), a.Hex())
	}
	unknown := map[string]string{"token": "trusted", "to": "unknown", "spender": "unknown"}
	trusted := map[string]string{"token": "trusted", "to": "trusted", "spender": "trusted"}
	for _, tc := range []struct {
		name, args string
		mod        func(*policy.Request)
		action     policy.Action
		code       reason.Code
	}{
		{"$250 to an address the agent supplied: held for the owner", to(stranger),
			call(transfer(stranger, 25_000), unknown), policy.Quarantine, reason.UntrustedRecipient},
		{"$250 to an address from third-party content: held", to(stranger),
			call(transfer(stranger, 25_000), map[string]string{"to": "untrusted"}), policy.Quarantine, reason.UntrustedRecipient},
		{"$250 to the owner's address book: allowed", to(owners),
			call(transfer(owners, 25_000), trusted), policy.Allow, reason.Allowed},
		{"$50 to an unknown address: below the threshold", to(stranger),
			call(transfer(stranger, 5_000), unknown), policy.Allow, reason.Allowed},
		{"exactly the threshold: allowed", to(stranger),
			call(transfer(stranger, 10_000), unknown), policy.Allow, reason.Allowed},
		{"unpriced transfer to an unknown address: held", to(stranger),
			call(transfer(stranger, -1), unknown), policy.Quarantine, reason.UntrustedRecipient},
		{"recipient spelt in upper case is still found", fmt.Sprintf(`{"to":"0X%X"}`, stranger[:]),
			call(transfer(stranger, 25_000), unknown), policy.Quarantine, reason.UntrustedRecipient},
		{"recipient nested in an object is found", fmt.Sprintf(`{"payment":{"to":%q}}`, stranger.Hex()),
			call(transfer(stranger, 25_000), map[string]string{"payment": "unknown"}), policy.Quarantine, reason.UntrustedRecipient},
		{"exact approval of a large amount to an unknown spender: held", spend(stranger),
			call(approve(stranger, usdc250, 25_000), unknown), policy.Quarantine, reason.UntrustedRecipient},
		{"exact approval to a trusted spender: allowed", spend(owners),
			call(approve(owners, usdc250, 25_000), trusted), policy.Allow, reason.Allowed},
		{"approval to a router the catalogue chose (no argument carries it): allowed", `{"token_in":"x"}`,
			call(approve(router, usdc250, 25_000), unknown), policy.Allow, reason.Allowed},
		{"revoke (a zero grant) to an unknown spender: allowed", spend(stranger),
			call(approve(stranger, new(big.Int), 0), unknown), policy.Allow, reason.Allowed},
		{"unlimited approval (uint256 max): denied", spend(owners),
			call(approve(owners, uintMax, 25_000), trusted), policy.Deny, reason.UnlimitedApproval},
		{"unlimited approval (2^255): denied", spend(owners),
			call(approve(owners, twoTo255, 25_000), trusted), policy.Deny, reason.UnlimitedApproval},
		{"2^255-1 is not read as unlimited", spend(owners),
			call(approve(owners, justUnder, 25_000), trusted), policy.Allow, reason.Allowed},
		{"uint96 max, unlimited to tokens that keep uint96 amounts: denied", spend(owners),
			call(approve(owners, uint96Max, 25_000), trusted), policy.Deny, reason.UnlimitedApproval},
		{"uint96 max plus one is an ordinary number", spend(owners),
			call(approve(owners, new(big.Int).Add(uint96Max, big.NewInt(2)), 25_000), trusted), policy.Allow, reason.Allowed},
		{"the token's whole supply: denied", spend(owners),
			call(withSupply(approve(owners, supply, 25_000), supply), trusted), policy.Deny, reason.UnlimitedApproval},
		{"more than the whole supply, declared only in calldata: denied", spend(owners),
			call(withSupply(approve(owners, new(big.Int).Add(supply, big.NewInt(1)), 25_000), big.NewInt(1)), trusted), policy.Deny, reason.UnlimitedApproval},
		{"just under the whole supply: allowed", spend(owners),
			call(withSupply(approve(owners, new(big.Int).Sub(supply, big.NewInt(1)), 25_000), new(big.Int).Sub(supply, big.NewInt(1))), trusted), policy.Allow, reason.Allowed},
		{"unlimited signed permit: denied", spend(owners),
			call(permit(owners, uintMax), trusted), policy.Deny, reason.UnlimitedApproval},
		{"no plan: no opinion", to(stranger),
			call(nil, unknown), policy.Allow, reason.Allowed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := eval(t, s, "pay_someone", tc.args, tc.mod)
			if d.Action() != tc.action || d.Code() != tc.code {
				t.Errorf("got %v %s (%s), want %v %s", d.Action(), d.Code(), d.Message(), tc.action, tc.code)
			}
		})
	}
}

func TestValueRulesConfig(t *testing.T) {
	stranger := addr(0x51)
	args := fmt.Sprintf(`{"to":%q}`, stranger.Hex())
	withPlan := func(cents int64) func(*policy.Request) {
		return func(r *policy.Request) {
			r.Tool.Tier = tool.Write
			r.Plan = &tool.Plan{Payees: []tool.Address{stranger}, ValueCents: cents}
		}
	}
	t.Run("the zero threshold holds any value", func(t *testing.T) {
		cfg := DefaultConfig()
		cfg.Treasury.QuarantineUntrustedAboveCents = 0
		if d := eval(t, compile(t, cfg), "pay", args, withPlan(1)); d.Action() != policy.Quarantine {
			t.Errorf("got %v, want quarantine", d.Action())
		}
	})
	t.Run("a raised threshold lets $250 through", func(t *testing.T) {
		cfg := DefaultConfig()
		cfg.Treasury.QuarantineUntrustedAboveCents = 50_000
		if d := eval(t, compile(t, cfg), "pay", args, withPlan(25_000)); d.Action() != policy.Allow {
			t.Errorf("got %v %s, want allow", d.Action(), d.Code())
		}
	})
	t.Run("disabled, the rule neither holds nor asks for provenance", func(t *testing.T) {
		cfg := DefaultConfig()
		cfg.Builtin = map[string]Override{ruleUntrustedRecipient: {Disabled: true}}
		s := compile(t, cfg)
		if d := eval(t, s, "pay", args, withPlan(25_000)); d.Action() != policy.Allow {
			t.Errorf("got %v %s, want allow", d.Action(), d.Code())
		}
		if s.NeedsProvenance() {
			t.Error("NeedsProvenance with the only rule that reads it disabled")
		}
	})
	t.Run("a negative threshold is an error", func(t *testing.T) {
		cfg := DefaultConfig()
		cfg.Treasury.QuarantineUntrustedAboveCents = -1
		if _, err := Compile(cfg); err == nil {
			t.Error("Compile accepted a negative threshold")
		}
	})
}

func addr(b byte) tool.Address {
	var a tool.Address
	for i := range a {
		a[i] = b
	}
	return a
}
