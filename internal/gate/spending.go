package gate

import (
	"context"
	"errors"
	"fmt"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
)

// ErrBadLimits is a spending override with a negative limit.
var ErrBadLimits = errors.New("gate: a spending limit is negative")

// SpendingOverride returns the owner's override of the spending limits as
// the store holds it (ok false when none is set). It is the spending
// limiter's hook.SpendingOverride: read on every check, so a change made
// by another instance on the same database is in force at the next one.
func (t *Tools) SpendingOverride(ctx context.Context) (hook.SpendingConfig, bool, error) {
	c, err := t.control.GateControl(ctx)
	if err != nil {
		return hook.SpendingConfig{}, false, fmt.Errorf("gate: read spending override: %w", err)
	}
	if c.Spending == nil {
		return hook.SpendingConfig{}, false, nil
	}
	o := c.Spending
	return hook.SpendingConfig{PerTickCents: o.PerTickCents, PerSessionCents: o.PerSessionCents, DailyCents: o.DailyCents}, true, nil
}

// SetSpendingLimits sets the owner's override of the spending limits (an
// owner operation), or clears it when limits is nil so that ward.toml's
// [hooks.spending] is in force again. The override wins over the
// configuration until it is cleared: a reload does not undo it. The
// change and its record are one transaction.
func (t *Tools) SetSpendingLimits(ctx context.Context, limits *hook.SpendingConfig, by string) error {
	now := t.cfg.Now()
	detail := map[string]any{"by": by, "cleared": limits == nil}
	var o *store.SpendingOverride
	if limits != nil {
		if limits.PerTickCents < 0 || limits.PerSessionCents < 0 || limits.DailyCents < 0 {
			return ErrBadLimits
		}
		o = &store.SpendingOverride{PerTickCents: limits.PerTickCents, PerSessionCents: limits.PerSessionCents, DailyCents: limits.DailyCents, By: by, At: now}
		detail["per_tick_cents"], detail["per_session_cents"], detail["daily_cents"] = limits.PerTickCents, limits.PerSessionCents, limits.DailyCents
	}
	rec := &store.ActionRecord{ID: id.New(now), Time: now, Kind: store.ActionSpendingLimits, Detail: jsonOf(detail)}
	if err := t.control.SetSpendingOverride(ctx, o, rec); err != nil {
		return fmt.Errorf("gate: set spending limits: %w", err)
	}
	return nil
}
