// Package taint holds sensitive values as [String]s that carry labels and
// refuse to flow to a [Sink] their labels forbid.
//
// Wallet keys, API keys and owner tokens are held only as *String. The
// contract:
//
//   - [String.Reveal] returns the value only if no label forbids the sink;
//     otherwise it fails with [ErrForbidden]. [String.Use] lends the bytes to a
//     callback for in-process use (signing) whatever the labels, since nothing
//     leaves the process.
//   - Every other way out redacts: String, GoString, fmt (every verb and flag),
//     encoding.TextMarshaler, json.Marshaler and slog.LogValuer all yield
//     "[redacted:LABELS]", so an error built with fmt.Errorf or errors.Join that
//     mentions a *String never shows the value. A String copied by value (which
//     go vet flags through its noCopy field) prints only a pointer and marshals
//     to {}.
//   - Decoding refuses: UnmarshalJSON and UnmarshalText fail with [ErrDecode].
//     A field of type *String names a trusted secret (a wallet key, an owner
//     token); letting untrusted JSON fill it, even labelled UntrustedExternal,
//     would let the sender plant the value a trusted holder expects. Input from
//     outside is wrapped explicitly with New(raw, UntrustedExternal).
//   - [String.Release] zeroes the bytes; later Reveal and Use fail with
//     [ErrReleased]. A String that becomes unreachable is released by a runtime
//     cleanup as a backstop. The zero String and a nil *String behave as
//     released. New copies its argument: the caller's Go string cannot be
//     zeroed, and neither can a string returned by Reveal, so keys should be
//     built with [FromBytes] and used through Use.
//   - Combining keeps the labels: [Concat] and [Format] return a new String
//     whose labels are the union of their *String inputs; if any input has
//     been released the result is released too.
//
// The flow table ([Labels.Forbidden]) is data, one row per sink. Rows for
// LLM context, event stream and relay come from the seed's can_flow_to:
//
//	LLMContext   forbids WalletSecret, OwnerSecret
//	EventStream  forbids WalletSecret
//	Relay        forbids WalletSecret, OwnerSecret, StrategyConfidential, UserPII
//	Audit        forbids WalletSecret, OwnerSecret
//	Logs         forbids WalletSecret, OwnerSecret, UserPII
//
// Relay (the seed's Styx/Lethe: other agents) also forbids OwnerSecret: the
// seed's code omits it but its label comment says "never to LLM context or
// Styx", and the stricter reading wins. Audit records that a secret was used,
// never its value. Logs forbid UserPII as well because logs are kept longer
// and read more widely than the audit trail. UntrustedExternal forbids no sink
// by itself: it records provenance, which the gate acts on, and is carried
// through Concat and Format. A label or sink outside the declared set forbids
// every flow.
package taint

import (
	"strings"
)

// Label is a reason a value is sensitive. The zero Label is WalletSecret, the
// most restrictive one.
type Label uint8

// The labels. WalletSecret never leaves the process.
const (
	WalletSecret Label = iota
	OwnerSecret
	StrategyConfidential
	UserPII
	UntrustedExternal
	numLabels
)

var labelNames = [numLabels]string{
	WalletSecret:         "wallet-secret",
	OwnerSecret:          "owner-secret",
	StrategyConfidential: "strategy-confidential",
	UserPII:              "user-pii",
	UntrustedExternal:    "untrusted-external",
}

// String returns the label's name, or "unknown" for a value outside the set.
func (l Label) String() string {
	if l < numLabels {
		return labelNames[l]
	}
	return "unknown"
}

// MarshalText encodes the label as its name.
func (l Label) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// Labels is a set of labels. The zero Labels is empty.
type Labels uint8

// unknownBit records a Label outside the declared set; every sink forbids it.
const unknownBit Labels = 1 << 7

func bit(l Label) Labels {
	if l < numLabels {
		return 1 << l
	}
	return unknownBit
}

// Has reports whether l is in the set.
func (ls Labels) Has(l Label) bool { return ls&bit(l) != 0 }

// With returns the set with l added. A label outside the declared set is
// recorded as unknown, which forbids every sink.
func (ls Labels) With(l ...Label) Labels {
	for _, x := range l {
		ls |= bit(x)
	}
	return ls
}

// Union returns the labels in either set.
func (ls Labels) Union(o Labels) Labels { return ls | o }

// String returns the label names joined by commas, or "none".
func (ls Labels) String() string {
	if ls == 0 {
		return "none"
	}
	var names []string
	for l := range numLabels {
		if ls.Has(l) {
			names = append(names, l.String())
		}
	}
	if ls&unknownBit != 0 {
		names = append(names, "unknown")
	}
	return strings.Join(names, ",")
}

// MarshalText encodes the set as its String form.
func (ls Labels) MarshalText() ([]byte, error) { return []byte(ls.String()), nil }

// Sink is a place a value may flow to outside the process's own use.
type Sink uint8

// The sinks.
const (
	LLMContext  Sink = iota // the model's context window
	EventStream             // the event fabric seen by dashboards and subscribers
	Relay                   // other agents (Styx/Lethe)
	Audit                   // the audit trail
	Logs                    // process logs
	numSinks
)

var sinkNames = [numSinks]string{
	LLMContext:  "llm-context",
	EventStream: "event-stream",
	Relay:       "relay",
	Audit:       "audit",
	Logs:        "logs",
}

// String returns the sink's name, or "unknown" for a value outside the set.
func (s Sink) String() string {
	if s < numSinks {
		return sinkNames[s]
	}
	return "unknown"
}

// MarshalText encodes the sink as its name.
func (s Sink) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// forbid is the flow table: the labels each sink refuses. The package comment
// gives the reason for each row.
var forbid = [numSinks]Labels{
	LLMContext:  Labels(0).With(WalletSecret, OwnerSecret),
	EventStream: Labels(0).With(WalletSecret),
	Relay:       Labels(0).With(WalletSecret, OwnerSecret, StrategyConfidential, UserPII),
	Audit:       Labels(0).With(WalletSecret, OwnerSecret),
	Logs:        Labels(0).With(WalletSecret, OwnerSecret, UserPII),
}

// Forbidden returns the labels in ls that forbid flowing to sink s; an empty
// result means the flow is allowed. An unknown label is forbidden everywhere.
// For a sink outside the declared set every flow is forbidden, reported as
// all of ls (or unknown if ls is empty).
func (ls Labels) Forbidden(s Sink) Labels {
	if s >= numSinks {
		if ls == 0 {
			return unknownBit
		}
		return ls
	}
	return ls & (forbid[s] | unknownBit)
}

// Allows reports whether a value labelled ls may flow to s.
func (ls Labels) Allows(s Sink) bool { return ls.Forbidden(s) == 0 }
