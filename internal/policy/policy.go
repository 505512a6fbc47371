// Package policy decides whether a tool call may run: allow, quarantine or
// deny, by a prioritised set of rules (seed 003).
//
// Rules run in priority order (lower first; ties keep registration order)
// over the calls their selector matches. The first deny wins and stops
// evaluation; a quarantine stands unless a later rule denies; a rule that
// returns an error, panics or returns an invalid result denies the call
// (fail closed) with a diagnostic. With no objection the call is allowed.
//
// A Snapshot is an immutable compiled rule set identified by a hash; an
// Engine swaps snapshots atomically on reload. A Decision is a value with
// unexported fields: only a Snapshot makes one, and the only changes anyone
// else can make to it are stricter ones (Decision.Escalate).
//
// Evaluation itself has no side effects. Tracked state (executed spend and
// calls, balance) lives in a Tracker that the caller updates after effects
// happen; holds on the Tracker make admission of concurrent calls atomic.
package policy

import (
	"fmt"
	"strings"
)

// Action is the outcome of a decision. The zero value is Deny.
type Action uint8

// Actions, from strictest to most permissive.
const (
	Deny Action = iota
	Quarantine
	Allow
)

var actionNames = [...]string{Deny: "deny", Quarantine: "quarantine", Allow: "allow"}

// String returns "deny", "quarantine" or "allow".
func (a Action) String() string {
	if int(a) < len(actionNames) {
		return actionNames[a]
	}
	return fmt.Sprintf("Action(%d)", uint8(a))
}

// MarshalText implements encoding.TextMarshaler.
func (a Action) MarshalText() ([]byte, error) {
	if a > Allow {
		return nil, fmt.Errorf("invalid action %d", uint8(a))
	}
	return []byte(a.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (a *Action) UnmarshalText(b []byte) error {
	v, err := ParseAction(string(b))
	if err != nil {
		return err
	}
	*a = v
	return nil
}

// ParseAction parses "allow", "quarantine" or "deny".
func ParseAction(s string) (Action, error) {
	switch s {
	case "allow":
		return Allow, nil
	case "quarantine":
		return Quarantine, nil
	case "deny":
		return Deny, nil
	}
	return Deny, fmt.Errorf("unknown action %q (want allow, quarantine or deny)", s)
}

// stricter reports whether a is stricter than b.
func (a Action) stricter(b Action) bool { return a < b }

// InputSource is where the instruction behind a call came from. The zero
// value is External, the least trusted: unknown sources are external.
type InputSource uint8

// Input sources (seed 003).
const (
	External InputSource = iota
	Peer
	Heartbeat
	System
	Agent
	Creator
)

var sourceNames = [...]string{External: "external", Peer: "peer", Heartbeat: "heartbeat", System: "system", Agent: "agent", Creator: "creator"}

// String returns the source's name.
func (s InputSource) String() string {
	if int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return "external"
}

// MarshalText implements encoding.TextMarshaler.
func (s InputSource) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler; unknown names are
// External.
func (s *InputSource) UnmarshalText(b []byte) error {
	*s = ParseInputSource(string(b))
	return nil
}

// ParseInputSource maps a source name to an InputSource; anything unknown,
// including the empty string, is External.
func ParseInputSource(name string) InputSource {
	for i, n := range sourceNames {
		if strings.EqualFold(n, name) {
			return InputSource(i)
		}
	}
	return External
}

// Authority is the trust level derived from an input source (seed 003).
// The zero value is AuthorityExternal.
type Authority uint8

// Authority levels.
const (
	AuthorityExternal Authority = iota
	AuthorityAgent
	AuthoritySystem
)

var authorityNames = [...]string{AuthorityExternal: "external", AuthorityAgent: "agent", AuthoritySystem: "system"}

// String returns "external", "agent" or "system".
func (a Authority) String() string {
	if int(a) < len(authorityNames) {
		return authorityNames[a]
	}
	return "external"
}

// MarshalText implements encoding.TextMarshaler.
func (a Authority) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// AuthorityOf derives the authority level of a source as the seed does:
// creator and agent act with agent authority, system and heartbeat with
// system authority, peer and external (and anything unknown) with external
// authority.
func AuthorityOf(s InputSource) Authority {
	switch s {
	case Creator, Agent:
		return AuthorityAgent
	case System, Heartbeat:
		return AuthoritySystem
	}
	return AuthorityExternal
}
