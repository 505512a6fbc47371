package hook

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/ethereum/go-ethereum/common"
	"github.com/mtibben/confusables"
	"golang.org/x/text/unicode/norm"

	"github.com/wardhq/ward/internal/addrbook"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// ChainReader reads the chain state the hallucination detector checks
// claims against (chain.Provider implements it). The zero token address
// is native ETH: its "code" is irrelevant, its metadata is the chain's
// native currency, and BalanceOf returns the account's ether balance.
type ChainReader interface {
	Code(ctx context.Context, chainID uint64, addr tool.Address) ([]byte, error)
	TokenMeta(ctx context.Context, chainID uint64, token tool.Address) (symbol string, decimals uint8, err error)
	BalanceOf(ctx context.Context, chainID uint64, token, owner tool.Address) (*big.Int, error)
}

// HallucinationConfig configures a Hallucination hook.
type HallucinationConfig struct {
	Reader ChainReader
	// Book is the address book claims are checked against first (the
	// shipped book with the operator's entries); nil checks none.
	Book *addrbook.Book
	// Timeout bounds all the chain reads of one check
	// (DefaultReadTimeout when zero).
	Timeout time.Duration
}

// DefaultReadTimeout bounds the chain reads of one hallucination check.
const DefaultReadTimeout = 5 * time.Second

// Hallucination checks what the agent claimed against the chain, in this
// order, stopping at the first mismatch:
//
//  1. every string in the arguments (values and keys, at any depth) that
//     is a 0x address written in mixed case has a valid EIP-55 checksum
//     (ADDRESS_CHECKSUM_MISMATCH); an address in a single case claims no
//     checksum and passes;
//  2. every transaction of the plan that carries calldata goes to an
//     address with code (CONTRACT_NOT_FOUND);
//  3. on a chain the address book knows, every token of the plan agrees
//     with the book (TOKEN_NOT_IN_ADDRESS_BOOK, TOKEN_SYMBOL_MISMATCH,
//     TOKEN_DECIMALS_MISMATCH, with the book's value in the message): a
//     book token has the symbol and decimals the agent stated; an address
//     the book lists as a contract or feed is no token; and a token the
//     book does not list may not carry, as stated by the agent or as read
//     on chain, the symbol of one it does (a look-alike of USDC is
//     refused however it is named);
//  4. every token whose symbol or decimals the agent stated (Symbol not
//     empty; Decimals >= 0) has that symbol, case-insensitively, and those
//     decimals on chain (TOKEN_SYMBOL_MISMATCH, TOKEN_DECIMALS_MISMATCH);
//  5. for every token the plan sends out, the sum of its outgoing amounts
//     is at most the balance of plan.From (AMOUNT_EXCEEDS_BALANCE).
//
// Reads pass; a preview without a plan gets check 1 only. A chain read that
// fails vetoes with HOOK_ERROR (the claim cannot be verified). Messages
// never quote the agent's or the token's symbol text. It is safe for
// concurrent use if its ChainReader is.
type Hallucination struct {
	reader  ChainReader
	book    *addrbook.Book
	timeout time.Duration

	mu    sync.Mutex
	likes map[*addrbook.Chain]map[string][]addrbook.Token // a chain's book tokens by symbol skeleton
}

var _ Hook = (*Hallucination)(nil)

// NewHallucination validates cfg and returns a Hallucination hook.
func NewHallucination(cfg HallucinationConfig) (*Hallucination, error) {
	switch {
	case cfg.Reader == nil:
		return nil, errors.New("hallucination: no chain reader")
	case cfg.Timeout < 0:
		return nil, errors.New("hallucination: negative timeout")
	}
	h := &Hallucination{reader: cfg.Reader, book: cfg.Book, timeout: cfg.Timeout}
	if h.timeout == 0 {
		h.timeout = DefaultReadTimeout
	}
	return h, nil
}

const hallName = "hallucination"

// Name returns "hallucination".
func (*Hallucination) Name() string { return hallName }

// Check implements Hook.
func (h *Hallucination) Check(ctx context.Context, c *Call) Verdict {
	if c == nil || c.Def == nil {
		return veto(hallName, reason.HookError, "the safety checks could not complete, so the action is refused", "call without a tool definition")
	}
	if isRead(c) {
		return Verdict{}
	}
	if c.Args != nil {
		for _, f := range c.Args.Fields() {
			if v := checkAddresses(c, f.Key, f.Key, f.Value); v.Veto {
				return v
			}
		}
	}
	p, v, ok := planOf(hallName, c)
	if !ok {
		return v
	}
	ctx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	if v := h.checkCode(ctx, c, p); v.Veto {
		return v
	}
	if book, ok := h.book.Chain(p.Chain); ok {
		for _, t := range p.Tokens {
			if v := h.checkBook(ctx, c, book, t); v.Veto {
				return v
			}
		}
	}
	if v := h.checkMeta(ctx, c, p); v.Veto {
		return v
	}
	return h.checkBalances(ctx, c, p)
}

// hallReadErr is the veto of a call whose check could not read the chain.
func hallReadErr(c *Call, what string, err error) Verdict {
	return veto(hallName, reason.HookError, "the chain could not be read to verify the action, so it is refused",
		fmt.Sprintf("%s: %s: %s", c.Def.Name, what, truncText(cleanText(err.Error()), 300)))
}

// checkCode vetoes a plan calling an address without contract code.
func (h *Hallucination) checkCode(ctx context.Context, c *Call, p *tool.Plan) Verdict {
	checked := map[tool.Address]bool{}
	for i, tx := range p.Txs {
		if len(tx.Data) == 0 || checked[tx.To] {
			continue
		}
		checked[tx.To] = true
		code, err := h.reader.Code(ctx, p.Chain, tx.To)
		if err != nil {
			return hallReadErr(c, fmt.Sprintf("code of %s", tx.To), err)
		}
		if len(code) == 0 {
			return veto(hallName, reason.ContractMissing,
				fmt.Sprintf("%s has no contract code on chain %d, but the action calls it", tx.To, p.Chain),
				fmt.Sprintf("%s: tx %d (%s)", c.Def.Name, i, tx.Label))
		}
	}
	return Verdict{}
}

// checkMeta vetoes a token whose stated symbol or decimals differ from the
// chain's.
func (h *Hallucination) checkMeta(ctx context.Context, c *Call, p *tool.Plan) Verdict {
	for _, t := range p.Tokens {
		if t.Symbol == "" && t.Decimals < 0 {
			continue
		}
		sym, dec, err := h.reader.TokenMeta(ctx, p.Chain, t.Token)
		if err != nil {
			return hallReadErr(c, fmt.Sprintf("metadata of %s", t.Token), err)
		}
		if t.Symbol != "" && !strings.EqualFold(strings.TrimSpace(t.Symbol), strings.TrimSpace(sym)) {
			return veto(hallName, reason.SymbolMismatch,
				fmt.Sprintf("the symbol stated for token %s is not the token's symbol on chain", t.Token),
				fmt.Sprintf("%s: claimed %q, chain %q", c.Def.Name, truncText(cleanText(t.Symbol), 40), truncText(cleanText(sym), 40)))
		}
		if t.Decimals >= 0 && t.Decimals != int(dec) {
			return veto(hallName, reason.DecimalsMismatch,
				fmt.Sprintf("token %s has %d decimals on chain, not %d", t.Token, dec, t.Decimals),
				fmt.Sprintf("%s: claimed %d, chain %d", c.Def.Name, t.Decimals, dec))
		}
	}
	return Verdict{}
}

// checkBalances vetoes a plan that sends more of a token than the wallet
// holds.
func (h *Hallucination) checkBalances(ctx context.Context, c *Call, p *tool.Plan) Verdict {
	_, out := outflows(p)
	for _, t := range p.Tokens {
		need := out[t.Token]
		if need == nil || need.Sign() == 0 {
			continue
		}
		delete(out, t.Token) // each token once
		bal, err := h.reader.BalanceOf(ctx, p.Chain, t.Token, p.From)
		if err != nil {
			return hallReadErr(c, fmt.Sprintf("balance of %s", t.Token), err)
		}
		if bal == nil || need.Cmp(bal) > 0 {
			have := "unknown"
			if bal != nil {
				have = bal.String()
			}
			return veto(hallName, reason.InsufficientBalance,
				fmt.Sprintf("the action sends %s of token %s (base units) but the wallet holds %s", need, t.Token, have),
				fmt.Sprintf("%s: need %s, balance %s of %s at %s", c.Def.Name, need, have, t.Token, p.From))
		}
	}
	return Verdict{}
}

// checkBook checks one token of a plan against the chain's address book.
// The book's own symbols and roles are quoted (they are ward's data); the
// agent's and the chain's symbol text never is.
func (h *Hallucination) checkBook(ctx context.Context, c *Call, book *addrbook.Chain, t tool.TokenUse) Verdict {
	if t.Token.IsZero() { // native currency
		return Verdict{}
	}
	if bt, ok := book.Token(t.Token); ok {
		if t.Symbol != "" && !strings.EqualFold(strings.TrimSpace(t.Symbol), bt.Symbol) {
			return veto(hallName, reason.SymbolMismatch,
				fmt.Sprintf("the address book lists token %s on chain %d as %s, not the symbol stated", t.Token, book.ID, bt.Symbol),
				fmt.Sprintf("%s: claimed %q, book %s", c.Def.Name, truncText(cleanText(t.Symbol), 40), bt.Symbol))
		}
		if t.Decimals >= 0 && t.Decimals != int(bt.Decimals) {
			return veto(hallName, reason.DecimalsMismatch,
				fmt.Sprintf("the address book lists %s (%s) with %d decimals, not %d", bt.Symbol, t.Token, bt.Decimals, t.Decimals),
				fmt.Sprintf("%s: claimed %d, book %d", c.Def.Name, t.Decimals, bt.Decimals))
		}
		return Verdict{}
	}
	if role := book.RoleOf(t.Token); role != "" {
		return veto(hallName, reason.NotBookToken,
			fmt.Sprintf("the address book lists %s on chain %d as %s, not as a token", t.Token, book.ID, role),
			fmt.Sprintf("%s: token %s", c.Def.Name, t.Token))
	}
	lookalike := func(sym, where string) Verdict {
		same := h.like(book, sym)
		if len(same) == 0 {
			return Verdict{}
		}
		listed := make([]string, len(same))
		for i, bt := range same {
			listed[i] = bt.Address.Hex()
		}
		return veto(hallName, reason.NotBookToken,
			fmt.Sprintf("token %s %s the symbol the address book gives %s on chain %d (or one that reads the same), but the book lists %s at %s: it is not that token",
				t.Token, where, same[0].Symbol, book.ID, same[0].Symbol, strings.Join(listed, ", ")),
			fmt.Sprintf("%s: token %s is not in the book", c.Def.Name, t.Token))
	}
	if t.Symbol != "" {
		if v := lookalike(t.Symbol, "was stated with"); v.Veto {
			return v
		}
	}
	ctx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	sym, _, err := h.reader.TokenMeta(ctx, book.ID, t.Token)
	if err != nil {
		// A token whose symbol cannot be read claims none; the checks
		// that follow decide whether it may be used.
		return Verdict{}
	}
	return lookalike(sym, "carries on chain")
}

// like returns the book's tokens whose symbol looks like sym: the same
// after compatibility normalisation (fullwidth letters), without invisible
// characters, marks or spaces, in one case, and with each character
// replaced by its Unicode confusable prototype (UTS #39 skeleton: Cyrillic
// С for C, Greek Ε for E, 1 for l). A token the book does not list but
// whose symbol looks like a book token's is a look-alike.
func (h *Hallucination) like(book *addrbook.Chain, sym string) []addrbook.Token {
	h.mu.Lock()
	idx, ok := h.likes[book]
	if !ok {
		idx = make(map[string][]addrbook.Token, len(book.Tokens))
		for _, t := range book.Tokens {
			k := symbolSkeleton(t.Symbol)
			idx[k] = append(idx[k], t)
		}
		if h.likes == nil {
			h.likes = make(map[*addrbook.Chain]map[string][]addrbook.Token)
		}
		h.likes[book] = idx
	}
	h.mu.Unlock()
	k := symbolSkeleton(sym)
	if k == "" {
		return nil
	}
	return idx[k]
}

// symbolSkeleton is what a token symbol looks like to a reader.
func symbolSkeleton(sym string) string {
	s := norm.NFKC.String(sym)
	s = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || unicode.In(r, unicode.Cf, unicode.Mn, unicode.Me, unicode.Variation_Selector) {
			return -1
		}
		return r
	}, s)
	return confusables.Skeleton(strings.ToUpper(s))
}

// checkAddresses vetoes the first mixed-case address with a bad checksum
// in v (and, for objects, in their keys).
func checkAddresses(c *Call, top, path string, v tool.Value) Verdict {
	bad := func(addr, path string) Verdict {
		return veto(hallName, reason.AddressChecksum,
			fmt.Sprintf("the address %s in argument %s fails its EIP-55 checksum: check where it came from", addr, shownPath(path)),
			fmt.Sprintf("%s: %s", c.Def.Name, shownPath(path)))
	}
	if top != "" && !validChecksum(top) {
		return bad(top, path)
	}
	switch v.Kind() {
	case tool.String:
		if s, _ := v.Str(); !validChecksum(s) {
			return bad(s, path)
		}
	case tool.Array:
		for i, e := range v.Elems() {
			if r := checkAddresses(c, "", path+"["+strconv.Itoa(i)+"]", e); r.Veto {
				return r
			}
		}
	case tool.Object:
		for _, f := range v.Fields() {
			if r := checkAddresses(c, f.Key, path+"."+f.Key, f.Value); r.Veto {
				return r
			}
		}
	}
	return Verdict{}
}

// validChecksum reports whether s, when it is a 0x address written in mixed
// case, is spelled exactly as EIP-55 says (go-ethereum's Address.Hex).
// Anything else claims no checksum and is valid.
// It runs on every string argument, so the cheap tests come first.
func validChecksum(s string) bool {
	if len(s) != 42 || s[:2] != "0x" || !tool.ClaimsChecksum(s) {
		return true
	}
	a, err := tool.ParseAddress(s)
	return err != nil || common.Address(a).Hex() == s
}

// shownPath makes an argument path (keys the agent chose) safe to show.
func shownPath(p string) string { return strconv.Quote(truncText(cleanText(p), 80)) }
