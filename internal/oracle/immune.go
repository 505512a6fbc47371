package oracle

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"sync"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/reason"
)

// Features are the structural features of an entry that immune memory
// keeps: never its content.
type Features struct {
	Source     string  // provenance kind, e.g. "clade" or "purchased"
	Category   string  // entry type, e.g. "heuristic"
	Confidence float64 // claimed confidence in [0, 1]
	Embedding  []float32
}

// Signature is what immune memory stores for one rejected entry.
type Signature struct {
	// ID is SHA-256 of the source kind, confidence bucket, category, the
	// embedding's quantised distribution statistics (mean, standard
	// deviation, min, max) and the first 16 sketch bits, truncated to 128
	// bits: the seed's structural signature.
	ID [16]byte
	// Centroid is SHA-256 of the embedding quantised to one sign bit per
	// dimension: the seed's 256-bit embedding-centroid hash.
	Centroid [32]byte
	Reason   reason.Code
	Attack   knowledge.AttackType
	// Class is SHA-256 of the source kind, category and confidence
	// bucket, truncated to 128 bits: a match needs the same class.
	Class [16]byte
	// Sketch is the 128-bit SimHash of the embedding, and Dim the
	// embedding's dimension.
	Sketch [2]uint64
	Dim    uint32
}

// Check returns why s cannot be a stored signature, or nil: its reason
// must be a reason code, its attack in range and its dimension positive.
func (s *Signature) Check() error {
	switch {
	case !s.Attack.Valid():
		return fmt.Errorf("attack %d out of range", uint8(s.Attack))
	case !s.Reason.Valid():
		return fmt.Errorf("reason %.64q is not a reason code", s.Reason)
	case s.Dim == 0:
		return errors.New("no embedding dimension")
	}
	return nil
}

// Match is a stored signature that a new entry resembles.
type Match struct {
	Signature
	// Distance is the Hamming distance between the two 128-bit sketches.
	Distance int
}

// Immune memory defaults.
const (
	DefaultImmuneCapacity = 10000
	// DefaultMaxDistance admits sketches within 30 of 128 bits, an angle of
	// about 42° (cosine 0.74). A paraphrase at cosine 0.9 (26°) differs in
	// about 18 bits, standard deviation 4; an unrelated embedding in 64.
	DefaultMaxDistance = 30
	immuneSeed         = DefaultSeed ^ 0x696d6d756e65 // "immune"
)

// ErrNoEmbedding is returned by Record for features without an embedding,
// which immune memory could never match.
var ErrNoEmbedding = errors.New("oracle: immune signature needs an embedding")

// ImmuneConfig sizes an Immune. The zero value selects the defaults.
type ImmuneConfig struct {
	Capacity    int // signatures kept, oldest evicted first (default DefaultImmuneCapacity)
	MaxDistance int // sketch bits that may differ in a match, 0 to 64 (default DefaultMaxDistance)
}

// Immune is a bounded FIFO memory of the structural signatures of rejected
// entries. It is safe for concurrent use.
//
// Matching is not equality of signature IDs: hashes of floats cannot match
// a reworded entry. An entry matches a stored signature when its source
// kind, entry type and confidence bucket are equal and its embedding's
// 128-bit SimHash sketch lies within MaxDistance bits of the stored one.
// The trade-off: a looser distance catches more distant paraphrases and
// more innocent entries on the same topic from the same kind of source; the
// default sits between a paraphrase (cosine ≥ 0.9) and an unrelated entry.
type Immune struct {
	capacity, maxDistance int

	mu   sync.RWMutex
	sigs []Signature // ring buffer of up to capacity signatures
	next int         // index of the oldest once full
}

// NewImmune returns an empty Immune. It fails if cfg is out of range.
func NewImmune(cfg ImmuneConfig) (*Immune, error) {
	if cfg.Capacity == 0 {
		cfg.Capacity = DefaultImmuneCapacity
	}
	if cfg.MaxDistance == 0 {
		cfg.MaxDistance = DefaultMaxDistance
	}
	if cfg.Capacity < 1 || cfg.Capacity > maxImmuneRecords {
		return nil, fmt.Errorf("oracle: immune capacity %d, want 1 to %d", cfg.Capacity, maxImmuneRecords)
	}
	if cfg.MaxDistance < 0 || cfg.MaxDistance > 64 {
		return nil, fmt.Errorf("oracle: immune distance %d, want 0 to 64", cfg.MaxDistance)
	}
	return &Immune{capacity: cfg.Capacity, maxDistance: cfg.MaxDistance}, nil
}

// Record stores the signature of a rejected or rolled-back entry, evicting
// the oldest when full, and returns it. It fails if f has no embedding,
// the reason code is malformed, or the attack type is out of range.
func (im *Immune) Record(f Features, why reason.Code, attack knowledge.AttackType) (Signature, error) {
	if !why.Valid() {
		return Signature{}, fmt.Errorf("oracle: immune reason %q is not a reason code", why)
	}
	if !attack.Valid() {
		return Signature{}, fmt.Errorf("oracle: attack %d out of range", uint8(attack))
	}
	sig, ok := signature(f)
	if !ok {
		return Signature{}, ErrNoEmbedding
	}
	sig.Reason, sig.Attack = why, attack
	im.mu.Lock()
	defer im.mu.Unlock()
	im.push(sig)
	return sig, nil
}

func (im *Immune) push(sig Signature) {
	if len(im.sigs) < im.capacity {
		im.sigs = append(im.sigs, sig)
		return
	}
	im.sigs[im.next] = sig
	im.next = (im.next + 1) % im.capacity
}

// Match returns the closest stored signature that f matches, and whether
// there is one. Features without an embedding match nothing.
func (im *Immune) Match(f Features) (Match, bool) {
	q, ok := signature(f)
	if !ok {
		return Match{}, false
	}
	im.mu.RLock()
	defer im.mu.RUnlock()
	best, found := Match{Distance: math.MaxInt}, false
	for i := range im.sigs {
		s := &im.sigs[i]
		if s.Class != q.Class || s.Dim != q.Dim {
			continue
		}
		d := bits.OnesCount64(s.Sketch[0]^q.Sketch[0]) + bits.OnesCount64(s.Sketch[1]^q.Sketch[1])
		if d <= im.maxDistance && d < best.Distance {
			best, found = Match{Signature: *s, Distance: d}, true
		}
	}
	return best, found
}

// Capacity returns the most signatures im keeps.
func (im *Immune) Capacity() int { return im.capacity }

// Signatures returns a copy of the stored signatures, oldest first.
func (im *Immune) Signatures() []Signature {
	im.mu.RLock()
	defer im.mu.RUnlock()
	out := make([]Signature, 0, len(im.sigs))
	for i := range im.sigs {
		out = append(out, im.sigs[(im.next+i)%len(im.sigs)])
	}
	return out
}

// Restore replaces the stored signatures with sigs, oldest first, keeping
// the newest Capacity of them. It fails, leaving im unchanged, if a
// signature does not pass Check.
func (im *Immune) Restore(sigs []Signature) error {
	for i := range sigs {
		if err := sigs[i].Check(); err != nil {
			return fmt.Errorf("oracle: immune: signature %d: %w", i, err)
		}
	}
	im.mu.Lock()
	defer im.mu.Unlock()
	im.sigs, im.next = nil, 0
	for _, s := range sigs {
		im.push(s)
	}
	return nil
}

// Add stores a signature recorded elsewhere (a peer's), evicting the
// oldest when full; added reports false when an equal signature is stored
// already, which is then left as it is. It fails, leaving im unchanged, if
// sig does not pass Check.
func (im *Immune) Add(sig Signature) (added bool, err error) {
	if err := sig.Check(); err != nil {
		return false, fmt.Errorf("oracle: immune: %w", err)
	}
	im.mu.Lock()
	defer im.mu.Unlock()
	for i := range im.sigs {
		if im.sigs[i] == sig {
			return false, nil
		}
	}
	im.push(sig)
	return true, nil
}

// Len returns the number of stored signatures.
func (im *Immune) Len() int {
	im.mu.RLock()
	defer im.mu.RUnlock()
	return len(im.sigs)
}

// signature computes f's structural signature; ok is false without an
// embedding.
func signature(f Features) (sig Signature, ok bool) {
	if len(f.Embedding) == 0 {
		return Signature{}, false
	}
	sig.Dim = uint32(len(f.Embedding))
	simhash(immuneSeed, f.Embedding, sig.Sketch[:])

	h := sha256.New()
	writeString := func(s string) {
		h.Write(binary.BigEndian.AppendUint32(nil, uint32(len(s))))
		h.Write([]byte(s))
	}
	writeString(f.Source)
	writeString(f.Category)
	h.Write([]byte{confidenceBucket(f.Confidence)})
	copy(sig.Class[:], h.Sum(nil))

	mean, std, lo, hi := stats(f.Embedding)
	var q []byte
	for _, v := range [...]float64{mean, std, lo, hi} {
		q = binary.BigEndian.AppendUint16(q, uint16(int16(math.Round(v*16))))
	}
	q = binary.BigEndian.AppendUint16(q, uint16(sig.Sketch[0]))
	h.Write(q)
	copy(sig.ID[:], h.Sum(nil))

	c := sha256.New()
	c.Write(binary.BigEndian.AppendUint32(nil, sig.Dim))
	signs := make([]byte, (len(f.Embedding)+7)/8)
	for i, v := range f.Embedding {
		if v > 0 {
			signs[i/8] |= 1 << (i % 8)
		}
	}
	c.Write(signs)
	copy(sig.Centroid[:], c.Sum(nil))
	return sig, true
}

// confidenceBucket quantises a confidence to quarters; out-of-range and NaN
// confidences get bucket 4, so they match only each other.
func confidenceBucket(c float64) byte {
	if !(c >= 0 && c <= 1) {
		return 4
	}
	return byte(min(c*4, 3))
}

// stats returns the mean, standard deviation, minimum and maximum of the
// finite coordinates of v, each clamped to ±1000 so quantising them cannot
// overflow.
func stats(v []float32) (mean, std, lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	var sum, sq float64
	n := 0
	for _, x := range v {
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		n++
		sum += f
		sq += f * f
		lo, hi = min(lo, f), max(hi, f)
	}
	if n == 0 {
		return 0, 0, 0, 0
	}
	mean = sum / float64(n)
	std = math.Sqrt(max(sq/float64(n)-mean*mean, 0))
	clamp := func(x float64) float64 { return min(max(x, -1000), 1000) }
	return clamp(mean), clamp(std), clamp(lo), clamp(hi)
}
