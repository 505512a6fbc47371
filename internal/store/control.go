package store

import (
	"context"
	"time"
)

// GateControl is the gate's phase (the PolicyCage phase every write is
// checked against) and its emergency halt, with who set each and when.
type GateControl struct {
	Phase      string // thriving, stable, conservation, declining, terminal
	PhaseAt    time.Time
	PhaseBy    string
	Halted     bool
	HaltReason string
	HaltAt     time.Time
	HaltBy     string
}

// Control stores the gate's phase and halt: one row every process on the
// backend reads. Each change is durable when it returns nil, together with
// its action record (one transaction: both or neither).
type Control interface {
	// GateControl returns the phase and halt (thriving and not halted in
	// a new database).
	GateControl(ctx context.Context) (GateControl, error)
	// SetPhase sets the phase (a name of the five) and appends rec.
	SetPhase(ctx context.Context, phase, by string, at time.Time, rec *ActionRecord) error
	// SetHalt halts (with a reason) or lifts the halt, and appends rec.
	SetHalt(ctx context.Context, halted bool, reason, by string, at time.Time, rec *ActionRecord) error
}
