package validate

import (
	"encoding/binary"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/addrbook"
)

// poolClaim is a text's claim that the Uniswap V3 pool of a token pair
// and fee tier is at an address: "the Uniswap V3 USDC/WETH 0.05% pool
// at 0x…".
type poolClaim struct {
	id   Identity
	a, b string // the pair's symbols, as written
	fee  uint32 // in hundredths of a basis point: 500 is 0.05 %
	// unnamed: the text does not name Uniswap, so the pool may be a
	// fork's; only a look-alike of Uniswap's pool contradicts it (a
	// fork's pool shares its leading and trailing digits by chance with
	// probability 2⁻³²).
	unnamed bool
}

var (
	rePair    = regexp.MustCompile(`\b([a-z][a-z0-9.]{1,11})\s*/\s*([a-z][a-z0-9.]{1,11})\b`)
	rePercent = regexp.MustCompile(`(?:^|[^0-9.])(0\.01|0\.05|0\.3|0\.30|1|1\.0|1\.00)\s*%`)
	reBps     = regexp.MustCompile(`(?:^|[^0-9.])(1|5|30|100)\s*(?:bps|bp|basis points?)\b`)
	reFeeUnit = regexp.MustCompile(`\bfee(?: tier)?(?: of)?\s*[:=]?\s*(100|500|3000|10000)\b`)
)

// poolClaims returns the pool claims of text. A claim needs the entry to
// name no other protocol that reuses Uniswap's pool design (one that
// names no protocol at all is checked for look-alikes only);
// the words before the address (back to the previous one) to name V3, a
// pool, exactly one pair and one fee tier; and its clause not to name V2
// or V4, whose pools have no fee tiers or no addresses.
func poolClaims(text string, ids []Identity) []poolClaim {
	lower := asciiLower(text)
	if forkNamed(lower) || strings.Contains(lower, "pancake") {
		return nil
	}
	unnamed := !strings.Contains(lower, "uniswap")
	var out []poolClaim
	for _, id := range ids {
		c := before(id.Clause, asciiLower(id.Written))
		ws := wordSet(strings.NewReplacer(",", " ", ".", " ", ":", " ", "(", " ", ")", " ", "|", " ").Replace(id.Clause))
		if id.Warned || !strings.Contains(c, "pool") || !strings.Contains(c, "v3") || ws["v2"] || ws["v4"] {
			continue
		}
		pairs := rePair.FindAllStringSubmatch(c, -1)
		fee, ok := feeTier(c)
		if len(pairs) != 1 || !ok {
			continue
		}
		out = append(out, poolClaim{id: id, a: pairs[0][1], b: pairs[0][2], fee: fee, unnamed: unnamed})
	}
	return out
}

// before returns the part of clause c that names the address a: from
// the address before it (or the clause's start) to a.
func before(c, a string) string {
	i := strings.Index(c, a)
	if i < 0 {
		return ""
	}
	c = c[:i]
	if j := strings.LastIndex(c, "0x"); j >= 0 && len(c)-j >= 42 {
		c = c[j+42:]
	}
	return c
}

// feeTier returns the one fee tier clause c names.
func feeTier(c string) (uint32, bool) {
	var fees []uint32
	for _, m := range rePercent.FindAllStringSubmatch(c, -1) {
		f, _ := strconv.ParseFloat(m[1], 64)
		fees = append(fees, uint32(f*10000+0.5))
	}
	for _, m := range reBps.FindAllStringSubmatch(c, -1) {
		n, _ := strconv.Atoi(m[1])
		fees = append(fees, uint32(n*100))
	}
	for _, m := range reFeeUnit.FindAllStringSubmatch(c, -1) {
		n, _ := strconv.Atoi(m[1])
		fees = append(fees, uint32(n))
	}
	slices.Sort(fees)
	fees = slices.Compact(fees)
	if len(fees) != 1 {
		return 0, false
	}
	return fees[0], true
}

// pool checks a pool claim against the pools CREATE2 gives on the chains
// in scope. Where the text names a chain, any other address is false;
// where it names none, the pool may be on a chain outside the book, and
// only a look-alike of a computed pool is.
func (v *BookVerifier) pool(p poolClaim) (bad, ok string) {
	chains, verifiable := v.scope(p.id.ChainID)
	if !verifiable {
		return "", ""
	}
	what := fmt.Sprintf("the Uniswap V3 %s/%s %s %% pool", strings.ToUpper(p.a), strings.ToUpper(p.b),
		strconv.FormatFloat(float64(p.fee)/10000, 'f', -1, 64))
	var want []string
	var like Address
	found := false
	for _, c := range chains {
		for _, a := range v3Pools(c, p.a, p.b, p.fee) {
			if a == p.id.Address {
				return "", fmt.Sprintf("%s is %s on %s", short(a), what, chainName(c))
			}
			if lookalikeHex(p.id.Address.String()[2:], a.String()[2:]) {
				like, found = a, true
			}
			want = append(want, fmt.Sprintf("%s on %s", short(a), chainName(c)))
		}
	}
	switch {
	case found:
		return fmt.Sprintf("%s is a look-alike of %s (%s): CREATE2 from the Uniswap V3 factory", short(p.id.Address), what, short(like)), ""
	case len(want) == 0 || p.id.ChainID == 0 || p.unnamed:
		return "", ""
	}
	if len(want) > 3 {
		want = want[:3]
	}
	return fmt.Sprintf("%s is not %s: CREATE2 from the Uniswap V3 factory gives %s", short(p.id.Address), what, strings.Join(want, ", ")), ""
}

// v3Pools returns the addresses of chain c's Uniswap V3 pools of the
// tokens symbols a and b may mean (a symbol's family: USDC is USDC,
// USDC.e and USDbC; the native symbol is the wrapped native token) at fee.
func v3Pools(c *addrbook.Chain, a, b string, fee uint32) []Address {
	factory, ok := c.Contract(addrbook.UniswapV3Factory)
	h := c.UniswapV3PoolInitCodeHash
	if !ok || h == "" {
		return nil
	}
	hash := common.HexToHash(h)
	var out []Address
	for _, x := range familyTokens(c, a) {
		for _, y := range familyTokens(c, b) {
			if x == y {
				continue
			}
			t0, t1 := x, y
			if strings.Compare(t0.String(), t1.String()) > 0 {
				t0, t1 = t1, t0
			}
			var salt [96]byte
			copy(salt[12:32], t0[:])
			copy(salt[44:64], t1[:])
			binary.BigEndian.PutUint32(salt[92:], fee)
			pool := crypto.CreateAddress2(common.Address(factory), crypto.Keccak256Hash(salt[:]), hash[:])
			out = append(out, Address(pool))
		}
	}
	return out
}

// familyTokens returns the addresses of chain c's tokens of sym's family.
func familyTokens(c *addrbook.Chain, sym string) []Address {
	fam := family(sym)
	var out []Address
	for _, t := range c.Tokens {
		if family(t.Symbol) == fam || t.WrappedNative && strings.EqualFold(sym, c.NativeSymbol) {
			out = append(out, Address(t.Address))
		}
	}
	return out
}
