package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/wasm"
	"github.com/wardhq/ward/internal/wasm/wasmtest"
)

// TestToolsAdd: a bad module or a bad definition changes nothing; a good
// one is copied by its hash and its pinned table appended, and the file
// loads with it.
func TestToolsAdd(t *testing.T) {
	dir := t.TempDir()
	module := filepath.Join(dir, "tool.wasm")
	if err := wasmtest.Build("../../examples/wasm-tool", module); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.wasm")
	if err := wasmtest.Build("../wasm/testdata/badimport", bad); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "ward.toml")
	orig := []byte("[store]\nsynchronous = \"normal\"\n")
	if err := os.WriteFile(cfg, orig, 0o600); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	flags := func(file, name, params string) []string {
		return []string{"tools", "add", file, "--name", name, "--description", "reads in one step", "--category", "intelligence",
			"--tier", "write_request", "--params", params, "--data", data, "--config", cfg}
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown import", flags(bad, "intel_batch_reads", `{"type":"object"}`), "does not provide"},
		{"not a module", flags(cfg, "intel_batch_reads", `{"type":"object"}`), "compile"},
		{"bad name", flags(module, "Batch", `{"type":"object"}`), "name"},
		{"native name", flags(module, "data_get_chain_info", `{"type":"object"}`), "native tool"},
		{"bad schema", flags(module, "intel_batch_reads", `{"type":`), "params_schema"},
		{"no description", append(flags(module, "intel_batch_reads", `{"type":"object"}`), "--description", ""), "description"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, stderr, code := run(t, "", c.args...)
			if code == exitOK || !strings.Contains(stderr, c.want) {
				t.Fatalf("exit %d, stderr %q: want a refusal saying %q", code, stderr, c.want)
			}
			if got, _ := os.ReadFile(cfg); !bytes.Equal(got, orig) {
				t.Errorf("ward.toml changed:\n%s", got)
			}
			if _, err := os.Stat(filepath.Join(data, "wasm")); err == nil {
				t.Error("a module was copied")
			}
		})
	}
	if _, stderr, code := run(t, "", flags(module, "intel_batch_reads", `{"type":"object"}`)...); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, _ := os.ReadFile(module)
	copied := filepath.Join(data, "wasm", wasm.Sum(b)+".wasm")
	if got, err := os.ReadFile(copied); err != nil || !bytes.Equal(got, b) {
		t.Fatalf("copy %s: %v", copied, err)
	}
	f, err := config.Load(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.WASM) != 1 || f.WASM[0].Module != copied || f.WASM[0].SHA256 != wasm.Sum(b) || !f.WASM[0].WriteRequests {
		t.Errorf("[[wasm_tool]] = %+v", f.WASM)
	}
	// The same name again: the configuration refuses the duplicate.
	if _, _, code := run(t, "", flags(module, "intel_batch_reads", `{"type":"object"}`)...); code == exitOK {
		t.Error("a second tool of the same name was added")
	}
}
