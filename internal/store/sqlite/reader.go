package sqlite

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
)

// reader owns the read-only connection. In WAL mode it reads a consistent
// snapshot while the writer commits; its mutex serializes readers.
type reader struct {
	mu     sync.Mutex
	conn   *sqlite3.Conn
	stmts  map[string]*sqlite3.Stmt // prepared on first use; the set of SQL texts is bounded
	closed bool
}

func openReader(cfg Config) (*reader, error) {
	conn, err := sqlite3.OpenFlags(cfg.Path, sqlite3.OPEN_READONLY)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s for reading: %w", cfg.Path, err)
	}
	err = conn.BusyTimeout(cfg.CommitTimeout)
	if err == nil {
		err = conn.Exec(`PRAGMA query_only = ON; PRAGMA cache_size = -16384;`)
	}
	if err != nil {
		return nil, errors.Join(fmt.Errorf("sqlite: open %s for reading: %w", cfg.Path, err), conn.Close())
	}
	return &reader{conn: conn, stmts: make(map[string]*sqlite3.Stmt)}, nil
}

func (r *reader) close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	r.closed = true
	var errs []error
	for _, st := range r.stmts {
		errs = append(errs, st.Close())
	}
	errs = append(errs, r.conn.Close())
	return errors.Join(errs...)
}

// query runs sql with args and calls row for each result row. ctx
// interrupts a long query.
func (r *reader) query(ctx context.Context, sql string, args []any, row func(*sqlite3.Stmt) error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return store.ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	st := r.stmts[sql]
	if st == nil {
		var err error
		if st, _, err = r.conn.PrepareFlags(sql, sqlite3.PREPARE_PERSISTENT); err != nil {
			return err
		}
		r.stmts[sql] = st
	}
	old := r.conn.SetInterrupt(ctx)
	defer r.conn.SetInterrupt(old)
	// Reset ends the statement's read transaction, so a finished query
	// never holds back WAL checkpoints.
	defer st.Reset()
	for i, a := range args {
		var err error
		switch v := a.(type) {
		case string:
			err = st.BindText(i+1, v)
		case int64:
			err = st.BindInt64(i+1, v)
		default:
			err = fmt.Errorf("unsupported argument type %T", a)
		}
		if err != nil {
			return err
		}
	}
	for st.Step() {
		if err := row(st); err != nil {
			return err
		}
	}
	if err := st.Err(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	return nil
}

// decisionWhere returns the WHERE clause (on table alias d) and arguments
// for f. Values are always bound, never spliced into the SQL.
func decisionWhere(f store.DecisionFilter, extra ...string) (string, []any, error) {
	if f.Limit < 0 {
		return "", nil, fmt.Errorf("negative limit %d", f.Limit)
	}
	conds := slices.Clone(extra)
	var args []any
	eq := func(col, v string) {
		if v != "" {
			conds = append(conds, col+" = ?")
			args = append(args, v)
		}
	}
	eq("d.tool_name", f.Tool)
	eq("d.decision", f.Decision)
	eq("d.reason", f.Reason)
	eq("d.session_id", f.SessionID)
	eq("d.turn_id", f.TurnID)
	eq("d.origin", f.Origin)
	if !f.Since.IsZero() {
		since, err := formatTime(f.Since)
		if err != nil {
			return "", nil, fmt.Errorf("since: %w", err)
		}
		// The id range lets SQLite seek the primary key; created_at makes
		// the bound exact below a millisecond.
		conds = append(conds, "d.id >= ?", "d.created_at >= ?")
		args = append(args, id.MinAt(f.Since), since)
	}
	if !f.Until.IsZero() {
		until, err := formatTime(f.Until)
		if err != nil {
			return "", nil, fmt.Errorf("until: %w", err)
		}
		conds = append(conds, "d.created_at < ?")
		args = append(args, until)
	}
	if len(conds) == 0 {
		return "", args, nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args, nil
}

func limitClause(f store.DecisionFilter, args []any) (string, []any) {
	if f.Limit == 0 {
		return "", args
	}
	return " LIMIT ?", append(args, int64(f.Limit))
}

var selectDecisions = "SELECT d." + strings.ReplaceAll(decisionColumns, ", ", ", d.") + " FROM policy_decisions AS d"

func decisionQuery(f store.DecisionFilter) (string, []any, error) {
	where, args, err := decisionWhere(f)
	if err != nil {
		return "", nil, err
	}
	limit, args := limitClause(f, args)
	return selectDecisions + where + " ORDER BY d.id DESC" + limit, args, nil
}

// CountDecisions returns how many decisions f selects, ignoring f.Limit.
func (s *Store) CountDecisions(ctx context.Context, f store.DecisionFilter) (int64, error) {
	f.Limit = 0
	where, args, err := decisionWhere(f)
	if err != nil {
		return 0, fmt.Errorf("sqlite: count decisions: %w", err)
	}
	var n int64
	err = s.r.query(ctx, "SELECT count(*) FROM policy_decisions AS d"+where, args, func(st *sqlite3.Stmt) error {
		n = st.ColumnInt64(0)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("sqlite: count decisions: %w", err)
	}
	return n, nil
}

// QueryDecisions returns the decisions f selects, newest (largest id)
// first.
func (s *Store) QueryDecisions(ctx context.Context, f store.DecisionFilter) ([]store.DecisionRecord, error) {
	sql, args, err := decisionQuery(f)
	if err != nil {
		return nil, fmt.Errorf("sqlite: query decisions: %w", err)
	}
	var out []store.DecisionRecord
	err = s.r.query(ctx, sql, args, func(st *sqlite3.Stmt) error {
		rec, err := scanDecision(st)
		out = append(out, rec)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: query decisions: %w", err)
	}
	return out, nil
}

func scanDecision(st *sqlite3.Stmt) (store.DecisionRecord, error) {
	t, err := parseTime(st.ColumnText(1))
	return store.DecisionRecord{
		ID:             st.ColumnText(0),
		Time:           t,
		TurnID:         st.ColumnText(2),
		SessionID:      st.ColumnText(3),
		InputSource:    st.ColumnText(4),
		Authority:      st.ColumnText(5),
		Tool:           st.ColumnText(6),
		Category:       st.ColumnText(7),
		ArgsHash:       st.ColumnText(8),
		Risk:           st.ColumnText(9),
		Decision:       st.ColumnText(10),
		Reason:         st.ColumnText(11),
		Message:        st.ColumnText(12),
		Rule:           st.ColumnText(13),
		RulesEvaluated: st.ColumnText(14),
		RulesTriggered: st.ColumnText(15),
		Latency:        time.Duration(st.ColumnInt64(16)),
		// column 17 is latency_ms, derived from latency_ns
		PolicyHash:    st.ColumnText(18),
		SpendCategory: st.ColumnText(19),
		SpendCents:    st.ColumnInt64(20),
		Diagnostic:    st.ColumnText(21),
		Origin:        st.ColumnText(22),
	}, err
}

// reportSQL returns the SELECT of a named report up to its WHERE clause,
// and the conditions it adds to the filter's.
func reportSQL(r store.Report) (from string, conds []string, ok bool) {
	switch r {
	case store.MostDeniedTools:
		return "SELECT d.tool_name AS k, COUNT(*) AS n FROM policy_decisions AS d", []string{"d.decision = 'deny'"}, true
	case store.MostTriggeredRules:
		return "SELECT j.value AS k, COUNT(*) AS n FROM policy_decisions AS d, json_each(d.rules_triggered) AS j", nil, true
	case store.DenialsByReason:
		return "SELECT d.reason AS k, COUNT(*) AS n FROM policy_decisions AS d", []string{"d.decision = 'deny'"}, true
	}
	return "", nil, false
}

// DecisionReport runs the named report over the decisions f selects: the
// deny reports count only denials, the rules report counts each rule id in
// rules_triggered once per decision that lists it. Rows come by count,
// descending, then key; f.Limit bounds their number.
func (s *Store) DecisionReport(ctx context.Context, r store.Report, f store.DecisionFilter) ([]store.ReportRow, error) {
	from, conds, ok := reportSQL(r)
	if !ok {
		return nil, fmt.Errorf("sqlite: report %q: %w", r, store.ErrUnknownReport)
	}
	where, args, err := decisionWhere(f, conds...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: report %s: %w", r, err)
	}
	limit, args := limitClause(f, args)
	var out []store.ReportRow
	err = s.r.query(ctx, from+where+" GROUP BY k ORDER BY n DESC, k"+limit, args, func(st *sqlite3.Stmt) error {
		out = append(out, store.ReportRow{Key: st.ColumnText(0), Count: st.ColumnInt64(1)})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: report %s: %w", r, err)
	}
	return out, nil
}

// Executions returns executed calls at or after since, oldest first.
func (s *Store) Executions(ctx context.Context, since time.Time) ([]store.ExecutionRecord, error) {
	from := ""
	if !since.IsZero() {
		var err error
		if from, err = formatTime(since); err != nil {
			return nil, fmt.Errorf("sqlite: executions: since: %w", err)
		}
	}
	const q = `SELECT id, created_at, tool_name, tool_category, session_id, turn_id, decision_id, spend_category, spend_cents FROM tool_executions WHERE created_at >= ? ORDER BY created_at, id`
	var out []store.ExecutionRecord
	err := s.r.query(ctx, q, []any{from}, func(st *sqlite3.Stmt) error {
		t, err := parseTime(st.ColumnText(1))
		out = append(out, store.ExecutionRecord{
			ID:            st.ColumnText(0),
			Time:          t,
			Tool:          st.ColumnText(2),
			Category:      st.ColumnText(3),
			SessionID:     st.ColumnText(4),
			TurnID:        st.ColumnText(5),
			DecisionID:    st.ColumnText(6),
			SpendCategory: st.ColumnText(7),
			SpendCents:    st.ColumnInt64(8),
		})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: executions: %w", err)
	}
	return out, nil
}

// Balance returns the last balance recorded by SetBalance.
func (s *Store) Balance(ctx context.Context) (cents int64, at time.Time, ok bool, err error) {
	const q = `SELECT cents, observed_at FROM tracked_balance WHERE id = 1`
	err = s.r.query(ctx, q, nil, func(st *sqlite3.Stmt) error {
		cents, ok = st.ColumnInt64(0), true
		var err error
		at, err = parseTime(st.ColumnText(1))
		return err
	})
	if err != nil {
		return 0, time.Time{}, false, fmt.Errorf("sqlite: balance: %w", err)
	}
	return cents, at, ok, nil
}

// Policy returns the source recorded under hash, or an error wrapping
// store.ErrNotFound.
func (s *Store) Policy(ctx context.Context, hash string) ([]byte, error) {
	const q = `SELECT source FROM policy_snapshots WHERE hash = ?`
	var src []byte
	found := false
	err := s.r.query(ctx, q, []any{hash}, func(st *sqlite3.Stmt) error {
		src, found = st.ColumnBlob(0, []byte{}), true
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: policy: %w", err)
	}
	if !found {
		return nil, fmt.Errorf("sqlite: policy %.16s: %w", hash, store.ErrNotFound)
	}
	return src, nil
}
