package ingest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/embed"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/oracle"
	"github.com/wardhq/ward/internal/pintest"
	"github.com/wardhq/ward/internal/quarantine"
	"github.com/wardhq/ward/internal/store"
)

// memStore is an in-memory Store for the benchmark: it keeps rows by id and
// enforces neither the cap nor the durable replay guard, so the benchmark
// measures the pipeline rather than SQLite.
type memStore struct {
	mu sync.Mutex
	q  map[string]store.QuarantinedEntry
	g  map[string]store.GrimoireEntry
}

var _ Store = (*memStore)(nil)

func newMemStore() *memStore {
	return &memStore{q: map[string]store.QuarantinedEntry{}, g: map[string]store.GrimoireEntry{}}
}

func (m *memStore) PutQuarantined(_ context.Context, q *store.QuarantinedEntry) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := *q
	c.Status = store.QuarantinePending
	m.q[q.Entry.ID] = c
	return nil, nil
}

func (m *memStore) QuarantinedEntry(_ context.Context, id string) (*store.QuarantinedEntry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	q, ok := m.q[id]
	if !ok {
		return nil, store.ErrNotFound
	}
	return &q, nil
}

func (m *memStore) ListQuarantined(context.Context, store.QuarantineFilter) ([]store.QuarantinedEntry, error) {
	return nil, nil
}

func (m *memStore) SetQuarantineStatus(_ context.Context, id string, s store.QuarantineStatus, why string, a knowledge.AttackType, at time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	q, ok := m.q[id]
	if !ok {
		return store.ErrNotFound
	}
	q.Status, q.Reason, q.Attack, q.DecidedAt = s, why, a, at
	m.q[id] = q
	return nil
}

func (m *memStore) PruneQuarantine(context.Context, time.Time) (int64, error) { return 0, nil }

func (m *memStore) RollbackQuarantined(_ context.Context, q *store.QuarantinedEntry, why string, at time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.q[q.Entry.ID]
	if ok && c.Status != store.QuarantinePassed {
		return store.ErrQuarantineDecided
	}
	if !ok {
		c = *q
	}
	c.Status, c.Reason, c.Attack, c.DecidedAt = store.QuarantineRolledBack, why, knowledge.NoAttack, at
	m.q[q.Entry.ID] = c
	return nil
}

func (m *memStore) PutEntry(_ context.Context, g *store.GrimoireEntry) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.g[g.Entry.ID] = *g
	return nil
}

func (m *memStore) Entry(_ context.Context, id string) (*store.GrimoireEntry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	g, ok := m.g[id]
	if !ok {
		return nil, store.ErrNotFound
	}
	return &g, nil
}

func (m *memStore) Entries(context.Context, knowledge.Partition, int) ([]store.GrimoireEntry, error) {
	return nil, nil
}

func (m *memStore) PutAdoption(_ context.Context, r *adopt.Record) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	g, ok := m.g[r.ID]
	if !ok {
		return store.ErrNotFound
	}
	c := *r
	g.Adoption = &c
	m.g[r.ID] = g
	return nil
}

func (m *memStore) Adoption(_ context.Context, id string) (*adopt.Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	g, ok := m.g[id]
	if !ok || g.Adoption == nil {
		return nil, store.ErrNotFound
	}
	c := *g.Adoption
	return &c, nil
}

func (m *memStore) Adoptions(context.Context, int) ([]adopt.Record, error) { return nil, nil }

func (m *memStore) DeleteEntry(_ context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.g[id]; !ok {
		return store.ErrNotFound
	}
	delete(m.g, id)
	return nil
}

var benchWords = []string{"pool", "fees", "volatility", "liquidity", "range", "ETH", "USDC", "swap", "borrow", "repay",
	"health", "factor", "oracle", "price", "yield", "vault", "stake", "reward", "curve", "peg", "slippage", "tick",
	"weekend", "Friday", "spike", "drop", "rise", "LPs", "lenders", "arbitrage", "MEV", "gas"}

func benchText(i int) string {
	s := fmt.Sprintf("Note %d:", i)
	for j := range 14 {
		s += " " + benchWords[(i*7+j*j*3+j)%len(benchWords)]
	}
	return s + "."
}

// benchPipeline returns a pipeline over a Grimoire of 10,000 seeded self
// entries, with vs as Stage 2 (nil: three trivially passing validators) and
// a replay window shorter than the clock's step, so pool entries can be
// ingested again. The pool is 1,000 signed entries: texts unlike each other
// and the Grimoire's, or, clustered, 100 groups of 10 near-duplicates of a
// Grimoire entry (a bulk purchase of variants).
func benchPipeline(b *testing.B, vs []Validator, clustered bool) (*Pipeline, []*knowledge.Entry) {
	h := newHarnessOn(b, newMemStore(), knowledge.Standard)
	checker, err := quarantine.New(quarantine.Config{ChainID: chainID, Registry: h.reg, ReplayWindow: time.Millisecond})
	if err != nil {
		b.Fatal(err)
	}
	o, _ := oracle.New(oracle.Config{})
	im, _ := oracle.NewImmune(oracle.ImmuneConfig{})
	if vs == nil {
		vs = votes(true, true, true)
	}
	p, err := New(Config{Embedder: embed.NewHashed(embed.HashedConfig{}), Oracle: o, Immune: im, Checker: checker,
		Store: newMemStore(), Validators: vs, Strictness: knowledge.Standard,
		Now: h.tick})
	if err != nil {
		b.Fatal(err)
	}
	seed := make([]*knowledge.Entry, 10_000)
	for i := range seed {
		seed[i] = &knowledge.Entry{ID: fmt.Sprintf("self-%05d", i), Content: benchText(i), Type: knowledge.TypeInsight,
			Confidence: 0.7, Source: knowledge.Source{Provenance: knowledge.Self, Timestamp: h.clock()}}
	}
	if err := p.Grimoire().Seed(b.Context(), seed); err != nil {
		b.Fatal(err)
	}
	pool := make([]*knowledge.Entry, 1000)
	for i := range pool {
		text := benchText(100_000 + i)
		if clustered {
			text = benchText(i/10*97) + fmt.Sprintf(" Variant %d.", i%10)
		}
		pool[i] = h.signed(text, 0.5)
	}
	// Build the validators' corpus (k-means over 10,000 entries) before
	// the clock starts.
	if _, err := p.Ingest(b.Context(), h.signed("Warm-up note: "+benchText(123_456), 0.5)); err != nil {
		b.Fatal(err)
	}
	return p, pool
}

// BenchmarkIngest measures ingestion through Stage 1 and Stage 2 with a
// 10,000-entry Grimoire and the hashed embedder, one entry at a time and in
// batches of 100, with trivial validators (what Stage 1 and the batch
// machinery cost) and with the real Stage 2 layers. Run it on one core:
//
//	go test ./internal/ingest -run '^$' -bench Ingest -cpu 1
func BenchmarkIngest(b *testing.B) {
	for _, c := range []struct {
		name      string
		stage2    bool
		clustered bool
	}{
		{"fake", false, false},
		{"stage2", true, false},
		{"stage2/clustered", true, true},
	} {
		validators := func(b *testing.B) []Validator {
			if !c.stage2 {
				return nil
			}
			vs, err := Stage2(nil)
			if err != nil {
				b.Fatal(err)
			}
			return vs
		}
		b.Run(c.name+"/one", func(b *testing.B) {
			p, pool := benchPipeline(b, validators(b), c.clustered)
			i := 0
			for b.Loop() {
				r, err := p.Ingest(b.Context(), pool[i%len(pool)])
				if err != nil || (!c.stage2 && r.Verdict != Adopted) {
					b.Fatalf("%v %v", r, err)
				}
				i++
			}
			b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "entries/s")
		})
		b.Run(c.name+"/batch100", func(b *testing.B) {
			p, pool := benchPipeline(b, validators(b), c.clustered)
			n := 0
			for b.Loop() {
				off := (n / 100 % 10) * 100
				rs, err := p.IngestBatch(b.Context(), pool[off:off+100])
				if err != nil || (!c.stage2 && rs[0].Verdict != Adopted) {
					b.Fatalf("%v %v", rs, err)
				}
				n += len(rs)
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "entries/s")
		})
	}
}

// BenchmarkStage1Signature measures the EIP-712 check of one entry (Keccak
// digest and secp256k1 public-key recovery), which every entry pays.
func BenchmarkStage1Signature(b *testing.B) {
	p, pool := benchPipeline(b, nil, false)
	now := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	i := 0
	for b.Loop() {
		now = now.Add(time.Second)
		if err := p.cfg.Checker.Check(b.Context(), pool[i%len(pool)], now); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "entries/s")
}

// BenchmarkBatchPlan measures what batch validation adds per batch of 100:
// clustering, coordinated groups, claims and contradictions.
func BenchmarkBatchPlan(b *testing.B) {
	p, pool := benchPipeline(b, nil, false)
	es := pool[:100]
	texts := make([]string, len(es))
	for i, e := range es {
		texts[i] = e.Content
	}
	vecs, err := p.grim.embed(b.Context(), texts)
	if err != nil {
		b.Fatal(err)
	}
	idx := make([]int, len(es))
	for i := range idx {
		idx[i] = i
	}
	for b.Loop() {
		p.plan(es, vecs, idx)
	}
	b.ReportMetric(float64(b.N*len(es))/b.Elapsed().Seconds(), "entries/s")
}

// BenchmarkStage2Content measures the shipped Stage 2 layers on one
// dev-set content (every eighth text of the dev corpora, in turn) against
// a 10,000-entry Grimoire: all three layers, and L3b alone (the mental
// models, the trigger, gate, blend and loosen votes), whose cost is in
// reading the text.
func BenchmarkStage2Content(b *testing.B) {
	vs, err := Stage2(nil)
	if err != nil {
		b.Fatal(err)
	}
	p, _ := benchPipeline(b, nil, false)
	all := pintest.Load(b, pintest.Corpus{JSONL: []string{"../../testdata/dev/*/*.jsonl"}, Fields: []string{"content"}})
	var texts []string
	for i := 0; i < len(all); i += 8 {
		texts = append(texts, all[i].Text)
	}
	vecs, err := p.grim.embed(b.Context(), texts)
	if err != nil {
		b.Fatal(err)
	}
	cands := make([]*Candidate, len(texts))
	for i, text := range texts {
		cands[i] = &Candidate{Entry: &knowledge.Entry{ID: fmt.Sprintf("dev-%04d", i), Content: text, Type: knowledge.TypeInsight, Confidence: 0.5}, Embedding: vecs[i]}
	}
	// Build the layers' corpus (k-means over 10,000 entries) before the
	// clock starts.
	for _, v := range vs {
		if _, err := v.Validate(b.Context(), cands[0], p.grim); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range []struct {
		name string
		vs   []Validator
	}{{"all", vs}, {"L3b", vs[2:]}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				for _, v := range c.vs {
					if _, err := v.Validate(b.Context(), cands[i%len(cands)], p.grim); err != nil {
						b.Fatal(err)
					}
				}
				i++
			}
		})
	}
}
