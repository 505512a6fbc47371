package hook

import (
	"context"
	"time"
)

// SpendingStats is what counts against a SpendingLimiter's limits at one
// moment, in cents: recorded spend and live holds (previewed writes not
// yet committed), for every session over the sliding day and for one
// session.
type SpendingStats struct {
	Limits SpendingConfig // Unlimited marks a lifted limit
	// DailyCents is every session's recorded spend in the 24 hours before
	// the moment; DailyHeldCents every live hold.
	DailyCents, DailyHeldCents int64
	// SessionCents is the session's recorded spend, TickCents its spend in
	// the tick; the held fields are its live holds (in the tick: those
	// taken in it).
	SessionCents, SessionHeldCents int64
	TickCents, TickHeldCents       int64
}

// Stats returns the limits and what counts against them at now, for the
// session sessionID in tick (the session fields are zero for a session
// with no spend), read from the limiter's windows. Safe for concurrent
// use.
func (s *SpendingLimiter) Stats(ctx context.Context, sessionID string, tick uint64, now time.Time) (SpendingStats, error) {
	t, err := s.win.Totals(ctx, WindowQuery{Session: sessionID, Tick: tick, Now: now})
	if err != nil {
		return SpendingStats{}, err
	}
	return SpendingStats{Limits: s.Limits(), DailyCents: t.Day, DailyHeldCents: t.DayHeld, SessionCents: t.Session,
		SessionHeldCents: t.SessionHeld, TickCents: t.Tick, TickHeldCents: t.TickHeld}, nil
}
