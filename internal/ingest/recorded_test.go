package ingest

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/capability/mint"
	ulid "github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/rollback"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
)

// TestRecordedRollback: with only source_agent, causal rollback decides
// from what ward recorded: the daily samples and the writes the gate
// tagged. A source whose knowledge influenced writes just before the
// agent's value fell, in a flat market, is rolled back; one that
// influenced nothing is kept; too short a history is refused.
func TestRecordedRollback(t *testing.T) {
	s := newRollbackScene(t)
	h := s.h
	h.p.cfg.Actions = h.st
	day0 := time.Date(2026, 10, 1, 20, 0, 0, 0, time.UTC)
	const days, firstUse = 16, 10 // samples; the source first influences a write on sample day 10
	value := 100_000.0
	for d := range days {
		// The agent gains about 0.4 % a day until the source's knowledge is
		// used, then loses about 2 % a day; ETH only wobbles.
		wobble := 0.002 * math.Sin(float64(d)*1.7)
		r := 0.004 + wobble
		if d > firstUse {
			r = -0.02 + wobble
		}
		if d > 0 {
			value *= 1 + r
		}
		v := map[string]float64{"portfolio_usd": value, "eth_usd": 3000 * (1 + 0.003*math.Cos(float64(d)*2.3)),
			"gas_gwei": 20 + float64(d%3), "tvl_usd": 5e7 * (1 + 0.001*float64(d%4))}
		if err := h.p.RecordSample(h.ctx, day0.AddDate(0, 0, d), v); err != nil {
			t.Fatal(err)
		}
	}
	tag := func(d int, id string, ins ...adopt.Influence) {
		detail, err := json.Marshal(map[string]any{"influences": ins})
		if err != nil {
			t.Fatal(err)
		}
		at := day0.AddDate(0, 0, d).Add(-2 * time.Hour)
		if err := h.st.AppendAction(h.ctx, &store.ActionRecord{ID: ulid.New(at), Time: at, Kind: store.ActionToolCall,
			PermitID: id, Tool: "uniswap_execute_swap", Status: store.StatusExecuted, Detail: detail}); err != nil {
			t.Fatal(err)
		}
	}
	other := "0x" + strings.Repeat("cd", 20)
	tag(3, "p-early", adopt.Influence{EntryID: "elsewhere", Agent: other, Provenance: knowledge.Clade})
	tag(firstUse, "p-used", adopt.Influence{EntryID: s.used, Agent: s.source, Provenance: knowledge.Purchased})
	tag(firstUse+2, "p-again", adopt.Influence{EntryID: s.used, Agent: s.source, Provenance: knowledge.Purchased})

	in, err := h.p.RecordedRollback(h.ctx, s.source, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Returns) != days-1 || len(in.Factors) != 4 || len(in.Decisions) != 3 || in.FirstUse != firstUse-1 {
		t.Fatalf("recorded input: %d returns, %d factors, %d decisions, first use %d; want %d, 4, 3, %d",
			len(in.Returns), len(in.Factors), len(in.Decisions), in.FirstUse, days-1, firstUse-1)
	}
	if in.Decisions[1].ID != "p-used" || in.Decisions[1].Day != firstUse-1 || in.Decisions[1].Used[0].EntryID != s.used {
		t.Errorf("decision %+v, want p-used on day %d", in.Decisions[1], firstUse-1)
	}
	// A source that influenced no write: its first use is the last day
	// but one, and source attribution clears it.
	if kept, err := h.p.RecordedRollback(h.ctx, "0x"+strings.Repeat("ef", 20), nil); err != nil || kept.FirstUse != len(kept.Returns)-2 {
		t.Errorf("a source that influenced nothing: first use %d (%v), want the last day but one", kept.FirstUse, err)
	}

	reg := registry.New()
	for _, tl := range Tools(h.p) {
		if err := reg.Add(tl); err != nil {
			t.Fatal(err)
		}
	}
	tl, _ := reg.Get("memory_causal_rollback")
	call := func(source string) (*RollbackReport, error) {
		raw, _ := json.Marshal(map[string]any{"source_agent": source})
		if err := tl.Validate(raw); err != nil {
			t.Fatalf("schema refuses a recorded-history call: %v", err)
		}
		args, _ := tool.ParseArgs(raw)
		rin := &registry.Input{Args: args, Raw: raw, Now: time.Now()}
		plan, err := tl.Plan(h.ctx, rin)
		if err != nil {
			return nil, err
		}
		c := mint.Capability(mint.Fields{PermitID: "p-" + source, Tool: defRollback.Name, ArgsHash: rin.Args.Hash(),
			ExpiresAt: time.Now().Add(time.Minute), ExpiryTick: rin.Tick + 10})
		res, err := tl.Write(h.ctx, rin, plan, c)
		if err != nil {
			return nil, err
		}
		var r RollbackReport
		return &r, json.Unmarshal(res.Data, &r)
	}
	never, err := call("0x" + strings.Repeat("ef", 20))
	if err != nil || never.Decision.Rollback || never.Decision.Reason != rollback.NeverUsed {
		t.Errorf("a source never used: %+v, %v; want kept as never_used", never, err)
	}
	got, err := call(s.source)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("decision: %+v", got.Decision)
	if !got.Decision.Rollback || len(got.RolledBack) != 1 || got.RolledBack[0] != s.used {
		t.Errorf("decision %+v, rolled back %v; want %s rolled back", got.Decision, got.RolledBack, s.used)
	}
}

func TestRecordedRollbackShortHistory(t *testing.T) {
	s := newRollbackScene(t)
	h := s.h
	h.p.cfg.Actions = h.st
	for d := range 3 {
		if err := h.p.RecordSample(h.ctx, time.Date(2026, 10, 1+d, 12, 0, 0, 0, time.UTC), map[string]float64{"portfolio_usd": 100 + float64(d)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := h.p.RecordedRollback(h.ctx, s.source, nil); !errors.Is(err, ErrShortSeries) {
		t.Errorf("three days of samples: %v, want ErrShortSeries", err)
	}
	h.p.cfg.Actions = nil
	for d := 3; d < 8; d++ {
		_ = h.p.RecordSample(h.ctx, time.Date(2026, 10, 1+d, 12, 0, 0, 0, time.UTC), map[string]float64{"portfolio_usd": 100 + float64(d*d%7)})
	}
	if _, err := h.p.RecordedRollback(h.ctx, s.source, nil); !errors.Is(err, ErrNoActionLog) {
		t.Errorf("without an action log: %v, want ErrNoActionLog", err)
	}
}
