package oracle

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/reason"
)

const testReason reason.Code = "INGEST_REJECTED"

func newImmune(t testing.TB, cfg ImmuneConfig) *Immune {
	t.Helper()
	im, err := NewImmune(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return im
}

func TestImmuneMatchesParaphrase(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	im := newImmune(t, ImmuneConfig{})
	const stored = 50
	bad := make([]Features, stored)
	for i := range bad {
		bad[i] = Features{Source: "clade", Category: "heuristic", Confidence: 0.9, Embedding: randomEmbedding(r, testDim)}
		if _, err := im.Record(bad[i], testReason, knowledge.ContentInjection); err != nil {
			t.Fatal(err)
		}
	}

	hits, trials, minCos := 0, 0, 1.0
	for i, f := range bad {
		for range 20 {
			v := perturb(r, f.Embedding, 0.45)
			c := cosine(f.Embedding, v)
			if c < 0.9 {
				continue
			}
			minCos = min(minCos, c)
			trials++
			m, ok := im.Match(Features{Source: "clade", Category: "heuristic", Confidence: 0.85, Embedding: v})
			if ok && m.Attack == knowledge.ContentInjection && m.Reason == testReason && m.Centroid == mustSig(t, bad[i]).Centroid {
				hits++
			}
		}
	}
	rate := float64(hits) / float64(trials)
	t.Logf("paraphrases (cosine >= 0.9, min %.3f): %d/%d matched their own signature (%.3f)", minCos, hits, trials, rate)
	if trials < 500 || rate < 0.97 {
		t.Errorf("paraphrase match rate %.3f over %d, want at least 0.97 over at least 500", rate, trials)
	}

	fp := 0
	for range 2000 {
		if _, ok := im.Match(Features{Source: "clade", Category: "heuristic", Confidence: 0.9, Embedding: randomEmbedding(r, testDim)}); ok {
			fp++
		}
	}
	t.Logf("unrelated entries matching: %d/2000", fp)
	if fp > 0 {
		t.Errorf("%d of 2000 unrelated entries matched, want none", fp)
	}

	for _, tc := range []struct {
		name string
		f    Features
	}{
		{"other source kind", Features{Source: "purchased", Category: "heuristic", Confidence: 0.9, Embedding: bad[0].Embedding}},
		{"other entry type", Features{Source: "clade", Category: "warning", Confidence: 0.9, Embedding: bad[0].Embedding}},
		{"other confidence bucket", Features{Source: "clade", Category: "heuristic", Confidence: 0.3, Embedding: bad[0].Embedding}},
		{"invalid confidence", Features{Source: "clade", Category: "heuristic", Confidence: 1.5, Embedding: bad[0].Embedding}},
		{"other dimension", Features{Source: "clade", Category: "heuristic", Confidence: 0.9, Embedding: bad[0].Embedding[:100]}},
		{"no embedding", Features{Source: "clade", Category: "heuristic", Confidence: 0.9}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if m, ok := im.Match(tc.f); ok {
				t.Errorf("matched %x, want no match", m.ID)
			}
		})
	}
	if m, ok := im.Match(bad[0]); !ok || m.Distance != 0 || m.ID != mustSig(t, bad[0]).ID {
		t.Errorf("exact resubmission: match %v, distance %d, want its own signature at distance 0", ok, m.Distance)
	}
}

func mustSig(t *testing.T, f Features) Signature {
	t.Helper()
	s, ok := signature(f)
	if !ok {
		t.Fatal("no signature")
	}
	return s
}

func TestImmuneRecordRejects(t *testing.T) {
	im := newImmune(t, ImmuneConfig{})
	f := Features{Source: "clade", Category: "insight", Confidence: 0.5, Embedding: []float32{1, 2}}
	for _, tc := range []struct {
		name   string
		f      Features
		why    reason.Code
		attack knowledge.AttackType
	}{
		{"no embedding", Features{Source: "clade"}, testReason, knowledge.EmbeddingAnomaly},
		{"bad reason", f, "not a code", knowledge.EmbeddingAnomaly},
		{"bad attack", f, testReason, knowledge.AttackType(42)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := im.Record(tc.f, tc.why, tc.attack); err == nil {
				t.Error("Record succeeded, want an error")
			}
		})
	}
	if _, err := im.Record(Features{}, testReason, knowledge.EmbeddingAnomaly); !errors.Is(err, ErrNoEmbedding) {
		t.Errorf("err = %v, want ErrNoEmbedding", err)
	}
	if im.Len() != 0 {
		t.Errorf("Len = %d after refused records, want 0", im.Len())
	}
	for _, cfg := range []ImmuneConfig{{Capacity: -1}, {MaxDistance: 65}, {Capacity: maxImmuneRecords + 1}} {
		if _, err := NewImmune(cfg); err == nil {
			t.Errorf("NewImmune(%+v) succeeded, want an error", cfg)
		}
	}
}

func TestImmuneEvictsOldest(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	im := newImmune(t, ImmuneConfig{Capacity: 3})
	fs := make([]Features, 5)
	for i := range fs {
		fs[i] = Features{Source: "cross_user", Category: "warning", Confidence: 0.4, Embedding: randomEmbedding(r, 64)}
		if _, err := im.Record(fs[i], testReason, knowledge.ConfidenceInflation); err != nil {
			t.Fatal(err)
		}
	}
	if im.Len() != 3 {
		t.Errorf("Len = %d, want 3", im.Len())
	}
	for i, f := range fs {
		_, ok := im.Match(f)
		if want := i >= 2; ok != want {
			t.Errorf("entry %d: matched %v, want %v", i, ok, want)
		}
	}
}

func TestImmuneBinaryRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	im := newImmune(t, ImmuneConfig{Capacity: 4})
	var fs []Features
	for i := range 6 {
		f := Features{Source: "purchased", Category: "strategy_fragment", Confidence: 0.7, Embedding: randomEmbedding(r, 32)}
		fs = append(fs, f)
		if _, err := im.Record(f, testReason, knowledge.AttackType(1+i%5)); err != nil {
			t.Fatal(err)
		}
	}
	data, err := im.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}

	got := newImmune(t, ImmuneConfig{Capacity: 4})
	if err := got.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	again, _ := got.MarshalBinary()
	if !bytes.Equal(data, again) {
		t.Error("round trip changed the encoding")
	}
	for i, f := range fs {
		want, _ := im.Match(f)
		m, ok := got.Match(f)
		if ok != (i >= 2) || m != want {
			t.Errorf("entry %d after round trip: %+v %v, want %+v", i, m, ok, want)
		}
	}

	small := newImmune(t, ImmuneConfig{Capacity: 2})
	if err := small.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if _, ok := small.Match(fs[3]); ok || small.Len() != 2 {
		t.Errorf("smaller memory kept %d signatures and entry 3 (%v), want the newest 2", small.Len(), ok)
	}
	if _, ok := small.Match(fs[5]); !ok {
		t.Error("smaller memory lost the newest signature")
	}
}

func TestImmuneUnmarshalRejects(t *testing.T) {
	im := newImmune(t, ImmuneConfig{})
	if _, err := im.Record(Features{Source: "clade", Embedding: []float32{1, -1}}, testReason, knowledge.ProvenanceForgery); err != nil {
		t.Fatal(err)
	}
	good, _ := im.MarshalBinary()
	edit := func(f func([]byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"wrong magic", edit(func(d []byte) []byte { d[0] = 'X'; return d })},
		{"version", edit(func(d []byte) []byte { d[5] = 7; return d })},
		{"count past end", edit(func(d []byte) []byte { d[9] = 2; return d })},
		{"huge count", edit(func(d []byte) []byte { d[6] = 0xff; return d })},
		{"truncated reason", good[:len(good)-1]},
		{"trailing", append(append([]byte(nil), good...), 0)},
		{"attack", edit(func(d []byte) []byte { d[immuneHeader+84] = 99; return d })},
		{"reason", edit(func(d []byte) []byte { d[immuneHeader+immuneFixed] = 'a'; return d })},
		{"zero dimension", edit(func(d []byte) []byte { copy(d[immuneHeader+80:], []byte{0, 0, 0, 0}); return d })},
	} {
		t.Run(tc.name, func(t *testing.T) {
			target := newImmune(t, ImmuneConfig{})
			if err := target.UnmarshalBinary(good); err != nil {
				t.Fatal(err)
			}
			if err := target.UnmarshalBinary(tc.data); !errors.Is(err, ErrMalformed) {
				t.Fatalf("err = %v, want ErrMalformed", err)
			}
			if after, _ := target.MarshalBinary(); !bytes.Equal(after, good) {
				t.Error("rejected input changed the memory")
			}
		})
	}
}

func TestImmuneConcurrent(t *testing.T) {
	im := newImmune(t, ImmuneConfig{Capacity: 100})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(g), 1))
			for range 100 {
				f := Features{Source: "clade", Category: "insight", Confidence: 0.6, Embedding: randomEmbedding(r, 32)}
				if _, err := im.Record(f, testReason, knowledge.EmbeddingAnomaly); err != nil {
					t.Error(err)
					return
				}
				im.Match(f)
				if _, err := im.MarshalBinary(); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if im.Len() != 100 {
		t.Errorf("Len = %d, want capacity 100", im.Len())
	}
}

func FuzzImmuneUnmarshal(f *testing.F) {
	im, _ := NewImmune(ImmuneConfig{})
	im.Record(Features{Source: "clade", Embedding: []float32{1}}, testReason, knowledge.ContentInjection)
	good, _ := im.MarshalBinary()
	f.Add(good)
	f.Fuzz(func(t *testing.T, data []byte) {
		im, _ := NewImmune(ImmuneConfig{})
		if err := im.UnmarshalBinary(data); err != nil {
			return
		}
		if again, _ := im.MarshalBinary(); !bytes.Equal(again, data) {
			t.Fatal("accepted input does not re-encode to itself")
		}
	})
}

func BenchmarkImmuneMatch(b *testing.B) {
	r := rand.New(rand.NewPCG(17, 18))
	im := newImmune(b, ImmuneConfig{})
	for range DefaultImmuneCapacity {
		f := Features{Source: "clade", Category: "heuristic", Confidence: 0.9, Embedding: randomEmbedding(r, 384)}
		if _, err := im.Record(f, testReason, knowledge.ContentInjection); err != nil {
			b.Fatal(err)
		}
	}
	q := Features{Source: "clade", Category: "heuristic", Confidence: 0.9, Embedding: randomEmbedding(r, 384)}
	for b.Loop() {
		im.Match(q)
	}
}
