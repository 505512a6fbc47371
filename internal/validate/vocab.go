package validate

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/wardhq/ward/internal/addrbook"
	"github.com/wardhq/ward/internal/sieve"
)

// Domain terms: the gated-relaxation model (GatedRelaxation) reads a code
// or an acronym as a sender's arbitrary token, but a term of the domain's
// own vocabulary names an observable (TVL, APR, LTV), an asset (USDC) or a
// standard (ERC-4337, EIP-55), which no sender invents. The vocabulary is
// derived from ward's shipped data only, never from an entry: the
// acronyms the shipped mental models are written with, the token symbols
// of the shipped address book, and standards' numbers. A term
// with anything added ("TVL-7", "USDC-FAST", "ECDSA-ACK") is not the term:
// it stays a code.

// reVocabAcronym is an acronym or ticker as the models write it: capitals
// and digits, starting with a capital ("TWAP", "LLTV", "V3", "WETH9").
var reVocabAcronym = sieve.MustCompile(`\b[A-Z][A-Z0-9]{1,7}\b`)

// reStandardName is a standard's number: "ERC-4337", "EIP-55", "BIP39".
var reStandardName = sieve.MustCompile(`^(?:EIP|ERC|BIP|RFC)-?\d{1,5}$`)

var domainVocab = sync.OnceValue(func() map[string]bool {
	v := make(map[string]bool)
	if ms, err := ShippedModels(); err == nil {
		for _, m := range ms {
			for _, s := range append([]string{m.Statement, m.Subject, m.Object}, m.Conditions...) {
				for _, t := range reVocabAcronym.FindAllString(s, -1) {
					v[t] = true
				}
			}
		}
	}
	for _, c := range addrbook.Shipped().Chains {
		v[strings.ToUpper(c.NativeSymbol)] = true
		for _, t := range c.Tokens {
			v[strings.ToUpper(t.Symbol)] = true
		}
	}
	delete(v, "")
	return v
})

// domainTerm reports whether tok, a code or acronym read as a gate (with
// its surrounding punctuation), is wholly a term of the domain vocabulary
// or a standard's name: "TVL", "USDC,", "ERC-4337", "LTV/LLTV", "DEX-"
// (the prefix of a selector names no token by itself).
func domainTerm(tok string) bool {
	tok = strings.TrimFunc(tok, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if tok == "" {
		return false
	}
	if reStandardName.MatchString(tok) {
		return true
	}
	for _, part := range strings.Split(tok, "/") {
		if !domainVocab()[part] {
			return false
		}
	}
	return true
}

// continued reports whether rest, the text after a matched code that ends
// without a delimiter, carries
// the code on ("-ALLOW", "_v2", "7"): the match is then only its prefix.
func continued(code, rest string) bool {
	if l, _ := utf8.DecodeLastRuneInString(code); l != '-' && !unicode.IsLetter(l) && !unicode.IsDigit(l) {
		return false // the match ends at its own delimiter
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}
