// Package trust tracks where the values in an agent's tool calls came from,
// so that a session which has read third-party content can still make
// state-changing calls whose security-relevant arguments the owner supplied.
//
// The contract:
//
//   - A [Ledger] records, per session, the text of the owner's directive, the
//     owner's address book and every tool output, each as a [Source] of some
//     [SourceKind]. [Ledger.Lookup] answers for an argument value where it
//     came from: [Trusted] if a trusted source (directive, address book, the
//     output of a tool that does not produce third-party content, or an
//     output a judge promoted) contains it, otherwise [Untrusted] if an
//     untrusted output contains it, otherwise [Unknown] (the model made it up
//     or derived it). Matching normalises both sides (NFKC, case folding,
//     whitespace), compares numbers by value ("98.70" is 98.7, "1,000" is
//     1000, but a date or a version is not a number), compares strings at
//     token boundaries ("app" is not in "Apple"), strings shorter than three
//     runes only as whole tokens, and long digit-bearing strings also with
//     whitespace removed (a spaced IBAN is its unspaced form). The answer is
//     symmetric: reformatting a value copied from an untrusted page does not
//     make it Trusted.
//   - The ledger's memory is bounded. When it is over its limit the oldest
//     observations are dropped: an answer can then turn from Trusted or
//     Untrusted into Unknown, never into Trusted, and [Evidence.Incomplete]
//     says that an Unknown may hide a dropped untrusted source.
//   - [Classify] gives a tool parameter a [Role] from its name, description
//     and JSON type; [Role.Sensitive] roles need trusted provenance in a
//     tainted session and [Role.Critical] ones (destinations, credentials)
//     must be Trusted for the judge to approve.
//   - [Detect] is a prompt-injection heuristic: it reports instruction-like
//     text (overrides of earlier instructions, text addressed to an AI, task
//     hijacking, chat role markup, requests to call tools, hidden
//     characters), also inside base64, hex, %- and HTML-encoded text and in
//     several languages. The ledger runs it on every observation.
//   - A [Checker] reviews a quarantined call or a withheld output as a
//     [Case] and returns a [Verdict]. [RulesReviewer] (advisory) and
//     [RulesJudge] (authoritative) are deterministic; [NewLLM] asks an
//     OpenAI-compatible model and fails closed.
//
// Classify's vocabulary (plurals and common abbreviations included). The
// name is split into words on '_', '-', '.', spaces, camelCase and digits
// after letters; the last word is the head noun and is classified first:
//
//	credential   password passphrase secret token mnemonic pin otp credential(s),
//	             api/private/secret/access key, seed/recovery phrase,
//	             verification/auth/security code
//	destination  recipient(s) to cc bcc receiver payee beneficiary spender operator
//	             delegate address iban account wallet email(s) url uri link endpoint
//	             host domain webhook phone user(s) member participant(s) invitee
//	             attendee channel owner target destination counterparty contract
//	selector     id ids key index uuid handle file path filename folder slug ref hash
//	content      subject body message content text description note(s) title memo
//	             comment reason summary query prompt caption question answer
//	quantity     amount value quantity qty count n limit size price fee percent
//	             slippage decimals gas total rate balance
//	time         date time day start end deadline timestamp when at duration expiry
//	             until since year month week hour minute
//
// A boolean parameter is a Flag. A head noun of content, quantity or time
// decides ("email_subject" is Content, "recipient_count" a Quantity). A
// sensitive head noun is raised by a more sensitive modifier in the order
// Credential > Destination > Selector ("recipient_id" is a Destination,
// "file_id" a Selector). An unrecognised head noun takes the most sensitive
// modifier, else the nearest non-sensitive one ("recipient_name" is a
// Destination, "first_name" stays Other). "to", "at" and "n" count only as
// the head noun, and "token" is a credential only as the head noun
// ("token_address" is a Destination). Only when the name gives Other is the
// description read, and then only for credential, destination and selector
// words other than the ambiguous ones (to, at, user, owner, target...): a
// description can make a parameter more sensitive, never less, since it may
// come from a third-party tool server. A number or integer that is still
// Other is a Quantity. Everything else is Other, which is sensitive: an
// unrecognised string is treated as security-relevant.
package trust

import (
	"fmt"
	"strconv"
)

// Level is a session's taint level. The zero Level is Clean.
type Level uint8

// The levels: Clean has read no third-party content, Tainted has, and Review
// has had a call quarantined for review.
const (
	Clean Level = iota
	Tainted
	Review
	numLevels
)

var levelNames = [numLevels]string{Clean: "clean", Tainted: "tainted", Review: "review"}

// String returns the level's name, or "Level(N)" for a value outside the set.
func (l Level) String() string {
	if l < numLevels {
		return levelNames[l]
	}
	return "Level(" + strconv.Itoa(int(l)) + ")"
}

// MarshalText encodes the level as its name.
func (l Level) MarshalText() ([]byte, error) {
	if l >= numLevels {
		return nil, fmt.Errorf("trust: marshal level %d: out of range", l)
	}
	return []byte(l.String()), nil
}

// UnmarshalText decodes a level name.
func (l *Level) UnmarshalText(b []byte) error {
	v, err := ParseLevel(string(b))
	if err != nil {
		return err
	}
	*l = v
	return nil
}

// ParseLevel returns the level with the given name.
func ParseLevel(s string) (Level, error) {
	for i, n := range levelNames {
		if n == s {
			return Level(i), nil
		}
	}
	return 0, fmt.Errorf("trust: unknown level %q", s)
}

// Origin is where an argument value came from, ordered from worst to best:
// a smaller Origin is less trusted, so the worst of several is their minimum.
type Origin uint8

// The origins. Trusted: found in at least one trusted source. Untrusted:
// found only in untrusted sources. Unknown: found nowhere (model-generated
// or derived).
const (
	Untrusted Origin = iota
	Unknown
	Trusted
	numOrigins
)

var originNames = [numOrigins]string{Untrusted: "untrusted", Unknown: "unknown", Trusted: "trusted"}

// String returns the origin's name, or "Origin(N)" for a value outside the set.
func (o Origin) String() string {
	if o < numOrigins {
		return originNames[o]
	}
	return "Origin(" + strconv.Itoa(int(o)) + ")"
}

// MarshalText encodes the origin as its name.
func (o Origin) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText decodes an origin name.
func (o *Origin) UnmarshalText(b []byte) error { return unmarshalName(o, originNames[:], "origin", b) }

// SourceKind says what kind of text a Source is, and so whether it is trusted.
type SourceKind uint8

// The source kinds. Promoted is a third-party output that a judge approved;
// it counts as trusted.
const (
	Directive SourceKind = iota
	AddressBook
	TrustedOutput
	UntrustedOutput
	Promoted
	numKinds
)

var kindNames = [numKinds]string{
	Directive:       "directive",
	AddressBook:     "address_book",
	TrustedOutput:   "trusted_output",
	UntrustedOutput: "untrusted_output",
	Promoted:        "promoted",
}

// String returns the kind's name, or "SourceKind(N)" for a value outside the set.
func (k SourceKind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return "SourceKind(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText encodes the kind as its name.
func (k SourceKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText decodes a source kind name.
func (k *SourceKind) UnmarshalText(b []byte) error {
	return unmarshalName(k, kindNames[:], "source kind", b)
}

// unmarshalName sets *v to the index of b in names.
func unmarshalName[T ~uint8](v *T, names []string, what string, b []byte) error {
	for i, n := range names {
		if n == string(b) {
			*v = T(i)
			return nil
		}
	}
	return fmt.Errorf("trust: unknown %s %q", what, b)
}

// Trusted reports whether text of this kind is trusted. A kind outside the
// declared set is not.
func (k SourceKind) Trusted() bool {
	switch k {
	case Directive, AddressBook, TrustedOutput, Promoted:
		return true
	}
	return false
}

// Source is one observed text: a directive, an address book or a tool output.
type Source struct {
	Kind SourceKind `json:"kind"`
	// Ref names the source for people, e.g. "directive", "call:3 get_balance"
	// or "output:<key>".
	Ref string `json:"ref"`
	// Instructions lists the instruction-like signals Detect found in this
	// source's text (set by Observe).
	Instructions []string `json:"instructions,omitempty"`
}

// maxEvidence bounds Evidence.Sources.
const maxEvidence = 8

// Evidence is the answer to where a value came from.
type Evidence struct {
	Origin Origin `json:"origin"`
	// Sources are the sources that decided Origin, oldest first, at most 8:
	// the trusted sources that contain the value if it is Trusted, the
	// untrusted ones if it is Untrusted, none if it is Unknown.
	Sources []Source `json:"sources,omitempty"`
	// Incomplete is set when the ledger has dropped untrusted text to stay
	// within its memory limit, so an Unknown answer may hide an Untrusted one.
	Incomplete bool `json:"incomplete,omitempty"`
}

// Instructions reports whether any of e's sources has instruction-like text.
func (e Evidence) Instructions() bool {
	for _, s := range e.Sources {
		if len(s.Instructions) > 0 {
			return true
		}
	}
	return false
}
