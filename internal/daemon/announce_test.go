package daemon

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/policy"
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
			f, err := config.Parse("ward.toml", []byte(tc.toml))
			if err != nil {
				t.Fatal(err)
			}
			st, err := OpenData(t.Context(), t.TempDir(), f)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			s, err := st.Session(t.Context(), "agent", policy.Agent, "dev")
			if err != nil {
				t.Fatal(err)
			}
			dc := st.Dev.Contracts()
			// An LP deposit is elevated: it waits out the announce delay.
			pv, err := st.Facade.Call(t.Context(), facade.NewSession(s), "preview_action", json.RawMessage(fmt.Sprintf(
				`{"action_type":"add_liquidity","venue":"uniswap_v2","params":{"token_a":%q,"token_b":%q,"amount_a_desired":"100000000","amount_b_desired":"40000000000000000","slippage_bps":100}}`, dc.USDC.Hex(), dc.WETH.Hex())))
			if err != nil {
				t.Fatal(err)
			}
			var p struct {
				PermitID string `json:"permit_id"`
			}
			b, _ := json.Marshal(pv)
			if json.Unmarshal(b, &p); p.PermitID == "" {
				t.Fatalf("preview gave no permit: %s", b)
			}
			_, err = st.Facade.Call(t.Context(), facade.NewSession(s), "commit_action", json.RawMessage(`{"permit_id":"`+p.PermitID+`"}`))
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
