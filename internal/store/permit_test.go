package store

import (
	"math"
	"testing"

	"github.com/wardhq/ward/internal/adopt"
)

// Documents as the gate stored them before the store encoded previews
// (and, for the first, before previews carried lessons): each must decode
// and encode back to the same bytes, so existing permit rows and the
// permit_created records that copy them keep one format.
func TestPreviewStoredFormat(t *testing.T) {
	const addr = `"0x0100000000000000000000000000000000000000"`
	plan := `{"chain_id":8453,"from":` + addr + `,"txs":[{"to":` + addr + `,"data":"0x095ea7b3","label":"approve"},` +
		`{"to":` + addr + `,"data":"0x","value":1000,"label":"swap"}],` +
		`"tokens":[{"token":` + addr + `,"symbol":"USDC","decimals":6,"amount":1000000,"out":true}],` +
		`"value_cents":100,"summary":"swap 1 USDC \u0026 1 DAI"}`
	sim := `{"ok":false,"reverted":1,"revert_reason":"STF","gas_used":[46000,21000],"total_gas":67000,` +
		`"deltas":[{"token":` + addr + `,"before":"5","after":"4","delta":"-1"},{"token":` + addr + `,"before":null,"after":null,"delta":null}]}`
	for _, tc := range []struct {
		name, doc string
		wantPlan  bool
	}{
		{"plan and simulation", `{"plan":` + plan + `,"simulation":` + sim + `}`, true},
		{"plan, simulation and lessons", `{"plan":` + plan + `,"simulation":` + sim +
			`,"lessons":[{"id":"L1","summary":"a swap reverted","advice":"raise slippage","reason":"EXECUTION_FAILED","confidence":0.75}]}`, true},
		{"grants, no simulation", `{"plan":{"chain_id":1,"from":` + addr + `,"txs":null,` +
			`"grants":[{"token":` + addr + `,"spender":` + addr + `,"amount":5}],"value_cents":-1,"summary":""}}`, true},
		{"no plan", `{"plan":null}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p Permit
			if err := p.UnmarshalPreview([]byte(tc.doc)); err != nil {
				t.Fatalf("UnmarshalPreview: %v", err)
			}
			if (p.Plan != nil) != tc.wantPlan {
				t.Errorf("plan %+v, want one: %t", p.Plan, tc.wantPlan)
			}
			got, err := p.MarshalPreview()
			if err != nil || string(got) != tc.doc {
				t.Errorf("MarshalPreview = %s, %v\nwant %s", got, err, tc.doc)
			}
		})
	}
}

func TestPreviewEdges(t *testing.T) {
	t.Run("empty is none", func(t *testing.T) {
		p := Permit{Lessons: []adopt.Advice{{ID: "stale"}}}
		if err := p.UnmarshalPreview(nil); err != nil || p.Plan != nil || p.Simulation != nil || p.Lessons != nil {
			t.Errorf("UnmarshalPreview(nil) = %v, left %+v", err, p)
		}
		if got, err := p.MarshalPreview(); err != nil || string(got) != `{"plan":null}` {
			t.Errorf("MarshalPreview of none = %s, %v, want {\"plan\":null}", got, err)
		}
	})
	t.Run("not a preview", func(t *testing.T) {
		var p Permit
		if err := p.UnmarshalPreview([]byte(`{"plan":{"from":"0x12"}}`)); err == nil {
			t.Error("UnmarshalPreview accepted a malformed address")
		}
	})
	t.Run("not encodable", func(t *testing.T) {
		p := Permit{Lessons: []adopt.Advice{{ID: "L1", Confidence: math.NaN()}}}
		if _, err := p.MarshalPreview(); err == nil {
			t.Error("MarshalPreview encoded a NaN confidence")
		}
	})
}
