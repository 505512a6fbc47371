package sqlite

import (
	"fmt"
	"sync"
	"time"

	"github.com/wardhq/ward/internal/store"
)

// timeLayout is how times are stored: UTC, nine fractional digits, fixed
// width for years 0001-9999, so text order is time order.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

const timeLen = len(timeLayout)

// formatTime returns t as stored text, or an error for a time outside
// years 1-9999 (which would break fixed width).
func formatTime(t time.Time) (string, error) {
	var buf [timeLen + 8]byte
	b := t.UTC().AppendFormat(buf[:0], timeLayout)
	if len(b) != timeLen {
		return "", fmt.Errorf("time %v outside years 1-9999", t)
	}
	return string(b), nil
}

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("sqlite: stored time %q: %w", s, err)
	}
	return t.UTC(), nil
}

// errInvalid marks records rejected before they are queued.
var errInvalid = store.ErrInvalidRecord

func invalid(format string, args ...any) error { return store.Invalid(format, args...) }

// Decision times are stored as Unix nanoseconds, which an int64 holds for
// these years.
var (
	minTime = store.MinTime
	maxTime = store.MaxTime
)

// newDecisionOp validates rec and returns its op, with what the writer
// binds computed here, on the caller's goroutine, off the writer's path.
func newDecisionOp(rec *store.DecisionRecord, durable bool) (*op, error) {
	return newDecisionOpIn(nil, rec, durable)
}

// newDecisionOpIn is newDecisionOp in an op taken from pool (a new one if
// pool is nil or empty). See Store.recycle for when an op goes back.
func newDecisionOpIn(pool *sync.Pool, rec *store.DecisionRecord, durable bool) (*op, error) {
	if err := rec.Validate(); err != nil {
		return nil, err
	}
	var o *op
	if pool != nil {
		o, _ = pool.Get().(*op)
	}
	if o == nil {
		o = new(op)
	}
	*o = op{kind: opDecision, durable: durable, dec: *rec, ns: rec.Time.UnixNano(), risk: int64(store.RiskCode(rec.Risk))}
	o.decision, _ = decisionCode(rec.Decision)
	o.evaluated = store.StoredRuleList(rec.RulesEvaluated)
	o.triggered = store.StoredRuleList(rec.RulesTriggered)
	o.argsHash = lowerHex(o.argsHashBuf[:], rec.ArgsHash)
	o.ownAuthority = rec.Authority != derivedAuthority(rec.InputSource)
	return o, nil
}

// decisionCode returns the stored code of a decision (see migrations).
func decisionCode(d store.Verdict) (int64, bool) {
	switch d {
	case store.VerdictDeny:
		return 0, true
	case store.VerdictQuarantine:
		return 1, true
	case store.VerdictAllow:
		return 2, true
	}
	return 0, false
}

var riskNames = [...]string{1: "safe", 2: "caution", 3: "dangerous", 4: "forbidden"}

var decisionVerdicts = [...]store.Verdict{0: store.VerdictDeny, 1: store.VerdictQuarantine, 2: store.VerdictAllow}

// derivedAuthority is the authority a record with this input source
// normally has, which is not stored (see migrations).
func derivedAuthority(source string) string {
	switch source {
	case "":
		return ""
	case "creator", "agent":
		return "agent"
	case "system", "heartbeat":
		return "system"
	}
	return "external"
}

// lowerHex decodes s if it is non-empty lower-case hex, else returns nil:
// such a hash is stored as a BLOB and read back as the same text. The bytes
// are appended to dst[:0], so a SHA-256 fits a caller's array without an
// allocation.
func lowerHex(dst []byte, s string) []byte {
	if s == "" || len(s)%2 != 0 {
		return nil
	}
	b := dst[:0]
	for i := 0; i < len(s); i += 2 {
		hi, ok1 := lowerNibble(s[i])
		lo, ok2 := lowerNibble(s[i+1])
		if !ok1 || !ok2 {
			return nil
		}
		b = append(b, hi<<4|lo)
	}
	return b
}

func lowerNibble(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

func checkExecution(rec *store.ExecutionRecord) (string, error) {
	if err := rec.Validate(); err != nil {
		return "", err
	}
	at, err := formatTime(rec.Time)
	if err != nil {
		return "", invalid("%v", err)
	}
	return at, nil
}
