package oracle

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/reason"
)

// fillWords returns an Export of an oracle like o's whose filters have
// every bit set in the words [from·n, to·n) of each filter of n words.
func fillWords(t *testing.T, from, to float64) []byte {
	t.Helper()
	peer := newOracle(t, Config{})
	for _, b := range []*Bloom{peer.exact, peer.sim} {
		n := float64(len(b.bits))
		for i := int(from * n); i < int(to*n); i++ {
			b.bits[i] = math.MaxUint64
		}
	}
	data, err := peer.Export()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestMaxFill(t *testing.T) {
	for _, k := range []int{1, 7, 12, 32} {
		// At MaxFill the per-key false positive rate is twice (1/2)^k.
		if got, want := math.Pow(MaxFill(k), float64(k)), 2*math.Pow(0.5, float64(k)); math.Abs(got-want) > 1e-12 {
			t.Errorf("k=%d: MaxFill^k = %v, want %v", k, got, want)
		}
	}
	// A filter NewBloom sized, holding the items it was sized for, stays
	// under the bound: honest peers' filters merge.
	for _, c := range []struct {
		n int
		p float64
	}{{DefaultItems, DefaultFPR}, {DefaultItems * DefaultBands, DefaultFPR / DefaultBands}, {100, 0.001}} {
		b, err := NewBloom(c.n, c.p)
		if err != nil {
			t.Fatal(err)
		}
		fill := 1 - math.Exp(-float64(b.k)*float64(c.n)/float64(b.m))
		if fill > MaxFill(int(b.k)) {
			t.Errorf("%d items at %v: expected fill %v above MaxFill %v", c.n, c.p, fill, MaxFill(int(b.k)))
		}
	}
}

func TestOracleMergeSaturated(t *testing.T) {
	probe := randomEmbedding(rand.New(rand.NewPCG(21, 22)), 64)
	cases := []struct {
		name  string
		first []float64 // a range merged first, accepted; nil: none
		bad   []float64
	}{
		{"every bit set", nil, []float64{0, 1}},
		{"most bits set", nil, []float64{0, 0.6}},
		{"two filters, each under the bound", []float64{0, 0.4}, []float64{0.5, 0.9}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := newOracle(t, Config{})
			o.MarkBad("known poison", nil)
			if c.first != nil {
				if err := o.Merge(fillWords(t, c.first[0], c.first[1])); err != nil {
					t.Fatalf("a filter %.0f%% full: %v", 100*(c.first[1]-c.first[0]), err)
				}
			}
			before, _ := o.Export()
			if err := o.Merge(fillWords(t, c.bad[0], c.bad[1])); !errors.Is(err, ErrSaturated) {
				t.Fatalf("got %v, want ErrSaturated", err)
			}
			if after, _ := o.Export(); !bytes.Equal(before, after) {
				t.Error("a refused merge changed the oracle")
			}
			if c.first == nil && o.Check("an unrelated entry", probe).Any() {
				t.Error("an unrelated entry is flagged after a refused merge")
			}
			if !o.Check("known poison", nil).Exact {
				t.Error("the oracle forgot what it flagged")
			}
		})
	}
}

func TestOracleMergeOverfullAddsNothing(t *testing.T) {
	// An oracle its own rejections filled past MaxFill still takes a peer
	// filter that adds no bit, such as its own export sent back.
	o := newOracle(t, Config{Items: 10})
	for i := 0; o.exact.Fill() <= MaxFill(int(o.exact.k)); i++ {
		o.MarkBad(string(rune('a'+i)), nil)
	}
	if o.exact.Fill() == 1 {
		t.Fatal("every bit set: no peer bit can be new")
	}
	own, _ := o.Export()
	if err := o.Merge(own); err != nil {
		t.Errorf("merging its own export: %v", err)
	}
	peer := newOracle(t, Config{Items: 10})
	for i, w := range o.exact.bits {
		if w != math.MaxUint64 {
			peer.exact.bits[i] = ^w & -^w // the lowest bit o lacks
			break
		}
	}
	data, _ := peer.Export()
	if err := o.Merge(data); !errors.Is(err, ErrSaturated) {
		t.Errorf("a new bit into an overfull filter: got %v, want ErrSaturated", err)
	}
}

func TestImmuneAdd(t *testing.T) {
	im := newImmune(t, ImmuneConfig{})
	sig := mustSig(t, Features{Source: "clade", Category: "insight", Confidence: 0.5, Embedding: randomEmbedding(rand.New(rand.NewPCG(23, 24)), 32)})
	sig.Reason, sig.Attack = reason.KnowledgeConsensusFailed, knowledge.CausalGraphPoisoning
	if added, err := im.Add(sig); err != nil || !added {
		t.Fatalf("add: %v, %v", added, err)
	}
	if added, err := im.Add(sig); err != nil || added || im.Len() != 1 {
		t.Errorf("the same signature again: added %v, %v, %d stored; want stored once", added, err, im.Len())
	}
	bad := sig
	bad.Dim = 0
	if _, err := im.Add(bad); err == nil || im.Len() != 1 {
		t.Errorf("a signature without a dimension: %v, %d stored", err, im.Len())
	}
}
