package api

import (
	"fmt"
	"strconv"
	"time"
)

// maxParam bounds a query parameter's value.
const maxParam = 256

// param returns the query parameter name (or the first of its aliases that
// is set).
func param(r *request, names ...string) (string, error) {
	q := r.URL.Query()
	for _, n := range names {
		if v := q.Get(n); v != "" {
			if len(v) > maxParam {
				return "", badRequest("query parameter %s is longer than %d bytes", n, maxParam)
			}
			return v, nil
		}
	}
	return "", nil
}

// limitParam parses ?limit: def when absent, between 1 and max.
func limitParam(r *request, def, max int) (int, error) {
	v, err := param(r, "limit")
	if err != nil || v == "" {
		return def, err
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > max {
		return 0, badRequest("limit must be a whole number from 1 to %d", max)
	}
	return n, nil
}

// timeParam parses a time parameter: RFC 3339, or a duration before now
// ("90m", "24h"). Absent is the zero time.
func timeParam(r *request, name string, now time.Time) (time.Time, error) {
	v, err := param(r, name)
	if err != nil || v == "" {
		return time.Time{}, err
	}
	return parseWhen(name, v, now)
}

func parseWhen(name, v string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return time.Time{}, badRequest("%s must be an RFC 3339 time or a duration before now (90m, 24h)", name)
	}
	return now.Add(-d), nil
}

func quoted(s string) string { return fmt.Sprintf("%q", clip(s, 64)) }
