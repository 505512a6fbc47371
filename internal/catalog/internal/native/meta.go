package native

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

func WalletAddress(env *Env) common.Address {
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
func ReadTokenMeta(ctx context.Context, env *Env, tok common.Address) (TokenMeta, error) {
	a := chain.ERC20ABI()
	dec, err := Call(ctx, env.Chain, a, tok, "decimals")
	if err != nil {
		return TokenMeta{}, fmt.Errorf("%s is not an ERC-20 token: %w", tok.Hex(), err)
	}
	m := TokenMeta{Decimals: dec[0].(uint8)}
	if v, err := Call(ctx, env.Chain, a, tok, "symbol"); err == nil {
		m.Symbol = Bounded(v[0].(string))
	}
	if v, err := Call(ctx, env.Chain, a, tok, "name"); err == nil {
		m.Name = Bounded(v[0].(string))
	}
	return m, nil
}

// TotalSupply is tok's totalSupply(), or nil when it cannot be read: the
// value rule reads an allowance of at least the whole supply as unlimited.
func TotalSupply(ctx context.Context, env *Env, tok common.Address) *big.Int {
	v, err := Call(ctx, env.Chain, chain.ERC20ABI(), tok, "totalSupply")
	if err != nil || len(v) == 0 {
		return nil
	}
	s, _ := v[0].(*big.Int)
	return s
}

// bounded cuts third-party text to 64 bytes.
func Bounded(s string) string {
	if len(s) > 64 {
		return s[:64]
	}
	return s
}

// claimed returns a TokenUse with the symbol and decimals the agent
// claimed in the call (symbol / decimals arguments, or prefixed ones such
// as token_in_symbol), for the hallucination hook to check.
func Claimed(in *registry.Input, tok common.Address, amount *big.Int, out bool, prefix ...string) tool.TokenUse {
	p := ""
	if len(prefix) > 0 {
		p = prefix[0] + "_"
	}
	return tool.TokenUse{
		Token: tool.Address(tok), Amount: amount, Out: out,
		Symbol:   ArgString(in, p+"symbol", ""),
		Decimals: int(ArgInt(in, p+"decimals", -1)),
	}
}

// DisplaySymbol is the symbol to show in a summary: the list's for a
// listed token, else the contract's, marked as claimed by the contract.
func DisplaySymbol(env *Env, tok common.Address, meta TokenMeta) string {
	if t, ok := env.Token(tok); ok {
		return t.Symbol
	}
	return fmt.Sprintf("%q (unlisted token %s)", meta.Symbol, tok.Hex())
}
