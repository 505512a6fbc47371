package validate

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/addrbook"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/tool"
)

// NothingInBook is the reason of a BookVerifier vote on an entry that
// states nothing the book can check.
const NothingInBook = "no identity or mechanics the address book can check"

// FalsePrefix starts every reason of a claim the book or the chain
// contradicts.
const FalsePrefix = "verifiable_claim_false: "

// Look-alike boundary. Wallets and explorers show an address as its
// first and last few hex digits (0x8335…2913), and address-poisoning
// campaigns grind vanity addresses that match exactly those: matching 4
// leading and 4 trailing digits is 32 bits, about 4·10⁹ tries, seconds on
// one GPU. An unrelated address shares them with a given one with
// probability 2⁻³², with any of the book's ~1,500 about 2⁻²¹: a
// coincidence is negligible. A copy with at most LookalikeMaxDiff digits
// changed anywhere (a typo, or an edit that keeps the checksum plausible)
// is a look-alike too: two random addresses agree on 2.5 of 40 digits on
// average, so 36 agreeing digits is never chance.
//
// Both arguments hold for random digits only: predeploys (0x4200…0006),
// precompiles and vanity addresses (0x0000…) are mostly zeros, and two of
// them agree on their zeros by design. Agreement counts only on digits
// other than 0: at least LookalikeSignificant of the matching leading and
// trailing digits, and of the agreeing digits of a near copy.
const (
	LookalikeLead        = 4
	LookalikeTrail       = 4
	LookalikeMaxDiff     = 4
	LookalikeSignificant = 4
	nearCopySignificant  = 24
)

// BookVerifier checks what a text says addresses are (ExtractIdentities)
// and the protocol numbers it states (ExtractMechanics) against an
// address book. Make it with NewBookVerifier; it is immutable and safe for
// concurrent use.
type BookVerifier struct {
	book    *addrbook.Book
	chains  map[uint64]*addrbook.Chain
	known   map[Address][]known
	all     []Address // every address the book lists, in order
	allHex  []string  // their 40 lower-case hex digits
	symbols map[string][]symbolAt
	// major holds the symbol families with a USD feed or the wrapped
	// native token on some chain: the assets an agent moves, whose
	// addresses the book is complete for.
	major map[string]bool
	names map[string][]tokenName // the full token names spellSymbols rewrites, by first word
}

// known is one thing an address is on one chain.
type known struct {
	chain  *addrbook.Chain
	symbol string   // a token's symbol
	role   string   // a contract's role
	feedOf []string // the symbols whose USD feed it is
}

func (k known) String() string {
	switch {
	case k.symbol != "":
		return k.symbol + " on " + chainName(k.chain)
	case k.role != "":
		return k.role + " on " + chainName(k.chain)
	default:
		return "the " + strings.Join(k.feedOf, "/") + " USD feed on " + chainName(k.chain)
	}
}

type symbolAt struct {
	chain *addrbook.Chain
	token addrbook.Token
}

// NewBookVerifier indexes book (nil: the shipped book).
func NewBookVerifier(book *addrbook.Book) *BookVerifier {
	if book == nil {
		book = addrbook.Shipped()
	}
	v := &BookVerifier{book: book, chains: map[uint64]*addrbook.Chain{}, known: map[Address][]known{},
		symbols: map[string][]symbolAt{}, major: map[string]bool{}}
	add := func(a tool.Address, k known) {
		ad := Address(a)
		if _, ok := v.known[ad]; !ok {
			v.all = append(v.all, ad)
			v.allHex = append(v.allHex, ad.String()[2:])
		}
		v.known[ad] = append(v.known[ad], k)
	}
	for _, c := range book.Chains {
		v.chains[c.ID] = c
		feeds := map[tool.Address][]string{}
		for _, t := range c.Tokens {
			add(t.Address, known{chain: c, symbol: t.Symbol})
			v.symbols[strings.ToUpper(t.Symbol)] = append(v.symbols[strings.ToUpper(t.Symbol)], symbolAt{chain: c, token: t})
			if !t.USDFeed.IsZero() {
				feeds[t.USDFeed] = append(feeds[t.USDFeed], t.Symbol)
			}
			if !t.USDFeed.IsZero() || t.WrappedNative {
				v.major[family(t.Symbol)] = true
			}
		}
		for _, k := range c.Contracts {
			add(k.Address, known{chain: c, role: k.Role})
		}
		for _, f := range c.Feeds {
			if b, q, _ := strings.Cut(f.Pair, "/"); strings.EqualFold(q, "USD") && !slices.Contains(feeds[f.Address], b) {
				feeds[f.Address] = append(feeds[f.Address], b)
			}
		}
		for _, a := range slices.SortedFunc(maps.Keys(feeds), func(a, b tool.Address) int { return strings.Compare(a.Hex(), b.Hex()) }) {
			add(a, known{chain: c, feedOf: feeds[a]})
		}
	}
	v.names = tokenNames(book, v.major)
	return v
}

// BookResult is what the book says of a text's claims: the claims it
// contradicts (each a reason starting with FalsePrefix) and those it
// confirms.
type BookResult struct {
	False    []string
	Verified []string
	// Confirmed holds the addresses whose stated identity (token,
	// contract or feed) the book confirms, in order.
	Confirmed []Address
	// Unvetted holds the addresses the text directs funds or an allowance
	// to that the book does not know (each a reason starting with
	// UnvettedPrefix; see suppliedDestinations).
	Unvetted []string
}

// Check checks the identities, Uniswap V3 pool addresses, mechanics,
// selectors and event topics text states.
func (v *BookVerifier) Check(text string) BookResult {
	var r BookResult
	seen := map[string]bool{}
	addFalse := func(s string) {
		if !seen[s] {
			seen[s] = true
			r.False = append(r.False, FalsePrefix+s)
		}
	}
	text = v.spellSymbols(joinSplitAddresses(prefixBareAddresses(text)))
	ids := ExtractIdentities(text)
	if id, ok := looseBind(text, ids); ok {
		if bad := v.looseIdentity(id); bad != "" {
			addFalse(bad)
		}
	}
	for _, id := range ids {
		bad, ok := v.identity(id)
		switch {
		case bad != "":
			addFalse(bad)
		case ok != "":
			r.Verified = append(r.Verified, ok)
			r.Confirmed = append(r.Confirmed, id.Address)
		case v.known[id.Address] == nil && checksumFalse(id) != "":
			// The book cannot say what it is, but its case says it
			// was edited (a book address in the wrong case has the
			// book's digits, which is all that matters).
			addFalse(checksumFalse(id))
		}
	}
	if bad := v.replacement(ids); bad != "" {
		addFalse(bad)
	}
	for _, p := range poolClaims(text, ids) {
		bad, ok := v.pool(p)
		switch {
		case bad != "":
			addFalse(bad)
		case ok != "":
			r.Verified = append(r.Verified, ok)
		}
	}
	ms := ExtractMechanics(text)
	for _, m := range ms {
		bad, ok := v.mechanic(m)
		switch {
		case bad != "":
			addFalse(bad)
		case ok != "":
			r.Verified = append(r.Verified, ok)
		}
	}
	for _, bad := range collateralPairs(ms) {
		addFalse(bad)
	}
	r.Unvetted = v.suppliedDestinations(text)
	// Selectors and event topics need no book: they are hashes of the
	// signature they are stated for.
	for _, c := range ExtractSelectors(text) {
		if c.Holds() {
			r.Verified = append(r.Verified, fmt.Sprintf("the %s of %s is 0x%x", c.What(), c.Signature, c.Stated))
		} else {
			addFalse(fmt.Sprintf("the %s of %s is 0x%x, not 0x%x", c.What(), c.Signature, c.Actual(), c.Stated))
		}
	}
	return r
}

// Vote is the L3 vote of the book on e's content and structured claim: a
// decisive failure, score 1, when the book contradicts a claim; otherwise
// skipped (a true address does not make the entry good advice), with the
// claims the book confirms as reasons.
func (v *BookVerifier) Vote(e *knowledge.Entry) Vote {
	if e == nil {
		return Vote{Layer: knowledge.LayerOnChain, Skipped: true}
	}
	text := e.Content
	if c := e.Claim; c != nil {
		text += "\n" + strings.Join(append([]string{c.Subject, c.Relation, c.Object}, c.Conditions...), " ")
	}
	r := v.Check(text)
	if len(r.False) > 0 || len(r.Unvetted) > 0 {
		return Vote{Layer: knowledge.LayerOnChain, Score: 1, Decisive: true, Reasons: append(r.False, r.Unvetted...)}
	}
	why := make([]string, len(r.Verified))
	for i, s := range r.Verified {
		why[i] = "verified in ward's address book: " + s
	}
	if len(why) == 0 {
		why = []string{NothingInBook}
	}
	return Vote{Layer: knowledge.LayerOnChain, Skipped: true, Reasons: why}
}

// identity returns why the book contradicts id ("" when it does not), or
// what it confirms.
func (v *BookVerifier) identity(id Identity) (bad, ok string) {
	if id.Warned {
		return "", ""
	}
	chains, verifiable := v.scope(id.ChainID)
	ks := v.known[id.Address]
	if len(ks) == 0 {
		if k, like, found := v.lookalike(id.Address); found {
			return fmt.Sprintf("%s is a look-alike of %s (%s)", short(id.Address), k, short(like)), ""
		}
		if !verifiable {
			return "", ""
		}
		return v.unknown(id, chains), ""
	}
	if !verifiable || forkNamed(id.Clause) {
		return "", ""
	}
	var here []known // what the address is on the chains in scope
	for _, k := range ks {
		if slices.Contains(chains, k.chain) {
			here = append(here, k)
		}
	}
	switch {
	case id.Symbol != "" && !id.Feed:
		fam := family(id.Symbol)
		if v.symbols[strings.ToUpper(id.Symbol)] == nil && !v.knownFamily(fam) || stopSymbol(id.Symbol) {
			return "", ""
		}
		for _, k := range here {
			if k.symbol != "" && family(k.symbol) == fam {
				if t, ok := v.otherIssue(id, k); ok {
					return fmt.Sprintf("%s is %s (%s) in ward's address book, not %s %s; %s on %s is %s", short(id.Address), k,
						issue(k.symbol), issue(t.Symbol), id.Symbol, t.Symbol, chainName(k.chain), short(Address(t.Address))), ""
				}
				return "", fmt.Sprintf("%s is %s", short(id.Address), k)
			}
		}
	case id.Feed:
		fam := family(id.Symbol)
		for _, k := range here {
			for _, s := range k.feedOf {
				if prices(s, fam) {
					return "", fmt.Sprintf("%s is %s", short(id.Address), k)
				}
			}
		}
		if !v.knownFamily(fam) && fam != "ETH" {
			return "", ""
		}
	case len(id.Roles) > 0:
		for _, k := range here {
			if slices.Contains(id.Roles, k.role) {
				return "", fmt.Sprintf("%s is %s", short(id.Address), k)
			}
		}
	default:
		return "", ""
	}
	if v.namesOwnIdentity(id, ks) {
		return "", ""
	}
	what := ks[0]
	if len(here) > 0 {
		what = here[0]
	}
	name := claimed(id)
	if c, ok := v.chains[id.ChainID]; ok && matches(id, what) {
		name += " on " + chainName(c)
	}
	return fmt.Sprintf("%s is %s in ward's address book, not %s%s", short(id.Address), what, name, v.expected(id, chains)), ""
}

// Kin reports whether the book lists every address of addrs, at least
// two, as an issue of one token family (USDC.e and native USDC) on some
// chain: a text that moves from one to another names the same token's
// issues, not two different things.
func (v *BookVerifier) Kin(addrs []Address) bool {
	if len(addrs) < 2 {
		return false
	}
	common := map[string]bool{}
	for i, a := range addrs {
		fams := map[string]bool{}
		for _, k := range v.known[a] {
			if k.symbol != "" {
				fams[family(k.symbol)] = true
			}
		}
		if i == 0 {
			common = fams
			continue
		}
		for f := range common {
			if !fams[f] {
				delete(common, f)
			}
		}
	}
	return len(common) > 0
}

// bridgedSymbol reports whether sym is written as a bridge's copy of a
// token: "USDC.e", "USDbC".
func bridgedSymbol(sym string) bool {
	u := strings.ToUpper(sym)
	return strings.HasSuffix(u, ".E") || u == "USDBC"
}

func issue(sym string) string {
	if bridgedSymbol(sym) {
		return "bridged"
	}
	return "native"
}

// otherIssue returns the token of k's chain that id names when k, the
// token at id's address, is the other issue of it: id says native USDC
// of an address the book lists as USDC.e while the chain's native USDC
// is elsewhere (or the reverse).
func (v *BookVerifier) otherIssue(id Identity, k known) (addrbook.Token, bool) {
	want := id.Variant
	if want == VariantAny && bridgedSymbol(id.Symbol) {
		want = VariantBridged
	}
	if want == VariantAny || (want == VariantBridged) == bridgedSymbol(k.symbol) {
		return addrbook.Token{}, false
	}
	for _, t := range k.chain.Tokens {
		if family(t.Symbol) == family(k.symbol) && bridgedSymbol(t.Symbol) == (want == VariantBridged) &&
			Address(t.Address) != id.Address {
			return t, true
		}
	}
	return addrbook.Token{}, false
}

// unknown decides a claim about an address the book does not list: false
// when the name is one whose address the book is complete for (a major
// token, a specific contract) on the chains in scope.
func (v *BookVerifier) unknown(id Identity, chains []*addrbook.Chain) string {
	if forkNamed(id.Clause) {
		return ""
	}
	var want []string
	switch {
	case id.Symbol != "" && !id.Feed:
		fam := family(id.Symbol)
		if stopSymbol(id.Symbol) {
			return ""
		}
		if !v.major[fam] {
			// A token list holds one canonical token per symbol and
			// chain: on the chain the text names, the book is complete
			// for every symbol it lists there once. Without a chain the
			// token may live on one the book does not cover.
			if id.ChainID == 0 || len(chains) != 1 || v.listed(chains[0], fam) != 1 {
				return ""
			}
		}
		for _, c := range chains {
			for _, t := range c.Tokens {
				if family(t.Symbol) == fam {
					want = append(want, fmt.Sprintf("%s on %s is %s", t.Symbol, chainName(c), short(Address(t.Address))))
					break
				}
			}
		}
	case id.Specific || id.SpecificOnChain && id.ChainID != 0:
		for _, c := range chains {
			for _, r := range id.Roles {
				if a, ok := c.Contract(r); ok {
					want = append(want, fmt.Sprintf("%s on %s is %s", r, chainName(c), short(Address(a))))
				}
			}
		}
	}
	if len(want) == 0 {
		return ""
	}
	if len(want) > 3 {
		want = append(want[:3], fmt.Sprintf("%d more chains", len(want)-3))
	}
	return fmt.Sprintf("%s in ward's address book, not %s", strings.Join(want, "; "), short(id.Address))
}

// expected names what the book lists for id's claim on the chains in
// scope: "; USDC on Base is 0x8335…2913".
func (v *BookVerifier) expected(id Identity, chains []*addrbook.Chain) string {
	var want []string
	for _, c := range chains {
		switch {
		case id.Symbol != "" && !id.Feed:
			fam := family(id.Symbol)
			for _, t := range c.Tokens {
				if family(t.Symbol) == fam {
					want = append(want, fmt.Sprintf("%s on %s is %s", t.Symbol, chainName(c), short(Address(t.Address))))
					break
				}
			}
		case len(id.Roles) > 0:
			for _, r := range id.Roles {
				if a, ok := c.Contract(r); ok {
					want = append(want, fmt.Sprintf("%s on %s is %s", r, chainName(c), short(Address(a))))
					break
				}
			}
		}
		if len(want) == 2 {
			break
		}
	}
	if len(want) == 0 {
		return ""
	}
	return "; " + strings.Join(want, "; ")
}

func claimed(id Identity) string {
	switch {
	case id.Feed:
		return "the " + id.Symbol + " USD feed"
	case id.Symbol != "":
		return id.Symbol
	default:
		return strings.Join(id.Roles, " or ")
	}
}

// scope returns the book's chains a claim about chain id may be checked
// on: that chain, or every chain when the text names none. verifiable is
// false for a chain the book does not cover.
func (v *BookVerifier) scope(id uint64) (chains []*addrbook.Chain, verifiable bool) {
	if id == 0 {
		return v.book.Chains, true
	}
	c, ok := v.chains[id]
	if !ok {
		return nil, false
	}
	return []*addrbook.Chain{c}, true
}

// namesOwnIdentity reports whether id's clause also names what the book
// says the address is ("swap USDC for WETH at 0x68b3… (the SwapRouter02)"
// binds WETH to the router, but names the router): then the text is not
// misnaming the address.
func (v *BookVerifier) namesOwnIdentity(id Identity, ks []known) bool {
	words := map[string]bool{}
	for _, w := range split(id.Clause) {
		words[w.lower] = true
	}
	for _, k := range ks {
		if matches(id, k) {
			continue // the name is right, the chain is not
		}
		switch {
		case k.symbol != "":
			if words[strings.ToLower(k.symbol)] {
				return true
			}
		case k.role != "":
			for _, hint := range roleHints[k.role] {
				if strings.Contains(id.Clause, hint) {
					return true
				}
			}
		default:
			if words["feed"] || words["oracle"] || words["aggregator"] {
				return true
			}
		}
	}
	return false
}

// matches reports whether k is what id names, on whatever chain.
func matches(id Identity, k known) bool {
	switch {
	case id.Feed:
		for _, s := range k.feedOf {
			if prices(s, family(id.Symbol)) {
				return true
			}
		}
		return false
	case id.Symbol != "":
		return k.symbol != "" && family(k.symbol) == family(id.Symbol)
	default:
		return k.role != "" && slices.Contains(id.Roles, k.role)
	}
}

// prices reports whether a feed of sym prices the asset family fam: ETH
// and WETH have one price.
func prices(sym, fam string) bool {
	f := family(sym)
	eth := func(s string) bool { return s == "ETH" || s == "WETH" }
	return f == fam || eth(f) && eth(fam)
}

// roleHints are words by which a clause may name a contract of each role.
var roleHints = map[string][]string{
	addrbook.UniswapV2Factory: {"factory"}, addrbook.UniswapV3Factory: {"factory"},
	addrbook.UniswapV2Router02: {"router"}, addrbook.UniswapV3SwapRouter02: {"router"}, addrbook.UniswapV3SwapRouter: {"router"},
	addrbook.UniswapV3QuoterV1: {"quoter"}, addrbook.UniswapV3QuoterV2: {"quoter"},
	addrbook.UniswapV3PositionManager: {"position manager", "positionmanager", "npm"},
	addrbook.UniswapV4PoolManager:     {"poolmanager", "pool manager"},
	addrbook.Permit2:                  {"permit2"}, addrbook.Multicall3: {"multicall"},
	addrbook.AaveV3Pool: {"aave"}, addrbook.AaveV3DataProvider: {"data provider", "dataprovider"},
	addrbook.AaveV3Oracle: {"oracle"}, addrbook.AaveV3PoolAddressesProvider: {"addresses provider", "addressesprovider"},
	addrbook.MorphoBlue: {"morpho blue"}, addrbook.MorphoAdaptiveCurveIRM: {"irm"},
	addrbook.MorphoMetaMorphoFactory: {"metamorpho"}, addrbook.MorphoPublicAllocator: {"allocator"},
	addrbook.MorphoBundler3: {"bundler"}, addrbook.BalancerV2Vault: {"balancer v2", "v2 vault"},
	addrbook.BalancerV3Vault: {"balancer v3", "v3 vault"},
	addrbook.CowSettlement:   {"settlement"}, addrbook.CowVaultRelayer: {"relayer"},
	addrbook.ZeroExExchangeProxy: {"exchange proxy", "exchangeproxy"}, addrbook.LidoWithdrawalQueue: {"withdrawal"},
	addrbook.BeaconDepositContract: {"deposit"},
	addrbook.ENSRegistry:           {"registry"}, addrbook.ENSBaseRegistrar: {"base registrar", "baseregistrar"},
	addrbook.ENSEthRegistrarController: {"controller"}, addrbook.ENSNameWrapper: {"wrapper"},
	addrbook.ENSPublicResolver: {"resolver"}, addrbook.ENSReverseRegistrar: {"reverse"},
	// Which rollup's: the clause names it.
	addrbook.OPMainnetL1StandardBridge: {"optimism", "op mainnet"}, addrbook.OPMainnetOptimismPortal: {"optimism", "op mainnet"},
	addrbook.OPMainnetL2OutputOracle: {"optimism", "op mainnet"}, addrbook.OPMainnetDisputeGameFactory: {"optimism", "op mainnet"},
	addrbook.BaseL1StandardBridge: {"base"}, addrbook.BaseOptimismPortal: {"base"},
	addrbook.BaseL2OutputOracle: {"base"}, addrbook.BaseDisputeGameFactory: {"base"},
	addrbook.ArbitrumOneBridge: {"bridge"}, addrbook.ArbitrumOneInbox: {"delayed"}, addrbook.ArbitrumOneSequencerInbox: {"sequencer"},
	addrbook.ArbitrumOneOutbox: {"outbox"}, addrbook.ArbitrumOneRollup: {"rollup"},
	addrbook.ArbitrumOneL1GatewayRouter: {"gateway router", "gatewayrouter"}, addrbook.ArbitrumOneL1ERC20Gateway: {"erc20 gateway", "erc20gateway"},
}

// forkWords name protocols that reuse Uniswap's and Aave's contract names
// at other addresses: a claim in their context is not about the book's.
var forkWords = []string{"sushi", "pancake", "quickswap", "camelot", "aerodrome", "velodrome", "baseswap", "trader joe",
	"traderjoe", "spookyswap", "alienbase", "spark", "radiant", "seamless", "zerolend", "fork", "testnet", "local", "anvil",
	"hardhat", "devnet"}

func forkNamed(clause string) bool {
	for _, f := range forkWords {
		if strings.Contains(clause, f) {
			return true
		}
	}
	return false
}

// lookalike returns the book entry a is a look-alike of: a different
// address with the same LookalikeLead leading and LookalikeTrail trailing
// hex digits, or at most LookalikeMaxDiff digits changed.
func (v *BookVerifier) lookalike(a Address) (known, Address, bool) {
	ah := a.String()[2:]
	for i, b := range v.all {
		if b != a && lookalikeHex(ah, v.allHex[i]) {
			return v.known[b][0], b, true
		}
	}
	return known{}, Address{}, false
}

// lookalikeHex reports whether the 40 lower-case hex digits ah are a
// look-alike of bh: the same LookalikeLead leading and LookalikeTrail
// trailing digits, or at most LookalikeMaxDiff digits changed, counting
// agreement on digits other than 0 only.
func lookalikeHex(ah, bh string) bool {
	if ah == bh {
		return false
	}
	lead, trail, ends, diff, agree := 0, 0, 0, 0, 0
	for lead < len(ah) && ah[lead] == bh[lead] {
		if ah[lead] != '0' {
			ends++
		}
		lead++
	}
	for trail < len(ah) && ah[len(ah)-1-trail] == bh[len(bh)-1-trail] {
		if ah[len(ah)-1-trail] != '0' {
			ends++
		}
		trail++
	}
	for i := range ah {
		switch {
		case ah[i] != bh[i]:
			diff++
		case ah[i] != '0':
			agree++
		}
	}
	return lead >= LookalikeLead && trail >= LookalikeTrail && ends >= LookalikeSignificant ||
		diff <= LookalikeMaxDiff && agree >= nearCopySignificant
}

// listed returns how many tokens of family fam chain c lists.
func (v *BookVerifier) listed(c *addrbook.Chain, fam string) int {
	n := 0
	for _, t := range c.Tokens {
		if family(t.Symbol) == fam {
			n++
		}
	}
	return n
}

// knownFamily reports whether some token of the book is of family fam.
func (v *BookVerifier) knownFamily(fam string) bool {
	for sym := range v.symbols {
		if family(sym) == fam {
			return true
		}
	}
	return false
}

// family folds the symbols one asset goes by: bridged USDC (USDC.e,
// USDbC) is USDC, USDT0 is USDT, MATIC, WMATIC and WPOL are POL; the
// rest compare in upper case.
func family(sym string) string {
	s := strings.TrimSuffix(strings.ToUpper(sym), ".E")
	switch s {
	case "USDBC":
		return "USDC"
	case "USDT0":
		return "USDT"
	case "MATIC", "WMATIC", "WPOL":
		return "POL"
	case "WETH9": // the canonical WETH contract's name, as the SDKs write it
		return "WETH"
	}
	return s
}

// stopSymbols are book symbols that are also words or acronyms of DeFi
// prose in capitals ("AI agents", "TOKEN", "APR", "ATH"): written next
// to an address they do not claim the token.
var stopSymbols = wordSet("AI L3 T U K G O RE ES EV MC SD CT UP A8 TOKEN SAFE KEY TIME HIGH BIT ONE CAP ALL POD EDGE HOME TRUST " +
	"SIGN MV APR ATH RED ERA ALT CHECK TERM PRIME SUPER MEME BOND PRO GAS FUN TREE JAM ES LA ASSET CP B3 KAT SENT RAIN")

func stopSymbol(sym string) bool { return stopSymbols[strings.ToUpper(sym)] }

func chainName(c *addrbook.Chain) string {
	if c.Name != "" {
		return c.Name
	}
	return fmt.Sprintf("chain %d", c.ID)
}

// short writes a as EIP-55 0x and 4 digits … 4 digits: how a wallet shows it.
func short(a Address) string {
	h := common.Address(a).Hex()
	return h[:6] + "…" + h[len(h)-4:]
}

// oldWords, in the clause of an address, call it the superseded one.
var oldWords = wordSet("old older previous former legacy deprecated retired frozen sunset sunsetted outdated " +
	"alte alten alter veraltet ancienne ancien anciens antigua antiguo vecchio vecchia antigo antiga")

// replacement decides a claim that an address the book lists is
// superseded by one it does not: "the new proxy is 0x…; the old one at
// 0x5f4e… (the book's ETH/USD feed) will stop updating". Whatever the
// name, the text says the book's entry is outdated. The book is
// generated from the protocols' maintained packages, so an address it
// lists is current as of its sources, and a successor it does not know
// cannot be verified; adopting the claim would redirect everything the
// agent sends to the old contract. Both must be stated: an old address
// the book lists, in a clause that calls it old, and an address unknown
// to the book in a clause that calls it new. Neither may be a warning,
// and a successor the book lists (USDC.e to native USDC) is no claim.
func (v *BookVerifier) replacement(ids []Identity) string {
	var old, repl *Identity
	for i := range ids {
		id := &ids[i]
		if id.Warned || forkNamed(id.Clause) {
			continue
		}
		before := split(clauseBefore(id))
		switch {
		case v.known[id.Address] != nil && old == nil && calledRight(before, oldWords):
			old = id
		case v.known[id.Address] == nil && repl == nil && calledRight(before, newWords) && !calledRight(before, oldWords):
			if _, _, like := v.lookalike(id.Address); !like {
				repl = id
			}
		}
	}
	if old == nil || repl == nil {
		return ""
	}
	return fmt.Sprintf("%s is given as the new address in place of %s, %s, which ward's address book lists as current",
		short(repl.Address), short(old.Address), v.known[old.Address][0])
}

// calledRight reports whether one of set's words is among the last four
// words of ws (the words right before an address) with no token symbol
// after it: "the old one at 0x…", "the new proxy is 0x…", but not "our
// old vault used USDC at 0x…".
func calledRight(ws []word, set map[string]bool) bool {
	for j := len(ws) - 1; j >= 0 && j >= len(ws)-4; j-- {
		if symbolLike(ws[j].text) && !set[ws[j].lower] {
			return false
		}
		if set[ws[j].lower] {
			return true
		}
	}
	return false
}

// clauseBefore returns id's clause up to its address.
func clauseBefore(id *Identity) string {
	if k := strings.Index(id.Clause, strings.ToLower(id.Written)); k >= 0 {
		return id.Clause[:k]
	}
	return id.Clause
}
