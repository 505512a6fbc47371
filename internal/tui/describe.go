package tui

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Description is what a held call would do, as the gate described it
// when it held the call (the API's "description"): the model keeps it
// cleaned, for the detail view.
type Description struct {
	Summary  string
	Value    string // "$250.00", "unpriced", or "" without a plan
	Unpriced []string
	Tokens   []TokenLine
	Parties  []PartyLine
	Balances []string // the simulation's balance changes, as text
	// Simulation says why there are none: the transactions revert (the
	// contract's reason, untrusted) or the simulation could not run.
	Simulation string
	Args       string // compact JSON, secrets already redacted by ward
	Rule       string
	Taint      string
	// Provenance is "arg=untrusted" for each argument that is not trusted.
	Provenance []string
	Hijacked   bool
}

// TokenLine is one token a held call moves or lets be spent.
type TokenLine struct {
	Direction string // out, in, allowance
	Amount    string // with decimals applied, or "N base units"
	Symbol    string
	Token     string // the address in full
	Listed    bool
	// Claimed is the symbol the call claimed when it is not the address
	// book's (Mismatch).
	Claimed  string
	Mismatch bool
	Spender  string
}

// PartyLine is a recipient, spender or contract a held call names.
type PartyLine struct {
	Role, Address, Name string
	Known               bool
}

// descWire is the API's description of a held call (gate.Description).
type descWire struct {
	Summary  string   `json:"summary"`
	Value    string   `json:"value"`
	Unpriced []string `json:"unpriced"`
	Tokens   []struct {
		Token          string `json:"token"`
		Symbol         string `json:"symbol"`
		Listed         bool   `json:"listed"`
		ClaimedSymbol  string `json:"claimed_symbol"`
		SymbolMismatch bool   `json:"symbol_mismatch"`
		Display        string `json:"display"`
		Direction      string `json:"direction"`
		Spender        string `json:"spender"`
	} `json:"tokens"`
	Parties []struct {
		Role    string `json:"role"`
		Address string `json:"address"`
		Name    string `json:"name"`
		Known   bool   `json:"known"`
	} `json:"parties"`
	Args           json.RawMessage `json:"args"`
	BalanceChanges []struct {
		Display string `json:"display"`
	} `json:"balance_changes"`
	Simulation string            `json:"simulation"`
	Rule       string            `json:"rule"`
	Taint      string            `json:"taint"`
	Provenance map[string]string `json:"provenance"`
	Hijacked   bool              `json:"hijacked"`
}

// maxListed bounds the tokens, parties and balance changes kept of one
// description.
const maxListed = 16

func (w *descWire) description() *Description {
	if w == nil {
		return nil
	}
	d := &Description{Summary: w.Summary, Value: w.Value, Rule: w.Rule, Taint: w.Taint, Hijacked: w.Hijacked, Args: string(w.Args), Simulation: w.Simulation}
	d.Unpriced = w.Unpriced
	for _, t := range w.Tokens {
		d.Tokens = append(d.Tokens, TokenLine{Direction: t.Direction, Amount: t.Display, Symbol: t.Symbol, Token: t.Token, Listed: t.Listed,
			Claimed: t.ClaimedSymbol, Mismatch: t.SymbolMismatch, Spender: t.Spender})
	}
	for _, p := range w.Parties {
		d.Parties = append(d.Parties, PartyLine{Role: p.Role, Address: p.Address, Name: p.Name, Known: p.Known})
	}
	for _, b := range w.BalanceChanges {
		d.Balances = append(d.Balances, b.Display)
	}
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range w.Provenance {
			if !yield(k) {
				return
			}
		}
	}) {
		d.Provenance = append(d.Provenance, k+"="+w.Provenance[k])
	}
	return d
}

// cleaned returns d with every string made safe for the terminal and
// bounded (clean), lists cut at maxListed.
func (d *Description) cleaned() *Description {
	if d == nil {
		return nil
	}
	c := &Description{Summary: clean(d.Summary, maxText), Value: clean(d.Value, maxName), Args: clean(d.Args, 4*maxText),
		Rule: clean(d.Rule, maxName), Taint: clean(d.Taint, maxName), Hijacked: d.Hijacked, Simulation: clean(d.Simulation, maxText)}
	for _, u := range d.Unpriced[:min(len(d.Unpriced), maxListed)] {
		c.Unpriced = append(c.Unpriced, clean(u, maxText))
	}
	for _, t := range d.Tokens[:min(len(d.Tokens), maxListed)] {
		c.Tokens = append(c.Tokens, TokenLine{Direction: clean(t.Direction, 12), Amount: clean(t.Amount, maxName), Symbol: clean(t.Symbol, 32),
			Token: clean(t.Token, maxName), Listed: t.Listed, Claimed: clean(t.Claimed, 32), Mismatch: t.Mismatch, Spender: clean(t.Spender, maxName)})
	}
	for _, p := range d.Parties[:min(len(d.Parties), maxListed)] {
		c.Parties = append(c.Parties, PartyLine{Role: clean(p.Role, 12), Address: clean(p.Address, maxName), Name: clean(p.Name, maxName), Known: p.Known})
	}
	for _, b := range d.Balances[:min(len(d.Balances), maxListed)] {
		c.Balances = append(c.Balances, clean(b, maxName))
	}
	for _, p := range d.Provenance[:min(len(d.Provenance), maxListed)] {
		c.Provenance = append(c.Provenance, clean(p, maxName))
	}
	return c
}

// brief is the description in a few words for the queue's row: the
// value and the tokens moved ("$250.00 · out 250 USDC").
func (d *Description) brief() string {
	if d == nil {
		return ""
	}
	var parts []string
	if d.Value != "" {
		parts = append(parts, d.Value)
	}
	for _, t := range d.Tokens {
		s := t.Direction + " " + t.Amount
		if t.Symbol != "" {
			s += " " + t.Symbol
		}
		if t.Mismatch {
			s += "(?)"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " · ")
}

// tokenText is a token line of the detail view.
func (t TokenLine) text() string {
	s := fmt.Sprintf("%-9s %s", t.Direction, t.Amount)
	if t.Symbol != "" {
		s += " " + t.Symbol
	}
	s += "  " + t.Token
	if t.Spender != "" {
		s += "  spender " + t.Spender
	}
	return s
}

// warning says what is suspect about a token's symbol, or "".
func (t TokenLine) warning() string {
	switch {
	case t.Mismatch && t.Listed:
		return fmt.Sprintf("the call claims %q, the address book says %q", t.Claimed, t.Symbol)
	case !t.Listed && t.Symbol != "":
		return "not in the address book: its symbol is the token's own claim"
	case !t.Listed:
		return "not in the address book"
	}
	return ""
}
