package adopt

import (
	"container/list"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/wardhq/ward/internal/knowledge"
)

// The lessons store's numbers (seed 6.2).
const (
	MaxLessons        = 500
	LessonDecay       = 0.1 // confidence lost per LessonDecayPeriod unmatched
	LessonDecayPeriod = 30 * Day
	PromotionWindow   = 7 * Day
	PromotionMatches  = 10       // promoted after more than this many matches in the window
	MaxSituation      = 64 << 10 // bytes of a situation's text that are matched
	lessonsVersion    = 1
)

// Lesson is a failure remembered so that the agent does not repeat it: a
// rejected or rolled-back entry, a breached sandbox. It applies to a
// situation when all its Conditions hold and, if it has Keywords, at least
// one keyword appears (see Lessons.Consult).
type Lesson struct {
	ID         string   `json:"id"`
	Summary    string   `json:"summary"`          // what went wrong, for humans
	Advice     string   `json:"advice,omitempty"` // what to do instead: the PLAYBOOK heuristic
	Reason     string   `json:"reason,omitempty"` // the reason code it was learned from
	EntryID    string   `json:"entry_id,omitempty"`
	Conditions []string `json:"conditions,omitempty"`
	Keywords   []string `json:"keywords,omitempty"`
	// Confidence is as of Touched; decay since then is computed on read.
	Confidence float64   `json:"confidence"`
	Created    time.Time `json:"created"`
	// Touched is when the lesson was added or last matched: the decay
	// clock and the LRU order.
	Touched  time.Time   `json:"touched"`
	Matches  []time.Time `json:"matches,omitempty"` // recent matches, at most PromotionMatches+1
	Promoted time.Time   `json:"promoted,omitzero"` // when it became a PLAYBOOK heuristic
}

// ConfidenceAt returns l's confidence at now: Confidence less LessonDecay
// for every whole LessonDecayPeriod since Touched, at least 0. A now
// before Touched decays nothing.
func (l *Lesson) ConfidenceAt(now time.Time) float64 {
	periods := 0.0
	if d := now.Sub(l.Touched); d > 0 {
		periods = math.Floor(float64(d) / float64(LessonDecayPeriod))
	}
	return max(l.Confidence-LessonDecay*periods, 0)
}

func (l *Lesson) clone() Lesson {
	c := *l
	c.Conditions, c.Keywords, c.Matches = slices.Clone(l.Conditions), slices.Clone(l.Keywords), slices.Clone(l.Matches)
	return c
}

// Check returns why l cannot be stored, or nil: an id of 1 to
// knowledge.MaxID bytes, a confidence in (0, 1], creation and touch
// times, conditions or keywords (each with words), at most
// PromotionMatches+1 matches, and text within knowledge's bounds.
func (l *Lesson) Check() error {
	switch {
	case l.ID == "" || len(l.ID) > knowledge.MaxID:
		return fmt.Errorf("lesson id of %d bytes, want 1 to %d", len(l.ID), knowledge.MaxID)
	case math.IsNaN(l.Confidence) || l.Confidence <= 0 || l.Confidence > 1:
		return fmt.Errorf("lesson %.128s: confidence %v outside (0, 1]", l.ID, l.Confidence)
	case l.Created.IsZero() || l.Touched.IsZero():
		return fmt.Errorf("lesson %.128s: no creation or touch time", l.ID)
	case len(l.Conditions) == 0 && len(l.Keywords) == 0:
		return fmt.Errorf("lesson %.128s: no conditions or keywords: it would match everything", l.ID)
	case len(l.Matches) > PromotionMatches+1:
		return fmt.Errorf("lesson %.128s: %d matches kept, above %d", l.ID, len(l.Matches), PromotionMatches+1)
	}
	for _, s := range []string{l.Summary, l.Advice, l.Reason, l.EntryID} {
		if len(s) > knowledge.MaxField || !utf8.ValidString(s) {
			return fmt.Errorf("lesson %.128s: text field of %d bytes, above %d or not UTF-8", l.ID, len(s), knowledge.MaxField)
		}
	}
	for _, ss := range [][]string{l.Conditions, l.Keywords} {
		if len(ss) > knowledge.MaxItems {
			return fmt.Errorf("lesson %.128s: %d conditions or keywords, above %d", l.ID, len(ss), knowledge.MaxItems)
		}
		for _, s := range ss {
			if len(s) > knowledge.MaxField || !utf8.ValidString(s) {
				return fmt.Errorf("lesson %.128s: condition or keyword of %d bytes, above %d or not UTF-8", l.ID, len(s), knowledge.MaxField)
			}
			if len(tokens(s)) == 0 {
				return fmt.Errorf("lesson %.128s: condition or keyword %.64q has no words", l.ID, s)
			}
		}
	}
	return nil
}

// Situation is what the agent is about to do, as Consult matches it.
type Situation struct {
	Action     string    // the tool or action name, such as "swap"
	Conditions []string  // facts that hold, such as "pool eth/usdc", "gas high"
	Text       string    // free text: the plan, the arguments (first MaxSituation bytes)
	At         time.Time // when: the match time for decay, LRU and promotion
}

// Match is a lesson that applies to a situation.
type Match struct {
	Lesson Lesson // a copy, with Confidence as of the situation
	// Promote is true on the match that takes the lesson past
	// PromotionMatches in PromotionWindow: it has just become a PLAYBOOK
	// heuristic (and will not be reported again).
	Promote bool
}

// Advice is a lesson that applies to an action about to be taken, as the
// agent is shown it and the audit trail records it.
type Advice struct {
	ID         string  `json:"id"`
	Summary    string  `json:"summary"`
	Advice     string  `json:"advice,omitempty"`
	Reason     string  `json:"reason,omitempty"`
	Confidence float64 `json:"confidence"`
}

// Lessons is the lessons store: at most its capacity of lessons, the least
// recently added or matched evicted first. It is in memory and safe for
// concurrent use; Replace restores it from a persistent store, and Marshal
// and Unmarshal encode it. Make it with NewLessons: the zero value is not
// usable.
type Lessons struct {
	max  int // immutable
	mu   sync.Mutex
	ll   *list.List // of *lessonElem, most recently used first
	byID map[string]*list.Element
}

type lessonElem struct {
	l          Lesson
	conditions [][]string // tokens of each condition
	keywords   [][]string // tokens of each keyword
}

// NewLessons returns an empty store of capacity max, 1 to MaxLessons; 0
// means MaxLessons.
func NewLessons(max int) (*Lessons, error) {
	if max == 0 {
		max = MaxLessons
	}
	if max < 0 || max > MaxLessons {
		return nil, fmt.Errorf("adopt: lessons: %w: capacity %d, want 1 to %d", ErrInvalid, max, MaxLessons)
	}
	return &Lessons{max: max, ll: list.New(), byID: map[string]*list.Element{}}, nil
}

func newElem(l *Lesson) *lessonElem {
	e := &lessonElem{l: l.clone()}
	for _, c := range l.Conditions {
		e.conditions = append(e.conditions, tokens(c))
	}
	for _, k := range l.Keywords {
		e.keywords = append(e.keywords, tokens(k))
	}
	return e
}

// Add stores l as the most recently used lesson, replacing one with the
// same ID, and returns the ID of the lesson it evicted to make room, if
// any. Touched is set to Created when zero. It refuses (wrapping
// ErrInvalid) a lesson without conditions or keywords, whose confidence
// is not in (0, 1] (NaN included), or past the size bounds.
func (s *Lessons) Add(l Lesson) (evicted string, err error) {
	if l.Touched.IsZero() {
		l.Touched = l.Created
	}
	if err := l.Check(); err != nil {
		return "", fmt.Errorf("adopt: lessons: %w: %w", ErrInvalid, err)
	}
	e := newElem(&l)
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.byID[l.ID]; ok {
		s.ll.Remove(old)
	} else if s.ll.Len() >= s.max {
		last := s.ll.Back()
		id := last.Value.(*lessonElem).l.ID
		s.ll.Remove(last)
		delete(s.byID, id)
		evicted = id
	}
	s.byID[l.ID] = s.ll.PushFront(e)
	return evicted, nil
}

// Consult returns the lessons that apply to sit, by confidence (highest
// first) then ID, and records the match on each: it becomes the most
// recently used, its decay clock restarts from its decayed confidence, and
// it counts toward promotion. Matching is by words: text is lower-cased
// and split at every character that is not a letter or digit; a condition
// or keyword holds when all its words are among the situation's (Action,
// Conditions and the first MaxSituation bytes of Text). A lesson applies
// when all its conditions hold and, if it has keywords, at least one
// does. A lesson decayed to 0 applies to nothing.
func (s *Lessons) Consult(sit Situation) []Match {
	words := map[string]bool{}
	text := sit.Text
	if len(text) > MaxSituation {
		text = text[:MaxSituation]
	}
	for _, f := range append([]string{sit.Action, text}, sit.Conditions...) {
		for _, w := range tokens(f) {
			words[w] = true
		}
	}
	holds := func(ws []string) bool {
		for _, w := range ws {
			if !words[w] {
				return false
			}
		}
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var hit []*list.Element
	for el := s.ll.Front(); el != nil; el = el.Next() {
		e := el.Value.(*lessonElem)
		if e.l.ConfidenceAt(sit.At) <= 0 || !allHold(e.conditions, holds) || (len(e.keywords) > 0 && !slices.ContainsFunc(e.keywords, holds)) {
			continue
		}
		hit = append(hit, el)
	}
	out := make([]Match, 0, len(hit))
	for _, el := range hit {
		e := el.Value.(*lessonElem)
		promote := e.l.match(sit.At)
		s.ll.MoveToFront(el)
		out = append(out, Match{Lesson: e.l.clone(), Promote: promote})
	}
	slices.SortStableFunc(out, func(a, b Match) int {
		if a.Lesson.Confidence != b.Lesson.Confidence {
			if a.Lesson.Confidence > b.Lesson.Confidence {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Lesson.ID, b.Lesson.ID)
	})
	return out
}

func allHold(conds [][]string, holds func([]string) bool) bool {
	for _, c := range conds {
		if !holds(c) {
			return false
		}
	}
	return true
}

// match records a match at: the decayed confidence becomes the stored one,
// the clock restarts, and the match counts in the window (at-7d, at]. It
// reports whether the lesson has just been promoted.
func (l *Lesson) match(at time.Time) bool {
	l.Confidence = l.ConfidenceAt(at)
	if at.After(l.Touched) {
		l.Touched = at
	}
	from := at.Add(-PromotionWindow)
	l.Matches = slices.DeleteFunc(l.Matches, func(t time.Time) bool { return !t.After(from) })
	l.Matches = append(l.Matches, at)
	if n := len(l.Matches); n > PromotionMatches+1 {
		l.Matches = slices.Delete(l.Matches, 0, n-(PromotionMatches+1))
	}
	if l.Promoted.IsZero() && len(l.Matches) > PromotionMatches {
		l.Promoted = at
		return true
	}
	return false
}

// Get returns the lesson with id, without counting as a use.
func (s *Lessons) Get(id string) (Lesson, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	el, ok := s.byID[id]
	if !ok {
		return Lesson{}, false
	}
	return el.Value.(*lessonElem).l.clone(), true
}

// Remove deletes the lesson with id and reports whether there was one.
func (s *Lessons) Remove(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	el, ok := s.byID[id]
	if ok {
		s.ll.Remove(el)
		delete(s.byID, id)
	}
	return ok
}

// List returns copies of every lesson, most recently used first, without
// counting as a use.
func (s *Lessons) List() []Lesson {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Lesson, 0, s.ll.Len())
	for el := s.ll.Front(); el != nil; el = el.Next() {
		out = append(out, el.Value.(*lessonElem).l.clone())
	}
	return out
}

// Len returns the number of lessons stored.
func (s *Lessons) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ll.Len()
}

// Sweep removes the lessons whose confidence has decayed to 0 by now and
// returns their IDs.
func (s *Lessons) Sweep(now time.Time) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for el := s.ll.Front(); el != nil; {
		next := el.Next()
		if e := el.Value.(*lessonElem); e.l.ConfidenceAt(now) <= 0 {
			s.ll.Remove(el)
			delete(s.byID, e.l.ID)
			out = append(out, e.l.ID)
		}
		el = next
	}
	return out
}

// Promoted returns the promoted lessons, the PLAYBOOK's heuristics, in the
// order they were promoted (then by ID), with their confidence at now.
func (s *Lessons) Promoted(now time.Time) []Lesson {
	s.mu.Lock()
	var out []Lesson
	for el := s.ll.Front(); el != nil; el = el.Next() {
		if e := el.Value.(*lessonElem); !e.l.Promoted.IsZero() {
			l := e.l.clone()
			l.Confidence = l.ConfidenceAt(now)
			out = append(out, l)
		}
	}
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b Lesson) int {
		if c := a.Promoted.Compare(b.Promoted); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out
}

type lessonsFile struct {
	Version int      `json:"version"`
	Lessons []Lesson `json:"lessons"` // most recently used first
}

// Marshal encodes the store as JSON, lessons in LRU order (most recently
// used first), for Unmarshal to restore.
func (s *Lessons) Marshal() ([]byte, error) {
	s.mu.Lock()
	f := lessonsFile{Version: lessonsVersion, Lessons: make([]Lesson, 0, s.ll.Len())}
	for el := s.ll.Front(); el != nil; el = el.Next() {
		f.Lessons = append(f.Lessons, el.Value.(*lessonElem).l.clone())
	}
	s.mu.Unlock()
	b, err := json.Marshal(f)
	if err != nil {
		return nil, fmt.Errorf("adopt: lessons: marshal: %w", err)
	}
	return b, nil
}

// Unmarshal replaces the store's lessons with those Marshal encoded in b.
// It is all or nothing: a version other than 1, more lessons than the
// capacity, a duplicate ID or any invalid lesson leaves the store as it
// was and returns an error wrapping ErrInvalid.
func (s *Lessons) Unmarshal(b []byte) error {
	var f lessonsFile
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("adopt: lessons: %w: %w", ErrInvalid, err)
	}
	if f.Version != lessonsVersion {
		return fmt.Errorf("adopt: lessons: %w: version %d, want %d", ErrInvalid, f.Version, lessonsVersion)
	}
	return s.Replace(f.Lessons)
}

// Replace replaces the store's lessons with ls, most recently used first.
// It is all or nothing: more lessons than the capacity, a duplicate ID or
// any lesson that fails Check leaves the store as it was and returns an
// error wrapping ErrInvalid.
func (s *Lessons) Replace(ls []Lesson) error {
	if len(ls) > s.max {
		return fmt.Errorf("adopt: lessons: %w: %d lessons, above the capacity %d", ErrInvalid, len(ls), s.max)
	}
	ll, byID := list.New(), map[string]*list.Element{}
	for i := range ls {
		l := &ls[i]
		if err := l.Check(); err != nil {
			return fmt.Errorf("adopt: lessons: %w: %w", ErrInvalid, err)
		}
		if _, dup := byID[l.ID]; dup {
			return fmt.Errorf("adopt: lessons: %w: duplicate lesson %.128q", ErrInvalid, l.ID)
		}
		byID[l.ID] = ll.PushBack(newElem(l))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ll, s.byID = ll, byID
	return nil
}

// tokens returns the words of s: lower-cased, split at every rune that is
// not a letter or digit.
func tokens(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}
