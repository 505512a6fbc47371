package store

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/oracle"
	"github.com/wardhq/ward/internal/skill"
)

// What the knowledge pipeline learns (internal/ingest) lives in tables of
// its own: the lessons, the daily market samples, the oracle's filters and
// the immune signatures, the verified skill components, every source's
// metrics and Beta reputation, the external entries each session
// retrieved, and the clade's verdicts and demotions. The pipeline keeps a
// working copy in memory, loads it from these on start and writes every
// change through them; each write is durable when it returns nil and is
// refused whole, changing nothing, when any part of it is invalid (an
// error wrapping ErrInvalidState).

// ErrInvalidState is wrapped by the errors of a write to the pipeline's
// state that a backend refused as invalid; nothing was written.
var ErrInvalidState = errors.New("invalid state record")

func invalidState(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidState, fmt.Sprintf(format, args...))
}

// Lessons keeps the lessons store (adopt.Lessons): at most
// adopt.MaxLessons, the least recently used forgotten first.
type Lessons interface {
	// SaveLessons stores put, replacing lessons with the same IDs, and
	// deletes the lessons remove names, in one transaction. The lessons of
	// put become the most recently used, in order: the last is the most
	// recent. Beyond adopt.MaxLessons the least recently used are deleted.
	// A lesson that fails its Check, or an ID both put and removed, is
	// refused.
	SaveLessons(ctx context.Context, put []adopt.Lesson, remove []string) error
	// Lessons returns every lesson, most recently used first.
	Lessons(ctx context.Context) ([]adopt.Lesson, error)
}

// CheckLessons returns why SaveLessons must refuse put and remove, or nil.
func CheckLessons(put []adopt.Lesson, remove []string) error {
	ids := map[string]bool{}
	for i := range put {
		l := &put[i]
		if err := l.Check(); err != nil {
			return invalidState("lesson %d: %v", i, err)
		}
		if !representable(l.Created) || !representable(l.Touched) || (!l.Promoted.IsZero() && !representable(l.Promoted)) {
			return invalidState("lesson %.128s: a time outside the years 1678-2262", l.ID)
		}
		for _, m := range l.Matches {
			if !representable(m) {
				return invalidState("lesson %.128s: a match outside the years 1678-2262", l.ID)
			}
		}
		ids[l.ID] = true
	}
	for _, id := range remove {
		if ids[id] {
			return invalidState("lesson %.128s both stored and removed", id)
		}
	}
	return nil
}

// MatchNanos returns the times of l's matches as the Unix nanoseconds a
// backend stores; ReadLesson turns them back.
func MatchNanos(l adopt.Lesson) []int64 {
	ms := make([]int64, len(l.Matches))
	for i, m := range l.Matches {
		ms[i] = m.UnixNano()
	}
	return ms
}

// ReadLesson completes l as a backend read it: its matches from the Unix
// nanoseconds ms it stored (MatchNanos), in UTC, and no conditions or
// keywords as nil, so that a lesson reads back as it was saved.
func ReadLesson(l *adopt.Lesson, ms []int64) {
	for _, m := range ms {
		l.Matches = append(l.Matches, time.Unix(0, m).UTC())
	}
	if len(l.Conditions) == 0 {
		l.Conditions = nil
	}
	if len(l.Keywords) == 0 {
		l.Keywords = nil
	}
}

// The bounds of the daily market samples.
const (
	MaxSampleFigures = 16   // figures per day
	MaxSampleName    = 64   // bytes of a figure's name: a-z, 0-9 and _
	MaxSampleDays    = 1000 // days kept at most
)

// Sample is the market sample of one UTC day: figures by name.
type Sample struct {
	Day    time.Time // midnight UTC
	Values map[string]float64
}

// Series keeps the daily market samples that causal rollback reads.
type Series interface {
	// PutSample replaces the sample of s.Day and then keeps only the
	// latest keep days (1 to MaxSampleDays), in one transaction. A day
	// that is not a UTC midnight, no figures or more than
	// MaxSampleFigures, a name that is not 1 to MaxSampleName bytes of
	// a-z, 0-9 and _, or a value that is not finite is refused.
	PutSample(ctx context.Context, s Sample, keep int) error
	// Samples returns every day's sample, oldest first.
	Samples(ctx context.Context) ([]Sample, error)
}

// CheckSample returns why PutSample must refuse s and keep, or nil.
func CheckSample(s Sample, keep int) error {
	y, m, d := s.Day.UTC().Date()
	switch {
	case keep < 1 || keep > MaxSampleDays:
		return invalidState("keep %d days, want 1 to %d", keep, MaxSampleDays)
	case !s.Day.Equal(time.Date(y, m, d, 0, 0, 0, 0, time.UTC)) || y < 1678 || y > 2261:
		return invalidState("day %v is not a UTC midnight", s.Day)
	case len(s.Values) == 0 || len(s.Values) > MaxSampleFigures:
		return invalidState("%d figures, want 1 to %d", len(s.Values), MaxSampleFigures)
	}
	for k, v := range s.Values {
		if !SampleName(k) {
			return invalidState("figure name %.64q", k)
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return invalidState("figure %s is not finite", k)
		}
	}
	return nil
}

// SampleName reports whether s can name a figure: 1 to MaxSampleName
// bytes of a-z, 0-9 and _.
func SampleName(s string) bool {
	if len(s) == 0 || len(s) > MaxSampleName {
		return false
	}
	for i := range len(s) {
		c := s[i]
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}

// MaxImmuneSignatures is the most immune signatures a backend keeps.
const MaxImmuneSignatures = 1 << 20

// Memory keeps what immune memory and the oracle learnt from rejections.
type Memory interface {
	// SaveMemory, in one transaction, stores f (unless nil), ORed into
	// the stored filters when their banding, seed and sizes are f's, else
	// replacing them, and appends sigs, then keeps only the newest keep
	// (1 to MaxImmuneSignatures) signatures. Inconsistent filters or a
	// signature that fails its Check is refused.
	SaveMemory(ctx context.Context, f *oracle.Filters, sigs []oracle.Signature, keep int, at time.Time) error
	// OracleFilters returns the stored filters; ok is false if none were
	// stored.
	OracleFilters(ctx context.Context) (f oracle.Filters, ok bool, err error)
	// ImmuneSignatures returns the stored signatures, oldest first.
	ImmuneSignatures(ctx context.Context) ([]oracle.Signature, error)
}

// FilterRow is one stored oracle filter as both backends keep it: a row
// per kind ("exact", "similar") with the banding and seed the two share.
type FilterRow struct {
	Bands, Rows int
	Seed        uint64
	Bloom       oracle.BloomState
}

// MergeInto ORs r, the filter stored before, into b, about to be saved as
// a filter of f, when their banding, seed and size are the same (the item
// count is then the larger of the two); otherwise b replaces r as it is.
// b's words may be changed; r's are only read.
func (r *FilterRow) MergeInto(f *oracle.Filters, b *oracle.BloomState) {
	if r.Bands != f.Bands || r.Rows != f.Rows || r.Seed != f.Seed || r.Bloom.Hashes != b.Hashes || r.Bloom.Bits != b.Bits ||
		len(r.Bloom.Words) != len(b.Words) {
		return
	}
	for i, w := range r.Bloom.Words {
		b.Words[i] |= w
	}
	b.Items = max(b.Items, r.Bloom.Items)
}

// FilterRows reads the oracle's filters back from their stored rows, in
// any order. Its zero value is ready; it is not safe for concurrent use.
type FilterRows struct {
	f     oracle.Filters
	kinds []string
}

// Add takes the stored row of kind. It fails when the row's banding or
// seed differ from a row added before.
func (rs *FilterRows) Add(kind string, r FilterRow) error {
	if len(rs.kinds) > 0 && (r.Bands != rs.f.Bands || r.Rows != rs.f.Rows || r.Seed != rs.f.Seed) {
		return errors.New("the filters' banding or seed differ")
	}
	rs.f.Bands, rs.f.Rows, rs.f.Seed = r.Bands, r.Rows, r.Seed
	if kind == "exact" {
		rs.f.Exact = r.Bloom
	} else {
		rs.f.Similar = r.Bloom
	}
	rs.kinds = append(rs.kinds, kind)
	return nil
}

// Filters returns the filters the added rows make; ok is false when none
// was added. Anything but both kinds is an error.
func (rs *FilterRows) Filters() (f oracle.Filters, ok bool, err error) {
	switch len(rs.kinds) {
	case 0:
		return oracle.Filters{}, false, nil
	case 2:
		return rs.f, true, nil
	default:
		return oracle.Filters{}, false, fmt.Errorf("only the %s filter is stored", rs.kinds[0])
	}
}

// CheckMemory returns why SaveMemory must refuse its arguments, or nil.
func CheckMemory(f *oracle.Filters, sigs []oracle.Signature, keep int, at time.Time) error {
	switch {
	case keep < 1 || keep > MaxImmuneSignatures:
		return invalidState("keep %d signatures, want 1 to %d", keep, MaxImmuneSignatures)
	case !representable(at):
		return invalidState("time %v outside the years 1678-2262", at)
	}
	if f != nil {
		if f.Bands < 1 || f.Bands > 64 || f.Rows < 1 || f.Rows > 64 {
			return invalidState("%d bands of %d rows, want 1 to 64 of each", f.Bands, f.Rows)
		}
		for _, b := range []oracle.BloomState{f.Exact, f.Similar} {
			if _, err := oracle.BloomFrom(b); err != nil {
				return invalidState("filter: %v", err)
			}
			if b.Items > math.MaxInt64 {
				return invalidState("filter of %d items", b.Items)
			}
		}
	}
	for i := range sigs {
		if err := sigs[i].Check(); err != nil {
			return invalidState("signature %d: %v", i, err)
		}
	}
	return nil
}

// Skills keeps the verified components that Stage 3 promoted into the
// skill library.
type Skills interface {
	// AddSkills stores cs in order, leaving a component whose name is
	// stored already as it was. A component without a name (or one longer
	// than knowledge.MaxID + 16 bytes), of an unknown kind, a condition
	// without an expression or a sizing component without a module or a
	// function is refused.
	AddSkills(ctx context.Context, cs []skill.Component, at time.Time) error
	// SkillComponents returns the stored components in the order they
	// were first added.
	SkillComponents(ctx context.Context) ([]skill.Component, error)
}

// CheckSkills returns why AddSkills must refuse cs, or nil.
func CheckSkills(cs []skill.Component, at time.Time) error {
	if !representable(at) {
		return invalidState("time %v outside the years 1678-2262", at)
	}
	for i, c := range cs {
		switch {
		case c.Name == "" || len(c.Name) > knowledge.MaxID+16:
			return invalidState("component %d: name of %d bytes", i, len(c.Name))
		case c.Kind == skill.KindCondition && c.Expr == "":
			return invalidState("condition %.64s without an expression", c.Name)
		case c.Kind == skill.KindSizing && (len(c.WASM) == 0 || c.Func == ""):
			return invalidState("sizing component %.64s without a module or function", c.Name)
		case c.Kind != skill.KindCondition && c.Kind != skill.KindSizing:
			return invalidState("component %.64s of unknown kind %d", c.Name, c.Kind)
		}
	}
	return nil
}

// MaxSourceBuyers is the most buyers a source's record holds.
const MaxSourceBuyers = 64

// StageCount is how many of a source's entries passed and failed a stage.
type StageCount struct{ Passed, Failed int }

// BuyerCount is what one buyer decided of a source's entries.
type BuyerCount struct{ Decided, Failed int }

// SourceRecord is one source agent's ingestion metrics and Beta
// reputation; what is derived from them (the mean, the rates, the
// blacklist) is not stored.
type SourceRecord struct {
	Agent string // lower case
	// Counts of entries: submitted, held in quarantine when first
	// decided, adopted, adopted then confirmed, rolled back.
	Submitted, Quarantined, Adopted, Confirmed, RolledBack int
	// Passes and failures per stage.
	Stage1, Stage2, Sandbox, Adopt StageCount
	Failures                       map[knowledge.AttackType]int // failures by attack
	// SafetyAlpha and SafetyBeta are the Beta reputation's parameters, at
	// least 1 each.
	SafetyAlpha, SafetyBeta float64
	Buyers                  map[string]BuyerCount
}

// Reputation keeps every source's metrics, in the order they were last
// updated.
type Reputation interface {
	// SaveSources stores put, replacing the records of the same agents,
	// and deletes the agents remove names, in one transaction; the
	// records of put become the most recently updated, in order. A record
	// with an agent that is empty, longer than knowledge.MaxID or not
	// lower case, a negative count, a failed count above its decided,
	// an attack that is not one, more than MaxSourceBuyers buyers, a
	// parameter below 1 or not finite, or an agent both put and removed
	// is refused.
	SaveSources(ctx context.Context, put []SourceRecord, remove []string) error
	// Sources returns every record, least recently updated first.
	Sources(ctx context.Context) ([]SourceRecord, error)
}

// CheckSources returns why SaveSources must refuse put and remove, or nil.
func CheckSources(put []SourceRecord, remove []string) error {
	agents := map[string]bool{}
	for _, r := range put {
		if err := checkSource(&r); err != nil {
			return invalidState("source %.64s: %v", r.Agent, err)
		}
		agents[r.Agent] = true
	}
	for _, a := range remove {
		if agents[a] {
			return invalidState("source %.64s both stored and removed", a)
		}
	}
	return nil
}

func checkSource(r *SourceRecord) error {
	if r.Agent == "" || len(r.Agent) > knowledge.MaxID || r.Agent != strings.ToLower(r.Agent) {
		return errors.New("agent not 1 to 128 lower-case bytes")
	}
	for _, n := range []int{r.Submitted, r.Quarantined, r.Adopted, r.Confirmed, r.RolledBack,
		r.Stage1.Passed, r.Stage1.Failed, r.Stage2.Passed, r.Stage2.Failed,
		r.Sandbox.Passed, r.Sandbox.Failed, r.Adopt.Passed, r.Adopt.Failed} {
		if n < 0 {
			return errors.New("a negative count")
		}
	}
	if !(r.SafetyAlpha >= 1) || !(r.SafetyBeta >= 1) || math.IsInf(r.SafetyAlpha, 0) || math.IsInf(r.SafetyBeta, 0) {
		return fmt.Errorf("Beta(%v, %v): want finite parameters of at least 1", r.SafetyAlpha, r.SafetyBeta)
	}
	for a, n := range r.Failures {
		if a == knowledge.NoAttack || !a.Valid() || n < 0 {
			return fmt.Errorf("failures by attack %d: %d", a, n)
		}
	}
	if len(r.Buyers) > MaxSourceBuyers {
		return fmt.Errorf("%d buyers, above %d", len(r.Buyers), MaxSourceBuyers)
	}
	for b, c := range r.Buyers {
		if b == "" || len(b) > knowledge.MaxID || c.Failed < 0 || c.Failed > c.Decided {
			return fmt.Errorf("buyer %.64q: %d of %d failed", b, c.Failed, c.Decided)
		}
	}
	return nil
}

// The bounds of the influences of sessions: the entries a session
// retrieved count for InfluenceWindow, and at most adopt.MaxInfluences of
// them, the most recent, are kept per session.
const InfluenceWindow = 24 * time.Hour

// Influence is an external entry that a session retrieved, and when.
type Influence struct {
	Session string
	adopt.Influence
	At time.Time
}

// Influences keeps the external entries each session retrieved, which tag
// its decisions.
type Influences interface {
	// NoteInfluences records that session retrieved ins at at, one row
	// per entry (a later retrieval of an entry replaces the earlier
	// one), keeps the session's adopt.MaxInfluences most recent, and
	// deletes every session's retrievals older than InfluenceWindow
	// before at, in one transaction. An empty session, an entry id that is
	// empty or longer than knowledge.MaxID, a provenance that is not
	// external, a confidence outside [0, 1], or more than
	// adopt.MaxInfluences entries is refused.
	NoteInfluences(ctx context.Context, session string, ins []adopt.Influence, at time.Time) error
	// InfluencesSince returns the retrievals at or after since: by
	// session, in the order each session retrieved them.
	InfluencesSince(ctx context.Context, since time.Time) ([]Influence, error)
}

// CheckInfluences returns why NoteInfluences must refuse its arguments,
// or nil.
func CheckInfluences(session string, ins []adopt.Influence, at time.Time) error {
	switch {
	case session == "" || len(session) > knowledge.MaxID*2:
		return invalidState("session id of %d bytes", len(session))
	case len(ins) > adopt.MaxInfluences:
		return invalidState("%d influences, above %d", len(ins), adopt.MaxInfluences)
	case !representable(at):
		return invalidState("time %v outside the years 1678-2262", at)
	}
	for _, in := range ins {
		if in.EntryID == "" || len(in.EntryID) > knowledge.MaxID || !in.Provenance.External() ||
			!(in.Confidence >= 0 && in.Confidence <= 1) || len(in.Agent) > knowledge.MaxID {
			return invalidState("influence %.128q", in.EntryID)
		}
	}
	return nil
}

// MaxCladeEntries is the most entries whose clade votes a backend keeps;
// the votes of the entry first voted on longest ago are forgotten first.
// Demotions are never forgotten.
const MaxCladeEntries = 10_000

// CladeVote is a member's verdict on a shared entry.
type CladeVote struct {
	EntryID  string
	Member   string // lower case
	Rejected bool
	At       time.Time
}

// CladeDemotion is what a member lost for a rejected share: By of its
// intra-clade trust, once per entry.
type CladeDemotion struct {
	EntryID string
	Member  string // lower case: the sharer
	By      float64
	At      time.Time
}

// Clade keeps the clade's verdicts on shared entries and the demotions of
// their sharers.
type Clade interface {
	// VoteClade records v, replacing the member's earlier vote on the
	// entry, and, if d is not nil and the entry's sharer was not demoted
	// for it yet, records d, in one transaction; demoted reports that d
	// was recorded. Beyond MaxCladeEntries the votes on the entry first
	// voted on longest ago are deleted.
	VoteClade(ctx context.Context, v CladeVote, d *CladeDemotion) (demoted bool, err error)
	// DemoteSharer records d unless a demotion for d's entry exists; false
	// then.
	DemoteSharer(ctx context.Context, d CladeDemotion) (bool, error)
	// CladeVotes returns every vote, by entry (in the order of their
	// first vote), then member.
	CladeVotes(ctx context.Context) ([]CladeVote, error)
	// CladeDemotions returns every demotion, oldest first.
	CladeDemotions(ctx context.Context) ([]CladeDemotion, error)
}

// CheckCladeVote returns why VoteClade must refuse v and d, or nil.
func CheckCladeVote(v CladeVote, d *CladeDemotion) error {
	if err := checkCladeIDs(v.EntryID, v.Member, v.At); err != nil {
		return err
	}
	if d != nil {
		if d.EntryID != v.EntryID {
			return invalidState("a demotion for entry %.128q with a vote on %.128q", d.EntryID, v.EntryID)
		}
		return CheckCladeDemotion(*d)
	}
	return nil
}

// CheckCladeDemotion returns why DemoteSharer must refuse d, or nil.
func CheckCladeDemotion(d CladeDemotion) error {
	if err := checkCladeIDs(d.EntryID, d.Member, d.At); err != nil {
		return err
	}
	if !(d.By > 0 && d.By <= 1) {
		return invalidState("demotion by %v, want (0, 1]", d.By)
	}
	return nil
}

func checkCladeIDs(entry, member string, at time.Time) error {
	switch {
	case entry == "" || len(entry) > knowledge.MaxID:
		return invalidState("entry id of %d bytes", len(entry))
	case member == "" || len(member) > knowledge.MaxID || member != strings.ToLower(member):
		return invalidState("member %.64q: want 1 to %d lower-case bytes", member, knowledge.MaxID)
	case !representable(at):
		return invalidState("time %v outside the years 1678-2262", at)
	}
	return nil
}
