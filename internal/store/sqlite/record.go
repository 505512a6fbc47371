package sqlite

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wardhq/ward/internal/id"
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
	if !id.Valid(rec.ID) {
		return nil, invalid("id %q is not a ULID", rec.ID)
	}
	if rec.Time.IsZero() {
		return nil, invalid("zero time")
	}
	if rec.Time.Before(minTime) || rec.Time.After(maxTime) {
		return nil, invalid("time %v outside years 1678-2262", rec.Time)
	}
	if rec.ID < id.MinAt(rec.Time) {
		return nil, invalid("id %s was made before the record's time %s", rec.ID, rec.Time.UTC().Format(timeLayout))
	}
	o := &op{kind: opDecision, durable: durable, dec: *rec, ns: rec.Time.UnixNano()}
	switch rec.Risk {
	case "safe":
		o.risk = 1
	case "caution":
		o.risk = 2
	case "dangerous":
		o.risk = 3
	case "forbidden":
		o.risk = 4
	default:
		return nil, invalid("risk %q is not safe, caution, dangerous or forbidden", rec.Risk)
	}
	var ok bool
	if o.decision, ok = decisionCode(rec.Decision); !ok {
		return nil, invalid("decision %v is not allow, deny or quarantine", rec.Decision)
	}
	if !rec.Origin.Valid() {
		return nil, invalid("origin %v is not gate or check", rec.Origin)
	}
	var err error
	if o.evaluated, err = ruleList("rules evaluated", rec.RulesEvaluated); err != nil {
		return nil, err
	}
	if o.triggered, err = ruleList("rules triggered", rec.RulesTriggered); err != nil {
		return nil, err
	}
	if rec.Latency < 0 {
		return nil, invalid("negative latency %v", rec.Latency)
	}
	o.argsHash = lowerHex(rec.ArgsHash)
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
// such a hash is stored as a BLOB and read back as the same text.
func lowerHex(s string) []byte {
	if s == "" || len(s)%2 != 0 {
		return nil
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return nil
		}
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil
	}
	return b
}

// ruleList checks that s is a JSON array; empty means "[]".
func ruleList(what, s string) (string, error) {
	if s == "" {
		return "[]", nil
	}
	if _, ok := validLists.m.Load(s); ok {
		return s, nil
	}
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	if i == len(s) || s[i] != '[' || !json.Valid([]byte(s)) {
		return "", invalid("%s: not a JSON array", what)
	}
	if validLists.n.Load() < maxValidLists {
		if _, loaded := validLists.m.LoadOrStore(s, struct{}{}); !loaded {
			validLists.n.Add(1)
		}
	}
	return s, nil
}

// validLists remembers rule lists that ruleList found valid: a policy
// produces few distinct lists, and checking one costs far more than
// finding it here. Callers choose the lists, so the set is bounded.
var validLists struct {
	m sync.Map // string -> struct{}
	n atomic.Int32
}

const maxValidLists = 4096

func checkExecution(rec *store.ExecutionRecord) (string, error) {
	if !id.Valid(rec.ID) {
		return "", invalid("id %q is not a ULID", rec.ID)
	}
	if rec.Time.IsZero() {
		return "", invalid("zero time")
	}
	at, err := formatTime(rec.Time)
	if err != nil {
		return "", invalid("%v", err)
	}
	if rec.Tool == "" {
		return "", invalid("empty tool")
	}
	if rec.SpendCents < 0 {
		return "", invalid("negative spend %d", rec.SpendCents)
	}
	return at, nil
}
