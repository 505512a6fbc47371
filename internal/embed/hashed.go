package embed

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// HashedConfig configures a [Hashed] embedder. The zero value is usable.
type HashedConfig struct {
	// Dim is the number of hash buckets, the vector dimension. 0 means 256;
	// values above 65536 are capped.
	Dim int
	// MaxFeatures bounds the number of distinct features whose document
	// frequency is tracked. Features first seen once the table is full are
	// weighted as unseen (the highest IDF). 0 means 262144.
	MaxFeatures int
}

const (
	defaultDim         = 256
	maxDim             = 1 << 16
	defaultMaxFeatures = 1 << 18
	lnTableSize        = 4096

	// Feature weights by kind, before IDF. A word yields about a dozen
	// character n-grams, so each counts for less than a word; rewording
	// breaks bigrams first, so they count least. Tuned on the paraphrase
	// test.
	weightWord   = 1.0
	weightBigram = 0.4
	weightChar   = 0.5

	// Salts that keep feature kinds apart in hash space.
	saltWord   = 0x9e3779b97f4a7c15
	saltBigram = 0xc2b2ae3d27d4eb4f
	saltChar   = 0x165667b19e3779f9

	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211

	markBegin = 0x110000 // beyond the last rune
	markEnd   = 0x110001
)

// Hashed is the default, model-free embedder: it hashes word unigrams, word
// bigrams and character 3- to 5-grams (within words, with boundary marks) of
// NFKC-normalised, case-folded text into Dim signed buckets, weights each
// feature by its IDF, ln((1+N)/(1+df))+1, learnt with Fit and Observe, and
// L2-normalises the result; empty text (or text without letters or digits)
// yields a zero vector. Before any document is observed every IDF is 1.
//
// Output depends only on the configuration, the text and the documents
// observed (in order, when MaxFeatures is reached), so it is the same across
// runs and machines. All methods are safe for concurrent use.
type Hashed struct {
	dim         int
	maxFeatures int
	lnp1        []float64 // lnp1[i] = ln(1+i), read-only after NewHashed
	pool        sync.Pool // *scratch

	mu   sync.RWMutex
	docs int
	df   map[uint64]uint32
}

type feature struct {
	h uint64
	w float32
}

type scratch struct {
	text  []byte
	spans [][2]int
	units []uint32
	words []uint64
	feats []feature
}

// NewHashed returns a Hashed embedder with no observed documents.
func NewHashed(cfg HashedConfig) *Hashed {
	if cfg.Dim <= 0 {
		cfg.Dim = defaultDim
	}
	cfg.Dim = min(cfg.Dim, maxDim)
	if cfg.MaxFeatures <= 0 {
		cfg.MaxFeatures = defaultMaxFeatures
	}
	h := &Hashed{
		dim:         cfg.Dim,
		maxFeatures: cfg.MaxFeatures,
		lnp1:        make([]float64, lnTableSize),
		df:          make(map[uint64]uint32),
	}
	for i := range h.lnp1 {
		h.lnp1[i] = math.Log1p(float64(i))
	}
	h.pool.New = func() any { return new(scratch) }
	return h
}

// Dim returns the vector dimension.
func (h *Hashed) Dim() int { return h.dim }

// Name returns "hashed-v1/DIM". It changes whenever the feature scheme does.
func (h *Hashed) Name() string { return fmt.Sprintf("hashed-v1/%d", h.dim) }

// Embed returns one unit (or zero) vector per text. It fails only when ctx
// is done, checked between texts.
func (h *Hashed) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	flat := make([]float32, len(texts)*h.dim)
	s := h.pool.Get().(*scratch)
	defer h.pool.Put(s)
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("hashed embed: %w", err)
		}
		v := flat[i*h.dim : (i+1)*h.dim : (i+1)*h.dim]
		h.embed(s, t, v)
		out[i] = v
	}
	return out, nil
}

func (h *Hashed) embed(s *scratch, text string, v []float32) {
	s.features(text)
	if len(s.feats) == 0 {
		return
	}
	dim := uint64(h.dim)
	h.mu.RLock()
	if h.docs == 0 {
		for _, f := range s.feats {
			m := mix(f.h)
			if m>>63 != 0 {
				v[m%dim] -= f.w
			} else {
				v[m%dim] += f.w
			}
		}
	} else {
		lnN := h.ln1p(uint64(h.docs))
		for _, f := range s.feats {
			idf := float32(lnN - h.ln1p(uint64(h.df[f.h])) + 1)
			m := mix(f.h)
			if m>>63 != 0 {
				v[m%dim] -= f.w * idf
			} else {
				v[m%dim] += f.w * idf
			}
		}
	}
	h.mu.RUnlock()
	Normalize(v)
}

func (h *Hashed) ln1p(n uint64) float64 {
	if n < lnTableSize {
		return h.lnp1[n]
	}
	return math.Log1p(float64(n))
}

// Fit replaces the document frequencies with those of texts.
func (h *Hashed) Fit(texts []string) {
	df := make(map[uint64]uint32)
	s := h.pool.Get().(*scratch)
	for _, t := range texts {
		for _, f := range s.unique(t) {
			addDF(df, f, h.maxFeatures)
		}
	}
	h.pool.Put(s)
	h.mu.Lock()
	h.df, h.docs = df, len(texts)
	h.mu.Unlock()
}

// Observe adds one document to the document frequencies.
func (h *Hashed) Observe(text string) {
	s := h.pool.Get().(*scratch)
	defer h.pool.Put(s)
	u := s.unique(text)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.docs++
	for _, f := range u {
		addDF(h.df, f, h.maxFeatures)
	}
}

// Documents returns the number of documents observed since the last Fit.
func (h *Hashed) Documents() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.docs
}

func addDF(df map[uint64]uint32, f uint64, limit int) {
	if n, ok := df[f]; ok {
		if n < math.MaxUint32 {
			df[f] = n + 1
		}
	} else if len(df) < limit {
		df[f] = 1
	}
}

// unique returns the distinct feature hashes of text, sorted, in a buffer
// owned by s.
func (s *scratch) unique(text string) []uint64 {
	s.features(text)
	u := s.words[:0]
	for _, f := range s.feats {
		u = append(u, f.h)
	}
	slices.Sort(u)
	u = slices.Compact(u)
	s.words = u
	return u
}

// features fills s.feats with the weighted features of text.
func (s *scratch) features(text string) {
	s.tokenize(text)
	s.feats = s.feats[:0]
	s.words = s.words[:0]
	for _, sp := range s.spans {
		tok := s.text[sp[0]:sp[1]]
		wh := uint64(fnvOffset)
		for _, c := range tok {
			wh = (wh ^ uint64(c)) * fnvPrime
		}
		s.words = append(s.words, wh)
		s.feats = append(s.feats, feature{wh ^ saltWord, weightWord})

		s.units = append(s.units[:0], markBegin)
		for len(tok) > 0 {
			r, n := utf8.DecodeRune(tok)
			s.units = append(s.units, uint32(r))
			tok = tok[n:]
		}
		s.units = append(s.units, markEnd)
		for i := 0; i+3 <= len(s.units); i++ {
			ch := uint64(fnvOffset)
			for n := 0; n < 5 && i+n < len(s.units); n++ {
				ch = (ch ^ uint64(s.units[i+n])) * fnvPrime
				if n >= 2 {
					s.feats = append(s.feats, feature{ch ^ saltChar, weightChar})
				}
			}
		}
	}
	for i := 1; i < len(s.words); i++ {
		b := (s.words[i-1]*fnvPrime ^ s.words[i]) * fnvPrime
		s.feats = append(s.feats, feature{b ^ saltBigram, weightBigram})
	}
}

// tokenize writes the NFKC-normalised, case-folded words of text (maximal
// runs of letters, marks and digits) into s.text and their spans into
// s.spans.
func (s *scratch) tokenize(text string) {
	s.text, s.spans = s.text[:0], s.spans[:0]
	ascii := true
	for i := 0; i < len(text); i++ {
		if text[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	start := -1
	end := func() {
		if start >= 0 {
			s.spans = append(s.spans, [2]int{start, len(s.text)})
			start = -1
		}
	}
	if ascii {
		for i := 0; i < len(text); i++ {
			c := text[i]
			switch {
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
			default:
				end()
				continue
			}
			if start < 0 {
				start = len(s.text)
			}
			s.text = append(s.text, c)
		}
		end()
		return
	}
	for _, r := range norm.NFKC.String(text) {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) {
			end()
			continue
		}
		if start < 0 {
			start = len(s.text)
		}
		s.text = utf8.AppendRune(s.text, fold(r))
	}
	end()
}

// fold maps r to a canonical case: the smallest rune in its simple case
// folding orbit that is lower case, or r's lower case.
func fold(r rune) rune {
	l := unicode.ToLower(r)
	for f := unicode.SimpleFold(l); f != l; f = unicode.SimpleFold(f) {
		if f < l && unicode.IsLower(f) {
			l = f
		}
	}
	return l
}

// mix is the splitmix64 finaliser: it spreads a feature hash before its
// low bits choose a bucket and its top bit a sign.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
