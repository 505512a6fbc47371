package oracle

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/wardhq/ward/internal/knowledge"
)

// An oracle's Filters merged into a fresh oracle flag what it flagged;
// filters of another banding or size, or inconsistent ones, are refused
// and change nothing.
func TestFiltersMerge(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	src := newOracle(t, Config{Items: 200})
	e := randomEmbedding(r, testDim)
	src.MarkBad("drain the vault", e)
	f := src.Filters()

	dst := newOracle(t, Config{Items: 200})
	if err := dst.MergeFilters(f); err != nil {
		t.Fatal(err)
	}
	if h := dst.Check("drain the vault", nil); !h.Exact {
		t.Error("the merged oracle misses the flagged content")
	}
	if h := dst.Check("something else", perturb(r, e, 0.1)); !h.Similar {
		t.Error("the merged oracle misses a near-duplicate")
	}
	if got := dst.Filters(); !reflect.DeepEqual(got, f) {
		t.Error("a fresh oracle merged with f does not hold exactly f")
	}

	short := src.Filters()
	short.Exact.Words = short.Exact.Words[8:]
	banding := src.Filters()
	banding.Bands = 16
	size := newOracle(t, Config{Items: 50}).Filters()
	for _, tc := range []struct {
		name string
		f    Filters
		want error
	}{
		{"short bit array", short, ErrMalformed},
		{"other banding", banding, ErrMismatch},
		{"other size", size, ErrMismatch},
	} {
		clean := newOracle(t, Config{Items: 200})
		before := clean.Filters()
		if err := clean.MergeFilters(tc.f); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
		if !reflect.DeepEqual(clean.Filters(), before) {
			t.Errorf("%s: a refused merge changed the oracle", tc.name)
		}
	}
}

func TestBloomFromRejects(t *testing.T) {
	good := func() BloomState { return BloomState{Hashes: 3, Bits: 128, Items: 2, Words: make([]byte, 16)} }
	if _, err := BloomFrom(good()); err != nil {
		t.Fatalf("a consistent state: %v", err)
	}
	for _, tc := range []struct {
		name string
		mut  func(s *BloomState)
	}{
		{"no hashes", func(s *BloomState) { s.Hashes = 0 }},
		{"too many hashes", func(s *BloomState) { s.Hashes = maxHashes + 1 }},
		{"no bits", func(s *BloomState) { s.Bits, s.Words = 0, nil }},
		{"bits not a multiple of 64", func(s *BloomState) { s.Bits = 100 }},
		{"too many bits", func(s *BloomState) { s.Bits = 8*MaxFilterBytes + 64 }},
		{"words shorter than the bits", func(s *BloomState) { s.Words = s.Words[:8] }},
	} {
		s := good()
		tc.mut(&s)
		if _, err := BloomFrom(s); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: %v, want ErrMalformed", tc.name, err)
		}
	}
}

// Signatures and Restore carry immune memory through a store: oldest
// first, the newest Capacity kept, and an invalid signature refused
// without change.
func TestImmuneSignaturesRestore(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	im := newImmune(t, ImmuneConfig{Capacity: 3})
	var fs []Features
	for i := range 4 {
		f := Features{Source: "purchased", Category: "insight", Confidence: 0.5, Embedding: randomEmbedding(r, 32)}
		fs = append(fs, f)
		if _, err := im.Record(f, testReason, knowledge.AttackType(1+i%5)); err != nil {
			t.Fatal(err)
		}
	}
	sigs := im.Signatures()
	if len(sigs) != 3 {
		t.Fatalf("%d signatures, want 3", len(sigs))
	}
	if m, _ := im.Match(fs[1]); m.ID != sigs[0].ID {
		t.Error("the first signature is not the oldest kept")
	}
	got := newImmune(t, ImmuneConfig{Capacity: 2})
	if err := got.Restore(sigs); err != nil {
		t.Fatal(err)
	}
	if want := sigs[1:]; !reflect.DeepEqual(got.Signatures(), want) {
		t.Errorf("a memory of capacity 2 restored %d signatures, want the newest 2", got.Len())
	}
	bad := append(im.Signatures(), Signature{Reason: testReason})
	if err := got.Restore(bad); err == nil {
		t.Error("a signature without a dimension was restored")
	}
	if got.Len() != 2 {
		t.Errorf("a refused restore left %d signatures, want the 2 before", got.Len())
	}
}
