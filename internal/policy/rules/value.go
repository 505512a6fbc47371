package rules

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// Rule ids of the value rules, which protect ward's own catalogue.
const (
	ruleUntrustedRecipient = "financial.untrusted-recipient"
	ruleUnlimitedApproval  = "financial.unlimited-approval"
)

// unlimitedAllowance is the smallest allowance read as unlimited: 2^255.
// Wallets and dapps write "unlimited" as uint256 max (2^256-1) or as 2^255
// and above, which tokens treat as never decreasing; no exact approval of a
// real amount comes near it.
var unlimitedAllowance = new(big.Int).Lsh(big.NewInt(1), 255)

// narrowMaxima are 2^n-1 for the narrower integers tokens and allowance
// contracts keep amounts in (uint96 in COMP and UNI, uint160 in Permit2,
// ...): each treats its own maximum as unlimited, so that number is an
// unlimited approval there, though far below 2^255.
var narrowMaxima = func() []*big.Int {
	var out []*big.Int
	for _, n := range []uint{96, 112, 128, 160, 192, 224} {
		out = append(out, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), n), big.NewInt(1)))
	}
	return out
}()

// unlimited says what g grants when it is unlimited in effect: 2^255 or
// more, a narrow integer's maximum, or at least the token's whole supply.
func unlimited(g tool.Grant) (string, bool) {
	switch {
	case g.Amount == nil || g.Amount.Sign() <= 0:
		return "", false
	case g.Amount.Cmp(unlimitedAllowance) >= 0:
		return "an unlimited allowance", true
	case g.Supply != nil && g.Supply.Sign() > 0 && g.Amount.Cmp(g.Supply) >= 0:
		return "an allowance of at least the token's whole supply (" + g.Supply.String() + " base units), unlimited in effect", true
	}
	for _, m := range narrowMaxima {
		if g.Amount.Cmp(m) == 0 {
			return "an allowance of 2^" + strconv.Itoa(m.BitLen()) + "-1, which tokens and allowance contracts of that width treat as unlimited", true
		}
	}
	return "", false
}

// valueRules add the rules that read a previewed write's plan, so that
// they hold for any tool of ward's catalogue by what it does (whom it pays,
// what allowance it grants, what it is worth), whatever its name:
//
//   - financial.unlimited-approval denies a write that grants an unlimited
//     allowance;
//   - financial.untrusted-recipient quarantines, for the owner, a write
//     that pays or lets spend an address the agent supplied without
//     trusted provenance (the owner's address book or directive, or a
//     trusted tool's output) when it is worth more than
//     Treasury.QuarantineUntrustedAboveCents, or cannot be priced.
//
// Both have no opinion on a call without a plan (upstream tools, reads,
// `ward policy check`): the plan is where value and counterparties are
// known, not the argument names.
func (b *builder) valueRules(t Treasury) {
	b.add(policy.Rule{
		ID: ruleUnlimitedApproval, Priority: 18,
		Eval: func(r *policy.Request) (policy.Result, error) {
			if r.Plan == nil {
				return policy.NoOpinion, nil
			}
			for _, g := range r.Plan.AllGrants() {
				if what, ok := unlimited(g); ok {
					return policy.Denies(reason.UnlimitedApproval,
						"the call grants "+what+"; approve the exact amount the action needs"), nil
				}
			}
			return policy.NoOpinion, nil
		},
	})
	limit := t.QuarantineUntrustedAboveCents
	b.add(policy.Rule{
		ID: ruleUntrustedRecipient, Priority: 36,
		Eval: func(r *policy.Request) (policy.Result, error) {
			p := r.Plan
			if p == nil || (p.ValueCents >= 0 && p.ValueCents <= limit) {
				return policy.NoOpinion, nil
			}
			for _, a := range counterparties(p) {
				if arg, ok := untrustedSource(r, a); ok {
					worth := "cannot be priced"
					if p.ValueCents >= 0 {
						worth = "is worth " + usd(p.ValueCents) + ", above " + usd(limit)
					}
					return policy.Quarantines(reason.UntrustedRecipient,
						"argument "+strconv.Quote(arg)+" sends value to, or lets spend, an address that is not in the owner's address book or directive, and the call "+
							worth+": it waits for the owner"), nil
				}
			}
			return policy.NoOpinion, nil
		},
	})
	if o, ok := b.cfg.Builtin[ruleUntrustedRecipient]; !ok || !o.Disabled {
		b.readsProvenance = true
	}
}

// usd spells an amount of cents as dollars, "$1234.56", for the owner.
func usd(c int64) string {
	return "$" + strconv.FormatInt(c/100, 10) + "." + fmt.Sprintf("%02d", c%100)
}

// counterparties returns the addresses a plan pays or lets spend: its
// payees and the spenders of its non-zero grants (a revoke grants zero).
func counterparties(p *tool.Plan) []tool.Address {
	out := append([]tool.Address(nil), p.Payees...)
	for _, g := range p.AllGrants() {
		if g.Amount != nil && g.Amount.Sign() > 0 {
			out = append(out, g.Spender)
		}
	}
	return out
}

// untrustedSource returns the first top-level argument that carries a (at
// any depth) and whose provenance is not trusted. An address that no
// argument carries was chosen by the catalogue (a venue's router, say), not
// by the agent, and has no untrusted source.
func untrustedSource(r *policy.Request, a tool.Address) (string, bool) {
	if r.Args == nil {
		return "", false
	}
	want := a.Hex()
	for _, f := range r.Args.Fields() {
		if carries(f.Value, want, 0) && r.Trust.Origin(f.Key) != policy.ProvenanceTrusted {
			return f.Key, true
		}
	}
	return "", false
}

// carries reports whether v is, or holds, the address spelt want (lower
// case hex), in any case.
func carries(v tool.Value, want string, depth int) bool {
	if depth > 8 {
		return false
	}
	switch v.Kind() {
	case tool.String:
		s, _ := v.Str()
		return strings.EqualFold(strings.TrimSpace(s), want)
	case tool.Array:
		for _, e := range v.Elems() {
			if carries(e, want, depth+1) {
				return true
			}
		}
	case tool.Object:
		for _, f := range v.Fields() {
			if carries(f.Value, want, depth+1) {
				return true
			}
		}
	}
	return false
}
