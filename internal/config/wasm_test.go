package config

import (
	"strings"
	"testing"
)

func TestWASMTool(t *testing.T) {
	const good = `
[[wasm_tool]]
name = "intel_batch_reads"
description = "reads in one step"
category = "intelligence"
module = "tool.wasm"
sha256 = "0000000000000000000000000000000000000000000000000000000000000000"
tier = "write_request"
params_schema = '{"type":"object"}'
[wasm_tool.limits]
memory_mb = 64
cpu = "50ms"
`
	f, err := Parse("/etc/ward/ward.toml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	w := f.WASM[0]
	if w.Module != "/etc/ward/tool.wasm" || !w.WriteRequests || w.Limits.Memory != 64<<20 || w.Limits.CPU.Milliseconds() != 50 {
		t.Errorf("parsed %+v", w)
	}
	for _, c := range []struct{ name, edit, want string }{
		{"unknown field", `tier = "write_request"` + "\nexec = true", "exec"},
		{"write tier", `tier = "write_request"=>tier = "write"`, "wasm_tool.0.tier"},
		{"no tier", `tier = "write_request"=>`, "wasm_tool.0.tier"},
		{"bad pin", `sha256 = "0000000000000000000000000000000000000000000000000000000000000000"=>sha256 = "abc"`, "wasm_tool.0.sha256"},
		{"bad name", `name = "intel_batch_reads"=>name = "preview_action"`, "wasm_tool.0.name"},
		{"cpu over wall clock", `cpu = "50ms"=>cpu = "1m"`, "wasm_tool.0.limits"},
		{"no schema", `params_schema = '{"type":"object"}'=>`, "params_schema"},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc := good
			if from, to, ok := strings.Cut(c.edit, "=>"); ok {
				doc = strings.Replace(good, from, to, 1)
			} else {
				doc = strings.Replace(good, `tier = "write_request"`, c.edit, 1)
			}
			_, err := Parse("ward.toml", []byte(doc))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one about %q", err, c.want)
			}
		})
	}
}
