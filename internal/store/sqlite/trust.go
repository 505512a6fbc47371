package sqlite

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/store"
)

// The trust log is chained by the writer goroutine. AppendTrust queues an
// op like every other write; the writer assigns each trust op its Seq and
// Prev in the order it writes them, computes its Hash, and inserts it in the
// batch's transaction, so seqs follow commit order with no gaps however many
// goroutines append. The tail of the chain (the last seq and hash) is read
// once per transaction that appends, under the write lock BEGIN IMMEDIATE
// takes, and then kept in memory for the rest of the batch: it is thus
// right after a reopen, after a failed batch is rolled back, and when
// another process shares the file, at the cost of one rowid lookup per
// batch.

const (
	trustColumns   = `seq, id, time_ns, kind, session_id, actor, target, detail, prev, hash`
	sqlTrustInsert = `INSERT INTO trust_log (` + trustColumns + `) VALUES (?,?,?,?,?,?,?,?,?,?)`
	sqlTrustLast   = `SELECT seq, hash FROM trust_log ORDER BY seq DESC LIMIT 1`
	sqlTrustFrom   = `SELECT ` + trustColumns + ` FROM trust_log WHERE seq >= ? ORDER BY seq LIMIT ?`
)

// verifyPage is how many rows VerifyTrust reads per query: the reader's
// lock is released between pages so that verifying a long log does not
// stall other reads.
const verifyPage = 1024

// trustWriter is the writer's state for the trust log.
type trustWriter struct {
	insert, last *sqlite3.Stmt
	loaded       bool // seq and hash hold the tail in this transaction
	seq          int64
	hash         [32]byte
}

// AppendTrust durably appends a copy of rec and, once it is committed,
// sets rec's Seq, Prev and Hash. rec needs an id (unique in the log), a
// time, a kind of 1 to 64 bytes and a Detail that is empty or JSON (see
// store.CheckTrustRecord); an invalid record, or one whose id exists, is
// refused and nothing is written. A ctx that ends while the call waits
// returns ctx.Err() and the record may still be appended; rec is then left
// as it was.
func (s *Store) AppendTrust(ctx context.Context, rec *store.TrustRecord) error {
	if rec == nil {
		return errors.New("sqlite: append trust: nil record")
	}
	if err := store.CheckTrustRecord(rec); err != nil {
		return fmt.Errorf("sqlite: append trust: %w: %w", errInvalid, err)
	}
	r := *rec
	r.Detail = slices.Clone(rec.Detail)
	r.Time = r.Time.UTC()
	if err := s.submit(ctx, &op{kind: opTrust, durable: true, trust: &r}); err != nil {
		return err
	}
	rec.Seq, rec.Prev, rec.Hash = r.Seq, r.Prev, r.Hash
	return nil
}

// writeTrust chains o's record to the tail and inserts it; the tail moves
// only once the insert succeeded.
func (w *writer) writeTrust(o *op) error {
	t := &w.trust
	if !t.loaded {
		seq, hash, err := w.trustTail()
		if err != nil {
			return err
		}
		t.seq, t.loaded = seq, true
		if len(hash) != len(t.hash) {
			// Chaining to a corrupt row would hide it; refuse this record
			// alone (the next one reads the tail again).
			t.loaded = false
			o.err = fmt.Errorf("sqlite: append trust: the last row, %d, has a %d-byte hash: run ward audit verify", seq, len(hash))
			return nil
		}
		copy(t.hash[:], hash)
	}
	r := o.trust
	r.Seq, r.Prev = t.seq+1, t.hash
	r.Hash = store.TrustHash(r)
	st := t.insert
	err := firstErr(
		st.BindInt64(1, r.Seq),
		st.BindText(2, r.ID),
		st.BindInt64(3, r.Time.UnixNano()),
		st.BindText(4, string(r.Kind)),
		st.BindText(5, r.SessionID),
		st.BindText(6, r.Actor),
		st.BindText(7, r.Target),
		bindOptionalJSON(st, 8, r.Detail),
		st.BindBlob(9, r.Prev[:]),
		st.BindBlob(10, r.Hash[:]),
		st.Exec(),
	)
	var e *sqlite3.Error
	if errors.As(err, &e) && e.ExtendedCode() == sqlite3.CONSTRAINT_UNIQUE {
		return fmt.Errorf("trust record %s already exists: %w", r.ID, err)
	}
	if err != nil {
		return err
	}
	t.seq, t.hash = r.Seq, r.Hash
	return nil
}

// trustTail reads the last row's seq and hash on the writer's connection,
// (0, 32 zero bytes) for an empty log.
func (w *writer) trustTail() (int64, []byte, error) {
	q := w.trust.last
	defer q.Reset()
	if !q.Step() {
		if err := q.Err(); err != nil {
			return 0, nil, err
		}
		return 0, make([]byte, 32), nil
	}
	return q.ColumnInt64(0), slices.Clone(q.ColumnRawBlob(1)), nil
}

// TrustRecords returns up to limit rows (0: all) with seq at or after
// fromSeq, in seq order, as stored. A prev or hash column that is not 32
// bytes is returned truncated or zero-padded; VerifyTrust reports it.
func (s *Store) TrustRecords(ctx context.Context, fromSeq int64, limit int) ([]store.TrustRecord, error) {
	if limit < 0 {
		return nil, fmt.Errorf("sqlite: trust records: negative limit %d", limit)
	}
	out, _, err := s.trustPage(ctx, fromSeq, limit, nil)
	if err != nil {
		return nil, fmt.Errorf("sqlite: trust records: %w", err)
	}
	return out, nil
}

// trustPage reads rows from fromSeq on (limit 0: all). With each, it
// calls row (if not nil) with the record and whether its prev and hash are
// 32 bytes, instead of collecting them. It returns the number of rows read.
func (s *Store) trustPage(ctx context.Context, fromSeq int64, limit int, row func(r *store.TrustRecord, wellFormed bool)) ([]store.TrustRecord, int, error) {
	lim := int64(limit)
	if limit == 0 {
		lim = -1 // SQLite: no limit
	}
	var out []store.TrustRecord
	n := 0
	err := s.r.query(ctx, sqlTrustFrom, []any{fromSeq, lim}, func(st *sqlite3.Stmt) error {
		r := store.TrustRecord{
			Seq:       st.ColumnInt64(0),
			ID:        st.ColumnText(1),
			Time:      nsTime(st, 2),
			Kind:      store.TrustKind(st.ColumnText(3)),
			SessionID: st.ColumnText(4),
			Actor:     st.ColumnText(5),
			Target:    st.ColumnText(6),
			Detail:    textBytes(st, 7),
		}
		prev, hash := st.ColumnRawBlob(8), st.ColumnRawBlob(9)
		copy(r.Prev[:], prev)
		copy(r.Hash[:], hash)
		n++
		if row != nil {
			row(&r, len(prev) == 32 && len(hash) == 32)
			return nil
		}
		out = append(out, r)
		return nil
	})
	return out, n, err
}

// VerifyTrust walks the live trust log in seq order, a page at a time,
// from the row after the last archived one (see store.AuditArchive),
// and reports the first row whose seq does not follow the previous one
// (a missing row is reported by its seq), whose prev is not the previous
// row's hash, or whose hash is not store.TrustHash of its contents. Rows
// appended while it runs are verified too. The log cannot tell that its
// last rows were removed: that needs a seq or hash kept elsewhere.
func (s *Store) VerifyTrust(ctx context.Context) (store.TrustVerify, error) {
	seq, hash, err := s.trustAnchor(ctx)
	if err != nil {
		return store.TrustVerify{}, fmt.Errorf("sqlite: verify trust: archive manifest: %w", err)
	}
	v, err := store.VerifyTrustLogFrom(store.TrustChainAfter(seq, hash), verifyPage, func(from int64, row func(*store.TrustRecord, bool)) (int, error) {
		_, n, err := s.trustPage(ctx, from, verifyPage, row)
		return n, err
	}, func() (total int64, err error) {
		err = s.r.query(ctx, `SELECT COUNT(*) FROM trust_log`, nil, func(st *sqlite3.Stmt) error {
			total = st.ColumnInt64(0)
			return nil
		})
		return total, err
	})
	if err != nil {
		return store.TrustVerify{}, fmt.Errorf("sqlite: verify trust: %w", err)
	}
	return v, nil
}
