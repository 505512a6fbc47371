package gate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
)

// progressLog is a Progress that keeps the steps it is told.
type progressLog struct {
	mu    sync.Mutex
	steps []string
}

func (p *progressLog) report(toolName, step string, index, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.steps = append(p.steps, fmt.Sprintf("%s:%s:%d/%d", toolName, step, index, total))
}

func (p *progressLog) got() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.steps)
}

func mustArgs(t *testing.T, raw string) *tool.Args {
	t.Helper()
	a, err := tool.ParseArgs(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestCallOptionsFacade: the facade a call came through reaches the held
// call and its action record as a parameter, with nothing in the context;
// so does the facade of a call a handler makes through its session.
func TestCallOptionsFacade(t *testing.T) {
	for _, tc := range []struct {
		name string
		hold func(f *fixture, ctx context.Context, opts CallOptions) error
	}{
		{"preview", func(f *fixture, ctx context.Context, opts CallOptions) error {
			_, err := f.tools.PreviewWith(ctx, f.session, "uniswap_execute_swap", swapArgs(tokA, 2_000_000), opts)
			return err
		}},
		{"read", func(f *fixture, ctx context.Context, opts CallOptions) error {
			_, err := f.tools.ReadWith(ctx, f.session, "data_get_token_balance", json.RawMessage(`{"token":"x"}`), opts)
			return err
		}},
		{"handler read", func(f *fixture, ctx context.Context, opts CallOptions) error {
			e, _ := f.session.View.Get("data_get_token_balance")
			args := mustArgs(t, `{"token":"y"}`)
			in := f.tools.input(f.session, e, args, args.Canonical(), f.tools.cfg.Now(), opts)
			_, err := in.Session.Read(ctx, "data_get_token_balance", json.RawMessage(`{"token":"y"}`))
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, fixtureOpts{})
			reviewPolicy(t, f)
			ctx := t.Context()
			err := tc.hold(f, ctx, CallOptions{Facade: "query_state"})
			var r *Refusal
			if !errors.As(err, &r) || r.Quarantine == "" {
				t.Fatalf("call = %v, want a refusal naming a quarantine item", err)
			}
			c, err := f.store.HeldCall(ctx, r.Quarantine)
			if err != nil {
				t.Fatal(err)
			}
			if c.Facade != "query_state" {
				t.Errorf("held call's facade = %q, want query_state", c.Facade)
			}
			it, err := f.tools.Quarantined(ctx, r.Quarantine)
			if err != nil || it.Facade != "query_state" {
				t.Errorf("quarantined item = %+v, %v; want facade query_state", it, err)
			}
			recs, err := f.store.Actions(ctx, store.ActionFilter{SessionID: f.session.ID, Kind: actionHeld})
			if err != nil || len(recs) != 1 {
				t.Fatalf("held records = %d, %v; want 1", len(recs), err)
			}
			var detail map[string]string
			if err := json.Unmarshal(recs[0].Detail, &detail); err != nil || detail["facade"] != "query_state" || detail["quarantine_id"] != r.Quarantine {
				t.Errorf("held record's detail = %s, want facade query_state and the item's id", recs[0].Detail)
			}
		})
	}
}

// TestCallOptionsProgress: the progress listener reaches the handler of a
// read, of a commit and of a call a handler makes, as a parameter; the
// methods without options still read it from the context.
func TestCallOptionsProgress(t *testing.T) {
	const read, swap = "data_get_token_balance:step one:0/1", "uniswap_execute_swap:step one:0/1"
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, f *fixture, p Progress)
		want []string
	}{
		{"read", func(t *testing.T, f *fixture, p Progress) {
			if _, err := f.tools.ReadWith(t.Context(), f.session, "data_get_token_balance", json.RawMessage(`{"token":"x"}`), CallOptions{Progress: p}); err != nil {
				t.Fatal(err)
			}
		}, []string{read}},
		{"preview and commit", func(t *testing.T, f *fixture, p Progress) {
			ctx := t.Context()
			pv, err := f.tools.PreviewWith(ctx, f.session, "uniswap_execute_swap", swapArgs(tokA, 1_000_000), CallOptions{Progress: p})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.tools.CommitWith(ctx, f.session, CommitRequest{PermitID: pv.PermitID}, CallOptions{Progress: p}); err != nil {
				t.Fatal(err)
			}
		}, []string{swap}},
		{"handler read", func(t *testing.T, f *fixture, p Progress) {
			e, _ := f.session.View.Get("data_get_token_balance")
			args := mustArgs(t, `{"token":"x"}`)
			in := f.tools.input(f.session, e, args, args.Canonical(), f.tools.cfg.Now(), CallOptions{Progress: p})
			if _, err := in.Session.Read(t.Context(), "data_get_token_balance", json.RawMessage(`{"token":"x"}`)); err != nil {
				t.Fatal(err)
			}
		}, []string{read}},
		{"read through the context", func(t *testing.T, f *fixture, p Progress) {
			if _, err := f.tools.Read(WithProgress(t.Context(), p), f.session, "data_get_token_balance", json.RawMessage(`{"token":"x"}`)); err != nil {
				t.Fatal(err)
			}
		}, []string{read}},
		{"commit through the context", func(t *testing.T, f *fixture, p Progress) {
			ctx := WithProgress(t.Context(), p)
			pv, err := f.tools.Preview(ctx, f.session, "uniswap_execute_swap", swapArgs(tokA, 1_000_000))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.tools.Commit(ctx, f.session, CommitRequest{PermitID: pv.PermitID}); err != nil {
				t.Fatal(err)
			}
		}, []string{swap}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, fixtureOpts{})
			var log progressLog
			tc.run(t, f, log.report)
			if got := log.got(); !slices.Equal(got, tc.want) {
				t.Errorf("progress = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestOptionsFromContext: the compatibility path reads what WithFacade
// and WithProgress put in a context, and nothing from an empty one.
func TestOptionsFromContext(t *testing.T) {
	if o := OptionsFromContext(t.Context()); o.Facade != "" || o.Progress != nil {
		t.Errorf("options of an empty context = %+v, want none", o)
	}
	var log progressLog
	ctx := WithProgress(WithFacade(t.Context(), "commit_action"), log.report)
	o := OptionsFromContext(ctx)
	if o.Facade != "commit_action" || o.Progress == nil {
		t.Fatalf("options = %+v, want facade commit_action and a listener", o)
	}
	o.Progress("t", "s", 0, 1)
	if got := log.got(); !slices.Equal(got, []string{"t:s:0/1"}) {
		t.Errorf("listener got %q", got)
	}
}
