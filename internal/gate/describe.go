package gate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/addrbook"
	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// Description is what a held call would do, in a person's units: the
// tokens it moves with the address book's symbols and decimals, the USD
// value at stake, who receives or may spend (addresses in full, EIP-55,
// with the name the books give them), the call's arguments with secrets
// redacted, the rule that held it and the provenance that made it
// suspect. The gate makes it once, when the call is held, and stores it
// with the item. It is display data for the owner: nothing decides on it.
//
// Symbols and names can come from a token contract an attacker deployed;
// they are text to show, never markup, and SymbolMismatch flags a symbol
// the agent claimed that is not the address book's.
type Description struct {
	Summary string `json:"summary,omitempty"`
	ChainID uint64 `json:"chain_id,omitempty"`
	// Tokens are the tokens the call moves or lets be spent.
	Tokens []TokenAmount `json:"tokens,omitempty"`
	// Value is the USD value at stake ("$250.00"), or "unpriced" when no
	// feed prices it, or "" when the call has no plan (a read, an
	// upstream tool). ValueCents is -1 when unpriced.
	Value      string   `json:"value,omitempty"`
	ValueCents int64    `json:"value_cents"`
	Unpriced   []string `json:"unpriced,omitempty"`
	// Parties are the recipients, spenders and contracts the call names.
	Parties []Party `json:"parties,omitempty"`
	// Args are the call's arguments with secrets replaced by
	// "[redacted]"; Redacted counts them.
	Args     json.RawMessage `json:"args"`
	Redacted int             `json:"redacted,omitempty"`
	// BalanceChanges are the simulation's changes of the wallet's
	// balances: a permit's from its preview, a held call's from a
	// simulation run for the owner when it is held (on a fork: nothing is
	// sent). Simulation says when there is none: the transactions revert
	// (with the contract's reason, untrusted text) or the simulation could
	// not run.
	BalanceChanges []BalanceChange `json:"balance_changes,omitempty"`
	Simulation     string          `json:"simulation,omitempty"`
	Rule           string          `json:"rule,omitempty"`
	Reason         reason.Code     `json:"reason"`
	// Taint is the session's taint state (clean, tainted, review) and
	// Provenance the provenance of each argument that is not trusted.
	Taint      string            `json:"taint,omitempty"`
	Provenance map[string]string `json:"provenance,omitempty"`
	// Hijacked: no argument comes from the owner or a trusted output
	// while the session follows instructions it read.
	Hijacked bool `json:"hijacked,omitempty"`
}

// TokenAmount is one token of a description.
type TokenAmount struct {
	Token string `json:"token"` // EIP-55
	// Symbol is the address book's symbol, or the claimed one when the
	// book does not list the token (Listed false).
	Symbol string `json:"symbol,omitempty"`
	Listed bool   `json:"listed"`
	// ClaimedSymbol is the symbol the call claimed when it is not the
	// book's; SymbolMismatch is then true.
	ClaimedSymbol  string `json:"claimed_symbol,omitempty"`
	SymbolMismatch bool   `json:"symbol_mismatch,omitempty"`
	Decimals       int    `json:"decimals"` // -1: unknown
	// Amount is in base units; Display applies the decimals ("250.5").
	Amount  string `json:"amount"`
	Display string `json:"display"`
	// Direction is "out" (leaves the wallet), "in" (expected back) or
	// "allowance" (may be spent by a spender).
	Direction string `json:"direction"`
	Spender   string `json:"spender,omitempty"`
}

// Party is an address a call sends to or lets spend.
type Party struct {
	Role    string `json:"role"`    // recipient, spender or contract
	Address string `json:"address"` // EIP-55
	// Name is what the books call it (a token's symbol, a protocol
	// contract's role, "owner's address book"); "" when unknown.
	Name  string `json:"name,omitempty"`
	Known bool   `json:"known"`
}

// BalanceChange is one balance of the wallet the simulation changed.
type BalanceChange struct {
	Token   string `json:"token"` // EIP-55; the zero address is the native currency
	Symbol  string `json:"symbol,omitempty"`
	Delta   string `json:"delta"` // base units, signed
	Display string `json:"display"`
}

// maxSymbol bounds a symbol kept in a description: a token contract can
// answer anything.
const maxSymbol = 32

// describe makes the description of a call held by decision d with the
// plan (nil without one) and the trust view of its arguments.
func (t *Tools) describe(args *tool.Args, d *policy.Decision, plan *tool.Plan, tv policy.Trust) *Description {
	ds := &Description{Rule: d.Rule(), Reason: d.Code(), Taint: tv.Taint, Hijacked: tv.Hijacked}
	if ds.Taint == "" {
		ds.Taint = policy.TaintClean
	}
	for k, v := range tv.Provenance {
		if v != policy.ProvenanceTrusted {
			if ds.Provenance == nil {
				ds.Provenance = map[string]string{}
			}
			ds.Provenance[k] = v
		}
	}
	res, rep := t.set.Filter.Filter(&tool.Result{Data: args.Canonical()})
	ds.Args, ds.Redacted = res.Data, rep.Redacted
	if plan == nil {
		return ds
	}
	var ch *addrbook.Chain
	if t.cfg.Book != nil {
		ch, _ = t.cfg.Book.Chain(plan.Chain)
	}
	ds.Summary, ds.ChainID, ds.ValueCents = plan.Summary, plan.Chain, plan.ValueCents
	if plan.ValueCents < 0 {
		ds.Value = "unpriced"
		for _, u := range plan.Unpriced {
			name := tokenName(ch, u.Token)
			if name == "" {
				name = eip55(u.Token)
			}
			ds.Unpriced = append(ds.Unpriced, name+": "+u.Why)
		}
	} else {
		ds.Value = fmt.Sprintf("$%d.%02d", plan.ValueCents/100, plan.ValueCents%100)
	}
	for _, u := range plan.Tokens {
		dir := "in"
		if u.Out {
			dir = "out"
		}
		ds.Tokens = append(ds.Tokens, tokenAmount(ch, u.Token, u.Symbol, u.Decimals, u.Amount, dir))
	}
	for _, g := range plan.AllGrants() {
		ta := tokenAmount(ch, g.Token, "", -1, g.Amount, "allowance")
		ta.Spender = eip55(g.Spender)
		ds.Tokens = append(ds.Tokens, ta)
		ds.Parties = t.addParty(ds.Parties, ch, "spender", g.Spender)
	}
	for _, p := range plan.Payees {
		ds.Parties = t.addParty(ds.Parties, ch, "recipient", p)
	}
	for _, c := range plan.Contracts() {
		ds.Parties = t.addParty(ds.Parties, ch, "contract", c)
	}
	return ds
}

// withSimulation adds the simulation's balance changes to ds.
func (ds *Description) withSimulation(book *addrbook.Book, sim *hook.SimResult) {
	if sim == nil {
		return
	}
	if !sim.OK {
		ds.Simulation = fmt.Sprintf("transaction %d reverts in the simulation", sim.Reverted)
		if sim.RevertReason != "" {
			ds.Simulation += fmt.Sprintf(" with reason %q (from contract code: untrusted)", sim.RevertReason)
		}
	}
	var ch *addrbook.Chain
	if book != nil {
		ch, _ = book.Chain(ds.ChainID)
	}
	for _, d := range sim.Deltas {
		if d.Delta == nil || d.Delta.Sign() == 0 {
			continue
		}
		bc := BalanceChange{Token: eip55(d.Token), Delta: d.Delta.String()}
		dec := -1
		switch {
		case d.Token.IsZero():
			bc.Symbol, dec = "ETH", 18
			if ch != nil && ch.NativeSymbol != "" {
				bc.Symbol = ch.NativeSymbol
			}
		case ch != nil:
			if tk, ok := ch.Token(d.Token); ok {
				bc.Symbol, dec = tk.Symbol, int(tk.Decimals)
			}
		}
		bc.Display = units(d.Delta, dec)
		if bc.Symbol != "" {
			bc.Display += " " + bc.Symbol
		}
		ds.BalanceChanges = append(ds.BalanceChanges, bc)
	}
}

func tokenAmount(ch *addrbook.Chain, token tool.Address, claimed string, claimedDec int, amount *big.Int, dir string) TokenAmount {
	ta := TokenAmount{Token: eip55(token), Decimals: -1, Direction: dir}
	claimed = clipSymbol(claimed)
	if ch != nil {
		if tk, ok := ch.Token(token); ok {
			ta.Symbol, ta.Listed, ta.Decimals = clipSymbol(tk.Symbol), true, int(tk.Decimals)
			if claimed != "" && !strings.EqualFold(claimed, tk.Symbol) {
				ta.ClaimedSymbol, ta.SymbolMismatch = claimed, true
			}
		}
	}
	if !ta.Listed {
		ta.Symbol = claimed
		if claimed != "" {
			ta.SymbolMismatch = true // nothing vouches for it
			ta.ClaimedSymbol = claimed
		}
		if claimedDec >= 0 && claimedDec <= 77 {
			ta.Decimals = claimedDec
		}
	}
	if amount != nil {
		ta.Amount = amount.String()
		ta.Display = units(amount, ta.Decimals)
		if amount.Cmp(maxUint256) == 0 {
			ta.Display = "unlimited"
		}
	}
	return ta
}

var maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))

// units writes amount base units with dec decimals ("250.5"); with dec
// unknown (-1) it writes the base units and says so.
func units(amount *big.Int, dec int) string {
	if dec < 0 {
		return amount.String() + " base units"
	}
	if dec == 0 {
		return amount.String()
	}
	neg := amount.Sign() < 0
	s := new(big.Int).Abs(amount).String()
	if len(s) <= dec {
		s = strings.Repeat("0", dec-len(s)+1) + s
	}
	whole, frac := s[:len(s)-dec], strings.TrimRight(s[len(s)-dec:], "0")
	if frac != "" {
		whole += "." + frac
	}
	if neg {
		whole = "-" + whole
	}
	return whole
}

func (t *Tools) addParty(ps []Party, ch *addrbook.Chain, role string, a tool.Address) []Party {
	addr := eip55(a)
	for _, p := range ps {
		if p.Address == addr {
			return ps
		}
	}
	p := Party{Role: role, Address: addr}
	if name := tokenName(ch, a); name != "" {
		p.Name, p.Known = name, true
	} else if ch != nil && ch.RoleOf(a) != "" {
		p.Name, p.Known = ch.RoleOf(a), true
	}
	for _, v := range t.cfg.AddressBook {
		if strings.EqualFold(v, a.Hex()) {
			p.Known = true
			if p.Name == "" {
				p.Name = "owner's address book"
			}
		}
	}
	// The owner's own name for a counterparty wins over the shipped book's
	// role: it is what the owner knows it by.
	for name, v := range t.cfg.AddressNames {
		if strings.EqualFold(v, a.Hex()) {
			p.Name, p.Known = name, true
		}
	}
	return append(ps, p)
}

// tokenName is the book's symbol of a token address, or "".
func tokenName(ch *addrbook.Chain, a tool.Address) string {
	if ch != nil {
		if tk, ok := ch.Token(a); ok {
			return clipSymbol(tk.Symbol)
		}
	}
	return ""
}

func eip55(a tool.Address) string { return common.Address(a).Hex() }

func clipSymbol(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "?")
	}
	if utf8.RuneCountInString(s) > maxSymbol {
		s = string([]rune(s)[:maxSymbol]) + "…"
	}
	return s
}

// retryKey identifies a call for refusing its identical retry once the
// owner rejected it. It hashes the tool and the arguments in their
// canonical form (key order, whitespace, escapes and number spelling do
// not matter, as for the arguments' hash) with, beyond it, every 0x-hex
// string in lower case (an address's checksum case, calldata) and every
// number, or string that is a decimal number, as the exact rational it
// denotes ("250", 250, "250.0" and 2.5e2 are one amount). A retry spelled
// differently is the same call.
func retryKey(toolName string, args *tool.Args) string {
	dec := json.NewDecoder(bytes.NewReader(args.Canonical()))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return ""
	}
	b, err := json.Marshal(normalise(v))
	if err != nil {
		return ""
	}
	h := sha256.New()
	h.Write([]byte(toolName))
	h.Write([]byte{0})
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

func normalise(v any) any {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make(map[string]any, len(x))
		for _, k := range keys {
			out[k] = normalise(x[k])
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalise(e)
		}
		return out
	case json.Number:
		return numberKey(string(x))
	case string:
		if isHex(x) {
			return strings.ToLower(x)
		}
		if strings.HasPrefix(x, "#") {
			return "#" + x // never a number's key
		}
		return numberKey(x)
	}
	return v
}

// numberKey is "#" and the exact rational s denotes, or s when it is no
// decimal number.
func numberKey(s string) string {
	t := strings.TrimSpace(s)
	if !decimalNumber(t) {
		return s
	}
	r, ok := new(big.Rat).SetString(t)
	if !ok {
		return s
	}
	return "#" + r.RatString()
}

func isHex(s string) bool {
	if len(s) < 3 || (s[:2] != "0x" && s[:2] != "0X") {
		return false
	}
	for _, c := range s[2:] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// decimalNumber reports whether s is a decimal number of at most 100
// characters whose exponent, if any, has at most three digits (so that
// its exact value is cheap to compute).
func decimalNumber(s string) bool {
	if len(s) == 0 || len(s) > 100 {
		return false
	}
	i := 0
	if s[i] == '-' || s[i] == '+' {
		i++
	}
	digits := 0
	for ; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
		digits++
	}
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		exp := 0
		for ; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
			exp++
		}
		if exp == 0 || exp > 3 {
			return false
		}
	}
	return i == len(s)
}
