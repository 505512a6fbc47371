package sqlite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/trust"
)

const sessionColumns = `id, principal_id, name, created_ns, active_ns, level, level_ns, isolated, parent_id, author, reviewers, judge,
  directive, directive_trusted, judged, ledger_seq, ledger_dropped`

func scanSession(st *sqlite3.Stmt) (store.SessionRecord, error) {
	r := store.SessionRecord{
		ID: st.ColumnText(0), PrincipalID: st.ColumnText(1), Name: st.ColumnText(2),
		Created: nsTime(st, 3), Active: nsTime(st, 4), LevelAt: nsTime(st, 6), Isolated: st.ColumnBool(7),
		ParentID: st.ColumnText(8), Author: st.ColumnText(9), Judge: st.ColumnText(11),
		Directive: st.ColumnText(12), DirectiveTrusted: st.ColumnBool(13), Judged: st.ColumnInt(14),
		LedgerSeq: st.ColumnInt64(15), LedgerDropped: st.ColumnBool(16),
	}
	lv, err := trust.ParseLevel(st.ColumnText(5))
	if err != nil {
		return r, fmt.Errorf("session %s: %w", r.ID, err)
	}
	r.Level = lv
	if err := json.Unmarshal(st.ColumnRawText(10), &r.Reviewers); err != nil {
		return r, fmt.Errorf("session %s: reviewers: %w", r.ID, err)
	}
	return r, nil
}

func reviewersJSON(rs []string) string {
	if len(rs) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(rs)
	return string(b)
}

// OpenSession returns or creates the principal's named session (see
// store.Sessions).
func (s *Store) OpenSession(ctx context.Context, rec *store.SessionRecord, lim store.SessionLimits, mustCreate bool, now time.Time) (store.SessionRecord, bool, error) {
	if rec == nil {
		return store.SessionRecord{}, false, errors.New("sqlite: open session: nil session")
	}
	if err := store.CheckSession(rec); err != nil {
		return store.SessionRecord{}, false, fmt.Errorf("sqlite: open session: %w: %v", errInvalid, err)
	}
	if _, err := nanos("now", now); err != nil {
		return store.SessionRecord{}, false, fmt.Errorf("sqlite: open session: %w", err)
	}
	lim = lim.WithDefaults()
	r := *rec
	r.Active = now
	var got store.SessionRecord
	var created bool
	err := s.do(ctx, func(tx *wtx) error {
		got, created = store.SessionRecord{}, false
		// Expired sessions of the principal go first: they neither count
		// against its limit nor keep a name.
		idle, keep := now.Add(-lim.IdleTTL).UnixNano(), now.Add(-lim.KeepTTL).UnixNano()
		const expired = `principal_id = ?1 AND ((level = 'clean' AND isolated = 0 AND active_ns <= ?2) OR active_ns <= ?3)`
		if _, err := tx.exec(`DELETE FROM session_observations WHERE session_id IN (SELECT id FROM sessions WHERE `+expired+`)`, r.PrincipalID, idle, keep); err != nil {
			return err
		}
		if _, err := tx.exec(`DELETE FROM sessions WHERE `+expired, r.PrincipalID, idle, keep); err != nil {
			return err
		}
		found, err := tx.one(`SELECT `+sessionColumns+` FROM sessions WHERE principal_id = ? AND name = ?`, []any{r.PrincipalID, r.Name},
			func(st *sqlite3.Stmt) error {
				var err error
				got, err = scanSession(st)
				return err
			})
		if err != nil {
			return err
		}
		if found {
			if mustCreate {
				return answer(store.ErrSessionExists)
			}
			return nil
		}
		n, err := tx.int64(`SELECT count(*) FROM sessions WHERE principal_id = ?`, r.PrincipalID)
		if err != nil {
			return err
		}
		if n >= int64(lim.MaxPerPrincipal) {
			return answer(fmt.Errorf("%w (%d)", store.ErrSessionLimit, lim.MaxPerPrincipal))
		}
		var levelAt any
		if r.Level != trust.Clean {
			levelAt = r.Created
		}
		if _, err := tx.exec(`INSERT INTO sessions (id, principal_id, name, created_ns, active_ns, level, level_ns, isolated, parent_id, author,
  reviewers, judge, directive, directive_trusted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			r.ID, r.PrincipalID, r.Name, r.Created, now, r.Level.String(), levelAt, r.Isolated, nullable(r.ParentID), nullable(r.Author),
			reviewersJSON(r.Reviewers), nullable(r.Judge), nullable(r.Directive), r.DirectiveTrusted); err != nil {
			return err
		}
		got, created = r, true
		if got.Level != trust.Clean {
			got.LevelAt = r.Created
		}
		return nil
	})
	if err != nil {
		return store.SessionRecord{}, false, fmt.Errorf("sqlite: open session %q: %w", rec.Name, err)
	}
	return got, created, nil
}

// nullable binds "" as NULL.
func nullable(v string) any {
	if v == "" {
		return nil
	}
	return v
}

func (s *Store) sessionWhere(ctx context.Context, what, where string, args ...any) (store.SessionRecord, error) {
	r, err := readOne(ctx, s.r, scanSession, `SELECT `+sessionColumns+` FROM sessions WHERE `+where, args...)
	if err != nil {
		return store.SessionRecord{}, fmt.Errorf("sqlite: session %s: %w", what, err)
	}
	return r, nil
}

// Session returns the session id.
func (s *Store) Session(ctx context.Context, sid string) (store.SessionRecord, error) {
	return s.sessionWhere(ctx, sid, `id = ?`, sid)
}

// SessionByName returns the session principalID holds under name.
func (s *Store) SessionByName(ctx context.Context, principalID, name string) (store.SessionRecord, error) {
	return s.sessionWhere(ctx, fmt.Sprintf("%q of %s", name, principalID), `principal_id = ? AND name = ?`, principalID, name)
}

// ListSessions returns the sessions f selects, most recently active first.
func (s *Store) ListSessions(ctx context.Context, f store.SessionFilter) ([]store.SessionRecord, error) {
	q := `SELECT ` + sessionColumns + ` FROM sessions WHERE (?1 = '' OR principal_id = ?1) AND (?2 = '' OR level = ?2) ORDER BY active_ns DESC, id LIMIT ?3`
	level := ""
	if f.Level != nil {
		level = f.Level.String()
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 1000
	}
	out, err := readRows(ctx, s.r, scanSession, q, f.PrincipalID, level, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: list sessions: %w", err)
	}
	return out, nil
}

// UnderReview reports whether any session of principalID is under review.
func (s *Store) UnderReview(ctx context.Context, principalID string) (bool, error) {
	var n int64
	err := s.r.query(ctx, `SELECT count(*) FROM sessions WHERE principal_id = ? AND level = 'review'`, []any{principalID},
		func(st *sqlite3.Stmt) error { n = st.ColumnInt64(0); return nil })
	if err != nil {
		return false, fmt.Errorf("sqlite: under review: %w", err)
	}
	return n > 0, nil
}

// Tainted reports whether any session of principalID is tainted or under
// review.
func (s *Store) Tainted(ctx context.Context, principalID string) (bool, error) {
	var n int64
	err := s.r.query(ctx, `SELECT count(*) FROM sessions WHERE principal_id = ? AND level IN ('tainted', 'review')`, []any{principalID},
		func(st *sqlite3.Stmt) error { n = st.ColumnInt64(0); return nil })
	if err != nil {
		return false, fmt.Errorf("sqlite: tainted: %w", err)
	}
	return n > 0, nil
}

// setLevel applies c to the session sid inside tx; it reports whether the
// session was at one of c.From (false: nothing changed).
func setLevel(tx *wtx, sid string, c *store.LevelChange) (bool, error) {
	var cur string
	var reviewers []byte
	var judge string
	found, err := tx.one(`SELECT level, reviewers, coalesce(judge, '') FROM sessions WHERE id = ?`, []any{sid}, func(st *sqlite3.Stmt) error {
		cur, reviewers, judge = st.ColumnText(0), append([]byte(nil), st.ColumnRawText(1)...), st.ColumnText(2)
		return nil
	})
	if err != nil {
		return false, err
	}
	if !found {
		return false, store.ErrNotFound
	}
	ok := false
	for _, f := range c.From {
		if f.String() == cur {
			ok = true
		}
	}
	if !ok {
		return false, nil
	}
	rev := string(reviewers)
	if rev == "[]" && len(c.Reviewers) > 0 {
		rev = reviewersJSON(c.Reviewers)
	}
	if judge == "" {
		judge = c.Judge
	}
	_, err = tx.exec(`UPDATE sessions SET level = ?, level_ns = ?, reviewers = ?, judge = ? WHERE id = ?`,
		c.To.String(), c.At, rev, nullable(judge), sid)
	return true, err
}

// SetSessionLevel durably applies c to the session id.
func (s *Store) SetSessionLevel(ctx context.Context, sid string, c store.LevelChange) error {
	if err := store.CheckLevelChange(&c); err != nil {
		return fmt.Errorf("sqlite: set session level: %w: %v", errInvalid, err)
	}
	err := s.do(ctx, func(tx *wtx) error {
		ok, err := setLevel(tx, sid, &c)
		switch {
		case errors.Is(err, store.ErrNotFound):
			return answer(err)
		case err != nil:
			return err
		case !ok:
			return answer(store.ErrLevelChange)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlite: set session %s level: %w", sid, err)
	}
	return nil
}

// updateSession runs one UPDATE of the session sid, durably; ErrNotFound
// if it does not exist.
func (s *Store) updateSession(ctx context.Context, what, sid, sql string, args ...any) error {
	err := s.do(ctx, func(tx *wtx) error {
		n, err := tx.exec(sql, args...)
		if err == nil && n == 0 {
			return answer(store.ErrNotFound)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: %s of session %s: %w", what, sid, err)
	}
	return nil
}

// SetDirective durably stores the session's directive.
func (s *Store) SetDirective(ctx context.Context, sid, directive string, trusted bool, at time.Time) error {
	if len(directive) > store.MaxDirective {
		return fmt.Errorf("sqlite: set directive: %w: %d bytes, above %d", errInvalid, len(directive), store.MaxDirective)
	}
	return s.updateSession(ctx, "directive", sid, `UPDATE sessions SET directive = ?, directive_trusted = ? WHERE id = ?`, nullable(directive), trusted, sid)
}

// AddJudged durably adds n to the session's judged count.
func (s *Store) AddJudged(ctx context.Context, sid string, n int) error {
	return s.updateSession(ctx, "judged", sid, `UPDATE sessions SET judged = judged + ? WHERE id = ?`, n, sid)
}

// AppendObservation appends w to the session's ledger (see
// store.Sessions).
func (s *Store) AppendObservation(ctx context.Context, sid string, w *store.ObservationWrite, durable bool) (int64, error) {
	if err := checkObservationWrite(w); err != nil {
		return 0, fmt.Errorf("sqlite: append observation: %w", err)
	}
	row := newObservationRow(w)
	level, limit := w.Level, w.LimitBytes
	// appended is the observation's number, known only to a durable append
	// (a later one runs after this returns, so its function keeps its own).
	var appended int64
	fn := func(tx *wtx) error {
		seq, bytes, err := insertObservation(tx, sid, &row)
		if err != nil {
			return err
		}
		bytes, dropped, err := pruneObservations(tx, sid, seq, bytes, limit)
		if err != nil {
			return err
		}
		if _, err := tx.exec(`UPDATE sessions SET ledger_seq = ?, ledger_bytes = ?, ledger_dropped = max(ledger_dropped, ?) WHERE id = ?`,
			seq, bytes, dropped, sid); err != nil {
			return err
		}
		if level != nil {
			if _, err := setLevel(tx, sid, level); err != nil {
				return err
			}
		}
		if durable {
			appended = seq
		}
		return nil
	}
	var err error
	if durable {
		err = s.do(ctx, fn)
	} else {
		err = s.doLater(ctx, fn)
	}
	if err != nil {
		return 0, fmt.Errorf("sqlite: append observation to session %s: %w", sid, err)
	}
	return appended, nil
}

// checkObservationWrite refuses a nil observation, an invalid one, and an
// invalid level change with it.
func checkObservationWrite(w *store.ObservationWrite) error {
	if w == nil {
		return errors.New("nil observation")
	}
	if err := store.CheckObservation(&w.Observation); err != nil {
		return fmt.Errorf("%w: %v", errInvalid, err)
	}
	if w.Level != nil {
		if err := store.CheckLevelChange(w.Level); err != nil {
			return fmt.Errorf("%w: %v", errInvalid, err)
		}
	}
	return nil
}

// observationRow is an observation as session_observations stores it,
// copied from the caller's write (a later append runs after it returns).
type observationRow struct {
	o      store.Observation
	instr  any    // the instructions as a JSON array; nil: none
	format string // "text" or "json"
}

func newObservationRow(w *store.ObservationWrite) observationRow {
	row := observationRow{o: w.Observation, format: "text"}
	row.o.Body = append([]byte(nil), w.Body...)
	if w.Args != nil {
		row.o.Args = append([]byte(nil), w.Args...)
	}
	if len(row.o.Instructions) > 0 {
		b, _ := json.Marshal(row.o.Instructions)
		row.instr = string(b)
	}
	if row.o.JSON {
		row.format = "json"
	}
	return row
}

// insertObservation inserts row as the session's next observation and
// returns its number and the ledger's size with it.
func insertObservation(tx *wtx, sid string, row *observationRow) (seq, bytes int64, err error) {
	var last int64
	found, err := tx.one(`SELECT ledger_seq, ledger_bytes FROM sessions WHERE id = ?`, []any{sid}, func(st *sqlite3.Stmt) error {
		last, bytes = st.ColumnInt64(0), st.ColumnInt64(1)
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	if !found {
		return 0, 0, answer(store.ErrNotFound)
	}
	o := &row.o
	seq, bytes = last+1, bytes+int64(len(o.Body)+len(o.Args))
	if _, err := tx.exec(`INSERT INTO session_observations (session_id, seq, time_ns, kind, ref, instructions, format, sealed, body, args)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, sid, seq, o.Time, o.Kind.String(), o.Ref, row.instr, row.format, o.Sealed, o.Body, o.Args); err != nil {
		return 0, 0, err
	}
	return seq, bytes, nil
}

// pruneObservations deletes the session's oldest observations before seq
// until the ledger's bytes fit limit (0: no limit; the newest always
// stays). It returns the bytes left, and whether an untrusted output was
// dropped.
func pruneObservations(tx *wtx, sid string, seq, bytes, limit int64) (int64, bool, error) {
	if limit <= 0 || bytes <= limit {
		return bytes, false, nil
	}
	var cut, freed int64
	var untrusted bool
	err := tx.query(`SELECT seq, length(body) + coalesce(length(args), 0), kind FROM session_observations WHERE session_id = ? AND seq < ? ORDER BY seq`, []any{sid, seq},
		func(st *sqlite3.Stmt) error {
			if bytes-freed <= limit {
				return nil
			}
			cut, freed = st.ColumnInt64(0), freed+st.ColumnInt64(1)
			if st.ColumnText(2) == trust.UntrustedOutput.String() {
				untrusted = true
			}
			return nil
		})
	if err != nil {
		return 0, false, err
	}
	if cut == 0 {
		return bytes, false, nil
	}
	if _, err := tx.exec(`DELETE FROM session_observations WHERE session_id = ? AND seq <= ?`, sid, cut); err != nil {
		return 0, false, err
	}
	return bytes - freed, untrusted, nil
}

// Observations returns the session's observations after seq after.
func (s *Store) Observations(ctx context.Context, sid string, after int64) ([]store.Observation, error) {
	var out []store.Observation
	err := s.r.query(ctx, `SELECT seq, time_ns, kind, ref, instructions, format, sealed, body, args FROM session_observations
  WHERE session_id = ? AND seq > ? ORDER BY seq`, []any{sid, after}, func(st *sqlite3.Stmt) error {
		o := store.Observation{Seq: st.ColumnInt64(0), Time: nsTime(st, 1), Ref: st.ColumnText(3),
			JSON: st.ColumnText(5) == "json", Sealed: st.ColumnBool(6), Body: append([]byte{}, st.ColumnRawBlob(7)...)}
		if st.ColumnType(8) != sqlite3.NULL {
			o.Args = append([]byte{}, st.ColumnRawBlob(8)...)
		}
		if err := o.Kind.UnmarshalText([]byte(st.ColumnText(2))); err != nil {
			return fmt.Errorf("observation %d: %w", o.Seq, err)
		}
		if st.ColumnType(4) != sqlite3.NULL {
			if err := json.Unmarshal(st.ColumnRawText(4), &o.Instructions); err != nil {
				return fmt.Errorf("observation %d: instructions: %w", o.Seq, err)
			}
		}
		out = append(out, o)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: observations of session %s: %w", sid, err)
	}
	return out, nil
}

// TouchSession queues the session's last use for the next group commit.
func (s *Store) TouchSession(ctx context.Context, sid string, at time.Time) error {
	if _, err := nanos("used at", at); err != nil {
		return fmt.Errorf("sqlite: touch session %s: %w", sid, err)
	}
	return s.doLater(ctx, func(tx *wtx) error {
		_, err := tx.exec(`UPDATE sessions SET active_ns = ?1 WHERE id = ?2 AND active_ns < ?1`, at, sid)
		return err
	})
}

// DeleteSession durably deletes the session and its ledger.
func (s *Store) DeleteSession(ctx context.Context, sid string) error {
	err := s.do(ctx, func(tx *wtx) error {
		if _, err := tx.exec(`DELETE FROM session_observations WHERE session_id = ?`, sid); err != nil {
			return err
		}
		n, err := tx.exec(`DELETE FROM sessions WHERE id = ?`, sid)
		if err == nil && n == 0 {
			return answer(store.ErrNotFound)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: delete session %s: %w", sid, err)
	}
	return nil
}
