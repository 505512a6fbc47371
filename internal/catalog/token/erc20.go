package token

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

var balance = native.ReadTool{
	Name: "data_get_token_balance",
	Description: "Get an address's balance of one ERC-20 token (or native ETH when token is omitted), in base units and in whole tokens. " +
		"Use to check funds before an action. The symbol is given only for tokens in ward's list (use data_get_token_info for others). " +
		"Does not value the balance in USD (use data_get_portfolio_snapshot).",
	Category: tool.CatData, Budget: tool.Fast,
	Steps:   []string{"Reading balance"},
	Snippet: "data_get_token_balance reads one token balance of an address.",
	Params: []string{
		native.PAddress("token", "The ERC-20 token; omit for native ETH"),
		native.PAddress("owner", "Whose balance; omit for the agent's wallet")},
	Result: []string{`"token":{"type":"string"},"owner":{"type":"string"},"balance":{"type":"string"},"formatted":{"type":"string"},"symbol":{"type":"string"},"decimals":{"type":"integer"},"known":{"type":"boolean"}`},
	Action: "balance",
	Run:    tokenBalance,
}

type tokenBalanceOut struct {
	Token     string `json:"token"`
	Owner     string `json:"owner"`
	Balance   string `json:"balance"`
	Formatted string `json:"formatted"`
	Symbol    string `json:"symbol,omitempty"`
	Decimals  int    `json:"decimals"`
	Known     bool   `json:"known"`
}

func tokenBalance(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	a := native.ArgsOf(in)
	tok, owner := a.AddressOr("token", common.Address{}), a.Owner(env, "owner")
	if err := a.Err(); err != nil {
		return nil, err
	}
	in.Step(0)
	b := native.BalanceOf(ctx, env, tok, owner)
	if b.Error != "" {
		return nil, fmt.Errorf("%s: %s", tok.Hex(), b.Error)
	}
	return tokenBalanceOut{Token: b.Token, Owner: owner.Hex(), Balance: b.Balance,
		Formatted: b.Formatted, Symbol: b.Symbol, Decimals: b.Decimals, Known: b.Known}, nil
}

var approve = native.WriteTool{
	Name: "erc20_approve_token",
	Description: "Allow a spender contract (a router, vault or lending pool) to move up to an amount of one of the wallet's ERC-20 tokens. " +
		"Use only when an action needs an allowance the swap and deposit tools do not already set. Prefer exact amounts over unlimited approvals. " +
		"Does not move tokens itself.",
	Category: tool.CatTrading, Risk: tool.Layer2, Effect: tool.EffectOpen,
	Steps:      []string{"Sending approve", "Confirming"},
	Snippet:    "erc20_approve_token sets an exact ERC-20 allowance for a spender.",
	Guidelines: []string{"Approve exact amounts; revoke with erc20_revoke_approval when done."},
	Required:   []string{"token", "spender", "amount"},
	Params: []string{
		native.PAddress("token", "The ERC-20 token"),
		native.PAddress("spender", "The contract allowed to spend"),
		native.PAmount("amount", "The allowance"),
		pClaims},
	Action: "approve", Venue: "erc20",
	Plan: planApprove,
}

func planApprove(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	a := native.ArgsOf(in)
	tok, spender, amount := a.Address("token"), a.Address("spender"), a.Amount("amount")
	if err := a.Err(); err != nil {
		return nil, err
	}
	t, err := native.Tx(chain.ERC20ABI(), tok, "approve", "approve", spender, amount)
	if err != nil {
		return nil, err
	}
	meta, err := native.ReadTokenMeta(ctx, env, tok)
	if err != nil {
		return nil, err
	}
	p := native.NewPlan(ctx, env, []tool.Tx{t}, []tool.TokenUse{native.Claimed(in, tok, big.NewInt(0), true)}, native.ValueCents(ctx, env, tok, amount),
		fmt.Sprintf("approve %s to spend %s %s", spender.Hex(), native.FormatUnits(amount, meta.Decimals), meta.Symbol))
	p.Grants = []tool.Grant{{Token: tool.Address(tok), Spender: tool.Address(spender), Amount: amount, Supply: native.TotalSupply(ctx, env, tok)}}
	return p, nil
}
