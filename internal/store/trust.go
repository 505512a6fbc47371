package store

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"
)

// TrustKind is what a trust record records. The set is closed: a backend
// appends only these kinds. It is a string so that a row read back is the
// row as stored, whatever a tamperer wrote into it (VerifyTrust then names
// the row).
type TrustKind string

// Trust record kinds.
const (
	TrustTaintAssigned   TrustKind = "taint_assigned"
	TrustAccessDenied    TrustKind = "access_denied"
	TrustReviewVerdict   TrustKind = "review_verdict"
	TrustPromotion       TrustKind = "promotion"
	TrustDecryptionGrant TrustKind = "decryption_grant"
	// A delegated output withheld from an isolated orchestrator, and
	// read by one of its reviewers.
	TrustOutputWithheld TrustKind = "output_withheld"
	TrustOutputRead     TrustKind = "output_read"
)

var trustKinds = []TrustKind{TrustTaintAssigned, TrustAccessDenied, TrustReviewVerdict, TrustPromotion, TrustDecryptionGrant,
	TrustOutputWithheld, TrustOutputRead}

// Valid reports whether k is one of the kinds.
func (k TrustKind) Valid() bool {
	for _, x := range trustKinds {
		if k == x {
			return true
		}
	}
	return false
}

// String returns the kind's name.
func (k TrustKind) String() string { return string(k) }

// MarshalText encodes the kind as its name; one outside the set (a
// tampered row) as it is.
func (k TrustKind) MarshalText() ([]byte, error) { return []byte(k), nil }

// MaxTrustKind is the longest Kind a stored TrustRecord may have, in bytes.
const MaxTrustKind = 64

// TrustRecord is one row of the trust audit log: a taint assignment, an
// access denial, a review verdict, a promotion or a decryption grant. The
// caller sets ID, Time, Kind and the rest; the store assigns Seq (1, 2, 3,
// ... in commit order, without gaps), Prev (the previous row's Hash, 32
// zero bytes for row 1) and Hash (TrustHash of the record).
type TrustRecord struct {
	Seq       int64
	ID        string
	Time      time.Time
	Kind      TrustKind
	SessionID string
	Actor     string
	Target    string
	Detail    []byte // JSON, or empty
	Prev      [32]byte
	Hash      [32]byte
}

// TrustVerify is the outcome of checking the whole trust log. OK is true
// and FirstBad 0 when every row is intact; otherwise FirstBad is the seq of
// the first row that fails (for a missing row, its seq) and Reason says
// why.
type TrustVerify struct {
	Rows     int64
	OK       bool
	FirstBad int64
	Reason   string
}

// TrustLog is the append-only, hash-chained trust audit log.
type TrustLog interface {
	// AppendTrust durably appends rec and, once it is committed, fills in
	// its Seq, Prev and Hash. Appends from any number of goroutines are
	// chained in commit order. A ctx that ends while the append waits may
	// return ctx.Err() with the record still appended (rec is then not
	// filled in).
	AppendTrust(ctx context.Context, rec *TrustRecord) error
	// TrustRecords returns up to limit rows (0: all) from seq fromSeq on,
	// in seq order, as stored: a tampered row is returned as it is.
	TrustRecords(ctx context.Context, fromSeq int64, limit int) ([]TrustRecord, error)
	// VerifyTrust walks every row in seq order and reports the first one
	// whose seq, prev link or hash is wrong. An error means the log could
	// not be read, not that it is bad.
	VerifyTrust(ctx context.Context) (TrustVerify, error)
}

// trustDomain opens every hashed encoding, so that a trust hash is never
// the hash of some other ward structure.
const trustDomain = "ward.trust.v1\x00"

// TrustHash returns the hash that chains r: SHA-256 over a canonical
// encoding every backend computes the same way. All integers are
// big-endian; a string field is its length as a uint64 followed by its
// bytes:
//
//	"ward.trust.v1\x00"            14 bytes, the domain tag
//	seq                            int64
//	time                           int64, Unix nanoseconds (r.Time.UnixNano())
//	id, kind, session, actor,      each uint64 length || bytes
//	target, detail
//	prev                           32 bytes
//
// r.Hash is not part of the input.
func TrustHash(r *TrustRecord) [32]byte {
	h := sha256.New()
	var n [8]byte
	putInt := func(v uint64) {
		binary.BigEndian.PutUint64(n[:], v)
		h.Write(n[:])
	}
	putBytes := func(b []byte) {
		putInt(uint64(len(b)))
		h.Write(b)
	}
	h.Write([]byte(trustDomain))
	putInt(uint64(r.Seq))
	putInt(uint64(r.Time.UnixNano()))
	for _, s := range []string{r.ID, string(r.Kind), r.SessionID, r.Actor, r.Target} {
		putInt(uint64(len(s)))
		h.Write([]byte(s))
	}
	putBytes(r.Detail)
	h.Write(r.Prev[:])
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

// TrustChain checks a trust log row by row, in seq order, the way
// VerifyTrust does; a backend feeds it the stored rows. Its zero value
// expects row 1.
type TrustChain struct {
	rows     int64
	last     int64
	lastHash [32]byte
	bad      int64
	reason   string
}

// TrustChainAfter returns a chain that expects row seq+1 linked to hash:
// the live log after an archive whose last row is seq, with that hash.
func TrustChainAfter(seq int64, hash [32]byte) TrustChain {
	return TrustChain{last: seq, lastHash: hash}
}

// Tail returns the seq and hash of the last row added, the start of the
// chain when none was.
func (c *TrustChain) Tail() (int64, [32]byte) { return c.last, c.lastHash }

// Add checks the next stored row and returns false once the chain is bad
// (later rows are not checked: the first bad row is the finding). The
// backend reports a stored prev or hash that is not 32 bytes with
// AddMalformed instead.
func (c *TrustChain) Add(r *TrustRecord) bool {
	if c.bad != 0 {
		return false
	}
	c.rows++
	want := c.last + 1
	switch {
	case r.Seq < want:
		return c.fail(r.Seq, fmt.Sprintf("seq %d out of order after row %d", r.Seq, c.last))
	case r.Seq > want:
		if want == r.Seq-1 {
			return c.fail(want, fmt.Sprintf("row %d is missing (row %d follows row %d)", want, r.Seq, c.last))
		}
		return c.fail(want, fmt.Sprintf("rows %d to %d are missing (row %d follows row %d)", want, r.Seq-1, r.Seq, c.last))
	case r.Prev != c.lastHash:
		if c.last == 0 {
			return c.fail(r.Seq, "prev of row 1 is not zero")
		}
		return c.fail(r.Seq, fmt.Sprintf("prev does not match the hash of row %d", c.last))
	case TrustHash(r) != r.Hash:
		return c.fail(r.Seq, "hash does not match the row's contents")
	}
	c.last, c.lastHash = r.Seq, r.Hash
	return true
}

// AddMalformed records that the next row, seq, could not be decoded
// (why says how) and so is the first bad row.
func (c *TrustChain) AddMalformed(seq int64, why string) bool {
	if c.bad != 0 {
		return false
	}
	c.rows++
	return c.fail(seq, why)
}

func (c *TrustChain) fail(seq int64, reason string) bool {
	c.bad, c.reason = seq, reason
	return false
}

// Result returns the verdict on the rows added so far; rows is the number
// of rows the backend holds (Rows of the result).
func (c *TrustChain) Result(rows int64) TrustVerify {
	if c.bad != 0 {
		return TrustVerify{Rows: rows, FirstBad: c.bad, Reason: c.reason}
	}
	return TrustVerify{Rows: rows, OK: true}
}

// CheckTrustRecord returns why rec cannot be appended, or nil: it needs an
// ID, a non-zero Time within the years 1678-2262 (Unix nanoseconds hold
// no others), a Kind of the set, and a Detail that is empty or JSON.
func CheckTrustRecord(rec *TrustRecord) error {
	switch {
	case rec.ID == "":
		return errors.New("empty id")
	case rec.Time.IsZero():
		return errors.New("zero time")
	case rec.Time.Before(time.Unix(0, math.MinInt64)) || rec.Time.After(time.Unix(0, math.MaxInt64)):
		return fmt.Errorf("time %v outside years 1678-2262", rec.Time)
	case rec.Kind == "":
		return errors.New("empty kind")
	case !rec.Kind.Valid():
		return fmt.Errorf("kind %.64q is not a trust record kind", string(rec.Kind))
	case len(rec.Detail) > 0 && !json.Valid(rec.Detail):
		return errors.New("detail is not JSON")
	}
	return nil
}

// VerifyTrustLogFrom is VerifyTrust for every backend: it walks the log in
// seq order a page of pageSize rows at a time (page calls row for each
// record at or after from, in order, and returns how many it read), and
// reports the first row that breaks the chain. c is TrustChainAfter the
// last archived row (the zero TrustChain for a log never archived). count
// is the log's total number of rows, read only when a break stopped the
// walk early.
func VerifyTrustLogFrom(c TrustChain, pageSize int, page func(from int64, row func(r *TrustRecord, wellFormed bool)) (int, error), count func() (int64, error)) (TrustVerify, error) {
	var rows int64
	from := int64(math.MinInt64)
	for {
		ok := true
		n, err := page(from, func(r *TrustRecord, wellFormed bool) {
			rows++
			from = r.Seq + 1
			if !ok {
				return
			}
			if wellFormed {
				ok = c.Add(r)
			} else {
				ok = c.AddMalformed(r.Seq, "prev or hash is not 32 bytes")
			}
		})
		if err != nil {
			return TrustVerify{}, err
		}
		if !ok {
			break
		}
		if n < pageSize || from == math.MinInt64 { // the end, or seq overflowed
			return c.Result(rows), nil
		}
	}
	total, err := count()
	if err != nil {
		return TrustVerify{}, err
	}
	return c.Result(total), nil
}
