// Package permit2 holds the catalogue's Permit2 tools: reading an
// allowance (permit2_get_allowance), approving a spender through Permit2
// for an exact amount that expires (permit2_approve_token), and revoking with
// lockdown (permit2_revoke_approvals). They register only where the chain's address
// book names Permit2 (role permit2), and a call cannot name another
// Permit2: approving tokens to it is what these tools do.
//
// What they rely on in Permit2's AllowanceTransfer: approve(token,
// spender, amount, expiration) overwrites the amount and the expiration
// and keeps the nonce. An expiration of 0 is stored as the current
// block's timestamp, so the allowance is usable only by a transfer in the
// block that set it (useless for an approval sent on its own); a past
// expiration is stored as given and is already expired. A spender pulls
// with transferFrom only while block.timestamp <= expiration, never more
// than the amount, and never more than the owner's ERC-20 allowance to
// Permit2 itself; an amount of type(uint160).max is never decreased by
// transfers (unlimited). lockdown sets the amount of each (token,
// spender) pair to 0 and leaves the expiration.
//
// So permit2_approve_token takes a lifetime, not a timestamp: at least
// MinExpiry, at most MaxExpiry, DefaultExpiry when omitted, counted from
// the latest block's timestamp; it refuses an unlimited amount, a spender
// without code, and the zero address, Permit2, the token or the wallet as
// spender. The ERC-20 approval it adds is for exactly the amount, and only
// when the wallet's allowance to Permit2 is short. The spender is
// declared as a grant of the plan, so the allowlist checks it like an
// ERC-20 approve's spender; the token is declared with the symbol and
// decimals the agent claims, for the hallucination check.
package permit2

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// The lifetimes permit2_approve_token accepts.
const (
	DefaultExpiry = time.Hour
	MinExpiry     = time.Minute
	MaxExpiry     = 30 * 24 * time.Hour
)

// maxPairs bounds one permit2_revoke_approvals call.
const maxPairs = 16

// unlimited is type(uint160).max, the amount Permit2 never decreases.
var unlimited = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 160), big.NewInt(1))

// Tools are the Permit2 read and writes, registered where the book names
// Permit2.
func Tools() []native.Maker { return []native.Maker{getAllowance, approve, revoke} }

func hasPermit2(env *native.Env) bool { return env.Venues.Permit2 != (common.Address{}) }

// allowance is Permit2's record for (owner, token, spender).
type allowance struct {
	amount     *big.Int
	expiration uint64
	nonce      uint64
}

func readAllowance(ctx context.Context, env *native.Env, owner, tok, spender common.Address) (allowance, error) {
	v, err := native.Call(ctx, env.Chain, chain.Permit2ABI(), env.Venues.Permit2, "allowance", owner, tok, spender)
	if err != nil {
		return allowance{}, fmt.Errorf("read the Permit2 allowance: %w", err)
	}
	amount, ok1 := v[0].(*big.Int)
	exp, ok2 := v[1].(*big.Int)
	nonce, ok3 := v[2].(*big.Int)
	if !ok1 || !ok2 || !ok3 || !exp.IsUint64() || !nonce.IsUint64() {
		return allowance{}, errors.New("read the Permit2 allowance: unexpected result")
	}
	return allowance{amount: amount, expiration: exp.Uint64(), nonce: nonce.Uint64()}, nil
}

var getAllowance = native.ReadTool{
	Name: "permit2_get_allowance",
	Description: "Read the Permit2 allowance an owner (default: the agent's wallet) gives a spender for one ERC-20 token: the amount, " +
		"when it expires, whether it has, and the nonce of signed permits; plus the owner's ERC-20 allowance to Permit2 itself, which also caps what the spender can pull. " +
		"Use it before a protocol that pulls tokens through Permit2 (such as the Universal Router) and after permit2_approve_token or permit2_revoke_approvals. Moves nothing.",
	Category: tool.CatData, Budget: tool.Fast,
	Steps:    []string{"Reading the allowance"},
	Snippet:  "permit2_get_allowance reads a Permit2 allowance: amount, expiration, nonce.",
	Required: []string{"token", "spender"},
	Params: []string{
		native.PAddress("token", "The ERC-20 token"),
		native.PAddress("spender", "The contract the allowance is for"),
		native.PAddress("owner", "Whose allowance; omit for the agent's wallet")},
	Result: []string{
		native.RProp("token", "string", "The token"), native.RProp("owner", "string", "The owner"), native.RProp("spender", "string", "The spender"),
		native.RProp("amount", "string", "Allowance in base units"), native.RProp("unlimited", "boolean", "The amount is type(uint160).max, which transfers never decrease"),
		native.RProp("expiration", "integer", "Unix time after which the allowance is void (0: never set)"),
		native.RProp("expires_at", "string", "The expiration in RFC 3339, UTC"),
		native.RProp("expired", "boolean", "The latest block is past the expiration"),
		native.RProp("nonce", "integer", "The nonce the next signed permit must carry"),
		native.RProp("erc20_allowance", "string", "The owner's ERC-20 allowance to Permit2, in base units"),
		native.RProp("spendable", "string", "What the spender can pull now: the smaller of the two allowances, 0 when expired")},
	Action: "allowance", Venue: "permit2",
	When: hasPermit2,
	Run:  runGetAllowance,
}

type allowanceOut struct {
	Token          string `json:"token"`
	Owner          string `json:"owner"`
	Spender        string `json:"spender"`
	Amount         string `json:"amount"`
	Unlimited      bool   `json:"unlimited"`
	Expiration     uint64 `json:"expiration"`
	ExpiresAt      string `json:"expires_at,omitempty"`
	Expired        bool   `json:"expired"`
	Nonce          uint64 `json:"nonce"`
	ERC20Allowance string `json:"erc20_allowance"`
	Spendable      string `json:"spendable"`
}

func runGetAllowance(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	a := native.ArgsOf(in)
	tok, spender, owner := a.Address("token"), a.Address("spender"), a.Whose(env, "owner")
	if err := a.Err(); err != nil {
		return nil, err
	}
	in.Step(0)
	al, err := readAllowance(ctx, env, owner, tok, spender)
	if err != nil {
		return nil, err
	}
	erc, err := native.Allowance(ctx, env, tok, owner, env.Venues.Permit2)
	if err != nil {
		return nil, fmt.Errorf("%s is not an ERC-20 token: %w", tok.Hex(), err)
	}
	head, err := native.Head(ctx, env)
	if err != nil {
		return nil, err
	}
	out := allowanceOut{
		Token: tok.Hex(), Owner: owner.Hex(), Spender: spender.Hex(),
		Amount: al.amount.String(), Unlimited: al.amount.Cmp(unlimited) == 0,
		Expiration: al.expiration, Expired: head.Time > al.expiration, Nonce: al.nonce,
		ERC20Allowance: erc.String(), Spendable: "0",
	}
	if al.expiration > 0 {
		out.ExpiresAt = time.Unix(int64(min(al.expiration, 1<<40)), 0).UTC().Format(time.RFC3339)
	}
	if !out.Expired {
		out.Spendable = minBig(al.amount, erc).String()
	}
	return out, nil
}

func minBig(x, y *big.Int) *big.Int {
	if x.Cmp(y) < 0 {
		return x
	}
	return y
}

// pClaims are the symbol and decimals the agent believes the token has;
// the hallucination hook checks them against the chain.
var pClaims = native.PString("symbol", "The token's symbol as you believe it to be (checked against the chain)") + "," +
	native.PInt("decimals", "The token's decimals as you believe them to be (checked against the chain)", 0, 255)

var approve = native.WriteTool{
	Name: "permit2_approve_token",
	Description: "Allow a spender contract that pulls tokens through Permit2 (such as the Universal Router) to take up to an exact amount of one of the wallet's ERC-20 tokens, " +
		"until the allowance expires (default 1 hour, at most 30 days). The plan first approves Permit2 itself on the token for exactly the amount when the wallet's allowance to it is short. " +
		"Use it instead of an unlimited approval when a protocol needs a Permit2 allowance. Refuses an unlimited amount and a spender that is not a contract. " +
		"Does not move tokens itself, and does not sign off-chain permits. Revoke with permit2_revoke_approvals.",
	Category: tool.CatTrading, Risk: tool.Layer2, Effect: tool.EffectOpen,
	Steps:      []string{"Reading allowances", "Sending approvals", "Confirming"},
	Snippet:    "permit2_approve_token gives a spender an exact, expiring allowance through Permit2.",
	Guidelines: []string{"Approve the amount the next action needs, with the shortest expiry that covers it; revoke with permit2_revoke_approvals when done."},
	Required:   []string{"token", "spender", "amount"},
	Params: []string{
		native.PAddress("token", "The ERC-20 token"),
		native.PAddress("spender", "The contract allowed to pull the token through Permit2"),
		native.PAmount("amount", "The allowance (below 2^160-1, which Permit2 treats as unlimited)"),
		native.PInt("expires_in_seconds", "How long the allowance lasts, from the latest block (default 3600)", int64(MinExpiry/time.Second), int64(MaxExpiry/time.Second)),
		pClaims},
	Action: "approve", Venue: "permit2",
	When: hasPermit2,
	Plan: planApprove,
}

func planApprove(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	a := native.ArgsOf(in)
	tok, spender, amount := a.Address("token"), a.Address("spender"), a.Positive("amount")
	life := time.Duration(a.Int("expires_in_seconds", int64(DefaultExpiry/time.Second))) * time.Second
	if err := a.Err(); err != nil {
		return nil, err
	}
	if life < MinExpiry || life > MaxExpiry {
		return nil, fmt.Errorf("expires_in_seconds must be between %d and %d", int64(MinExpiry/time.Second), int64(MaxExpiry/time.Second))
	}
	if amount.Cmp(unlimited) >= 0 {
		return nil, errors.New("amount must be below 2^160-1: Permit2 treats 2^160-1 as unlimited and larger amounts do not fit")
	}
	owner, err := native.Owner(env)
	if err != nil {
		return nil, err
	}
	p2 := env.Venues.Permit2
	switch spender {
	case common.Address{}, p2, tok, owner:
		return nil, fmt.Errorf("spender %s cannot be the zero address, Permit2, the token or the wallet itself", spender.Hex())
	}
	in.Step(0)
	code, err := env.Chain.Code(ctx, spender)
	if err != nil {
		return nil, fmt.Errorf("code of spender %s: %w", spender.Hex(), err)
	}
	if len(code) == 0 {
		return nil, fmt.Errorf("spender %s is not a contract: a Permit2 allowance is for a protocol contract, never an account", spender.Hex())
	}
	meta, err := native.ReadTokenMeta(ctx, env, tok)
	if err != nil {
		return nil, err
	}
	head, err := native.Head(ctx, env)
	if err != nil {
		return nil, err
	}
	expiration := head.Time + uint64(life/time.Second)
	txs, err := native.Approvals(ctx, env, tok, p2, amount)
	if err != nil {
		return nil, fmt.Errorf("%s is not an ERC-20 token: %w", tok.Hex(), err)
	}
	t, err := native.Tx(chain.Permit2ABI(), p2, "permit2 approve", "approve", tok, spender, amount, new(big.Int).SetUint64(expiration))
	if err != nil {
		return nil, err
	}
	txs = append(txs, t)
	first := ""
	if len(txs) > 1 {
		first = "after an ERC-20 approve of exactly that amount to Permit2, "
	}
	p := native.NewPlan(ctx, env, txs, []tool.TokenUse{native.Claimed(in, tok, new(big.Int), true)}, native.ValueCents(ctx, env, tok, amount),
		fmt.Sprintf("%sallow %s to pull up to %s %s through Permit2 until %s (%s)", first, spender.Hex(),
			native.FormatUnits(amount, meta.Decimals), native.DisplaySymbol(env, tok, meta),
			time.Unix(int64(expiration), 0).UTC().Format(time.RFC3339), life))
	p.Grants = []tool.Grant{{Token: tool.Address(tok), Spender: tool.Address(spender), Amount: amount, Supply: native.TotalSupply(ctx, env, tok)}}
	return p, nil
}

// revoke's Effect is settle: it only lowers exposure, so every phase
// allows it.
var revoke = native.WriteTool{
	Name: "permit2_revoke_approvals",
	Description: "Set the wallet's Permit2 allowances for (token, spender) pairs to zero in one transaction (Permit2's lockdown), so those spenders can no longer pull the tokens through Permit2. " +
		"Use it when an action that needed a Permit2 allowance is done, or to cut off a spender at once. Pairs whose allowance is already zero are skipped; fails when all are. " +
		"Moves no tokens. Does not change the ERC-20 allowances to Permit2 itself (use erc20_revoke_approval with Permit2 as spender) or cancel permits signed but not yet used.",
	Category: tool.CatSafety, Risk: tool.Layer2, Effect: tool.EffectSettle,
	Steps:    []string{"Reading allowances", "Sending lockdown", "Confirming"},
	Snippet:  "permit2_revoke_approvals sets Permit2 allowances of (token, spender) pairs to zero.",
	Required: []string{"pairs"},
	Params: []string{fmt.Sprintf(`"pairs":{"type":"array","minItems":1,"maxItems":%d,"items":{"type":"object","additionalProperties":false,"required":["token","spender"],"properties":{%s,%s}},"description":"The (token, spender) allowances to revoke"}`,
		maxPairs, native.PAddress("token", "The ERC-20 token"), native.PAddress("spender", "The spender whose Permit2 allowance to remove"))},
	Action: "revoke", Venue: "permit2",
	When: hasPermit2,
	Plan: planRevoke,
}

// tokenSpenderPair is Permit2's IAllowanceTransfer.TokenSpenderPair.
type tokenSpenderPair struct {
	Token   common.Address
	Spender common.Address
}

func planRevoke(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	v, ok := in.Args.Get("pairs")
	if !ok || v.Len() == 0 || v.Len() > maxPairs {
		return nil, fmt.Errorf("pairs must list 1 to %d (token, spender) pairs", maxPairs)
	}
	owner, err := native.Owner(env)
	if err != nil {
		return nil, err
	}
	in.Step(0)
	var pairs []tokenSpenderPair
	var uses []tool.TokenUse
	var skipped int
	seen := map[tokenSpenderPair]bool{}
	for i, e := range v.Elems() {
		var p tokenSpenderPair
		for _, f := range []struct {
			name string
			dst  *common.Address
		}{{"token", &p.Token}, {"spender", &p.Spender}} {
			fv, ok := e.Field(f.name)
			s, _ := fv.Str()
			at, err := tool.ParseAddress(s)
			if !ok || err != nil {
				return nil, fmt.Errorf("pairs[%d].%s: want a 0x-prefixed address", i, f.name)
			}
			*f.dst = common.Address(at)
		}
		if seen[p] {
			return nil, fmt.Errorf("pairs[%d] repeats (%s, %s)", i, p.Token.Hex(), p.Spender.Hex())
		}
		seen[p] = true
		al, err := readAllowance(ctx, env, owner, p.Token, p.Spender)
		if err != nil {
			return nil, err
		}
		if al.amount.Sign() == 0 {
			skipped++
			continue
		}
		pairs = append(pairs, p)
		uses = append(uses, tool.TokenUse{Token: tool.Address(p.Token), Amount: new(big.Int), Out: true, Decimals: -1})
	}
	if len(pairs) == 0 {
		return nil, errors.New("nothing to revoke: every listed Permit2 allowance of the wallet is already zero")
	}
	t, err := native.Tx(chain.Permit2ABI(), env.Venues.Permit2, "permit2 lockdown", "lockdown", pairs)
	if err != nil {
		return nil, err
	}
	note := ""
	if skipped > 0 {
		note = fmt.Sprintf("; %d already zero", skipped)
	}
	// Revoking moves nothing and only lowers exposure: it is worth
	// nothing to the spending limits.
	return native.NewPlan(ctx, env, []tool.Tx{t}, uses, 0,
		fmt.Sprintf("revoke %d Permit2 allowance(s) of the wallet (lockdown)%s", len(pairs), note)), nil
}
