package arch

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/wardhq/ward/"

// The layers, lowest first. A package imports packages of strictly lower
// layers only, or of its own family (policy/rules → policy, catalog →
// catalog/aave) at its layer or below; so two families of one layer never
// import each other (see docs/architecture.md).
const (
	Vocabulary = iota // the words every layer uses: the standard library only
	Primitive         // vocabulary with one job (capabilities, the LLM client): the standard library and vocabulary
	Mechanism         // one mechanism each, independent of each other
	Store             // the store's interfaces, its backend and conformance suite
	Service           // what persists into the store or serves the flows: audit, vault, registry, auth, identity
	Tools             // the tools: the native catalogue, upstream MCP servers
	Flow              // the two flows: a tool call (gate), a knowledge entry (ingest)
	Facade            // the one package the surfaces reach the flows through
	Surface           // what clients speak: configuration, MCP, A2A, the API, the dashboard, the TUI
	Harness           // benchmarks of a running stack
	Wiring            // daemon: opens the store, wires the stack, mounts the surfaces
	Eval              // evaluations replayed through the wired stack
	CLI               // flag parsing over daemon
	Command           // cmd/ward: calls cli.Main
)

// layers assigns every package a layer, test-only packages included. A
// package missing here, or an entry for a package that no longer exists,
// fails TestLayers.
var layers = map[string]int{
	"internal/tool":       Vocabulary,
	"internal/reason":     Vocabulary,
	"internal/id":         Vocabulary,
	"internal/arch":       Vocabulary,
	"internal/taint":      Vocabulary,
	"internal/knowledge":  Vocabulary,
	"internal/event":      Vocabulary,
	"internal/testenv":    Vocabulary, // a test's missing dependency: skipped, or failed under CI
	"internal/pintest":    Vocabulary, // pins a text function's outputs over the corpora (tests only)
	"internal/sieve":      Vocabulary, // regular expressions run only on texts that hold the literals a match needs
	"internal/crashpoint": Vocabulary, // the crash test's kill points (a no-op unless built with -tags crashtest)

	"internal/capability":                Primitive,
	"internal/capability/mint":           Primitive,
	"internal/capability/internal/token": Primitive,
	"internal/llm":                       Primitive, // the one OpenAI-compatible client: the standard library and taint
	"internal/llm/llmtest":               Primitive, // replays and records exchanges with an OpenAI-compatible server
	"internal/addrbook":                  Primitive, // the shipped address book: tokens, feeds, deployments per chain

	"internal/policy":                       Mechanism,
	"internal/policy/rules":                 Mechanism,
	"internal/policy/rules/shell":           Mechanism,
	"internal/policy/rules/format":          Mechanism,
	"internal/policy/slot":                  Mechanism,
	"internal/hook":                         Mechanism,
	"internal/hook/hooktest":                Mechanism,
	"internal/hook/windowstest":             Mechanism,
	"internal/sandbox":                      Mechanism,
	"internal/egress":                       Mechanism, // the proxy to the hosts a sandboxed server may reach
	"internal/quarantine":                   Mechanism,
	"internal/validate":                     Mechanism,
	"internal/validate/ngramgen":            Mechanism, // makes validate's shipped n-gram model from the pinned English corpus
	"internal/validate/onchain":             Mechanism, // L3: the entry's claims against the address book and the chain (chain's contracts passed in)
	"internal/validate/reasoning":           Mechanism, // L2's language-model path (the Grimoire passed in as a Memory)
	"internal/embed":                        Mechanism,
	"internal/chain":                        Mechanism,
	"internal/chain/artifacts":              Mechanism,
	"internal/chain/artifacts/published":    Mechanism, // the npm packages' protocol bytecode ward chain deploy puts on a node
	"internal/chain/deploy":                 Mechanism, // ward chain deploy: the protocols, test tokens and feeds on a dev node
	"internal/chain/nodetest":               Mechanism, // starts geth --dev as a separate process for tests
	"internal/chain/simtest":                Mechanism, // mines go-ethereum's simulated chain for tests
	"internal/schema":                       Mechanism,
	"internal/trust":                        Mechanism,
	"internal/trust/screen":                 Mechanism, // reading third-party text for instructions
	"internal/trust/canon":                  Mechanism, // the canonical text of an entry every ingestion layer judges
	"internal/oracle":                       Mechanism,
	"internal/adopt":                        Mechanism, // Stage 4 adoption policy, curator and lessons
	"internal/rollback":                     Mechanism, // the causal rollback decision
	"internal/skill":                        Mechanism, // Stage 3 strategy evaluation, run in the sandbox by ingest
	"internal/grimoire/archive":             Mechanism, // Grimoire archives: hardened import
	"internal/grimoire/archive/archivetest": Mechanism,
	"internal/telemetry":                    Mechanism, // OpenTelemetry traces: the provider, span helpers and trace context
	"internal/telemetry/telemetrytest":      Mechanism, // an in-process OTLP collector for tests
	"internal/stream":                       Mechanism, // live data subscriptions: one poller per watched thing, changes published as events

	"internal/store":                 Store,
	"internal/store/sqlite":          Store,
	"internal/store/postgres":        Store,
	"internal/store/postgres/pgtest": Store,
	"internal/store/storetest":       Store,

	"internal/audit":                 Service,
	"internal/vault":                 Service,
	"internal/registry":              Service,
	"internal/registry/registrytest": Service, // registries for tests of what serves them
	"internal/identity":              Service, // the ERC-8004 identity registry (quarantine's Registry)
	"internal/identity/identitytest": Service, // a dev chain with a minimal identity registry, for tests
	"internal/auth":                  Service,
	"internal/relay":                 Service, // the NATS relay between clade members (Styx)

	"internal/catalog":                 Tools,
	"internal/catalog/internal/native": Tools, // what the protocol packages share
	"internal/catalog/aave":            Tools,
	"internal/catalog/compound":        Tools,
	"internal/catalog/morpho":          Tools,
	"internal/catalog/lido":            Tools,
	"internal/catalog/pendle":          Tools,
	"internal/catalog/yieldvault":      Tools,
	"internal/catalog/eigenlayer":      Tools,
	"internal/catalog/gmx":             Tools,
	"internal/catalog/identity":        Tools,
	"internal/catalog/permit2":         Tools,
	"internal/catalog/uniswapv4":       Tools,
	"internal/catalog/rocketpool":      Tools,
	"internal/catalog/token":           Tools,
	"internal/catalog/uniswap":         Tools,
	"internal/catalog/vault":           Tools,
	"internal/catalog/privileged":      Tools, // the owner-approved tools: gate settings and tokens, through the gate's owner operations (an interface the daemon fills)
	"internal/catalog/upstream":        Tools, // tests only: the catalog against the protocols' published contracts
	"internal/upstream":                Tools,
	"internal/upstream/upstreamtest":   Tools, // the notes server upstream's tests and daemon's front
	"internal/wasm":                    Tools, // operator-registered WebAssembly modules as read tools
	"internal/wasm/wasmtest":           Tools, // builds Go guests for tests

	"internal/gate":   Flow,
	"internal/ingest": Flow,

	"internal/facade": Facade,

	"internal/config":       Surface,
	"internal/mcp":          Surface,
	"internal/a2a":          Surface,
	"internal/api":          Surface,
	"internal/dashboard":    Surface,
	"internal/tui":          Surface,
	"internal/tui/tmuxtest": Surface, // tests only: the TUI driven in tmux against a served ward

	"internal/bench":          Harness,
	"internal/daemon":         Wiring,
	"internal/eval/agentdojo": Eval,
	"internal/eval/poisoning": Eval,
	"internal/eval/generate":  Eval,
	"internal/cli":            CLI,
	"cmd/ward":                Command,
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
func stdlibOnly(layer int) bool { return layer <= Primitive }

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
	for _, v := range mintViolations(first(scan(t))) {
		t.Error(v)
	}
	if v := mintViolations(map[string][]string{"internal/chain": {mintPkg}}); len(v) == 0 {
		t.Error("a chain package importing mint was not reported")
	}
	if v := mintViolations(map[string][]string{"internal/gate": {mintPkg}}); len(v) != 0 {
		t.Errorf("gate importing mint was reported: %v", v)
	}
}

// backendPkg and backendPkgs are the store backends; only daemon, which
// picks one, may import them: flows, surfaces and cli use the store's
// interfaces.
const backendPkg = module + "internal/store/sqlite"

var backendPkgs = map[string]bool{backendPkg: true, module + "internal/store/postgres": true}

func backendViolations(imports map[string][]string) []string {
	var out []string
	for pkg, deps := range imports {
		if pkg == "internal/daemon" || strings.HasPrefix(pkg, "internal/store") {
			continue
		}
		for _, d := range deps {
			if backendPkgs[d] {
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
	for _, v := range backendViolations(first(scan(t))) {
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

// TestLayers checks every package's imports, its tests' included, against
// the layers, and that the layer table names only packages that exist.
func TestLayers(t *testing.T) {
	code, tests := scan(t)
	for _, v := range violations(code) {
		t.Error(v)
	}
	for _, v := range testViolations(tests) {
		t.Error(v)
	}
	for pkg := range layers {
		_, hasCode := code[pkg]
		if _, hasTests := tests[pkg]; !hasCode && !hasTests {
			t.Errorf("layers names %s, which has no Go files: remove the stale entry", pkg)
		}
	}
}

// TestLayersDetects proves the check can fail: each synthetic import graph
// breaks one rule.
func TestLayersDetects(t *testing.T) {
	for name, graph := range map[string]map[string][]string{
		"upward":                 {"internal/policy": {module + "internal/gate"}},
		"mechanism families":     {"internal/policy/rules": {module + "internal/hook"}},
		"same layer, wiring":     {"internal/cli": {module + "cmd/ward"}},
		"same layer, surfaces":   {"internal/mcp": {module + "internal/api"}},
		"vocabulary third party": {"internal/tool": {"github.com/some/dep"}},
		"primitive third party":  {"internal/llm": {"github.com/some/dep"}},
		"unknown package":        {"internal/mystery": nil},
		"store to service":       {"internal/store": {module + "internal/audit"}},
		"flow to flow":           {"internal/gate": {module + "internal/ingest"}},
		"facade to surface":      {"internal/facade": {module + "internal/mcp"}},
	} {
		t.Run(name, func(t *testing.T) {
			if v := violations(graph); len(v) == 0 {
				t.Errorf("no violation reported for %v", graph)
			}
		})
	}
	if v := testViolations(map[string][]string{"internal/policy": {module + "internal/cli"}}); len(v) == 0 {
		t.Error("a test importing upward was not reported")
	}
	if v := testViolations(map[string][]string{"internal/mystery/mysterytest": nil}); len(v) == 0 {
		t.Error("a test-only package without a layer was not reported")
	}
	if v := testViolations(map[string][]string{"internal/gate": {module + "internal/store/storetest", module + "internal/gate"}}); len(v) != 0 {
		t.Errorf("a test importing its package and a test helper was reported: %v", v)
	}
	for _, pkg := range []string{"internal/upstream", "internal/identity", "internal/policy"} {
		for _, dep := range []string{"internal/daemon", "internal/ingest", "internal/facade"} {
			if v := testViolations(map[string][]string{pkg: {module + dep}}); len(v) == 0 {
				t.Errorf("a test of %s, below the flows, importing %s was not reported", pkg, dep)
			}
		}
	}
	if v := testViolations(map[string][]string{"internal/mcp": {module + "internal/daemon", module + "internal/gate"}}); len(v) != 0 {
		t.Errorf("a surface's integration test importing the stack was reported: %v", v)
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
			if v := importViolation(pkg, layer, dep); v != "" {
				out = append(out, v)
			}
		}
	}
	sort.Strings(out)
	return out
}

// importViolation says what is wrong with pkg (at layer) importing dep,
// or "" if nothing is.
func importViolation(pkg string, layer int, dep string) string {
	if !strings.HasPrefix(dep, module) {
		if stdlibOnly(layer) && strings.Contains(strings.SplitN(dep, "/", 2)[0], ".") {
			return fmt.Sprintf("%s (L%d) imports %s: vocabulary and primitives use the standard library only", pkg, layer, dep)
		}
		return ""
	}
	d := strings.TrimPrefix(dep, module)
	dl, ok := layers[d]
	switch {
	case !ok:
		return "" // reported for d itself
	case dl < layer, family(d) == family(pkg) && dl <= layer:
		return ""
	}
	return fmt.Sprintf("%s (L%d) must not import %s (L%d)", pkg, layer, d, dl)
}

// testHelpers are the packages any test may import: conformance suites
// and fixtures written to be shared.
var testHelpers = map[string]bool{
	"internal/store/storetest":              true,
	"internal/hook/hooktest":                true,
	"internal/hook/windowstest":             true,
	"internal/store/postgres/pgtest":        true,
	"internal/grimoire/archive/archivetest": true,
	"internal/telemetry/telemetrytest":      true,
	"internal/llm/llmtest":                  true,
	"internal/testenv":                      true,
	"internal/chain/simtest":                true,
	"internal/registry/registrytest":        true,
	"internal/identity/identitytest":        true,
	"internal/upstream/upstreamtest":        true,
}

// stack is what an integration test of a package at or above the flows
// may import to drive its package inside the real wired stack: daemon,
// and the packages whose types a wired stack hands out (the
// configuration, the two flows, the facade, the API). Below the flows a
// package's tests are of the package alone; a test that needs the stack
// lives in daemon, with the helpers it shares in a package's test helper
// (identity/identitytest, upstream/upstreamtest).
var stack = map[string]bool{
	"internal/daemon": true,
	"internal/config": true,
	"internal/gate":   true,
	"internal/ingest": true,
	"internal/facade": true,
	"internal/api":    true,
}

// testViolations checks the imports of each package's test files: what
// the package may import, the package itself (an external test), the
// shared test helpers and, at or above the flows, the wired stack.
// Anything else (cli, eval, a sibling mechanism, the stack below the
// flows) is a test in the wrong package.
func testViolations(imports map[string][]string) []string {
	var out []string
	for pkg, deps := range imports {
		layer, ok := layers[pkg]
		if !ok {
			// A package with code is reported by violations too; this
			// catches a package of tests only.
			out = append(out, fmt.Sprintf("test: package %s has no layer: add it to layers in internal/arch/arch_test.go", pkg))
			continue
		}
		for _, dep := range deps {
			d := strings.TrimPrefix(dep, module)
			if d == pkg || testHelpers[d] || stack[d] && layer >= Flow || !strings.HasPrefix(dep, module) {
				continue
			}
			if v := importViolation(pkg, layer, dep); v != "" {
				out = append(out, "test: "+v)
			}
		}
	}
	sort.Strings(out)
	return out
}

// flowOrBackend reports what a surface importing dep breaks, or "".
func flowOrBackend(dep string) string {
	d := strings.TrimPrefix(dep, module)
	if l, ok := layers[d]; ok && l == Flow || d == "internal/store/sqlite" {
		return d
	}
	return ""
}

// surfaceViolations: a surface imports no flow and no store backend; it
// reaches the flows through internal/facade.
func surfaceViolations(imports map[string][]string) []string {
	var out []string
	for pkg, deps := range imports {
		if layers[pkg] != Surface {
			continue
		}
		for _, dep := range deps {
			if d := flowOrBackend(dep); d != "" {
				out = append(out, fmt.Sprintf("surface %s imports %s: surfaces speak to clients and reach the flows through internal/facade", pkg, d))
			}
		}
	}
	sort.Strings(out)
	return out
}

// TestSurfacesSpeakOnly: a surface imports no flow and no store backend.
func TestSurfacesSpeakOnly(t *testing.T) {
	for _, v := range surfaceViolations(first(scan(t))) {
		t.Error(v)
	}
	for _, dep := range []string{"internal/gate", "internal/ingest", "internal/store/sqlite"} {
		if v := surfaceViolations(map[string][]string{"internal/api": {module + dep}}); len(v) == 0 {
			t.Errorf("a surface importing %s was not reported", dep)
		}
	}
	if v := surfaceViolations(map[string][]string{"internal/mcp": {module + "internal/facade"}}); len(v) != 0 {
		t.Errorf("a surface importing the facade was reported: %v", v)
	}
}

// cliFlows are the flows cli's code still imports: ingest, for the
// reports, verdicts and signer its ingestion commands read and print
// (issue 16's cli row, docs/architecture-issue16.md).
var cliFlows = map[string]bool{"internal/ingest": true}

// cliViolations: cli's code imports no other flow and not the facade;
// what its commands need of them (a what-if check's restored state, the
// facade tools a profile sees) it asks daemon for.
func cliViolations(imports map[string][]string) []string {
	var out []string
	for _, dep := range imports["internal/cli"] {
		d := strings.TrimPrefix(dep, module)
		if l, ok := layers[d]; ok && (l == Flow && !cliFlows[d] || l == Facade) {
			out = append(out, fmt.Sprintf("cli imports %s: cli parses flags and calls daemon, which wires the flows and the facade", d))
		}
	}
	sort.Strings(out)
	return out
}

// TestCLIOverDaemon: cli imports no flow (save cliFlows) and not the
// facade.
func TestCLIOverDaemon(t *testing.T) {
	for _, v := range cliViolations(first(scan(t))) {
		t.Error(v)
	}
	for _, dep := range []string{"internal/gate", "internal/facade"} {
		if v := cliViolations(map[string][]string{"internal/cli": {module + dep}}); len(v) == 0 {
			t.Errorf("cli importing %s was not reported", dep)
		}
	}
	if v := cliViolations(map[string][]string{"internal/cli": {module + "internal/daemon"}}); len(v) != 0 {
		t.Errorf("cli importing daemon was reported: %v", v)
	}
}

// scan returns the imports of every package in the module: of its
// non-test files (code) and of its test files (tests).
func scan(t *testing.T) (code, tests map[string][]string) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	code, tests = map[string][]string{}, map[string][]string{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "testdata" || name == "node_modules" || (strings.HasPrefix(name, ".") && path != root) {
				return filepath.SkipDir
			}
			// A directory with its own go.mod is another module (an
			// example guest), not a package of ward.
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		into := code
		if strings.HasSuffix(path, "_test.go") {
			into = tests
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		if _, ok := into[rel]; !ok {
			into[rel] = nil
		}
		for _, imp := range f.Imports {
			into[rel] = append(into[rel], strings.Trim(imp.Path.Value, `"`))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []map[string][]string{code, tests} {
		for k := range m {
			sort.Strings(m[k])
			m[k] = slices.Compact(m[k])
		}
	}
	if len(code) < 5 {
		t.Fatalf("found only %d packages under %s: is the test running from internal/arch?", len(code), root)
	}
	return code, tests
}

func first(code, _ map[string][]string) map[string][]string { return code }
