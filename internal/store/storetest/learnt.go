package storetest

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/oracle"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/skill"
	"github.com/wardhq/ward/internal/store"
)

// tl is the knowledge state tests' clock: microsecond-aligned.
var tl = time.Date(2026, 11, 20, 8, 30, 0, 123456000, time.UTC)

func lesson(id string, n int) adopt.Lesson {
	at := tl.Add(time.Duration(n) * time.Minute)
	return adopt.Lesson{ID: id, Summary: "summary of " + id, Advice: "advice " + id, Reason: "KNOWLEDGE_ROLLED_BACK", EntryID: "e-" + id,
		Conditions: []string{"gas high"}, Keywords: []string{"0xabc", id}, Confidence: 0.8, Created: at, Touched: at.Add(time.Second),
		Matches: []time.Time{at.Add(time.Minute), at.Add(2 * time.Minute)}, Promoted: at.Add(3 * time.Minute)}
}

// sameLessons compares lessons with times to the microsecond.
func sameLessons(t *testing.T, what string, got, want []adopt.Lesson) {
	t.Helper()
	norm := func(ls []adopt.Lesson) []adopt.Lesson {
		out := make([]adopt.Lesson, len(ls))
		for i, l := range ls {
			l.Created, l.Touched, l.Promoted = l.Created.Truncate(time.Microsecond).UTC(), l.Touched.Truncate(time.Microsecond).UTC(),
				l.Promoted.Truncate(time.Microsecond).UTC()
			if l.Promoted.Year() == 1 {
				l.Promoted = time.Time{}
			}
			l.Matches = nil
			for _, m := range ls[i].Matches {
				l.Matches = append(l.Matches, m.Truncate(time.Microsecond).UTC())
			}
			out[i] = l
		}
		return out
	}
	if g, w := norm(got), norm(want); !reflect.DeepEqual(g, w) {
		t.Errorf("%s:\n got %+v\nwant %+v", what, g, w)
	}
}

func (h *harness) lessons() []adopt.Lesson {
	h.t.Helper()
	ls, err := h.s.Lessons(h.t.Context())
	if err != nil {
		h.t.Fatalf("Lessons: %v", err)
	}
	return ls
}

func testLessons(t *testing.T, h *harness) {
	ctx := t.Context()
	if ls := h.lessons(); len(ls) != 0 {
		t.Fatalf("lessons of an empty store: %+v", ls)
	}
	a, b, c := lesson("a", 0), lesson("b", 1), lesson("c", 2)
	c.Advice, c.Reason, c.EntryID, c.Conditions, c.Matches, c.Promoted = "", "", "", nil, nil, time.Time{}
	if err := h.s.SaveLessons(ctx, []adopt.Lesson{a, b, c}, nil); err != nil {
		t.Fatal(err)
	}
	h.reopen()
	sameLessons(t, "after reopening", h.lessons(), []adopt.Lesson{c, b, a})

	// A match of a makes it the most recent; removing b deletes it.
	a.Confidence, a.Matches = 0.7, append(a.Matches, tl.Add(time.Hour))
	if err := h.s.SaveLessons(ctx, []adopt.Lesson{a}, []string{"b", "nowhere"}); err != nil {
		t.Fatal(err)
	}
	sameLessons(t, "after a match and a removal", h.lessons(), []adopt.Lesson{a, c})
}

func testLessonsInvalid(t *testing.T, h *harness) {
	ctx := t.Context()
	kept := lesson("kept", 0)
	if err := h.s.SaveLessons(ctx, []adopt.Lesson{kept}, nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		mut    func(l *adopt.Lesson)
		remove []string
	}{
		{"zero confidence", func(l *adopt.Lesson) { l.Confidence = 0 }, nil},
		{"NaN confidence", func(l *adopt.Lesson) { l.Confidence = math.NaN() }, nil},
		{"no conditions or keywords", func(l *adopt.Lesson) { l.Conditions, l.Keywords = nil, nil }, nil},
		{"no id", func(l *adopt.Lesson) { l.ID = "" }, nil},
		{"no touch time", func(l *adopt.Lesson) { l.Touched = time.Time{} }, nil},
		{"a match outside the years", func(l *adopt.Lesson) { l.Matches = []time.Time{time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)} }, nil},
		{"stored and removed", func(*adopt.Lesson) {}, []string{"new"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := lesson("new", 1)
			tc.mut(&bad)
			err := h.s.SaveLessons(ctx, []adopt.Lesson{lesson("valid", 2), bad}, append([]string{"kept"}, tc.remove...))
			if !errors.Is(err, store.ErrInvalidState) {
				t.Errorf("SaveLessons: %v, want ErrInvalidState", err)
			}
			sameLessons(t, "after a refused save", h.lessons(), []adopt.Lesson{kept})
		})
	}
}

// Beyond adopt.MaxLessons the least recently used lessons go.
func testLessonsBound(t *testing.T, h *harness) {
	ctx := t.Context()
	const extra = 3
	var all []adopt.Lesson
	for i := range adopt.MaxLessons + extra {
		all = append(all, lesson(fmt.Sprint("l", i), i))
	}
	if err := h.s.SaveLessons(ctx, all[:adopt.MaxLessons], nil); err != nil {
		t.Fatal(err)
	}
	// l0 is used again: l1 to l3 are now the least recently used.
	if err := h.s.SaveLessons(ctx, []adopt.Lesson{all[0]}, nil); err != nil {
		t.Fatal(err)
	}
	if err := h.s.SaveLessons(ctx, all[adopt.MaxLessons:], nil); err != nil {
		t.Fatal(err)
	}
	got := h.lessons()
	if len(got) != adopt.MaxLessons {
		t.Fatalf("%d lessons, want %d", len(got), adopt.MaxLessons)
	}
	ids := map[string]bool{}
	for _, l := range got {
		ids[l.ID] = true
	}
	for i := range extra + 1 {
		if got, want := ids[fmt.Sprint("l", i)], i == 0; got != want {
			t.Errorf("l%d kept: %v, want %v", i, got, want)
		}
	}
	if got[0].ID != all[len(all)-1].ID || got[extra].ID != "l0" {
		t.Errorf("order starts %s ... %s, want the last saved first and l0 after the new ones", got[0].ID, got[extra].ID)
	}
}

func day(i int) time.Time { return time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i) }

func (h *harness) samples() []store.Sample {
	h.t.Helper()
	ss, err := h.s.Samples(h.t.Context())
	if err != nil {
		h.t.Fatalf("Samples: %v", err)
	}
	return ss
}

func sameSamples(t *testing.T, what string, got, want []store.Sample) {
	t.Helper()
	if !slices.EqualFunc(got, want, func(a, b store.Sample) bool {
		return a.Day.Equal(b.Day) && a.Day.Location() == time.UTC && maps.Equal(a.Values, b.Values)
	}) {
		t.Errorf("%s:\n got %v\nwant %v", what, got, want)
	}
}

func testSeries(t *testing.T, h *harness) {
	ctx := t.Context()
	d0 := store.Sample{Day: day(0), Values: map[string]float64{"portfolio_usd": 1000.5, "eth_usd": 3000, "gas_gwei": 0.25}}
	d1 := store.Sample{Day: day(1), Values: map[string]float64{"portfolio_usd": -1e-9}}
	d2 := store.Sample{Day: day(2), Values: map[string]float64{"tvl_usd": 7}}
	for _, s := range []store.Sample{d2, d0, d1} {
		if err := h.s.PutSample(ctx, s, 10); err != nil {
			t.Fatal(err)
		}
	}
	h.reopen()
	sameSamples(t, "after reopening", h.samples(), []store.Sample{d0, d1, d2})
	// A day's later sample replaces the whole day.
	d1b := store.Sample{Day: day(1), Values: map[string]float64{"eth_usd": 2}}
	if err := h.s.PutSample(ctx, d1b, 10); err != nil {
		t.Fatal(err)
	}
	sameSamples(t, "after replacing a day", h.samples(), []store.Sample{d0, d1b, d2})
	// keep: the latest days stay, whichever was put last.
	if err := h.s.PutSample(ctx, store.Sample{Day: day(-5), Values: map[string]float64{"x": 1}}, 3); err != nil {
		t.Fatal(err)
	}
	sameSamples(t, "after putting an old day with keep 3", h.samples(), []store.Sample{d0, d1b, d2})
	if err := h.s.PutSample(ctx, store.Sample{Day: day(3), Values: map[string]float64{"x": 1}}, 2); err != nil {
		t.Fatal(err)
	}
	sameSamples(t, "after keep 2", h.samples(), []store.Sample{d2, {Day: day(3), Values: map[string]float64{"x": 1}}})

	want := h.samples()
	figures := map[string]float64{}
	for i := range store.MaxSampleFigures + 1 {
		figures[fmt.Sprint("f", i)] = 1
	}
	for _, tc := range []struct {
		name string
		s    store.Sample
		keep int
	}{
		{"not midnight", store.Sample{Day: day(4).Add(time.Hour), Values: map[string]float64{"x": 1}}, 10},
		{"not UTC", store.Sample{Day: time.Date(2026, 9, 9, 0, 0, 0, 0, time.FixedZone("X", 3600)), Values: map[string]float64{"x": 1}}, 10},
		{"no figures", store.Sample{Day: day(4)}, 10},
		{"too many figures", store.Sample{Day: day(4), Values: figures}, 10},
		{"bad name", store.Sample{Day: day(4), Values: map[string]float64{"ETH": 1}}, 10},
		{"NaN", store.Sample{Day: day(4), Values: map[string]float64{"x": math.NaN()}}, 10},
		{"infinite", store.Sample{Day: day(4), Values: map[string]float64{"x": math.Inf(1)}}, 10},
		{"keep 0", store.Sample{Day: day(4), Values: map[string]float64{"x": 1}}, 0},
		{"keep too many", store.Sample{Day: day(4), Values: map[string]float64{"x": 1}}, store.MaxSampleDays + 1},
	} {
		if err := h.s.PutSample(ctx, tc.s, tc.keep); !errors.Is(err, store.ErrInvalidState) {
			t.Errorf("%s: %v, want ErrInvalidState", tc.name, err)
		}
	}
	sameSamples(t, "after refused samples", h.samples(), want)
}

// filters is an oracle's state with some content flagged.
func filters(t *testing.T, flag ...string) oracle.Filters {
	t.Helper()
	o, err := oracle.New(oracle.Config{Items: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range flag {
		o.MarkBad(s, []float32{1, float32(len(s)), -2})
	}
	return o.Filters()
}

func signatures(t *testing.T, n int) []oracle.Signature {
	t.Helper()
	im, err := oracle.NewImmune(oracle.ImmuneConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var out []oracle.Signature
	for i := range n {
		s, err := im.Record(oracle.Features{Source: "purchased", Category: "insight", Confidence: 0.5, Embedding: []float32{float32(i), 1, -1}},
			reason.KnowledgeInjection, knowledge.AttackType(1+i%5))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func (h *harness) memory() (oracle.Filters, bool, []oracle.Signature) {
	h.t.Helper()
	f, ok, err := h.s.OracleFilters(h.t.Context())
	if err != nil {
		h.t.Fatalf("OracleFilters: %v", err)
	}
	sigs, err := h.s.ImmuneSignatures(h.t.Context())
	if err != nil {
		h.t.Fatalf("ImmuneSignatures: %v", err)
	}
	return f, ok, sigs
}

func sameFilters(a, b oracle.Filters) bool {
	return a.Bands == b.Bands && a.Rows == b.Rows && a.Seed == b.Seed && sameBloom(a.Exact, b.Exact) && sameBloom(a.Similar, b.Similar)
}

func sameBloom(a, b oracle.BloomState) bool {
	return a.Hashes == b.Hashes && a.Bits == b.Bits && a.Items == b.Items && bytes.Equal(a.Words, b.Words)
}

func testMemory(t *testing.T, h *harness) {
	if _, ok, sigs := h.memory(); ok || len(sigs) != 0 {
		t.Fatalf("an empty store has filters (%v) or %d signatures", ok, len(sigs))
	}
	sigs := signatures(t, 5)
	fa := memoryRoundTrip(t, h, sigs)
	memoryMerged(t, h, fa, sigs)
	fc := memoryReplaced(t, h, sigs)
	memoryRefused(t, h, fa, fc, sigs)
}

// memoryRoundTrip saves filters and the first three of sigs, reopens, and
// checks them; it returns the filters.
func memoryRoundTrip(t *testing.T, h *harness, sigs []oracle.Signature) oracle.Filters {
	fa := filters(t, "poison a")
	fa.Seed = 1 << 63 // the top bit survives
	if err := h.s.SaveMemory(t.Context(), &fa, sigs[:3], 4, tl); err != nil {
		t.Fatal(err)
	}
	h.reopen()
	f, ok, got := h.memory()
	if !ok || !sameFilters(f, fa) {
		t.Errorf("filters after reopening differ from those saved")
	}
	if !reflect.DeepEqual(got, sigs[:3]) {
		t.Errorf("signatures after reopening:\n got %+v\nwant %+v", got, sigs[:3])
	}
	return fa
}

// memoryMerged checks that filters of the same parameters as the stored
// fa are ORed with them, and that the oldest signature goes beyond keep.
func memoryMerged(t *testing.T, h *harness, fa oracle.Filters, sigs []oracle.Signature) {
	fb := filters(t, "poison b")
	fb.Seed = fa.Seed
	if err := h.s.SaveMemory(t.Context(), &fb, sigs[3:], 4, tl.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	f, _, got := h.memory()
	both, err := oracle.New(oracle.Config{Items: 100, Seed: 1 << 63})
	if err != nil {
		t.Fatal(err)
	}
	if err := both.MergeFilters(f); err != nil {
		t.Fatalf("merging the stored filters: %v", err)
	}
	for _, s := range []string{"poison a", "poison b"} {
		if !both.Check(s, nil).Exact {
			t.Errorf("the stored filters lost %q", s)
		}
	}
	if f.Exact.Items != 1 {
		t.Errorf("%d items after ORing two filters of one item, want the larger count, 1", f.Exact.Items)
	}
	if !reflect.DeepEqual(got, sigs[1:]) {
		t.Errorf("signatures after keep 4: %d, want the newest 4", len(got))
	}
}

// memoryReplaced checks that filters of other parameters replace the
// stored ones and nil filters leave them; it returns the filters stored.
func memoryReplaced(t *testing.T, h *harness, sigs []oracle.Signature) oracle.Filters {
	ctx := t.Context()
	fc := filters(t, "poison c")
	if err := h.s.SaveMemory(ctx, &fc, nil, 4, tl.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := h.s.SaveMemory(ctx, nil, nil, 1, tl.Add(3*time.Minute)); err != nil {
		t.Fatal(err)
	}
	f, _, got := h.memory()
	if !sameFilters(f, fc) || len(got) != 1 || got[0] != sigs[4] {
		t.Errorf("after a seed change and keep 1: filters replaced %v, %d signatures", sameFilters(f, fc), len(got))
	}
	return fc
}

// memoryRefused checks that invalid saves are refused and leave the
// stored filters fc and their one signature.
func memoryRefused(t *testing.T, h *harness, fa, fc oracle.Filters, sigs []oracle.Signature) {
	badSig := sigs[0]
	badSig.Reason = "not a code"
	badBloom := filters(t)
	badBloom.Similar.Words = badBloom.Similar.Words[8:]
	for _, tc := range []struct {
		name string
		f    *oracle.Filters
		sigs []oracle.Signature
		keep int
	}{
		{"bad reason", nil, []oracle.Signature{sigs[0], badSig}, 4},
		{"no dimension", nil, []oracle.Signature{{Reason: reason.KnowledgeInjection}}, 4},
		{"short filter", &badBloom, sigs[:1], 4},
		{"keep 0", &fa, nil, 0},
	} {
		if err := h.s.SaveMemory(t.Context(), tc.f, tc.sigs, tc.keep, tl); !errors.Is(err, store.ErrInvalidState) {
			t.Errorf("%s: %v, want ErrInvalidState", tc.name, err)
		}
	}
	if f, _, got := h.memory(); !sameFilters(f, fc) || len(got) != 1 {
		t.Errorf("refused saves changed the memory")
	}
}

func testSkills(t *testing.T, h *harness) {
	ctx := t.Context()
	c1 := skill.Component{Name: "e1#1", Kind: skill.KindCondition, Text: "rsi below 25", Expr: "rsi < 25.0"}
	s1 := skill.Component{Name: "size_half", Kind: skill.KindSizing, Text: "half", WASM: []byte{0, 'a', 's', 'm', 1, 0, 0, 0}, Func: "size"}
	c2 := skill.Component{Name: "e2#1", Kind: skill.KindCondition, Text: "", Expr: "gas > 50.0"}
	if err := h.s.AddSkills(ctx, []skill.Component{c1, s1}, tl); err != nil {
		t.Fatal(err)
	}
	again := c1
	again.Expr = "rsi < 1.0" // a stored name keeps its component
	if err := h.s.AddSkills(ctx, []skill.Component{again, c2}, tl); err != nil {
		t.Fatal(err)
	}
	h.reopen()
	want := []skill.Component{c1, s1, c2}
	got, err := h.s.SkillComponents(ctx)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("SkillComponents = %+v, %v\nwant %+v", got, err, want)
	}
	for _, tc := range []struct {
		name string
		c    skill.Component
	}{
		{"no name", skill.Component{Kind: skill.KindCondition, Expr: "x"}},
		{"condition without an expression", skill.Component{Name: "c", Kind: skill.KindCondition}},
		{"sizing without a function", skill.Component{Name: "s", Kind: skill.KindSizing, WASM: []byte{1}}},
		{"unknown kind", skill.Component{Name: "u", Kind: 7, Expr: "x"}},
	} {
		ok := skill.Component{Name: "fine", Kind: skill.KindCondition, Expr: "vol > 0.1"}
		if err := h.s.AddSkills(ctx, []skill.Component{ok, tc.c}, tl); !errors.Is(err, store.ErrInvalidState) {
			t.Errorf("%s: %v, want ErrInvalidState", tc.name, err)
		}
	}
	if got, err := h.s.SkillComponents(ctx); err != nil || len(got) != len(want) {
		t.Errorf("refused additions stored something: %d components, %v", len(got), err)
	}
}

func source(agent string, n int) store.SourceRecord {
	return store.SourceRecord{Agent: agent, Submitted: 10 + n, Quarantined: 2, Adopted: 5, Confirmed: 1, RolledBack: n,
		Stage1: store.StageCount{Passed: 9, Failed: 1}, Stage2: store.StageCount{Passed: 6, Failed: 3}, Sandbox: store.StageCount{Passed: 1},
		Adopt: store.StageCount{Passed: 5}, Failures: map[knowledge.AttackType]int{knowledge.ContentInjection: 1, knowledge.EmbeddingAnomaly: 3},
		SafetyAlpha: 2, SafetyBeta: 4.5, Buyers: map[string]store.BuyerCount{"local": {Decided: 8, Failed: 4}, "peer-1": {Decided: 2}}}
}

func (h *harness) sources() []store.SourceRecord {
	h.t.Helper()
	rs, err := h.s.Sources(h.t.Context())
	if err != nil {
		h.t.Fatalf("Sources: %v", err)
	}
	return rs
}

func testReputation(t *testing.T, h *harness) {
	ctx := t.Context()
	a, b, c := source("0xaa", 0), source("0xbb", 1), source("0xcc", 2)
	c.Failures, c.Buyers = map[knowledge.AttackType]int{}, map[string]store.BuyerCount{}
	if err := h.s.SaveSources(ctx, []store.SourceRecord{a, b}, nil); err != nil {
		t.Fatal(err)
	}
	if err := h.s.SaveSources(ctx, []store.SourceRecord{c}, nil); err != nil {
		t.Fatal(err)
	}
	// a is updated: it becomes the most recent, and its buyers and
	// failures are replaced.
	a.RolledBack, a.SafetyBeta = 3, 7
	a.Buyers = map[string]store.BuyerCount{"local": {Decided: 9, Failed: 5}}
	a.Failures = map[knowledge.AttackType]int{knowledge.CausalGraphPoisoning: 2}
	if err := h.s.SaveSources(ctx, []store.SourceRecord{a}, []string{"0xbb"}); err != nil {
		t.Fatal(err)
	}
	h.reopen()
	if got, want := h.sources(), []store.SourceRecord{c, a}; !reflect.DeepEqual(got, want) {
		t.Errorf("Sources:\n got %+v\nwant %+v", got, want)
	}
	many := source("0xdd", 0)
	for i := range store.MaxSourceBuyers + 1 {
		many.Buyers[fmt.Sprint("peer-", i)] = store.BuyerCount{Decided: 1}
	}
	for _, tc := range []struct {
		name   string
		mut    func(r *store.SourceRecord)
		remove []string
	}{
		{"upper-case agent", func(r *store.SourceRecord) { r.Agent = "0xDD" }, nil},
		{"empty agent", func(r *store.SourceRecord) { r.Agent = "" }, nil},
		{"negative count", func(r *store.SourceRecord) { r.Submitted = -1 }, nil},
		{"alpha below 1", func(r *store.SourceRecord) { r.SafetyAlpha = 0.5 }, nil},
		{"infinite beta", func(r *store.SourceRecord) { r.SafetyBeta = math.Inf(1) }, nil},
		{"no attack", func(r *store.SourceRecord) { r.Failures[knowledge.NoAttack] = 1 }, nil},
		{"failed above decided", func(r *store.SourceRecord) { r.Buyers["local"] = store.BuyerCount{Decided: 1, Failed: 2} }, nil},
		{"too many buyers", func(r *store.SourceRecord) { r.Buyers = many.Buyers }, nil},
		{"stored and removed", func(*store.SourceRecord) {}, []string{"0xdd"}},
	} {
		r := source("0xdd", 0)
		tc.mut(&r)
		if err := h.s.SaveSources(ctx, []store.SourceRecord{source("0xee", 0), r}, append([]string{"0xaa"}, tc.remove...)); !errors.Is(err, store.ErrInvalidState) {
			t.Errorf("%s: %v, want ErrInvalidState", tc.name, err)
		}
	}
	if got := h.sources(); len(got) != 2 {
		t.Errorf("refused saves changed the sources: %+v", got)
	}
}

func influence(id string) adopt.Influence {
	return adopt.Influence{EntryID: id, Provenance: knowledge.Purchased, Agent: "0xabc", Confidence: 0.2}
}

func (h *harness) influences(since time.Time) map[string][]string {
	h.t.Helper()
	ins, err := h.s.InfluencesSince(h.t.Context(), since)
	if err != nil {
		h.t.Fatalf("InfluencesSince: %v", err)
	}
	out := map[string][]string{}
	for _, in := range ins {
		out[in.Session] = append(out[in.Session], in.EntryID)
	}
	return out
}

func testInfluences(t *testing.T, h *harness) {
	ctx := t.Context()
	full := adopt.Influence{EntryID: "e0", Provenance: knowledge.Clade, Agent: "0xdef", Confidence: 0.35}
	if err := h.s.NoteInfluences(ctx, "s1", []adopt.Influence{full, influence("e1")}, tl); err != nil {
		t.Fatal(err)
	}
	if err := h.s.NoteInfluences(ctx, "s2", []adopt.Influence{influence("x")}, tl.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	// A later retrieval of e0 moves it after e1.
	if err := h.s.NoteInfluences(ctx, "s1", []adopt.Influence{full}, tl.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	h.reopen()
	ins, err := h.s.InfluencesSince(ctx, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	want := []store.Influence{{Session: "s1", Influence: influence("e1"), At: tl}, {Session: "s1", Influence: full, At: tl.Add(2 * time.Minute)},
		{Session: "s2", Influence: influence("x"), At: tl.Add(time.Minute)}}
	if !slices.EqualFunc(ins, want, func(a, b store.Influence) bool {
		return a.Session == b.Session && a.Influence == b.Influence && a.At.Equal(b.At)
	}) {
		t.Errorf("InfluencesSince:\n got %+v\nwant %+v", ins, want)
	}
	if got := h.influences(tl.Add(time.Minute)); !reflect.DeepEqual(got, map[string][]string{"s1": {"e0"}, "s2": {"x"}}) {
		t.Errorf("since a minute later: %v", got)
	}

	// At most adopt.MaxInfluences per session, the most recent.
	var many []adopt.Influence
	for i := range adopt.MaxInfluences {
		many = append(many, influence(fmt.Sprint("m", i)))
	}
	if err := h.s.NoteInfluences(ctx, "s1", many, tl.Add(3*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := h.s.NoteInfluences(ctx, "s1", []adopt.Influence{influence("last")}, tl.Add(4*time.Minute)); err != nil {
		t.Fatal(err)
	}
	got := h.influences(time.Time{})["s1"]
	if len(got) != adopt.MaxInfluences || got[0] != "m1" || got[len(got)-1] != "last" {
		t.Errorf("s1 holds %d, %s to %s; want the %d most recent, m1 to last", len(got), got[0], got[len(got)-1], adopt.MaxInfluences)
	}
	// Retrievals older than the window go when anything is noted.
	if err := h.s.NoteInfluences(ctx, "s3", nil, tl.Add(store.InfluenceWindow+3*time.Minute+time.Second)); err != nil {
		t.Fatal(err)
	}
	if got := h.influences(time.Time{}); len(got["s2"]) != 0 || len(got["s1"]) != 1 || got["s1"][0] != "last" {
		t.Errorf("after the window: %v, want only s1's last", got)
	}

	before := h.influences(time.Time{})
	for _, tc := range []struct {
		name    string
		session string
		in      adopt.Influence
	}{
		{"no session", "", influence("y")},
		{"no entry id", "s1", influence("")},
		{"self provenance", "s1", adopt.Influence{EntryID: "y", Provenance: knowledge.Self}},
		{"confidence above 1", "s1", adopt.Influence{EntryID: "y", Provenance: knowledge.Clade, Confidence: 1.5}},
	} {
		err := h.s.NoteInfluences(ctx, tc.session, []adopt.Influence{influence("ok"), tc.in}, tl.Add(store.InfluenceWindow+5*time.Minute))
		if !errors.Is(err, store.ErrInvalidState) {
			t.Errorf("%s: %v, want ErrInvalidState", tc.name, err)
		}
	}
	if err := h.s.NoteInfluences(ctx, "s1", append(many, influence("one more")), tl); !errors.Is(err, store.ErrInvalidState) {
		t.Errorf("%d influences at once: %v, want ErrInvalidState", adopt.MaxInfluences+1, err)
	}
	if got := h.influences(time.Time{}); !reflect.DeepEqual(got, before) {
		t.Errorf("refused notes changed the influences: %v, want %v", got, before)
	}
}

// Writers noting one session at once keep its bound.
func testInfluencesConcurrent(t *testing.T, h *harness) {
	ctx := t.Context()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 20 {
				in := influence(fmt.Sprintf("g%d-%d", g, i))
				if err := h.s.NoteInfluences(ctx, "shared", []adopt.Influence{in}, tl.Add(time.Duration(i)*time.Second)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if got := h.influences(time.Time{})["shared"]; len(got) != adopt.MaxInfluences {
		t.Errorf("%d influences of one session after 160 concurrent notes, want %d", len(got), adopt.MaxInfluences)
	}
}

func testClade(t *testing.T, h *harness) {
	ctx := t.Context()
	vote := func(entry, member string, rejected bool, n int, d *store.CladeDemotion) bool {
		t.Helper()
		demoted, err := h.s.VoteClade(ctx, store.CladeVote{EntryID: entry, Member: member, Rejected: rejected, At: tl.Add(time.Duration(n) * time.Second)}, d)
		if err != nil {
			t.Fatalf("VoteClade(%s, %s): %v", entry, member, err)
		}
		return demoted
	}
	vote("e1", "0xa", true, 1, nil)
	vote("e2", "0xa", false, 2, nil)
	vote("e1", "0xb", false, 3, nil)
	vote("e1", "0xa", false, 4, nil) // replaces 0xa's first vote
	d := &store.CladeDemotion{EntryID: "e1", Member: "0xsharer", By: 0.1, At: tl.Add(5 * time.Second)}
	if !vote("e1", "0xc", true, 5, d) {
		t.Error("the first demotion for e1 was not recorded")
	}
	later := *d
	later.By, later.At = 0.5, tl.Add(time.Hour)
	if vote("e1", "0xd", true, 6, &later) {
		t.Error("a second demotion for e1 was recorded")
	}
	if ok, err := h.s.DemoteSharer(ctx, later); err != nil || ok {
		t.Errorf("DemoteSharer for a demoted entry = %v, %v; want false", ok, err)
	}
	e9 := store.CladeDemotion{EntryID: "e9", Member: "0xother", By: 0.1, At: tl.Add(7 * time.Second)}
	if ok, err := h.s.DemoteSharer(ctx, e9); err != nil || !ok {
		t.Errorf("DemoteSharer = %v, %v; want true", ok, err)
	}
	h.reopen()
	votes, err := h.s.CladeVotes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range votes {
		got = append(got, fmt.Sprintf("%s %s %v %d", v.EntryID, v.Member, v.Rejected, v.At.Sub(tl)/time.Second))
	}
	want := []string{"e1 0xa false 4", "e1 0xb false 3", "e1 0xc true 5", "e1 0xd true 6", "e2 0xa false 2"}
	if !slices.Equal(got, want) {
		t.Errorf("CladeVotes:\n got %q\nwant %q", got, want)
	}
	dems, err := h.s.CladeDemotions(ctx)
	if err != nil || len(dems) != 2 || dems[0] != *d || dems[1] != e9 {
		t.Errorf("CladeDemotions = %+v, %v; want e1's first and e9's", dems, err)
	}

	for _, tc := range []struct {
		name string
		v    store.CladeVote
		d    *store.CladeDemotion
	}{
		{"upper-case member", store.CladeVote{EntryID: "e3", Member: "0xA", At: tl}, nil},
		{"no entry", store.CladeVote{Member: "0xa", At: tl}, nil},
		{"no time", store.CladeVote{EntryID: "e3", Member: "0xa"}, nil},
		{"demotion of another entry", store.CladeVote{EntryID: "e3", Member: "0xa", At: tl}, &store.CladeDemotion{EntryID: "e4", Member: "0xs", By: 0.1, At: tl}},
		{"demotion by 0", store.CladeVote{EntryID: "e3", Member: "0xa", At: tl}, &store.CladeDemotion{EntryID: "e3", Member: "0xs", At: tl}},
	} {
		if _, err := h.s.VoteClade(ctx, tc.v, tc.d); !errors.Is(err, store.ErrInvalidState) {
			t.Errorf("%s: %v, want ErrInvalidState", tc.name, err)
		}
	}
	if votes2, err := h.s.CladeVotes(ctx); err != nil || len(votes2) != len(votes) {
		t.Errorf("refused votes changed the votes: %d, %v", len(votes2), err)
	}
}

// Of many writers demoting one entry's sharer at once, exactly one does;
// and beyond store.MaxCladeEntries entries the first voted on goes.
func testCladeConcurrent(t *testing.T, h *harness) {
	ctx := t.Context()
	var demoted atomic.Int32
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			d := store.CladeDemotion{EntryID: "shared", Member: "0xsharer", By: 0.1, At: tl}
			var ok bool
			var err error
			if g%2 == 0 {
				ok, err = h.s.DemoteSharer(ctx, d)
			} else {
				ok, err = h.s.VoteClade(ctx, store.CladeVote{EntryID: "shared", Member: fmt.Sprint("0x", g), Rejected: true, At: tl}, &d)
			}
			if err != nil {
				t.Error(err)
			}
			if ok {
				demoted.Add(1)
			}
		})
	}
	wg.Wait()
	if n := demoted.Load(); n != 1 {
		t.Errorf("%d of 16 concurrent demotions of one share were recorded, want 1", n)
	}

	const writers = 32
	per := (store.MaxCladeEntries + writers - 1) / writers
	for g := range writers {
		wg.Go(func() {
			for i := range per {
				v := store.CladeVote{EntryID: fmt.Sprintf("n%02d-%04d", g, i), Member: "0xm", At: tl.Add(time.Duration(i) * time.Millisecond)}
				if _, err := h.s.VoteClade(ctx, v, nil); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	votes, err := h.s.CladeVotes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	entries := map[string]bool{}
	for _, v := range votes {
		entries[v.EntryID] = true
	}
	if len(entries) != store.MaxCladeEntries || entries["shared"] {
		t.Errorf("%d entries with votes (the first voted on kept: %v), want %d without it", len(entries), entries["shared"], store.MaxCladeEntries)
	}
	if dems, err := h.s.CladeDemotions(ctx); err != nil || len(dems) != 1 {
		t.Errorf("demotions after the votes were forgotten: %d, %v; want 1", len(dems), err)
	}
}

// Every method of the knowledge state and the pins fails with
// store.ErrClosed after Close.
func testLearntClosed(t *testing.T, h *harness) {
	if err := h.s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	ctx, s := t.Context(), h.s
	pin := store.PinnedTool{Server: "notes", Tool: "get", Hash: hash64("a"), Approved: tl}
	for name, call := range map[string]func() error{
		"SaveLessons": func() error { return s.SaveLessons(ctx, []adopt.Lesson{lesson("a", 0)}, nil) },
		"Lessons":     func() error { _, err := s.Lessons(ctx); return err },
		"PutSample": func() error {
			return s.PutSample(ctx, store.Sample{Day: day(0), Values: map[string]float64{"x": 1}}, 1)
		},
		"Samples":          func() error { _, err := s.Samples(ctx); return err },
		"SaveMemory":       func() error { return s.SaveMemory(ctx, nil, nil, 1, tl) },
		"OracleFilters":    func() error { _, _, err := s.OracleFilters(ctx); return err },
		"ImmuneSignatures": func() error { _, err := s.ImmuneSignatures(ctx); return err },
		"AddSkills":        func() error { return s.AddSkills(ctx, nil, tl) },
		"SkillComponents":  func() error { _, err := s.SkillComponents(ctx); return err },
		"SaveSources":      func() error { return s.SaveSources(ctx, []store.SourceRecord{source("0xa", 0)}, nil) },
		"Sources":          func() error { _, err := s.Sources(ctx); return err },
		"NoteInfluences":   func() error { return s.NoteInfluences(ctx, "s", nil, tl) },
		"InfluencesSince":  func() error { _, err := s.InfluencesSince(ctx, tl); return err },
		"VoteClade": func() error {
			_, err := s.VoteClade(ctx, store.CladeVote{EntryID: "e", Member: "0xa", At: tl}, nil)
			return err
		},
		"DemoteSharer": func() error {
			_, err := s.DemoteSharer(ctx, store.CladeDemotion{EntryID: "e", Member: "0xa", By: 0.1, At: tl})
			return err
		},
		"CladeVotes":      func() error { _, err := s.CladeVotes(ctx); return err },
		"CladeDemotions":  func() error { _, err := s.CladeDemotions(ctx); return err },
		"PinTool":         func() error { _, _, err := s.PinTool(ctx, pin); return err },
		"PinnedTool":      func() error { _, err := s.PinnedTool(ctx, "notes", "get"); return err },
		"PinnedTools":     func() error { _, err := s.PinnedTools(ctx, "notes"); return err },
		"SetPendingTools": func() error { return s.SetPendingTools(ctx, "notes", nil) },
		"PendingTools":    func() error { _, err := s.PendingTools(ctx, "notes"); return err },
		"ApproveTool":     func() error { _, err := s.ApproveTool(ctx, "notes", "get", "owner", tl); return err },
		"RepinTool":       func() error { _, err := s.RepinTool(ctx, pin, pin.Hash); return err },
	} {
		if err := call(); !errors.Is(err, store.ErrClosed) {
			t.Errorf("%s after Close: %v, want %v", name, err, store.ErrClosed)
		}
	}
}
