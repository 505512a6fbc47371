package validate

import (
	"bytes"
	"encoding/hex"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/wardhq/ward/internal/knowledge"
)

// VerifiableKind is the chain state a Verifiable claim states.
type VerifiableKind uint8

// Kinds of verifiable claim. The zero value names none.
const (
	KindNone         VerifiableKind = iota
	KindEthBalance                  // an account's native balance
	KindTokenBalance                // an account's balance of an ERC-20 token
	KindTotalSupply                 // an ERC-20 token's total supply
	KindFeedAnswer                  // a Chainlink-style feed's latest answer
	KindReserves                    // a pool's reserves of its two tokens (also stated as TVL or liquidity in tokens)
	KindLiquidity                   // a Uniswap V3 pool's active liquidity, in raw units
	KindPoolPrice                   // a pool's spot price: a V3 pool's slot0, a V2 pair's reserve ratio
)

var kindNames = [...]string{KindNone: "none", KindEthBalance: "eth_balance", KindTokenBalance: "token_balance",
	KindTotalSupply: "total_supply", KindFeedAnswer: "feed_answer", KindReserves: "reserves",
	KindLiquidity: "pool_liquidity", KindPoolPrice: "pool_price"}

// String returns the kind's stable name.
func (k VerifiableKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText encodes the kind as its name.
func (k VerifiableKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Address is a 20-byte account or contract address.
type Address [20]byte

// String returns the address as "0x" and 40 lower-case hex digits.
func (a Address) String() string { return "0x" + hex.EncodeToString(a[:]) }

// Units an Amount may carry besides a token symbol.
const (
	UnitETH  = "eth"  // ether: 1e18 wei
	UnitGwei = "gwei" // 1e9 wei
	UnitWei  = "wei"  // base units of ether, or of a token ("raw", "base units")
	UnitUSD  = "usd"  // "$", "USD", "dollars"
)

// Amount is a claimed number as written, multipliers applied ("1.2k" is
// 1200, "$3.4M" 3,400,000 USD). Unit is UnitETH, UnitGwei, UnitWei, UnitUSD,
// a token symbol as written ("USDC"), or "" when none is stated. Value is
// exact and never negative; it must not be modified.
type Amount struct {
	Value *big.Rat
	Unit  string
}

// Raw reports whether the amount is in base units (wei) rather than whole
// tokens.
func (a Amount) Raw() bool { return a.Unit == UnitWei }

// String formats the amount for a reason: up to 6 significant decimals.
func (a Amount) String() string {
	s := FormatRat(a.Value)
	if a.Unit != "" {
		s += " " + a.Unit
	}
	return s
}

// FormatRat formats r with up to 6 decimals, trailing zeros dropped.
func FormatRat(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	s := r.FloatString(6)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// Verifiable is one claim about chain state that names the contracts or
// accounts to read: ExtractVerifiable finds them in text.
type Verifiable struct {
	Kind VerifiableKind
	// Target is the address read: the account of KindEthBalance, the token
	// of KindTokenBalance and KindTotalSupply, the feed, pair or pool.
	Target Address
	// Holder is the account of KindTokenBalance.
	Holder Address
	// Values holds the claimed value; KindReserves holds one or two
	// amounts in the order stated.
	Values []Amount
	// Block is the block the claim is stated at, when AtBlock; otherwise
	// the claim speaks of the present.
	Block   uint64
	AtBlock bool
	// ChainID is the chain the claim names ("on Base", "chain id 10"),
	// 0 when it names none.
	ChainID uint64
	// Start and End are the byte span of the sentence stating the claim,
	// in the entry's Content or, when FromClaim, in the structured claim's
	// text (subject, relation, object and conditions joined by spaces).
	Start, End int
	FromClaim  bool
}

// MaxVerifiable bounds how many claims ExtractVerifiable returns for one
// text (the entry's content is at most knowledge.MaxContent bytes).
const MaxVerifiable = 64

// The expressions run on the ASCII-lower-cased sentence.
var (
	reVBlock   = regexp.MustCompile(`^(?:block|blk)(?:\s+(?:number|height|no\.?|num))?\s*(?:#|:|=|no\.)?\s*(0x[0-9a-f]{1,16}|\d{1,3}(?:,\d{3})+|\d[\d_]*)\b`)
	reVChain   = regexp.MustCompile(`\bchain\s*id\s*[:#=]?\s*(\d{1,12})\b|\b(?:on|in)\s+(?:the\s+)?(ethereum(?:\s+mainnet)?|mainnet|arbitrum(?:\s+one)?|optimism|op\s+mainnet|polygon|sepolia|holesky|bsc|bnb\s+chain|gnosis|avalanche|base\s+sepolia|base\s+mainnet|base)\b`)
	reVDate    = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}(?:[t ]\d{2}:\d{2}(?::\d{2})?(?:z|[+-]\d{2}:?\d{2})?)?\b|\b\d{1,2}:\d{2}(?::\d{2})?\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?\b|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?:,?\s+\d{4})?\b|\b(?:in|since|during)\s+(?:19|20)\d{2}\b`)
	reVNumber  = regexp.MustCompile(`^(\$\s?)?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:_\d{3})*(?:\.\d+)?(?:e[+-]?\d{1,2})?|\.\d+)(?:\s*(thousand|million|billion|trillion|mm|bn|k|m|b|t)\b)?(?:\s*([a-z][a-z0-9]{0,9}(?:\s+units)?)\b)?`)
	digitsOnly = strings.NewReplacer(",", "", "_", "")
)

// Keyword groups: what a sentence speaks of.
const (
	kwFeed = iota
	kwPrice
	kwSupply
	kwReserves
	kwBalance
	kwPool
	kwGroups
)

// kindWords maps the words (and two-word phrases) that name what a
// sentence speaks of to their group.
var kindWords = func() map[string]int {
	m := map[string]int{}
	for g, list := range [kwGroups]string{
		kwFeed:     "price feed|feed|feeds|oracle|aggregator|chainlink|latestrounddata|latest answer|answer|answered|answers",
		kwPrice:    "slot0|sqrtpricex96|sqrt price|spot price|price",
		kwSupply:   "total supply|totalsupply|supply|minted|outstanding",
		kwReserves: "reserve|reserves|getreserves|tvl|total value|liquidity|depth",
		kwBalance:  "balance|balances|balanceof|hold|holds|held|holding|own|owns|owned|has|had|contain|contains|custody",
		kwPool:     "pair|pool|amm|lp|uniswap|v2|v3",
	} {
		for _, w := range strings.Split(list, "|") {
			m[w] = g
		}
	}
	return m
}()

// chainNames maps chain names a claim may state to chain IDs.
var chainNames = map[string]uint64{"ethereum": 1, "ethereum mainnet": 1, "mainnet": 1, "arbitrum": 42161, "arbitrum one": 42161,
	"optimism": 10, "op mainnet": 10, "polygon": 137, "sepolia": 11155111, "holesky": 17000, "bsc": 56, "bnb chain": 56,
	"gnosis": 100, "avalanche": 43114, "base": 8453, "base mainnet": 8453, "base sepolia": 84532}

// Role cues: the words before (or right after) an address that say what
// it is.
var (
	cueBefore = map[string]role{"feed": roleFeed, "oracle": roleFeed, "aggregator": roleFeed, "proxy": roleFeed,
		"pair": rolePool, "pool": rolePool, "amm": rolePool, "lp": rolePool,
		"token": roleToken, "tokens": roleToken, "erc-20": roleToken, "erc20": roleToken,
		"account": roleHolder, "address": roleHolder, "wallet": roleHolder, "holder": roleHolder, "eoa": roleHolder,
		"owner": roleHolder, "user": roleHolder, "treasury": roleHolder, "multisig": roleHolder, "safe": roleHolder, "whale": roleHolder}
	cueAfter = map[string]role{"feed": roleFeed, "oracle": roleFeed, "aggregator": roleFeed,
		"pair": rolePool, "pool": rolePool, "token": roleToken, "tokens": roleToken,
		"holds": roleHolder, "held": roleHolder, "has": roleHolder, "had": roleHolder, "owns": roleHolder, "owned": roleHolder,
		"account": roleHolder, "wallet": roleHolder, "'s": roleHolder}
	// skipWords may stand between a cue and its address.
	skipWords = map[string]bool{"at": true, "the": true, "a": true, "an": true, "is": true, "contract": true, "address": true, "of": true, "in": true, "for": true, "v2": true, "v3": true}
)

type role uint8

const (
	roleNone role = iota
	roleFeed
	rolePool
	roleToken
	roleHolder
)

// ExtractVerifiable returns the verifiable claims stated in text, in order,
// at most MaxVerifiable. A claim is verifiable only when it names the
// contract or account to read by address ("0x" and 40 hex digits) and a
// value; text that does not say which address is which yields nothing
// rather than a guess. It is deterministic and never fails.
func ExtractVerifiable(text string) []Verifiable {
	var out []Verifiable
	if !strings.Contains(text, "0x") {
		return nil
	}
	for start := 0; start < len(text); {
		end, next := sentenceEnd(text, start)
		s := start
		start = next
		if end <= s || !strings.Contains(text[s:end], "0x") {
			continue
		}
		out = appendSentence(out, text, s, end)
		if len(out) >= MaxVerifiable {
			return out[:MaxVerifiable]
		}
	}
	return out
}

// sentenceEnd returns where the sentence starting at i ends and where the
// next one starts: at a run of ".", "!", "?" or ";" followed by white space
// or the end of text, or at a newline (reSentence, without a regexp).
func sentenceEnd(text string, i int) (end, next int) {
	for ; i < len(text); i++ {
		switch c := text[i]; c {
		case '\n':
			j := i
			for j < len(text) && text[j] == '\n' {
				j++
			}
			return i, j
		case '.', '!', '?', ';':
			j := i
			for j < len(text) && strings.IndexByte(".!?;", text[j]) >= 0 {
				j++
			}
			k := j
			for k < len(text) && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r' || text[k] == '\n' || text[k] == '\f' || text[k] == '\v') {
				k++
			}
			if k > j || j == len(text) {
				return i, k
			}
			i = j - 1
		}
	}
	return len(text), len(text)
}

// EntryVerifiable returns the verifiable claims of e's content and of its
// structured claim, if any, without duplicates.
func EntryVerifiable(e *knowledge.Entry) []Verifiable {
	if e == nil {
		return nil
	}
	out := ExtractVerifiable(e.Content)
	if c := e.Claim; c != nil {
		parts := append([]string{c.Subject, c.Relation, c.Object}, c.Conditions...)
		for _, v := range ExtractVerifiable(strings.Join(parts, " ")) {
			v.FromClaim = true
			if !containsClaim(out, v) && len(out) < MaxVerifiable {
				out = append(out, v)
			}
		}
	}
	return out
}

func containsClaim(vs []Verifiable, v Verifiable) bool {
	for _, w := range vs {
		if w.Kind == v.Kind && w.Target == v.Target && w.Holder == v.Holder && w.Block == v.Block && w.AtBlock == v.AtBlock &&
			w.ChainID == v.ChainID && sameAmounts(w.Values, v.Values) {
			return true
		}
	}
	return false
}

func sameAmounts(a, b []Amount) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Unit != b[i].Unit || a[i].Value.Cmp(b[i].Value) != 0 {
			return false
		}
	}
	return true
}

// sentence is one sentence (or clause) under extraction, with everything
// that is not a claimed value (addresses, the block, the chain, dates)
// blanked out of masked at the same offsets.
type sentence struct {
	text, masked string
	off          int // offset of text in the source
	addrs        []addrAt
	block        uint64
	atBlock      bool
	badBlock     bool
	chain        uint64
}

type addrAt struct {
	a          Address
	start, end int
	role       role
}

func appendSentence(out []Verifiable, src string, start, end int) []Verifiable {
	s, ok := newSentence(src[start:end], start)
	if !ok {
		return out
	}
	if v, ok := s.claim(); ok {
		return append(out, v)
	}
	// Several claims in one sentence, or one among other numbers: try each
	// clause, which inherits the sentence's block and chain unless it
	// states its own.
	text := s.text
	splits := clauseBreaks(text)
	if len(splits) == 0 {
		return out
	}
	cs := 0
	for _, m := range append(splits, [2]int{len(text), len(text)}) {
		ce := m[0]
		if ce > cs {
			if c, ok := newSentence(text[cs:ce], s.off+cs); ok {
				if !c.atBlock && !c.badBlock {
					c.block, c.atBlock = s.block, s.atBlock
				}
				if c.chain == 0 {
					c.chain = s.chain
				}
				if v, ok := c.claim(); ok && !containsClaim(out, v) {
					out = append(out, v)
				}
			}
		}
		cs = m[1]
	}
	return out
}

// clauseBreaks returns the spans that separate the clauses of a sentence:
// ", ", ";" and the words "and", "while", "whereas", "but".
func clauseBreaks(text string) [][2]int {
	var out [][2]int
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == ';' || c == ',' && i+1 < len(text) && isSpace(text[i+1]):
			j := i + 1
			for j < len(text) && isSpace(text[j]) {
				j++
			}
			out = append(out, [2]int{i, j})
			i = j - 1
		case isSpace(c):
			j := i + 1
			for j < len(text) && isAlpha(text[j]) {
				j++
			}
			if j < len(text) && isSpace(text[j]) {
				switch strings.ToLower(text[i+1 : j]) {
				case "and", "while", "whereas", "but":
					out = append(out, [2]int{i, j + 1})
					i = j
				}
			}
		}
	}
	return out
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func newSentence(text string, off int) (sentence, bool) {
	s := sentence{text: text, off: off}
	ms := findAddresses(text)
	if len(ms) == 0 {
		return s, false
	}
	mask := []byte(text)
	for i, c := range mask {
		if c >= 'A' && c <= 'Z' {
			mask[i] = c + 'a' - 'A'
		}
	}
	blank := func(i, j int) {
		for k := i; k < j; k++ {
			mask[k] = ' '
		}
	}
	for _, m := range ms {
		var a Address
		if _, err := hex.Decode(a[:], mask[m[0]+2:m[1]]); err != nil {
			continue
		}
		s.addrs = append(s.addrs, addrAt{a: a, start: m[0], end: m[1]})
		blank(m[0], m[1])
	}
	if m := findBlock(mask); m != nil {
		n, err := parseBlock(string(mask[m[2]:m[3]]))
		s.block, s.atBlock, s.badBlock = n, err == nil, err != nil
		blank(m[0], m[1])
	}
	if m := findIf(reVChain, mask, chainWords...); m != nil {
		name := ""
		if m[4] >= 0 {
			name = strings.Join(strings.Fields(string(mask[m[4]:m[5]])), " ")
		}
		switch {
		case m[2] >= 0:
			s.chain, _ = strconv.ParseUint(string(mask[m[2]:m[3]]), 10, 64)
			blank(m[0], m[1])
		case name == "base" && text[m[4]:m[5]] != "Base":
			// "in base units": a chain only when capitalised.
		default:
			s.chain = chainNames[name]
			blank(m[0], m[1])
		}
	}
	if bytes.IndexAny(mask, ":-") >= 0 || bytes.Contains(mask, []byte(" 20")) || bytes.Contains(mask, []byte(" 19")) {
		for _, m := range reVDate.FindAllIndex(mask, -1) {
			blank(m[0], m[1])
		}
	}
	s.masked = string(mask)
	for i := range s.addrs {
		s.addrs[i].role = s.roleOf(s.addrs[i])
	}
	return s, true
}

// findAddresses returns the spans of the addresses in text: "0x" and 40
// hex digits, not part of a longer word.
func findAddresses(text string) [][2]int {
	var out [][2]int
	for i := 0; i+42 <= len(text); {
		j := strings.Index(text[i:], "0x")
		if j < 0 || i+j+42 > len(text) {
			break
		}
		s := i + j
		e := s + 2
		for e < len(text) && e-s < 43 && hexByte(text[e]) {
			e++
		}
		if e-s == 42 && (s == 0 || !wordByte(text[s-1])) && (e == len(text) || !wordByte(text[e])) {
			out = append(out, [2]int{s, e})
		}
		i = max(e, s+2)
	}
	return out
}

func hexByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// chainWords are the words reVChain needs to match.
var chainWords = []string{"chain", "ethereum", "mainnet", "arbitrum", "optimism", "polygon", "sepolia", "holesky", "bsc", "bnb", "gnosis", "avalanche", "base"}

// findBlock returns the submatch indexes of reVBlock's first match in b.
func findBlock(b []byte) []int {
	for i := 0; i < len(b); i++ {
		j := bytes.Index(b[i:], []byte("bl"))
		if j < 0 {
			return nil
		}
		i += j
		if i > 0 && wordByte(b[i-1]) {
			continue
		}
		if m := reVBlock.FindSubmatchIndex(b[i:min(len(b), i+64)]); m != nil {
			for k := range m {
				if m[k] >= 0 {
					m[k] += i
				}
			}
			return m
		}
	}
	return nil
}

// findIf runs re over b only when b holds one of the words it needs.
func findIf(re *regexp.Regexp, b []byte, words ...string) []int {
	for _, w := range words {
		if bytes.Contains(b, []byte(w)) {
			return re.FindSubmatchIndex(b)
		}
	}
	return nil
}

// parseBlock parses a block number: decimal with "," or "_" separators, or
// "0x" hex.
func parseBlock(b string) (uint64, error) {
	if h, ok := strings.CutPrefix(b, "0x"); ok {
		return strconv.ParseUint(h, 16, 64)
	}
	return strconv.ParseUint(digitsOnly.Replace(b), 10, 64)
}

// roleOf reads the cue words around an address: up to three words before
// it (skipping articles and "at", "contract"…) and the word after it.
func (s *sentence) roleOf(a addrAt) role {
	words := strings.Fields(strings.ToLower(s.text[max(0, a.start-80):a.start]))
	for i, n := len(words)-1, 0; i >= 0 && n < 3; i, n = i-1, n+1 {
		w := strings.Trim(words[i], "():,\"'`*=")
		if r, ok := cueBefore[w]; ok {
			if r == roleHolder && w == "address" && i > 0 && cueBefore[strings.Trim(words[i-1], "():,\"'`*=")] != roleNone {
				continue // "token address 0x…": the earlier cue decides
			}
			return r
		}
		if w == "balance" && i+1 < len(words) && strings.Trim(words[i+1], "():,") == "of" {
			return roleHolder // "balance of 0x…"
		}
		if !skipWords[w] && w != "" {
			break
		}
	}
	rest := strings.ToLower(s.text[a.end:min(len(s.text), a.end+80)])
	if strings.HasPrefix(rest, "'s") || strings.HasPrefix(rest, "’s") {
		return roleHolder
	}
	after := strings.Fields(rest)
	for i := 0; i < len(after) && i < 2; i++ {
		w := strings.Trim(after[i], "():,.\"'`*")
		if r, ok := cueAfter[w]; ok {
			return r
		}
		if w != "contract" && w != "v2" && w != "v3" && w != "uniswap" {
			break
		}
	}
	return roleNone
}

// distinct returns the number of distinct addresses in s.
func (s *sentence) distinct() int {
	n := 0
	for i, a := range s.addrs {
		seen := false
		for _, b := range s.addrs[:i] {
			seen = seen || a.a == b.a
		}
		if !seen {
			n++
		}
	}
	return n
}

// only returns the sentence's address when it names exactly one.
func (s *sentence) only() (Address, bool) {
	if s.distinct() != 1 {
		return Address{}, false
	}
	return s.addrs[0].a, true
}

// withRole returns the one address s gives role r.
func (s *sentence) withRole(r role) (Address, bool) {
	var found []Address
	for _, a := range s.addrs {
		if a.role == r && (len(found) == 0 || found[0] != a.a) {
			found = append(found, a.a)
		}
	}
	if len(found) != 1 {
		return Address{}, false
	}
	return found[0], true
}

// target returns the address of role r, or the only address when none has
// a role.
func (s *sentence) target(r role) (Address, bool) {
	if a, ok := s.withRole(r); ok {
		return a, true
	}
	if a, ok := s.only(); ok && (s.addrs[0].role == roleNone || s.addrs[0].role == r) {
		return a, true
	}
	return Address{}, false
}

// keywords records which keyword groups a sentence uses, and whether it
// says "liquidity".
type keywords struct {
	has       [kwGroups]bool
	liquidity bool
}

func (s *sentence) keywords() keywords {
	var k keywords
	m := s.masked
	prev := ""
	for i := 0; i < len(m); {
		for i < len(m) && !wordByte(m[i]) {
			i++
		}
		j := i
		for j < len(m) && wordByte(m[j]) {
			j++
		}
		if j == i {
			break
		}
		w := m[i:j]
		if g, ok := kindWords[prev+" "+w]; ok && prev != "" {
			k.has[g] = true
		}
		if g, ok := kindWords[w]; ok {
			k.has[g] = true
		}
		k.liquidity = k.liquidity || w == "liquidity"
		prev, i = w, j
	}
	return k
}

func wordByte(c byte) bool { return isAlnum(c) || c == '_' }

// claim reads the one claim a sentence or clause states. It names exactly
// the addresses its kind reads (two for a token balance, else one) and
// exactly its value (one, or one or two pool amounts): a sentence with more
// is ambiguous and states nothing here.
func (s *sentence) claim() (Verifiable, bool) {
	if s.badBlock {
		return Verifiable{}, false
	}
	v := Verifiable{Block: s.block, AtBlock: s.atBlock, ChainID: s.chain, Start: s.off, End: s.off + len(s.text)}
	k := s.keywords()
	feed, price, supply, reserves, balance, pool := k.has[kwFeed], k.has[kwPrice], k.has[kwSupply], k.has[kwReserves], k.has[kwBalance], k.has[kwPool]
	amounts := s.amounts()
	if len(amounts) == 0 || len(amounts) > 2 {
		return v, false
	}
	single := len(amounts) == 1
	v.Values = amounts
	var ok bool
	u := v.Values[0].Unit
	switch {
	case feed:
		v.Kind = KindFeedAnswer
		v.Target, ok = s.target(roleFeed)
		ok = ok && single && u != UnitWei
	case price && pool:
		v.Kind = KindPoolPrice
		v.Target, ok = s.target(rolePool)
		ok = ok && single && u != UnitWei
	case supply:
		v.Kind = KindTotalSupply
		v.Target, ok = s.target(roleToken)
		ok = ok && single && u != UnitUSD
	case k.liquidity && pool && single && u == "":
		v.Kind = KindLiquidity
		v.Target, ok = s.target(rolePool)
	case reserves || (balance && pool && s.distinct() == 1):
		v.Kind = KindReserves
		v.Target, ok = s.target(rolePool)
		for _, a := range v.Values {
			ok = ok && a.Unit != UnitUSD
		}
	case balance && single && u != UnitUSD:
		native := u == UnitETH || u == UnitGwei || u == UnitWei
		tok, isTok := s.withRole(roleToken)
		if h, isHolder := s.withRole(roleHolder); !isTok && !native && isHolder && s.distinct() == 2 {
			// "0xT balance of 0xA is 100 USDC": the address that is not
			// the holder is the token.
			tok, isTok = s.other(h)
		}
		switch {
		case isTok && s.distinct() == 2:
			v.Kind, v.Target = KindTokenBalance, tok
			v.Holder, ok = s.other(tok)
			return v, ok
		case native && !isTok:
			v.Kind = KindEthBalance
			v.Target, ok = s.target(roleHolder)
		}
	}
	return v, ok && v.Kind != KindNone && s.distinct() == 1
}

// other returns the holder of a token balance: the address cued as one, or
// the only address besides tok.
func (s *sentence) other(tok Address) (Address, bool) {
	if h, ok := s.withRole(roleHolder); ok && h != tok {
		return h, true
	}
	var found []Address
	for _, a := range s.addrs {
		if a.a != tok && (len(found) == 0 || found[0] != a.a) {
			found = append(found, a.a)
		}
	}
	if len(found) != 1 {
		return Address{}, false
	}
	return found[0], true
}

var multipliers = map[string]int64{"k": 1e3, "thousand": 1e3, "m": 1e6, "mm": 1e6, "million": 1e6,
	"b": 1e9, "bn": 1e9, "billion": 1e9, "t": 1e12, "trillion": 1e12}

// unitWords are the words after a number that are units; any other word
// is a unit only when written like a ticker ("USDC", "WETH", "stETH").
var unitWords = map[string]string{"eth": UnitETH, "ether": UnitETH, "gwei": UnitGwei, "wei": UnitWei, "raw": UnitWei,
	"base units": UnitWei, "raw units": UnitWei, "atomic units": UnitWei, "usd": UnitUSD, "dollars": UnitUSD, "$": UnitUSD}

// notValues are the words after a number that make it something other
// than a claimed amount.
var notValues = map[string]bool{"%": true, "percent": true, "bps": true, "basis": true, "x": true, "days": true, "day": true,
	"hours": true, "hour": true, "minutes": true, "seconds": true, "blocks": true, "block": true, "weeks": true,
	"months": true, "years": true, "st": true, "nd": true, "rd": true, "th": true, "am": true, "pm": true}

// amounts returns the claimed amounts in s, in order.
func (s *sentence) amounts() []Amount {
	var out []Amount
	m := s.masked
	for i := 0; i < len(m); i++ {
		c := m[i]
		if !(c >= '0' && c <= '9' || c == '$' || c == '.' && i+1 < len(m) && m[i+1] >= '0' && m[i+1] <= '9') {
			continue
		}
		if i > 0 {
			if p := m[i-1]; isAlnum(p) || p == '-' || p == '/' || p == '#' || p == '.' || p == '_' || p == '+' || p == ',' && c != '$' {
				continue // "v3", "ERC-20", "ETH/USD", "#3", the rest of a number
			}
		}
		g := reVNumber.FindStringSubmatchIndex(m[i:min(len(m), i+80)])
		if g == nil {
			continue
		}
		for k := range g {
			if g[k] >= 0 {
				g[k] += i
			}
		}
		i = g[1] - 1
		ns, ne := g[4], g[5]
		word := ""
		if g[8] >= 0 {
			word = s.text[g[8]:g[9]]
		}
		if ne < len(m) && m[ne] == '%' || notValues[strings.ToLower(word)] {
			continue
		}
		if ne < len(m) && isAlnum(m[ne]) && g[6] != ne && !(g[8] == ne && unitLike(word)) {
			continue // "0x1f", "12abc"
		}
		r, ok := new(big.Rat).SetString(digitsOnly.Replace(m[ns:ne]))
		if !ok {
			continue
		}
		if g[6] >= 0 {
			r.Mul(r, new(big.Rat).SetInt64(multipliers[strings.ToLower(m[g[6]:g[7]])]))
		}
		unit := ""
		if g[2] >= 0 {
			unit = UnitUSD
		}
		if u, ok := unitWords[strings.ToLower(strings.Join(strings.Fields(word), " "))]; ok {
			unit = u
		} else if unit == "" && unitLike(word) {
			unit = strings.Fields(word)[0]
		}
		out = append(out, Amount{Value: r, Unit: unit})
	}
	return out
}

// unitLike reports whether word is a unit or a token symbol.
func unitLike(word string) bool {
	if _, ok := unitWords[strings.ToLower(strings.Join(strings.Fields(word), " "))]; ok {
		return true
	}
	f := strings.Fields(word)
	return len(f) == 1 && ticker(f[0])
}

// ticker reports whether w is written like a token symbol: two to ten
// letters and digits, upper case but for a short lower-case prefix
// ("USDC", "WETH", "stETH", "cbBTC").
func ticker(w string) bool {
	if len(w) < 2 || len(w) > 10 {
		return false
	}
	i := 0
	for i < len(w) && i < 3 && w[i] >= 'a' && w[i] <= 'z' {
		i++
	}
	if i == len(w) {
		return false
	}
	for ; i < len(w); i++ {
		if !(w[i] >= 'A' && w[i] <= 'Z' || w[i] >= '0' && w[i] <= '9') {
			return false
		}
	}
	return true
}
