package config

import (
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/skill"
)

func TestWASMComponent(t *testing.T) {
	const good = `
[[grimoire.wasm_component]]
name = "vol_target"
description = "a volatility-targeted size"
kind = "sizing"
module = "vol.wasm"
sha256 = "0000000000000000000000000000000000000000000000000000000000000000"
[grimoire.wasm_component.limits]
memory_mb = 32
cpu = "50ms"

[[grimoire.wasm_component]]
name = "oversold_calm"
kind = "condition"
module = "/opt/oversold.wasm"
`
	f, err := Parse("/etc/ward/ward.toml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	cs := f.Grimoire.Components
	if len(cs) != 2 {
		t.Fatalf("components %+v", cs)
	}
	if c := cs[0]; c.Name != "vol_target" || c.Kind != skill.KindSizing || c.Module != "/etc/ward/vol.wasm" || c.Limits.Memory != 32<<20 || c.Limits.CPU.Milliseconds() != 50 || c.SHA256 == "" {
		t.Errorf("parsed %+v", c)
	}
	if c := cs[1]; c.Kind != skill.KindCondition || c.Module != "/opt/oversold.wasm" || c.SHA256 != "" {
		t.Errorf("parsed %+v", c)
	}
	for _, c := range []struct{ name, edit, want string }{
		{"unknown field", `kind = "sizing"=>kind = "sizing"` + "\nexpr = \"rsi < 30.0\"", "expr"},
		{"unknown kind", `kind = "sizing"=>kind = "action"`, "grimoire.wasm_component.0.kind"},
		{"no kind", `kind = "sizing"=>`, "grimoire.wasm_component.0.kind"},
		{"bad pin", `sha256 = "0000000000000000000000000000000000000000000000000000000000000000"=>sha256 = "abc"`, "grimoire.wasm_component.0.sha256"},
		{"bad name", `name = "vol_target"=>name = "vol target"`, "grimoire.wasm_component.0.name"},
		{"name twice", `name = "oversold_calm"=>name = "vol_target"`, "configured twice"},
		{"no module", `module = "vol.wasm"=>`, "grimoire.wasm_component.0.module"},
		{"cpu over wall clock", `cpu = "50ms"=>cpu = "1m"`, "grimoire.wasm_component.0.limits"},
		{"memory", `memory_mb = 32=>memory_mb = 0`, "memory_mb"},
	} {
		t.Run(c.name, func(t *testing.T) {
			from, to, _ := strings.Cut(c.edit, "=>")
			_, err := Parse("ward.toml", []byte(strings.Replace(good, from, to, 1)))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one about %q", err, c.want)
			}
		})
	}
}
