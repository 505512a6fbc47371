package embed

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"
)

func randomVec(r *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	Normalize(v)
	return v
}

// dataset returns n unit vectors: Gaussian if clusters is 0, otherwise
// spread around that many random centres.
func dataset(seed uint64, n, dim, clusters int) [][]float32 {
	r := rand.New(rand.NewPCG(seed, 1))
	var centres [][]float32
	for range clusters {
		centres = append(centres, randomVec(r, dim))
	}
	out := make([][]float32, n)
	for i := range out {
		v := randomVec(r, dim)
		if clusters > 0 {
			c := centres[r.IntN(clusters)]
			for j := range v {
				v[j] = c[j] + 0.6*v[j]
			}
			Normalize(v)
		}
		out[i] = v
	}
	return out
}

func bruteForce(data [][]float32, q []float32, k int) []Hit {
	hits := make([]Hit, len(data))
	for i, v := range data {
		hits[i] = Hit{fmt.Sprint(i), Cosine(q, v)}
	}
	sort.Slice(hits, func(a, b int) bool { return hits[a].Score > hits[b].Score })
	return hits[:k]
}

func build(t testing.TB, data [][]float32) *Index {
	t.Helper()
	x := NewIndex(len(data[0]))
	for i, v := range data {
		if err := x.Add(fmt.Sprint(i), v); err != nil {
			t.Fatal(err)
		}
	}
	return x
}

func TestIndexRecall(t *testing.T) {
	const n, dim, k, queries = 20000, 256, 10, 40
	for _, tc := range []struct {
		name     string
		clusters int
	}{{"random", 0}, {"clustered", 50}} {
		t.Run(tc.name, func(t *testing.T) {
			data := dataset(7, n, dim, tc.clusters)
			x := build(t, data)
			qs := dataset(8, queries, dim, 0)
			if tc.clusters > 0 {
				// Queries near the data: perturbed entries.
				r := rand.New(rand.NewPCG(9, 9))
				for i := range qs {
					base := data[r.IntN(n)]
					for j := range qs[i] {
						qs[i][j] = base[j] + 0.5*qs[i][j]
					}
				}
			}
			found := 0
			for _, q := range qs {
				want := bruteForce(data, q, k)
				got := x.Search(q, k)
				if len(got) != k {
					t.Fatalf("Search returned %d hits, want %d", len(got), k)
				}
				ids := map[string]bool{}
				for _, h := range got {
					ids[h.ID] = true
				}
				for _, h := range want {
					if ids[h.ID] {
						found++
					}
				}
				for i := 1; i < len(got); i++ {
					if got[i].Score > got[i-1].Score {
						t.Fatalf("hits not sorted: %v", got)
					}
				}
			}
			if recall := float64(found) / (queries * k); recall < 0.95 {
				t.Errorf("recall@%d = %.3f, want >= 0.95", k, recall)
			} else {
				t.Logf("recall@%d = %.3f", k, recall)
			}
		})
	}
}

func TestIndexOperations(t *testing.T) {
	x := NewIndex(3)
	add := func(id string, v ...float32) {
		t.Helper()
		if err := x.Add(id, v); err != nil {
			t.Fatalf("Add(%q): %v", id, err)
		}
	}
	if got := x.Search([]float32{1, 0, 0}, 3); got != nil {
		t.Errorf("Search on empty index = %v, want nil", got)
	}
	add("x", 2, 0, 0)
	add("y", 0, 1, 0)
	add("xy", 1, 1, 0)
	add("z", 0, 0, -5)

	got := x.Search([]float32{1, 0, 0}, 2)
	want := []Hit{{"x", 1}, {"xy", float32(1 / math.Sqrt2)}}
	if !equalHits(got, want) {
		t.Errorf("Search = %v, want %v", got, want)
	}
	if got := x.Search([]float32{1, 0, 0}, 10); len(got) != 4 || got[3].ID != "z" {
		t.Errorf("Search k > Len = %v, want all 4 with z last", got)
	}

	add("x", 0, 0, 1) // replace
	if got := x.Search([]float32{0, 0, 1}, 1); got[0].ID != "x" || x.Len() != 4 {
		t.Errorf("after replace: Search = %v, Len = %d", got, x.Len())
	}
	if !x.Remove("x") || x.Remove("x") {
		t.Error("Remove: want true then false")
	}
	if got := x.Search([]float32{0, 0, 1}, 1); got[0].ID == "x" || x.Len() != 3 {
		t.Errorf("after remove: Search = %v, Len = %d", got, x.Len())
	}
	// Removing the last entry and a middle one keeps the rest findable.
	x.Remove("z")
	x.Remove("y")
	if got := x.Search([]float32{1, 1, 0}, 5); len(got) != 1 || got[0].ID != "xy" {
		t.Errorf("after removals: Search = %v, want [xy]", got)
	}

	bad := []struct {
		name string
		v    []float32
		want error
	}{
		{"short", []float32{1, 2}, ErrDimension},
		{"nan", []float32{1, float32(math.NaN()), 0}, ErrNotFinite},
		{"inf", []float32{float32(math.Inf(1)), 0, 0}, ErrNotFinite},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			if err := x.Add("bad", tc.v); !errors.Is(err, tc.want) {
				t.Errorf("Add = %v, want %v", err, tc.want)
			}
			if got := x.Search(tc.v, 1); got != nil {
				t.Errorf("Search = %v, want nil", got)
			}
		})
	}
	if got := x.Search([]float32{1, 0, 0}, 0); got != nil {
		t.Errorf("Search k=0 = %v, want nil", got)
	}
}

// TestIndexDegenerateSketch checks that vectors the sign sketch cannot tell
// apart (all components positive) are still ranked exactly.
func TestIndexDegenerateSketch(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	data := make([][]float32, 3000)
	for i := range data {
		v := make([]float32, 64)
		for j := range v {
			v[j] = r.Float32() + 0.01
		}
		data[i] = v
	}
	x := build(t, data)
	q := data[17]
	want := bruteForce(data, q, 10)
	if got := x.Search(q, 10); !equalHits(got, want) {
		t.Errorf("Search = %v\nwant %v", got, want)
	}
}

func TestIndexTies(t *testing.T) {
	x := NewIndex(2)
	for _, id := range []string{"d", "b", "a", "c"} {
		if err := x.Add(id, []float32{1, 0}); err != nil {
			t.Fatal(err)
		}
	}
	got := x.Search([]float32{1, 0}, 2)
	if want := []Hit{{"a", 1}, {"b", 1}}; !equalHits(got, want) {
		t.Errorf("Search = %v, want %v", got, want)
	}
}

func equalHits(a, b []Hit) bool {
	return slices.EqualFunc(a, b, func(x, y Hit) bool {
		return x.ID == y.ID && math.Abs(float64(x.Score-y.Score)) < 1e-5
	})
}

func TestIndexConcurrent(t *testing.T) {
	const dim = 32
	x := NewIndex(dim)
	data := dataset(5, 400, dim, 0)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i, v := range data {
				id := fmt.Sprintf("%d-%d", g, i)
				switch g {
				case 0, 1:
					if err := x.Add(id, v); err != nil {
						t.Error(err)
						return
					}
					if i%3 == 0 {
						x.Remove(id)
					}
				default:
					for _, h := range x.Search(v, 5) {
						if h.Score < -1.001 || h.Score > 1.001 {
							t.Errorf("score %v out of range", h.Score)
						}
					}
				}
			}
		})
	}
	wg.Wait()
	if got, want := x.Len(), 2*(400-134); got != want {
		t.Errorf("Len = %d, want %d", got, want)
	}
}

func BenchmarkSearch100k(b *testing.B) {
	const n, dim = 100000, 256
	data := dataset(11, n, dim, 200)
	x := build(b, data)
	qs := dataset(12, 256, dim, 0)
	var lat []time.Duration
	i := 0
	for b.Loop() {
		start := time.Now()
		if len(x.Search(qs[i%len(qs)], 10)) != 10 {
			b.Fatal("short result")
		}
		lat = append(lat, time.Since(start))
		i++
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}
