package oracle

import "math"

// simhash writes into out the SimHash of emb over 64·len(out) hyperplanes:
// bit b of word w is set when the embedding's projection on hyperplane
// 64w+b is non-negative. Hyperplanes have random ±1 coordinates (a
// Rademacher SimHash, which preserves angles like Gaussian hyperplanes for
// the dimensions embedders use) derived from seed by a counter-based mixer,
// so every peer with the same seed computes the same hash for any dimension
// without storing the planes. Non-finite coordinates count as zero. The
// projection is one-way: the bits do not reveal the embedding.
func simhash(seed uint64, emb []float32, out []uint64) {
	for w := range out {
		// Each coordinate's 64 signs are 16 nibbles; summing coordinates
		// into a bucket per nibble value costs 16 additions per coordinate
		// instead of 64, and the projections are read off the buckets.
		var buckets [16][16]float32
		var total float32
		base := mix(seed ^ uint64(w+1)*0x9e3779b97f4a7c15)
		for j, v := range emb {
			if v == 0 || math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				continue // a zero adds nothing: sparse embeddings cost their non-zeros
			}
			total += v
			signs := mix(base + uint64(j))
			for p := range 16 {
				buckets[p][signs>>(4*p)&15] += v
			}
		}
		var word uint64
		for p := range 16 {
			for q := range 4 {
				var plus float32
				for val := range 16 {
					if val>>q&1 != 0 {
						plus += buckets[p][val]
					}
				}
				if 2*plus-total >= 0 {
					word |= 1 << (4*p + q)
				}
			}
		}
		out[w] = word
	}
}

// mix is the SplitMix64 finaliser: a bijection whose outputs for
// consecutive inputs are statistically independent.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
