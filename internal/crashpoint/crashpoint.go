// Package crashpoint names the points of a commit where the crash test
// kills ward (internal/cli's TestCrashCommit). In a normal build Hit does
// nothing and the compiler removes it; built with -tags crashtest, Hit
// kills the process with SIGKILL at the point WARD_CRASH_AT names
// ("stage:n": the n-th time the stage is reached, from 1).
package crashpoint

// The stages of a commit, in order.
const (
	BeforeIntent = "intent"    // admitted, the permit not yet consumed
	AfterIntent  = "consumed"  // the permit consumed, nothing signed
	Journaled    = "journaled" // a transaction journaled, not yet broadcast
	Sent         = "sent"      // a transaction broadcast, no receipt yet
	Receipt      = "receipt"   // the receipt read, the journal not yet settled
	Outcome      = "outcome"   // the outcome recorded, the caller not yet answered

	// Reconciled is the start's reconciliation of an interrupted commit:
	// its outcome recorded, its spend not yet settled.
	Reconciled = "reconciled"
)

// Stages returns the stages of a commit, in order.
func Stages() []string {
	return []string{BeforeIntent, AfterIntent, Journaled, Sent, Receipt, Outcome}
}
