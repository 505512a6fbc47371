package validate

import (
	"encoding/hex"
	"regexp"
	"strings"

	"github.com/ethereum/go-ethereum/crypto"
)

// SelectorClaim is a function selector or event topic an entry states for
// a Solidity signature ("the transfer(address,uint256) selector is
// 0xa9059cbb"). It is verifiable without a chain: the selector is the
// first four bytes of the Keccak-256 of the canonical signature, an
// event's topic all 32.
type SelectorClaim struct {
	Signature string // canonical: no spaces, uint → uint256, int → int256
	Stated    []byte // 4 bytes (selector) or 32 (event topic)
}

// Actual returns what Stated should be: the first len(Stated) bytes of
// the signature's Keccak-256.
func (c SelectorClaim) Actual() []byte {
	h := crypto.Keccak256([]byte(c.Signature))
	return h[:len(c.Stated)]
}

// Holds reports whether the stated selector or topic is the signature's.
func (c SelectorClaim) Holds() bool { return string(c.Stated) == string(c.Actual()) }

// What names what was stated: "selector" or "event topic".
func (c SelectorClaim) What() string {
	if len(c.Stated) == 32 {
		return "event topic"
	}
	return "selector"
}

// Solidity signatures of elementary and array types, and 4- or 32-byte
// hex values that stand alone (not the prefix of a longer hex string).
var (
	reSignature = regexp.MustCompile(`\b[A-Za-z_][A-Za-z0-9_]{0,63}\(\s*(?:(?:address|bool|string|bytes[0-9]{0,2}|u?int[0-9]{0,3}|tuple)(?:\[[0-9]*\])*(?:\s*,\s*(?:address|bool|string|bytes[0-9]{0,2}|u?int[0-9]{0,3}|tuple)(?:\[[0-9]*\])*)*)?\s*\)`)
	reHexValue  = regexp.MustCompile(`\b0[xX](?:[0-9a-fA-F]{64}|[0-9a-fA-F]{8})\b`)
	reIntType   = regexp.MustCompile(`\b(u?int)\b`)
)

// selectorCues are words that make a hex value near a signature its
// selector or topic; without one, only a value written right next to the
// signature ("transfer(address,uint256) = 0xa9059cbb") is read as one.
var selectorCues = []string{"selector", "sighash", "function id", "function signature", "4-byte", "4 byte", "four byte",
	"four-byte", "topic", "method id", "keccak", "signature hash"}

// negationCues: a sentence that denies ("is not", "isn't") states no claim
// this check can hold against it.
var negationCues = []string{" not ", "n't ", " never ", " no longer "}

// maxSelectorGap is the most text between a signature and its value.
const maxSelectorGap = 48

// ExtractSelectors returns the selector and topic claims stated in text:
// per sentence, each signature paired with the nearest stand-alone 4- or
// 32-byte hex value that no other signature is nearer to, within
// maxSelectorGap bytes and with a selector cue in the sentence or only
// punctuation and "is" between them. Sentences with a negation are
// skipped. At most MaxVerifiable claims are returned.
func ExtractSelectors(text string) []SelectorClaim {
	var out []SelectorClaim
	for _, s := range splitSentences(text) {
		lower := " " + strings.ToLower(s) + " "
		if containsAny(lower, negationCues) {
			continue
		}
		sigs := reSignature.FindAllStringIndex(s, -1)
		vals := reHexValue.FindAllStringIndex(s, -1)
		if len(sigs) == 0 || len(vals) == 0 {
			continue
		}
		cued := containsAny(lower, selectorCues)
		used := make([]bool, len(vals))
		for _, sg := range sigs {
			best, gap := -1, maxSelectorGap+1
			for j, v := range vals {
				if used[j] {
					continue
				}
				g := distance(sg, v)
				if g < gap && (cued || adjacent(s, sg, v)) {
					best, gap = j, g
				}
			}
			if best < 0 {
				continue
			}
			used[best] = true
			b, err := hex.DecodeString(s[vals[best][0]+2 : vals[best][1]])
			if err != nil {
				continue
			}
			out = append(out, SelectorClaim{Signature: canonicalSignature(s[sg[0]:sg[1]]), Stated: b})
			if len(out) == MaxVerifiable {
				return out
			}
		}
	}
	return out
}

// canonicalSignature strips spaces and widens the int aliases.
func canonicalSignature(sig string) string {
	sig = strings.Join(strings.Fields(sig), "")
	return reIntType.ReplaceAllString(sig, "${1}256")
}

// distance is the number of bytes between two non-overlapping spans.
func distance(a, b []int) int {
	if a[1] <= b[0] {
		return b[0] - a[1]
	}
	if b[1] <= a[0] {
		return a[0] - b[1]
	}
	return 0
}

// adjacent reports whether only punctuation, space and "is" stand
// between the spans a and b of s.
func adjacent(s string, a, b []int) bool {
	lo, hi := a[1], b[0]
	if b[1] <= a[0] {
		lo, hi = b[1], a[0]
	}
	if hi < lo {
		return false
	}
	gap := strings.ToLower(s[lo:hi])
	gap = strings.ReplaceAll(gap, " is ", " ")
	return strings.Trim(gap, " \t:=→->()[]`'\",") == ""
}
