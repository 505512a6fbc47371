package registry

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/capability"
	"github.com/wardhq/ward/internal/schema"
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

// TestRefusedSchema: among good tools, one whose parameter schema does
// not compile is refused alone, named with the place in its schema, and
// the others register, select and validate as usual.
func TestRefusedSchema(t *testing.T) {
	r := New()
	bad := readTool("data_get_bad_ref", tool.CatData, "bad")
	bad.Def.Params = json.RawMessage(`{"type":"object","properties":{"to":{"$ref":"#/$defs/address"}},"$defs":{"addr":{"type":"string"}}}`)
	withDefs := readTool("data_get_with_defs", tool.CatData, "defs")
	withDefs.Def.Params = json.RawMessage(`{"type":"object","required":["to"],"properties":{"to":{"$ref":"#/$defs/address","description":"Recipient"}},"$defs":{"address":{"anyOf":[{"$ref":"#/$defs/hex"},{"type":"null"}]},"hex":{"type":"string","pattern":"^0x[0-9a-f]+$"}}}`)
	for _, tl := range []Tool{readTool("data_get_token_price", tool.CatData, "price"), bad, withDefs,
		writeTool("uniswap_execute_swap", tool.CatTrading, tool.Layer2, "swap", "uniswap_v2")} {
		if err := r.Add(tl); err != nil {
			t.Fatalf("Add(%s): %v", tl.Def.Name, err)
		}
	}
	if err := r.Add(readTool("data_get_bad_ref", tool.CatData, "")); err == nil {
		t.Error("a refused tool's name was registered again")
	}
	r.Freeze()

	refused := r.Refused()
	if len(refused) != 1 || refused[0].Name != "data_get_bad_ref" {
		t.Fatalf("Refused = %+v, want data_get_bad_ref alone", refused)
	}
	var ce *schema.CompileError
	if err := refused[0].Err; !errors.As(err, &ce) || ce.Path != "/properties/to/$ref" ||
		!strings.Contains(err.Error(), "data_get_bad_ref") || !strings.Contains(err.Error(), "/properties/to/$ref") {
		t.Errorf("refusal %v: want it to name the tool and /properties/to/$ref", err)
	}
	if _, ok := r.Get("data_get_bad_ref"); ok {
		t.Error("the refused tool is registered")
	}
	v, err := r.Select(Selection{Profiles: []string{"full"}, Enable: []string{"data_get_bad_ref"}})
	if err != nil {
		t.Fatalf("Select enabling the refused tool: %v", err)
	}
	if got, want := v.Names(), []string{"data_get_token_price", "data_get_with_defs", "uniswap_execute_swap"}; !slices.Equal(got, want) {
		t.Errorf("tools = %v, want %v", got, want)
	}
	e, _ := r.Get("data_get_with_defs")
	if err := e.Validate(json.RawMessage(`{"to":"0xab"}`)); err != nil {
		t.Errorf("valid arguments through $defs: %v", err)
	}
	if err := e.Validate(json.RawMessage(`{"to":"ab"}`)); err == nil || !strings.Contains(err.Error(), "/to: must match the pattern") {
		t.Errorf("invalid arguments through $defs: %v, want a pattern error at /to", err)
	}
	if ps := e.Schema().Params(); len(ps) != 1 || ps[0].Type != "string" || !ps[0].Nullable || ps[0].Description != "Recipient" || !ps[0].Required {
		t.Errorf("Params = %+v", ps)
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
