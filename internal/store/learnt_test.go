package store_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/store"
)

func TestLessonRoundTrip(t *testing.T) {
	at := time.Date(2026, 11, 29, 12, 0, 0, 7, time.UTC)
	tests := []struct {
		name string
		l    adopt.Lesson
	}{
		{"no matches, no lists", adopt.Lesson{ID: "l1"}},
		{"matches and lists", adopt.Lesson{ID: "l2", Conditions: []string{"c"}, Keywords: []string{"k"},
			Matches: []time.Time{at, at.Add(time.Hour)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms := store.MatchNanos(tt.l)
			if ms == nil || len(ms) != len(tt.l.Matches) {
				t.Fatalf("MatchNanos = %v, want %d times (an empty list, not nil)", ms, len(tt.l.Matches))
			}
			// A backend reads the lists back as empty, not nil.
			got := adopt.Lesson{ID: tt.l.ID, Conditions: append([]string{}, tt.l.Conditions...), Keywords: append([]string{}, tt.l.Keywords...)}
			store.ReadLesson(&got, ms)
			if !reflect.DeepEqual(got, tt.l) {
				t.Errorf("read back %+v, want %+v", got, tt.l)
			}
		})
	}
}
