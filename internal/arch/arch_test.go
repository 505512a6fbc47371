package arch

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/wardhq/ward/"

// layers assigns every package directory under internal/ (by its first
// path elements) a layer. Imports go to strictly lower layers, with two
// kinds of exception: a package may import its own subpackages' parent
// family (policy/rules → policy, store/sqlite → store), and the L2 packages
// other than store may import store, the lowest L2 package (see
// docs/architecture.md).
var layers = map[string]float64{
	// L0 vocabulary: standard library only.
	"internal/tool":      0,
	"internal/reason":    0,
	"internal/id":        0,
	"internal/arch":      0,
	"internal/taint":     0,
	"internal/knowledge": 0,
	"internal/event":     0,
	// Capabilities: vocabulary that L1 mechanisms (chain's wallet) may
	// require; standard library only like L0.
	"internal/capability":                0.5,
	"internal/capability/mint":           0.5,
	"internal/capability/internal/token": 0.5,
	// The one OpenAI-compatible model client (chat and embeddings): the
	// standard library and taint only, below every mechanism that calls a
	// model (trust, skill, embed, ingest).
	"internal/llm": 0.5,
	// L1 mechanisms: never import each other.
	"internal/policy":              1,
	"internal/policy/rules":        1,
	"internal/policy/rules/shell":  1,
	"internal/policy/rules/format": 1,
	"internal/hook":                1,
	"internal/sandbox":             1,
	"internal/quarantine":          1,
	"internal/validate":            1,
	"internal/embed":               1,
	"internal/chain":               1,
	"internal/chain/artifacts":     1,
	"internal/schema":              1,
	"internal/hook/hooktest":       1,
	"internal/hook/windowstest":    1,
	"internal/trust":               1,
	"internal/trust/screen":        1, // reading third-party text for instructions: the standard library and x/text
	"internal/oracle":              1,
	"internal/adopt":               1, // Stage 4 adoption policy, curator and lessons: knowledge only
	"internal/rollback":            1, // causal rollback decision: standard library only
	"internal/skill":               1, // Stage 3 strategy evaluation: knowledge and cel-go; run in the sandbox by ingest

	// Grimoire archives (L1): the standard library and knowledge only.
	"internal/grimoire/archive":             1,
	"internal/grimoire/archive/archivetest": 1,
	// L2 stores and registries; store is the lowest of them.
	"internal/store":                   2,
	"internal/store/sqlite":            2,
	"internal/store/storetest":         2,
	"internal/audit":                   2.5,
	"internal/vault":                   2.5,
	"internal/registry":                2.5,
	"internal/identity":                2.5, // the ERC-8004 identity registry: above quarantine, whose Registry it implements
	"internal/auth":                    2.5,
	"internal/catalog":                 2.7,  // the native tools: above registry, whose types they use
	"internal/catalog/internal/native": 2.6,  // what every native tool shares: env, makers, schemas, arguments, planning
	"internal/catalog/aave":            2.65, // the protocol tools, assembled by catalog
	"internal/catalog/token":           2.65,
	"internal/catalog/uniswap":         2.65,
	"internal/catalog/vault":           2.65,
	"internal/upstream":                2.7, // upstream MCP servers' tools: above registry, like catalog
	"internal/grimoire":                2.5,
	// L3 the flows.
	"internal/gate":   3,
	"internal/ingest": 3,
	// L4 surfaces.
	"internal/config":    4,
	"internal/mcp":       4,
	"internal/a2a":       4,
	"internal/api":       4,
	"internal/dashboard": 4,
	"internal/tui":       4,
	// L5 wiring.
	"internal/bench":          4.5,
	"internal/cli":            5,
	"internal/daemon":         4.9,  // wiring the CLI starts
	"internal/eval/agentdojo": 4.95, // replays a benchmark through the daemon's stack
	"internal/eval/poisoning": 4.95, // scores knowledge ingestion on memory-poisoning data
	"internal/eval/generate":  4.97, // synthetic poisoned entries and the regression gate: above eval/poisoning, which scores them
	"cmd/ward":                6,
}

// family returns the mechanism family of an L1/L2 package: policy,
// policy/rules/shell → policy; store/sqlite → store.
func family(pkg string) string {
	p := strings.TrimPrefix(pkg, "internal/")
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return p
}

// stdlibOnly packages may import nothing outside the standard library.
func stdlibOnly(layer float64) bool { return layer < 1 }

// minters are the only packages whose non-test code may import the
// capability minting package.
var minters = map[string]bool{"internal/gate": true, "internal/daemon": true}

const mintPkg = module + "internal/capability/mint"

func mintViolations(imports map[string][]string) []string {
	var out []string
	for pkg, deps := range imports {
		if minters[pkg] || strings.HasPrefix(pkg, "internal/capability") {
			continue
		}
		for _, d := range deps {
			if d == mintPkg {
				out = append(out, fmt.Sprintf("%s imports %s: only gate and daemon may mint capabilities", pkg, d))
			}
		}
	}
	sort.Strings(out)
	return out
}

// TestOnlySafetyLayerMints fails the build when code outside the safety
// layer can mint a capability.
func TestOnlySafetyLayerMints(t *testing.T) {
	for _, v := range mintViolations(scan(t)) {
		t.Error(v)
	}
	if v := mintViolations(map[string][]string{"internal/chain": {mintPkg}}); len(v) == 0 {
		t.Error("a chain package importing mint was not reported")
	}
	if v := mintViolations(map[string][]string{"internal/gate": {mintPkg}}); len(v) != 0 {
		t.Errorf("gate importing mint was reported: %v", v)
	}
}

// backendPkg is the store backend; only daemon, which picks it, may
// import it: flows, surfaces and cli use the store's interfaces.
const backendPkg = module + "internal/store/sqlite"

func backendViolations(imports map[string][]string) []string {
	var out []string
	for pkg, deps := range imports {
		if pkg == "internal/daemon" || strings.HasPrefix(pkg, "internal/store") {
			continue
		}
		for _, d := range deps {
			if d == backendPkg {
				out = append(out, fmt.Sprintf("%s imports %s: only daemon opens the store backend (daemon.OpenStore)", pkg, d))
			}
		}
	}
	sort.Strings(out)
	return out
}

// TestOnlyDaemonImportsBackend fails the build when code outside daemon
// names the store backend.
func TestOnlyDaemonImportsBackend(t *testing.T) {
	for _, v := range backendViolations(scan(t)) {
		t.Error(v)
	}
	for _, pkg := range []string{"internal/ingest", "internal/cli"} {
		if v := backendViolations(map[string][]string{pkg: {backendPkg}}); len(v) == 0 {
			t.Errorf("%s importing the backend was not reported", pkg)
		}
	}
	if v := backendViolations(map[string][]string{"internal/daemon": {backendPkg}}); len(v) != 0 {
		t.Errorf("daemon importing the backend was reported: %v", v)
	}
}

func TestLayers(t *testing.T) {
	for _, v := range violations(scan(t)) {
		t.Error(v)
	}
}

// TestLayersDetects proves the check can fail: each synthetic import graph
// breaks one rule.
func TestLayersDetects(t *testing.T) {
	for name, graph := range map[string]map[string][]string{
		"upward":          {"internal/policy": {module + "internal/gate"}},
		"l1 to l1":        {"internal/policy/rules": {module + "internal/hook"}},
		"same layer l5":   {"internal/cli": {module + "cmd/ward"}},
		"l0 third party":  {"internal/tool": {"github.com/some/dep"}},
		"unknown package": {"internal/mystery": nil},
		"l2 to audit":     {"internal/store": {module + "internal/audit"}},
	} {
		t.Run(name, func(t *testing.T) {
			if v := violations(graph); len(v) == 0 {
				t.Errorf("no violation reported for %v", graph)
			}
		})
	}
}

func violations(imports map[string][]string) []string {
	var out []string
	for pkg, deps := range imports {
		layer, ok := layers[pkg]
		if !ok {
			out = append(out, fmt.Sprintf("package %s has no layer: add it to layers in internal/arch/arch_test.go (and to docs/architecture.md)", pkg))
			continue
		}
		for _, dep := range deps {
			if !strings.HasPrefix(dep, module) {
				if stdlibOnly(layer) && strings.Contains(strings.SplitN(dep, "/", 2)[0], ".") {
					out = append(out, fmt.Sprintf("%s (L0) imports %s: vocabulary packages use the standard library only", pkg, dep))
				}
				continue
			}
			d := strings.TrimPrefix(dep, module)
			dl, ok := layers[d]
			if !ok {
				continue // reported for d itself
			}
			switch {
			case dl < layer && !(layer >= 1 && layer < 2 && dl >= 1 && family(d) != family(pkg)):
				// Downward, and not one L1 family importing another.
			case family(d) == family(pkg) && layer < 3:
				// Within one mechanism family (policy/rules → policy).
			default:
				out = append(out, fmt.Sprintf("%s (L%g) must not import %s (L%g)", pkg, layer, d, dl))
			}
		}
	}
	sort.Strings(out)
	return out
}

func TestL1FamiliesIndependent(t *testing.T) {
	// Spelled out because it is the rule most easily broken by accident.
	imports := scan(t)
	for pkg, deps := range imports {
		if l := layers[pkg]; l < 1 || l >= 2 {
			continue
		}
		for _, dep := range deps {
			d := strings.TrimPrefix(dep, module)
			if dl, ok := layers[d]; ok && dl >= 1 && dl < 2 && family(d) != family(pkg) {
				t.Errorf("L1 mechanism %s imports L1 mechanism %s", pkg, d)
			}
		}
	}
}

// scan returns the non-test imports of every package in the module.
func scan(t *testing.T) map[string][]string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "testdata" || name == "node_modules" || (strings.HasPrefix(name, ".") && path != root) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		if _, ok := out[rel]; !ok {
			out[rel] = nil
		}
		for _, imp := range f.Imports {
			out[rel] = append(out[rel], strings.Trim(imp.Path.Value, `"`))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for k := range out {
		sort.Strings(out[k])
	}
	if len(out) < 5 {
		t.Fatalf("found only %d packages under %s: is the test running from internal/arch?", len(out), root)
	}
	return out
}
