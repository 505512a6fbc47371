package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/trust"
)

// Sessions. Opening one takes the advisory lock of its principal: the
// expiry, the lookup of the name, the count against the principal's limit
// and the insert run one principal at a time across every instance, so
// that concurrent opens of one name make one session and a principal never
// holds more than its limit. Appending to a ledger locks the session's row
// (SELECT ... FOR UPDATE), which numbers observations 1, 2, 3, ... with no
// gap or repeat. Every write that changes a session notifies
// store.ChangeSession; one that can change its principal's taint (a level,
// a deletion, a creation at a level other than clean) notifies
// store.ChangePrincipal too.

const sessionColumns = `id, principal_id, name, created_ns, active_ns, level, level_ns, isolated, parent_id, author, reviewers, judge,
  directive, directive_trusted, judged, ledger_seq, ledger_dropped`

func scanSession(row pgx.Row) (store.SessionRecord, error) {
	var (
		r                                store.SessionRecord
		created, active, judged          int64
		levelAt                          *int64
		level                            string
		parent, author, judge, directive *string
	)
	if err := row.Scan(&r.ID, &r.PrincipalID, &r.Name, &created, &active, &level, &levelAt, &r.Isolated, &parent, &author, &r.Reviewers,
		&judge, &directive, &r.DirectiveTrusted, &judged, &r.LedgerSeq, &r.LedgerDropped); err != nil {
		return r, err
	}
	lv, err := trust.ParseLevel(level)
	if err != nil {
		return r, fmt.Errorf("session %s: %w", r.ID, err)
	}
	r.Level, r.Created, r.Active, r.LevelAt = lv, nsTime(created), nsTime(active), optTime(levelAt)
	r.ParentID, r.Author, r.Judge, r.Directive, r.Judged = text(parent), text(author), text(judge), text(directive), int(judged)
	if len(r.Reviewers) == 0 {
		r.Reviewers = nil
	}
	return r, nil
}

// reviewers binds a list of checkers (never NULL).
func reviewers(rs []string) []string {
	if rs == nil {
		return []string{}
	}
	return rs
}

// OpenSession returns or creates the principal's named session (see
// store.Sessions).
func (s *Store) OpenSession(ctx context.Context, rec *store.SessionRecord, lim store.SessionLimits, mustCreate bool, now time.Time) (store.SessionRecord, bool, error) {
	if err := s.ok(); err != nil {
		return store.SessionRecord{}, false, err
	}
	if rec == nil {
		return store.SessionRecord{}, false, errors.New("postgres: open session: nil session")
	}
	if err := store.CheckSession(rec); err != nil {
		return store.SessionRecord{}, false, fmt.Errorf("postgres: open session: %w: %v", store.ErrInvalidRecord, err)
	}
	nowNs, err := store.Nanos("now", now)
	if err != nil {
		return store.SessionRecord{}, false, fmt.Errorf("postgres: open session: %w", err)
	}
	lim = lim.WithDefaults()
	r := *rec
	r.Reviewers = slices.Clone(rec.Reviewers)
	r.Active = now
	if r.Level != trust.Clean {
		r.LevelAt = r.Created
	}
	var got store.SessionRecord
	var created bool
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		got, created = store.SessionRecord{}, false
		if err := xlock(ctx, tx, lockSession, r.PrincipalID); err != nil {
			return err
		}
		// Expired sessions of the principal go first: they neither count
		// against its limit nor keep a name.
		if err := dropExpiredSessions(ctx, tx, r.PrincipalID, lim, now); err != nil {
			return err
		}
		var err error
		got, err = scanSession(tx.QueryRow(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE principal_id = $1 AND name = $2`, r.PrincipalID, r.Name))
		switch {
		case err == nil && mustCreate:
			return store.ErrSessionExists
		case err == nil:
			return nil
		case !errors.Is(err, pgx.ErrNoRows):
			return err
		}
		if err := createSession(ctx, tx, &r, nowNs, lim.MaxPerPrincipal); err != nil {
			return err
		}
		got, created = r, true
		return nil
	})
	if err != nil {
		return store.SessionRecord{}, false, fmt.Errorf("postgres: open session %q: %w", rec.Name, err)
	}
	return got, created, nil
}

// dropExpiredSessions deletes the principal's sessions idle past lim's
// TTLs, with their observations, and announces each change.
func dropExpiredSessions(ctx context.Context, tx pgx.Tx, principal string, lim store.SessionLimits, now time.Time) error {
	idle, keep := now.Add(-lim.IdleTTL).UnixNano(), now.Add(-lim.KeepTTL).UnixNano()
	expired, err := queryRows(ctx, tx, pgx.RowTo[string], `DELETE FROM sessions WHERE principal_id = $1
  AND ((level = 'clean' AND NOT isolated AND active_ns <= $2) OR active_ns <= $3) RETURNING id`, principal, idle, keep)
	if err != nil || len(expired) == 0 {
		return err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM session_observations WHERE session_id = ANY($1)`, expired); err != nil {
		return err
	}
	for _, id := range expired {
		if err := notifyChange(ctx, tx, store.ChangeSession, id); err != nil {
			return err
		}
	}
	return notifyChange(ctx, tx, store.ChangePrincipal, principal)
}

// createSession inserts r, active at nowNs, unless its principal already
// holds limit sessions, and announces it (and the principal's change when r
// is not clean).
func createSession(ctx context.Context, tx pgx.Tx, r *store.SessionRecord, nowNs int64, limit int) error {
	var n int64
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM sessions WHERE principal_id = $1`, r.PrincipalID).Scan(&n); err != nil {
		return err
	}
	if n >= int64(limit) {
		return fmt.Errorf("%w (%d)", store.ErrSessionLimit, limit)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO sessions (id, principal_id, name, created_ns, active_ns, level, level_ns, isolated, parent_id, author,
  reviewers, judge, directive, directive_trusted) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
		r.ID, r.PrincipalID, r.Name, r.Created.UnixNano(), nowNs, r.Level.String(), optNs(r.LevelAt), r.Isolated, null(r.ParentID),
		null(r.Author), reviewers(r.Reviewers), null(r.Judge), null(r.Directive), r.DirectiveTrusted); err != nil {
		return err
	}
	if err := notifyChange(ctx, tx, store.ChangeSession, r.ID); err != nil {
		return err
	}
	if r.Level != trust.Clean {
		return notifyChange(ctx, tx, store.ChangePrincipal, r.PrincipalID)
	}
	return nil
}

func (s *Store) sessionWhere(ctx context.Context, what, where string, args ...any) (store.SessionRecord, error) {
	if err := s.ok(); err != nil {
		return store.SessionRecord{}, err
	}
	r, err := scanSession(s.pool.QueryRow(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE `+where, args...))
	if errors.Is(err, pgx.ErrNoRows) {
		err = store.ErrNotFound
	}
	if err != nil {
		return store.SessionRecord{}, fmt.Errorf("postgres: session %s: %w", what, err)
	}
	return r, nil
}

// Session returns the session id.
func (s *Store) Session(ctx context.Context, sid string) (store.SessionRecord, error) {
	return s.sessionWhere(ctx, sid, `id = $1`, sid)
}

// SessionByName returns the session principalID holds under name.
func (s *Store) SessionByName(ctx context.Context, principalID, name string) (store.SessionRecord, error) {
	return s.sessionWhere(ctx, fmt.Sprintf("%q of %s", name, principalID), `principal_id = $1 AND name = $2`, principalID, name)
}

// ListSessions returns the sessions f selects, most recently active first.
func (s *Store) ListSessions(ctx context.Context, f store.SessionFilter) ([]store.SessionRecord, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	level := ""
	if f.Level != nil {
		level = f.Level.String()
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 1000
	}
	out, err := queryRows(ctx, s.pool, rowTo(scanSession), `SELECT `+sessionColumns+` FROM sessions WHERE ($1 = '' OR principal_id = $1) AND ($2 = '' OR level = $2)
  ORDER BY active_ns DESC, id LIMIT $3`, f.PrincipalID, level, int64(limit))
	if err != nil {
		return nil, fmt.Errorf("postgres: list sessions: %w", err)
	}
	return out, nil
}

// UnderReview reports whether any session of principalID is under review.
func (s *Store) UnderReview(ctx context.Context, principalID string) (bool, error) {
	return s.anySession(ctx, "under review", principalID, `level = 'review'`)
}

// Tainted reports whether any session of principalID is tainted or under
// review.
func (s *Store) Tainted(ctx context.Context, principalID string) (bool, error) {
	return s.anySession(ctx, "tainted", principalID, `level IN ('tainted', 'review')`)
}

func (s *Store) anySession(ctx context.Context, what, principalID, cond string) (bool, error) {
	if err := s.ok(); err != nil {
		return false, err
	}
	var found bool
	if err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM sessions WHERE principal_id = $1 AND `+cond+`)`, principalID).Scan(&found); err != nil {
		return false, fmt.Errorf("postgres: %s: %w", what, err)
	}
	return found, nil
}

// setLevel applies c to the session sid in tx with one conditional update
// and notifies the session and its principal; it reports whether the
// session was at one of c.From (false: nothing changed), or ErrNotFound.
func setLevel(ctx context.Context, tx pgx.Tx, sid string, c *store.LevelChange) (bool, error) {
	from := make([]string, len(c.From))
	for i, l := range c.From {
		from[i] = l.String()
	}
	var principal string
	err := tx.QueryRow(ctx, `UPDATE sessions SET level = $1, level_ns = $2,
  reviewers = CASE WHEN cardinality(reviewers) = 0 THEN $3 ELSE reviewers END,
  judge = coalesce(judge, $4)
WHERE id = $5 AND level = ANY($6) RETURNING principal_id`,
		c.To.String(), c.At.UnixNano(), reviewers(c.Reviewers), null(c.Judge), sid, from).Scan(&principal)
	if errors.Is(err, pgx.ErrNoRows) {
		var exists bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM sessions WHERE id = $1)`, sid).Scan(&exists); err != nil {
			return false, err
		}
		if !exists {
			return false, store.ErrNotFound
		}
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := notifyChange(ctx, tx, store.ChangeSession, sid); err != nil {
		return false, err
	}
	return true, notifyChange(ctx, tx, store.ChangePrincipal, principal)
}

// SetSessionLevel applies c to the session id (see store.Sessions).
func (s *Store) SetSessionLevel(ctx context.Context, sid string, c store.LevelChange) error {
	if err := store.CheckLevelChange(&c); err != nil {
		return fmt.Errorf("postgres: set session level: %w: %v", store.ErrInvalidRecord, err)
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		ok, err := setLevel(ctx, tx, sid, &c)
		if err == nil && !ok {
			return store.ErrLevelChange
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: set session %s level: %w", sid, err)
	}
	return nil
}

// updateSession runs one UPDATE of the session sid and notifies it;
// ErrNotFound if it does not exist.
func (s *Store) updateSession(ctx context.Context, what, sid, sql string, args ...any) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, sql, args...)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return store.ErrNotFound
		}
		return notifyChange(ctx, tx, store.ChangeSession, sid)
	})
	if err != nil {
		return fmt.Errorf("postgres: %s of session %s: %w", what, sid, err)
	}
	return nil
}

// SetDirective stores the session's directive.
func (s *Store) SetDirective(ctx context.Context, sid, directive string, trusted bool, at time.Time) error {
	if len(directive) > store.MaxDirective {
		return fmt.Errorf("postgres: set directive: %w", store.Invalid("%d bytes, above %d", len(directive), store.MaxDirective))
	}
	return s.updateSession(ctx, "directive", sid, `UPDATE sessions SET directive = $1, directive_trusted = $2 WHERE id = $3`, null(directive), trusted, sid)
}

// AddJudged adds n to the session's judged count.
func (s *Store) AddJudged(ctx context.Context, sid string, n int) error {
	return s.updateSession(ctx, "judged", sid, `UPDATE sessions SET judged = judged + $1 WHERE id = $2`, int64(n), sid)
}

// AppendObservation appends w to the session's ledger (see
// store.Sessions). A write that is not durable is made the same way (a
// commit is all PostgreSQL offers), but reports no seq.
func (s *Store) AppendObservation(ctx context.Context, sid string, w *store.ObservationWrite, durable bool) (int64, error) {
	if w == nil {
		return 0, errors.New("postgres: append observation: nil observation")
	}
	if err := store.CheckObservation(&w.Observation); err != nil {
		return 0, fmt.Errorf("postgres: append observation: %w: %v", store.ErrInvalidRecord, err)
	}
	if w.Level != nil {
		if err := store.CheckLevelChange(w.Level); err != nil {
			return 0, fmt.Errorf("postgres: append observation: %w: %v", store.ErrInvalidRecord, err)
		}
	}
	o := w.Observation
	var instr []string
	if len(o.Instructions) > 0 {
		instr = o.Instructions
	}
	body := o.Body
	if body == nil {
		body = []byte{}
	}
	format := "text"
	if o.JSON {
		format = "json"
	}
	var seq int64
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var last, size int64
		err := tx.QueryRow(ctx, `SELECT ledger_seq, ledger_bytes FROM sessions WHERE id = $1 FOR UPDATE`, sid).Scan(&last, &size)
		if errors.Is(err, pgx.ErrNoRows) {
			return store.ErrNotFound
		}
		if err != nil {
			return err
		}
		seq, size = last+1, size+int64(len(o.Body)+len(o.Args))
		if _, err := tx.Exec(ctx, `INSERT INTO session_observations (session_id, seq, time_ns, kind, ref, instructions, format, sealed, body, args)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, sid, seq, o.Time.UnixNano(), o.Kind.String(), o.Ref, instr, format, o.Sealed, body, o.Args); err != nil {
			return err
		}
		dropped := false
		if w.LimitBytes > 0 && size > w.LimitBytes {
			if size, dropped, err = prune(ctx, tx, sid, seq, size, w.LimitBytes); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE sessions SET ledger_seq = $1, ledger_bytes = $2, ledger_dropped = ledger_dropped OR $3 WHERE id = $4`,
			seq, size, dropped, sid); err != nil {
			return err
		}
		if w.Level != nil {
			if _, err := setLevel(ctx, tx, sid, w.Level); err != nil {
				return err
			}
		}
		return notifyChange(ctx, tx, store.ChangeSession, sid)
	})
	if err != nil {
		return 0, fmt.Errorf("postgres: append observation to session %s: %w", sid, err)
	}
	if !durable {
		return 0, nil
	}
	return seq, nil
}

// prune deletes the session's oldest observations before seq until the
// ledger's size fits limit (the newest always stays); it returns the new
// size and whether an untrusted observation went.
func prune(ctx context.Context, tx pgx.Tx, sid string, seq, size, limit int64) (int64, bool, error) {
	rows, err := tx.Query(ctx, `SELECT seq, length(body) + coalesce(length(args), 0), kind FROM session_observations
  WHERE session_id = $1 AND seq < $2 ORDER BY seq`, sid, seq)
	if err != nil {
		return 0, false, err
	}
	var cut, freed, rowSeq, rowSize int64
	var kind string
	untrusted := false
	_, err = pgx.ForEachRow(rows, []any{&rowSeq, &rowSize, &kind}, func() error {
		if size-freed <= limit {
			return nil
		}
		cut, freed = rowSeq, freed+rowSize
		if kind == trust.UntrustedOutput.String() {
			untrusted = true
		}
		return nil
	})
	if err != nil {
		return 0, false, err
	}
	if cut == 0 {
		return size, false, nil
	}
	if _, err := tx.Exec(ctx, `DELETE FROM session_observations WHERE session_id = $1 AND seq <= $2`, sid, cut); err != nil {
		return 0, false, err
	}
	return size - freed, untrusted, nil
}

func scanObservation(row pgx.CollectableRow) (store.Observation, error) {
	var (
		o            store.Observation
		ns           int64
		kind, format string
	)
	if err := row.Scan(&o.Seq, &ns, &kind, &o.Ref, &o.Instructions, &format, &o.Sealed, &o.Body, &o.Args); err != nil {
		return o, err
	}
	if err := o.Kind.UnmarshalText([]byte(kind)); err != nil {
		return o, fmt.Errorf("observation %d: %w", o.Seq, err)
	}
	o.Time, o.JSON = nsTime(ns), format == "json"
	if o.Body == nil {
		o.Body = []byte{}
	}
	return o, nil
}

// Observations returns the session's observations after seq after.
func (s *Store) Observations(ctx context.Context, sid string, after int64) ([]store.Observation, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	out, err := queryRows(ctx, s.pool, scanObservation, `SELECT seq, time_ns, kind, ref, instructions, format, sealed, body, args FROM session_observations
  WHERE session_id = $1 AND seq > $2 ORDER BY seq`, sid, after)
	if err != nil {
		return nil, fmt.Errorf("postgres: observations of session %s: %w", sid, err)
	}
	return out, nil
}

// TouchSession records that the session was used at at (kept if later
// than the stored time): one statement, committed at once, which no other
// instance needs to hear of.
func (s *Store) TouchSession(ctx context.Context, sid string, at time.Time) error {
	ns, err := store.Nanos("used at", at)
	if err != nil {
		return fmt.Errorf("postgres: touch session %s: %w", sid, err)
	}
	if err := s.ok(); err != nil {
		return err
	}
	if _, err := s.pool.Exec(ctx, `UPDATE sessions SET active_ns = $1 WHERE id = $2 AND active_ns < $1`, ns, sid); err != nil {
		return fmt.Errorf("postgres: touch session %s: %w", sid, err)
	}
	return nil
}

// DeleteSession deletes the session and its ledger.
func (s *Store) DeleteSession(ctx context.Context, sid string) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var principal string
		err := tx.QueryRow(ctx, `DELETE FROM sessions WHERE id = $1 RETURNING principal_id`, sid).Scan(&principal)
		if errors.Is(err, pgx.ErrNoRows) {
			return store.ErrNotFound
		}
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM session_observations WHERE session_id = $1`, sid); err != nil {
			return err
		}
		if err := notifyChange(ctx, tx, store.ChangeSession, sid); err != nil {
			return err
		}
		return notifyChange(ctx, tx, store.ChangePrincipal, principal)
	})
	if err != nil {
		return fmt.Errorf("postgres: delete session %s: %w", sid, err)
	}
	return nil
}
