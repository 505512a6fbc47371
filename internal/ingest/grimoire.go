package ingest

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/embed"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/trust/canon"
)

// Known is one entry of the Grimoire view. Its fields are shared: callers
// must not modify them.
type Known struct {
	Entry      *knowledge.Entry
	Embedding  []float32 // the pipeline's embedding of the content
	Claims     []knowledge.Claim
	Confidence float64 // self: as generated; external: its adoption record's
	Partition  knowledge.Partition
	// Adoption is an adopted external entry's Stage 4 record (nil for self
	// knowledge and for entries added by Seed); Retention is its Curator
	// retention, 1 until the first Curate.
	Adoption  *adopt.Record
	Retention float64
}

// Neighbour is a Known entry and its cosine similarity to a query.
type Neighbour struct {
	Known
	Score float64
}

// Grimoire is the in-memory view of the Grimoire that Stage 2 validates
// against: the self-generated and adopted entries, their embeddings in an
// embed.Index, their claims and confidences. It teaches the embedder its
// IDF from the entries' texts when the embedder can learn (embed.Hashed);
// vectors embedded before later texts were observed are not recomputed, so
// an index drifts slightly from a fresh embedding until reloaded. It is safe
// for concurrent use.
type Grimoire struct {
	emb   embed.Embedder
	mu    sync.RWMutex
	index *embed.Index // nil until the first vector fixes the dimension
	items map[string]*Known
	// contents and claims find the adopted entry (with a record) that an
	// arriving entry would confirm: by adopt.ContentHash and by claimKey.
	contents, claims map[string]string
}

// NewGrimoire returns an empty view whose texts are embedded by emb.
func NewGrimoire(emb embed.Embedder) *Grimoire {
	return &Grimoire{emb: emb, items: map[string]*Known{}, contents: map[string]string{}, claims: map[string]string{}}
}

// observer and fitter are the optional IDF learning of an embedder.
type observer interface{ Observe(text string) }
type fitter interface{ Fit(texts []string) }

// Load replaces the view with the store's self and external partitions,
// refitting the embedder's IDF to their texts first. An external entry
// comes back at its adoption record's confidence. One stored without a
// record (adopted before records were kept) is given one in the view, by
// adopt.Adopt as of its creation; it is written to the store at its first
// confirmation.
func (g *Grimoire) Load(ctx context.Context, s store.Grimoire) error {
	var all []store.GrimoireEntry
	for _, part := range []knowledge.Partition{knowledge.PartitionSelf, knowledge.PartitionExternal} {
		es, err := s.Entries(ctx, part, 0)
		if err != nil {
			return fmt.Errorf("grimoire load: %w", err)
		}
		all = append(all, es...)
	}
	texts := make([]string, len(all))
	for i := range all {
		texts[i] = all[i].Entry.Content
	}
	if f, ok := g.emb.(fitter); ok {
		f.Fit(canonical(texts))
	}
	vecs, err := g.embed(ctx, texts)
	if err != nil {
		return fmt.Errorf("grimoire load: %w", err)
	}
	g.mu.Lock()
	g.index, g.items, g.contents, g.claims = nil, map[string]*Known{}, map[string]string{}, map[string]string{}
	g.mu.Unlock()
	for i := range all {
		e := all[i].Entry
		conf, rec := e.Confidence, all[i].Adoption
		if all[i].Partition == knowledge.PartitionExternal {
			if rec == nil {
				if r, err := adopt.Adopt(&e, adopt.Origin{}, all[i].Created); err == nil {
					rec = &r
				}
			}
			conf = InitialConfidence(&e)
			if rec != nil {
				conf = rec.Confidence
			}
		}
		if err := g.add(&e, vecs[i], all[i].Partition, conf, rec); err != nil {
			return fmt.Errorf("grimoire load: %w", err)
		}
	}
	return nil
}

// Seed adds entries to the view only (not to the store): self-generated
// knowledge for the eval harness and for tests. Their texts are observed
// by the embedder before they are embedded. An entry of self provenance
// goes to the self partition at its own confidence, any other to the
// external partition at its initial confidence. Entries must be valid and
// have IDs.
func (g *Grimoire) Seed(ctx context.Context, entries []*knowledge.Entry) error {
	texts := make([]string, len(entries))
	for i, e := range entries {
		if e == nil || e.ID == "" {
			return fmt.Errorf("grimoire seed: entry %d has no id", i)
		}
		if err := e.Validate(); err != nil {
			return fmt.Errorf("grimoire seed: entry %s: %w", e.ID, err)
		}
		texts[i] = e.Content
	}
	g.observe(texts)
	vecs, err := g.embed(ctx, texts)
	if err != nil {
		return fmt.Errorf("grimoire seed: %w", err)
	}
	for i, e := range entries {
		part, conf := knowledge.PartitionExternal, InitialConfidence(e)
		if e.Source.Provenance == knowledge.Self {
			part, conf = knowledge.PartitionSelf, e.Confidence
		}
		c := *e
		if err := g.add(&c, vecs[i], part, conf, nil); err != nil {
			return fmt.Errorf("grimoire seed: %w", err)
		}
	}
	return nil
}

func (g *Grimoire) observe(texts []string) {
	if o, ok := g.emb.(observer); ok {
		for _, t := range texts {
			o.Observe(canon.Text(t))
		}
	}
}

// canonical returns the canonical texts (package canon) of texts, which
// are what the view embeds: the embedding of an entry is the embedding of
// what the layers judge, whatever obfuscation its content carries.
func canonical(texts []string) []string {
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i] = canon.Text(t)
	}
	return out
}

// embed embeds the canonical form of texts with the view's embedder and
// checks the answer.
func (g *Grimoire) embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	vecs, err := g.emb.Embed(ctx, canonical(texts))
	if err != nil {
		return nil, fmt.Errorf("embed: %w", err)
	}
	if len(vecs) != len(texts) {
		return nil, fmt.Errorf("embed: %d vectors for %d texts", len(vecs), len(texts))
	}
	for _, v := range vecs {
		if len(v) == 0 || len(v) != len(vecs[0]) {
			return nil, fmt.Errorf("embed: %w", embed.ErrDimension)
		}
		if !finite(v) {
			return nil, fmt.Errorf("embed: %w", embed.ErrNotFinite)
		}
	}
	return vecs, nil
}

// add adds e to the view at conf, with its adoption record rec (nil for
// none), which add keeps.
func (g *Grimoire) add(e *knowledge.Entry, vec []float32, part knowledge.Partition, conf float64, rec *adopt.Record) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.index == nil {
		if len(vec) < 1 || len(vec) > 65535 {
			return fmt.Errorf("grimoire: %w", embed.ErrDimension)
		}
		g.index = embed.NewIndex(len(vec))
	}
	if err := g.index.Add(e.ID, vec); err != nil {
		return fmt.Errorf("grimoire %s: %w", e.ID, err)
	}
	k := &Known{Entry: e, Embedding: vec, Confidence: conf, Partition: part, Adoption: rec, Retention: 1}
	if e.Claim != nil {
		k.Claims = []knowledge.Claim{*e.Claim}
	}
	g.items[e.ID] = k
	if rec != nil {
		if _, ok := g.contents[rec.ContentHash]; !ok {
			g.contents[rec.ContentHash] = e.ID
		}
		if key := claimKey(e.Claim); key != "" {
			if _, ok := g.claims[key]; !ok {
				g.claims[key] = e.ID
			}
		}
	}
	return nil
}

// claimKey is a structured claim's identity for confirmation: subject,
// relation, object and the sorted conditions, each with white space
// collapsed and lower-cased, hashed; "" for no claim.
func claimKey(c *knowledge.Claim) string {
	if c == nil {
		return ""
	}
	conds := slices.Clone(c.Conditions)
	for i := range conds {
		conds[i] = adopt.ContentHash(conds[i])
	}
	slices.Sort(conds)
	parts := append([]string{adopt.ContentHash(c.Subject), adopt.ContentHash(c.Relation), adopt.ContentHash(c.Object)}, conds...)
	return adopt.ContentHash(strings.Join(parts, "|"))
}

// confirmable returns the adopted entry that e would confirm: the one with
// e's content (adopt.ContentHash), else the first adopted with e's
// structured claim.
func (g *Grimoire) confirmable(e *knowledge.Entry) (Known, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	id, ok := g.contents[adopt.ContentHash(e.Content)]
	if !ok {
		if key := claimKey(e.Claim); key != "" {
			id, ok = g.claims[key]
		}
	}
	if !ok {
		return Known{}, false
	}
	k, ok := g.items[id]
	if !ok || k.Adoption == nil {
		return Known{}, false
	}
	return *k, true
}

// setAdoption replaces the adoption record of the entry rec.ID and sets
// its confidence to conf; false if the view does not hold it.
func (g *Grimoire) setAdoption(rec adopt.Record, conf float64) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	k, ok := g.items[rec.ID]
	if !ok {
		return false
	}
	n := *k
	n.Adoption, n.Confidence = &rec, conf
	g.items[rec.ID] = &n
	return true
}

// setRetention sets the Curator's retention of the entry id.
func (g *Grimoire) setRetention(id string, r float64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if k, ok := g.items[id]; ok {
		n := *k
		n.Retention = r
		g.items[id] = &n
	}
}

// remove deletes the entry id from the view; false if it held none.
func (g *Grimoire) remove(id string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	k, ok := g.items[id]
	if !ok {
		return false
	}
	delete(g.items, id)
	if g.index != nil {
		g.index.Remove(id)
	}
	if rec := k.Adoption; rec != nil {
		if g.contents[rec.ContentHash] == id {
			delete(g.contents, rec.ContentHash)
		}
		if key := claimKey(k.Entry.Claim); key != "" && g.claims[key] == id {
			delete(g.claims, key)
		}
	}
	return true
}

// Adoptions returns the adoption records of the view's adopted entries,
// by entry ID.
func (g *Grimoire) Adoptions() []adopt.Record {
	g.mu.RLock()
	defer g.mu.RUnlock()
	var out []adopt.Record
	for _, k := range g.items {
		if k.Adoption != nil {
			out = append(out, *k.Adoption)
		}
	}
	slices.SortFunc(out, func(a, b adopt.Record) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// Len returns the number of entries in the view.
func (g *Grimoire) Len() int {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return len(g.items)
}

// Get returns the entry with id.
func (g *Grimoire) Get(id string) (Known, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	k, ok := g.items[id]
	if !ok {
		return Known{}, false
	}
	return *k, true
}

// Search returns up to k entries most similar to q, best first.
func (g *Grimoire) Search(q []float32, k int) []Neighbour {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if g.index == nil {
		return nil
	}
	hits := g.index.Search(q, k)
	out := make([]Neighbour, 0, len(hits))
	for _, h := range hits {
		if kn, ok := g.items[h.ID]; ok {
			out = append(out, Neighbour{Known: *kn, Score: float64(h.Score)})
		}
	}
	return out
}

// Hit is a search result as an agent sees it: the entry's content, type,
// partition and confidence, never its signature or embedding.
type Hit struct {
	ID         string               `json:"id"`
	Content    string               `json:"content"`
	Type       knowledge.EntryType  `json:"entry_type"`
	Partition  knowledge.Partition  `json:"partition"`
	Provenance knowledge.Provenance `json:"provenance"`
	Confidence float64              `json:"confidence"`
	Score      float64              `json:"score"`
	// ValidationStatus is an adopted entry's: pending or confirmed.
	ValidationStatus string `json:"validation_status,omitempty"`
}

// Query embeds text and returns the k entries closest to it, adopted
// external knowledge weighted at adopt.ExternalWeight (0.8) of the agent's
// own, the same factor as adopt.Record.Weight, and by its Curator
// retention once curated.
func (g *Grimoire) Query(ctx context.Context, text string, k int) ([]Hit, error) {
	if k <= 0 {
		k = 10
	}
	vecs, err := g.embed(ctx, []string{text})
	if err != nil {
		return nil, err
	}
	out := []Hit{}
	for _, n := range g.Search(vecs[0], 2*k) {
		score := n.Score
		if n.Partition == knowledge.PartitionExternal {
			score *= adopt.ExternalWeight
		}
		h := Hit{ID: n.Entry.ID, Content: n.Entry.Content, Type: n.Entry.Type, Partition: n.Partition,
			Provenance: n.Entry.Source.Provenance, Confidence: n.Confidence}
		if n.Adoption != nil {
			h.ValidationStatus = n.Adoption.Status.String()
			if n.Retention > 0 && n.Retention < 1 {
				score *= n.Retention
			}
		}
		h.Score = score
		out = append(out, h)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	if len(out) > k {
		out = out[:k]
	}
	return out, nil
}

// All returns every entry of the view, by ID: for layers that need the
// whole distribution (k-means).
func (g *Grimoire) All() []Known {
	g.mu.RLock()
	defer g.mu.RUnlock()
	out := make([]Known, 0, len(g.items))
	for _, k := range g.items {
		out = append(out, *k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Entry.ID < out[j].Entry.ID })
	return out
}
