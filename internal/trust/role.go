package trust

import (
	"strconv"
	"strings"
	"unicode"
)

// Role is what a tool parameter is for, as far as provenance matters. The
// zero Role is Other, which is sensitive.
type Role uint8

// The roles. See the package comment for the vocabulary Classify uses.
const (
	Other       Role = iota // unrecognised: treated as security-relevant
	Destination             // where money, data or access goes
	Credential              // a secret
	Selector                // which object the call acts on
	Content                 // free text the call carries
	Quantity                // an amount or count
	Time                    // a date, time or duration
	Flag                    // a boolean
	numRoles
)

var roleNames = [numRoles]string{
	Other:       "other",
	Destination: "destination",
	Credential:  "credential",
	Selector:    "selector",
	Content:     "content",
	Quantity:    "quantity",
	Time:        "time",
	Flag:        "flag",
}

// String returns the role's name, or "Role(N)" for a value outside the set.
func (r Role) String() string {
	if r < numRoles {
		return roleNames[r]
	}
	return "Role(" + strconv.Itoa(int(r)) + ")"
}

// MarshalText encodes the role as its name.
func (r Role) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText decodes a role name.
func (r *Role) UnmarshalText(b []byte) error { return unmarshalName(r, roleNames[:], "role", b) }

// Sensitive reports whether a value in this role needs trusted provenance in
// a tainted session: Other, Destination, Credential and Selector (and any
// value outside the declared set) are sensitive.
func (r Role) Sensitive() bool {
	switch r {
	case Content, Quantity, Time, Flag:
		return false
	}
	return true
}

// Critical reports whether the judge requires a value in this role to be
// Trusted: Destination, Credential and Other (a value ward cannot place,
// and any value outside the declared set).
func (r Role) Critical() bool {
	switch r {
	case Selector, Content, Quantity, Time, Flag:
		return false
	}
	return true
}

// For returns the role a parameter plays in a call that changes state
// (changes) or sends data out (sends). In such a call an unclassified
// parameter is a Destination: a value ward cannot place may be where the
// call sends money, data or access ("to_number", "chat_id" and
// "recipient_handle" are addresses whatever their words say). In a call
// that sends data out, a Selector is a Destination too: which chat,
// channel or thread the call acts on is where the data goes. Otherwise r.
func (r Role) For(changes, sends bool) Role {
	switch {
	case r == Other && (changes || sends), r == Selector && sends, r >= numRoles:
		return Destination
	}
	return r
}

// rank orders the sensitive roles for "the most sensitive wins".
func (r Role) rank() int {
	switch r {
	case Credential:
		return 3
	case Destination:
		return 2
	case Selector:
		return 1
	}
	return 0
}

// wordRoles is the vocabulary: see the package comment.
var wordRoles = vocabulary(map[Role]string{
	Credential: "password passwords passwd passphrase secret secrets token tokens mnemonic pin otp totp credential " +
		"credentials apikey",
	Destination: "recipient recipients to cc bcc receiver receivers payee payees beneficiary beneficiaries spender operator " +
		"delegate delegatee address addresses addr iban account accounts wallet wallets email emails url urls uri link links " +
		"endpoint host hostname domain webhook phone user users username member members participant participants invitee " +
		"invitees attendee attendees channel channels owner target destination dest dst counterparty contract",
	Selector: "id ids key keys index idx uuid guid handle file files path paths filename filenames filepath folder directory " +
		"slug ref hash",
	Content: "subject body message messages content contents text description desc note notes title memo comment comments " +
		"reason summary query prompt caption question answer",
	Quantity: "amount amounts value values quantity qty count n limit size price fee fees percent percentage slippage " +
		"decimals gas total rate balance",
	Time: "date dates time times day start end deadline timestamp when at duration expiry expiration until since year " +
		"month week hour minute datetime",
})

func vocabulary(words map[Role]string) map[string]Role {
	out := map[string]Role{}
	for role, ws := range words {
		for _, w := range strings.Fields(ws) {
			out[w] = role
		}
	}
	return out
}

// Words that only count as the head noun: elsewhere they are prepositions
// ("amount_to_send", "time_at_start") or mean a crypto token ("token_id").
var headOnly = map[string]bool{"to": true, "at": true, "n": true, "token": true, "tokens": true}

// Words that make a following "key", "phrase" or "code" a credential.
var (
	secretKey    = map[string]bool{"api": true, "private": true, "secret": true, "access": true, "signing": true, "encryption": true, "ssh": true, "auth": true, "master": true}
	secretPhrase = map[string]bool{"seed": true, "recovery": true, "secret": true, "pass": true, "mnemonic": true}
	secretCode   = map[string]bool{"verification": true, "auth": true, "otp": true, "2fa": true, "mfa": true, "security": true, "pin": true, "access": true, "confirmation": true}
)

// Words a description may use loosely, which therefore do not count there.
var weakInDescription = map[string]bool{
	"to": true, "at": true, "n": true, "user": true, "users": true, "owner": true, "target": true, "member": true,
	"members": true, "token": true, "tokens": true, "key": true, "keys": true, "handle": true, "ref": true, "index": true,
	"operator": true, "delegate": true, "contract": true,
}

// Classify returns the role of a tool parameter from its name, description
// and JSON type ("string", "number", "integer", "boolean", "array",
// "object"), using the vocabulary and rules in the package comment.
func Classify(name, description, jsonType string) Role {
	jsonType = strings.ToLower(strings.TrimSpace(jsonType))
	if jsonType == "boolean" {
		return Flag
	}
	r := nameRole(words(name))
	if r == Other && description != "" {
		r = descriptionRole(words(description))
	}
	if r == Other && (jsonType == "number" || jsonType == "integer") {
		r = Quantity
	}
	return r
}

// wordRole returns the role of ws[i] (Other for none), reading a compound
// with the word before it.
func wordRole(ws []string, i int, head bool) Role {
	w, prev := ws[i], ""
	if i > 0 {
		prev = ws[i-1]
	}
	switch w {
	case "key", "keys":
		if secretKey[prev] {
			return Credential
		}
	case "phrase", "words":
		if secretPhrase[prev] {
			return Credential
		}
		return Other
	case "code", "codes":
		if secretCode[prev] || prev == "time" && i > 1 && ws[i-2] == "one" {
			return Credential
		}
		return Other
	}
	if !head && headOnly[w] {
		return Other
	}
	return wordRoles[w]
}

// nameRole classifies a parameter name's words: the head noun first, then
// its modifiers (see the package comment).
func nameRole(ws []string) Role {
	if len(ws) == 0 {
		return Other
	}
	last := len(ws) - 1
	h := wordRole(ws, last, true)
	switch h {
	case Content, Quantity, Time:
		return h
	case Credential, Destination, Selector:
		for i := range last {
			if m := wordRole(ws, i, false); m.rank() > h.rank() {
				h = m
			}
		}
		return h
	}
	best := Other
	for i := range last {
		if m := wordRole(ws, i, false); m.rank() > best.rank() {
			best = m
		}
	}
	if best != Other {
		return best
	}
	for i := last - 1; i >= 0; i-- {
		if m := wordRole(ws, i, false); m != Other {
			return m
		}
	}
	return Other
}

// descriptionRole returns the most sensitive credential, destination or
// selector word of a description, or Other: a description never makes a
// parameter less sensitive.
func descriptionRole(ws []string) Role {
	best := Other
	for i, w := range ws {
		if weakInDescription[w] && wordRole(ws, i, true) != Credential {
			continue
		}
		if m := wordRole(ws, i, true); m.rank() > best.rank() {
			best = m
		}
	}
	return best
}

// words splits s into lower-case words at non-alphanumeric characters,
// camelCase humps ("userEmail", "APIKey") and before digits that follow a
// letter ("address2"), and drops words without a letter.
func words(s string) []string {
	var (
		out []string
		cur []rune
	)
	flush := func() {
		if len(cur) > 0 && strings.ContainsFunc(string(cur), unicode.IsLetter) {
			out = append(out, strings.ToLower(string(cur)))
		}
		cur = cur[:0]
	}
	rs := []rune(s)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if len(cur) > 0 {
			p := cur[len(cur)-1]
			switch {
			case unicode.IsUpper(r) && (unicode.IsLower(p) || unicode.IsDigit(p)):
				flush()
			case unicode.IsUpper(r) && unicode.IsUpper(p) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
				flush()
			case unicode.IsDigit(r) && !unicode.IsDigit(p):
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return out
}
