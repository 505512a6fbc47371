package poisoning

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/wardhq/ward/internal/knowledge"
)

// Explicit inputs through the real pipeline: the injection is caught at
// Stage 1, the contradiction of a seeded fact at Stage 2, and the clean
// entry is adopted.
func TestRunFiles(t *testing.T) {
	rep, err := RunFiles(t.Context(), "testdata/seed.jsonl", []string{"testdata/incoming.jsonl"}, Options{Strictness: knowledge.Standard})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Seeded != 2 || rep.Clean != 1 || rep.Flagged != 0 {
		t.Errorf("seeded %d, clean %d, flagged %d\n%s", rep.Seeded, rep.Clean, rep.Flagged, rep.Text())
	}
	for class, stage := range map[string]string{"prompt_injection": "stage1/content", "semantic_contradiction": "stage2/L2"} {
		c := rep.Classes[class]
		if c == nil || c.Poison != 1 || c.Missed != 0 {
			t.Errorf("%s: %+v (%s)", class, c, rep.Text())
			continue
		}
		if c.CaughtBy[stage] != 1 {
			t.Errorf("%s caught by %v, want %s", class, c.CaughtBy, stage)
		}
	}
	if b := rep.Benchmarks["toy"]; b == nil || b.Poison != 2 || b.Clean != 1 {
		t.Errorf("benchmark toy: %+v", b)
	}
}

// A run is a function of its inputs: the same rows through fresh pipelines
// give the same outcomes, down to every vote's score and signals. The
// incoming rows include JSON documents, whose canonical text once followed
// a decoded map's iteration order, so that their embeddings, L1's distances
// and the oracle's and immune memory's bands (and with them, near a
// boundary, a verdict or the layer that decided it) changed from run to
// run (issue 20). Sixty seeds let L1 fit its k-means model.
func TestRunReproducible(t *testing.T) {
	var seed, incoming []Row
	pools := []string{"USDC/WETH", "WBTC/WETH", "DAI/USDC", "stETH/WETH", "LINK/WETH", "UNI/WETH"}
	venues := []string{"Uniswap v3", "Curve", "Balancer", "Sushiswap", "PancakeSwap", "Maverick", "Camelot", "Velodrome", "Aerodrome", "Trader Joe"}
	for i := range 60 {
		seed = append(seed, Row{Line: i + 1, Label: "clean", Entry: Entry{EntryType: "insight",
			Content: fmt.Sprintf("The %s pool on %s charges a %d basis point fee and suits traders who rebalance weekly.", pools[i%len(pools)], venues[i/len(pools)], 5*(i%4+1))}})
	}
	for i, p := range pools {
		incoming = append(incoming, Row{Line: 2*i + 1, Label: "clean", Entry: Entry{EntryType: "insight",
			Content: fmt.Sprintf(`{"pool":%q,"venue":%q,"fee":%d,"tickSpacing":10,"chain":"ethereum","note":"fee tier for volatile pairs","source":"pool registry"}`, p, venues[i], 500*(i+1))}})
		incoming = append(incoming, Row{Line: 2*i + 2, Label: "clean", Entry: Entry{EntryType: "insight",
			Content: fmt.Sprintf("Liquidity in the %s pool on %s deepens after the weekly incentive epoch starts.", p, venues[i])}})
	}
	var first []Outcome
	for run := range 4 {
		out, err := Run(t.Context(), seed, incoming, Options{Strictness: knowledge.Standard})
		if err != nil {
			t.Fatal(err)
		}
		if run == 0 {
			first = out
			continue
		}
		for i := range out {
			if !reflect.DeepEqual(out[i], first[i]) {
				t.Errorf("run %d, row %d: %+v\nrun 0: %+v", run, i, out[i], first[i])
			}
		}
	}
}
