package facade_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/daemon"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/registry"
)

// openStack opens a wired stack on the embedded dev chain.
func openStack(t *testing.T) *daemon.Stack {
	t.Helper()
	return openStackWith(t, nil)
}

// openStackWith is openStack with the extra tools extra opens (see
// daemon.Config).
func openStackWith(t *testing.T, extra func(ctx context.Context, st *daemon.Stack) ([]registry.Tool, func() error, error)) *daemon.Stack {
	t.Helper()
	snap, err := rules.Compile(rules.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	st, err := daemon.Open(t.Context(), daemon.Config{
		DB: daemon.DefaultDB(t.TempDir()), Policy: snap, DevSeed: "ward-facade-test", AnnounceDelay: -1,
		Hooks: hook.Config{
			Spending: hook.SpendingConfig{PerTickCents: hook.Unlimited, PerSessionCents: hook.Unlimited, DailyCents: hook.Unlimited},
			Rate:     hook.RateConfig{Max: 1 << 20, Window: time.Hour},
		},
		Extra: extra,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func session(t *testing.T, st *daemon.Stack, name, profiles string) *facade.Session {
	t.Helper()
	s, err := st.Session(t.Context(), name, policy.Agent, profiles)
	if err != nil {
		t.Fatal(err)
	}
	return facade.NewSession(s)
}

func wantRefusal(t *testing.T, err error, code reason.Code) {
	t.Helper()
	var r *facade.Refusal
	if !errors.As(err, &r) || r.Code != code {
		t.Fatalf("got %v, want a %s refusal", err, code)
	}
}

func TestCall(t *testing.T) {
	ctx := t.Context()
	st := openStack(t)
	s := session(t, st, "facade", "active")
	dc := st.Dev.Contracts()
	swap := fmt.Sprintf(`{"token_in":%q,"token_out":%q,"amount_in":"1000000"}`, dc.USDC.Hex(), dc.WETH.Hex())
	out, err := st.Facade.Call(ctx, s, "preview_action", json.RawMessage(`{"action_type":"swap","venue":"uniswap_v3","params":`+swap+`}`))
	if err != nil {
		t.Fatal(err)
	}
	var pv struct {
		PermitID string `json:"permit_id"`
	}
	if err := json.Unmarshal(out, &pv); err != nil {
		t.Fatal(err)
	}
	out, err = st.Facade.Call(ctx, s, "query_state", json.RawMessage(`{"kind":"permit","params":{"permit_id":"`+pv.PermitID+`"}}`))
	if err != nil || !strings.Contains(string(out), `"status":"pending"`) {
		t.Fatalf("query permit: %s %v", out, err)
	}
	if _, err := st.Facade.Call(ctx, s, "commit_action", json.RawMessage(`{"permit_id":"`+pv.PermitID+`"}`)); err != nil {
		t.Fatal(err)
	}
	_, err = st.Facade.Call(ctx, s, "preview_action", json.RawMessage(`{"action_type":"swap","venue":"nowhere","params":{}}`))
	wantRefusal(t, err, reason.NotPreviewable)
	_, err = st.Facade.Call(ctx, s, "preview_action", json.RawMessage(`{"action_type":"swap"}`))
	wantRefusal(t, err, reason.VenueRequired)
	_, err = st.Facade.Call(ctx, s, "preview_action", json.RawMessage(`{"venue":"uniswap_v3"}`))
	wantRefusal(t, err, reason.SchemaInvalid)
	if _, err := st.Facade.Call(ctx, s, "query_state", json.RawMessage(`{"kind":"gate"}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Facade.Call(ctx, s, "query_state", json.RawMessage(`{"kind":"balance","params":{"token":"`+dc.USDC.Hex()+`"}}`)); err != nil {
		t.Fatal(err)
	}
	_, err = st.Facade.Call(ctx, nil, "query_state", json.RawMessage(`{"kind":"gate"}`))
	if !errors.Is(err, facade.ErrNoSession) {
		t.Errorf("a call without a session: %v, want ErrNoSession", err)
	}

	// The data profile has no write facades at all.
	d := session(t, st, "facade-data", "data")
	var names []string
	for _, fc := range facade.Defs(d.View()) {
		names = append(names, fc.Name)
	}
	if got := strings.Join(names, ","); strings.Contains(got, "preview_action") || strings.Contains(got, "commit_action") {
		t.Errorf("data profile facades = %s", got)
	}
	_, err = st.Facade.Call(ctx, d, "preview_action", json.RawMessage(`{"action_type":"swap","params":{}}`))
	wantRefusal(t, err, reason.ToolUnavailable)
}
