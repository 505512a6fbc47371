package event

import (
	"encoding/json"
	"time"
)

// Kinds of the quarantine queue (package gate). Their payload is a
// QuarantineItem; a decided event's Message is "approved" or "rejected".
const (
	QuarantineHeld    Kind = "quarantine:held"
	QuarantineDecided Kind = "quarantine:decided"
	QuarantineOutcome Kind = "quarantine:outcome"
)

// Kinds of the trust model (package gate).
const (
	TrustTainted  Kind = "trust:tainted"  // Taint
	TrustVerdict  Kind = "trust:verdict"  // Verdict; Success is the reviewer's approval
	TrustPromoted Kind = "trust:promoted" // Promotion
)

// Kinds of knowledge ingestion (package ingest), the seed's grimoire:*
// events. Code is the reason code; the payload is the seed's, whose JSON
// the wire carries in "summary".
const (
	GrimoireEntryQuarantined Kind = "grimoire:entry_quarantined" // EntryQuarantined
	GrimoireValidationPassed Kind = "grimoire:validation_passed" // ValidationPassed
	GrimoireValidationFailed Kind = "grimoire:validation_failed" // ValidationFailed
	GrimoireEntryAdopted     Kind = "grimoire:entry_adopted"     // EntryAdopted
	GrimoireEntryConfirmed   Kind = "grimoire:entry_confirmed"   // EntryConfirmed
	GrimoireEntryPruned      Kind = "grimoire:entry_pruned"      // EntryPruned
	GrimoireImmuneMatch      Kind = "grimoire:immune_match"      // ImmuneMatch
	GrimoireCausalRollback   Kind = "grimoire:causal_rollback"   // CausalRollback
)

// Kinds of live data subscriptions (package stream, the stream_ tools);
// their payload is a StreamData. A subscription:update reports a changed
// value (Success) or, with Code STREAM_READ_FAILED, that it could not be
// read; a subscription:ended's Message says why the subscription ended
// (cancelled, session ended, ward stopped). SessionID is the subscribing
// session's. (The family is not "stream": the API's event stream uses
// stream:gap for its own notices.)
const (
	SubscriptionUpdate Kind = "subscription:update"
	SubscriptionEnded  Kind = "subscription:ended"
)

// Payload is what an event of one kind carries beyond the common fields:
// one type per kind (a few kinds share one), made by publishers as a
// value and read by subscribers with a type switch.
//
// Summary is the payload as the wire's "summary" field ("" for none): a
// short text for the gate's kinds, the seed's JSON object for the
// Grimoire's. It depends on the payload's value alone, so an event always
// serialises to the same bytes. The interface is sealed: a summary of a
// kind this package has no type for travels as Text, written as it is.
type Payload interface {
	Summary() string
	payload()
}

// Text is a summary with no typed payload: a kind this package does not
// know, or a summary that does not decode as its kind's payload.
type Text string

// ResultFilter is a tool:end's payload: what the result filter changed
// ("" when nothing; hook.FilterReport's String).
type ResultFilter struct{ Report string }

// PermitPlan is a permit:created's payload: Plan is the plan's one-line
// summary.
type PermitPlan struct{ Plan string }

// Veto is a gate:vetoed's payload: the stage that refused the call
// ("allowlist", "simulation", ...).
type Veto struct{ Stage string }

// PhaseChange is a gate:phase's payload: who set the phase (the phase is
// the event's Message).
type PhaseChange struct{ By string }

// QuarantineItem is the payload of the quarantine:* kinds: the held
// call's item id.
type QuarantineItem struct{ ID string }

// Taint is a trust:tainted's payload: the session's trust level changed
// to Level, because of the output Source names ("call:<n> <tool>") or,
// with no Source, because an owner or a review set it. The wire's summary
// is Source, or Level when there is no Source; decoding tells them apart
// by the level names (clean, tainted, review), an output taints to
// "tainted".
type Taint struct{ Level, Source string }

// Verdict is a trust:verdict's payload: the reviewer that gave it.
type Verdict struct{ By string }

// Promotion is a trust:promoted's payload: the judge that promoted the
// call.
type Promotion struct{ By string }

// StreamData is the payload of the subscription:* kinds: the
// subscription, what it watches, and (for an update that read one) the
// new value as the stream_ tool that made it describes it.
type StreamData struct {
	ID     string          `json:"subscription_id"`
	Kind   string          `json:"kind"`
	Target string          `json:"target"`
	Value  json.RawMessage `json:"value,omitempty"`
}

// EntryQuarantined is a grimoire:entry_quarantined's payload.
type EntryQuarantined struct {
	EntryID   string `json:"entry_id"`
	Source    string `json:"source"`
	Agent     string `json:"agent,omitempty"`
	EntryType string `json:"entry_type"`
}

// ValidationPassed is a grimoire:validation_passed's payload.
type ValidationPassed struct {
	EntryID      string   `json:"entry_id"`
	LayersPassed []string `json:"layers_passed"`
	Score        float64  `json:"score"`
}

// ValidationFailed is a grimoire:validation_failed's payload.
type ValidationFailed struct {
	EntryID     string `json:"entry_id"`
	FailedLayer string `json:"failed_layer"`
	Reason      string `json:"reason"`
}

// EntryAdopted is a grimoire:entry_adopted's payload.
type EntryAdopted struct {
	EntryID           string    `json:"entry_id"`
	InitialConfidence float64   `json:"initial_confidence"`
	Partition         string    `json:"partition"`
	ValidationStatus  string    `json:"validation_status"`
	Expires           time.Time `json:"expires,omitzero"`
}

// EntryConfirmed is a grimoire:entry_confirmed's payload: EntryID
// confirms the adopted entry Confirms.
type EntryConfirmed struct {
	EntryID          string  `json:"entry_id"`
	Confirms         string  `json:"confirms"`
	Credit           string  `json:"credit"`
	Confidence       float64 `json:"confidence"`
	ValidationStatus string  `json:"validation_status"`
	Validations      int     `json:"validations"`
}

// EntryPruned is a grimoire:entry_pruned's payload.
type EntryPruned struct {
	EntryID string `json:"entry_id"`
	Reason  string `json:"reason"`
	Source  string `json:"source"`
	Agent   string `json:"agent,omitempty"`
}

// ImmuneMatch is a grimoire:immune_match's payload.
type ImmuneMatch struct {
	EntryID   string `json:"entry_id"`
	Signature string `json:"immune_signature_hash"`
}

// CausalRollback is a grimoire:causal_rollback's payload: Count entries
// of Source went back to quarantine.
type CausalRollback struct {
	Source  string   `json:"source_agent"`
	Count   int      `json:"entries_quarantined"`
	Reason  string   `json:"reason"`
	Entries []string `json:"entry_ids,omitempty"`
}

func (t Text) Summary() string             { return string(t) }
func (p ResultFilter) Summary() string     { return p.Report }
func (p PermitPlan) Summary() string       { return p.Plan }
func (p Veto) Summary() string             { return p.Stage }
func (p PhaseChange) Summary() string      { return p.By }
func (p QuarantineItem) Summary() string   { return p.ID }
func (p Verdict) Summary() string          { return p.By }
func (p Promotion) Summary() string        { return p.By }
func (p EntryQuarantined) Summary() string { return jsonText(p) }
func (p ValidationPassed) Summary() string { return jsonText(p) }
func (p ValidationFailed) Summary() string { return jsonText(p) }
func (p EntryAdopted) Summary() string     { return jsonText(p) }
func (p EntryConfirmed) Summary() string   { return jsonText(p) }
func (p EntryPruned) Summary() string      { return jsonText(p) }
func (p ImmuneMatch) Summary() string      { return jsonText(p) }
func (p CausalRollback) Summary() string   { return jsonText(p) }
func (p StreamData) Summary() string       { return jsonText(p) }

func (p Taint) Summary() string {
	if p.Source != "" {
		return p.Source
	}
	return p.Level
}

func (Text) payload()             {}
func (ResultFilter) payload()     {}
func (PermitPlan) payload()       {}
func (Veto) payload()             {}
func (PhaseChange) payload()      {}
func (QuarantineItem) payload()   {}
func (Taint) payload()            {}
func (Verdict) payload()          {}
func (Promotion) payload()        {}
func (EntryQuarantined) payload() {}
func (ValidationPassed) payload() {}
func (ValidationFailed) payload() {}
func (EntryAdopted) payload()     {}
func (EntryConfirmed) payload()   {}
func (EntryPruned) payload()      {}
func (ImmuneMatch) payload()      {}
func (CausalRollback) payload()   {}
func (StreamData) payload()       {}

// jsonText is v's JSON, or "" if it has none (a NaN score).
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}

// decodePayload returns the payload of an event of kind k whose wire
// summary is s: nil for none, the kind's payload when it encodes back to
// exactly s, Text otherwise (so decoding and encoding again changes no
// byte).
func decodePayload(k Kind, s string) Payload {
	if s == "" {
		return nil
	}
	var p Payload
	switch k {
	case ToolEnd:
		p = ResultFilter{s}
	case PermitCreated:
		p = PermitPlan{s}
	case GateVetoed:
		p = Veto{s}
	case GatePhase:
		p = PhaseChange{s}
	case QuarantineHeld, QuarantineDecided, QuarantineOutcome:
		p = QuarantineItem{s}
	case TrustTainted:
		p = decodeTaint(s)
	case TrustVerdict:
		p = Verdict{s}
	case TrustPromoted:
		p = Promotion{s}
	case GrimoireEntryQuarantined:
		p = decodeJSON[EntryQuarantined](s)
	case GrimoireValidationPassed:
		p = decodeJSON[ValidationPassed](s)
	case GrimoireValidationFailed:
		p = decodeJSON[ValidationFailed](s)
	case GrimoireEntryAdopted:
		p = decodeJSON[EntryAdopted](s)
	case GrimoireEntryConfirmed:
		p = decodeJSON[EntryConfirmed](s)
	case GrimoireEntryPruned:
		p = decodeJSON[EntryPruned](s)
	case GrimoireImmuneMatch:
		p = decodeJSON[ImmuneMatch](s)
	case GrimoireCausalRollback:
		p = decodeJSON[CausalRollback](s)
	case SubscriptionUpdate, SubscriptionEnded:
		p = decodeJSON[StreamData](s)
	}
	if p == nil || p.Summary() != s {
		return Text(s)
	}
	return p
}

func decodeTaint(s string) Taint {
	switch s {
	case "clean", "tainted", "review":
		return Taint{Level: s}
	}
	return Taint{Level: "tainted", Source: s}
}

// decodeJSON decodes a Grimoire payload, nil if s is not one.
func decodeJSON[P Payload](s string) Payload {
	var p P
	if err := json.Unmarshal([]byte(s), &p); err != nil {
		return nil
	}
	return p
}
