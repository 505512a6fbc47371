package hook

import "time"

// SpendingStats is what counts against a SpendingLimiter's limits at one
// moment, in cents: executed spend and live holds (previewed writes not yet
// committed), for every session over the sliding day and for one session.
type SpendingStats struct {
	Limits SpendingConfig // Unlimited marks a lifted limit
	// DailyCents is every session's executed spend in the 24 hours before
	// the moment; DailyHeldCents every live hold.
	DailyCents, DailyHeldCents int64
	// SessionCents is the session's executed spend since the limiter
	// started, TickCents its spend in the tick; the held fields are its
	// live holds (in the tick: those taken in it).
	SessionCents, SessionHeldCents int64
	TickCents, TickHeldCents       int64
}

// Stats returns the limits and what counts against them at now, for the
// session sessionID in tick (the session fields are zero for a session
// with no spend). It is read-only, as Check would count: holds expired at
// now are left out but not dropped. Safe for concurrent use.
func (s *SpendingLimiter) Stats(sessionID string, tick uint64, now time.Time) SpendingStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := SpendingStats{Limits: s.cfg}
	if ss := s.sessions[sessionID]; ss != nil {
		st.SessionCents = ss.total
		if tick <= ss.tick {
			st.TickCents = ss.tickCents
		}
	}
	cut := now.Add(-Day)
	for _, sp := range s.day {
		if sp.at.After(cut) {
			st.DailyCents = addSat(st.DailyCents, sp.cents)
		}
	}
	for _, h := range s.holds {
		if !now.Before(h.expires) {
			continue
		}
		st.DailyHeldCents = addSat(st.DailyHeldCents, h.cents)
		if h.session == sessionID {
			st.SessionHeldCents = addSat(st.SessionHeldCents, h.cents)
			if h.tick == tick {
				st.TickHeldCents = addSat(st.TickHeldCents, h.cents)
			}
		}
	}
	return st
}
