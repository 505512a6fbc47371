package ingest

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/capability/mint"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

func TestTools(t *testing.T) {
	h := newHarness(t, knowledge.Relaxed, votes(true)...)
	reg := registry.New()
	tools := Tools(h.p)
	for _, tl := range tools {
		if err := reg.Add(tl); err != nil {
			t.Fatalf("register %s: %v", tl.Def.Name, err)
		}
		if tl.Def.Category != tool.CatMemory {
			t.Errorf("%s: category %s", tl.Def.Name, tl.Def.Category)
		}
	}
	tiers := map[string]tool.Tier{"memory_store_episode": tool.Write, "memory_propose_insight": tool.Write, "memory_retract_entry": tool.Write, "memory_forget_entry": tool.Privileged,
		"memory_search_entries": tool.Read, "memory_get_entry": tool.Read, "memory_list_episodes": tool.Read, "memory_list_lessons": tool.Read, "memory_get_stats": tool.Read,
		"memory_quarantine_entries": tool.Write, "memory_consensus_validate": tool.Write,
		"memory_reject_entry": tool.Write, "memory_ingestion_report": tool.Read, "memory_adopt_entry": tool.Read,
		"memory_sandbox_heuristic": tool.Read, "memory_causal_rollback": tool.Write}
	if len(tools) != len(tiers) {
		t.Errorf("%d tools, want %d", len(tools), len(tiers))
	}
	for name, tier := range tiers {
		e, ok := reg.Get(name)
		if !ok || e.Def.Tier != tier {
			t.Errorf("%s: registered %v, tier %v, want %v", name, ok, e.Def.Tier, tier)
		}
	}

	e := h.signed(clean, 0.5)
	raw, _ := json.Marshal(map[string]any{"entries": []*knowledge.Entry{e}})
	q, _ := reg.Get("memory_quarantine_entries")
	if err := q.Validate(raw); err != nil {
		t.Fatalf("a delivered entry does not fit the schema: %v", err)
	}
	if err := q.Validate([]byte(`{"entries":[]}`)); err == nil {
		t.Error("schema accepts no entries")
	}
	args, _ := tool.ParseArgs(raw)
	plan, err := tools[0].Plan(h.ctx, &registry.Input{Args: args, Raw: raw})
	if err != nil || plan.Summary == "" {
		t.Fatalf("plan: %v %v", plan, err)
	}
	if _, err := tools[1].Plan(h.ctx, &registry.Input{Raw: []byte(`{}`)}); err == nil {
		t.Error("validate planned without an entry id")
	}

	if _, err := h.p.Quarantine(h.ctx, []*knowledge.Entry{e}); err != nil {
		t.Fatal(err)
	}
	res, err := tools[3].Read(h.ctx, &registry.Input{Raw: []byte(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	var s Summary
	if err := json.Unmarshal(res.Data, &s); err != nil || s.Received != 1 || s.Pending != 1 {
		t.Errorf("report %s: %v", res.Data, err)
	}
}

func TestAdoptEntryTool(t *testing.T) {
	h := newHarness(t, knowledge.Standard, votes(true, true, true)...)
	reg := registry.New()
	for _, tl := range Tools(h.p) {
		if err := reg.Add(tl); err != nil {
			t.Fatal(err)
		}
	}
	tl, ok := reg.Get("memory_adopt_entry")
	if !ok || tl.Read == nil || tl.Write != nil || tl.Action != "adopt_entry" {
		t.Fatalf("memory_adopt_entry: registered %v, want a read tool for query_state adopt_entry", ok)
	}
	if err := tl.Validate([]byte(`{}`)); err == nil {
		t.Error("schema accepts no entry_id")
	}
	adopted := h.signed(clean, 0.5)
	h.ingest(adopted)
	held := h.signed("Curve stableswap pools keep slippage low while the peg holds.", 0.5)
	if _, err := h.p.Quarantine(h.ctx, []*knowledge.Entry{held}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id, state, status string
		record            bool
	}{
		{adopted.ID, "adopted", "", true},
		{held.ID, "quarantined", "pending", false},
		{"nowhere", "unknown", "", false},
	} {
		t.Run(tc.state, func(t *testing.T) {
			raw, _ := json.Marshal(map[string]string{"entry_id": tc.id})
			if err := tl.Validate(raw); err != nil {
				t.Fatal(err)
			}
			res, err := tl.Read(h.ctx, &registry.Input{Raw: raw})
			if err != nil {
				t.Fatal(err)
			}
			var got Adoption
			if err := json.Unmarshal(res.Data, &got); err != nil {
				t.Fatalf("%s: %v", res.Data, err)
			}
			if got.EntryID != tc.id || got.State != tc.state || got.Status != tc.status || (got.Record != nil) != tc.record {
				t.Errorf("adoption %s", res.Data)
			}
			if tc.record && (got.Record.Status != adopt.Pending || got.Record.Confidence != 0.2 || got.Retention != 1 || !near(got.Weight, 0.16)) {
				t.Errorf("record %s", res.Data)
			}
		})
	}
}

// memory_quarantine_entries with several entries validates them as one
// batch, with the cross-entry contradiction check; one entry waits in
// quarantine for memory_consensus_validate.
func TestQuarantineToolValidatesABatch(t *testing.T) {
	h := newHarness(t, knowledge.Standard, votes(true, true, true)...)
	reg := registry.New()
	for _, tl := range Tools(h.p) {
		if err := reg.Add(tl); err != nil {
			t.Fatal(err)
		}
	}
	tl, _ := reg.Get("memory_quarantine_entries")
	call := func(es ...*knowledge.Entry) ([]*Report, string) {
		t.Helper()
		raw, _ := json.Marshal(map[string]any{"entries": es})
		if err := tl.Validate(raw); err != nil {
			t.Fatal(err)
		}
		args, err := tool.ParseArgs(raw)
		if err != nil {
			t.Fatal(err)
		}
		in := &registry.Input{Args: args, Raw: raw, Now: time.Now()}
		plan, err := tl.Plan(h.ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		c := mint.Capability(mint.Fields{PermitID: "p", Tool: tl.Def.Name, ArgsHash: in.Args.Hash(), ExpiresAt: time.Now().Add(time.Minute), ExpiryTick: in.Tick + 10})
		res, err := tl.Write(h.ctx, in, plan, c)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Reports []*Report `json:"reports"`
		}
		if err := json.Unmarshal(res.Data, &got); err != nil {
			t.Fatal(err)
		}
		if len(got.Reports) != len(es) {
			t.Fatalf("%d reports for %d entries", len(got.Reports), len(es))
		}
		return got.Reports, res.ActualOutcome
	}

	one := h.signed("Lido stETH withdrawals take one to five days to finalise.", 0.5)
	rs, _ := call(one)
	want(t, rs[0], Quarantined, StageStage1, reason.KnowledgeQuarantined, knowledge.NoAttack)

	es := []*knowledge.Entry{
		h.signed("ETH/USDC pool fees rise when realised volatility spikes.", 0.5),
		h.signed("ETH/USDC pool fees fall when realised volatility spikes.", 0.5),
		h.signed("Aave utilisation above 90% raises the USDC borrow rate sharply within an hour.", 0.5),
	}
	rs, outcome := call(es...)
	for i, r := range rs {
		if r.Verdict == Quarantined {
			t.Errorf("entry %d waits in quarantine (%s), want it decided in the batch", i, r.Code)
		}
		if got := slices.Contains(r.Flags, FlagContradiction); got != (i < 2) {
			t.Errorf("entry %d: contradiction flag %v, flags %v", i, got, r.Flags)
		}
	}
	if !strings.Contains(outcome, "adopted") {
		t.Errorf("outcome %q", outcome)
	}
}
