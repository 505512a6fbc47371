package oracle

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
)

// Defaults from the ingestion seed: filters of about 4 KB at a 1 % false
// positive rate, which hold about 3,400 items.
const (
	DefaultItems = 3400
	DefaultFPR   = 0.01
)

// MaxFilterBytes bounds an encoded filter; larger input is refused before it
// is allocated.
const MaxFilterBytes = 1 << 20

const (
	bloomMagic      = "WBLM"
	bloomVersion    = 1
	bloomHeaderSize = 4 + 2 + 2 + 8 + 8 // magic, version, k, m, n
	maxHashes       = 32
)

// Errors returned when filters cannot be combined or decoded. Callers branch
// on them with errors.Is.
var (
	ErrMismatch  = errors.New("oracle: filter parameters differ")
	ErrMalformed = errors.New("oracle: malformed filter encoding")
	// ErrSaturated is returned by Oracle.Merge for a peer's filter that
	// would leave more than MaxFill of the oracle's bits set.
	ErrSaturated = errors.New("oracle: filter too full")
)

// Bloom is a Bloom filter over byte strings: it never reports a false
// negative, and reports a false positive at about the rate it was sized
// for until more items than expected are added. A Bloom is not safe for
// concurrent use; Oracle serialises access to its filters.
type Bloom struct {
	m    uint64 // bits, a multiple of 64
	k    uint32 // hashes per item
	n    uint64 // items added (an upper bound after Merge)
	bits []uint64
}

// NewBloom returns a filter sized for n items at false positive rate p:
// m = -n ln p / (ln 2)² bits, rounded up to a whole word, and
// k = (m/n) ln 2 hashes. It fails if n < 1, p is not in (0, 1), or the
// filter would exceed MaxFilterBytes.
func NewBloom(n int, p float64) (*Bloom, error) {
	if n < 1 {
		return nil, fmt.Errorf("oracle: bloom: expected items %d, want at least 1", n)
	}
	if !(p > 0 && p < 1) {
		return nil, fmt.Errorf("oracle: bloom: false positive rate %v, want in (0, 1)", p)
	}
	mf := math.Ceil(-float64(n) * math.Log(p) / (math.Ln2 * math.Ln2))
	if mf > 8*MaxFilterBytes {
		return nil, fmt.Errorf("oracle: bloom: %d items at %v need %.0f bytes, more than %d", n, p, mf/8, MaxFilterBytes)
	}
	m := (uint64(mf) + 63) &^ 63
	k := uint32(math.Round(float64(m) / float64(n) * math.Ln2))
	k = min(max(k, 1), maxHashes)
	return &Bloom{m: m, k: k, bits: make([]uint64, m/64)}, nil
}

// Bits returns the filter's size in bits.
func (b *Bloom) Bits() uint64 { return b.m }

// Hashes returns the number of hash functions.
func (b *Bloom) Hashes() int { return int(b.k) }

// Count returns the number of items added, summed over merged filters.
func (b *Bloom) Count() uint64 { return b.n }

// Add inserts item.
func (b *Bloom) Add(item []byte) {
	h1, h2 := hashPair(item)
	for i := range uint64(b.k) {
		x := (h1 + i*h2) % b.m
		b.bits[x/64] |= 1 << (x % 64)
	}
	b.n++
}

// Has reports whether item may have been added; false is definite.
func (b *Bloom) Has(item []byte) bool {
	h1, h2 := hashPair(item)
	for i := range uint64(b.k) {
		x := (h1 + i*h2) % b.m
		if b.bits[x/64]&(1<<(x%64)) == 0 {
			return false
		}
	}
	return true
}

// Merge ORs other into b, so b then holds both filters' items. It fails
// with ErrMismatch, leaving b unchanged, if the filters differ in size or
// hash count.
func (b *Bloom) Merge(other *Bloom) error {
	if other == nil || other.m != b.m || other.k != b.k {
		return fmt.Errorf("%w: merge", ErrMismatch)
	}
	for i, w := range other.bits {
		b.bits[i] |= w
	}
	b.n += other.n
	return nil
}

// Fill returns the fraction of the filter's bits that are set.
func (b *Bloom) Fill() float64 { return float64(b.ones()) / float64(b.m) }

func (b *Bloom) ones() uint64 {
	var set uint64
	for _, w := range b.bits {
		set += uint64(bits.OnesCount64(w))
	}
	return set
}

// MaxFill is the largest fraction of set bits that a merge from a peer
// may leave in a filter of k hashes: 2^(1/k)/2, the fill at which the
// false positive rate per key, fill^k, is twice the rate (1/2)^k of a
// filter NewBloom sized optimally, holding the items it was sized for. A
// filter whose bits are all or mostly set matches every key; bounding the
// fill bounds what a peer's filter can make the oracle flag.
func MaxFill(k int) float64 { return math.Pow(2, 1/float64(max(k, 1))) / 2 }

// EstimatedFPR returns the false positive rate implied by the fraction of
// bits set, (set/m)^k; it accounts for merged filters, whose item counts
// overlap.
func (b *Bloom) EstimatedFPR() float64 {
	return math.Pow(b.Fill(), float64(b.k))
}

// MarshalBinary encodes the filter: the magic "WBLM", a version, k, m and
// the item count, all big-endian, followed by the bit words.
func (b *Bloom) MarshalBinary() ([]byte, error) {
	out := make([]byte, bloomHeaderSize, bloomHeaderSize+len(b.bits)*8)
	copy(out, bloomMagic)
	binary.BigEndian.PutUint16(out[4:], bloomVersion)
	binary.BigEndian.PutUint16(out[6:], uint16(b.k))
	binary.BigEndian.PutUint64(out[8:], b.m)
	binary.BigEndian.PutUint64(out[16:], b.n)
	for _, w := range b.bits {
		out = binary.BigEndian.AppendUint64(out, w)
	}
	return out, nil
}

// UnmarshalBinary replaces b with the filter encoded in data. It fails with
// an error wrapping ErrMalformed, leaving b unchanged, if data is truncated,
// larger than MaxFilterBytes plus the header, of another magic or version,
// or inconsistent (see BloomFrom).
func (b *Bloom) UnmarshalBinary(data []byte) error {
	switch {
	case len(data) < bloomHeaderSize:
		return fmt.Errorf("%w: %d bytes, shorter than the %d-byte header", ErrMalformed, len(data), bloomHeaderSize)
	case len(data) > bloomHeaderSize+MaxFilterBytes:
		return fmt.Errorf("%w: %d bytes, more than %d", ErrMalformed, len(data), bloomHeaderSize+MaxFilterBytes)
	case string(data[:4]) != bloomMagic:
		return fmt.Errorf("%w: wrong magic %q", ErrMalformed, data[:4])
	}
	if v := binary.BigEndian.Uint16(data[4:]); v != bloomVersion {
		return fmt.Errorf("%w: version %d, want %d", ErrMalformed, v, bloomVersion)
	}
	f, err := BloomFrom(BloomState{Hashes: int(binary.BigEndian.Uint16(data[6:])), Bits: binary.BigEndian.Uint64(data[8:]),
		Items: binary.BigEndian.Uint64(data[16:]), Words: data[bloomHeaderSize:]})
	if err != nil {
		return err
	}
	*b = *f
	return nil
}

// BloomState is a filter as persistence keeps it: its parameters, and its
// bit array as the Bits/8 bytes of big-endian 64-bit words that
// MarshalBinary writes after its header.
type BloomState struct {
	Hashes int
	Bits   uint64
	Items  uint64 // items added, an upper bound after Merge
	Words  []byte
}

// State returns a copy of b's parameters and bits.
func (b *Bloom) State() BloomState {
	w := make([]byte, 0, len(b.bits)*8)
	for _, x := range b.bits {
		w = binary.BigEndian.AppendUint64(w, x)
	}
	return BloomState{Hashes: int(b.k), Bits: b.m, Items: b.n, Words: w}
}

// BloomFrom returns the filter s describes, with its own copy of the bits.
// It fails with an error wrapping ErrMalformed if s is inconsistent: k out
// of range, m not a positive multiple of 64 or above 8·MaxFilterBytes, or
// Words not m/8 bytes long.
func BloomFrom(s BloomState) (*Bloom, error) {
	switch {
	case s.Hashes < 1 || s.Hashes > maxHashes:
		return nil, fmt.Errorf("%w: %d hashes, want 1 to %d", ErrMalformed, s.Hashes, maxHashes)
	case s.Bits == 0 || s.Bits%64 != 0 || s.Bits > 8*MaxFilterBytes:
		return nil, fmt.Errorf("%w: %d bits, want a positive multiple of 64 up to %d", ErrMalformed, s.Bits, 8*MaxFilterBytes)
	case s.Bits/8 != uint64(len(s.Words)):
		return nil, fmt.Errorf("%w: %d bits, but %d bytes of them", ErrMalformed, s.Bits, len(s.Words))
	}
	words := make([]uint64, s.Bits/64)
	for i := range words {
		words[i] = binary.BigEndian.Uint64(s.Words[8*i:])
	}
	return &Bloom{m: s.Bits, k: uint32(s.Hashes), n: s.Items, bits: words}, nil
}

// hashPair derives the two 64-bit hashes of Kirsch–Mitzenmacher double
// hashing from SHA-256 of item; h2 is odd so it is never zero.
func hashPair(item []byte) (h1, h2 uint64) {
	sum := sha256.Sum256(item)
	return binary.BigEndian.Uint64(sum[0:]), binary.BigEndian.Uint64(sum[8:]) | 1
}

// unionOnes returns the number of bits set in b OR other, which have the
// same size.
func (b *Bloom) unionOnes(other *Bloom) uint64 {
	var set uint64
	for i, w := range b.bits {
		set += uint64(bits.OnesCount64(w | other.bits[i]))
	}
	return set
}
