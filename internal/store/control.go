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
	// Spending is the owner's override of the spending limits, nil when
	// none is set (ward.toml's [hooks.spending] is in force).
	Spending *SpendingOverride
	// AllowlistVersion counts the changes to the owner's allowlist
	// entries (AllowlistEntries): a reader caches them under it.
	AllowlistVersion int64
}

// AllowlistKind is what an allowlist entry names.
type AllowlistKind string

const (
	AllowToken    AllowlistKind = "token"    // a token a plan may move
	AllowContract AllowlistKind = "contract" // an address a plan's transactions or allowances may reach
	AllowSelector AllowlistKind = "selector" // a function a plan may call
)

// AllowlistEntry is one of the owner's changes to ward.toml's
// [hooks.allowlist]: Value (an address as 0x and 40 lower-case hex
// digits, a selector as 0x and 8) is allowed besides the configured
// lists, or, Allowed false, refused whatever the configuration says.
// Entries are stored, so they survive a restart and a reload, and every
// instance on the database reads them.
type AllowlistEntry struct {
	Kind    AllowlistKind
	Value   string
	Allowed bool
	By      string
	At      time.Time
}

// SpendingOverride is the owner's spending limits in cents, which win over
// ward.toml's [hooks.spending] until the owner clears them: a reload of
// the configuration does not undo them. math.MaxInt64 lifts a limit (as
// hook.Unlimited); a limit of 0 allows only actions worth nothing.
type SpendingOverride struct {
	PerTickCents    int64
	PerSessionCents int64
	DailyCents      int64
	By              string
	At              time.Time
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
	// SetSpendingOverride sets the owner's override of the spending
	// limits, or clears it when o is nil, and appends rec.
	SetSpendingOverride(ctx context.Context, o *SpendingOverride, rec *ActionRecord) error
	// AllowlistEntries returns the owner's allowlist entries, by kind
	// and value.
	AllowlistEntries(ctx context.Context) ([]AllowlistEntry, error)
	// ChangeAllowlist removes every entry first when reset is set, then
	// writes entries (an entry of a kind and value replaces the one
	// stored), counts a new AllowlistVersion and appends rec.
	ChangeAllowlist(ctx context.Context, entries []AllowlistEntry, reset bool, rec *ActionRecord) error
}
