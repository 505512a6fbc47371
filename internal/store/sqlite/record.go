package sqlite

import (
	"encoding/json"
	"errors"
	"fmt"
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
var errInvalid = errors.New("invalid record")

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errInvalid, fmt.Sprintf(format, args...))
}

// checkDecision validates rec and returns its stored time and normalized
// rule lists. It runs on the caller's goroutine, off the writer's path.
func checkDecision(rec *store.DecisionRecord) (at, evaluated, triggered string, err error) {
	if !id.Valid(rec.ID) {
		return "", "", "", invalid("id %q is not a ULID", rec.ID)
	}
	if rec.Time.IsZero() {
		return "", "", "", invalid("zero time")
	}
	if at, err = formatTime(rec.Time); err != nil {
		return "", "", "", invalid("%v", err)
	}
	if rec.ID < id.MinAt(rec.Time) {
		return "", "", "", invalid("id %s was made before the record's time %s", rec.ID, at)
	}
	switch rec.Risk {
	case "safe", "caution", "dangerous", "forbidden":
	default:
		return "", "", "", invalid("risk %q is not safe, caution, dangerous or forbidden", rec.Risk)
	}
	switch rec.Decision {
	case "allow", "deny", "quarantine":
	default:
		return "", "", "", invalid("decision %q is not allow, deny or quarantine", rec.Decision)
	}
	if evaluated, err = ruleList("rules evaluated", rec.RulesEvaluated); err != nil {
		return "", "", "", err
	}
	if triggered, err = ruleList("rules triggered", rec.RulesTriggered); err != nil {
		return "", "", "", err
	}
	if rec.Latency < 0 {
		return "", "", "", invalid("negative latency %v", rec.Latency)
	}
	return at, evaluated, triggered, nil
}

// ruleList checks that s is a JSON array; empty means "[]".
func ruleList(what, s string) (string, error) {
	if s == "" {
		return "[]", nil
	}
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	if i == len(s) || s[i] != '[' || !json.Valid([]byte(s)) {
		return "", invalid("%s: not a JSON array", what)
	}
	return s, nil
}

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
