package hook

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

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

	override atomic.Pointer[AllowlistSource]
}

// AllowlistOverride is the owner's changes to the configured allowlist,
// stored so that they outlive a restart and reach every instance on one
// database. What it adds is allowed besides the configuration's lists;
// what it removes is refused whatever the configuration says, its Any
// flags included (the owner can stop a token or a contract at once, even
// under any_token or any_contract).
type AllowlistOverride struct {
	AddTokens, RemoveTokens       []tool.Address
	AddContracts, RemoveContracts []tool.Address
	AddSelectors, RemoveSelectors []Selector
}

// Empty reports whether o changes nothing.
func (o AllowlistOverride) Empty() bool {
	return len(o.AddTokens)+len(o.RemoveTokens)+len(o.AddContracts)+len(o.RemoveContracts)+len(o.AddSelectors)+len(o.RemoveSelectors) == 0
}

// AllowlistSource reads the owner's changes to the allowlist. It is read
// on every check, so a change made by another instance on the same store
// is in force at the next one; an error refuses the check.
type AllowlistSource func(ctx context.Context) (AllowlistOverride, error)

// SetOverride makes f the source of the owner's changes (nil: none).
func (a *Allowlist) SetOverride(f AllowlistSource) {
	if f == nil {
		a.override.Store(nil)
		return
	}
	a.override.Store(&f)
}

// changes is an AllowlistOverride as sets.
type changes struct {
	addTokens, removeTokens       map[tool.Address]bool
	addContracts, removeContracts map[tool.Address]bool
	addSelectors, removeSelectors map[Selector]bool
}

func (a *Allowlist) changes(ctx context.Context) (changes, error) {
	f := a.override.Load()
	if f == nil {
		return changes{}, nil
	}
	o, err := (*f)(ctx)
	if err != nil {
		return changes{}, err
	}
	return changes{
		addTokens: set(o.AddTokens), removeTokens: set(o.RemoveTokens),
		addContracts: set(o.AddContracts), removeContracts: set(o.RemoveContracts),
		addSelectors: set(o.AddSelectors), removeSelectors: set(o.RemoveSelectors),
	}, nil
}

func (a *Allowlist) token(ch changes, t tool.Address) bool {
	return !ch.removeTokens[t] && (a.anyToken || a.tokens[t] || ch.addTokens[t])
}

func (a *Allowlist) contract(ch changes, c tool.Address) bool {
	return !ch.removeContracts[c] && (a.anyContract || a.contracts[c] || ch.addContracts[c])
}

func (a *Allowlist) selector(ch changes, c tool.Address, s Selector) bool {
	return !ch.removeSelectors[s] && (a.anySelector || a.selectors[s] || a.perContract[c][s] || ch.addSelectors[s])
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
func (a *Allowlist) Check(ctx context.Context, c *Call) Verdict {
	const name = "allowlist"
	p, v, ok := planOf(name, c)
	if !ok {
		return v
	}
	ch, err := a.changes(ctx)
	if err != nil {
		v := veto(name, reason.HookError, "the owner's changes to the allowlist could not be read, so the action is refused", err.Error())
		v.Err = err
		return v
	}
	for i, tx := range p.Txs {
		if !a.contract(ch, tx.To) {
			return veto(name, reason.ContractNotAllowed,
				fmt.Sprintf("contract %s is not on the allowlist", tx.To),
				fmt.Sprintf("%s: tx %d (%s) to %s", c.Def.Name, i, tx.Label, tx.To))
		}
		if len(tx.Data) == 0 || a.anySelector && len(ch.removeSelectors) == 0 {
			continue
		}
		sel, ok := tx.Selector()
		if !ok {
			return veto(name, reason.SelectorNotAllowed,
				fmt.Sprintf("the call to %s has calldata shorter than a function selector", tx.To),
				fmt.Sprintf("%s: tx %d has %d bytes of calldata", c.Def.Name, i, len(tx.Data)))
		}
		if !a.selector(ch, tx.To, sel) {
			return veto(name, reason.SelectorNotAllowed,
				fmt.Sprintf("function %s on contract %s is not on the allowlist", Selector(sel), tx.To),
				fmt.Sprintf("%s: tx %d (%s)", c.Def.Name, i, tx.Label))
		}
	}
	// An allowance is a standing permission to move the wallet's tokens:
	// its spender must be an allowed contract, whether the grant is an
	// approve call or a signed permit.
	for _, g := range p.AllGrants() {
		if !a.contract(ch, g.Spender) {
			return veto(name, reason.ContractNotAllowed,
				fmt.Sprintf("spender %s of an allowance is not on the allowlist", g.Spender),
				fmt.Sprintf("%s grants %s of %s to %s", c.Def.Name, g.Amount, g.Token, g.Spender))
		}
	}
	for _, t := range p.Tokens {
		if !a.token(ch, t.Token) {
			return veto(name, reason.TokenNotAllowed,
				fmt.Sprintf("token %s is not on the allowlist", t.Token),
				fmt.Sprintf("%s moves %s", c.Def.Name, t.Token))
		}
	}
	return Verdict{}
}

// AllowlistLists are addresses and function selectors as an owner writes
// them (an address in either case, a selector as 0x and 8 hex digits).
type AllowlistLists struct {
	Tokens    []string `json:"tokens,omitempty"`
	Contracts []string `json:"contracts,omitempty"`
	Selectors []string `json:"selectors,omitempty"`
}

// ParseAllowlistOverride reads what an owner adds to the allowlist and
// removes from it; an error names the first value that does not parse.
func ParseAllowlistOverride(add, remove AllowlistLists) (AllowlistOverride, error) {
	var o AllowlistOverride
	addrs := func(what string, in []string, out *[]tool.Address) error {
		for i, s := range in {
			a, err := tool.ParseAddress(s)
			if err != nil {
				return fmt.Errorf("%s[%d]: %w", what, i, err)
			}
			*out = append(*out, a)
		}
		return nil
	}
	sels := func(what string, in []string, out *[]Selector) error {
		for i, s := range in {
			v, err := ParseSelector(s)
			if err != nil {
				return fmt.Errorf("%s[%d]: %w", what, i, err)
			}
			*out = append(*out, v)
		}
		return nil
	}
	for _, err := range []error{
		addrs("add.tokens", add.Tokens, &o.AddTokens), addrs("add.contracts", add.Contracts, &o.AddContracts),
		sels("add.selectors", add.Selectors, &o.AddSelectors),
		addrs("remove.tokens", remove.Tokens, &o.RemoveTokens), addrs("remove.contracts", remove.Contracts, &o.RemoveContracts),
		sels("remove.selectors", remove.Selectors, &o.RemoveSelectors),
	} {
		if err != nil {
			return AllowlistOverride{}, err
		}
	}
	return o, nil
}
