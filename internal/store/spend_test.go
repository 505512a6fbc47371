package store_test

import (
	"math"
	"testing"

	"github.com/wardhq/ward/internal/store"
)

func TestWindowStart(t *testing.T) {
	const m = store.NsPerMinute
	tests := []struct {
		name        string
		from        int64
		minute, end int64
	}{
		{"zero", 0, 0, 2 * m},
		{"inside a minute", 5*m + 7, 5, 7*m + 7},
		{"before 1970 rounds toward zero", -m - 1, -1, m - 1},
		{"near the end of time", math.MaxInt64 - m, (math.MaxInt64 - m) / m, math.MaxInt64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			minute, end := store.WindowStart(tt.from)
			if minute != tt.minute || end != tt.end {
				t.Errorf("WindowStart(%d) = %d, %d; want %d, %d", tt.from, minute, end, tt.minute, tt.end)
			}
		})
	}
}
