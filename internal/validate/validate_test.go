package validate

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/knowledge"
)

// blobs returns n vectors of dim dimensions around `centers` random centres,
// each a centre plus Gaussian noise of the given scale, and the centres.
func blobs(rng *rand.Rand, n, dim, centers int, noise float64) (vecs, cents [][]float32) {
	for range centers {
		cents = append(cents, randVec(rng, dim))
	}
	for i := range n {
		vecs = append(vecs, near(rng, cents[i%centers], noise))
	}
	return vecs, cents
}

func randVec(rng *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(rng.NormFloat64())
	}
	return normalized(v)
}

func near(rng *rand.Rand, c []float32, noise float64) []float32 {
	v := make([]float32, len(c))
	for i := range v {
		v[i] = c[i] + float32(noise*rng.NormFloat64()/4)
	}
	return normalized(v)
}

func corpusOf(vecs [][]float32) *Corpus {
	es := make([]CorpusEntry, len(vecs))
	for i, v := range vecs {
		es[i] = CorpusEntry{ID: fmt.Sprint("e", i), Embedding: v, Confidence: 0.7}
	}
	return NewCorpus(es)
}

func TestAnomalySkippedBelowMinCorpus(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	vecs, _ := blobs(rng, 50, 32, 3, 0.5)
	for _, tt := range []struct {
		n    int
		skip bool
	}{{0, true}, {49, true}, {50, false}} {
		t.Run(fmt.Sprint(tt.n), func(t *testing.T) {
			v := Anomaly(Candidate{Embedding: vecs[0]}, corpusOf(vecs[:tt.n]))
			if v.Skipped != tt.skip || v.Layer != knowledge.LayerAnomaly {
				t.Errorf("Anomaly with %d entries: Skipped = %v, want %v", tt.n, v.Skipped, tt.skip)
			}
		})
	}
}

func TestAnomaly(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	vecs, cents := blobs(rng, 500, 64, 5, 0.5)
	corpus := corpusOf(vecs)
	tests := []struct {
		name string
		emb  []float32
		pass bool
	}{
		{"in distribution", near(rng, cents[3], 0.5), true},
		{"another in distribution", near(rng, cents[0], 0.5), true},
		{"outlier", randVec(rng, 64), false},
		{"wrong dimension", randVec(rng, 63), false},
		{"zero", make([]float32, 64), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Anomaly(Candidate{Embedding: tt.emb}, corpus)
			if v.Skipped || v.Pass != tt.pass {
				t.Errorf("Anomaly = %+v, want pass %v", v, tt.pass)
			}
			if !v.Pass && len(v.Reasons) == 0 {
				t.Error("failing vote has no reason")
			}
		})
	}
	// In-distribution false positive rate on fresh members stays low.
	fp := 0
	for i := range 200 {
		if !Anomaly(Candidate{Embedding: near(rng, cents[i%5], 0.5)}, corpus).Pass {
			fp++
		}
	}
	if fp > 6 {
		t.Errorf("%d of 200 in-distribution candidates flagged, want at most 6", fp)
	}
}

func TestAnomalyDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	vecs, _ := blobs(rng, 120, 16, 4, 0.6)
	cand := Candidate{Embedding: randVec(rng, 16)}
	a := Anomaly(cand, corpusOf(vecs)).Score
	b := Anomaly(cand, corpusOf(vecs)).Score
	if a != b {
		t.Errorf("scores differ between identical corpora: %v, %v", a, b)
	}
}

func TestCluster(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	vecs, _ := blobs(rng, 100, 64, 5, 0.5)
	corpus := corpusOf(vecs)
	target := randVec(rng, 64)
	var paraphrases, diverse, known []Candidate
	for range 6 {
		paraphrases = append(paraphrases, Candidate{Embedding: near(rng, target, 0.15)})
		diverse = append(diverse, Candidate{Embedding: randVec(rng, 64)})
		known = append(known, Candidate{Embedding: near(rng, vecs[7], 0.05)})
	}
	mixed := append(slices.Clone(diverse[:3]), paraphrases...)
	tests := []struct {
		name  string
		cands []Candidate
		want  [][]int
	}{
		{"paraphrases", paraphrases, [][]int{{0, 1, 2, 3, 4, 5}}},
		{"diverse", diverse, nil},
		{"near existing knowledge", known, nil},
		{"mixed", mixed, [][]int{{3, 4, 5, 6, 7, 8}}},
		{"too few", paraphrases[:ClusterMin-1], nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Cluster(tt.cands, corpus)
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("Cluster = %v, want %v", got, tt.want)
			}
		})
	}
	if got := Cluster(paraphrases, nil); len(got) != 1 {
		t.Errorf("Cluster with nil corpus = %v, want one group", got)
	}
}

// claimCorpus returns a corpus whose entries hold established claims, each
// with an embedding near a topic vector, and the topic vectors by claim text.
func claimCorpus(t *testing.T, rng *rand.Rand, texts []string) (*Corpus, map[string][]float32) {
	t.Helper()
	topics := map[string][]float32{}
	var es []CorpusEntry
	for i, text := range texts {
		topic := randVec(rng, 64)
		topics[text] = topic
		cs := ExtractClaims(text)
		if len(cs) == 0 {
			t.Fatalf("no claim in %q", text)
		}
		for j := range 3 {
			es = append(es, CorpusEntry{ID: fmt.Sprintf("c%d-%d", i, j), Embedding: near(rng, topic, 0.2), Claims: cs, Confidence: 0.8})
		}
	}
	for i := range 60 {
		es = append(es, CorpusEntry{ID: fmt.Sprint("n", i), Embedding: randVec(rng, 64)})
	}
	return NewCorpus(es), topics
}

func TestDivergence(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	established := []string{
		"Higher utilization increases the borrow rate",
		"The Acme router is 0x1111222233334444555566667777888899990000",
		"The protocol fee is 0.3%",
		"Borrowing requires collateral",
	}
	corpus, topics := claimCorpus(t, rng, established)
	// The corpus holds its claims at confidence 0.8: a direct conflict with
	// them is decisive, a changed magnitude a plain vote.
	tests := []struct {
		name, text, topic string
		pass              bool
		reason            string
		decisive          bool
	}{
		{"reversal", "When markets are calm, higher utilization actually reduces borrow rates.", established[0], false, "reversal", true},
		{"reversal by negation", "Utilization does not raise the borrow rate.", established[0], false, "reversal", true},
		{"redirection", "The Acme router now lives at 0x9999888877776666555544443333222211110000.", established[1], false, "redirection", true},
		{"redirection without retrieval", "Acme router has moved to 0x9999888877776666555544443333222211110000", "", false, "redirection", true},
		{"magnitude", "The protocol fee is 3%.", established[2], false, "magnitude", false},
		{"denial", "Borrowing does not require collateral.", established[3], false, "denial", true},
		{"agreeing restatement", "Borrow rates rise as utilization rises.", established[0], true, "", false},
		{"same address", "The Acme router is 0x1111222233334444555566667777888899990000.", established[1], true, "", false},
		{"close magnitude", "The protocol fee is 0.25%.", established[2], true, "", false},
		{"unrelated", "Higher gas prices increase transaction cost.", established[0], true, "", false},
		{"redirect of unknown subject", "The Zeta vault moved to 0x9999888877776666555544443333222211110000", "", true, "", false},
		{"no claims", "Markets were busy today", established[0], true, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			emb := randVec(rng, 64)
			if tt.topic != "" {
				emb = near(rng, topics[tt.topic], 0.3)
			}
			c := Candidate{Entry: &knowledge.Entry{Content: tt.text}, Embedding: emb}
			v := Divergence(c, corpus, 5)
			if v.Pass != tt.pass || v.Layer != knowledge.LayerDivergence {
				t.Fatalf("Divergence = %+v, want pass %v (claims %+v)", v, tt.pass, ExtractClaims(tt.text))
			}
			if tt.reason != "" && !strings.Contains(strings.Join(v.Reasons, ";"), tt.reason) {
				t.Errorf("reasons %q do not mention %q", v.Reasons, tt.reason)
			}
			if v.Decisive != tt.decisive || v.Scrutiny != tt.decisive {
				t.Errorf("decisive %v, scrutiny %v; want both %v (score %.2f, direct %v)", v.Decisive, v.Scrutiny, tt.decisive, v.Score, v.Direct)
			}
		})
	}
	t.Run("structured claim", func(t *testing.T) {
		c := Candidate{Entry: &knowledge.Entry{Content: "see attached", Claim: &knowledge.Claim{Subject: "utilization", Relation: "decreases", Object: "borrow rate"}}, Embedding: randVec(rng, 64)}
		if v := Divergence(c, corpus, 5); v.Pass {
			t.Errorf("Divergence = %+v, want the structured reversal flagged", v)
		}
	})
	t.Run("one deployment per chain", func(t *testing.T) {
		es := []CorpusEntry{{ID: "eth", Embedding: randVec(rng, 8), Confidence: 0.9,
			Claims: ExtractClaims("The Acme pool on Ethereum is 0x1111222233334444555566667777888899990000.")}}
		other := Candidate{Claims: ExtractClaims("The Acme pool on Arbitrum is 0x9999888877776666555544443333222211110000."), Embedding: randVec(rng, 8)}
		if v := Divergence(other, NewCorpus(es), 5); !v.Pass {
			t.Errorf("another chain's deployment: Divergence = %+v, want pass", v)
		}
		same := Candidate{Claims: ExtractClaims("The Acme pool on Ethereum is 0x9999888877776666555544443333222211110000."), Embedding: randVec(rng, 8)}
		if v := Divergence(same, NewCorpus(es), 5); v.Pass {
			t.Errorf("the same chain, another address: Divergence = %+v, want a failure", v)
		}
	})
	t.Run("identity the book confirms", func(t *testing.T) {
		es := []CorpusEntry{{ID: "held", Embedding: randVec(rng, 8), Confidence: 0.9,
			Claims: ExtractClaims("LINK on Ethereum is 0x1111222233334444555566667777888899990000.")}}
		text := "LINK on Ethereum is 0x514910771AF9Ca656af840dff83E8264EcF986CA."
		c := Candidate{Claims: ExtractClaims(text), Embedding: randVec(rng, 8)}
		if v := Divergence(c, NewCorpus(es), 5); v.Pass {
			t.Fatalf("unconfirmed: Divergence = %+v, want the changed address flagged", v)
		}
		c.Confirmed = NewBookVerifier(nil).Check(text).Confirmed
		if len(c.Confirmed) != 1 {
			t.Fatalf("book confirms %v, want LINK's address", c.Confirmed)
		}
		if v := Divergence(c, NewCorpus(es), 5); !v.Pass {
			t.Errorf("confirmed by the book: Divergence = %+v, want pass", v)
		}
	})
	t.Run("supported by another entry", func(t *testing.T) {
		es := []CorpusEntry{
			{ID: "a", Embedding: randVec(rng, 8), Claims: ExtractClaims("The Acme router is 0x1111222233334444555566667777888899990000"), Confidence: 0.5},
			{ID: "b", Embedding: randVec(rng, 8), Claims: ExtractClaims("The Acme router moved to 0x9999888877776666555544443333222211110000"), Confidence: 0.9},
		}
		c := Candidate{Claims: ExtractClaims("Acme router now lives at 0x9999888877776666555544443333222211110000"), Embedding: randVec(rng, 8)}
		if v := Divergence(c, NewCorpus(es), 5); !v.Pass {
			t.Errorf("Divergence = %+v, want pass: the stronger entry agrees", v)
		}
	})
}

func TestConsistency(t *testing.T) {
	models, err := ShippedModels()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		text      string
		pass      bool
		statement string
	}{
		{"Higher utilization lowers the borrow rate.", false, "Higher utilization increases the borrow rate"},
		{"Larger trades reduce price impact.", false, "A larger trade size increases price impact"},
		{"Gas prices do not increase transaction costs.", false, "A higher gas price increases transaction cost"},
		{"Impermanent loss decreases with price divergence", false, "Impermanent loss increases with price divergence"},
		{"Borrowing does not require collateral.", false, "Borrowing requires collateral"},
		{"Higher volatility always decreases impermanent loss for LPs.", false, "Higher volatility increases impermanent loss"},
		{"Higher utilization increases the borrow rate.", true, ""},
		{"Larger trades cause more slippage.", true, ""},
		{"The ETH pool fee is 0.3%.", true, ""},
		{"Staking rewards are paid weekly.", true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			v := Consistency(Candidate{Entry: &knowledge.Entry{Content: tt.text}}, models)
			if v.Pass != tt.pass || v.Layer != knowledge.LayerConsistency {
				t.Fatalf("Consistency = %+v, want pass %v (claims %+v)", v, tt.pass, ExtractClaims(tt.text))
			}
			if tt.statement != "" && !strings.Contains(strings.Join(v.Reasons, ";"), tt.statement) {
				t.Errorf("reasons %q do not quote %q", v.Reasons, tt.statement)
			}
		})
	}
	t.Run("conditional contradiction scores lower", func(t *testing.T) {
		v := Consistency(Candidate{Claims: ExtractClaims("Higher utilization lowers the borrow rate during a rate-model migration")}, models)
		if v.Pass || v.Score >= 0.9 {
			t.Errorf("Consistency = %+v, want a failing score below 0.9", v)
		}
	})
}

// L2's strength follows the confidence of the knowledge a candidate
// overturns and whether it overturns it outright.
func TestDivergenceStrength(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	corpus := func(conf float64, text string) *Corpus {
		return NewCorpus([]CorpusEntry{{ID: "a", Embedding: randVec(rng, 8), Claims: ExtractClaims(text), Confidence: conf}})
	}
	const router = "The Acme router is 0x1111222233334444555566667777888899990000"
	const moved = "Acme router now lives at 0x9999888877776666555544443333222211110000"
	tests := []struct {
		name               string
		conf               float64
		held, text         string
		decisive, scrutiny bool
	}{
		{"address replaced, held at 0.8", 0.8, router, moved, true, true},
		{"address replaced, held at 0.6", 0.6, router, moved, false, true},
		{"address replaced, held at 0.2", 0.2, router, moved, false, false},
		{"reversal, held at 0.6", 0.6, "Higher utilization increases the borrow rate", "Higher utilization reduces the borrow rate", false, true},
		{"free-text redirection, held at 0.8", 0.8, "The Acme treasury moved to Lisbon", "The Acme treasury has moved to Berlin", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Divergence(Candidate{Claims: ExtractClaims(tt.text), Embedding: randVec(rng, 8)}, corpus(tt.conf, tt.held), 5)
			if v.Pass {
				t.Fatalf("Divergence passed %q against %q: %+v", tt.text, tt.held, v)
			}
			if v.Decisive != tt.decisive || v.Scrutiny != tt.scrutiny {
				t.Errorf("decisive %v, scrutiny %v; want %v, %v (%+v)", v.Decisive, v.Scrutiny, tt.decisive, tt.scrutiny, v)
			}
		})
	}
}

func TestWeigh(t *testing.T) {
	tests := []struct {
		name               string
		v                  Vote
		decisive, scrutiny bool
	}{
		{"L1 twice beyond the corpus", Vote{Layer: knowledge.LayerAnomaly, Score: 2.5}, true, false},
		{"L1 just beyond the corpus", Vote{Layer: knowledge.LayerAnomaly, Score: 1.5}, false, false},
		{"L1 far off on rare tokens alone", Vote{Layer: knowledge.LayerAnomaly, Score: 2.5, Signals: map[string]float64{ScoreEmbeddingRatio: 0.7}}, false, false},
		{"L1 far off in embedding space", Vote{Layer: knowledge.LayerAnomaly, Score: 2.5, Signals: map[string]float64{ScoreEmbeddingRatio: 2.5}}, true, false},
		{"L1 second signal decisive", Vote{Layer: knowledge.LayerAnomaly, Score: 1.1, Decisive: true}, true, false},
		{"L2 direct, strong", Vote{Layer: knowledge.LayerDivergence, Score: 0.9, Direct: true}, true, true},
		{"L2 direct, weaker", Vote{Layer: knowledge.LayerDivergence, Score: 0.8, Direct: true}, false, true},
		{"L2 direct, weakly held", Vote{Layer: knowledge.LayerDivergence, Score: 0.6, Direct: true}, false, false},
		{"L2 magnitude, strong", Vote{Layer: knowledge.LayerDivergence, Score: 0.95}, false, false},
		{"L2 reasoner scrutiny kept", Vote{Layer: knowledge.LayerDivergence, Score: 0.6, Scrutiny: true}, false, true},
		{"L3b unconditional", Vote{Layer: knowledge.LayerConsistency, Score: 0.9}, false, true},
		{"L3b conditional", Vote{Layer: knowledge.LayerConsistency, Score: 0.6}, false, false},
		{"L3b decisive from its model", Vote{Layer: knowledge.LayerConsistency, Score: 0.9, Decisive: true}, true, true},
		{"pass is never weighed", Vote{Layer: knowledge.LayerAnomaly, Pass: true, Score: 3}, false, false},
		{"skip is never weighed", Vote{Layer: knowledge.LayerAnomaly, Skipped: true, Score: 3}, false, false},
		{"other layer unchanged", Vote{Layer: knowledge.LayerOnChain, Score: 1}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Weigh(tt.v)
			if got.Decisive != tt.decisive || got.Scrutiny != tt.scrutiny {
				t.Errorf("Weigh(%+v): decisive %v, scrutiny %v; want %v, %v", tt.v, got.Decisive, got.Scrutiny, tt.decisive, tt.scrutiny)
			}
			if again := Weigh(got); again.Decisive != got.Decisive || again.Scrutiny != got.Scrutiny {
				t.Errorf("Weigh is not idempotent: %+v then %+v", got, again)
			}
		})
	}
}

// A layer with strong evidence is not outvoted; a weaker failure raises
// scrutiny or, at the weakest, is one vote among three.
func TestDecideByStrength(t *testing.T) {
	l1 := Vote{Layer: knowledge.LayerAnomaly, Pass: true, Score: 0.5}
	l2 := Vote{Layer: knowledge.LayerDivergence, Pass: true}
	l3b := Vote{Layer: knowledge.LayerConsistency, Pass: true}
	tests := []struct {
		name  string
		votes []Vote
		s     knowledge.Strictness
		want  bool
	}{
		{"L2 overturns knowledge held at 0.8, others pass", []Vote{l1, {Layer: knowledge.LayerDivergence, Score: 0.95, Direct: true}, l3b}, knowledge.Standard, false},
		{"same at relaxed", []Vote{l1, {Layer: knowledge.LayerDivergence, Score: 0.95, Direct: true}, l3b}, knowledge.Relaxed, false},
		{"L2 direct at 0.8 raises scrutiny", []Vote{l1, {Layer: knowledge.LayerDivergence, Score: 0.8, Direct: true}, l3b}, knowledge.Standard, false},
		{"L2 magnitude is outvoted", []Vote{l1, {Layer: knowledge.LayerDivergence, Score: 0.95}, l3b}, knowledge.Standard, true},
		{"L1 far beyond the corpus", []Vote{{Layer: knowledge.LayerAnomaly, Score: 2.2}, l2, l3b}, knowledge.Standard, false},
		{"L1 just beyond the corpus is outvoted", []Vote{{Layer: knowledge.LayerAnomaly, Score: 1.2}, l2, l3b}, knowledge.Standard, true},
		{"L3b unconditional contradiction raises scrutiny", []Vote{l1, l2, {Layer: knowledge.LayerConsistency, Score: 0.9}}, knowledge.Standard, false},
		{"L3b under new conditions is outvoted", []Vote{l1, l2, {Layer: knowledge.LayerConsistency, Score: 0.6}}, knowledge.Standard, true},
		{"weak L1 and weak L3b together fail", []Vote{{Layer: knowledge.LayerAnomaly, Score: 1.2}, l2, {Layer: knowledge.LayerConsistency, Score: 0.6}}, knowledge.Standard, false},
		{"all pass", []Vote{l1, l2, l3b}, knowledge.Standard, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, _ := Decide(tt.votes, tt.s); got != tt.want {
				t.Errorf("Decide = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestTally(t *testing.T) {
	l1, l2, l3b := knowledge.LayerAnomaly, knowledge.LayerDivergence, knowledge.LayerConsistency
	pass := func(l knowledge.Layer) Vote { return Vote{Layer: l, Pass: true} }
	fail := func(l knowledge.Layer) Vote { return Vote{Layer: l} }
	strong := Vote{Layer: l1, Score: StrongAnomaly}
	tests := []struct {
		name     string
		votes    []Vote
		s        knowledge.Strictness
		scrutiny bool
		want     Consensus
	}{
		{"standard 2 of 3", []Vote{pass(l1), fail(l2), pass(l3b)}, knowledge.Standard, false,
			Consensus{Pass: true, Passes: 2, Ran: 3, Need: 2}},
		{"the caller's scrutiny raises to 3 of 3", []Vote{pass(l1), fail(l2), pass(l3b)}, knowledge.Standard, true,
			Consensus{Passes: 2, Ran: 3, Need: 3}},
		{"the first scrutiny failure raises", []Vote{pass(l1), {Layer: l2, Scrutiny: true}, {Layer: l3b, Scrutiny: true}}, knowledge.Relaxed, false,
			Consensus{Passes: 1, Ran: 3, Need: 3, Raised: l2}},
		{"the first decisive failure rejects", []Vote{pass(l1), {Layer: l3b, Decisive: true}, {Layer: l2, Decisive: true, Scrutiny: true}}, knowledge.Relaxed, false,
			Consensus{Passes: 1, Ran: 3, Need: 3, Decisive: l3b, Raised: l2}},
		{"a decisive failure of no layer still rejects", []Vote{pass(l1), pass(l2), {Decisive: true}}, knowledge.Relaxed, false,
			Consensus{Passes: 2, Ran: 3, Need: 1}},
		{"flags on a pass or a skip count for nothing", []Vote{{Layer: l1, Skipped: true, Decisive: true, Scrutiny: true}, {Layer: l2, Pass: true, Decisive: true, Scrutiny: true}, fail(l3b)}, knowledge.Relaxed, false,
			Consensus{Pass: true, Passes: 1, Ran: 2, Need: 1}},
		{"scrutiny capped at the layers that ran", []Vote{{Layer: l1, Skipped: true}, pass(l2), pass(l3b)}, knowledge.Standard, true,
			Consensus{Pass: true, Passes: 2, Ran: 2, Need: 2}},
		{"nothing ran", []Vote{{Layer: l1, Skipped: true}}, knowledge.Relaxed, false,
			Consensus{Need: 1}},
		{"no votes", nil, knowledge.Relaxed, true, Consensus{Need: 1}},
		{"votes are not weighed", []Vote{strong, pass(l2), pass(l3b)}, knowledge.Standard, false,
			Consensus{Pass: true, Passes: 2, Ran: 3, Need: 2}},
		{"a weighed vote is", []Vote{Weigh(strong), pass(l2), pass(l3b)}, knowledge.Standard, false,
			Consensus{Passes: 2, Ran: 3, Need: 2, Decisive: l1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Tally(tt.votes, tt.s, tt.scrutiny); got != tt.want {
				t.Errorf("Tally = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestDecide(t *testing.T) {
	pass := Vote{Pass: true}
	fail := Vote{}
	skip := Vote{Skipped: true}
	decisive := Vote{Decisive: true}
	scrutiny := Vote{Scrutiny: true}
	tests := []struct {
		name   string
		votes  []Vote
		s      knowledge.Strictness
		want   bool
		passes int
	}{
		{"relaxed 1 of 3", []Vote{pass, fail, fail}, knowledge.Relaxed, true, 1},
		{"relaxed 0 of 3", []Vote{fail, fail, fail}, knowledge.Relaxed, false, 0},
		{"standard 2 of 3", []Vote{pass, fail, pass}, knowledge.Standard, true, 2},
		{"standard 1 of 3", []Vote{pass, fail, fail}, knowledge.Standard, false, 1},
		{"strict 3 of 3", []Vote{pass, pass, pass}, knowledge.Strict, true, 3},
		{"strict 2 of 3", []Vote{pass, pass, fail}, knowledge.Strict, false, 2},
		{"paranoid 2 of 3", []Vote{pass, fail, pass}, knowledge.Paranoid, false, 2},
		{"paranoid 3 of 3", []Vote{pass, pass, pass}, knowledge.Paranoid, true, 3},
		{"zero strictness is paranoid", []Vote{pass, pass, fail}, knowledge.Strictness(0), false, 2},
		{"invalid strictness is strictest", []Vote{pass, pass, fail}, knowledge.Strictness(9), false, 2},
		{"standard, L1 skipped, 2 of 2", []Vote{skip, pass, pass}, knowledge.Standard, true, 2},
		{"standard, L1 skipped, 1 of 2", []Vote{skip, pass, fail}, knowledge.Standard, false, 1},
		{"strict, L1 skipped, 2 of 2", []Vote{skip, pass, pass}, knowledge.Strict, true, 2},
		{"relaxed, two skipped, 1 of 1", []Vote{skip, skip, pass}, knowledge.Relaxed, true, 1},
		{"relaxed, two skipped, 0 of 1", []Vote{skip, skip, fail}, knowledge.Relaxed, false, 0},
		{"all skipped", []Vote{skip, skip, skip}, knowledge.Relaxed, false, 0},
		{"no votes", nil, knowledge.Relaxed, false, 0},
		{"relaxed, decisive failure", []Vote{pass, pass, decisive}, knowledge.Relaxed, false, 2},
		{"decisive flag on a pass is no failure", []Vote{pass, pass, {Pass: true, Decisive: true}}, knowledge.Standard, true, 3},
		{"standard, scrutiny raises to 3 of 3", []Vote{pass, scrutiny, pass}, knowledge.Standard, false, 2},
		{"relaxed, scrutiny raises to 3 of 3", []Vote{pass, pass, scrutiny}, knowledge.Relaxed, false, 2},
		{"scrutiny capped at the layers that ran", []Vote{skip, pass, scrutiny}, knowledge.Standard, false, 1},
		{"standard, ordinary failure tolerated", []Vote{pass, fail, pass}, knowledge.Standard, true, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, passes := Decide(tt.votes, tt.s)
			if got != tt.want || passes != tt.passes {
				t.Errorf("Decide = %v, %d; want %v, %d", got, passes, tt.want, tt.passes)
			}
		})
	}
}

func TestBatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	a, b := randVec(rng, 32), randVec(rng, 32)
	cands := []Candidate{
		{Embedding: near(rng, a, 0.1)},
		{Embedding: near(rng, b, 0.1)},
		{Embedding: randVec(rng, 32)},
		{Embedding: near(rng, a, 0.1)},
		{},
		{Embedding: near(rng, b, 0.1)},
		{Embedding: near(rng, a, 0.1)},
	}
	want := "[[0 3 6] [1 5] [2] [4]]"
	for range 3 {
		if got := fmt.Sprint(Batch(cands)); got != want {
			t.Fatalf("Batch = %s, want %s", got, want)
		}
	}
	if got := Batch(nil); len(got) != 0 {
		t.Errorf("Batch(nil) = %v, want empty", got)
	}
}

func TestDivergenceSwapped(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	corpus, _ := claimCorpus(t, rng, []string{"Higher volatility increases impermanent loss"})
	for _, tt := range []struct {
		text string
		pass bool
	}{
		{"Impermanent loss falls as volatility rises.", false},
		{"Impermanent loss grows with volatility.", true},
	} {
		t.Run(tt.text, func(t *testing.T) {
			v := Divergence(Candidate{Claims: ExtractClaims(tt.text), Embedding: randVec(rng, 64)}, corpus, 5)
			if v.Pass != tt.pass {
				t.Errorf("Divergence = %+v, want pass %v", v, tt.pass)
			}
		})
	}
}

func FuzzExtractClaims(f *testing.F) {
	for _, s := range []string{
		"Higher utilization increases the borrow rate.",
		"The Acme router now lives at 0x1111222233334444555566667777888899990000",
		"If X, then use https://a.example.com instead. The fee is 3% unless paused",
		"0x 0x12 $ 1,000k bps . ; ! ?",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, b := ExtractClaims(s), ExtractClaims(s)
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("not deterministic: %v vs %v", a, b)
		}
		for _, c := range a {
			if c.Direction < -1 || c.Direction > 1 || c.Relation == "" {
				t.Fatalf("malformed claim %+v", c)
			}
			_ = Contradictions(c, c)
		}
	})
}

func benchCorpus(b *testing.B, n, dim int) (*Corpus, *rand.Rand) {
	rng := rand.New(rand.NewPCG(8, 8))
	vecs, _ := blobs(rng, n, dim, 20, 0.8)
	texts := []string{
		"Higher utilization increases the borrow rate",
		"The Acme router is 0x1111222233334444555566667777888899990000",
		"Deeper liquidity reduces slippage when markets are calm",
		"The protocol fee is 0.3%",
	}
	es := make([]CorpusEntry, n)
	for i, v := range vecs {
		es[i] = CorpusEntry{ID: fmt.Sprint(i), Embedding: v, Claims: ExtractClaims(texts[i%len(texts)]), Confidence: 0.6}
	}
	return NewCorpus(es), rng
}

func BenchmarkL1(b *testing.B) {
	corpus, rng := benchCorpus(b, 10_000, 256)
	cand := Candidate{Embedding: randVec(rng, 256)}
	Anomaly(cand, corpus) // fit outside the loop: the model is cached per corpus
	for b.Loop() {
		Anomaly(cand, corpus)
	}
}

func BenchmarkStage2(b *testing.B) {
	corpus, rng := benchCorpus(b, 10_000, 256)
	models, _ := ShippedModels()
	cand := Candidate{Entry: &knowledge.Entry{Content: "Higher utilization lowers the borrow rate during quiet markets. The Acme router now lives at 0x9999888877776666555544443333222211110000."}, Embedding: randVec(rng, 256)}
	Anomaly(cand, corpus)
	for b.Loop() {
		cand.Claims = ExtractClaims(cand.Entry.Content)
		Anomaly(cand, corpus)
		Divergence(cand, corpus, DefaultK)
		Consistency(cand, models)
	}
}

func BenchmarkFit(b *testing.B) {
	corpus, _ := benchCorpus(b, 10_000, 256)
	for b.Loop() {
		c := &Corpus{vecs: corpus.vecs, dim: corpus.dim}
		c.fit()
	}
}

func BenchmarkExtractClaims(b *testing.B) {
	text := "Higher utilization lowers the borrow rate during quiet markets, unless the pool is paused. The Acme router now lives at 0x9999888877776666555544443333222211110000. The protocol fee is 0.3%."
	for b.Loop() {
		ExtractClaims(text)
	}
}

func BenchmarkL2(b *testing.B) {
	corpus, rng := benchCorpus(b, 10_000, 256)
	cand := Candidate{Claims: ExtractClaims("Higher utilization lowers the borrow rate. The Acme router now lives at 0x9999888877776666555544443333222211110000."), Embedding: randVec(rng, 256)}
	for b.Loop() {
		Divergence(cand, corpus, DefaultK)
	}
}

func BenchmarkL3b(b *testing.B) {
	models, _ := ShippedModels()
	cand := Candidate{Claims: ExtractClaims("Higher utilization lowers the borrow rate. The Acme router now lives at 0x9999888877776666555544443333222211110000.")}
	for b.Loop() {
		Consistency(cand, models)
	}
}

// TestNearestRecall checks the sketch shortlist against exhaustive search.
func TestNearestRecall(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	vecs, cents := blobs(rng, 3000, 128, 30, 1.0)
	es := make([]CorpusEntry, len(vecs))
	for i, v := range vecs {
		es[i] = CorpusEntry{ID: fmt.Sprint(i), Embedding: v, Claims: []Claim{{Subject: "x", Relation: RelIs, Object: "y"}}}
	}
	corpus := NewCorpus(es)
	found, total := 0, 0
	for q := range 50 {
		v := near(rng, cents[q%30], 1.0)
		type pair struct {
			i int
			s float32
		}
		all := make([]pair, len(vecs))
		for i, u := range corpus.vecs {
			all[i] = pair{i, dot(v, u)}
		}
		slices.SortFunc(all, func(a, b pair) int { return -cmpF(a.s, b.s) })
		got := corpus.nearest(v, DefaultK)
		for _, h := range got {
			for _, p := range all[:DefaultK] {
				if p.i == h.idx {
					found++
				}
			}
		}
		total += DefaultK
	}
	if recall := float64(found) / float64(total); recall < 0.9 {
		t.Errorf("nearest recall@%d = %.2f, want at least 0.9", DefaultK, recall)
	}
}

func cmpF(a, b float32) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
