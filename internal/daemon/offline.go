package daemon

import (
	"context"
	"time"

	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/store"
)

// RestoreTracker loads the executed calls of the policy's longest window
// and the last known balance from the ledger into the tracker, as a
// stack does when it opens: ward policy check evaluates a what-if
// against the same state ward serve would. Errors are the ledger's.
func RestoreTracker(ctx context.Context, l store.Ledger, t *policy.Tracker, snap *policy.Snapshot, now time.Time) error {
	return gate.Restore(ctx, l, t, snap, now)
}

// FacadeDefs returns the facade tools a session's view offers, in the
// order the surfaces list them (ward tools list --facades prints them).
func FacadeDefs(v *registry.View) []facade.Def {
	return facade.Defs(v)
}
