package store

import (
	"math"
	"time"
)

// NsPerMinute is the width of the spend_minutes buckets both backends
// keep for the spending and rate windows (hook.Windows): a write's
// time_ns / NsPerMinute, as SQL divides (toward zero), in the triggers of
// sqlite's migration 29 and postgres's migration 4.
const NsPerMinute = int64(time.Minute)

// WindowStart returns the minute bucket that a window (the day's, the
// rate's) starting after from begins in, and a bound past every row of
// that bucket after from (a bucket is at most two minutes wide: the one
// of 0 spans both signs), for an index range.
func WindowStart(from int64) (minute, end int64) {
	minute = from / NsPerMinute
	if from > math.MaxInt64-2*NsPerMinute {
		return minute, math.MaxInt64
	}
	return minute, from + 2*NsPerMinute
}
