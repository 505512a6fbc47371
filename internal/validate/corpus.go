package validate

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/wardhq/ward/internal/knowledge"
)

// MinCorpus is the fewest corpus entries L1 judges with (seed: below 50
// entries k-means clusters are degenerate and Layer 1 is skipped).
const MinCorpus = 50

// CorpusEntry is one entry the Grimoire already holds.
type CorpusEntry struct {
	ID         string
	Embedding  []float32
	Claims     []Claim
	Confidence float64 // in [0, 1]; weights the entry's claims in L2
	// Text is the entry's canonical text, which L1's rare-token model
	// learns from ("": none).
	Text string
}

// Corpus is what the Grimoire holds (adopted and self-generated entries),
// indexed for the layers: unit embeddings, claims by subject word, and a
// k-means model fitted on first use (about 0.35 s for 10,000 entries of 256
// dimensions). A Corpus is immutable once made and safe for concurrent use;
// rebuild it when the Grimoire has changed enough to matter, not per entry.
type Corpus struct {
	ids    []string
	vecs   [][]float32 // unit length; nil for an entry without a usable embedding
	claims [][]keyed
	conf   []float64
	dim    int
	// embedded counts the entries with a usable embedding.
	embedded int
	// withClaims lists the entries that have claims, the only ones L2 reads.
	withClaims []int
	sketches   []uint64 // sign sketch of every entry, dim/64 words each (zero for no vector)
	// bySubject maps a subject stem (and, for directional claims, an object
	// stem) to the entries with a claim on it.
	bySubject map[string][]int

	once  sync.Once
	model *kmeans
	texts []string // the entries' texts, for the rare-token model
	rare  func() rareModel
}

// NewCorpus indexes entries. It copies and normalises their embeddings; the
// first non-empty embedding fixes the dimension, and entries of another
// dimension or with a zero vector are kept for their claims only.
func NewCorpus(entries []CorpusEntry) *Corpus {
	c := &Corpus{bySubject: make(map[string][]int)}
	for i, e := range entries {
		v := normalized(e.Embedding)
		if v != nil && c.dim == 0 {
			c.dim = len(v)
		}
		if len(v) != c.dim {
			v = nil
		}
		c.ids = append(c.ids, e.ID)
		if e.Text != "" {
			c.texts = append(c.texts, e.Text)
		}
		c.vecs = append(c.vecs, v)
		c.claims = append(c.claims, keyAll(e.Claims))
		c.conf = append(c.conf, min(max(e.Confidence, 0), 1))
		if len(e.Claims) > 0 && v != nil {
			c.withClaims = append(c.withClaims, i)
		}
		seen := map[string]bool{}
		for _, cl := range e.Claims {
			words := phraseStems(cl.Subject)
			if cl.Direction != 0 {
				words = append(words, phraseStems(cl.Object)...) // found by either quantity
			}
			for _, s := range words {
				if !seen[s] {
					seen[s] = true
					c.bySubject[s] = append(c.bySubject[s], i)
				}
			}
		}
	}
	c.rare = sync.OnceValue(c.fitRare)
	w := (c.dim + 63) / 64
	c.sketches = make([]uint64, len(c.vecs)*w)
	for i, v := range c.vecs {
		if v != nil {
			copy(c.sketches[i*w:], sketch(v))
			c.embedded++
		}
	}
	return c
}

// Len returns the number of entries with a usable embedding.
func (c *Corpus) Len() int { return c.embedded }

type hit struct {
	idx int
	sim float64
}

// nearest returns about the k entries with claims most similar to unit
// vector v, most similar first, ties by index. It shortlists by Hamming
// distance between coordinate-sign sketches (which tracks angle) and scores
// the shortlist exactly, so a query reads 10,000 entries in microseconds;
// the subject index backs up the rare neighbour the sketch misses.
func (c *Corpus) nearest(v []float32, k int) []hit {
	if k <= 0 || len(v) != c.dim {
		return nil
	}
	short := c.withClaims
	if m := max(512, 64*k); len(short) > m {
		q := sketch(v)
		w := len(q)
		dist := make([]int, len(short))
		hist := make([]int, 64*w+1)
		for n, i := range short {
			d := 0
			for j, x := range c.sketches[i*w : i*w+w] {
				d += bits.OnesCount64(x ^ q[j])
			}
			dist[n] = d
			hist[d]++
		}
		cut, seen := 0, 0
		for cut < len(hist) && seen+hist[cut] < m {
			seen += hist[cut]
			cut++
		}
		list := make([]int, 0, m+hist[min(cut, len(hist)-1)])
		for n, i := range short {
			if dist[n] <= cut {
				list = append(list, i)
			}
		}
		short = list
	}
	top := make([]hit, 0, k+1)
	for _, i := range short {
		s := float64(dot(v, c.vecs[i]))
		if len(top) == k && s <= top[k-1].sim {
			continue
		}
		pos, _ := slices.BinarySearchFunc(top, s, func(h hit, s float64) int { return cmp.Compare(s, h.sim) })
		top = slices.Insert(top, pos, hit{i, s})
		if len(top) > k {
			top = top[:k]
		}
	}
	return top
}

// sketch packs the signs of v's coordinates into words.
func sketch(v []float32) []uint64 {
	out := make([]uint64, (len(v)+63)/64)
	for i, x := range v {
		if x > 0 {
			out[i/64] |= 1 << (i % 64)
		}
	}
	return out
}

// kmeans is a fitted spherical k-means model.
type kmeans struct {
	centroids [][]float32
	threshold float64 // distance beyond which a point is anomalous
	mean, sd  float64
	p99       float64
}

func (c *Corpus) fit() *kmeans {
	c.once.Do(func() {
		var pts [][]float32
		for _, v := range c.vecs {
			if v != nil {
				pts = append(pts, v)
			}
		}
		if len(pts) >= MinCorpus {
			c.model = fitKMeans(pts, min(5, len(pts)/10))
		}
	})
	return c.model
}

// fitKMeans runs spherical k-means with k-means++ seeding from a fixed seed,
// so the same points always give the same model.
func fitKMeans(pts [][]float32, k int) *kmeans {
	rng := rand.New(rand.NewPCG(0x5741524420, 0x4c31))
	cents := seedCentroids(pts, k, rng)
	cents = refine(pts, cents)
	return measured(pts, cents)
}

// seedCentroids picks up to k of pts as the first centroids (k-means++):
// the first at random, each next one with a probability proportional to
// its squared distance from the nearest centroid picked; fewer when every
// point already lies on one.
func seedCentroids(pts [][]float32, k int, rng *rand.Rand) [][]float32 {
	cents := [][]float32{pts[rng.IntN(len(pts))]}
	d2 := make([]float64, len(pts))
	for len(cents) < k {
		var sum float64
		for i, p := range pts {
			best := math.Inf(1)
			for _, ct := range cents {
				best = min(best, 1-float64(dot(p, ct)))
			}
			d2[i] = best * best
			sum += d2[i]
		}
		if sum == 0 {
			break
		}
		r := rng.Float64() * sum
		pick := len(pts) - 1
		for i, d := range d2 {
			if r -= d; r < 0 {
				pick = i
				break
			}
		}
		cents = append(cents, pts[pick])
	}
	return cents
}

// refine moves the centroids cents to the normalised mean of the points
// nearest each (Lloyd's iterations, at most 25) until no point changes
// centroid.
func refine(pts, cents [][]float32) [][]float32 {
	assign := make([]int, len(pts))
	for i := range assign {
		assign[i] = -1
	}
	for iter := 0; iter < 25; iter++ {
		changed := false
		for i, p := range pts {
			a, _ := closest(p, cents)
			if a != assign[i] {
				assign[i], changed = a, true
			}
		}
		if !changed {
			break
		}
		cents = recentred(pts, assign, cents)
	}
	return cents
}

// recentred returns the normalised mean of the points assigned to each
// centroid of cents, keeping a centroid whose mean is zero.
func recentred(pts [][]float32, assign []int, cents [][]float32) [][]float32 {
	dim := len(pts[0])
	sums := make([][]float64, len(cents))
	for j := range sums {
		sums[j] = make([]float64, dim)
	}
	for i, p := range pts {
		s := sums[assign[i]]
		for d, x := range p {
			s[d] += float64(x)
		}
	}
	next := make([][]float32, 0, len(cents))
	for j, s := range sums {
		v := make([]float32, dim)
		for d, x := range s {
			v[d] = float32(x)
		}
		if u := normalized(v); u != nil {
			next = append(next, u)
		} else {
			next = append(next, cents[j])
		}
	}
	return next
}

// measured returns the model of the centroids cents: the mean, standard
// deviation and 99th percentile of the points' distances to their nearest
// centroid, and the threshold beyond them.
func measured(pts, cents [][]float32) *kmeans {
	dist := make([]float64, len(pts))
	var sum, sq float64
	for i, p := range pts {
		_, d := closest(p, cents)
		dist[i] = d
		sum += d
	}
	m := &kmeans{centroids: cents}
	m.mean = sum / float64(len(dist))
	for _, d := range dist {
		sq += (d - m.mean) * (d - m.mean)
	}
	m.sd = math.Sqrt(sq / float64(len(dist)))
	slices.Sort(dist)
	m.p99 = dist[min(len(dist)-1, int(math.Ceil(0.99*float64(len(dist))))-1)]
	m.threshold = max(m.p99, m.mean+3*m.sd)
	return m
}

// closest returns the index of the centroid nearest p and its cosine
// distance.
func closest(p []float32, cents [][]float32) (int, float64) {
	best, bd := 0, math.Inf(1)
	for j, ct := range cents {
		if d := 1 - float64(dot(p, ct)); d < bd {
			best, bd = j, d
		}
	}
	return best, bd
}

// Anomaly is Layer 1, with two signals. Embedding distance: it fails a
// candidate whose embedding lies farther from every centroid of the corpus
// than the corpus's own entries do (beyond max(p99, mean + 3 sd) of their
// member-to-centroid distances), and fails a candidate with no embedding
// or one of another dimension. Rare tokens: it fails a candidate whose
// content has a token more surprising to the character n-gram model (the
// shipped English model extended by the corpus's texts) than the boundary
// (see rare.go and fitRare). Score is the larger of the two ratios to
// their boundaries, so 1 or more fails; Signals holds ScoreRareToken.
//
// Below MinCorpus embedded entries the embedding signal cannot judge: the
// vote then fails on rare tokens alone, and is skipped otherwise (a
// character model that finds nothing odd is no evidence that an entry is
// sound). A score of StrongAnomaly or more is decisive (Weigh).
func Anomaly(c Candidate, corpus *Corpus) (v Vote) {
	v = Vote{Layer: knowledge.LayerAnomaly}
	rare, rareErr := rareVote(c, corpus)
	if rareErr == nil {
		v.Signals = map[string]float64{ScoreRareToken: rare.score, ScoreRareBoundary: rare.boundary}
	}
	failRare := rareErr == nil && rare.score >= rare.boundary
	rareReason := func() {
		v.Reasons = append(v.Reasons, fmt.Sprintf("a token's surprisal %.2f bits per character is at or beyond the rare-token boundary %.2f", rare.score, rare.boundary))
	}
	setSignal := func(k string, x float64) {
		if v.Signals == nil {
			v.Signals = map[string]float64{}
		}
		v.Signals[k] = x
	}
	setSignal(ScoreEmbeddingRatio, 0)
	if corpus == nil || corpus.Len() < MinCorpus {
		if failRare {
			v.Score = rare.score / rare.boundary
			rareReason()
			return v
		}
		v.Skipped = true
		v.Reasons = []string{fmt.Sprintf("corpus holds fewer than %d entries", MinCorpus)}
		return v
	}
	defer func() {
		if rareErr != nil {
			return
		}
		v.Score = max(v.Score, rare.score/rare.boundary)
		if failRare {
			v.Pass = false
			rareReason()
		}
	}()
	u := normalized(c.Embedding)
	if u == nil || len(u) != corpus.dim {
		v.Score = math.Inf(1)
		setSignal(ScoreEmbeddingRatio, v.Score)
		v.Reasons = []string{fmt.Sprintf("embedding has %d dimensions or is zero, corpus has %d", len(c.Embedding), corpus.dim)}
		return Weigh(v)
	}
	m := corpus.fit()
	_, d := closest(u, m.centroids)
	v.Score = d / math.Max(m.threshold, 1e-9)
	setSignal(ScoreEmbeddingRatio, v.Score)
	v.Pass = v.Score < 1
	if !v.Pass {
		v.Reasons = []string{fmt.Sprintf("embedding is %.3f from the nearest of %d centroids, beyond the corpus's %.3f (p99 %.3f, mean+3sd %.3f)",
			d, len(m.centroids), m.threshold, m.p99, m.mean+3*m.sd)}
	}
	return Weigh(v)
}

// Coordinated-cluster parameters of Cluster.
const (
	ClusterSimilarity = 0.9 // cosine at which two newcomers are near-duplicates
	ClusterMin        = 4   // fewest near-duplicates that make a coordinated cluster
)

// Cluster flags coordinated poisoning among newcomers, which arrives as many
// paraphrases of one target: groups of at least ClusterMin candidates linked
// by cosine ≥ ClusterSimilarity (connected components, so paraphrases chained
// through one another count) of which no member is within ClusterSimilarity
// of an entry the corpus already holds. It returns the flagged groups'
// candidate indices in ascending order, groups ordered by their first index;
// the caller fails L1 for their members. Candidates without an embedding of
// the corpus's dimension belong to no group. corpus may be nil.
func Cluster(cands []Candidate, corpus *Corpus) [][]int {
	unit := make([][]float32, len(cands))
	dim := 0
	if corpus != nil {
		dim = corpus.dim
	}
	for i, c := range cands {
		u := normalized(c.Embedding)
		if u != nil && dim == 0 {
			dim = len(u)
		}
		if len(u) == dim {
			unit[i] = u
		}
	}
	parent := make([]int, len(cands))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for i := range unit {
		for j := i + 1; j < len(unit); j++ {
			if unit[i] != nil && unit[j] != nil && float64(dot(unit[i], unit[j])) >= ClusterSimilarity {
				a, b := find(i), find(j)
				parent[max(a, b)] = min(a, b)
			}
		}
	}
	groups := map[int][]int{}
	for i := range unit {
		if unit[i] != nil {
			r := find(i)
			groups[r] = append(groups[r], i)
		}
	}
	var out [][]int
	for _, g := range groups {
		if len(g) < ClusterMin || corpus.knows(unit, g) {
			continue
		}
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b []int) int { return cmp.Compare(a[0], b[0]) })
	return out
}

// knows reports whether any of the group's vectors is within
// ClusterSimilarity of a corpus entry.
func (c *Corpus) knows(unit [][]float32, g []int) bool {
	if c == nil {
		return false
	}
	for _, i := range g {
		for _, v := range c.vecs {
			if v != nil && float64(dot(unit[i], v)) >= ClusterSimilarity {
				return true
			}
		}
	}
	return false
}

// Names of L1's signals in Vote.Signals (and the ingest report's scores).
const (
	ScoreRareToken    = "rare_token_score"    // the highest token surprisal, bits per character
	ScoreRareBoundary = "rare_token_boundary" // the boundary it fails at
	// ScoreEmbeddingRatio is the embedding distance over the corpus's
	// outlier distance: the part of L1's score Weigh may find decisive
	// (a rare token alone never is: rare names are common in sound text).
	ScoreEmbeddingRatio = "embedding_ratio"
)

// RareMargin is added, in bits per character, to the 99th percentile of the
// corpus's own scores when that is above the shipped model's boundary.
const RareMargin = 0.5

// rareModel is the rare-token model of a corpus and its boundary.
type rareModel struct {
	m        *NGram
	boundary float64
	err      error
}

type rareResult struct{ score, boundary float64 }

// fitRare extends the shipped model by the corpus's texts and chooses the
// boundary: the shipped one (from held-out English, see ngramgen), raised
// to the 99th percentile of the corpus's own texts' scores under the
// shipped model (which has not seen them) plus RareMargin when that is
// higher, so that a Grimoire whose ordinary vocabulary is
// odder than English does not fail its own kind of entry. With fewer than
// MinCorpus texts the shipped boundary stands.
func (c *Corpus) fitRare() rareModel {
	base, err := ShippedNGram()
	if err != nil {
		return rareModel{err: err}
	}
	if len(c.texts) == 0 {
		return rareModel{m: base, boundary: base.Boundary}
	}
	m := base.With(c.texts)
	b := base.Boundary
	if len(c.texts) >= MinCorpus {
		scores := make([]float64, len(c.texts))
		for i, t := range c.texts {
			// Scored by the shipped model, which has not seen them: a
			// model scoring its own training text underestimates how odd
			// the next entry of its kind will look.
			scores[i], _ = base.RareScore(t)
		}
		slices.Sort(scores)
		b = max(b, scores[int(math.Ceil(0.99*float64(len(scores))))-1]+RareMargin)
	}
	return rareModel{m: m, boundary: b}
}

// Rare returns the rare-token score of text under the corpus's model and
// the boundary L1 fails it at (see fitRare).
func (c *Corpus) Rare(text string) (score, boundary float64, err error) {
	rm := c.rare()
	if rm.err != nil {
		return 0, 0, rm.err
	}
	s, _ := rm.m.RareScore(text)
	return s, rm.boundary, nil
}

// rareVote scores c's content with corpus's rare-token model (the shipped
// one for a nil corpus).
func rareVote(c Candidate, corpus *Corpus) (rareResult, error) {
	var rm rareModel
	if corpus != nil {
		rm = corpus.rare()
	} else if base, err := ShippedNGram(); err != nil {
		rm.err = err
	} else {
		rm = rareModel{m: base, boundary: base.Boundary}
	}
	if rm.err != nil {
		return rareResult{}, rm.err
	}
	if c.Entry == nil {
		return rareResult{boundary: rm.boundary}, nil
	}
	s, _ := rm.m.RareScore(c.Entry.Content)
	return rareResult{score: s, boundary: rm.boundary}, nil
}
