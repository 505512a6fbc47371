package relay

import "fmt"

// Kind is what a relay message carries. The zero Kind is invalid: a message
// of an unknown kind is refused on publish and dropped on receipt.
type Kind uint8

const (
	kindInvalid Kind = iota
	// KindFilter is a Bloom or SimHash filter of known-bad content: opaque
	// filter bytes, never the content itself.
	KindFilter
	// KindSignature is an immune signature.
	KindSignature
	// KindEntry is a clade entry shared for validation.
	KindEntry
	// KindVerdict is a member's verdict on a shared entry.
	KindVerdict
	// KindReport is a rollback or blacklist report about a source.
	KindReport
	// KindMember is the relay's own membership announcement. Its body is
	// empty: the envelope (address, clade, time) is the announcement.
	KindMember
	kindEnd
)

var kindNames = [...]string{
	kindInvalid:   "invalid",
	KindFilter:    "filter",
	KindSignature: "signature",
	KindEntry:     "entry",
	KindVerdict:   "verdict",
	KindReport:    "report",
	KindMember:    "member",
}

// Valid reports whether k is one of the kinds the relay carries.
func (k Kind) Valid() bool { return k > kindInvalid && k < kindEnd }

// String returns the kind's subject token ("filter", "entry", ...).
func (k Kind) String() string {
	if !k.Valid() {
		return fmt.Sprintf("kind(%d)", uint8(k))
	}
	return kindNames[k]
}

// MarshalText encodes a valid kind as its name.
func (k Kind) MarshalText() ([]byte, error) {
	if !k.Valid() {
		return nil, fmt.Errorf("relay: invalid kind %d", uint8(k))
	}
	return []byte(kindNames[k]), nil
}

// UnmarshalText decodes a kind name; an unknown name is an error.
func (k *Kind) UnmarshalText(b []byte) error {
	got, ok := ParseKind(string(b))
	if !ok {
		return fmt.Errorf("relay: unknown kind %q", b)
	}
	*k = got
	return nil
}

// ParseKind returns the kind named s.
func ParseKind(s string) (Kind, bool) {
	for k := KindFilter; k < kindEnd; k++ {
		if kindNames[k] == s {
			return k, true
		}
	}
	return kindInvalid, false
}

// Cause is why a received message was dropped.
type Cause uint8

const (
	// CauseMalformed: the envelope does not decode strictly (bad magic,
	// version, lengths, trailing bytes, non-canonical signature).
	CauseMalformed Cause = iota
	// CauseOversized: the raw message exceeds the envelope bound.
	CauseOversized
	// CauseKind: the kind is not one the relay carries, or the kind's body
	// rule is broken (a member announcement with a body).
	CauseKind
	// CauseForged: the signature does not recover the claimed sender.
	CauseForged
	// CauseMember: the sender is not a current member.
	CauseMember
	// CauseClade: the envelope's clade, scope or kind does not match the
	// subject it arrived on, or is not this member's clade.
	CauseClade
	// CauseTime: the message is dated beyond the skew window in the future
	// or older than the stream's retention.
	CauseTime
	// CauseReplay: the sender's sequence number was accepted before.
	CauseReplay
	// CauseHandler: the subscriber's handler failed on every delivery up to
	// MaxDeliver; the message was terminated.
	CauseHandler
	causeEnd
)

var causeNames = [...]string{
	CauseMalformed: "malformed",
	CauseOversized: "oversized",
	CauseKind:      "kind",
	CauseForged:    "forged",
	CauseMember:    "member",
	CauseClade:     "clade",
	CauseTime:      "time",
	CauseReplay:    "replay",
	CauseHandler:   "handler",
}

// String returns the cause's stable name.
func (c Cause) String() string {
	if c >= causeEnd {
		return fmt.Sprintf("cause(%d)", uint8(c))
	}
	return causeNames[c]
}

// MarshalText encodes the cause's stable name, so Stats marshals to JSON
// with readable keys.
func (c Cause) MarshalText() ([]byte, error) {
	if c >= causeEnd {
		return nil, fmt.Errorf("relay: invalid cause %d", uint8(c))
	}
	return []byte(causeNames[c]), nil
}
