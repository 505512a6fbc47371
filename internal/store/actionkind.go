package store

import "fmt"

// ActionKind is what step of a write's life (or of the gate's control,
// the quarantine queue, an upstream server's pins or egress) an action record
// records. The zero value is no kind: a record without one is refused.
type ActionKind uint8

// Action record kinds.
const (
	actionKindNone      ActionKind = iota
	ActionPermitCreated            // a preview issued a permit
	ActionToolCall                 // a commit ran its write (Status executed or failed)
	ActionPermitConsumed
	ActionPermitCancelled
	ActionVetoed // a write refused by the halt, the policy, a hook or its permit
	ActionHalt
	ActionHaltLifted
	ActionPhaseChanged
	ActionQuarantined // a call held for the owner's review
	ActionQuarantineApproved
	ActionQuarantineRejected
	ActionQuarantineOutcome // what an approved held call did
	ActionLookupFailedKind  // a lookup of an id that does not exist or is not the principal's
	ActionUpstreamPinned    // an upstream server's tool definition, trusted on first use
	ActionUpstreamChanged   // a pinned definition changed: disabled until approved
	ActionUpstreamApproved  // the owner approved a changed definition
	ActionExecuted          // a step that executed (tests, older records)
	ActionFailed
	ActionTxSettled           // what reconciliation after a restart found of a transaction in flight
	ActionConfigReloaded      // the configuration was reloaded without a restart
	ActionConfigReloadRefused // a reload was refused: the file is invalid, nothing changed
	ActionEgressRefused       // a sandboxed upstream server's egress proxy refused a connection (or a summary of those not recorded one by one)
	ActionSpendingLimits      // the owner set or cleared the override of the spending limits
	ActionAllowlistChanged    // the owner changed the allowlist's entries
	ActionOwnerTxObserved     // the chain showed a transaction held for the owner done (executed) or passed by the owner's nonce (failed: stale)
	numActionKinds
)

var actionKindNames = [numActionKinds]string{
	actionKindNone:            "",
	ActionPermitCreated:       "permit_created",
	ActionToolCall:            "tool_call",
	ActionPermitConsumed:      "permit_consumed",
	ActionPermitCancelled:     "permit_cancelled",
	ActionVetoed:              "vetoed",
	ActionHalt:                "halt",
	ActionHaltLifted:          "halt_lifted",
	ActionPhaseChanged:        "phase_changed",
	ActionQuarantined:         "quarantined",
	ActionQuarantineApproved:  "quarantine_approved",
	ActionQuarantineRejected:  "quarantine_rejected",
	ActionQuarantineOutcome:   "quarantine_outcome",
	ActionLookupFailedKind:    "lookup_failed",
	ActionUpstreamPinned:      "upstream_tool_pinned",
	ActionUpstreamChanged:     "upstream_tool_changed",
	ActionUpstreamApproved:    "upstream_tool_approved",
	ActionExecuted:            "executed",
	ActionFailed:              "failed",
	ActionTxSettled:           "tx_settled",
	ActionConfigReloaded:      "config_reloaded",
	ActionConfigReloadRefused: "config_reload_refused",
	ActionEgressRefused:       "egress_refused",
	ActionSpendingLimits:      "spending_limits_changed",
	ActionAllowlistChanged:    "allowlist_changed",
	ActionOwnerTxObserved:     "owner_tx_observed",
}

// String returns the kind's name as the action log stores it.
func (k ActionKind) String() string {
	if k < numActionKinds {
		return actionKindNames[k]
	}
	return fmt.Sprintf("ActionKind(%d)", uint8(k))
}

// Valid reports whether k is one of the kinds.
func (k ActionKind) Valid() bool { return k > actionKindNone && k < numActionKinds }

// MarshalText encodes the kind as its name.
func (k ActionKind) MarshalText() ([]byte, error) {
	if !k.Valid() {
		return nil, fmt.Errorf("store: marshal action kind %d: not a kind", uint8(k))
	}
	return []byte(k.String()), nil
}

// UnmarshalText decodes a kind's name.
func (k *ActionKind) UnmarshalText(b []byte) error {
	v, err := ParseActionKind(string(b))
	if err != nil {
		return err
	}
	*k = v
	return nil
}

// ParseActionKind returns the kind named s.
func ParseActionKind(s string) (ActionKind, error) {
	for i, n := range actionKindNames {
		if n == s && i != int(actionKindNone) {
			return ActionKind(i), nil
		}
	}
	return 0, fmt.Errorf("store: unknown action kind %q", s)
}

// ActionStatus is how an action record's step ended. The zero value is
// none (a step that neither executed nor was refused, such as a permit's
// creation recorded before its use).
type ActionStatus uint8

// Action statuses.
const (
	StatusNone ActionStatus = iota
	StatusExecuted
	StatusBlocked
	StatusDeferred
	StatusFailed
	numActionStatuses
)

var actionStatusNames = [numActionStatuses]string{"", "executed", "blocked", "deferred", "failed"}

// String returns the status's name ("" for none).
func (s ActionStatus) String() string {
	if s < numActionStatuses {
		return actionStatusNames[s]
	}
	return fmt.Sprintf("ActionStatus(%d)", uint8(s))
}

// MarshalText encodes the status as its name.
func (s ActionStatus) MarshalText() ([]byte, error) {
	if s >= numActionStatuses {
		return nil, fmt.Errorf("store: marshal action status %d: not a status", uint8(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText decodes a status's name.
func (s *ActionStatus) UnmarshalText(b []byte) error {
	v, err := ParseActionStatus(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// ParseActionStatus returns the status named s ("" is none).
func ParseActionStatus(s string) (ActionStatus, error) {
	for i, n := range actionStatusNames {
		if n == s {
			return ActionStatus(i), nil
		}
	}
	return 0, fmt.Errorf("store: unknown action status %q", s)
}
