package embed

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sync"
)

// Hit is one search result: an entry's ID and its cosine similarity to the
// query.
type Hit struct {
	ID    string
	Score float32
}

// Index holds unit vectors by ID and answers top-k cosine queries. It is
// safe for concurrent use: searches run in parallel with each other and
// exclude Add and Remove.
//
// Each vector is kept in float32 and as a sign sketch (one bit per
// component). A search runs three stages: the Hamming distance between the
// query's sketch and every entry's keeps the closest quarter; the inner
// product of the float query with those entries' sign vectors (through byte
// lookup tables) keeps the best max(16k, 256, n/20); those are scored
// exactly. Each stage keeps every tie at its cut, so data the sketch cannot
// tell apart makes a search slower, never wrong; recall is lost only when a
// true neighbour ranks outside a stage's share, which is rare on clustered
// data and measured on random data by the tests.
type Index struct {
	dim   int
	words int // uint64 words per sketch
	pool  sync.Pool

	mu       sync.RWMutex
	ids      []string
	pos      map[string]int
	vecs     []float32 // len(ids) * dim, unit length
	sketches []uint64  // len(ids) * words
}

type searchScratch struct {
	dist []uint16
	cand []int32
	est  []int32
	hist []int
	qs   []uint64
	lut  [][256]int16
	q    []float32
	top  []scored
}

// At least 1/prefilterShare of the entries pass the Hamming stage and
// 1/candidateShare are re-scored exactly.
const (
	prefilterShare = 4
	candidateShare = 20
)

type scored struct {
	score float32
	i     int
}

// NewIndex returns an empty index of vectors of length dim (at least 1 and
// at most 65535).
func NewIndex(dim int) *Index {
	dim = max(1, min(dim, 1<<16-1))
	x := &Index{dim: dim, words: (dim + 63) / 64, pos: make(map[string]int)}
	x.pool.New = func() any {
		return &searchScratch{
			hist: make([]int, max(2048, x.words*64+1)),
			qs:   make([]uint64, x.words),
			lut:  make([][256]int16, x.words*8),
			q:    make([]float32, dim),
		}
	}
	return x
}

// Dim returns the vector length the index accepts.
func (x *Index) Dim() int { return x.dim }

// Len returns the number of entries.
func (x *Index) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.ids)
}

// Add stores a normalised copy of v under id, replacing any vector already
// there. It fails with ErrDimension if len(v) is not Dim and with
// ErrNotFinite if v holds NaN or an infinity.
func (x *Index) Add(id string, v []float32) error {
	if len(v) != x.dim {
		return fmt.Errorf("index add: %w: got %d, want %d", ErrDimension, len(v), x.dim)
	}
	if !finite(v) {
		return fmt.Errorf("index add: %w", ErrNotFinite)
	}
	u := slices.Clone(v)
	Normalize(u)
	s := make([]uint64, x.words)
	sketch(u, s)
	x.mu.Lock()
	defer x.mu.Unlock()
	if i, ok := x.pos[id]; ok {
		copy(x.vecs[i*x.dim:], u)
		copy(x.sketches[i*x.words:], s)
		return nil
	}
	x.pos[id] = len(x.ids)
	x.ids = append(x.ids, id)
	x.vecs = append(x.vecs, u...)
	x.sketches = append(x.sketches, s...)
	return nil
}

// Remove deletes id and reports whether it was present.
func (x *Index) Remove(id string) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	i, ok := x.pos[id]
	if !ok {
		return false
	}
	last := len(x.ids) - 1
	if i != last {
		x.ids[i] = x.ids[last]
		x.pos[x.ids[i]] = i
		copy(x.vecs[i*x.dim:(i+1)*x.dim], x.vecs[last*x.dim:])
		copy(x.sketches[i*x.words:(i+1)*x.words], x.sketches[last*x.words:])
	}
	delete(x.pos, id)
	x.ids[last] = ""
	x.ids = x.ids[:last]
	x.vecs = x.vecs[:last*x.dim]
	x.sketches = x.sketches[:last*x.words]
	return true
}

// Search returns up to k entries most similar to q, best first (ties by
// ID). It returns nil if k < 1, len(q) is not Dim, q is not finite, or the
// index is empty. A zero query scores every entry 0.
func (x *Index) Search(q []float32, k int) []Hit {
	if k < 1 || len(q) != x.dim || !finite(q) {
		return nil
	}
	s := x.pool.Get().(*searchScratch)
	defer x.pool.Put(s)
	copy(s.q, q)
	Normalize(s.q)

	x.mu.RLock()
	defer x.mu.RUnlock()
	n := len(x.ids)
	if n == 0 {
		return nil
	}
	k = min(k, n)
	want := max(16*k, 256, n/candidateShare)
	x.prefilter(s, n, want)
	cut := x.estimateCut(s, want)
	return x.rescore(s, k, cut)
}

// prefilter is the search's first stage: it sets s.cand to the entries
// whose sign sketches are nearest q's in Hamming distance, at least want of
// them (every entry when that leaves too few out to be worth it).
func (x *Index) prefilter(s *searchScratch, n, want int) {
	cand := s.cand[:0]
	if keep := max(want, n/prefilterShare); keep < n {
		sketch(s.q, s.qs)
		s.dist = slices.Grow(s.dist[:0], n)[:n]
		hist := s.hist[:x.words*64+1]
		clear(hist)
		x.hamming(s.qs, s.dist, hist)
		cut := 0
		for seen := 0; cut < len(hist)-1; cut++ {
			if seen += hist[cut]; seen >= keep {
				break
			}
		}
		for i, d := range s.dist {
			if int(d) <= cut {
				cand = append(cand, int32(i))
			}
		}
	} else {
		for i := range n {
			cand = append(cand, int32(i))
		}
	}
	s.cand = cand
}

// estimateCut is the search's second stage: it scores the query against
// the candidates' sign vectors into s.est and returns the smallest
// estimate that keeps at least want of them (every one when there are no
// more than want).
func (x *Index) estimateCut(s *searchScratch, want int) int32 {
	s.est = slices.Grow(s.est[:0], len(s.cand))[:len(s.cand)]
	lo, hi := x.estimate(s)
	cut := int32(math.MinInt32)
	if want < len(s.cand) && hi > lo {
		clear(s.hist)
		span := int64(hi) - int64(lo)
		top := int64(len(s.hist) - 1)
		for _, e := range s.est {
			s.hist[(int64(e)-int64(lo))*top/span]++
		}
		b := len(s.hist) - 1
		for seen := 0; b > 0; b-- {
			if seen += s.hist[b]; seen >= want {
				break
			}
		}
		// The smallest estimate that lands in bin b.
		cut = int32(int64(lo) + (int64(b)*span+top-1)/top)
		for cut > lo && (int64(cut-1)-int64(lo))*top/span >= int64(b) {
			cut--
		}
	}
	return cut
}

// rescore is the search's last stage: exact scores for the candidates
// whose estimate is at least cut, the best k of them returned best first
// (ties by ID).
func (x *Index) rescore(s *searchScratch, k int, cut int32) []Hit {
	top := s.top[:0]
	for j, e := range s.est {
		if e < cut {
			continue
		}
		i := int(s.cand[j])
		sc := scored{dot(s.q, x.vecs[i*x.dim:(i+1)*x.dim]), i}
		if len(top) < k {
			top = append(top, sc)
			siftUp(top, len(top)-1, x)
		} else if x.better(sc, top[0]) {
			top[0] = sc
			siftDown(top, 0, x)
		}
	}
	s.top = top
	hits := make([]Hit, len(top))
	for j, sc := range top {
		hits[j] = Hit{ID: x.ids[sc.i], Score: sc.score}
	}
	slices.SortFunc(hits, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return hits
}

// better reports whether a ranks above b: higher score, then smaller ID.
func (x *Index) better(a, b scored) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return x.ids[a.i] < x.ids[b.i]
}

// siftUp and siftDown keep h a heap whose root is the worst kept hit.
func siftUp(h []scored, i int, x *Index) {
	for i > 0 {
		p := (i - 1) / 2
		if !x.better(h[p], h[i]) {
			return
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func siftDown(h []scored, i int, x *Index) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && x.better(h[l], h[r]) {
			m = r
		}
		if !x.better(h[i], h[m]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// estimate sets s.est[i] to a fixed-point inner product of the query and
// entry i's sign vector (+1 or -1 per component), through one table per
// sketch byte, and returns the smallest and largest estimates.
func (x *Index) estimate(s *searchScratch) (lo, hi int32) {
	nb := x.words * 8
	var worst float32
	for b := range nb {
		var a float32
		for _, f := range s.q[min(b*8, x.dim):min(b*8+8, x.dim)] {
			a += float32(math.Abs(float64(f)))
		}
		worst = max(worst, a)
	}
	scale := float32(0)
	if worst > 0 {
		scale = math.MaxInt16 / worst
	}
	for b := range nb {
		t := &s.lut[b]
		var q [8]float32
		copy(q[:], s.q[min(b*8, x.dim):min(b*8+8, x.dim)])
		var f [256]float32
		f[0] = -(q[0] + q[1] + q[2] + q[3] + q[4] + q[5] + q[6] + q[7])
		t[0] = int16(f[0] * scale)
		for v := 1; v < 256; v++ {
			f[v] = f[v&(v-1)] + 2*q[bits.TrailingZeros8(uint8(v))]
			t[v] = int16(max(-math.MaxInt16, min(math.MaxInt16, f[v]*scale)))
		}
	}
	lo, hi = math.MaxInt32, math.MinInt32
	sk := x.sketches
	for j, i := range s.cand {
		w := sk[int(i)*x.words : int(i+1)*x.words : int(i+1)*x.words]
		var e0, e1, e2, e3 int32
		for j, c := range w {
			t := (*[8][256]int16)(s.lut[j*8 : j*8+8])
			e0 += int32(t[0][uint8(c)]) + int32(t[4][uint8(c>>32)])
			e1 += int32(t[1][uint8(c>>8)]) + int32(t[5][uint8(c>>40)])
			e2 += int32(t[2][uint8(c>>16)]) + int32(t[6][uint8(c>>48)])
			e3 += int32(t[3][uint8(c>>24)]) + int32(t[7][uint8(c>>56)])
		}
		e := (e0 + e1) + (e2 + e3)
		s.est[j] = e
		lo, hi = min(lo, e), max(hi, e)
	}
	return lo, hi
}

func (x *Index) hamming(qs []uint64, dist []uint16, hist []int) {
	if x.words == 4 {
		q0, q1, q2, q3 := qs[0], qs[1], qs[2], qs[3]
		sk := x.sketches
		for i := range dist {
			w := sk[i*4 : i*4+4 : i*4+4]
			d := bits.OnesCount64(w[0]^q0) + bits.OnesCount64(w[1]^q1) +
				bits.OnesCount64(w[2]^q2) + bits.OnesCount64(w[3]^q3)
			dist[i] = uint16(d)
			hist[d]++
		}
		return
	}
	for i := range dist {
		w := x.sketches[i*x.words : (i+1)*x.words]
		d := 0
		for j, b := range w {
			d += bits.OnesCount64(b ^ qs[j])
		}
		dist[i] = uint16(d)
		hist[d]++
	}
}

// sketch sets bit i of s when v[i] > 0.
func sketch(v []float32, s []uint64) {
	clear(s)
	for i, f := range v {
		if f > 0 {
			s[i/64] |= 1 << (i % 64)
		}
	}
}
