// Package oracle is the ingestion pipeline's first, cheapest screen and its
// memory of past poison.
//
// An Oracle answers "has any peer already flagged this content as
// poisonous?" from Bloom filters of hashes only: an exact filter of SHA-256
// over normalised content, and a similarity filter of locality-sensitive
// SimHash bands over the content's embedding, so a reworded re-post with a
// near-identical embedding hits too. Filters never give false negatives;
// false positives send an entry to quarantine, which is the conservative
// direction. Filters from peers merge by bitwise OR and reveal no content:
// SHA-256 and random-hyperplane projections are one-way.
//
// Immune holds structural signatures of entries the pipeline rejected or
// rolled back, and matches new entries against them: same provenance kind,
// entry type and confidence bucket, and an embedding within a small angle,
// so a paraphrase of a rejected attack goes straight to quarantine.
//
// Both types are safe for concurrent use. Neither does I/O: persistence and
// the relay between peers carry the bytes of Export and MarshalBinary.
package oracle

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strings"
	"sync"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// DefaultSeed seeds the SimHash hyperplanes; peers must share it for their
// similarity filters to agree.
const DefaultSeed uint64 = 0x77617264_6f726163 // "wardorac"

// Default LSH banding: a 768-bit SimHash in 32 bands of 24 bits. A band of
// an embedding at cosine 0.95 to a flagged one agrees with probability
// about 0.08 (at 0.97, 0.14), so at least one of 32 bands collides 92 %
// (99 %) of the time; an unrelated embedding collides in a given band with
// probability 2^-24 per flagged entry, about 0.6 % over all bands with
// DefaultItems flagged. Shorter bands trade that for speed: 16 bands of 16
// bits flag 2.6 % of unrelated embeddings with 100 entries flagged but 61 %
// at capacity, and a single 64-bit SimHash cannot separate near-duplicates
// from unrelated entries at any banding.
const (
	DefaultBands = 32
	DefaultRows  = 24
)

// Config sizes an Oracle. The zero value selects the seed's defaults.
type Config struct {
	// Items is the number of flagged entries the filters are sized for
	// (default DefaultItems).
	Items int
	// FPR is the target false positive rate of each kind of hit (default
	// DefaultFPR). The similarity filter holds Bands keys per entry and is
	// sized at FPR/Bands per key so a query's overall rate stays near FPR.
	FPR float64
	// Bands and Rows set the LSH banding: a SimHash of Bands·Rows bits
	// split into Bands bands of Rows bits, 1 to 64 of each (defaults
	// DefaultBands, DefaultRows).
	Bands, Rows int
	// Seed seeds the SimHash hyperplanes (default DefaultSeed).
	Seed uint64
}

func (c Config) withDefaults() Config {
	c.Items = cmp.Or(c.Items, DefaultItems)
	c.FPR = cmp.Or(c.FPR, DefaultFPR)
	c.Bands = cmp.Or(c.Bands, DefaultBands)
	c.Rows = cmp.Or(c.Rows, DefaultRows)
	c.Seed = cmp.Or(c.Seed, DefaultSeed)
	return c
}

// Hit is the result of Check. The zero value is a miss.
type Hit struct {
	// Exact is set when the normalised content was flagged.
	Exact bool
	// Similar is set when a flagged entry's embedding shares an LSH band
	// with this one.
	Similar bool
}

// Any reports whether either kind of hit occurred.
func (h Hit) Any() bool { return h.Exact || h.Similar }

// Oracle holds the exact and similarity filters. It is safe for concurrent
// use.
type Oracle struct {
	bands, rows int
	seed        uint64

	mu    sync.RWMutex
	exact *Bloom
	sim   *Bloom
}

// New returns an empty Oracle. It fails if cfg is out of range or its
// filters would exceed MaxFilterBytes.
func New(cfg Config) (*Oracle, error) {
	cfg = cfg.withDefaults()
	if cfg.Bands < 1 || cfg.Bands > 64 || cfg.Rows < 1 || cfg.Rows > 64 {
		return nil, fmt.Errorf("oracle: %d bands of %d rows, want 1 to 64 of each", cfg.Bands, cfg.Rows)
	}
	exact, err := NewBloom(cfg.Items, cfg.FPR)
	if err != nil {
		return nil, fmt.Errorf("oracle: exact filter: %w", err)
	}
	sim, err := NewBloom(cfg.Items*cfg.Bands, cfg.FPR/float64(cfg.Bands))
	if err != nil {
		return nil, fmt.Errorf("oracle: similarity filter: %w", err)
	}
	return &Oracle{bands: cfg.Bands, rows: cfg.Rows, seed: cfg.Seed, exact: exact, sim: sim}, nil
}

// MarkBad flags content and, if embedding is non-empty, its
// near-duplicates.
func (o *Oracle) MarkBad(content string, embedding []float32) {
	key := ContentHash(content)
	bands := o.bandKeys(embedding)
	o.mu.Lock()
	defer o.mu.Unlock()
	o.exact.Add(key[:])
	for _, b := range bands {
		o.sim.Add(b[:])
	}
}

// Check reports whether content, or an entry whose embedding is close to
// embedding, was flagged here or by a merged peer. An empty embedding is
// checked for exact hits only.
func (o *Oracle) Check(content string, embedding []float32) Hit {
	key := ContentHash(content)
	bands := o.bandKeys(embedding)
	o.mu.RLock()
	defer o.mu.RUnlock()
	h := Hit{Exact: o.exact.Has(key[:])}
	for _, b := range bands {
		if o.sim.Has(b[:]) {
			h.Similar = true
			break
		}
	}
	return h
}

// bandKeys returns one key per LSH band: the band's index and its SimHash
// bits. It returns nil for an empty embedding.
func (o *Oracle) bandKeys(embedding []float32) [][9]byte {
	if len(embedding) == 0 {
		return nil
	}
	words := make([]uint64, (o.bands*o.rows+63)/64)
	simhash(o.seed, embedding, words)
	keys := make([][9]byte, o.bands)
	for i := range keys {
		keys[i][0] = byte(i)
		binary.BigEndian.PutUint64(keys[i][1:], bitRange(words, i*o.rows, o.rows))
	}
	return keys
}

// bitRange returns n ≤ 64 bits of words starting at bit off.
func bitRange(words []uint64, off, n int) uint64 {
	var v uint64
	for i := range n {
		b := off + i
		v |= (words[b/64] >> (b % 64) & 1) << i
	}
	return v
}

// ContentHash returns SHA-256 of content after NFKC normalisation, Unicode
// case folding and collapsing runs of white space to one space, trimmed, so
// re-posts differing only in case, spacing or compatibility forms hash
// alike.
func ContentHash(content string) [32]byte {
	s := norm.NFKC.String(content)
	s = cases.Fold().String(s)
	s = norm.NFKC.String(s)
	return sha256.Sum256([]byte(strings.Join(strings.Fields(s), " ")))
}

const (
	exportMagic   = "WORC"
	exportVersion = 1
	exportHeader  = 4 + 2 + 1 + 1 + 8 // magic, version, bands, rows, seed
)

// Export encodes both filters for peers: the magic "WORC", a version, the
// banding and seed, then each filter's MarshalBinary prefixed by its
// length.
func (o *Oracle) Export() ([]byte, error) {
	o.mu.RLock()
	exact, err := o.exact.MarshalBinary()
	if err != nil {
		o.mu.RUnlock()
		return nil, fmt.Errorf("oracle: export: %w", err)
	}
	sim, err := o.sim.MarshalBinary()
	o.mu.RUnlock()
	if err != nil {
		return nil, fmt.Errorf("oracle: export: %w", err)
	}
	out := make([]byte, exportHeader, exportHeader+8+len(exact)+len(sim))
	copy(out, exportMagic)
	binary.BigEndian.PutUint16(out[4:], exportVersion)
	out[6], out[7] = byte(o.bands), byte(o.rows)
	binary.BigEndian.PutUint64(out[8:], o.seed)
	out = binary.BigEndian.AppendUint32(out, uint32(len(exact)))
	out = append(out, exact...)
	out = binary.BigEndian.AppendUint32(out, uint32(len(sim)))
	out = append(out, sim...)
	return out, nil
}

// Merge ORs a peer's Export into the oracle. It fails, leaving the oracle
// unchanged, with an error wrapping ErrMalformed if peer is not a
// well-formed export, ErrMismatch if its banding, seed or filter sizes
// differ from this oracle's, or ErrSaturated if the merge would add bits
// to a filter and leave more than MaxFill of them set: a peer cannot make
// the oracle flag everything, whether with one saturated filter or with
// several each below the bound. Merging a filter twice changes nothing.
func (o *Oracle) Merge(peer []byte) error {
	if len(peer) < exportHeader {
		return fmt.Errorf("oracle: merge: %w: %d bytes, shorter than the header", ErrMalformed, len(peer))
	}
	if !bytes.Equal(peer[:4], []byte(exportMagic)) {
		return fmt.Errorf("oracle: merge: %w: wrong magic %q", ErrMalformed, peer[:4])
	}
	if v := binary.BigEndian.Uint16(peer[4:]); v != exportVersion {
		return fmt.Errorf("oracle: merge: %w: version %d, want %d", ErrMalformed, v, exportVersion)
	}
	if int(peer[6]) != o.bands || int(peer[7]) != o.rows || binary.BigEndian.Uint64(peer[8:]) != o.seed {
		return fmt.Errorf("oracle: merge: %w: banding %dx%d seed %#x, want %dx%d seed %#x",
			ErrMismatch, peer[6], peer[7], binary.BigEndian.Uint64(peer[8:]), o.bands, o.rows, o.seed)
	}
	rest := peer[exportHeader:]
	var exact, sim Bloom
	for _, f := range []*Bloom{&exact, &sim} {
		if len(rest) < 4 {
			return fmt.Errorf("oracle: merge: %w: truncated", ErrMalformed)
		}
		n := binary.BigEndian.Uint32(rest)
		rest = rest[4:]
		if uint64(n) > uint64(len(rest)) {
			return fmt.Errorf("oracle: merge: %w: filter of %d bytes, %d left", ErrMalformed, n, len(rest))
		}
		if err := f.UnmarshalBinary(rest[:n]); err != nil {
			return fmt.Errorf("oracle: merge: %w", err)
		}
		rest = rest[n:]
	}
	if len(rest) != 0 {
		return fmt.Errorf("oracle: merge: %w: %d trailing bytes", ErrMalformed, len(rest))
	}
	return o.merge(&exact, &sim, true)
}

// merge ORs exact and sim into o's filters, or fails with ErrMismatch if
// their sizes differ, or, when bounded, with ErrSaturated if a filter
// would gain bits beyond MaxFill.
func (o *Oracle) merge(exact, sim *Bloom, bounded bool) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if exact.m != o.exact.m || exact.k != o.exact.k || sim.m != o.sim.m || sim.k != o.sim.k {
		return fmt.Errorf("oracle: merge: %w: filter sizes", ErrMismatch)
	}
	if bounded {
		for _, f := range []struct {
			name       string
			own, other *Bloom
		}{{"exact", o.exact, exact}, {"similarity", o.sim, sim}} {
			had, union := f.own.ones(), f.own.unionOnes(f.other)
			if fill := float64(union) / float64(f.own.m); union > had && fill > MaxFill(int(f.own.k)) {
				return fmt.Errorf("oracle: merge: %w: the %s filter would be %.3f full, above %.3f", ErrSaturated, f.name, fill, MaxFill(int(f.own.k)))
			}
		}
	}
	o.exact.Merge(exact) // sizes checked above: cannot fail
	o.sim.Merge(sim)
	return nil
}

// Filters is an oracle's state as persistence keeps it: the banding and
// seed its similarity keys are made with, and its two filters.
type Filters struct {
	Bands, Rows    int
	Seed           uint64
	Exact, Similar BloomState
}

// Filters returns a copy of the oracle's state.
func (o *Oracle) Filters() Filters {
	o.mu.RLock()
	defer o.mu.RUnlock()
	return Filters{Bands: o.bands, Rows: o.rows, Seed: o.seed, Exact: o.exact.State(), Similar: o.sim.State()}
}

// MergeFilters ORs f into the oracle, as Merge does a peer's Export but
// without Merge's bound on the fill: f is the oracle's own saved state. It
// fails, leaving the oracle unchanged, with an error wrapping ErrMalformed
// if a filter of f is inconsistent, or ErrMismatch if f's banding, seed or
// filter sizes differ from the oracle's.
func (o *Oracle) MergeFilters(f Filters) error {
	if f.Bands != o.bands || f.Rows != o.rows || f.Seed != o.seed {
		return fmt.Errorf("oracle: merge: %w: banding %dx%d seed %#x, want %dx%d seed %#x",
			ErrMismatch, f.Bands, f.Rows, f.Seed, o.bands, o.rows, o.seed)
	}
	exact, err := BloomFrom(f.Exact)
	if err != nil {
		return fmt.Errorf("oracle: merge: exact filter: %w", err)
	}
	sim, err := BloomFrom(f.Similar)
	if err != nil {
		return fmt.Errorf("oracle: merge: similarity filter: %w", err)
	}
	return o.merge(exact, sim, false)
}

// EstimatedFPR returns the exact and similarity filters' estimated false
// positive rates per key.
func (o *Oracle) EstimatedFPR() (exact, similar float64) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	return o.exact.EstimatedFPR(), o.sim.EstimatedFPR()
}
