package adopt

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func lesson(id string, conds, keys []string) Lesson {
	return Lesson{ID: id, Summary: "lesson " + id, Advice: "do not", Conditions: conds, Keywords: keys, Confidence: 1, Created: t0}
}

func newLessons(t testing.TB, max int) *Lessons {
	t.Helper()
	s, err := NewLessons(max)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func ids(ms []Match) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Lesson.ID)
	}
	return out
}

func TestNewLessons(t *testing.T) {
	for _, tc := range []struct {
		max, want int
		err       bool
	}{{0, 500, false}, {1, 1, false}, {500, 500, false}, {501, 0, true}, {-1, 0, true}} {
		s, err := NewLessons(tc.max)
		if (err != nil) != tc.err || (err == nil && s.max != tc.want) {
			t.Errorf("NewLessons(%d) = %v, %v; want capacity %d, error %v", tc.max, s, err, tc.want, tc.err)
		}
		if err != nil && !errors.Is(err, ErrInvalid) {
			t.Errorf("NewLessons(%d) error %v does not wrap ErrInvalid", tc.max, err)
		}
	}
}

func TestLessonAddRefuses(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mutate func(*Lesson)
	}{
		{"NaN confidence", func(l *Lesson) { l.Confidence = math.NaN() }},
		{"zero confidence", func(l *Lesson) { l.Confidence = 0 }},
		{"negative confidence", func(l *Lesson) { l.Confidence = -0.5 }},
		{"confidence above 1", func(l *Lesson) { l.Confidence = 1.5 }},
		{"no id", func(l *Lesson) { l.ID = "" }},
		{"long id", func(l *Lesson) { l.ID = strings.Repeat("x", 129) }},
		{"matches everything", func(l *Lesson) { l.Conditions, l.Keywords = nil, nil }},
		{"condition without words", func(l *Lesson) { l.Conditions = []string{"--"} }},
		{"no creation time", func(l *Lesson) { l.Created = time.Time{} }},
		{"long summary", func(l *Lesson) { l.Summary = strings.Repeat("x", 1025) }},
		{"bad UTF-8", func(l *Lesson) { l.Advice = "\xff" }},
		{"too many keywords", func(l *Lesson) { l.Keywords = slices.Repeat([]string{"k"}, 65) }},
		{"too many matches kept", func(l *Lesson) { l.Matches = make([]time.Time, 12) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newLessons(t, 0)
			l := lesson("l", []string{"swap"}, nil)
			tc.mutate(&l)
			if _, err := s.Add(l); !errors.Is(err, ErrInvalid) {
				t.Errorf("Add error = %v, want ErrInvalid", err)
			}
			if s.Len() != 0 {
				t.Errorf("refused lesson stored: %d lessons", s.Len())
			}
		})
	}
}

func TestLessonsEvictLeastRecentlyUsed(t *testing.T) {
	s := newLessons(t, 0)
	for i := range MaxLessons {
		ev, err := s.Add(lesson(fmt.Sprint("l", i), []string{fmt.Sprint("cond", i)}, nil))
		if err != nil || ev != "" {
			t.Fatalf("Add %d = %q, %v; want no eviction", i, ev, err)
		}
	}
	// l0 was added first but is now the most recently used.
	if got := ids(s.Consult(Situation{Conditions: []string{"cond0"}, At: t0})); !slices.Equal(got, []string{"l0"}) {
		t.Fatalf("Consult = %v, want [l0]", got)
	}
	ev, err := s.Add(lesson("l500", []string{"cond500"}, nil))
	if err != nil || ev != "l1" {
		t.Errorf("501st Add evicted %q (%v), want l1, the least recently used", ev, err)
	}
	if s.Len() != MaxLessons {
		t.Errorf("Len = %d, want %d", s.Len(), MaxLessons)
	}
	if _, ok := s.Get("l1"); ok {
		t.Error("l1 still stored")
	}
	if _, ok := s.Get("l0"); !ok {
		t.Error("l0, recently matched, was evicted")
	}
	// Replacing an existing lesson evicts nothing.
	if ev, err := s.Add(lesson("l250", []string{"other"}, nil)); err != nil || ev != "" || s.Len() != MaxLessons {
		t.Errorf("replacing Add = %q, %v, len %d; want no eviction", ev, err, s.Len())
	}
	if ev, _ := s.Add(lesson("l501", []string{"x"}, nil)); ev != "l2" {
		t.Errorf("next eviction %q, want l2", ev)
	}
}

func TestConsultMatching(t *testing.T) {
	s := newLessons(t, 0)
	for _, l := range []Lesson{
		lesson("gas", []string{"gas high"}, nil),
		lesson("pool", []string{"pool ETH/USDC", "swap"}, nil),
		lesson("kw", nil, []string{"sandwich", "front-run"}),
		lesson("both", []string{"swap"}, []string{"slippage"}),
	} {
		if _, err := s.Add(l); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		sit  Situation
		want []string
	}{
		{"nothing", Situation{Action: "transfer"}, nil},
		{"one condition in conditions", Situation{Conditions: []string{"Gas: HIGH"}}, []string{"gas"}},
		{"words across fields", Situation{Action: "swap", Conditions: []string{"pool eth"}, Text: "usdc"}, []string{"pool"}},
		{"all conditions needed", Situation{Action: "swap", Text: "pool eth/dai"}, nil},
		{"whole words only", Situation{Action: "swap", Text: "pool ethereum usdc"}, nil},
		{"any keyword", Situation{Text: "risk of a front run here"}, []string{"kw"}},
		{"keyword and condition", Situation{Action: "swap", Text: "max slippage 1%"}, []string{"both"}},
		{"keyword without condition", Situation{Action: "deposit", Text: "max slippage 1%"}, nil},
		{"several, by id at equal confidence", Situation{Action: "swap", Text: "pool eth usdc, slippage; gas high"}, []string{"both", "gas", "pool"}},
		{"text past the limit is not read", Situation{Text: strings.Repeat(" ", MaxSituation) + "sandwich"}, nil},
		{"text at the limit is read", Situation{Text: strings.Repeat(" ", MaxSituation-8) + "sandwich"}, []string{"kw"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.sit.At = t0
			if got := ids(s.Consult(tc.sit)); !slices.Equal(got, tc.want) {
				t.Errorf("Consult = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestLessonDecay(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    time.Duration
		want float64
	}{
		{"fresh", 0, 1},
		{"clock went back", -40 * Day, 1},
		{"29 days", 29 * Day, 1},
		{"30 days", 30 * Day, 0.9},
		{"59 days", 59 * Day, 0.9},
		{"60 days", 60 * Day, 0.8},
		{"299 days", 299 * Day, 0.1},
		{"300 days", 300 * Day, 0},
		{"years", 3000 * Day, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := lesson("l", []string{"swap"}, nil)
			l.Touched = t0
			if got := l.ConfidenceAt(t0.Add(tc.d)); !near(got, tc.want) {
				t.Errorf("ConfidenceAt(+%v) = %v, want %v", tc.d, got, tc.want)
			}
		})
	}
}

func TestConsultRestartsDecayAndSweep(t *testing.T) {
	s := newLessons(t, 0)
	s.Add(lesson("a", []string{"swap"}, nil))
	s.Add(lesson("b", []string{"bridge"}, nil))
	m := s.Consult(Situation{Action: "swap", At: t0.Add(45 * Day)})
	if len(m) != 1 || !near(m[0].Lesson.Confidence, 0.9) {
		t.Fatalf("Consult at 45 days = %+v, want a at 0.9", m)
	}
	// a's clock restarted at day 45: at day 74 it is still 0.9, at 75 0.8.
	for _, tc := range []struct {
		d    time.Duration
		want float64
	}{{74 * Day, 0.9}, {75 * Day, 0.8}} {
		if l, _ := s.Get("a"); !near(l.ConfidenceAt(t0.Add(tc.d)), tc.want) {
			t.Errorf("a at day %v = %v, want %v", tc.d/Day, l.ConfidenceAt(t0.Add(tc.d)), tc.want)
		}
	}
	// b, never matched, is at 0 after 300 days: it matches nothing and is swept.
	if got := s.Consult(Situation{Action: "bridge", At: t0.Add(300 * Day)}); len(got) != 0 {
		t.Errorf("a lesson decayed to 0 matched: %v", ids(got))
	}
	if got := s.Sweep(t0.Add(300 * Day)); !slices.Equal(got, []string{"b"}) {
		t.Errorf("Sweep = %v, want [b]", got)
	}
	if s.Len() != 1 {
		t.Errorf("Len after sweep = %d, want 1", s.Len())
	}
}

func TestPromotion(t *testing.T) {
	for _, tc := range []struct {
		name    string
		matches []time.Duration // offsets of the consults, in order
		promote int             // index of the consult that promotes, -1 for none
	}{
		{"10 matches in a day", spread(10, 0, time.Hour), -1},
		{"11 matches in a day", spread(11, 0, time.Hour), 10},
		{"12 matches: promoted once", spread(12, 0, time.Hour), 10},
		{"11 in just under 7 days", spread(11, 0, 7*Day/10-time.Second), 10},
		{"11 over exactly 7 days: the first falls out", spread(11, 0, 7*Day/10), -1},
		{"11 over 8 days", spread(11, 0, 8*Day/10), -1},
		{"10 old then 11 recent", append(spread(10, 0, time.Hour), spread(11, 30*Day, time.Minute)...), 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newLessons(t, 0)
			s.Add(lesson("l", []string{"swap"}, nil))
			got := -1
			for i, d := range tc.matches {
				m := s.Consult(Situation{Action: "swap", At: t0.Add(d)})
				if len(m) != 1 {
					t.Fatalf("consult %d: %d matches", i, len(m))
				}
				if m[0].Promote {
					if got != -1 {
						t.Errorf("promoted again at consult %d (first %d)", i, got)
					}
					got = i
				}
			}
			if got != tc.promote {
				t.Errorf("promoted at consult %d, want %d", got, tc.promote)
			}
			l, _ := s.Get("l")
			if len(l.Matches) > PromotionMatches+1 {
				t.Errorf("%d match times kept, want at most %d", len(l.Matches), PromotionMatches+1)
			}
			if p := s.Promoted(t0); (len(p) == 1) != (tc.promote >= 0) {
				t.Errorf("Promoted = %v, want promoted %v", p, tc.promote >= 0)
			}
		})
	}
}

// spread returns n offsets from start, step apart.
func spread(n int, start, step time.Duration) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = start + time.Duration(i)*step
	}
	return out
}

func TestPromotedOrder(t *testing.T) {
	s := newLessons(t, 0)
	for _, id := range []string{"c", "a", "b"} {
		s.Add(lesson(id, []string{id + "x"}, nil))
	}
	for i, id := range []string{"b", "c", "a"} {
		for j := range 11 {
			s.Consult(Situation{Action: id + "x", At: t0.Add(time.Duration(i)*Day + time.Duration(j)*time.Minute)})
		}
	}
	s.Add(lesson("d", []string{"dx"}, nil))
	var got []string
	for _, l := range s.Promoted(t0.Add(40 * Day)) {
		got = append(got, l.ID)
		if !near(l.Confidence, 0.9) {
			t.Errorf("%s confidence %v at day 40, want 0.9", l.ID, l.Confidence)
		}
	}
	if !slices.Equal(got, []string{"b", "c", "a"}) {
		t.Errorf("Promoted = %v, want [b c a] (promotion order)", got)
	}
}

func TestLessonsMarshalRoundTrip(t *testing.T) {
	s := newLessons(t, 0)
	for _, id := range []string{"a", "b", "c"} {
		s.Add(lesson(id, []string{id + "x"}, []string{"k"}))
	}
	s.Consult(Situation{Action: "ax k", At: t0.Add(Day)}) // a becomes most recent
	b, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	r := newLessons(t, 0)
	if err := r.Unmarshal(b); err != nil {
		t.Fatal(err)
	}
	b2, _ := r.Marshal()
	if string(b) != string(b2) {
		t.Errorf("round trip differs:\n%s\n%s", b, b2)
	}
	// The restored order is the LRU order: filling the store evicts b first.
	small := newLessons(t, 3)
	if err := small.Unmarshal(b); err != nil {
		t.Fatal(err)
	}
	if ev, _ := small.Add(lesson("d", []string{"dx"}, nil)); ev != "b" {
		t.Errorf("evicted %q after restore, want b", ev)
	}
	if got := ids(r.Consult(Situation{Action: "cx k", At: t0})); !slices.Equal(got, []string{"c"}) {
		t.Errorf("restored store Consult = %v, want [c]", got)
	}
}

func TestLessonsUnmarshalRefuses(t *testing.T) {
	good := lesson("a", []string{"ax"}, nil)
	good.Touched = t0
	enc := func(v int, ls ...Lesson) []byte {
		b, _ := json.Marshal(lessonsFile{Version: v, Lessons: ls})
		return b
	}
	bad := good
	bad.ID = "b"
	bad.Conditions = nil
	for _, tc := range []struct {
		name string
		b    []byte
	}{
		{"not JSON", []byte("{")},
		{"version 0", enc(0, good)},
		{"version 2", enc(2, good)},
		{"duplicate id", enc(1, good, good)},
		{"invalid lesson", enc(1, good, bad)},
		{"NaN as a string", []byte(`{"version":1,"lessons":[{"id":"a","conditions":["x"],"confidence":"NaN","created":"2026-01-01T00:00:00Z","touched":"2026-01-01T00:00:00Z"}]}`)},
		{"above capacity", enc(1, good, func() Lesson { l := good; l.ID = "c"; return l }())},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newLessons(t, 1)
			s.Add(lesson("keep", []string{"k"}, nil))
			if err := s.Unmarshal(tc.b); !errors.Is(err, ErrInvalid) {
				t.Errorf("Unmarshal error = %v, want ErrInvalid", err)
			}
			if _, ok := s.Get("keep"); !ok || s.Len() != 1 {
				t.Error("a refused Unmarshal changed the store")
			}
		})
	}
}

// TestLessonsConcurrent hammers one store from many goroutines; run with
// -race.
func TestLessonsConcurrent(t *testing.T) {
	s := newLessons(t, 50)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				id := fmt.Sprint("g", g, "-", i%60)
				if _, err := s.Add(lesson(id, []string{"swap"}, []string{fmt.Sprint("k", i%5)})); err != nil {
					t.Error(err)
					return
				}
				s.Consult(Situation{Action: "swap", Text: fmt.Sprint("k", i%7), At: t0.Add(time.Duration(i) * time.Minute)})
				switch i % 50 {
				case 0:
					if _, err := s.Marshal(); err != nil {
						t.Error(err)
					}
				case 1:
					s.Sweep(t0)
				case 2:
					s.Promoted(t0)
				case 3:
					s.Remove(id)
				}
			}
		})
	}
	wg.Wait()
	if n := s.Len(); n > 50 {
		t.Errorf("Len = %d above the capacity 50", n)
	}
	for _, m := range s.Consult(Situation{Action: "swap", Text: "k0 k1 k2 k3 k4", At: t0.Add(Day)}) {
		if len(m.Lesson.Matches) > PromotionMatches+1 {
			t.Errorf("%s keeps %d match times", m.Lesson.ID, len(m.Lesson.Matches))
		}
	}
}

func FuzzLessonsUnmarshal(f *testing.F) {
	s := newLessons(f, 0)
	s.Add(lesson("a", []string{"gas high"}, []string{"swap"}))
	b, _ := s.Marshal()
	f.Add(b)
	f.Add([]byte(`{"version":1,"lessons":[]}`))
	f.Add([]byte(`{"version":1,"lessons":[{"id":"x","keywords":["--"],"confidence":1}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s := newLessons(t, 0)
		if err := s.Unmarshal(b); err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		out, err := s.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		r := newLessons(t, 0)
		if err := r.Unmarshal(out); err != nil {
			t.Fatalf("re-decoding what was accepted: %v", err)
		}
		for _, m := range r.Consult(Situation{Action: "gas high swap", At: t0}) {
			if c := m.Lesson.Confidence; !(c >= 0 && c <= 1) {
				t.Fatalf("lesson %q matched at confidence %v", m.Lesson.ID, c)
			}
		}
	})
}

func TestLessonsList(t *testing.T) {
	s := newLessons(t, 0)
	for _, id := range []string{"a", "b", "c"} {
		if _, err := s.Add(lesson(id, []string{"cond " + id}, nil)); err != nil {
			t.Fatal(err)
		}
	}
	s.Consult(Situation{Conditions: []string{"cond a"}, At: t0})
	got := s.List()
	var order []string
	for _, l := range got {
		order = append(order, l.ID)
	}
	if !slices.Equal(order, []string{"a", "c", "b"}) {
		t.Errorf("List = %v, want most recently used first: [a c b]", order)
	}
	got[0].Conditions[0] = "changed"
	if l, _ := s.Get("a"); l.Conditions[0] != "cond a" {
		t.Error("List returned the store's own slices")
	}
	if len(s.Consult(Situation{Conditions: []string{"cond b"}, At: t0})) != 1 {
		t.Error("b no longer matches")
	}
}
