package embed

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"testing"
)

// corpus is a small background of documents to learn IDF from.
var corpus = []string{
	"The pool's liquidity dropped sharply after the whale withdrew its position.",
	"Gas prices on mainnet spike whenever a popular NFT mint goes live.",
	"Impermanent loss grows as the price ratio of the two pooled assets diverges.",
	"A flash loan lets a contract borrow without collateral inside one transaction.",
	"Oracle manipulation attacks exploit thin markets to move a reported price.",
	"Stablecoin depegs tend to cluster during broad market sell-offs.",
	"The committee will meet on Tuesday to review the quarterly budget.",
	"She planted tomatoes and basil in the garden behind the house.",
	"The train to the airport leaves every fifteen minutes in the morning.",
	"Reading before bed helps many people fall asleep faster.",
	"Funding rates on perpetual futures turn negative when shorts dominate.",
	"Validators earn rewards for proposing and attesting to blocks.",
	"The museum opened a new exhibition of early photography.",
	"Heavy rain is expected across the region over the weekend.",
	"Slippage increases when a large swap trades against a shallow pool.",
	"Lending protocols liquidate loans whose collateral ratio falls below the threshold.",
}

func fitted(t testing.TB) *Hashed {
	t.Helper()
	h := NewHashed(HashedConfig{})
	h.Fit(corpus)
	return h
}

func embedOne(t testing.TB, e Embedder, s string) []float32 {
	t.Helper()
	v, err := e.Embed(t.Context(), []string{s})
	if err != nil {
		t.Fatalf("Embed(%q): %v", s, err)
	}
	return v[0]
}

func TestHashedParaphrase(t *testing.T) {
	h := fitted(t)
	close := []struct{ name, a, b string }{
		{"liquidation", "Lending protocols liquidate loans when the collateral ratio falls below the threshold.",
			"When a loan's collateral ratio drops under the threshold, the lending protocol liquidates it."},
		{"slippage", "Large swaps against a shallow pool suffer high slippage.",
			"A large swap in a shallow liquidity pool suffers from high slippage."},
		{"oracle", "Attackers manipulate the price oracle by trading in thin markets.",
			"Thin markets let attackers manipulate a price oracle through trading."},
		{"train", "The airport train leaves every fifteen minutes.",
			"Every fifteen minutes a train leaves for the airport."},
	}
	for _, c := range close {
		t.Run(c.name, func(t *testing.T) {
			got := Cosine(embedOne(t, h, c.a), embedOne(t, h, c.b))
			if got < 0.5 {
				t.Errorf("cosine(%q, %q) = %.3f, want >= 0.5", c.a, c.b, got)
			}
		})
	}
	unrelated := []string{
		"Lending protocols liquidate loans when the collateral ratio falls below the threshold.",
		"Large swaps against a shallow pool suffer high slippage.",
		"Attackers manipulate the price oracle by trading in thin markets.",
		"The airport train leaves every fifteen minutes.",
		"She baked bread with rosemary for the family dinner.",
		"Validators are rewarded for attesting to new blocks.",
		"The orchestra rehearsed the symphony until late at night.",
	}
	for i := range unrelated {
		for j := i + 1; j < len(unrelated); j++ {
			a, b := unrelated[i], unrelated[j]
			got := Cosine(embedOne(t, h, a), embedOne(t, h, b))
			if got >= 0.3 {
				t.Errorf("cosine(%q, %q) = %.3f, want < 0.3", a, b, got)
			}
		}
	}
}

func TestHashedVectors(t *testing.T) {
	h := fitted(t)
	tests := []struct {
		name, a, b string
		same       bool
	}{
		{"case folded", "Impermanent LOSS", "impermanent loss", true},
		{"nfkc", "ＬＩＱＵＩＤＩＴＹ ﬁnance", "liquidity finance", true},
		{"punctuation and spacing", "flash-loan, attack!", "flash loan attack", true},
		{"greek sigma", "ΣΟΦΙΑ", "σοφια", true},
		{"different words", "flash loan", "garden basil", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Cosine(embedOne(t, h, tc.a), embedOne(t, h, tc.b))
			if tc.same && got < 0.9999 {
				t.Errorf("cosine(%q, %q) = %v, want 1", tc.a, tc.b, got)
			}
			if !tc.same && got > 0.5 {
				t.Errorf("cosine(%q, %q) = %v, want small", tc.a, tc.b, got)
			}
		})
	}
	for _, s := range []string{"", "   ", "!!! ---"} {
		v := embedOne(t, h, s)
		if len(v) != 256 {
			t.Fatalf("len = %d, want 256", len(v))
		}
		for i, x := range v {
			if x != 0 {
				t.Fatalf("Embed(%q)[%d] = %v, want zero vector", s, i, x)
			}
		}
	}
	v := embedOne(t, h, corpus[0])
	if n := math.Sqrt(float64(dot(v, v))); math.Abs(n-1) > 1e-5 {
		t.Errorf("norm = %v, want 1", n)
	}
}

// TestHashedGolden pins the output: the embedder must give the same vector
// on every run and machine, and a change to the feature scheme must change
// Name.
func TestHashedGolden(t *testing.T) {
	h := NewHashed(HashedConfig{Dim: 16})
	if got, want := h.Name(), "hashed-v1/16"; got != want {
		t.Errorf("Name = %q, want %q", got, want)
	}
	h.Fit(corpus)
	v := embedOne(t, h, "Flash loans borrow without collateral.")
	got := fmt.Sprintf("%.4f", v)
	const want = "[-0.0150 0.0000 -0.2202 0.1162 -0.5162 -0.1162 0.4185 -0.2407 0.0174 0.3337 0.0150 0.3743 0.0835 -0.2174 0.0000 0.3443]"
	if got != want {
		t.Errorf("embedding = %s, want %s", got, want)
	}
}

func TestHashedIDF(t *testing.T) {
	h := NewHashed(HashedConfig{})
	a, b := "alpha common", "beta common"
	before := Cosine(embedOne(t, h, a), embedOne(t, h, b))
	for i := range 50 {
		h.Observe(fmt.Sprintf("common document number%d", i))
	}
	if got := h.Documents(); got != 50 {
		t.Errorf("Documents = %d, want 50", got)
	}
	after := Cosine(embedOne(t, h, a), embedOne(t, h, b))
	if after >= before {
		t.Errorf("cosine after observing a frequent word = %v, want below %v", after, before)
	}
	h.Fit(nil)
	if got := h.Documents(); got != 0 {
		t.Errorf("Documents after Fit(nil) = %d, want 0", got)
	}
	if got := Cosine(embedOne(t, h, a), embedOne(t, h, b)); math.Abs(float64(got-before)) > 1e-6 {
		t.Errorf("cosine after Fit(nil) = %v, want %v", got, before)
	}
}

func TestHashedMaxFeatures(t *testing.T) {
	h := NewHashed(HashedConfig{MaxFeatures: 10})
	h.Fit(corpus)
	h.Observe(corpus[1])
	h.mu.RLock()
	n := len(h.df)
	h.mu.RUnlock()
	if n != 10 {
		t.Errorf("tracked features = %d, want 10", n)
	}
}

func TestHashedCanceled(t *testing.T) {
	h := NewHashed(HashedConfig{})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := h.Embed(ctx, []string{"x"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Embed with canceled ctx: err = %v, want context.Canceled", err)
	}
}

func TestHashedConcurrent(t *testing.T) {
	h := fitted(t)
	want := embedOne(t, NewHashed(HashedConfig{}), corpus[3])
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 50 {
				if g%2 == 0 {
					h.Observe(corpus[(g+i)%len(corpus)])
					continue
				}
				v, err := h.Embed(t.Context(), corpus)
				if err != nil {
					t.Error(err)
					return
				}
				if len(v) != len(corpus) || len(v[3]) != 256 {
					t.Errorf("got %d vectors of %d", len(v), len(v[3]))
					return
				}
			}
		})
	}
	wg.Wait()
	// A fresh embedder is unaffected by another's observations.
	if got := embedOne(t, NewHashed(HashedConfig{}), corpus[3]); Cosine(got, want) < 0.9999 {
		t.Error("fresh embedder output changed")
	}
}

func BenchmarkHashedEmbed(b *testing.B) {
	h := NewHashed(HashedConfig{})
	h.Fit(corpus)
	texts := make([]string, 64)
	for i := range texts {
		// About 200 bytes each.
		texts[i] = fmt.Sprintf("%s %s Entry %d notes a %d%% move.", corpus[i%len(corpus)], corpus[(i+5)%len(corpus)], i, i*7)
	}
	ctx := context.Background()
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		if _, err := h.Embed(ctx, texts); err != nil {
			b.Fatal(err)
		}
		n += len(texts)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "texts/s")
}
