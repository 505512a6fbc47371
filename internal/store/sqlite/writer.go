package sqlite

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/ncruces/go-sqlite3"
)

// defaultChunks are the multi-row INSERT sizes the writer uses for
// decisions, largest first: a batch of n rows takes n/64 statements of 64
// rows, then 16s, then single rows. Measured with ~500-byte rows on 2 cores
// (BenchmarkWriterCost), this costs 30-40 % less per row than single-row
// statements; 256-row statements were no better than 64.
var defaultChunks = []int{64, 16, 1}

// decisionColumns is the column list of every decision INSERT.
const decisionColumns = `id, created_ns, turn_id, session_id, input_source, authority, tool, category, args_hash, risk, decision, reason, message, rule, rules_evaluated, rules_triggered, latency_ns, policy, spend_category, spend_cents, diagnostic, origin`

const decisionParams = 22

// writer owns the write connection. Only the writer goroutine (and Open
// before starting it, Close after it exited) may use it.
type writer struct {
	conn     *sqlite3.Conn
	chunks   []int
	decision []*binder // by chunk index
	// single-row statements; decision[len-1] is the single-row decision.
	execution, balance, policy, policySource  *sqlite3.Stmt
	permitInsert, permitConsume, permitCancel *sqlite3.Stmt
	permitRow, action                         *sqlite3.Stmt
	trust                                     trustWriter
	withheld                                  withheldWriter
	know                                      knowledgeWriter
	begin, commit                             *sqlite3.Stmt
	stmts                                     map[string]*sqlite3.Stmt // typed state's statements (tx.go)
	names                                     *dict                    // decision_dict
	policies                                  *dict                    // policy_snapshots' hashes

	ckpt              *checkpointer // nil: SQLite checkpoints, or nothing does
	checkpointPages   int           // WAL length at which afterCommit finishes a checkpoint
	walPages          int           // WAL length after the last commit
	retryCheckpointAt int           // WAL length before which afterCommit does not retry
	pokeCheckpointAt  int           // WAL length before which afterCommit does not wake the checkpointer

	retry   []*op // orphans of the last failed batch
	lastErr error
	// failHook, if set, is called before COMMIT; a non-nil error fails the
	// batch as a failed commit would. For tests.
	failHook atomic.Pointer[func() error]
}

func openWriter(ctx context.Context, cfg Config, opt options) (_ *writer, err error) {
	conn, err := sqlite3.OpenFlags(cfg.Path, sqlite3.OPEN_READWRITE|sqlite3.OPEN_CREATE)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", cfg.Path, err)
	}
	w := &writer{conn: conn, chunks: opt.chunks, checkpointPages: opt.checkpointPages}
	defer func() {
		if err != nil {
			err = errors.Join(err, w.close())
		}
	}()
	if err := conn.BusyTimeout(cfg.CommitTimeout); err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", cfg.Path, err)
	}
	// page_size only takes effect on a new database, before WAL is set.
	// The 32 MiB cache keeps a whole batch's dirty pages from spilling; the
	// size limit (above the checkpoint length) keeps SQLite from
	// truncating a WAL that regrows at once.
	// With a syncer, COMMIT leaves the WAL sync to it.
	synchronous := strings.ToUpper(cfg.Synchronous)
	if opt.syncer(cfg) {
		synchronous = "NORMAL"
	}
	pragmas := `PRAGMA journal_mode = WAL;
PRAGMA synchronous = ` + synchronous + `;
PRAGMA wal_autocheckpoint = ` + strconv.Itoa(opt.autocheckpoint()) + `;
PRAGMA foreign_keys = ON;
PRAGMA temp_store = MEMORY;
PRAGMA cache_size = -32768;
PRAGMA journal_size_limit = 134217728;`
	if opt.pageSize != 0 {
		pragmas = `PRAGMA page_size = ` + strconv.Itoa(opt.pageSize) + `;` + pragmas
	}
	if err := conn.Exec(pragmas); err != nil {
		if corrupt(err) {
			// The schema itself is unreadable (its pages are damaged).
			return nil, fmt.Errorf("sqlite: %s: %w: %v; restore it from a backup", cfg.Path, ErrNotDatabase, err)
		}
		return nil, fmt.Errorf("sqlite: open %s: %w", cfg.Path, err)
	}
	if mode, err := pragmaText(conn, `PRAGMA journal_mode`); err != nil {
		return nil, err
	} else if mode != "wal" {
		return nil, fmt.Errorf("sqlite: open %s: journal mode is %q, not wal", cfg.Path, mode)
	}
	if cfg.Verify {
		if err := verifyConsistent(conn, cfg.Path); err != nil {
			return nil, err
		}
	}
	if err := migrate(ctx, conn); err != nil {
		return nil, err
	}
	if cfg.Verify {
		if err := verifySchema(conn, cfg.Path); err != nil {
			return nil, err
		}
	}
	if err := w.prepare(); err != nil {
		return nil, err
	}
	if w.names, err = newDict(conn, "decision_dict", "value"); err != nil {
		return nil, err
	}
	if w.policies, err = newDict(conn, "policy_snapshots", "hash"); err != nil {
		return nil, err
	}
	if opt.checkpointPages > 0 && !opt.sqliteCheckpoints {
		// The hook replaces SQLite's own checkpoints (see afterCommit).
		conn.WALHook(func(_ *sqlite3.Conn, _ string, pages int) error {
			w.walPages = pages
			return nil
		})
	}
	return w, nil
}

func (w *writer) prepare() error {
	var err error
	prep := func(sql string) *sqlite3.Stmt {
		if err != nil {
			return nil
		}
		st, _, perr := w.conn.PrepareFlags(sql, sqlite3.PREPARE_PERSISTENT)
		if perr != nil {
			err = fmt.Errorf("sqlite: prepare %.50q: %w", sql, perr)
		}
		return st
	}
	w.decision = make([]*binder, len(w.chunks))
	for i, n := range w.chunks {
		if st := prep(decisionInsert(n)); st != nil {
			w.decision[i] = newBinder(st)
		}
	}
	w.execution = prep(`INSERT INTO tool_executions (id, created_at, tool_name, tool_category, session_id, turn_id, decision_id, spend_category, spend_cents) VALUES (?,?,?,?,?,?,?,?,?)`)
	w.balance = prep(`INSERT INTO tracked_balance (id, cents, observed_at) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET cents = excluded.cents, observed_at = excluded.observed_at`)
	// A hash interned by a decision has no source yet: the first
	// RecordPolicy fills it in.
	w.policy = prep(`INSERT INTO policy_snapshots (hash, source, created_at) VALUES (?, ?, ?) ON CONFLICT (hash) DO UPDATE SET source = excluded.source, created_at = excluded.created_at WHERE source IS NULL`)
	w.policySource = prep(`SELECT source FROM policy_snapshots WHERE hash = ?`)
	w.permitInsert = prep(sqlPermitInsert)
	w.permitConsume = prep(sqlPermitConsume)
	w.permitCancel = prep(sqlPermitCancel)
	w.permitRow = prep(sqlPermitRow)
	w.action = prep(sqlActionInsert)
	w.trust.insert = prep(sqlTrustInsert)
	w.trust.last = prep(sqlTrustLast)
	w.withheld.prepare(prep)
	w.know.prepare(prep)
	w.begin = prep(`BEGIN IMMEDIATE`)
	w.commit = prep(`COMMIT`)
	return err
}

// decisionInsert returns an INSERT of n rows. Multi-row statements use OR
// FAIL: any failure rolls the whole transaction back anyway, so SQLite need
// not keep a statement journal to undo half a statement, as ABORT would.
// The single-row statement aborts only itself, which isolates a bad row.
func decisionInsert(n int) string {
	var b strings.Builder
	if n == 1 {
		b.WriteString(`INSERT INTO decision_log (`)
	} else {
		b.WriteString(`INSERT OR FAIL INTO decision_log (`)
	}
	b.WriteString(decisionColumns)
	b.WriteString(`) VALUES `)
	row := `(` + strings.Repeat(`?,`, decisionParams-1) + `?)`
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(row)
	}
	return b.String()
}

func (w *writer) close() error {
	var errs []error
	for _, st := range slices.Collect(w.conn.Stmts()) {
		errs = append(errs, st.Close())
	}
	errs = append(errs, w.conn.Close())
	return errors.Join(errs...)
}

// run is the writer goroutine: it takes batches until Close and then
// drains what is left.
func (s *Store) run() {
	defer close(s.exited)
	for {
		select {
		case <-s.wake:
		case <-s.stop:
		}
		for {
			if s.sync != nil {
				s.hold()
			}
			s.mu.Lock()
			b := s.open
			if len(b.ops) == 0 && len(s.w.retry) == 0 {
				closed := s.closed
				s.mu.Unlock()
				if closed {
					return
				}
				break
			}
			s.open = newBatch()
			s.mu.Unlock()
			close(b.taken)
			s.write(b)
			close(b.committed)
			if s.sync != nil && b.err == nil {
				s.sync.add(b)
			} else {
				b.finish()
			}
			s.w.afterCommit()
		}
	}
}

// write writes b (and the previous batch's orphans) in one transaction.
func (s *Store) write(b *batch) {
	w := s.w
	ops := b.ops
	if len(w.retry) > 0 {
		ops = append(w.retry, ops...)
		for _, o := range w.retry {
			o.retried = true
		}
		w.retry = nil
	}
	err := w.tx(ops, false)
	if isConstraint(err) {
		// A bad row (a duplicate id): write the rows one by one, failing
		// only those that violate a constraint.
		err = w.tx(ops, true)
	}
	if err == nil {
		for _, o := range ops {
			if o.err != nil && o.orphan() {
				s.dropped.Add(1)
			}
		}
		return
	}
	err = commitError(err)
	w.lastErr = err
	b.err = err
	for _, o := range ops {
		o.err = nil // the batch failed as a whole
		if !o.orphan() {
			continue
		}
		if o.retried {
			s.dropped.Add(1)
		} else {
			w.retry = append(w.retry, o)
		}
	}
}

// tx writes ops in one transaction. With isolate, rows are inserted one by
// one and a row that violates a constraint gets the error in its op.err
// instead of failing the transaction.
func (w *writer) tx(ops []*op, isolate bool) (err error) {
	if err := w.begin.Exec(); err != nil {
		return err
	}
	w.trust.loaded = false
	defer func() {
		if err == nil {
			w.names.commit()
			w.policies.commit()
			return
		}
		w.names.rollback()
		w.policies.rollback()
		if !w.conn.GetAutocommit() {
			if rerr := w.conn.Exec(`ROLLBACK`); rerr != nil {
				err = fmt.Errorf("%w (rollback: %v)", err, rerr)
			}
		}
	}()
	rowErr := func(o *op, err error) error {
		if isolate && isConstraint(err) {
			o.err = fmt.Errorf("sqlite: write: %w", err)
			return nil
		}
		return err
	}
	decisions := make([]*op, 0, len(ops))
	for _, o := range ops {
		o.err = nil
		if o.kind == opDecision {
			decisions = append(decisions, o)
			continue
		}
		if err := rowErr(o, w.writeOther(o)); err != nil {
			return err
		}
	}
	if isolate {
		single := w.decision[len(w.decision)-1]
		for _, o := range decisions {
			if err := w.bindDecision(single, 0, o); err != nil {
				return err
			}
			if err := rowErr(o, single.st.Exec()); err != nil {
				return err
			}
		}
	} else {
		for ci, n := range w.chunks {
			st := w.decision[ci]
			for len(decisions) >= n {
				for i, o := range decisions[:n] {
					if err := w.bindDecision(st, i*decisionParams, o); err != nil {
						return err
					}
				}
				if err := st.st.Exec(); err != nil {
					return err
				}
				decisions = decisions[n:]
			}
		}
	}
	if hook := w.failHook.Load(); hook != nil {
		if err := (*hook)(); err != nil {
			return err
		}
	}
	return w.commit.Exec()
}

func (w *writer) writeOther(o *op) error {
	switch o.kind {
	case opExecution:
		st, e := w.execution, o.exec
		return firstErr(
			st.BindText(1, e.ID),
			st.BindText(2, o.at),
			st.BindText(3, e.Tool),
			bindOptional(st, 4, e.Category),
			bindOptional(st, 5, e.SessionID),
			bindOptional(st, 6, e.TurnID),
			bindOptional(st, 7, e.DecisionID),
			bindOptional(st, 8, e.SpendCategory),
			st.BindInt64(9, e.SpendCents),
			st.Exec(),
		)
	case opBalance:
		st := w.balance
		return firstErr(st.BindInt64(1, o.cents), st.BindText(2, o.at), st.Exec())
	case opPolicy:
		st := w.policy
		if err := firstErr(st.BindText(1, o.hash), st.BindBlob(2, o.source), st.BindText(3, o.at), st.Exec()); err != nil {
			return err
		}
		if w.conn.Changes() == 1 {
			return nil
		}
		q := w.policySource
		defer q.Reset()
		if err := q.BindText(1, o.hash); err != nil {
			return err
		}
		if !q.Step() {
			return fmt.Errorf("policy %s vanished: %w", o.hash, q.Err())
		}
		if !bytes.Equal(q.ColumnRawBlob(0), o.source) {
			// Reported to the caller alone; the batch goes on.
			o.err = fmt.Errorf("sqlite: record policy: hash %s already recorded with a different source", o.hash)
		}
		return nil
	case opPermitCreate:
		return w.writePermitCreate(o)
	case opPermitConsume:
		return w.writePermitConsume(o)
	case opPermitCancel:
		return w.writePermitCancel(o)
	case opAction:
		return w.writeAction(o)
	case opTrust:
		return w.writeTrust(o)
	case opWithheldPut:
		return w.writeWithheldPut(o)
	case opWithheldWrap:
		return w.writeWithheldWrap(o)
	case opWithheldDecide:
		return w.writeWithheldDecide(o)
	case opQuarantinePut:
		return w.writeQuarantinePut(o)
	case opQuarantineDecide:
		return w.writeQuarantineDecide(o)
	case opQuarantinePrune:
		return w.writeQuarantinePrune(o)
	case opGrimoirePut:
		return w.writeGrimoirePut(o)
	case opGrimoireAdoption:
		return w.writeGrimoireAdoption(o)
	case opGrimoireDelete:
		return w.writeGrimoireDelete(o)
	case opQuarantineRollback:
		return w.writeQuarantineRollback(o)
	case opFunc:
		return w.runFunc(o)
	}
	return fmt.Errorf("sqlite: unknown op kind %d", o.kind)
}

// bindDecision binds o's row at parameter offset base (0 for the first
// row of a statement), interning its strings.
func (w *writer) bindDecision(b *binder, base int, o *op) error {
	r := &o.dec
	var err error
	ref := func(d *dict, s string) int64 {
		if err != nil {
			return 0
		}
		var id int64
		id, err = d.optionalID(s)
		return id
	}
	source := ref(w.names, r.InputSource)
	var authority int64
	if o.ownAuthority && err == nil {
		authority, err = w.names.id(r.Authority) // "" too: NULL means derived
	}
	tool := ref(w.names, r.Tool)
	category := ref(w.names, r.Category)
	reason := ref(w.names, r.Reason)
	rule := ref(w.names, r.Rule)
	evaluated := ref(w.names, o.evaluated)
	triggered := ref(w.names, o.triggered)
	policy := ref(w.policies, r.PolicyHash)
	spendCategory := ref(w.names, r.SpendCategory)
	origin := ref(w.names, r.Origin.String())
	if err != nil {
		return fmt.Errorf("intern: %w", err)
	}
	b.text(base+1, r.ID)
	b.int(base+2, o.ns)
	b.optional(base+3, r.TurnID)
	b.optional(base+4, r.SessionID)
	b.ref(base+5, source)
	b.ref(base+6, authority)
	b.ref(base+7, tool)
	b.ref(base+8, category)
	if o.argsHash != nil {
		b.blob(base+9, o.argsHash)
	} else {
		b.optional(base+9, r.ArgsHash)
	}
	b.int(base+10, o.risk)
	b.int(base+11, o.decision)
	b.ref(base+12, reason)
	b.optional(base+13, r.Message)
	b.ref(base+14, rule)
	b.int(base+15, evaluated)
	b.int(base+16, triggered)
	b.int(base+17, int64(r.Latency))
	b.ref(base+18, policy)
	b.ref(base+19, spendCategory)
	b.int(base+20, r.SpendCents)
	b.optional(base+21, r.Diagnostic)
	b.ref(base+22, origin)
	return b.takeErr()
}

// bindOptional binds "" as NULL: nullable columns hold NULL for "not set",
// and binding NULL costs no allocation inside SQLite.
func bindOptional(st *sqlite3.Stmt, i int, v string) error {
	if v == "" {
		return st.BindNull(i)
	}
	return st.BindText(i, v)
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func isConstraint(err error) bool {
	var e *sqlite3.Error
	return errors.As(err, &e) && e.Code() == sqlite3.CONSTRAINT
}

func pragmaText(conn *sqlite3.Conn, sql string) (string, error) {
	st, _, err := conn.Prepare(sql)
	if err != nil {
		return "", fmt.Errorf("sqlite: %s: %w", sql, err)
	}
	defer st.Close()
	if !st.Step() {
		return "", fmt.Errorf("sqlite: %s: no row: %w", sql, st.Err())
	}
	return st.ColumnText(0), nil
}
