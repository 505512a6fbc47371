package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/skill"
	"github.com/wardhq/ward/internal/wasm"
)

// TestComponentAdd: a missing file, a wrong pin, an unknown kind, a name
// clash, a module the host cannot serve: each refused with its reason,
// nothing changed; a good one is copied by its hash and its pinned table
// appended, and the file loads with it.
func TestComponentAdd(t *testing.T) {
	w := newWasmAdd(t, "../../examples/wasm-component", "[grimoire]\nstrictness = \"strict\"\n")
	dir, module, bad, cfg, data := w.dir, w.module, w.bad, w.cfg, w.data
	add := func(file, name, kind string, extra ...string) []string {
		return append([]string{"grimoire", "component", "add", file, "--name", name, "--kind", kind, "--data", data, "--config", cfg}, extra...)
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"missing file", add(filepath.Join(dir, "absent.wasm"), "vol_target", "sizing"), "no such file"},
		{"wrong pin", add(module, "vol_target", "sizing", "--sha256", strings.Repeat("0", 64)), "does not match its sha256 pin"},
		{"unknown kind", add(module, "vol_target", "action"), `--kind must be "condition" or "sizing"`},
		{"no kind", add(module, "vol_target", ""), "--kind"},
		{"bad name", add(module, "vol target", "sizing"), "--name"},
		{"built-in name", add(module, "rsi_oversold", "condition"), "already holds a component of that name"},
		{"unknown import", add(bad, "vol_target", "sizing"), "does not provide"},
		{"not a module", add(cfg, "vol_target", "sizing"), "compile"},
	} {
		t.Run(c.name, func(t *testing.T) { w.refused(t, c.args, c.want) })
	}
	b, _ := os.ReadFile(module)
	if _, stderr, code := run(t, "", add(module, "vol_target", "sizing", "--sha256", wasm.Sum(b), "--description", "a volatility-targeted size")...); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, stderr, code := run(t, "", add(module, "oversold_calm", "condition")...); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	copied := filepath.Join(data, "wasm", wasm.Sum(b)+".wasm")
	if got, err := os.ReadFile(copied); err != nil || !bytes.Equal(got, b) {
		t.Fatalf("copy %s: %v", copied, err)
	}
	f, err := config.Load(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cs := f.Grimoire.Components
	if len(cs) != 2 || cs[0].Name != "vol_target" || cs[0].Kind != skill.KindSizing || cs[0].Module != copied || cs[0].SHA256 != wasm.Sum(b) ||
		cs[0].Description != "a volatility-targeted size" || cs[1].Kind != skill.KindCondition {
		t.Errorf("[[grimoire.wasm_component]] = %+v", cs)
	}
	if f.Grimoire.Strictness.String() != "strict" {
		t.Errorf("the [grimoire] table around it changed: %+v", f.Grimoire)
	}
	// The same name again: the configuration refuses the duplicate.
	before, _ := os.ReadFile(cfg)
	if _, stderr, code := run(t, "", add(module, "vol_target", "condition")...); code == exitOK || !strings.Contains(stderr, "configured twice") {
		t.Errorf("a second component of the same name: exit %d, %s", code, stderr)
	}
	w.unchanged(t, before)
}
