package validate

import (
	"encoding/hex"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/wardhq/ward/internal/addrbook"
)

// Identity is what a text says an address is: a token (Symbol), a
// protocol contract (Roles), or a token's USD price feed (Feed with
// Symbol). The extractor binds by proximity: the address and the name are
// in one clause (or one table row) with nothing between them but words
// that do not change what is named ("the", "address", "on Base", ":",
// "(" ...). An address with nothing bound to it is still extracted (a
// look-alike needs no name).
type Identity struct {
	Address Address
	// Written is the address as the text spells it.
	Written string
	// Symbol is the token symbol bound to the address, as written; ""
	// when none. With Feed it is the asset the feed prices.
	Symbol string
	Feed   bool
	// Roles are the address book roles the name bound to the address may
	// mean ("Uniswap V3 router": SwapRouter02 or the original
	// SwapRouter); Specific says the name means one contract whose
	// address the book is complete for (Permit2, Multicall3,
	// SwapRouter02 ...), so an address it does not know contradicts it.
	Roles    []string
	Specific bool
	// SpecificOnChain says the name means one contract on each chain
	// (Morpho Blue, the Balancer vault), at addresses that differ between
	// chains: an address the book does not know contradicts it only on a
	// chain the text names.
	SpecificOnChain bool
	// Variant is which issue of a token the text names: "native USDC"
	// (Circle's own) or "bridged USDC"; VariantAny when it says neither.
	Variant Variant
	// Migrated: the text says the name moved to the address ("migrated
	// Permit2 to a new deployment at 0x…", "the new token at 0x…") and
	// says elsewhere that an old one is replaced. It claims the book's
	// current address for the name is outdated.
	Migrated bool
	// ChainID is the chain the clause (or else the entry, when it names
	// one chain only) names; 0 when none. A chain outside the book makes
	// the claim unverifiable.
	ChainID uint64
	// Warned: the text warns against the address ("do not use", "scam
	// contract", "fake USDC at"): it is not a positive claim of identity.
	Warned bool
	// Clause is the lower-cased clause the address is in, for the
	// check's guard that the clause names the book's own identity of the
	// address.
	Clause     string
	Start, End int
}

// Variant is which issue of a token a text names.
type Variant uint8

const (
	VariantAny     Variant = iota
	VariantNative          // issued on the chain by the token's issuer
	VariantBridged         // a bridge's wrapped copy of the token
)

// MaxIdentities bounds how many addresses ExtractIdentities returns.
const MaxIdentities = 64

// ExtractIdentities returns the addresses of text with what the text says
// they are, in order, at most MaxIdentities. It is deterministic, never
// fails, and does not consult any address book.
func ExtractIdentities(text string) []Identity {
	if !strings.Contains(text, "0x") && !strings.Contains(text, "0X") {
		return nil
	}
	var out []Identity
	entryChain := onlyChain(text)
	replaced := replacementCue(text)
	var prior []word // names of earlier clauses, for a migration's "the new token at 0x…"
	for _, cl := range clauses(text) {
		ws := cl.words
		for i, w := range ws {
			if w.kind != wordAddress {
				continue
			}
			id := Identity{Written: w.text, Clause: cl.lower}
			id.Start, id.End = cl.off+w.start, cl.off+w.end
			if cl.row != [2]int{} {
				k := strings.Index(text[cl.row[0]:cl.row[1]], w.text)
				id.Start, id.End = cl.row[0]+k, cl.row[0]+k+len(w.text)
			}
			if _, err := hex.Decode(id.Address[:], []byte(strings.ToLower(w.text[2:]))); err != nil {
				continue
			}
			id.ChainID = nearestChain(ws, i)
			if id.ChainID == 0 {
				id.ChainID = cl.chain
			}
			if id.ChainID == 0 {
				id.ChainID = entryChain
			}
			bind(&id, ws, i)
			if len(id.Roles) > 0 && !id.Specific && id.ChainID != 0 && uniqueClaim(ws, i) {
				// "The official Aave V3 Pool on Ethereum is 0x…": of the
				// contracts the name may mean there, the text says the
				// address is the one, which the book lists.
				id.SpecificOnChain = true
			}
			if replaced && id.Symbol == "" && len(id.Roles) == 0 {
				migrate(&id, ws, i, prior)
			}
			id.Warned = warned(ws, i)
			out = append(out, id)
			if len(out) == MaxIdentities {
				return out
			}
		}
		prior = append(prior, names(ws, len(ws))...)
	}
	return out
}

// replacementWords say that something was replaced: a claim that a name
// has a new address needs one of them somewhere in the entry, so that "a
// new vault at 0x…" alone claims nothing about an old one.
var replacementWords = wordSet("migrate migrated migrates migrating migration moved replace replaced replaces replacing " +
	"replacement successor supersede superseded supersedes deprecated deprecate old older previous legacy frozen freeze " +
	"upgrade upgraded rotated redeployed sunset sunsetted retired " +
	// German, French, Spanish, Italian, Portuguese
	"migration migriert ersetzt alte alten veraltet migrée migré remplacé remplacée ancienne ancien " +
	"migrado migrada migración reemplazado reemplazada antigua antiguo vecchio vecchia sostituito substituído")

// newWords, between a name and an address, say the address is the
// name's new home: "migrated Permit2 to a new deployment at 0x…".
var newWords = wordSet("new newly migrated migrating migrate moved moving replaced replacement successor upgraded " +
	"redeployed deployed activated launched rotated mirrored relaunched " +
	"neue neuen neuer neues nouvelle nouveau nouvel nueva nuevo nuova nuovo nova novo")

func replacementCue(text string) bool {
	for _, w := range split(text) {
		if replacementWords[w.lower] {
			return true
		}
	}
	return false
}

// names returns the symbols not acted upon and the role phrases that
// name a book role among ws[:end], in order.
func names(ws []word, end int) []word {
	var out []word
	for j := 0; j < end; j++ {
		w := ws[j]
		switch {
		case w.kind == wordSymbol && !acted(ws, j):
			out = append(out, w)
		case w.kind == wordRole && w.last && len(w.roles) > 0:
			out = append(out, w)
		}
	}
	return out
}

// migrate binds the address at ws[i], which its clause names nothing
// or only generically ("pool", "deployment", "wrapper"), to the name it
// is the new home of: a clause that calls it new ("to a new deployment
// at", "activated a new Pool proxy at") moves the last name before it
// in the clause ("Aave ... Pool" read as the Aave pool), or else the last
// of the entry's earlier clauses ("USDC contract upgrade; ... the new
// token at 0x…").
func migrate(id *Identity, ws []word, i int, prior []word) {
	start, cue := 0, false
	for j := i - 1; j >= 0; j-- {
		if ws[j].kind == wordAddress {
			start = j + 1
			break
		}
		if newWords[ws[j].lower] {
			cue = true
		}
	}
	if !cue {
		return
	}
	// "Aave governance activated a new V3.2 Pool proxy at": a generic
	// noun right before the address completes a role phrase whose other
	// words come earlier in the clause.
	if g := genericBefore(ws, i, start); g >= 0 {
		if p, ok := spreadRole(ws, start, g); ok {
			id.Roles, id.Specific, id.Migrated = p.roles, true, true
			return
		}
	}
	cands := names(ws[start:i], i-start)
	if len(cands) == 0 {
		cands = prior
	}
	if len(cands) == 0 {
		return
	}
	n := cands[len(cands)-1]
	if n.kind == wordSymbol {
		id.Symbol = n.text
	} else {
		// The text says the book's contract moved: whichever market the
		// name may mean, the book lists its current address.
		id.Roles, id.Specific = n.roles, true
	}
	id.Migrated = true
}

// genericBefore returns the index of the generic contract noun ("pool",
// "vault") that the address at ws[i] is bound to past fillers, or -1.
func genericBefore(ws []word, i, start int) int {
	for j := i - 1; j >= start; j-- {
		switch w := ws[j]; {
		case w.kind == wordFiller:
			continue
		case w.kind == wordRole && w.last && len(w.roles) == 0:
			return j
		default:
			return -1
		}
	}
	return -1
}

// spreadRole finds the longest role phrase ending in the generic noun
// ws[g] whose other words occur, in order, in ws[start:g].
func spreadRole(ws []word, start, g int) (rolePhrase, bool) {
	for _, p := range rolePhrases() {
		n := len(p.words)
		if n < 2 || len(p.roles) == 0 || p.words[n-1] != ws[g].lower {
			continue
		}
		k := n - 2
		for j := g - 1; j >= start && k >= 0; j-- {
			if ws[j].lower == p.words[k] {
				k--
			}
		}
		if k < 0 {
			return p, true
		}
	}
	return rolePhrase{}, false
}

// wordKind is what a word of a clause is.
type wordKind uint8

const (
	wordPlain   wordKind = iota
	wordAddress          // 0x and 40 hex digits
	wordSymbol           // written like a token symbol: two or more capitals ("USDC", "wstETH", "USDC.e")
	wordFiller           // changes nothing about what is named ("the", "address", "on")
	wordChain            // part of a chain's name
	wordRole             // part of a protocol contract's name
	wordFeed             // part of a price feed's name
	wordWarn             // a warning against what follows or precedes
	wordBreak            // a separator between claims: a table cell's "|", "and", "or", ","
)

type word struct {
	text, lower string
	start, end  int
	kind        wordKind
	chain       uint64   // wordChain
	roles       []string // wordRole: set on the phrase's last word
	specific    bool
	onChain     bool   // specific on a named chain
	home        uint64 // the chain the role's contracts live on, whatever chain the clause names
	feedOf      string // wordFeed: the symbol of "ETH/USD feed"
	last        bool   // the last word of a role or feed phrase
}

type clause struct {
	text, lower string
	off         int
	words       []word
	chain       uint64 // a chain named in a table's header, for its rows
	// row is the source span of a table row, whose text is rewritten
	// (cells prefixed with their headers): offsets in it are not the
	// source's.
	row [2]int
}

// span returns the source span of [i, j) of the clause: itself, or the
// whole row for a table row.
func (c clause) span(i, j int) (int, int) {
	if c.row != [2]int{} {
		return c.row[0], c.row[1]
	}
	return c.off + i, c.off + j
}

// clauses splits text into sentences (and markdown table rows), each
// with its words classified. A table row's cells are prefixed with their
// column's header, so that "| 6 |" under "Decimals" reads "Decimals 6".
func clauses(text string) []clause {
	var out []clause
	var header []string
	var headerChain uint64
	for start := 0; start < len(text); {
		end, next := sentenceEnd(text, start)
		s := start
		start = next
		if end <= s {
			continue
		}
		line := text[s:end]
		trim := strings.TrimSpace(line)
		if strings.HasPrefix(trim, "|") || strings.Count(trim, "|") >= 2 {
			cells := tableCells(trim)
			if isSeparatorRow(cells) {
				continue
			}
			if header == nil {
				header = cells
				headerChain = firstChain(classify(strings.Join(cells, " | ")))
				continue
			}
			// A row: each cell is labelled by its column's header, so
			// that "| 6 |" under "Decimals" reads "decimals 6".
			var b strings.Builder
			for i, c := range cells {
				if i > 0 {
					b.WriteString(" | ")
				}
				if i < len(header) && !strings.Contains(c, "0x") {
					b.WriteString(header[i])
					b.WriteByte(' ')
				}
				b.WriteString(c)
			}
			cl := newClause(b.String(), s)
			cl.chain, cl.row = headerChain, [2]int{s, end}
			for i := range cl.words {
				if cl.words[i].text == "|" {
					// Cells of one row name one thing: bind across them.
					cl.words[i].kind = wordFiller
				}
			}
			out = append(out, cl)
			continue
		}
		header, headerChain = nil, 0
		out = append(out, newClause(line, s))
	}
	return out
}

func tableCells(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	row = strings.TrimSuffix(row, "|")
	cells := strings.Split(row, "|")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells
}

func isSeparatorRow(cells []string) bool {
	for _, c := range cells {
		if strings.Trim(c, ":- ") != "" {
			return false
		}
	}
	return len(cells) > 0
}

func newClause(text string, off int) clause {
	return clause{text: text, lower: asciiLower(text), off: off, words: classify(text)}
}

// asciiLower lower-cases the ASCII letters of s only, so that offsets in
// it are offsets in s (strings.ToLower may change a text's length).
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// classify splits text into words and says what each is: addresses,
// chain names, protocol contract names and price feeds (longest phrase
// first), warnings, fillers and symbol-like words.
func classify(text string) []word {
	ws := split(text)
	for i := range ws {
		w := &ws[i]
		switch {
		case len(w.text) == 42 && (strings.HasPrefix(w.text, "0x") || strings.HasPrefix(w.text, "0X")) && allHex(w.text[2:]):
			w.kind = wordAddress
		case w.text == "|" || w.text == "," || breakWords[w.lower]:
			w.kind = wordBreak
		}
	}
	markChains(ws)
	markPhrases(ws)
	for i := range ws {
		w := &ws[i]
		if w.kind != wordPlain {
			continue
		}
		switch {
		case warnWords[w.lower] || strings.HasSuffix(w.lower, "n't"):
			w.kind = wordWarn
		case fillerWords[w.lower] || w.text == ":" || w.text == "=" || w.text == "(" || w.text == ")" || w.text == "-" || w.text == "→" || w.text == "->":
			w.kind = wordFiller
		case symbolLike(w.text) && !acronyms[w.text]:
			w.kind = wordSymbol
		}
	}
	return ws
}

// split returns the words of text: runs of letters, digits and "_" (with
// inner ".", "/" and "-" kept: "USDC.e", "ETH/USD", "0.05"), and the
// punctuation that matters to binding as words of its own.
func split(text string) []word {
	var ws []word
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case wordByte(c):
			j := i + 1
			for j < len(text) {
				if wordByte(text[j]) {
					j++
					continue
				}
				if (text[j] == '.' || text[j] == '/' || text[j] == '-' || text[j] == '\'') && j+1 < len(text) && wordByte(text[j+1]) &&
					!strings.HasPrefix(text[j+1:], "0x") && !symbolCompound(text[i:j], text[j:]) {
					j++
					continue
				}
				break
			}
			t := text[i:j]
			if k := len(t) - 2; k > 0 && (t[k:] == "'s" || t[k:] == "'S") {
				t = t[:k] // "Arbitrum's USDC": the chain's
			}
			ws = append(ws, word{text: t, lower: asciiLower(t), start: i, end: i + len(t)})
			i = j
		case strings.IndexByte("|,:=()", c) >= 0:
			ws = append(ws, word{text: text[i : i+1], lower: text[i : i+1], start: i, end: i + 1})
			i++
		case c == '-' && i+1 < len(text) && text[i+1] == '>':
			ws = append(ws, word{text: "->", lower: "->", start: i, end: i + 2})
			i += 2
		case strings.HasPrefix(text[i:], "→"):
			ws = append(ws, word{text: "→", lower: "→", start: i, end: i + len("→")})
			i += len("→")
		default:
			i++
		}
	}
	return ws
}

// symbolCompound reports whether a hyphen at rest[0] joins a symbol to a
// capitalised noun, a compound of German and other languages
// ("GHO-Adresse", "USDC-Vertrag"): the symbol is a word of its own.
// "USDC-denominated" stays one word.
func symbolCompound(left, rest string) bool {
	return len(rest) > 2 && rest[0] == '-' && rest[1] >= 'A' && rest[1] <= 'Z' && rest[2] >= 'a' && rest[2] <= 'z' && symbolLike(left)
}

func allHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !hexByte(s[i]) {
			return false
		}
	}
	return true
}

// symbolLike reports whether w is written like a token symbol: 2 to 12
// letters, digits and ".", at least two of them capitals, not a number.
func symbolLike(w string) bool {
	if len(w) < 2 || len(w) > 12 || w[0] >= '0' && w[0] <= '9' {
		return false
	}
	caps := 0
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c >= 'A' && c <= 'Z':
			caps++
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '.':
		default:
			return false
		}
	}
	return caps >= 2
}

// acronyms are written like symbols but name no token.
var acronyms = wordSet("LTV LLTV APR APY TVL LP LPs AMM AMMs DEX DEXs CEX MEV NFT EOA RPC ERC ERC20 ERC-20 USD EUR API ABI DAO L1 L2 " +
	"EVM TX ID UI UX ETF CLMM CL V2 V3 V4 MAX MIN BPS IL PNL PnL ROI KYC AML TWAP VWAP FAQ TLDR NOTE WARNING IMPORTANT " +
	"ALWAYS ONLY MUST NEVER NOT DO DONT OK TL DR HF CR LT RF UTC GMT EIP EIP-55 EIP-712 ENS CCIP")

// fillerWords stand between a name and its address without changing what
// is named: "USDC's official contract address on Base is 0x…".
var fillerWords = wordSet("at is are was the a an its it's address addresses addr contract contracts token tokens " +
	"on in of official canonical native real correct verified current currently deployed deployment lives located " +
	"found here use using erc20 erc-20 proxy now has been moved migrated s called named listed singleton " +
	"chain network id chainid")

// breakWords end a binding: what comes before them names something else.
var breakWords = wordSet("and or but whereas while versus vs than for from with against into")

// warnWords say the address next to them is not to be trusted.
var warnWords = wordSet("not never no avoid scam scams scammer scammers fake fakes phishing malicious impostor imposter spoof spoofed " +
	"spoofing counterfeit beware poison poisoned poisoning drainer exploit exploiter exploited attacker hacker " +
	"hacked honeypot lookalike look-alike imitation imitates mimic mimics bogus fraud fraudulent rug rugged " +
	"blacklisted blocklisted compromised deprecated wrong incorrect unofficial unverified suspicious dont don't")

// strongWarn words warn about the address they follow too ("0x… is a
// scam"); "not" after an address is too weak ("0x…, not the old one").
var strongWarn = wordSet("scam scams scammer scammers fake phishing mimic mimics mimicking impersonates impersonating " +
	"impersonator posing masquerading malicious impostor imposter spoof spoofed counterfeit poison " +
	"poisoned drainer exploiter attacker hacker honeypot lookalike look-alike imitation bogus fraud fraudulent " +
	"blacklisted blocklisted compromised unofficial suspicious")

// cancelWarn words between a warning and the address turn it back into a
// positive claim: "never send to anything but 0x…", "avoid X; instead use 0x…".
var cancelWarn = wordSet("but except instead only correct official real genuine canonical legit legitimate right")

func wordSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// warned reports whether the address at ws[i] is warned against: a
// warning word before it (back to the previous address, or a comma
// before an instruction to use it) with no cancelling word between, or a strong warning word after
// it before the next address.
func warned(ws []word, i int) bool {
	use := false
	for j := i - 1; j >= 0; j-- {
		w := ws[j]
		if w.kind == wordAddress || cancelWarn[w.lower] || use && (w.text == "," || w.text == ":") {
			break
		}
		if w.kind == wordWarn {
			return true
		}
		use = use || useVerbs[w.lower]
	}
	for j := i + 1; j < len(ws); j++ {
		w := ws[j]
		if w.kind == wordAddress || cancelWarn[w.lower] {
			break
		}
		if strongWarn[w.lower] {
			return true
		}
	}
	return false
}

// uniqueWords say a name means its one authoritative contract: "the
// official pool", "the canonical bridge", "the real router".
var uniqueWords = wordSet("official canonical genuine authentic real " +
	"offizielle offizieller offiziellen offizielles officiel officielle oficial ufficiale")

// uniqueClaim reports whether the clause calls the name bound to the
// address at ws[i] its official or canonical one, not after a denial
// ("not the official router").
func uniqueClaim(ws []word, i int) bool {
	for j := i - 1; j >= 0 && ws[j].kind != wordAddress; j-- {
		if uniqueWords[ws[j].lower] {
			return j == 0 || !negationOnly[ws[j-1].lower] && ws[j-1].lower != "un"
		}
	}
	return false
}

// bind sets what the clause says the address at ws[i] is: the nearest
// name before it, past fillers and chain names only, or else the name
// right after it ("0x… (USDC)", "0x… is the USDC contract").
func bind(id *Identity, ws []word, i int) {
	if bindAt(id, ws, i, -1) {
		return
	}
	bindAt(id, ws, i, +1)
}

func bindAt(id *Identity, ws []word, i, dir int) bool {
	for j, n := i+dir, 0; j >= 0 && j < len(ws) && n < 6; j += dir {
		w := ws[j]
		switch w.kind {
		case wordFiller:
			if wordByte(w.text[0]) {
				n++
			}
			continue
		case wordChain:
			continue
		case wordSymbol:
			if dir < 0 && acted(ws, j) && variant(ws, j) != VariantBridged {
				// "swap 100 USDC at 0x…": the address is where the
				// token is traded, not the token. "bridged USDC" is
				// the token's issue, not an action.
				return true
			}
			id.Symbol, id.Variant = w.text, variant(ws, j)
			return true
		case wordRole, wordFeed:
			// Looking left the phrase's last word comes first, looking
			// right its first: find the word that carries the phrase.
			k := j
			for k >= 0 && k < len(ws) && ws[k].kind == w.kind && !ws[k].last {
				k++
			}
			if k >= len(ws) || ws[k].kind != w.kind {
				return true
			}
			p := ws[k]
			if p.kind == wordRole {
				id.Roles, id.Specific, id.SpecificOnChain = p.roles, p.specific, p.onChain
				if p.home != 0 {
					id.ChainID = p.home
				}
			} else {
				id.Symbol, id.Feed = p.feedOf, true
			}
			return true
		}
		return false
	}
	return false
}

// nativeWords and bridgedWords before a symbol say which issue of the
// token is meant: "native Circle USDC", "the bridged USDC".
var (
	nativeWords  = wordSet("native circle cctp")
	bridgedWords = wordSet("bridged")
)

// variant returns which issue of the token the symbol at ws[j] names,
// from the words right before it.
func variant(ws []word, j int) Variant {
	for k := j - 1; k >= 0 && k >= j-3; k-- {
		switch w := ws[k].lower; {
		case nativeWords[w]:
			return VariantNative
		case bridgedWords[w]:
			return VariantBridged
		case ws[k].kind == wordBreak || ws[k].kind == wordAddress:
			return VariantAny
		}
	}
	return VariantAny
}

// useVerbs tell the reader to use what follows: after a comma they start
// a new instruction, which a warning before the comma does not reach
// ("for collateral that must not rebase, use wstETH at 0x…").
var useVerbs = wordSet("use call send approve submit deposit route point supply swap query read")

// actionVerbs act on a token: the address after "swap USDC at" or
// "send USDC to" is a venue or a recipient, not USDC.
var actionVerbs = wordSet("swap swaps swapping swapped sell sells selling sold buy buys buying bought trade trades trading " +
	"traded send sends sending sent transfer transfers transferring transferred deposit deposits depositing deposited " +
	"withdraw withdraws withdrawing withdrew bridge bridges bridging bridged approve approves approving approved stake " +
	"stakes staking staked lend lends lending lent borrow borrows borrowing borrowed supply supplies supplying supplied " +
	"provide provides providing provided route routes routing routed pay pays paying paid move moves moving moved " +
	"wrap wraps wrapping wrapped unwrap unwraps unwrapping unwrapped convert converts converting converted")

// acted reports whether the symbol at ws[j] is the object of an action
// verb, past an amount ("swap 100 USDC", "send $5k of USDC").
func acted(ws []word, j int) bool {
	for k, n := j-1, 0; k >= 0 && n < 3; k, n = k-1, n+1 {
		w := ws[k]
		switch {
		case actionVerbs[w.lower]:
			return true
		case w.lower == "of" || w.lower == "all" || w.lower == "your" || w.lower == "the" || w.lower == "some" ||
			w.text[0] >= '0' && w.text[0] <= '9' || w.text[0] == '$':
			continue
		}
		return false
	}
	return false
}

// rolePhrase is a name of a protocol contract and the book roles it may
// mean. specific: the name means one contract whose every deployment the
// book lists for the chains it covers.
type rolePhrase struct {
	words    []string
	roles    []string
	specific bool
	onChain  bool   // specific on a named chain: see Identity.SpecificOnChain
	home     uint64 // see word.home
}

// rolePhrases is made on first use: it reads the shipped address book
// (Curve's pool names).
var rolePhrases = sync.OnceValue(func() []rolePhrase {
	var out []rolePhrase
	add := func(specific bool, roles []string, phrases ...string) {
		for _, p := range phrases {
			out = append(out, rolePhrase{words: strings.Fields(p), roles: roles, specific: specific})
		}
	}
	r := func(roles ...string) []string { return roles }
	add(true, r(addrbook.UniswapV3SwapRouter02), "swaprouter02", "swaprouter 02", "swap router 02", "swap router02",
		"uniswap v3 swaprouter02", "uniswap swaprouter02", "uniswap v3 swap router 02")
	add(false, r(addrbook.UniswapV3SwapRouter02, addrbook.UniswapV3SwapRouter), "uniswap v3 router", "uniswap v3 swap router",
		"v3 router", "v3 swap router", "uniswap v3 swaprouter", "swaprouter", "uniswap router v3")
	add(true, r(addrbook.UniswapV2Router02), "uniswap v2 router", "uniswap v2 router02", "uniswapv2router02", "uniswap v2 router 02",
		"v2 router02", "uniswap v2 router02 contract")
	add(true, r(addrbook.UniswapV2Factory), "uniswap v2 factory", "uniswapv2factory")
	add(true, r(addrbook.UniswapV3Factory), "uniswap v3 factory", "uniswapv3factory", "v3 factory")
	add(true, r(addrbook.UniswapV3QuoterV2), "quoterv2", "quoter v2", "uniswap v3 quoterv2", "uniswap v3 quoter v2")
	add(false, r(addrbook.UniswapV3QuoterV1, addrbook.UniswapV3QuoterV2), "uniswap v3 quoter", "v3 quoter", "quoter")
	add(true, r(addrbook.UniswapV3PositionManager), "nonfungiblepositionmanager", "nonfungible position manager",
		"uniswap v3 position manager", "v3 position manager", "uniswap v3 nft position manager", "uniswap v3 npm")
	add(true, r(addrbook.UniswapV4PoolManager), "poolmanager", "v4 poolmanager", "uniswap v4 poolmanager",
		"uniswap v4 pool manager", "v4 pool manager")
	add(true, r(addrbook.Permit2), "permit2", "permit 2", "uniswap permit2")
	add(true, r(addrbook.Multicall3), "multicall3", "multicall 3")
	// Aave has several V3 markets on one chain (Core, Prime, EtherFi):
	// the book lists the Core market's, so another address is no proof.
	add(false, r(addrbook.AaveV3Pool), "aave v3 pool", "aave v3 lending pool", "aave pool v3", "aave pool")
	add(false, r(addrbook.AaveV3DataProvider), "aave v3 pool data provider", "pooldataprovider", "aaveprotocoldataprovider",
		"aave protocol data provider", "aave v3 data provider", "protocol data provider", "pool data provider", "aave data provider")
	add(false, r(addrbook.AaveV3Oracle), "aaveoracle", "aave oracle", "aave v3 oracle", "aave price oracle")
	add(false, r(addrbook.AaveV3PoolAddressesProvider), "aave v3 pool addresses provider", "pooladdressesprovider",
		"pool addresses provider", "aave v3 addresses provider", "aave addresses provider")
	out = append(out, moreRolePhrases()...)
	// Pools and pairs name an address the book does not list: binding
	// stops there ("the USDC/WETH pool at 0x…" is no claim about USDC).
	add(false, nil, "pool", "pair", "vault", "market", "implementation", "router", "factory", "bridge", "gateway",
		"wallet", "account", "multisig", "treasury", "eoa", "holder", "deployer", "owner", "admin", "spender", "recipient")
	// Longest phrase first.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && len(out[j].words) > len(out[j-1].words); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
})

// feedWords end a price feed's name: "ETH/USD feed", "Chainlink WETH price feed".
var feedWords = wordSet("feed feeds oracle aggregator")

// markPhrases marks the role and feed phrases of ws.
func markPhrases(ws []word) {
	for i := 0; i < len(ws); i++ {
		if ws[i].kind != wordPlain && ws[i].kind != wordChain {
			continue
		}
		if n := feedAt(ws, i); n > 0 {
			sym := strings.Split(ws[i].text, "/")[0]
			if strings.EqualFold(ws[i].text, "chainlink") {
				sym = strings.Split(ws[i+1].text, "/")[0]
			}
			for k := i; k < i+n; k++ {
				ws[k].kind = wordFeed
			}
			ws[i+n-1].last, ws[i+n-1].feedOf = true, sym
			i += n - 1
			continue
		}
		for _, p := range rolePhrases() {
			if i+len(p.words) > len(ws) {
				continue
			}
			ok := true
			for k, pw := range p.words {
				if ws[i+k].lower != pw {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			for k := range p.words {
				ws[i+k].kind = wordRole
			}
			last := &ws[i+len(p.words)-1]
			last.last, last.roles, last.specific, last.onChain, last.home = true, p.roles, p.specific, p.onChain, p.home
			i += len(p.words) - 1
			break
		}
	}
}

// feedAt returns the length of a price feed phrase at ws[i] ("ETH/USD
// feed", "ETH / USD price feed" is not split here; "WETH price feed",
// "Chainlink ETH/USD", "Chainlink LINK feed"), or 0.
func feedAt(ws []word, i int) int {
	w := ws[i]
	chainlink := w.lower == "chainlink"
	if chainlink {
		if i+1 >= len(ws) {
			return 0
		}
		i++
		w = ws[i]
	}
	base, quote, pair := strings.Cut(w.text, "/")
	if pair && !strings.EqualFold(quote, "usd") {
		return 0
	}
	if !symbolLike(base) && !(pair && len(base) >= 2) {
		return 0
	}
	n := 1
	if chainlink {
		n = 2
	}
	j := i + 1
	if j < len(ws) && (ws[j].lower == "usd" || ws[j].lower == "price") {
		j++
		n++
	}
	if j < len(ws) && ws[j].lower == "price" {
		j++
		n++
	}
	if j < len(ws) && feedWords[ws[j].lower] {
		return n + 1
	}
	if chainlink && pair {
		return n
	}
	return 0
}

// Chains: the names a text gives a chain, the book's and others (a claim
// about a chain outside the book is unverifiable, not false). Names that
// are also English words ("Base", "Blast", "Scroll", "Mode") count only
// capitalised.
var chainPhrases = func() []struct {
	words []string
	id    uint64
	word  bool // an English word too: capitalised only
} {
	type cp = struct {
		words []string
		id    uint64
		word  bool
	}
	var out []cp
	for _, e := range []struct {
		names string
		id    uint64
		word  bool
	}{
		{"ethereum mainnet|ethereum|eth mainnet|mainnet|l1|homestead", 1, false},
		{"base mainnet|base", 8453, true},
		{"arbitrum one|arbitrum|arb1", 42161, false},
		{"arbitrum nova", 42170, false},
		{"op mainnet|optimism mainnet|optimism", 10, false},
		{"polygon pos|polygon mainnet|polygon|matic network", 137, false},
		{"polygon zkevm", 1101, false},
		{"bnb chain|bnb smart chain|bsc|binance smart chain", 56, false},
		{"avalanche c-chain|avalanche|avax c-chain", 43114, false},
		{"gnosis chain|gnosis|xdai", 100, false},
		{"fantom", 250, false},
		{"zksync era|zksync", 324, false},
		{"linea", 59144, false},
		{"scroll", 534352, true},
		{"blast", 81457, true},
		{"mantle", 5000, true},
		{"celo", 42220, false},
		{"unichain", 130, false},
		{"sonic", 146, true},
		{"berachain", 80094, false},
		{"mode network|mode", 34443, true},
		{"zora", 7777777, false},
		{"metis", 1088, false},
		{"sepolia", 11155111, false},
		{"holesky", 17000, false},
		{"goerli", 5, false},
		{"base sepolia", 84532, false},
		{"arbitrum sepolia", 421614, false},
		{"op sepolia|optimism sepolia", 11155420, false},
		{"testnet", ^uint64(0), false},
	} {
		for _, n := range strings.Split(e.names, "|") {
			out = append(out, cp{words: strings.Fields(n), id: e.id, word: e.word})
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && len(out[j].words) > len(out[j-1].words); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}()

// notChainAfter are words after "Base" that make it English: "base fee".
var notChainAfter = wordSet("fee fees rate rates asset assets token tokens currency layer case price pair unit units amount " +
	"model apy apr url path point points level line value quote cost reward load salary camp 64 58 10 of")

var reChainID = regexp.MustCompile(`^(?:chain[-_ ]?id|chainid)$`)

// markChains marks the chain names of ws, and "chain id N".
func markChains(ws []word) {
	for i := 0; i < len(ws); i++ {
		if ws[i].kind != wordPlain {
			continue
		}
		if reChainID.MatchString(ws[i].lower) || ws[i].lower == "chain" && i+1 < len(ws) && ws[i+1].lower == "id" {
			j := i + 1
			if ws[i].lower == "chain" {
				j++
			}
			for j < len(ws) && (ws[j].text == ":" || ws[j].text == "=") {
				j++
			}
			if j < len(ws) {
				if n, err := strconv.ParseUint(ws[j].text, 10, 64); err == nil && n > 0 {
					for k := i; k <= j; k++ {
						ws[k].kind, ws[k].chain = wordChain, n
					}
					i = j
				}
			}
			continue
		}
		if id, ok := explorerChain(ws[i].lower); ok {
			ws[i].kind, ws[i].chain = wordChain, id
			continue
		}
		for _, p := range chainPhrases {
			n := len(p.words)
			if i+n > len(ws) {
				continue
			}
			ok := true
			for k, pw := range p.words {
				if ws[i+k].lower != pw || ws[i+k].kind != wordPlain {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			if p.word && n == 1 {
				c := ws[i].text[0]
				if c < 'A' || c > 'Z' || i+1 < len(ws) && notChainAfter[ws[i+1].lower] {
					continue
				}
			}
			for k := i; k < i+n; k++ {
				ws[k].kind, ws[k].chain = wordChain, p.id
			}
			i += n - 1
			break
		}
	}
}

// nearestChain returns the chain named nearest to ws[i] in its clause,
// the one before it on a tie; 0 when none.
func nearestChain(ws []word, i int) uint64 {
	best, dist := uint64(0), len(ws)+1
	for j, w := range ws {
		if w.kind != wordChain {
			continue
		}
		d := j - i
		if d < 0 {
			d = -d - 1 // before wins a tie
		}
		if d < dist {
			best, dist = w.chain, d
		}
	}
	return best
}

func firstChain(ws []word) uint64 {
	for _, w := range ws {
		if w.kind == wordChain {
			return w.chain
		}
	}
	return 0
}

// onlyChain returns the chain text names when it names exactly one, else 0.
func onlyChain(text string) uint64 {
	var id uint64
	for _, w := range classify(text) {
		if w.kind != wordChain {
			continue
		}
		if id != 0 && id != w.chain {
			return 0
		}
		id = w.chain
	}
	return id
}

// explorers are the block explorers whose links name their chain.
var explorers = []struct {
	host string
	id   uint64
}{{"optimistic.etherscan", 10}, {"sepolia.etherscan", 11155111}, {"etherscan.io", 1}, {"basescan", 8453},
	{"arbiscan", 42161}, {"polygonscan", 137}, {"bscscan", 56}, {"snowtrace", 43114}, {"gnosisscan", 100}}

func explorerChain(w string) (uint64, bool) {
	for _, e := range explorers {
		if strings.Contains(w, e.host) {
			return e.id, true
		}
	}
	return 0, false
}
