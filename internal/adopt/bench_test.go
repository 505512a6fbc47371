package adopt

import (
	"fmt"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/knowledge"
)

// BenchmarkConsult is the cost added before every action: a full store of
// 500 lessons against a typical situation.
func BenchmarkConsult(b *testing.B) {
	s := newLessons(b, 0)
	for i := range MaxLessons {
		s.Add(lesson(fmt.Sprint("l", i), []string{fmt.Sprint("pool p", i%40), "swap"}, []string{fmt.Sprint("k", i%13)}))
	}
	sit := Situation{Action: "swap", Conditions: []string{"pool p7", "gas high"},
		Text: "swap 10 ETH for USDC on the p7 pool with 0.5% slippage, k3", At: t0}
	for b.Loop() {
		sit.At = sit.At.Add(time.Minute)
		s.Consult(sit)
	}
}

func BenchmarkCycle(b *testing.B) {
	rs := make([]Record, 10_000)
	for i := range rs {
		r, err := Adopt(entry(fmt.Sprint("e", i), knowledge.Provenance(1+i%4), 0.5), Origin{Class: Class(i % 3)}, t0)
		if err != nil {
			b.Fatal(err)
		}
		rs[i] = r
	}
	for b.Loop() {
		Cycle(t0.Add(10*Day), rs)
	}
}
