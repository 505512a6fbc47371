package catalog

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

var defTokenBalance = &tool.Def{
	Name: "data_get_token_balance",
	Description: "Get an address's balance of one ERC-20 token (or native ETH when token is omitted), in base units and in whole tokens. " +
		"Use to check funds before an action. The symbol is given only for tokens in ward's list (use data_get_token_info for others). " +
		"Does not value the balance in USD (use data_get_portfolio_snapshot).",
	Category: tool.CatData, Tier: tool.Read, RiskTier: tool.Layer1, Budget: tool.Fast,
	ProgressSteps: []string{"Reading balance"},
	PromptSnippet: "data_get_token_balance reads one token balance of an address.",
	Params: schema([]string{},
		pAddress("token", "The ERC-20 token; omit for native ETH"),
		pAddress("owner", "Whose balance; omit for the agent's wallet"),
		pChain),
	Result:        []byte(`{"type":"object","properties":{"token":{"type":"string"},"owner":{"type":"string"},"balance":{"type":"string"},"formatted":{"type":"string"},"symbol":{"type":"string"},"decimals":{"type":"integer"},"known":{"type":"boolean"}}}`),
	SchemaVersion: 1,
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

func tokenBalance(env *Env) registry.ReadHandler {
	return func(ctx context.Context, in *registry.Input) (*tool.Result, error) {
		if err := checkChain(env, in); err != nil {
			return nil, err
		}
		tok, err := argAddressOr(in, "token", common.Address{})
		if err != nil {
			return nil, err
		}
		owner, err := ownerArg(env, in, "owner")
		if err != nil {
			return nil, err
		}
		in.Step(0)
		b := balanceOf(ctx, env, tok, owner)
		if b.Error != "" {
			return nil, fmt.Errorf("%s: %s", tok.Hex(), b.Error)
		}
		return tool.ReadResult(defTokenBalance, tokenBalanceOut{Token: b.Token, Owner: owner.Hex(), Balance: b.Balance,
			Formatted: b.Formatted, Symbol: b.Symbol, Decimals: b.Decimals, Known: b.Known})
	}
}

func walletAddress(env *Env) common.Address {
	if env.Wallet == nil {
		return common.Address{}
	}
	return env.Wallet.Address()
}

// TokenMeta is an ERC-20 token's metadata as the chain reports it. Name
// and symbol are third-party content: whoever deployed the token wrote
// them.
type TokenMeta struct {
	Name     string `json:"name"`
	Symbol   string `json:"symbol"`
	Decimals uint8  `json:"decimals"`
}

// tokenMeta reads a token's name, symbol and decimals (a known token's
// from the catalogue's list).
func tokenMeta(ctx context.Context, env *Env, tok common.Address) (TokenMeta, error) {
	a := chain.ERC20ABI()
	dec, err := call(ctx, env.Chain, a, tok, "decimals")
	if err != nil {
		return TokenMeta{}, fmt.Errorf("%s is not an ERC-20 token: %w", tok.Hex(), err)
	}
	m := TokenMeta{Decimals: dec[0].(uint8)}
	if v, err := call(ctx, env.Chain, a, tok, "symbol"); err == nil {
		m.Symbol = bounded(v[0].(string))
	}
	if v, err := call(ctx, env.Chain, a, tok, "name"); err == nil {
		m.Name = bounded(v[0].(string))
	}
	return m, nil
}

// bounded cuts third-party text to 64 bytes.
func bounded(s string) string {
	if len(s) > 64 {
		return s[:64]
	}
	return s
}

var defApprove = &tool.Def{
	Name: "erc20_approve_token",
	Description: "Allow a spender contract (a router, vault or lending pool) to move up to an amount of one of the wallet's ERC-20 tokens. " +
		"Use only when an action needs an allowance the swap and deposit tools do not already set. Prefer exact amounts over unlimited approvals. " +
		"Does not move tokens itself.",
	Category: tool.CatTrading, Tier: tool.Write, RiskTier: tool.Layer2, Budget: tool.Slow, Effect: tool.EffectOpen,
	ProgressSteps:    []string{"Sending approve", "Confirming"},
	PromptSnippet:    "erc20_approve_token sets an exact ERC-20 allowance for a spender.",
	PromptGuidelines: []string{"Approve exact amounts; revoke with erc20_revoke_approval when done."},
	Params: schema([]string{"token", "spender", "amount"},
		pAddress("token", "The ERC-20 token"),
		pAddress("spender", "The contract allowed to spend"),
		pAmount("amount", "The allowance"),
		pString("symbol", "The token's symbol as you believe it to be (checked against the chain)"),
		pInt("decimals", "The token's decimals as you believe them to be (checked against the chain)", 0, 255),
		pChain),
	SchemaVersion: 1,
}

func planApprove(env *Env) registry.Planner {
	return func(ctx context.Context, in *registry.Input) (*tool.Plan, error) {
		tok, err := argAddress(in, "token")
		if err != nil {
			return nil, err
		}
		spender, err := argAddress(in, "spender")
		if err != nil {
			return nil, err
		}
		amount, err := argAmount(in, "amount")
		if err != nil {
			return nil, err
		}
		t, err := tx(chain.ERC20ABI(), tok, "approve", "approve", spender, amount)
		if err != nil {
			return nil, err
		}
		meta, err := tokenMeta(ctx, env, tok)
		if err != nil {
			return nil, err
		}
		return &tool.Plan{
			Chain: env.Chain.ChainID(), From: tool.Address(env.Wallet.Address()), Txs: []tool.Tx{t},
			Tokens:     []tool.TokenUse{claimed(in, tok, big.NewInt(0), true)},
			ValueCents: valueCents(ctx, env, tok, amount),
			Summary:    fmt.Sprintf("approve %s to spend %s %s", spender.Hex(), formatUnits(amount, meta.Decimals), meta.Symbol),
		}, nil
	}
}

// claimed returns a TokenUse with the symbol and decimals the agent
// claimed in the call (symbol / decimals arguments, or prefixed ones such
// as token_in_symbol), for the hallucination hook to check.
func claimed(in *registry.Input, tok common.Address, amount *big.Int, out bool, prefix ...string) tool.TokenUse {
	p := ""
	if len(prefix) > 0 {
		p = prefix[0] + "_"
	}
	return tool.TokenUse{
		Token: tool.Address(tok), Amount: amount, Out: out,
		Symbol:   argString(in, p+"symbol", ""),
		Decimals: int(argInt(in, p+"decimals", -1)),
	}
}
