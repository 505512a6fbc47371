package validate

import (
	"regexp"
	"slices"
	"strings"

	"github.com/wardhq/ward/internal/addrbook"
)

// A token is often named by its full name rather than its symbol ("Tether
// USD", "Wrapped Ether", "Dai Stablecoin"), and a config or code snippet
// names it by a key ("usdc: 0x…", "WETH_ADDRESS = 0x…"). Both claim the
// token as surely as its symbol does, so the book checks them the same way:
// spellSymbols rewrites each into the symbol before identities are read.
//
// Only the book's own names are used, and only those that cannot be prose:
// names of two words or more (a one-word name, "Aave", "Uniswap", is also
// a protocol or chain), not starting with "the", of a token family the
// book is complete for (major: a USD feed or the wrapped native token),
// naming one family in the whole book. A key is a run of letters, digits
// and "_" right before ":" or "=" and an address; its "_"-separated parts
// that are a major symbol (and not a stop symbol) are written as the
// symbol, the others as words, so "aave_pool" reads "aave pool".

// tokenName is one full token name of the book, as lower-case words.
type tokenName struct {
	words  []string
	symbol string
}

// tokenNames returns the names spellSymbols may rewrite by their first
// word, longest first.
func tokenNames(book *addrbook.Book, major map[string]bool) map[string][]tokenName {
	fams := map[string]map[string]bool{}
	sym := map[string]string{}
	for _, c := range book.Chains {
		for _, t := range c.Tokens {
			n := strings.Join(strings.Fields(strings.ToLower(t.Name)), " ")
			if fams[n] == nil {
				fams[n] = map[string]bool{}
				sym[n] = t.Symbol
			}
			fams[n][family(t.Symbol)] = true
		}
	}
	var out []tokenName
	for n, fs := range fams {
		ws := strings.Fields(n)
		if len(ws) < 2 || ws[0] == "the" || len(fs) != 1 || !major[family(sym[n])] || !plainWords(ws) {
			continue
		}
		out = append(out, tokenName{words: ws, symbol: sym[n]})
	}
	slices.SortFunc(out, func(a, b tokenName) int {
		if d := len(b.words) - len(a.words); d != 0 {
			return d
		}
		return strings.Compare(strings.Join(a.words, " "), strings.Join(b.words, " "))
	})
	byFirst := map[string][]tokenName{}
	for _, n := range out {
		byFirst[n.words[0]] = append(byFirst[n.words[0]], n)
	}
	return byFirst
}

func plainWords(ws []string) bool {
	for _, w := range ws {
		for i := 0; i < len(w); i++ {
			if !isAlnum(w[i]) {
				return false
			}
		}
	}
	return true
}

// keyedAddress is a key, the separator and an address, perhaps cast to
// an interface: `usdc: "0x…`, `WETH_ADDRESS = "0x…`, `"router": "0x…`,
// `usdc = IERC20(0x…`.
var keyedAddress = regexp.MustCompile(`([A-Za-z][A-Za-z0-9_]*)(["']?[ \t]*[:=][ \t]*)([A-Za-z][A-Za-z0-9_]*\()?(["']?0[xX][0-9a-fA-F]{40})`)

// spellSymbols returns text with the book's full token names and the
// symbol parts of keys written as symbols. Offsets into the result differ
// from offsets into text.
func (v *BookVerifier) spellSymbols(text string) string {
	if !strings.Contains(text, "0x") && !strings.Contains(text, "0X") {
		return text
	}
	text = keyedAddress.ReplaceAllStringFunc(text, func(m string) string {
		sub := keyedAddress.FindStringSubmatch(m)
		cast := sub[3]
		if cast != "" {
			cast = "(" // the interface's name is no name of the address
		}
		return v.spellKey(sub[1]) + sub[2] + cast + sub[4]
	})
	return v.spellNames(text)
}

// spellKey writes the parts of key that are major symbols as the symbol.
func (v *BookVerifier) spellKey(key string) string {
	parts := strings.Split(key, "_")
	changed := len(parts) > 1
	for i, p := range parts {
		ts := v.symbols[strings.ToUpper(p)]
		if len(ts) == 0 || !v.major[family(ts[0].token.Symbol)] || stopSymbol(p) {
			continue
		}
		parts[i] = ts[0].token.Symbol
		changed = true
	}
	if !changed {
		return key
	}
	return strings.Join(parts, " ")
}

// spellNames replaces each whole-word occurrence of a token name, in any
// case and spacing, with its symbol.
func (v *BookVerifier) spellNames(text string) string {
	ws := split(text)
	var b strings.Builder
	last := 0
	for i := 0; i < len(ws); i++ {
		for _, n := range v.names[ws[i].lower] {
			if !nameAt(text, ws, i, n.words) {
				continue
			}
			b.WriteString(text[last:ws[i].start])
			b.WriteString(n.symbol)
			last = ws[i+len(n.words)-1].end
			i += len(n.words) - 1
			break
		}
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// nameAt reports whether the words of text from ws[i] on are name,
// separated by white space only.
func nameAt(text string, ws []word, i int, name []string) bool {
	if i+len(name) > len(ws) {
		return false
	}
	for k, n := range name {
		if ws[i+k].lower != n || k > 0 && strings.TrimSpace(text[ws[i+k-1].end:ws[i+k].start]) != "" {
			return false
		}
	}
	return true
}
