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
// wasmAdd is the set-up of the tests that add a WASM module with the
// command line: the module built from an example, one importing what the
// host does not provide, a ward.toml holding orig, and a data directory.
type wasmAdd struct {
	dir, module, bad, cfg, data string
	orig                        []byte
}

func newWasmAdd(t *testing.T, example, orig string) *wasmAdd {
	t.Helper()
	dir := t.TempDir()
	w := &wasmAdd{dir: dir, module: filepath.Join(dir, "module.wasm"), bad: filepath.Join(dir, "bad.wasm"),
		cfg: filepath.Join(dir, "ward.toml"), data: filepath.Join(dir, "data"), orig: []byte(orig)}
	if err := wasmtest.Build(example, w.module); err != nil {
		t.Fatal(err)
	}
	if err := wasmtest.Build("../wasm/testdata/badimport", w.bad); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(w.cfg, w.orig, 0o600); err != nil {
		t.Fatal(err)
	}
	return w
}

// unchanged fails the test unless ward.toml holds want.
func (w *wasmAdd) unchanged(t *testing.T, want []byte) {
	t.Helper()
	if got, _ := os.ReadFile(w.cfg); !bytes.Equal(got, want) {
		t.Errorf("ward.toml changed:\n%s", got)
	}
}

// refused runs args and fails the test unless ward refuses saying want,
// with ward.toml as it was and no module copied.
func (w *wasmAdd) refused(t *testing.T, args []string, want string) {
	t.Helper()
	_, stderr, code := run(t, "", args...)
	if code == exitOK || !strings.Contains(stderr, want) {
		t.Fatalf("exit %d, stderr %q: want a refusal saying %q", code, stderr, want)
	}
	w.unchanged(t, w.orig)
	if _, err := os.Stat(filepath.Join(w.data, "wasm")); err == nil {
		t.Error("a module was copied")
	}
}

func TestToolsAdd(t *testing.T) {
	w := newWasmAdd(t, "../../examples/wasm-tool", "[store]\nsynchronous = \"normal\"\n")
	module, bad, cfg, data := w.module, w.bad, w.cfg, w.data
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
		t.Run(c.name, func(t *testing.T) { w.refused(t, c.args, c.want) })
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
