package ingest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/store"
)

// Ingestion metrics and reputation (seed 001, section 11). Every source
// agent whose provenance Stage 1 verified has a SourceMetrics: the seed's
// counters, the failures by attack, a Beta(safety α, safety β) reputation
// and what each buyer saw of its entries. The exact rules are in
// docs/ingestion.md, "Rollback and reputation".
const (
	// BlacklistFailureRate is the failure rate above which a source is
	// blacklisted, once BlacklistBuyers buyers have reported.
	BlacklistFailureRate = 0.5
	// BlacklistBuyers is the fewest distinct buyers whose reports can
	// blacklist a source.
	BlacklistBuyers = 3
	// MaxSources is the most sources tracked; a new one beyond it evicts
	// the least recently updated source that is not blacklisted.
	MaxSources = 10000
	// MaxBuyers is the most buyers tracked per source.
	MaxBuyers = 64
	// LocalBuyer is the buyer this ward's own ingestion reports as: one
	// buyer, however many sessions submitted the entries.
	LocalBuyer = "local"
)

// ErrTooManyBuyers is returned by RecordOutcome for a new buyer of a source
// that already has MaxBuyers.
var ErrTooManyBuyers = errors.New("too many buyers for one source")

// StageCount is how many of a source's entries passed and failed a stage.
type StageCount struct {
	Passed int `json:"passed"`
	Failed int `json:"failed"`
}

// BuyerCount is what one buyer saw of a source's entries: how many it
// decided (adopted, confirmed or rejected) and how many of those failed.
type BuyerCount struct {
	Decided int `json:"decided"`
	Failed  int `json:"failed"`
}

// SourceMetrics are one source agent's ingestion metrics and reputation.
type SourceMetrics struct {
	Agent       string `json:"agent"` // lower-case address
	Submitted   int    `json:"entries_submitted"`
	Quarantined int    `json:"entries_quarantined"` // held pending in quarantine when first decided
	// Stages counts passes and failures per stage (stage1, stage2,
	// sandbox, adopt); an entry held by the oracle or immune memory is in
	// none until it is validated.
	Stages           map[Stage]StageCount `json:"stages,omitempty"`
	FailuresByAttack map[string]int       `json:"failures_by_attack,omitempty"`
	Adopted          int                  `json:"entries_adopted"`
	Confirmed        int                  `json:"entries_confirmed"` // adopted entries that became confirmed
	RolledBack       int                  `json:"entries_rolled_back"`
	// SafetyAlpha and SafetyBeta are the Beta reputation's parameters,
	// from a uniform prior Beta(1, 1); Safety is its mean α/(α+β).
	SafetyAlpha float64 `json:"safety_alpha"`
	SafetyBeta  float64 `json:"safety_beta"`
	Safety      float64 `json:"safety"`
	// Buyers are the distinct buyers' counts: LocalBuyer for this ward,
	// peers through RecordOutcome. FailureRate is the mean of their
	// failure rates, each buyer counted once.
	Buyers       map[string]BuyerCount `json:"buyers,omitempty"`
	FailureRate  float64               `json:"failure_rate"`
	AcceptRate   float64               `json:"accept_rate"`   // of the local buyer's decided entries
	RollbackRate float64               `json:"rollback_rate"` // rolled back per adopted entry
	Blacklisted  bool                  `json:"blacklisted"`

	used uint64 // the ledger's clock at the last update: the eviction order
}

func newSourceMetrics(agent string) *SourceMetrics {
	return &SourceMetrics{Agent: agent, SafetyAlpha: 1, SafetyBeta: 1, Stages: map[Stage]StageCount{},
		FailuresByAttack: map[string]int{}, Buyers: map[string]BuyerCount{}}
}

// refresh recomputes the derived fields, the blacklist among them: a
// source leaves it when its buyers' later reports bring the rate down.
func (m *SourceMetrics) refresh() {
	m.Safety = m.SafetyAlpha / (m.SafetyAlpha + m.SafetyBeta)
	var sum float64
	n := 0
	for _, b := range m.Buyers {
		if b.Decided > 0 {
			sum += float64(b.Failed) / float64(b.Decided)
			n++
		}
	}
	m.FailureRate = 0
	if n > 0 {
		m.FailureRate = sum / float64(n)
	}
	if l := m.Buyers[LocalBuyer]; l.Decided > 0 {
		m.AcceptRate = float64(l.Decided-l.Failed) / float64(l.Decided)
	}
	if m.Adopted > 0 {
		m.RollbackRate = float64(m.RolledBack) / float64(m.Adopted)
	}
	m.Blacklisted = n >= BlacklistBuyers && m.FailureRate > BlacklistFailureRate
}

func (m *SourceMetrics) clone() SourceMetrics {
	c := *m
	c.Stages, c.FailuresByAttack, c.Buyers = maps.Clone(m.Stages), maps.Clone(m.FailuresByAttack), maps.Clone(m.Buyers)
	return c
}

// stageOrder is the order of the stages an entry's metrics count.
var stageOrder = []Stage{StageStage1, StageStage2, StageSandbox, StageAdopt}

// count adds the decision r on one of m's entries. fresh is false for a
// later decision of an entry already counted as quarantined (Validate,
// Reject): its Stage 1 pass was counted then.
func (m *SourceMetrics) count(r *Report, fresh bool) {
	if fresh {
		m.Submitted++
	}
	i := slices.Index(stageOrder, r.Stage)
	from := 0
	if !fresh {
		from = 1
	}
	pass := func(to int) {
		for _, s := range stageOrder[from:max(from, to)] {
			c := m.Stages[s]
			c.Passed++
			m.Stages[s] = c
		}
	}
	local := m.Buyers[LocalBuyer]
	switch r.Verdict {
	case Quarantined:
		if fresh {
			m.Quarantined++
		}
		if i < 0 {
			return // held by the oracle or immune memory: no stage ran
		}
		if r.Stage == StageStage1 {
			i++ // waits for Stage 2, having passed Stage 1
		}
		pass(i)
		return
	case Rejected:
		if i < 0 {
			return
		}
		pass(i)
		c := m.Stages[r.Stage]
		c.Failed++
		m.Stages[r.Stage] = c
		local.Decided++
		local.Failed++
		if r.Attack != knowledge.NoAttack {
			m.FailuresByAttack[r.Attack.String()]++
			m.SafetyBeta++
		}
	case Adopted, Confirmed:
		pass(slices.Index(stageOrder, StageAdopt))
		if r.Verdict == Adopted {
			m.Adopted++
		}
		local.Decided++
	default:
		return
	}
	m.Buyers[LocalBuyer] = local
}

// ledger holds the metrics of every source. It is safe for concurrent use.
type ledger struct {
	mu    sync.Mutex
	src   map[string]*SourceMetrics
	clock uint64 // counts updates: the sources' recency
	// dirty are the sources changed since the last save, gone those
	// evicted since.
	dirty map[string]bool
	gone  []string
	// saving serialises snapshot and write, so an older snapshot never
	// overwrites a newer one.
	saving sync.Mutex
}

func newLedger() *ledger { return &ledger{src: map[string]*SourceMetrics{}, dirty: map[string]bool{}} }

// source returns agent's metrics, made if new, and marks them as the most
// recently updated and changed; l.mu is held.
func (l *ledger) source(agent string) *SourceMetrics {
	l.clock++
	m, ok := l.src[agent]
	if !ok {
		if len(l.src) >= MaxSources {
			var old string
			for a, s := range l.src {
				if !s.Blacklisted && (old == "" || s.used < l.src[old].used) {
					old = a
				}
			}
			if old != "" { // "" when every source is blacklisted: the map grows by one
				delete(l.src, old)
				delete(l.dirty, old)
				l.gone = append(l.gone, old)
			}
		}
		m = newSourceMetrics(agent)
		l.src[agent] = m
	}
	m.used = l.clock
	l.dirty[agent] = true
	return m
}

// attributable reports whether a decision says something about its source
// agent: not when the agent is unverified (a forgery, a malformed entry),
// the entry a replay, or the source blacklisted already.
func attributable(r *Report) bool {
	switch r.Code {
	case reason.KnowledgeForgery, reason.KnowledgeInvalid, reason.KnowledgeReplayed, reason.KnowledgeSourceBlacklisted:
		return false
	}
	return r.Verdict != ""
}

// tally counts the reports rs of the entries es (in order; rs may be
// shorter) and reports whether anything changed.
func (l *ledger) tally(es []*knowledge.Entry, rs []*Report, fresh bool) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	changed := false
	for i, r := range rs {
		if i >= len(es) || es[i] == nil || r == nil || !attributable(r) {
			continue
		}
		agent := strings.ToLower(es[i].Source.Agent)
		if agent == "" {
			continue
		}
		m := l.source(agent)
		m.count(r, fresh)
		m.refresh()
		changed = true
	}
	return changed
}

// confirmed adds an adopted entry of agent that became confirmed: α += 1.
func (l *ledger) confirmed(agent string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	m := l.source(strings.ToLower(agent))
	m.Confirmed++
	m.SafetyAlpha++
	m.refresh()
}

// rolledBack adds n rolled-back entries of agent: β += n, and for the
// local buyer n of its decided entries turn out failed.
func (l *ledger) rolledBack(agent string, n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	m := l.source(strings.ToLower(agent))
	m.RolledBack += n
	m.SafetyBeta += float64(n)
	local := m.Buyers[LocalBuyer]
	local.Decided = max(local.Decided, local.Failed+n)
	local.Failed += n
	m.Buyers[LocalBuyer] = local
	m.refresh()
}

// record adds one entry of agent decided by buyer.
func (l *ledger) record(agent, buyer string, failed bool) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	m := l.source(agent)
	b, ok := m.Buyers[buyer]
	if !ok && len(m.Buyers) >= MaxBuyers {
		return ErrTooManyBuyers
	}
	b.Decided++
	if failed {
		b.Failed++
	}
	m.Buyers[buyer] = b
	m.refresh()
	return nil
}

// report sets buyer's counts of agent's entries to c: a buyer's report
// replaces its earlier one, so that a buyer counts once however often it
// reports.
func (l *ledger) report(agent, buyer string, c BuyerCount) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	m := l.source(agent)
	if _, ok := m.Buyers[buyer]; !ok && len(m.Buyers) >= MaxBuyers {
		return ErrTooManyBuyers
	}
	m.Buyers[buyer] = c
	m.refresh()
	return nil
}

func (l *ledger) blacklisted(agent string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	m, ok := l.src[strings.ToLower(agent)]
	return ok && m.Blacklisted
}

func (l *ledger) get(agent string) (SourceMetrics, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	m, ok := l.src[strings.ToLower(agent)]
	if !ok {
		return SourceMetrics{}, false
	}
	return m.clone(), true
}

func (l *ledger) blacklist() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for a, m := range l.src {
		if m.Blacklisted {
			out = append(out, a)
		}
	}
	slices.Sort(out)
	return out
}

// save writes the sources changed since the last save to st, and deletes
// those evicted since. What a failed save did not write is written by the
// next.
func (l *ledger) save(ctx context.Context, st store.Reputation) error {
	l.saving.Lock()
	defer l.saving.Unlock()
	l.mu.Lock()
	put := make([]*SourceMetrics, 0, len(l.dirty))
	for a := range l.dirty {
		c := l.src[a].clone()
		put = append(put, &c)
	}
	var gone []string
	for _, a := range l.gone {
		if !l.dirty[a] { // evicted, then seen again
			gone = append(gone, a)
		}
	}
	l.dirty, l.gone = map[string]bool{}, nil
	l.mu.Unlock()
	if len(put) == 0 && len(gone) == 0 {
		return nil
	}
	slices.SortFunc(put, func(a, b *SourceMetrics) int { return cmp.Compare(a.used, b.used) })
	recs := make([]store.SourceRecord, len(put))
	for i, m := range put {
		recs[i] = m.storeRecord()
	}
	err := st.SaveSources(ctx, recs, gone)
	if err != nil {
		l.mu.Lock()
		for _, m := range put {
			if _, ok := l.src[m.Agent]; ok {
				l.dirty[m.Agent] = true
			}
		}
		l.gone = append(gone, l.gone...)
		l.mu.Unlock()
		return fmt.Errorf("reputation: %w", err)
	}
	return nil
}

// storeRecord is m as the store keeps it.
func (m *SourceMetrics) storeRecord() store.SourceRecord {
	r := store.SourceRecord{Agent: m.Agent, Submitted: m.Submitted, Quarantined: m.Quarantined, Adopted: m.Adopted,
		Confirmed: m.Confirmed, RolledBack: m.RolledBack, SafetyAlpha: m.SafetyAlpha, SafetyBeta: m.SafetyBeta,
		Failures: map[knowledge.AttackType]int{}, Buyers: map[string]store.BuyerCount{}}
	for st, c := range map[Stage]*store.StageCount{StageStage1: &r.Stage1, StageStage2: &r.Stage2, StageSandbox: &r.Sandbox, StageAdopt: &r.Adopt} {
		s := m.Stages[st]
		*c = store.StageCount{Passed: s.Passed, Failed: s.Failed}
	}
	for name, n := range m.FailuresByAttack {
		var a knowledge.AttackType
		if a.UnmarshalText([]byte(name)) == nil && a != knowledge.NoAttack {
			r.Failures[a] = n
		}
	}
	for b, c := range m.Buyers {
		r.Buyers[b] = store.BuyerCount{Decided: c.Decided, Failed: c.Failed}
	}
	return r
}

// sourceMetrics is the metrics r records, their derived fields computed.
func sourceMetrics(r store.SourceRecord) *SourceMetrics {
	m := newSourceMetrics(r.Agent)
	m.Submitted, m.Quarantined, m.Adopted, m.Confirmed, m.RolledBack = r.Submitted, r.Quarantined, r.Adopted, r.Confirmed, r.RolledBack
	m.SafetyAlpha, m.SafetyBeta = r.SafetyAlpha, r.SafetyBeta
	for st, c := range map[Stage]store.StageCount{StageStage1: r.Stage1, StageStage2: r.Stage2, StageSandbox: r.Sandbox, StageAdopt: r.Adopt} {
		if c != (store.StageCount{}) {
			m.Stages[st] = StageCount{Passed: c.Passed, Failed: c.Failed}
		}
	}
	for a, n := range r.Failures {
		m.FailuresByAttack[a.String()] = n
	}
	for b, c := range r.Buyers {
		m.Buyers[b] = BuyerCount{Decided: c.Decided, Failed: c.Failed}
	}
	m.refresh()
	return m
}

// load replaces the ledger with the sources st holds.
func (l *ledger) load(ctx context.Context, st store.Reputation) error {
	recs, err := st.Sources(ctx)
	if err != nil {
		return fmt.Errorf("reputation: %w", err)
	}
	src := make(map[string]*SourceMetrics, len(recs))
	for i, r := range recs {
		m := sourceMetrics(r)
		m.used = uint64(i + 1)
		src[m.Agent] = m
	}
	l.mu.Lock()
	l.src, l.clock, l.dirty, l.gone = src, uint64(len(src)), map[string]bool{}, nil
	l.mu.Unlock()
	return nil
}

// refuseBlacklisted rejects x, whose source is blacklisted, at Stage 1
// without storing it or remembering its content: the content was not
// judged.
func (p *Pipeline) refuseBlacklisted(ctx context.Context, x *subject) error {
	return p.reject(ctx, x, fault{stage: StageStage1, layer: knowledge.LayerReputation, code: reason.KnowledgeSourceBlacklisted,
		why: []string{fmt.Sprintf("more than %.0f%% of the source's entries failed, reported by %d or more buyers", 100*BlacklistFailureRate, BlacklistBuyers)}})
}

// account counts reports into the metrics and saves them to the State, if
// any.
// With a FleetPublisher, it then publishes what the decisions taught the
// clade (fleet.go), the sources' new counts among it.
func (p *Pipeline) account(ctx context.Context, es []*knowledge.Entry, rs []*Report, fresh bool) error {
	defer p.flushFleet(ctx)
	if !p.rep.tally(es, rs, fresh) {
		return nil
	}
	if p.cfg.Fleet != nil {
		for i, r := range rs {
			if i < len(es) && es[i] != nil && r != nil && attributable(r) && es[i].Source.Agent != "" {
				p.out.touched(es[i].Source.Agent)
			}
		}
	}
	return p.saveReputation(ctx)
}

// saveReputation saves the metrics changed since the last save, if the
// pipeline has a State.
func (p *Pipeline) saveReputation(ctx context.Context) error {
	if p.cfg.State == nil {
		return nil
	}
	if err := p.rep.save(context.WithoutCancel(ctx), p.cfg.State); err != nil {
		return fmt.Errorf("ingest: %w", err)
	}
	return nil
}

// Reputation returns the ingestion metrics and reputation of the source
// agent (any case), and whether it has any.
func (p *Pipeline) Reputation(agent string) (SourceMetrics, bool) { return p.rep.get(agent) }

// Blacklisted returns the blacklisted source agents, sorted.
func (p *Pipeline) Blacklisted() []string { return p.rep.blacklist() }

// RecordOutcome adds one entry of the source agent decided by buyer (a
// peer's report through the relay; this ward's own decisions are counted
// as LocalBuyer by the pipeline itself): failed if the buyer rejected it
// or rolled it back. It changes what the blacklist sees, not the safety
// α and β, which count only this ward's evidence. It fails for an empty
// source or buyer, one longer than knowledge.MaxID, a new buyer beyond
// MaxBuyers (ErrTooManyBuyers), or when the metrics cannot be saved.
func (p *Pipeline) RecordOutcome(ctx context.Context, source, buyer string, failed bool) error {
	source, buyer = strings.ToLower(strings.TrimSpace(source)), strings.TrimSpace(buyer)
	switch {
	case source == "" || buyer == "":
		return errors.New("ingest: record outcome: empty source or buyer")
	case len(source) > knowledge.MaxID || len(buyer) > knowledge.MaxID:
		return fmt.Errorf("ingest: record outcome: source or buyer longer than %d bytes", knowledge.MaxID)
	}
	if err := p.rep.record(source, buyer, failed); err != nil {
		return fmt.Errorf("ingest: record outcome of %.64s: %w", source, err)
	}
	return p.saveReputation(ctx)
}

// Restore reloads what the pipeline keeps in Config.State besides the
// oracle and immune memory (LoadMemory) and the skill library
// (LoadLibrary): the ingestion metrics and reputation, the lessons, the
// influences of sessions within InfluenceWindow, and the clade's verdicts
// and demotions, which it applies again: each demotion to Members, and
// each entry the clade rejected drops in the Grimoire view. Call it once
// after New and after loading the Grimoire view, before ingesting;
// without a State it does nothing.
func (p *Pipeline) Restore(ctx context.Context) error {
	if p.cfg.State == nil {
		return nil
	}
	if err := p.rep.load(ctx, p.cfg.State); err != nil {
		return fmt.Errorf("ingest: restore: %w", err)
	}
	if err := p.loadLessons(ctx); err != nil {
		return fmt.Errorf("ingest: restore: %w", err)
	}
	if err := p.loadInfluences(ctx); err != nil {
		return fmt.Errorf("ingest: restore: %w", err)
	}
	if err := p.loadClade(ctx); err != nil {
		return fmt.Errorf("ingest: restore: %w", err)
	}
	return nil
}
