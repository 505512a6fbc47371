package sqlite

import (
	"context"
	"encoding/hex"
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
	if err := bindAll(st, args); err != nil {
		return err
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

// readRows runs sql with args on r and reads every result row with scan,
// in order.
func readRows[T any](ctx context.Context, r *reader, scan func(*sqlite3.Stmt) (T, error), sql string, args ...any) ([]T, error) {
	var out []T
	err := r.query(ctx, sql, args, func(st *sqlite3.Stmt) error {
		t, err := scan(st)
		if err != nil {
			return err
		}
		out = append(out, t)
		return nil
	})
	return out, err
}

// readOne runs sql with args on r and reads its row with scan:
// store.ErrNotFound when there is none (the key names at most one).
func readOne[T any](ctx context.Context, r *reader, scan func(*sqlite3.Stmt) (T, error), sql string, args ...any) (T, error) {
	var (
		t     T
		found bool
	)
	err := r.query(ctx, sql, args, func(st *sqlite3.Stmt) error {
		var err error
		t, err = scan(st)
		found = true
		return err
	})
	if err == nil && !found {
		err = store.ErrNotFound
	}
	return t, err
}

// decisionWhere returns the WHERE clause (on decision_log AS d) and
// arguments for f. A name is matched by its id in decision_dict, so a name
// never interned matches nothing. Values are always bound, never spliced
// into the SQL.
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
	eqName := func(col, v string) {
		if v != "" {
			conds = append(conds, col+" = (SELECT id FROM decision_dict WHERE value = ?)")
			args = append(args, v)
		}
	}
	eqName("d.tool", f.Tool)
	if f.Decision != 0 {
		code, ok := decisionCode(f.Decision)
		if !ok {
			code = -1 // matches nothing
		}
		conds = append(conds, "d.decision = ?")
		args = append(args, code)
	}
	eqName("d.reason", f.Reason)
	eq("d.session_id", f.SessionID)
	eq("d.turn_id", f.TurnID)
	if f.Origin != 0 {
		eqName("d.origin", f.Origin.String())
	}
	if !f.Since.IsZero() {
		if _, err := formatTime(f.Since); err != nil {
			return "", nil, fmt.Errorf("since: %w", err)
		}
		// The id range lets SQLite seek the primary key; created_ns makes
		// the bound exact below a millisecond.
		conds = append(conds, "d.id >= ?")
		args = append(args, id.MinAt(f.Since))
		switch {
		case f.Since.After(maxTime):
			conds = append(conds, "0")
		case !f.Since.Before(minTime):
			conds = append(conds, "d.created_ns >= ?")
			args = append(args, f.Since.UnixNano())
		}
	}
	if !f.Until.IsZero() {
		if _, err := formatTime(f.Until); err != nil {
			return "", nil, fmt.Errorf("until: %w", err)
		}
		switch {
		case f.Until.Before(minTime):
			conds = append(conds, "0")
		case !f.Until.After(maxTime):
			conds = append(conds, "d.created_ns < ?")
			args = append(args, f.Until.UnixNano())
		}
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

// selectDecisions reads decision_log with its interned strings. The LEFT
// JOINs keep d the outer loop, so the id order needs no sort.
const selectDecisions = `SELECT d.id, d.created_ns, d.turn_id, d.session_id, src.value, d.authority IS NOT NULL, auth.value,
  tl.value, cat.value, d.args_hash, d.risk, d.decision, rsn.value, d.message, rl.value, ev.value, tr.value,
  d.latency_ns, ph.hash, sc.value, d.spend_cents, d.diagnostic, org.value
FROM decision_log AS d
LEFT JOIN decision_dict AS src ON src.id = d.input_source
LEFT JOIN decision_dict AS auth ON auth.id = d.authority
LEFT JOIN decision_dict AS tl ON tl.id = d.tool
LEFT JOIN decision_dict AS cat ON cat.id = d.category
LEFT JOIN decision_dict AS rsn ON rsn.id = d.reason
LEFT JOIN decision_dict AS rl ON rl.id = d.rule
LEFT JOIN decision_dict AS ev ON ev.id = d.rules_evaluated
LEFT JOIN decision_dict AS tr ON tr.id = d.rules_triggered
LEFT JOIN policy_snapshots AS ph ON ph.id = d.policy
LEFT JOIN decision_dict AS sc ON sc.id = d.spend_category
LEFT JOIN decision_dict AS org ON org.id = d.origin`

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
	err = s.r.query(ctx, "SELECT count(*) FROM decision_log AS d"+where, args, func(st *sqlite3.Stmt) error {
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
	out, err := readRows(ctx, s.r, scanDecision, sql, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: query decisions: %w", err)
	}
	return out, nil
}

func scanDecision(st *sqlite3.Stmt) (store.DecisionRecord, error) {
	r := store.DecisionRecord{
		ID:             st.ColumnText(0),
		Time:           time.Unix(0, st.ColumnInt64(1)).UTC(),
		TurnID:         st.ColumnText(2),
		SessionID:      st.ColumnText(3),
		InputSource:    st.ColumnText(4),
		Tool:           st.ColumnText(7),
		Category:       st.ColumnText(8),
		Reason:         st.ColumnText(12),
		Message:        st.ColumnText(13),
		Rule:           st.ColumnText(14),
		RulesEvaluated: st.ColumnText(15),
		RulesTriggered: st.ColumnText(16),
		Latency:        time.Duration(st.ColumnInt64(17)),
		PolicyHash:     st.ColumnText(18),
		SpendCategory:  st.ColumnText(19),
		SpendCents:     st.ColumnInt64(20),
		Diagnostic:     st.ColumnText(21),
	}
	origin, err := store.ParseOrigin(st.ColumnText(22))
	if err != nil {
		return r, fmt.Errorf("record %s: stored origin: %w", r.ID, err)
	}
	r.Origin = origin
	if st.ColumnBool(5) {
		r.Authority = st.ColumnText(6)
	} else {
		r.Authority = derivedAuthority(r.InputSource)
	}
	if st.ColumnType(9) == sqlite3.BLOB {
		r.ArgsHash = hex.EncodeToString(st.ColumnRawBlob(9))
	} else {
		r.ArgsHash = st.ColumnText(9)
	}
	risk, decision := st.ColumnInt64(10), st.ColumnInt64(11)
	if risk < 1 || risk >= int64(len(riskNames)) || decision < 0 || decision >= int64(len(decisionVerdicts)) {
		return r, fmt.Errorf("record %s: stored risk %d or decision %d out of range", r.ID, risk, decision)
	}
	r.Risk, r.Decision = riskNames[risk], decisionVerdicts[decision]
	return r, nil
}

// reports are the named reports. Each counts decision_log's rows by an
// interned id first and names the few ids after: the triggered-rules report
// counts rows per rule list, then each rule of each list by the list's
// count (as json_each over every row's list would).
var reports = map[store.Report]struct {
	sql   string // {where} is replaced by decisionWhere's clause
	conds []string
}{
	store.MostDeniedTools: {`SELECT COALESCE(n.value, '') AS k, c.n AS total
FROM (SELECT d.tool AS ref, COUNT(*) AS n FROM decision_log AS d{where} GROUP BY d.tool) AS c
LEFT JOIN decision_dict AS n ON n.id = c.ref`, []string{"d.decision = 0"}},
	store.MostTriggeredRules: {`SELECT j.value AS k, SUM(c.n) AS total
FROM (SELECT d.rules_triggered AS ref, COUNT(*) AS n FROM decision_log AS d{where} GROUP BY d.rules_triggered) AS c
JOIN decision_dict AS l ON l.id = c.ref, json_each(l.value) AS j
GROUP BY k`, nil},
	store.DenialsByReason: {`SELECT COALESCE(n.value, '') AS k, c.n AS total
FROM (SELECT d.reason AS ref, COUNT(*) AS n FROM decision_log AS d{where} GROUP BY d.reason) AS c
LEFT JOIN decision_dict AS n ON n.id = c.ref`, []string{"d.decision = 0"}},
}

// DecisionReport runs the named report over the decisions f selects: the
// deny reports count only denials, the rules report counts each rule id in
// rules_triggered once per decision that lists it. Rows come by count,
// descending, then key; f.Limit bounds their number.
func (s *Store) DecisionReport(ctx context.Context, r store.Report, f store.DecisionFilter) ([]store.ReportRow, error) {
	rep, ok := reports[r]
	if !ok {
		return nil, fmt.Errorf("sqlite: report %q: %w", r, store.ErrUnknownReport)
	}
	where, args, err := decisionWhere(f, rep.conds...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: report %s: %w", r, err)
	}
	limit, args := limitClause(f, args)
	sql := strings.Replace(rep.sql, "{where}", where, 1) + " ORDER BY total DESC, k" + limit
	var out []store.ReportRow
	err = s.r.query(ctx, sql, args, func(st *sqlite3.Stmt) error {
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
	const q = `SELECT source FROM policy_snapshots WHERE hash = ? AND source IS NOT NULL`
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
