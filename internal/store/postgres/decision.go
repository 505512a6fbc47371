package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wardhq/ward/internal/store"
)

// decisionRow is a validated decision record as policy_decisions stores
// it, made on the caller's goroutine, off the writer's path.
type decisionRow struct {
	durable bool

	id, createdAt                           string
	ns, latency, spend                      int64
	turn, session, source, authority        any
	tool, category                          any
	argsHash, risk, decision, reason        string
	message, rule                           any
	evaluated, triggered                    string
	policy, spendCategory, diagnostic, orig any
}

var decisionCopyColumns = []string{"id", "created_ns", "created_at", "turn_id", "session_id", "input_source", "authority_level",
	"tool_name", "tool_category", "tool_args_hash", "risk_level", "decision", "reason", "message", "rule", "rules_evaluated",
	"rules_triggered", "latency_ns", "policy_hash", "spend_category", "spend_cents", "diagnostic", "origin"}

func (r *decisionRow) values() []any {
	return []any{r.id, r.ns, r.createdAt, r.turn, r.session, r.source, r.authority, r.tool, r.category, r.argsHash, r.risk,
		r.decision, r.reason, r.message, r.rule, r.evaluated, r.triggered, r.latency, r.policy, r.spendCategory, r.spend,
		r.diagnostic, r.orig}
}

// createdAtLayout is created_at's text: UTC, nine fractional digits.
const createdAtLayout = "2006-01-02T15:04:05.000000000Z"

// newDecisionRow validates rec (store.DecisionRecord.Validate, and text
// PostgreSQL can hold) and returns its row.
func newDecisionRow(rec *store.DecisionRecord, durable bool) (decisionRow, error) {
	if err := rec.Validate(); err != nil {
		return decisionRow{}, err
	}
	if err := storable(rec.TurnID, rec.SessionID, rec.InputSource, rec.Authority, rec.Tool, rec.Category, rec.ArgsHash,
		rec.Reason, rec.Message, rec.Rule, rec.RulesEvaluated, rec.RulesTriggered, rec.PolicyHash, rec.SpendCategory,
		rec.Diagnostic); err != nil {
		return decisionRow{}, err
	}
	evaluated := store.StoredRuleList(rec.RulesEvaluated) // Validate checked both
	triggered := store.StoredRuleList(rec.RulesTriggered)
	return decisionRow{
		durable: durable, id: rec.ID, ns: rec.Time.UnixNano(), createdAt: rec.Time.UTC().Format(createdAtLayout),
		turn: null(rec.TurnID), session: null(rec.SessionID), source: null(rec.InputSource), authority: null(rec.Authority),
		tool: rec.Tool, category: null(rec.Category), argsHash: rec.ArgsHash, risk: rec.Risk,
		decision: rec.Decision.String(), reason: rec.Reason, message: null(rec.Message), rule: null(rec.Rule),
		evaluated: evaluated, triggered: triggered, latency: int64(rec.Latency), policy: null(rec.PolicyHash),
		spendCategory: null(rec.SpendCategory), spend: rec.SpendCents, diagnostic: null(rec.Diagnostic),
		orig: rec.Origin.String(),
	}, nil
}

// storable refuses text PostgreSQL's text type cannot hold (a NUL byte,
// invalid UTF-8) or its jsonb cannot read (an escaped NUL), so that a
// record that would fail in the writer's batch is refused before it is
// queued. It names no value: they may come from an agent.
func storable(ss ...string) error {
	for i, s := range ss {
		if !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 || strings.Contains(s, `\u0000`) {
			return store.Invalid("field %d holds a NUL or invalid UTF-8, which PostgreSQL does not store", i+1)
		}
	}
	return nil
}

// AppendDecision queues rec for the writer's next group commit; with
// durable it returns once the record is committed. rec is copied. An
// invalid record (store.DecisionRecord.Validate, or text with a NUL byte
// or invalid UTF-8) is refused with an error wrapping
// store.ErrInvalidRecord and nothing is written. A ctx that ends while a
// durable call waits returns ctx.Err(); the record is still written.
func (s *Store) AppendDecision(ctx context.Context, rec *store.DecisionRecord, durable bool) error {
	if err := s.ok(); err != nil {
		return err
	}
	if rec == nil {
		return errors.New("postgres: append decision: nil record")
	}
	row, err := newDecisionRow(rec, durable)
	if err != nil {
		return fmt.Errorf("postgres: append decision: %w", err)
	}
	b, i, err := s.dec.enqueue(row)
	if err != nil || !durable {
		return err
	}
	if err := b.wait(ctx, i); err != nil {
		return fmt.Errorf("postgres: append decision %s: %w", rec.ID, err)
	}
	return nil
}

// decisionWhere returns the WHERE clause and arguments for f, with extra
// conditions first. Values are bound, never spliced.
func decisionWhere(f store.DecisionFilter, extra ...string) (string, []any, error) {
	if f.Limit < 0 {
		return "", nil, fmt.Errorf("negative limit %d", f.Limit)
	}
	conds := append([]string(nil), extra...)
	var args []any
	arg := func(v any) string { args = append(args, v); return "$" + strconv.Itoa(len(args)) }
	eq := func(col, v string) {
		if v != "" {
			conds = append(conds, col+" = "+arg(v))
		}
	}
	eq("tool_name", f.Tool)
	if f.Decision != 0 {
		eq("decision", f.Decision.String()) // an unknown verdict's name matches nothing
	}
	eq("reason", f.Reason)
	eq("session_id", f.SessionID)
	eq("turn_id", f.TurnID)
	if f.Origin != 0 {
		eq("origin", f.Origin.String())
	}
	switch {
	case f.Since.IsZero() || f.Since.Before(store.MinTime):
	case f.Since.After(store.MaxTime):
		conds = append(conds, "false")
	default:
		conds = append(conds, "created_ns >= "+arg(f.Since.UnixNano()))
	}
	switch {
	case f.Until.IsZero() || f.Until.After(store.MaxTime):
	case f.Until.Before(store.MinTime):
		conds = append(conds, "false")
	default:
		conds = append(conds, "created_ns < "+arg(f.Until.UnixNano()))
	}
	where := ""
	if len(conds) > 0 {
		where = " WHERE " + strings.Join(conds, " AND ")
	}
	return where, args, nil
}

func limitClause(limit int, args []any) (string, []any) {
	if limit == 0 {
		return "", args
	}
	args = append(args, int64(limit))
	return " LIMIT $" + strconv.Itoa(len(args)), args
}

const decisionSelect = `SELECT id, created_ns, turn_id, session_id, input_source, authority_level, tool_name, tool_category,
  tool_args_hash, risk_level, decision, reason, message, rule, rules_evaluated, rules_triggered, latency_ns, policy_hash,
  spend_category, spend_cents, diagnostic, origin FROM policy_decisions`

// QueryDecisions returns the decisions f selects, newest (highest id)
// first.
func (s *Store) QueryDecisions(ctx context.Context, f store.DecisionFilter) ([]store.DecisionRecord, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	where, args, err := decisionWhere(f)
	if err != nil {
		return nil, fmt.Errorf("postgres: query decisions: %w", err)
	}
	limit, args := limitClause(f.Limit, args)
	out, err := s.queryDecisions(ctx, decisionSelect+where+` ORDER BY id DESC`+limit, args)
	if err != nil {
		return nil, fmt.Errorf("postgres: query decisions: %w", err)
	}
	return out, nil
}

// queryDecisions runs q, which selects decisionSelect's columns, and
// scans its rows.
func (s *Store) queryDecisions(ctx context.Context, q string, args []any) ([]store.DecisionRecord, error) {
	rows, err := s.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.DecisionRecord
	for rows.Next() {
		var (
			r                                                   store.DecisionRecord
			ns, latency                                         int64
			turn, session, source, authority, category, message *string
			rule, policy, spendCategory, diagnostic             *string
			decision, origin                                    string
		)
		if err := rows.Scan(&r.ID, &ns, &turn, &session, &source, &authority, &r.Tool, &category, &r.ArgsHash, &r.Risk,
			&decision, &r.Reason, &message, &rule, &r.RulesEvaluated, &r.RulesTriggered, &latency, &policy,
			&spendCategory, &r.SpendCents, &diagnostic, &origin); err != nil {
			return nil, err
		}
		if r.Decision, err = store.ParseVerdict(decision); err != nil {
			return nil, fmt.Errorf("record %s: %w", r.ID, err)
		}
		if r.Origin, err = store.ParseOrigin(origin); err != nil {
			return nil, fmt.Errorf("record %s: %w", r.ID, err)
		}
		r.Time, r.Latency = nsTime(ns), time.Duration(latency)
		r.TurnID, r.SessionID, r.InputSource, r.Authority = text(turn), text(session), text(source), text(authority)
		r.Category, r.Message, r.Rule, r.PolicyHash = text(category), text(message), text(rule), text(policy)
		r.SpendCategory, r.Diagnostic = text(spendCategory), text(diagnostic)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// CountDecisions returns how many decisions f selects (f.Limit ignored).
func (s *Store) CountDecisions(ctx context.Context, f store.DecisionFilter) (int64, error) {
	if err := s.ok(); err != nil {
		return 0, err
	}
	f.Limit = 0
	where, args, err := decisionWhere(f)
	if err != nil {
		return 0, fmt.Errorf("postgres: count decisions: %w", err)
	}
	var n int64
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM policy_decisions`+where, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("postgres: count decisions: %w", err)
	}
	return n, nil
}

// reports are the named reports over policy_decisions; {where} is
// decisionWhere's clause, with the report's own conditions.
var reports = map[store.Report]struct {
	sql   string
	conds []string
}{
	store.MostDeniedTools: {`SELECT tool_name AS k, count(*) AS total FROM policy_decisions{where} GROUP BY tool_name`,
		[]string{"decision = 'deny'"}},
	store.MostTriggeredRules: {`SELECT coalesce(j.k, '') COLLATE "C" AS k, count(*) AS total
FROM policy_decisions CROSS JOIN LATERAL jsonb_array_elements_text(rules_triggered::jsonb) AS j(k){where} GROUP BY j.k`, nil},
	store.DenialsByReason: {`SELECT reason AS k, count(*) AS total FROM policy_decisions{where} GROUP BY reason`,
		[]string{"decision = 'deny'"}},
}

// DecisionReport runs the named report over the decisions f selects: the
// deny reports count only denials, the rules report counts each rule id
// of rules_triggered once per time a decision lists it. Rows come by
// count, descending, then key in byte order; f.Limit bounds their number.
func (s *Store) DecisionReport(ctx context.Context, r store.Report, f store.DecisionFilter) ([]store.ReportRow, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	rep, ok := reports[r]
	if !ok {
		return nil, fmt.Errorf("postgres: report %q: %w", r, store.ErrUnknownReport)
	}
	where, args, err := decisionWhere(f, rep.conds...)
	if err != nil {
		return nil, fmt.Errorf("postgres: report %s: %w", r, err)
	}
	limit, args := limitClause(f.Limit, args)
	q := strings.Replace(rep.sql, "{where}", where, 1) + ` ORDER BY total DESC, k` + limit
	rows, err := s.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: report %s: %w", r, err)
	}
	defer rows.Close()
	var out []store.ReportRow
	for rows.Next() {
		var row store.ReportRow
		if err := rows.Scan(&row.Key, &row.Count); err != nil {
			return nil, fmt.Errorf("postgres: report %s: %w", r, err)
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: report %s: %w", r, err)
	}
	return out, nil
}
