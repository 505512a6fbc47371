// Package event is ward's in-process event bus: observation only.
//
// Events are asynchronous records of what happened (a tool started, a
// permit was consumed, the gate vetoed a call); hooks, not events, decide.
// Publishing never blocks and never fails: each subscriber has a bounded
// buffer, and when it is full the event is dropped for that subscriber and
// counted in its drop counter. A slow or stuck subscriber therefore costs
// only itself, never the publisher.
//
// An event's common fields (session, tool, code, ...) are the same for
// every kind; what a kind says beyond them is its Payload, one type per
// kind (payload.go), set by publishers as a value and read by subscribers
// with a type switch. On the wire the payload is the "summary" field, as
// it was when publishers wrote that text themselves.
//
// The package depends on the standard library only.
package event

import (
	"encoding/json"
	"time"
)

// Kind names what an event reports, as "family:name". The constants here
// and in payload.go are the kinds gate and ingest publish; the set is open,
// and the summary of a kind this package does not name travels as Text.
type Kind string

// Kinds published by the tool gate.
const (
	ToolStart       Kind = "tool:start"
	ToolUpdate      Kind = "tool:update" // one per progress step
	ToolEnd         Kind = "tool:end"
	ToolError       Kind = "tool:error"
	PermitCreated   Kind = "permit:created"
	PermitConsumed  Kind = "permit:consumed"
	PermitCancelled Kind = "permit:cancelled"
	PermitExpired   Kind = "permit:expired"
	GateVetoed      Kind = "gate:vetoed"
	GateHalted      Kind = "gate:halted"
	GateResumed     Kind = "gate:resumed"
	GatePhase       Kind = "gate:phase"
	PolicyReloaded  Kind = "policy:reloaded"
)

// Family returns the part of k before the first ':' ("tool" for
// "tool:start"), or k itself if it has none.
func (k Kind) Family() string {
	for i := 0; i < len(k); i++ {
		if k[i] == ':' {
			return string(k[:i])
		}
	}
	return string(k)
}

// Event is one thing that happened. Publish assigns Seq and, when it is
// zero, Time; every other field is the publisher's. Fields that do not
// apply to a kind stay empty, and a kind with more to say carries it in
// Payload. Text fields are shown to operators (API, dashboard, TUI):
// publishers put no secrets and no untrusted content in them.
//
// Its JSON (the API's event stream) has the fields below in this order,
// with the payload's Summary last as "summary"; decoding it makes the
// kind's payload back (see Payload). Payloads are values, never pointers;
// as ValidationPassed and CausalRollback hold slices, == on two events can
// panic: compare them with reflect.DeepEqual.
type Event struct {
	Kind Kind `json:"kind"`
	// Seq numbers the bus's events from 1 in publication order; every
	// subscriber receives its events in increasing Seq.
	Seq  uint64    `json:"seq"`
	Time time.Time `json:"time"`

	SessionID  string `json:"session_id,omitempty"`
	Tool       string `json:"tool,omitempty"`
	ParamsHash string `json:"params_hash,omitempty"` // hex SHA-256 of the canonical arguments
	PermitID   string `json:"permit_id,omitempty"`

	// Step, StepIndex and TotalSteps describe a tool:update.
	Step       string `json:"step,omitempty"`
	StepIndex  int    `json:"step_index,omitempty"`
	TotalSteps int    `json:"total_steps,omitempty"`

	Success    bool   `json:"success"`
	DurationMS int64  `json:"duration_ms,omitempty"`
	Code       string `json:"code,omitempty"` // a reason code
	Message    string `json:"message,omitempty"`

	// Payload is the kind's data (nil for none).
	Payload Payload `json:"-"`
}

// wireEvent is an Event's JSON: its fields, then the payload's summary.
type wireEvent struct {
	fields
	Summary string `json:"summary,omitempty"`
}

// fields is Event without its methods.
type fields Event

// MarshalJSON encodes e with its payload's Summary as "summary".
func (e Event) MarshalJSON() ([]byte, error) {
	w := wireEvent{fields: fields(e)}
	if e.Payload != nil {
		w.Summary = e.Payload.Summary()
	}
	return json.Marshal(w)
}

// UnmarshalJSON decodes an event and the payload of its kind from its
// "summary" (Text when the kind has no payload type or the summary is not
// one; nil when there is no summary).
func (e *Event) UnmarshalJSON(b []byte) error {
	var w wireEvent
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*e = Event(w.fields)
	e.Payload = decodePayload(e.Kind, w.Summary)
	return nil
}
