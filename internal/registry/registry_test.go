package registry

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/capability"
	"github.com/wardhq/ward/internal/tool"
)

var params = json.RawMessage(`{"type":"object","additionalProperties":false,"properties":{"amount":{"type":"string","pattern":"^[0-9]+$"}}}`)

func def(name string, cat tool.Category, tier tool.Tier, rt tool.RiskTier) *tool.Def {
	d := &tool.Def{Name: name, Description: "test tool " + name, Category: cat, Tier: tier, RiskTier: rt,
		Budget: tool.Fast, Params: params, SchemaVersion: 1}
	if tier != tool.Read {
		d.Effect = tool.EffectOpen
	}
	return d
}

func readTool(name string, cat tool.Category, action string) Tool {
	return Tool{Def: def(name, cat, tool.Read, tool.Layer1), Action: action,
		Read: func(context.Context, *Input) (*tool.Result, error) { return &tool.Result{}, nil }}
}

func writeTool(name string, cat tool.Category, rt tool.RiskTier, action, venue string) Tool {
	return Tool{Def: def(name, cat, tool.Write, rt), Action: action, Venue: venue,
		Plan: func(context.Context, *Input) (*tool.Plan, error) { return &tool.Plan{}, nil },
		Write: func(context.Context, *Input, *tool.Plan, *capability.Capability) (*tool.Result, error) {
			return &tool.Result{}, nil
		}}
}

func testRegistry(t *testing.T) *Registry {
	t.Helper()
	r := New()
	for _, tl := range []Tool{
		readTool("data_get_token_price", tool.CatData, "price"),
		readTool("uniswap_get_pool_info", tool.CatTrading, "pool"),
		readTool("intel_compute_impermanent_loss", tool.CatIntelligence, ""),
		writeTool("uniswap_execute_swap", tool.CatTrading, tool.Layer2, "swap", "uniswap_v2"),
		writeTool("uniswap_add_liquidity", tool.CatLP, tool.Layer2, "add_liquidity", "uniswap_v2"),
		writeTool("vault_deposit", tool.CatVault, tool.Layer2, "deposit", "vault"),
		writeTool("aave_borrow_asset", tool.CatLending, tool.Layer3, "borrow", "aave"),
		writeTool("testnet_fund_wallet", tool.CatTestnet, tool.Layer2, "fund", "dev"),
	} {
		if err := r.Add(tl); err != nil {
			t.Fatal(err)
		}
	}
	r.Freeze()
	return r
}

func TestAddRejects(t *testing.T) {
	good := writeTool("uniswap_execute_swap", tool.CatTrading, tool.Layer2, "swap", "v2")
	for name, tc := range map[string]Tool{
		"no def":               {},
		"bad name":             readTool("fetch_things", tool.CatData, ""),
		"read with write":      {Def: def("data_get_x_y", tool.CatData, tool.Read, tool.Layer1), Read: readTool("data_a_b", tool.CatData, "").Read, Write: good.Write},
		"write without plan":   {Def: good.Def, Write: good.Write},
		"write with read":      {Def: good.Def, Plan: good.Plan, Write: good.Write, Read: readTool("data_a_b", tool.CatData, "").Read},
		"privileged as write":  {Def: def("wallet_set_policy_limits", tool.CatWallet, tool.Privileged, tool.Layer2), Plan: good.Plan, Write: good.Write},
		"bad schema":           {Def: &tool.Def{Name: "data_get_a_b", Description: "x", Category: tool.CatData, Tier: tool.Read, RiskTier: tool.Layer1, Budget: tool.Fast, Params: json.RawMessage(`{"type":"object","properties":{"a":{"type":"nonsense"}}}`), SchemaVersion: 1}, Read: readTool("data_a_b", tool.CatData, "").Read},
		"category not 17":      {Def: def("data_get_a_b", "shell", tool.Read, tool.Layer1), Read: readTool("data_a_b", tool.CatData, "").Read},
		"write without effect": {Def: &tool.Def{Name: "vault_deposit", Description: "x", Category: tool.CatVault, Tier: tool.Write, RiskTier: tool.Layer2, Budget: tool.Slow, Params: params, SchemaVersion: 1}, Plan: good.Plan, Write: good.Write},
	} {
		t.Run(name, func(t *testing.T) {
			if err := New().Add(tc); err == nil {
				t.Errorf("Add accepted %s", name)
			}
		})
	}
	r := New()
	if err := r.Add(good); err != nil {
		t.Fatal(err)
	}
	if err := r.Add(good); err == nil {
		t.Error("duplicate name accepted")
	}
	r.Freeze()
	if err := r.Add(readTool("data_get_token_price", tool.CatData, "")); err == nil {
		t.Error("Add after Freeze accepted")
	}
}

func TestProfiles(t *testing.T) {
	r := testRegistry(t)
	for _, tc := range []struct {
		profiles string
		want     []string
		canWrite bool
	}{
		{"data", []string{"data_get_token_price"}, false},
		{"observatory", []string{"data_get_token_price", "intel_compute_impermanent_loss"}, false},
		{"trader", []string{"data_get_token_price", "uniswap_execute_swap", "uniswap_get_pool_info"}, true},
		{"trader,vault", []string{"data_get_token_price", "uniswap_execute_swap", "uniswap_get_pool_info", "vault_deposit"}, true},
		{"conservative", []string{"data_get_token_price", "uniswap_add_liquidity", "uniswap_execute_swap", "uniswap_get_pool_info"}, true},
		{"full", []string{"aave_borrow_asset", "data_get_token_price", "intel_compute_impermanent_loss", "uniswap_add_liquidity", "uniswap_execute_swap", "uniswap_get_pool_info", "vault_deposit"}, true},
		{"dev", []string{"aave_borrow_asset", "data_get_token_price", "intel_compute_impermanent_loss", "testnet_fund_wallet", "uniswap_add_liquidity", "uniswap_execute_swap", "uniswap_get_pool_info", "vault_deposit"}, true},
	} {
		t.Run(tc.profiles, func(t *testing.T) {
			ps, err := ParseProfiles(tc.profiles)
			if err != nil {
				t.Fatal(err)
			}
			v, err := r.Select(Selection{Profiles: ps, Have: []tool.Requirement{tool.NeedsWallet}})
			if err != nil {
				t.Fatal(err)
			}
			if got := v.Names(); !slices.Equal(got, tc.want) {
				t.Errorf("tools = %v, want %v", got, tc.want)
			}
			if v.CanWrite() != tc.canWrite {
				t.Errorf("CanWrite = %v, want %v", v.CanWrite(), tc.canWrite)
			}
		})
	}
	if _, err := ParseProfiles("trader,bogus"); err == nil || !strings.Contains(err.Error(), "bogus") {
		t.Errorf("unknown profile: err = %v", err)
	}
}

func TestEnableDisableAndRequirements(t *testing.T) {
	r := testRegistry(t)
	v, err := r.Select(Selection{Profiles: []string{"data"}, Enable: []string{"vault_deposit"}, Disable: []string{"data_get_token_price"}, Have: []tool.Requirement{tool.NeedsWallet}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := v.Names(), []string{"vault_deposit"}; !slices.Equal(got, want) {
		t.Errorf("tools = %v, want %v", got, want)
	}
	if _, err := r.Select(Selection{Profiles: []string{"data"}, Enable: []string{"no_such_tool"}}); err == nil {
		t.Error("enabling an unknown tool was accepted")
	}
	// A tool that needs a wallet is left out without one.
	r2 := New()
	w := writeTool("vault_deposit", tool.CatVault, tool.Layer2, "deposit", "vault")
	w.Def.Requires = []tool.Requirement{tool.NeedsWallet}
	if err := r2.Add(w); err != nil {
		t.Fatal(err)
	}
	v, err = r2.Select(Selection{Profiles: []string{"vault"}})
	if err != nil {
		t.Fatal(err)
	}
	if v.Has("vault_deposit") || v.CanWrite() {
		t.Error("a wallet tool was selected without a wallet")
	}
}

func TestAdapters(t *testing.T) {
	r := testRegistry(t)
	v, err := r.Select(Selection{Profiles: []string{"full"}, Have: []tool.Requirement{tool.NeedsWallet}})
	if err != nil {
		t.Fatal(err)
	}
	if e, ok := v.Adapter("swap", "uniswap_v2"); !ok || e.Def.Name != "uniswap_execute_swap" {
		t.Errorf("swap/uniswap_v2 → %v %v", e, ok)
	}
	if e, ok := v.Adapter("swap", ""); !ok || e.Def.Name != "uniswap_execute_swap" {
		t.Errorf("swap without venue → %v %v", e, ok)
	}
	if _, ok := v.Adapter("swap", "sushiswap"); ok {
		t.Error("unknown venue resolved")
	}
	data, _ := r.Select(Selection{Profiles: []string{"data"}, Have: []tool.Requirement{tool.NeedsWallet}})
	if _, ok := data.Adapter("swap", ""); ok {
		t.Error("the data profile resolved a swap adapter")
	}
	if len(data.Adapters(true)) != 0 {
		t.Errorf("data profile write adapters: %v", data.Adapters(true))
	}
}

func TestReadToolAndSpeculation(t *testing.T) {
	r := testRegistry(t)
	if _, ok := r.ReadTool("uniswap_execute_swap"); ok {
		t.Error("ReadTool returned a write tool")
	}
	if _, err := NewSpeculator(r, []CoOccurrence{{After: "uniswap_get_pool_info", Next: "uniswap_execute_swap", P: 0.9}}, DefaultSpeculationThreshold); err == nil {
		t.Error("speculation accepted a write tool")
	}
	s, err := NewSpeculator(r, []CoOccurrence{
		{After: "uniswap_get_pool_info", Next: "data_get_token_price", P: 0.85},
		{After: "uniswap_get_pool_info", Next: "intel_compute_impermanent_loss", P: 0.5},
	}, DefaultSpeculationThreshold)
	if err != nil {
		t.Fatal(err)
	}
	c := s.Candidates("uniswap_get_pool_info")
	if len(c) != 1 || c[0].Def().Name != "data_get_token_price" {
		t.Fatalf("candidates = %v", c)
	}
	got := Prefetch(t.Context(), c, func(ReadTool) *Input { return &Input{Step: func(int) {}} })
	if _, ok := got["data_get_token_price"]; !ok || len(got) != 1 {
		t.Errorf("prefetch = %v", got)
	}
}

func TestPrune(t *testing.T) {
	r := New()
	for i := range 20 {
		name := "data_get_thing" + string(rune('a'+i))
		if err := r.Add(readTool(name, tool.CatData, "")); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Add(readTool("uniswap_get_pool_info", tool.CatTrading, "")); err != nil {
		t.Fatal(err)
	}
	v, _ := r.Select(Selection{Profiles: []string{"full"}})
	got := Prune(v, "what is the pool price on uniswap", 0)
	if len(got) != MaxToolsPerTick {
		t.Fatalf("kept %d tools, want %d", len(got), MaxToolsPerTick)
	}
	if got[0].Name != "uniswap_get_pool_info" {
		t.Errorf("most relevant tool = %s", got[0].Name)
	}
	if again := Prune(v, "what is the pool price on uniswap", 0); !slices.Equal(names(got), names(again)) {
		t.Error("Prune is not deterministic")
	}
}

func names(ds []*tool.Def) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Name)
	}
	return out
}
