// Package event is ward's in-process event bus: observation only.
//
// Events are asynchronous records of what happened (a tool started, a
// permit was consumed, the gate vetoed a call); hooks, not events, decide.
// Publishing never blocks and never fails: each subscriber has a bounded
// buffer, and when it is full the event is dropped for that subscriber and
// counted in its drop counter. A slow or stuck subscriber therefore costs
// only itself, never the publisher.
//
// The package depends on the standard library only.
package event

import (
	"time"
)

// Kind names what an event reports, as "family:name". The set is open
// (the Grimoire adds its own kinds); the constants below are the ones the
// tool gate publishes.
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
// apply to a kind stay empty. Text fields are shown to operators (API,
// dashboard, TUI): publishers put no secrets and no untrusted content in
// them.
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
	Summary    string `json:"summary,omitempty"`
}
