package facade_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules"
)

// steps is a facade.Progress that keeps the steps it is told.
type steps struct {
	mu  sync.Mutex
	got []string
}

func (s *steps) report(toolName, step string, index, total int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.got = append(s.got, fmt.Sprintf("%s %d/%d %s", toolName, index+1, total, step))
}

func (s *steps) n() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.got)
}

// TestCallWith: a call through CallWith tells the gate which facade it
// came through (a held call records it) and where its progress goes,
// with nothing in its context; Call still reads the listener from the
// context.
func TestCallWith(t *testing.T) {
	ctx := t.Context()
	st := openStack(t)
	cfg := rules.DefaultConfig()
	cfg.Rules = append(cfg.Rules, rules.UserRule{ID: "test.review-big-swaps", Priority: 100, AppliesTo: policy.Names("uniswap_execute_swap"),
		When: `int(args.amount_in) > 5000000`, Action: policy.Quarantine, Code: "SWAP_REVIEW", Message: "big swaps wait for the owner"})
	snap, err := rules.Compile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Engine.Swap(snap); err != nil {
		t.Fatal(err)
	}
	s := session(t, st, "facade-options", "active")
	dc := st.Dev.Contracts()
	swap := func(amount int) json.RawMessage {
		return json.RawMessage(fmt.Sprintf(`{"action_type":"swap","venue":"uniswap_v3","params":{"token_in":%q,"token_out":%q,"amount_in":"%d"}}`,
			dc.USDC.Hex(), dc.WETH.Hex(), amount))
	}

	t.Run("facade of a held call", func(t *testing.T) {
		_, err := st.Facade.CallWith(ctx, s, "preview_action", swap(9_000_000), facade.CallOptions{})
		var r *facade.Refusal
		if !errors.As(err, &r) || r.Quarantine == "" {
			t.Fatalf("big swap = %v, want a refusal naming a quarantine item", err)
		}
		it, err := st.Facade.Quarantined(ctx, r.Quarantine)
		if err != nil || it.Facade != "preview_action" {
			t.Errorf("held call = %+v, %v; want facade preview_action", it, err)
		}
	})

	for _, tc := range []struct {
		name string
		call func(ctx context.Context, name string, raw json.RawMessage, p *steps) (json.RawMessage, error)
	}{
		{"progress by option", func(ctx context.Context, name string, raw json.RawMessage, p *steps) (json.RawMessage, error) {
			return st.Facade.CallWith(ctx, s, name, raw, facade.CallOptions{Progress: p.report})
		}},
		{"progress in the context", func(ctx context.Context, name string, raw json.RawMessage, p *steps) (json.RawMessage, error) {
			return st.Facade.Call(facade.WithProgress(ctx, p.report), s, name, raw)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var read steps
			if _, err := tc.call(ctx, "query_state", json.RawMessage(`{"kind":"balance","params":{"token":"`+dc.USDC.Hex()+`"}}`), &read); err != nil {
				t.Fatal(err)
			}
			if read.n() == 0 {
				t.Error("the balance read reported no progress")
			}
			var commit steps
			out, err := tc.call(ctx, "preview_action", swap(1_000_000), &steps{})
			if err != nil {
				t.Fatal(err)
			}
			var pv struct {
				PermitID string `json:"permit_id"`
			}
			if err := json.Unmarshal(out, &pv); err != nil {
				t.Fatal(err)
			}
			if _, err := tc.call(ctx, "commit_action", json.RawMessage(`{"permit_id":"`+pv.PermitID+`"}`), &commit); err != nil {
				t.Fatal(err)
			}
			if commit.n() == 0 {
				t.Error("the swap's commit reported no progress")
			}
		})
	}
}
