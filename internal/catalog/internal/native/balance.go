package native

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
)

// ownerArg reads an optional address argument that defaults to the
// wallet; with neither, it fails.
func OwnerArg(env *Env, in *registry.Input, name string) (common.Address, error) {
	owner, err := ArgAddressOr(in, name, WalletAddress(env))
	if err != nil {
		return common.Address{}, err
	}
	if owner == (common.Address{}) {
		return common.Address{}, fmt.Errorf("%s is required: %w", name, errNoWallet)
	}
	return owner, nil
}

// knownTokens returns the catalogue's tokens, WETH included.
func (e *Env) KnownTokens() []Token {
	out := append([]Token(nil), e.Tokens...)
	if e.Venues.WETH != (common.Address{}) {
		if _, ok := e.listed(e.Venues.WETH); !ok {
			out = append(out, Token{Address: e.Venues.WETH, Symbol: "WETH", Decimals: 18, Feed: e.Venues.ETHFeed})
		}
	}
	return out
}

// listed returns the token of the catalogue's list at addr.
func (e *Env) listed(addr common.Address) (Token, bool) {
	for _, t := range e.Tokens {
		if t.Address == addr {
			return t, true
		}
	}
	return Token{}, false
}

type BalanceEntry struct {
	Token     string `json:"token"`
	Symbol    string `json:"symbol,omitempty"`
	Known     bool   `json:"known"`
	Decimals  int    `json:"decimals"`
	Balance   string `json:"balance,omitempty"`
	Formatted string `json:"formatted,omitempty"`
	Error     string `json:"error,omitempty"`
}

// balanceOf reads one token balance; a failure is reported in the entry.
// Only a listed token's symbol is given: another token's symbol is text
// its deployer chose.
func BalanceOf(ctx context.Context, env *Env, tok, owner common.Address) BalanceEntry {
	e := BalanceEntry{Token: tok.Hex(), Decimals: -1}
	t, known := env.Token(tok)
	if known {
		e.Symbol, e.Known, e.Decimals = t.Symbol, true, int(t.Decimals)
	} else {
		dec, err := Call(ctx, env.Chain, chain.ERC20ABI(), tok, "decimals")
		if err != nil {
			e.Error = "not an ERC-20 token (decimals() failed)"
			return e
		}
		e.Decimals = int(dec[0].(uint8))
	}
	var bal *big.Int
	var err error
	if tok == (common.Address{}) {
		bal, err = env.Chain.BalanceOf(ctx, owner)
	} else {
		bal, err = env.Chain.TokenBalance(ctx, tok, owner)
	}
	if err != nil {
		e.Error = "balanceOf() failed"
		return e
	}
	e.Balance, e.Formatted = bal.String(), FormatUnits(bal, uint8(e.Decimals))
	return e
}

func Allowance(ctx context.Context, env *Env, tok, owner, spender common.Address) (*big.Int, error) {
	v, err := Call(ctx, env.Chain, chain.ERC20ABI(), tok, "allowance", owner, spender)
	if err != nil {
		return nil, err
	}
	return v[0].(*big.Int), nil
}
