package tool

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// Address is a 20-byte account address (the same layout as go-ethereum's
// common.Address, so the two convert directly).
type Address [20]byte

// ParseAddress parses a 0x-prefixed (or 0X-prefixed) 40-digit hex
// address in either case; it is the one address parser. It does not check
// an EIP-55 checksum: see ClaimsChecksum.
func ParseAddress(s string) (Address, error) {
	var a Address
	if len(s) != 42 || (s[:2] != "0x" && s[:2] != "0X") {
		return a, fmt.Errorf("address %q: want 0x and 40 hex digits", truncate(s))
	}
	if _, err := hex.Decode(a[:], []byte(s[2:])); err != nil {
		return a, fmt.Errorf("address %q: not hex", truncate(s))
	}
	return a, nil
}

// ClaimsChecksum reports whether the address spelling s mixes upper- and
// lower-case hex letters after its two-byte prefix: only such a spelling
// claims an EIP-55 checksum, and it is valid when it equals go-ethereum's
// common.Address(a).Hex(). Spellings in one case carry no checksum. tool
// stays standard-library only, so the Keccak-256 lives in the callers'
// go-ethereum import (internal/hook, internal/policy/rules/format).
func ClaimsChecksum(s string) bool {
	lower, upper := false, false
	for i := 2; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'f':
			lower = true
		case 'A' <= c && c <= 'F':
			upper = true
		}
	}
	return lower && upper
}

// Hex returns the address as 0x and 40 lower-case hex digits.
func (a Address) Hex() string { return "0x" + hex.EncodeToString(a[:]) }

// String implements fmt.Stringer.
func (a Address) String() string { return a.Hex() }

// IsZero reports whether a is the zero address.
func (a Address) IsZero() bool { return a == Address{} }

// MarshalText implements encoding.TextMarshaler.
func (a Address) MarshalText() ([]byte, error) { return []byte(a.Hex()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (a *Address) UnmarshalText(b []byte) error {
	v, err := ParseAddress(string(b))
	if err != nil {
		return err
	}
	*a = v
	return nil
}

// Plan is what a previewed write would do: the transactions it would send
// and what the agent said about the tokens involved. Tools build it
// without side effects; the hook chain checks it; commit sends exactly its
// transactions.
type Plan struct {
	Chain uint64  `json:"chain_id"`
	From  Address `json:"from"`
	Txs   []Tx    `json:"txs"`
	// Tokens are the tokens the action moves, with the symbol and decimals
	// the agent claimed (checked against the chain by the hallucination
	// hook) and the amount in base units.
	Tokens []TokenUse `json:"tokens,omitempty"`
	// Grants are the allowances the action gives away (approvals and
	// signed permits): who may spend how much of which token. Approve
	// calls among Txs are granted too; tools that sign an allowance
	// off-chain list it here.
	Grants []Grant `json:"grants,omitempty"`
	// Def is the DefHash of the tool definition the plan was made for,
	// which the gate records at preview and checks at commit.
	Def string `json:"def,omitempty"`
	// Payees are the addresses outside the wallet the action sends value
	// to directly (a transfer's recipient), so that the policy can ask
	// where they came from. Venues a protocol action pays through are not
	// payees: the catalogue, not the agent, chose them.
	Payees []Address `json:"payees,omitempty"`
	// ValueCents is the USD value at stake, priced from on-chain feeds;
	// -1 when no feed prices it (the spending hook then refuses).
	ValueCents int64 `json:"value_cents"`
	// Unpriced are, for an unpriced plan, its tokens without a usable
	// price and why.
	Unpriced []Unpriced `json:"unpriced,omitempty"`
	// Summary says in one line what the action does.
	Summary string `json:"summary"`
}

// Unpriced is a token a plan could not value in USD.
type Unpriced struct {
	Token  Address `json:"token"`
	Symbol string  `json:"symbol,omitempty"` // the catalogue's symbol for it, if it lists the token
	Why    string  `json:"why"`              // what is missing, and what the operator can configure
}

// ErrInFlight marks a write refused before anything was signed because an
// earlier transaction of the same wallet is not yet known to be mined or
// dropped: sending a new plan could put a second effect on chain if the
// caller is retrying the first. Nothing of the refused write reached a
// chain. A handler's error matches it when that is why it stopped.
var ErrInFlight = errors.New("a transaction of the wallet is still in flight")

// Tx is one transaction of a plan.
type Tx struct {
	To    Address  `json:"to"`
	Data  HexBytes `json:"data"`
	Value *big.Int `json:"value,omitempty"`
	// Label names the step ("approve", "swap").
	Label string `json:"label"`
}

// Selector returns the first four bytes of the calldata (the function
// selector), and false for a plain transfer.
func (t Tx) Selector() ([4]byte, bool) {
	var s [4]byte
	if len(t.Data) < 4 {
		return s, false
	}
	copy(s[:], t.Data)
	return s, true
}

// TokenUse is one token an action moves.
type TokenUse struct {
	Token    Address  `json:"token"`
	Symbol   string   `json:"symbol,omitempty"`   // as the agent claimed it
	Decimals int      `json:"decimals,omitempty"` // as the agent claimed it; -1 unknown
	Amount   *big.Int `json:"amount"`             // base units
	// Out is true for tokens leaving the wallet, false for tokens the
	// action expects to receive.
	Out bool `json:"out"`
}

// Grant is one allowance an action gives.
type Grant struct {
	Token   Address  `json:"token"`
	Spender Address  `json:"spender"`
	Amount  *big.Int `json:"amount"`
	// Supply is the token's total supply as the planner read it (nil when
	// it did not): an allowance of at least the whole supply is unlimited
	// in effect, whatever its number.
	Supply *big.Int `json:"supply,omitempty"`
}

// grantSelectors are the ERC-20 functions that grant an allowance:
// approve(address,uint256) and increaseAllowance(address,uint256); the
// spender is the first argument.
var grantSelectors = [][4]byte{{0x09, 0x5e, 0xa7, 0xb3}, {0x39, 0x50, 0x93, 0x51}}

// AllGrants returns the plan's declared grants and those its approve and
// increaseAllowance calls make (decoded from their calldata, so a tool
// that forgets to declare one still shows it). A decoded grant equal to a
// declared one is listed once; one of a token whose supply a declared
// grant carries carries it too.
func (p *Plan) AllGrants() []Grant {
	out := append([]Grant(nil), p.Grants...)
	for _, tx := range p.Txs {
		sel, ok := tx.Selector()
		if !ok || len(tx.Data) < 4+64 {
			continue
		}
		for _, s := range grantSelectors {
			if sel != s {
				continue
			}
			g := Grant{Token: tx.To, Amount: new(big.Int).SetBytes(tx.Data[4+32 : 4+64])}
			copy(g.Spender[:], tx.Data[4+12:4+32])
			if !p.declared(&g) {
				out = append(out, g)
			}
		}
	}
	return out
}

// declared reports whether p declares g (same token, spender and amount),
// and gives g the supply a declared grant of its token carries.
func (p *Plan) declared(g *Grant) bool {
	for _, d := range p.Grants {
		if d.Token != g.Token {
			continue
		}
		if d.Supply != nil {
			g.Supply = d.Supply
		}
		if d.Spender == g.Spender && d.Amount != nil && d.Amount.Cmp(g.Amount) == 0 {
			return true
		}
	}
	return false
}

// Contracts returns the distinct addresses the plan's transactions call.
func (p *Plan) Contracts() []Address {
	var out []Address
	seen := map[Address]bool{}
	for _, t := range p.Txs {
		if !seen[t.To] {
			seen[t.To] = true
			out = append(out, t.To)
		}
	}
	return out
}

// HexBytes is a byte slice written as 0x-prefixed hex in JSON.
type HexBytes []byte

// MarshalText implements encoding.TextMarshaler.
func (h HexBytes) MarshalText() ([]byte, error) { return []byte("0x" + hex.EncodeToString(h)), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (h *HexBytes) UnmarshalText(b []byte) error {
	s := strings.TrimPrefix(strings.TrimPrefix(string(b), "0x"), "0X")
	v, err := hex.DecodeString(s)
	if err != nil {
		return fmt.Errorf("hex bytes: %w", err)
	}
	*h = v
	return nil
}

// DefHash is the SHA-256 (hex) of a tool definition's JSON: what a plan
// records as the definition it was made for, so that a permit is never
// committed against another definition of the same name.
func DefHash(d *Def) string {
	b, err := json.Marshal(d)
	if err != nil {
		return ""
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
