package chain

import (
	"math/big"
	"runtime"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// BenchmarkDevChainMemory mines 4,000 one-transaction blocks on the dev
// chain and reports how much its live heap grew per 1,000 blocks (after a
// collection at each end): the in-memory node's growth under load. Run
// with -benchtime 1x.
func BenchmarkDevChainMemory(b *testing.B) {
	const blocks = 4000
	for b.Loop() {
		d, err := StartDev(b.Context(), DevConfig{Seed: "memory", AutoCommit: true})
		if err != nil {
			b.Fatal(err)
		}
		c, err := d.Deploy(b.Context())
		if err != nil {
			b.Fatal(err)
		}
		heap := func() float64 {
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			return float64(ms.HeapInuse) / (1 << 20)
		}
		start := heap()
		for i := range blocks {
			if err := d.Fund(b.Context(), common.BigToAddress(big.NewInt(int64(i+1000))), c.USDC, big.NewInt(1)); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric((heap()-start)/blocks*1000, "heapMB/1000blocks")
		if err := d.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
