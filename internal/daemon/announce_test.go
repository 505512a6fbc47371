package daemon

import (
	"errors"
	"testing"

	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/reason"
)

// TestAnnounceDelayFromConfig: ward.toml's announce_delay reaches the gate
// as written. "0s" turns the delay off, as docs/configuration.md says (the
// gate reads a zero as its default, 30s, so the configured zero must not
// reach it as one); the default holds an elevated permit.
func TestAnnounceDelayFromConfig(t *testing.T) {
	for _, tc := range []struct {
		name, toml string
		held       bool
	}{
		{"default", "", true},
		{"zero turns it off", "[gate]\nannounce_delay = \"0s\"\n", false},
		{"an explicit delay", "[gate]\nannounce_delay = \"2m\"\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := openGateStack(t, tc.toml)
			// An LP deposit is elevated: it waits out the announce delay.
			pv, err := g.preview("add_liquidity", "uniswap_v2", map[string]any{"token_a": g.dc.USDC.Hex(), "token_b": g.dc.WETH.Hex(),
				"amount_a_desired": "100000000", "amount_b_desired": "40000000000000000", "slippage_bps": 100})
			if err != nil {
				t.Fatal(err)
			}
			_, err = g.commit(pv.PermitID)
			var r *gate.Refusal
			held := errors.As(err, &r) && r.Code == reason.AnnounceDelay
			if held != tc.held {
				t.Errorf("commit right after the preview: %v, want held %v", err, tc.held)
			}
			if !tc.held && err != nil {
				t.Errorf("commit: %v", err)
			}
		})
	}
}
