package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/id"
)

// ErrInvalidRecord is wrapped by every backend's refusal of a record that
// breaks the contract before anything is written (a bad id, a zero time,
// an unknown enum); nothing is written. The checks live here, once, so
// that every backend refuses exactly the same records.
var ErrInvalidRecord = errors.New("invalid record")

// Invalid returns an error wrapping ErrInvalidRecord.
func Invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidRecord, fmt.Sprintf(format, args...))
}

// Times a record may carry: what Unix nanoseconds in an int64 hold.
var (
	MinTime = time.Unix(0, math.MinInt64).UTC()
	MaxTime = time.Unix(0, math.MaxInt64).UTC()
)

// Nanos returns t as Unix nanoseconds, refusing a zero time and one outside
// MinTime..MaxTime (what names the field in the error).
func Nanos(what string, t time.Time) (int64, error) {
	if t.IsZero() {
		return 0, Invalid("zero %s", what)
	}
	if t.Before(MinTime) || t.After(MaxTime) {
		return 0, Invalid("%s %v outside years 1678-2262", what, t)
	}
	return t.UnixNano(), nil
}

// Validate checks an action record before it is written.
func (r *ActionRecord) Validate() error {
	if !id.ValidAny(r.ID) {
		return Invalid("id %q is not an id ward makes", r.ID)
	}
	if _, err := Nanos("time", r.Time); err != nil {
		return err
	}
	switch {
	case !r.Kind.Valid():
		return Invalid("kind %v is not an action kind", r.Kind)
	case r.Status > StatusFailed:
		return Invalid("status %v is not an action status", r.Status)
	case r.GasUsed > math.MaxInt64:
		return Invalid("gas used %d above %d", r.GasUsed, int64(math.MaxInt64))
	case strings.Trim(r.GasCostWei, "0123456789") != "":
		return Invalid("gas cost %q is not a decimal number of wei", r.GasCostWei)
	case len(r.Detail) > 0 && !json.Valid(r.Detail):
		return Invalid("detail is not JSON")
	}
	return nil
}
