package validate

import (
	"strings"
)

// Proximity binding (bind) leaves an address unnamed when other words
// stand between it and its name: an appositive ("GHO, Aave's stablecoin,
// has the contract 0x…"), a sentence in another language ("l'adresse du
// Universal Router est 0x…"), or a name in the next clause ("use 0x… there;
// it is native USDC on Arbitrum"). An entry that gives one address and
// names one token or one contract is still saying the address is that
// thing, and the book can check it.
//
// looseBind names the entry's only address after the entry's only named
// token or specific contract, when nothing else in the entry could be the
// address: no warning anywhere (an entry about a scam address names the
// real token beside it), no second address, no second name, and no word
// for another kind of holder (a vault, pool, wallet ...) in the address's
// clause. The book then judges the loose claim more narrowly than a bound
// one (see looseIdentity).
func looseBind(text string, ids []Identity) (Identity, bool) {
	if len(ids) == 0 {
		return Identity{}, false
	}
	first := ids[0]
	for _, id := range ids[1:] {
		if id.Address != first.Address {
			return Identity{}, false
		}
	}
	for _, id := range ids {
		if id.Warned || id.Symbol != "" || len(id.Roles) > 0 || id.Feed || id.Migrated {
			return Identity{}, false // bound (the proximity binding decides), or a warning
		}
	}
	cw := split(first.Clause)
	for i, w := range cw {
		if holderWords[w.lower] {
			return Identity{}, false
		}
		if i+1 < len(cw) && recipientWords[w.lower] && strings.EqualFold(cw[i+1].text, first.Written) {
			return Identity{}, false // "send it to 0x…": a recipient
		}
	}
	for _, c := range clauses(text) {
		if first.Start < c.off || first.Start >= c.off+len(c.text) {
			continue
		}
		venue := false
		for j, w := range c.words {
			if j+1 < len(c.words) && c.words[j+1].kind == wordAddress && venueWords[w.lower] {
				venue = true
			}
		}
		for j, w := range c.words {
			if venue && w.kind == wordSymbol && acted(c.words, j) {
				return Identity{}, false // "swap USDC at 0x…": a venue, as bind reads it
			}
		}
	}
	ws := classify(text)
	var sym string
	var role *word
	for i := range ws {
		w := &ws[i]
		switch {
		case strongWarn[w.lower] || warnWords[w.lower] && !negationOnly[w.lower]:
			return Identity{}, false
		case w.kind == wordSymbol && !stopSymbol(w.text):
			// Two tokens, or two issues of one ("native USDC is 0x…;
			// USDC.e is the bridged one"), make the binding ambiguous.
			if sym != "" && (family(sym) != family(w.text) || bridgedSymbol(sym) != bridgedSymbol(w.text)) {
				return Identity{}, false
			}
			sym = w.text
		case w.kind == wordRole && w.last && len(w.roles) == 0 && actionVerbs[w.lower] && sentenceStart(text, w.start):
			// "Bridge USDC to Arbitrum": an imperative, not a contract.
		case w.kind == wordRole && w.last:
			// Any contract name counts, even one the book has no role
			// for: a second name makes the binding ambiguous.
			if role != nil && (!sameRoles(role.roles, w.roles) || len(w.roles) == 0) {
				return Identity{}, false
			}
			role = w
		}
	}
	id := first
	switch {
	case sym != "" && role == nil:
		id.Symbol = sym
	case role != nil && sym == "" && len(role.roles) > 0 && (role.specific || role.onChain):
		id.Roles, id.Specific, id.SpecificOnChain = role.roles, role.specific, role.onChain
		if role.home != 0 {
			id.ChainID = role.home
		}
	default:
		return Identity{}, false
	}
	return id, true
}

// holderWords name something that holds or receives tokens: an address
// next to one is that holder, not the token the entry names.
var holderWords = wordSet("vault vaults pool pools pair pairs market markets wallet wallets account accounts eoa " +
	"recipient receiver treasury multisig safe owner deployer admin strategy gauge farm escrow bot " +
	"position positions lp holder holders whale user users sender")

// recipientWords right before an address make it where tokens go or come
// from.
var recipientWords = wordSet("to from into onto via")

// venueWords right before an address make it where an action on a token
// happens ("swap USDC at 0x…").
var venueWords = wordSet("at on via through in")

// negationOnly are the warnWords that deny without warning ("not the
// bridged USDC.e"): they do not make an entry a warning.
var negationOnly = wordSet("not no dont don't")

func sameRoles(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// looseIdentity judges a loosely bound identity: it contradicts the book
// only where a bound claim could not be read another way: the address is
// unknown to the book (or a look-alike) while the name is one the book is
// complete for, or the book knows the address as the same token or
// contract on another chain or in another issue than the one the entry
// names. An address the book knows as something else is left alone: the
// entry may well name two things ("our eth_call on the Aave pool shows
// USDC utilisation").
func (v *BookVerifier) looseIdentity(id Identity) string {
	ks := v.known[id.Address]
	if len(ks) > 0 {
		same := false
		for _, k := range ks {
			if id.Symbol != "" && k.symbol != "" && family(k.symbol) == family(id.Symbol) {
				same = true
			}
			for _, r := range id.Roles {
				if k.role == r {
					same = true
				}
			}
		}
		if !same {
			return ""
		}
	}
	bad, _ := v.identity(id)
	return bad
}

// sentenceStart reports whether the word at text[i] starts a sentence.
func sentenceStart(text string, i int) bool {
	p := strings.TrimRight(text[:i], " \t")
	return p == "" || strings.ContainsAny(p[len(p)-1:], ".;:!?\n")
}
