package hook

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// Selector is a 4-byte function selector, written as 0x and 8 hex digits.
type Selector [4]byte

// ParseSelector parses "0xa9059cbb".
func ParseSelector(s string) (Selector, error) {
	var sel Selector
	h, ok := strings.CutPrefix(s, "0x")
	if !ok || len(h) != 8 {
		return sel, fmt.Errorf("selector %q: want 0x and 8 hex digits", s)
	}
	if _, err := hex.Decode(sel[:], []byte(h)); err != nil {
		return sel, fmt.Errorf("selector %q: not hex", s)
	}
	return sel, nil
}

func (s Selector) String() string { return "0x" + hex.EncodeToString(s[:]) }

// MarshalText implements encoding.TextMarshaler.
func (s Selector) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *Selector) UnmarshalText(b []byte) error {
	v, err := ParseSelector(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// AllowlistConfig lists what a plan may touch. Each dimension is
// restricted unless its Any flag says otherwise: the zero config allows no
// token, no contract and no function. An Any flag and a non-empty list of
// the same dimension together are an error.
type AllowlistConfig struct {
	// Tokens a plan may move (plan.Tokens). Native ETH is the zero address
	// and must be listed like any token.
	Tokens   []tool.Address
	AnyToken bool
	// Contracts are the addresses a plan's transactions may go to, calls
	// and plain transfers alike.
	Contracts   []tool.Address
	AnyContract bool
	// Selectors may be called on any allowed contract; ContractSelectors
	// only on the contract they are listed under. A transaction with no
	// calldata calls no function; calldata shorter than 4 bytes is refused.
	Selectors         []Selector
	ContractSelectors map[tool.Address][]Selector
	AnySelector       bool
}

// Allowlist refuses plans that move tokens, call contracts or call
// functions outside its lists. It is immutable and safe for concurrent
// use.
type Allowlist struct {
	anyToken, anyContract, anySelector bool
	tokens, contracts                  map[tool.Address]bool
	selectors                          map[Selector]bool
	perContract                        map[tool.Address]map[Selector]bool
}

var _ Hook = (*Allowlist)(nil)

// NewAllowlist validates cfg and returns an Allowlist.
func NewAllowlist(cfg AllowlistConfig) (*Allowlist, error) {
	switch {
	case cfg.AnyToken && len(cfg.Tokens) > 0:
		return nil, errors.New("allowlist: AnyToken with a token list")
	case cfg.AnyContract && len(cfg.Contracts) > 0:
		return nil, errors.New("allowlist: AnyContract with a contract list")
	case cfg.AnySelector && (len(cfg.Selectors) > 0 || len(cfg.ContractSelectors) > 0):
		return nil, errors.New("allowlist: AnySelector with selector lists")
	}
	a := &Allowlist{
		anyToken: cfg.AnyToken, anyContract: cfg.AnyContract, anySelector: cfg.AnySelector,
		tokens: set(cfg.Tokens), contracts: set(cfg.Contracts), selectors: set(cfg.Selectors),
		perContract: map[tool.Address]map[Selector]bool{},
	}
	for addr, sels := range cfg.ContractSelectors {
		if !a.anyContract && !a.contracts[addr] {
			return nil, fmt.Errorf("allowlist: selectors listed for %s, which is not an allowed contract", addr)
		}
		a.perContract[addr] = set(sels)
	}
	return a, nil
}

func set[T comparable](xs []T) map[T]bool {
	m := make(map[T]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// Name returns "allowlist".
func (*Allowlist) Name() string { return "allowlist" }

// Check implements Hook: every transaction's destination, every called
// function and every token of the plan must be allowed. Reads and
// previews without a plan pass.
func (a *Allowlist) Check(_ context.Context, c *Call) Verdict {
	const name = "allowlist"
	p, v, ok := planOf(name, c)
	if !ok {
		return v
	}
	for i, tx := range p.Txs {
		if !a.anyContract && !a.contracts[tx.To] {
			return veto(name, reason.ContractNotAllowed,
				fmt.Sprintf("contract %s is not on the allowlist", tx.To),
				fmt.Sprintf("%s: tx %d (%s) to %s", c.Def.Name, i, tx.Label, tx.To))
		}
		if len(tx.Data) == 0 || a.anySelector {
			continue
		}
		sel, ok := tx.Selector()
		if !ok {
			return veto(name, reason.SelectorNotAllowed,
				fmt.Sprintf("the call to %s has calldata shorter than a function selector", tx.To),
				fmt.Sprintf("%s: tx %d has %d bytes of calldata", c.Def.Name, i, len(tx.Data)))
		}
		if !a.selectors[sel] && !a.perContract[tx.To][sel] {
			return veto(name, reason.SelectorNotAllowed,
				fmt.Sprintf("function %s on contract %s is not on the allowlist", Selector(sel), tx.To),
				fmt.Sprintf("%s: tx %d (%s)", c.Def.Name, i, tx.Label))
		}
	}
	// An allowance is a standing permission to move the wallet's tokens:
	// its spender must be an allowed contract, whether the grant is an
	// approve call or a signed permit.
	if !a.anyContract {
		for _, g := range p.AllGrants() {
			if !a.contracts[g.Spender] {
				return veto(name, reason.ContractNotAllowed,
					fmt.Sprintf("spender %s of an allowance is not on the allowlist", g.Spender),
					fmt.Sprintf("%s grants %s of %s to %s", c.Def.Name, g.Amount, g.Token, g.Spender))
			}
		}
	}
	if !a.anyToken {
		for _, t := range p.Tokens {
			if !a.tokens[t.Token] {
				return veto(name, reason.TokenNotAllowed,
					fmt.Sprintf("token %s is not on the allowlist", t.Token),
					fmt.Sprintf("%s moves %s", c.Def.Name, t.Token))
			}
		}
	}
	return Verdict{}
}
