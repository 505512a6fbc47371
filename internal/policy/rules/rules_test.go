package rules

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

func compile(t *testing.T, cfg Config) *policy.Snapshot {
	t.Helper()
	if cfg.Paths.Root == "" {
		cfg.Paths.Root = t.TempDir()
	}
	s, err := Compile(cfg)
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	return s
}

func eval(t *testing.T, s *policy.Snapshot, name, args string, mod ...func(*policy.Request)) policy.Decision {
	t.Helper()
	a, err := tool.ParseArgs([]byte(args))
	if err != nil {
		t.Fatal(err)
	}
	r := &policy.Request{Tool: tool.Ref{Name: name, Risk: tool.Caution}, Args: a,
		Turn: policy.Turn{ID: "t1", SessionID: "s1", Source: policy.Agent}, State: policy.NewTracker()}
	r.State.SetBalance(100_000)
	for _, m := range mod {
		m(r)
	}
	return s.Evaluate(r)
}

func TestCELRules(t *testing.T) {
	night := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	day := time.Date(2026, 11, 22, 14, 0, 0, 0, time.UTC)
	at := func(ts time.Time) func(*policy.Request) { return func(r *policy.Request) { r.Now = ts } }
	for _, tc := range []struct {
		name     string
		rule     UserRule
		tool     string
		args     string
		mod      []func(*policy.Request)
		action   policy.Action
		code     reason.Code
		stateful bool
	}{
		{
			name: "the issue's example at night",
			rule: UserRule{ID: "custom.night", Priority: 100, AppliesTo: policy.Names("transfer_credits"),
				When: `args.amount_cents > 500 && now.getHours("UTC") < 6`, Action: policy.Deny, Code: "NIGHT_LIMIT", Message: "wait"},
			tool: "transfer_credits", args: `{"to_address":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","amount_cents":800}`,
			mod: []func(*policy.Request){at(night)}, action: policy.Deny, code: "NIGHT_LIMIT",
		},
		{
			name: "the issue's example by day",
			rule: UserRule{ID: "custom.night", Priority: 100, AppliesTo: policy.Names("transfer_credits"),
				When: `args.amount_cents > 500 && now.getHours("UTC") < 6`, Action: policy.Deny, Code: "NIGHT_LIMIT"},
			tool: "transfer_credits", args: `{"to_address":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","amount_cents":800}`,
			mod: []func(*policy.Request){at(day)}, action: policy.Allow, code: reason.Allowed,
		},
		{
			name: "quarantine by category",
			rule: UserRule{ID: "custom.review", AppliesTo: policy.Categories("trading"), When: `true`, Action: policy.Quarantine, Code: "REVIEW"},
			tool: "swap", args: `{}`, mod: []func(*policy.Request){func(r *policy.Request) { r.Tool.Category = "trading" }},
			action: policy.Quarantine, code: "REVIEW",
		},
		{
			name: "missing key is an error, which denies",
			rule: UserRule{ID: "custom.strict", When: `args.venue == "x"`, Action: policy.Quarantine, Code: "X"},
			tool: "swap", args: `{}`,
			action: policy.Deny, code: reason.RuleErr,
		},
		{
			name: "has() guards an optional key",
			rule: UserRule{ID: "custom.guarded", When: `has(args.venue) && args.venue == "x"`, Action: policy.Deny, Code: "X"},
			tool: "swap", args: `{}`,
			action: policy.Allow, code: reason.Allowed,
		},
		{
			name: "a dynamic non-boolean result denies",
			rule: UserRule{ID: "custom.dyn", When: `args.flag`, Action: policy.Deny, Code: "X"},
			tool: "swap", args: `{"flag":"yes"}`,
			action: policy.Deny, code: reason.RuleErr,
		},
		{
			name: "cost limit exceeded denies",
			rule: UserRule{ID: "custom.expensive", Action: policy.Allow, Code: "FINE",
				When: `args.items.all(a, args.items.all(b, args.items.all(c, a + b + c >= 0)))`},
			tool: "swap", args: `{"items":[` + strings.TrimSuffix(strings.Repeat("1,", 60), ",") + `]}`,
			action: policy.Deny, code: reason.RuleErr,
		},
		{
			name: "cross-type numbers compare",
			rule: UserRule{ID: "custom.num", When: `args.amount > 10.5`, Action: policy.Deny, Code: "BIG"},
			tool: "swap", args: `{"amount":11}`, action: policy.Deny, code: "BIG",
		},
		{
			name: "state.spent sees executed spend",
			rule: UserRule{ID: "custom.spent", When: `state.spent("transfer", duration("1h")) >= 3000`, Action: policy.Deny, Code: "SPENT"},
			tool: "swap", args: `{}`, stateful: true,
			mod: []func(*policy.Request){func(r *policy.Request) {
				r.Now = day
				r.State.RecordSpend("transfer", 3000, day.Add(-30*time.Minute))
			}},
			action: policy.Deny, code: "SPENT",
		},
		{
			name: "state.count per turn",
			rule: UserRule{ID: "custom.count", When: `state.count("swap", "turn") >= 2`, Action: policy.Deny, Code: "TURN"},
			tool: "swap", args: `{}`, stateful: true,
			mod: []func(*policy.Request){func(r *policy.Request) {
				for range 2 {
					r.State.Record(policy.Execution{Tool: tool.Ref{Name: "swap"}, TurnID: "t1", At: time.Now()})
				}
			}},
			action: policy.Deny, code: "TURN",
		},
		{
			name: "state.count with a bad scope denies",
			rule: UserRule{ID: "custom.badscope", When: `state.count("swap", "forever") >= 2`, Action: policy.Deny, Code: "TURN"},
			tool: "swap", args: `{}`, stateful: true, action: policy.Deny, code: reason.RuleErr,
		},
		{
			name: "state.balance",
			rule: UserRule{ID: "custom.poor", When: `state.has_balance() && state.balance() < 200000`, Action: policy.Quarantine, Code: "POOR"},
			tool: "swap", args: `{}`, stateful: true, action: policy.Quarantine, code: "POOR",
		},
		{
			name: "turn and tool variables",
			rule: UserRule{ID: "custom.ctx", When: `turn.authority == "agent" && tool.risk == "caution" && tool.tier == "write"`, Action: policy.Deny, Code: "CTX"},
			tool: "swap", args: `{}`, action: policy.Deny, code: "CTX",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := Config{Rules: []UserRule{tc.rule}, DisableBuiltin: true}
			s := compile(t, cfg)
			d := eval(t, s, tc.tool, tc.args, tc.mod...)
			if d.Action() != tc.action || d.Code() != tc.code {
				t.Errorf("got %s %s (%s); want %s %s", d.Action(), d.Code(), d.Diagnostic(), tc.action, tc.code)
			}
			if tc.code == reason.RuleErr && !strings.Contains(d.Diagnostic(), "cel") {
				t.Errorf("diagnostic %q does not name the CEL failure", d.Diagnostic())
			}
			if got := s.Rules()[0].Stateful; got != tc.stateful {
				t.Errorf("stateful = %v, want %v", got, tc.stateful)
			}
		})
	}
}

func TestCELCostLimitIsConfigurable(t *testing.T) {
	rule := UserRule{ID: "custom.loop", Action: policy.Deny, Code: "X",
		When: `args.items.exists(a, args.items.exists(b, a + b < 0))`}
	args := `{"items":[` + strings.TrimSuffix(strings.Repeat("1,", 40), ",") + `]}`
	low := compile(t, Config{Rules: []UserRule{rule}, DisableBuiltin: true, CELCostLimit: 100})
	if d := eval(t, low, "x", args); d.Code() != reason.RuleErr || !strings.Contains(d.Diagnostic(), "cost") {
		t.Errorf("with a low cost limit: %s %s (%s), want a cost-limit deny", d.Action(), d.Code(), d.Diagnostic())
	}
	high := compile(t, Config{Rules: []UserRule{rule}, DisableBuiltin: true, CELCostLimit: 1_000_000})
	if d := eval(t, high, "x", args); d.Action() != policy.Allow {
		t.Errorf("with a high cost limit: %s %s (%s), want allow", d.Action(), d.Code(), d.Diagnostic())
	}
}

func TestCompileErrors(t *testing.T) {
	prio := 3
	for _, tc := range []struct {
		name string
		cfg  Config
		path string
	}{
		{"cel syntax", Config{Rules: []UserRule{{ID: "a", When: "1 +", Action: policy.Deny}}}, "rules.0.when"},
		{"cel type", Config{Rules: []UserRule{{ID: "a", When: `"x" + 1 > 0`, Action: policy.Deny}}}, "rules.0.when"},
		{"no id", Config{Rules: []UserRule{{When: "true", Action: policy.Deny}}}, "rules.0.id"},
		{"bad code", Config{Rules: []UserRule{{ID: "a", When: "true", Code: "lower"}}}, "rules.0.reason_code"},
		{"builtin collision", func() Config {
			c := DefaultConfig()
			c.Rules = []UserRule{{ID: "financial.minimum-reserve", When: "true"}}
			return c
		}(), "rules.0.id"},
		{"unknown override", Config{Builtin: map[string]Override{"no.such.rule": {Disabled: true}}}, "builtin.no.such.rule"},
		{"bad override selector", Config{Builtin: map[string]Override{"authority.dangerous-external-block": {AppliesTo: &policy.Selector{By: policy.SelectName}}}}, "builtin.authority.dangerous-external-block.applies_to"},
		{"negative treasury", func() Config { c := DefaultConfig(); c.Treasury.MaxTransferDailyCents = -1; return c }(), "treasury.max_transfer_daily_cents"},
		{"bad validation kind", func() Config {
			c := DefaultConfig()
			c.Validate = append(c.Validate, Validation{Tools: []string{"x"}, Args: []string{"y"}, Kind: "ssn"})
			return c
		}(), "validate.8.kind"},
		{"rate limit by risk", func() Config {
			c := DefaultConfig()
			c.Limits = append(c.Limits, RateLimit{ID: "r", Scope: "turn", Max: 1, Code: "R", AppliesTo: policy.Risks(tool.Safe)})
			return c
		}(), "rate_limits.2.applies_to"},
		{"override with builtins off", Config{DisableBuiltin: true, Builtin: map[string]Override{"x": {Priority: &prio}}}, "builtin"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.Paths.Root = t.TempDir()
			_, err := Compile(tc.cfg)
			var es Errors
			if !errors.As(err, &es) {
				t.Fatalf("err = %v, want Errors", err)
			}
			if !slices.ContainsFunc(es, func(e *Error) bool { return e.Path == tc.path }) {
				t.Errorf("errors %v do not include path %s", es, tc.path)
			}
		})
	}
}

func TestOverrides(t *testing.T) {
	prio := 1
	cfg := DefaultConfig()
	cfg.Builtin = map[string]Override{
		"financial.confirmation-threshold":  {Disabled: true},
		"command-safety.forbidden-patterns": {AppliesTo: ptr(policy.Names("exec", "run_shell"))},
		"validation.address":                {Priority: &prio},
	}
	s := compile(t, cfg)
	ids := map[string]policy.Rule{}
	for _, r := range s.Rules() {
		ids[r.ID] = r
	}
	if _, ok := ids["financial.confirmation-threshold"]; ok {
		t.Error("a disabled rule is still in the snapshot")
	}
	if d := eval(t, s, "run_shell", `{"command":"rm -rf /"}`); d.Code() != reason.ForbiddenCommand {
		t.Errorf("re-pointed rule: run_shell rm -rf / is %s %s", d.Action(), d.Code())
	}
	if r := s.Rules()[0]; r.ID != "validation.address" {
		t.Errorf("first rule is %s, want the re-prioritised validation.address", r.ID)
	}
	// With the confirmation threshold off and the per-payment limit raised,
	// a large transfer passes.
	cfg.Treasury.MaxTransferPerPaymentCents = 5000
	cfg.Treasury.MaxTransferHourlyCents = 50000
	s = compile(t, cfg)
	if d := eval(t, s, "transfer_credits", `{"to_address":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","amount_cents":3000}`); d.Action() != policy.Allow {
		t.Errorf("large transfer without the threshold: %s %s", d.Action(), d.Code())
	}
	cfg.Builtin = nil
	s = compile(t, cfg)
	if d := eval(t, s, "transfer_credits", `{"to_address":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","amount_cents":3000}`); d.Code() != reason.ConfirmationRequired {
		t.Errorf("large transfer with the threshold: %s %s, want quarantine", d.Action(), d.Code())
	}
}

func TestZeroConfigIsStrictest(t *testing.T) {
	s := compile(t, Config{Args: DefaultConfig().Args, Treasury: Treasury{TransferTools: []string{"transfer_credits"}}})
	if d := eval(t, s, "transfer_credits", `{"to_address":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","amount_cents":1}`); d.Action() != policy.Deny {
		t.Errorf("a 1c transfer under a zero treasury: %s %s, want deny", d.Action(), d.Code())
	}
}

func TestDisableBuiltin(t *testing.T) {
	s := compile(t, Config{DisableBuiltin: true})
	if n := len(s.Rules()); n != 0 {
		t.Errorf("%d rules with builtins off and no user rules", n)
	}
	if d := eval(t, s, "exec", `{"command":"rm -rf /"}`); d.Action() != policy.Allow {
		t.Errorf("an empty policy decided %s", d.Action())
	}
}

func TestHashStable(t *testing.T) {
	a, b := DefaultConfig(), DefaultConfig()
	if Hash(a) != Hash(b) {
		t.Error("equal configs hash differently")
	}
	b.Treasury.MinReserveCents++
	if Hash(a) == Hash(b) {
		t.Error("different configs hash the same")
	}
	a.Resolver = NewResolver()
	defer a.Resolver.Close()
	if Hash(a) != Hash(DefaultConfig()) {
		t.Error("the resolver changed the policy hash")
	}
}

func TestMatcher(t *testing.T) {
	var pats []pathPattern
	for _, src := range []string{"wallet.json", "*.pem", "id_rsa*", "*private*key*", "**/.ssh/**", "/proc/*/environ", "~/secrets/**", "*.policy.toml", "ke?.txt"} {
		p, err := compilePattern(src, "/home/u")
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		pats = append(pats, p)
	}
	m := newMatcher(pats)
	for path, want := range map[string]string{
		"/a/wallet.json":             "wallet.json",
		"/a/WALLET.JSON":             "wallet.json",
		"/a/server.PEM":              "*.pem",
		"/a/id_rsa.pub":              "id_rsa*",
		"/a/my-private_key":          "*private*key*",
		"/home/u/.ssh/config":        "**/.ssh/**",
		"/x/.ssh":                    "**/.ssh/**",
		"/proc/1/environ":            "/proc/*/environ",
		"/home/u/secrets/a/b":        "~/secrets/**",
		"/etc/ward/prod.policy.toml": "*.policy.toml",
		"/a/key.txt":                 "ke?.txt",
		"/a/notes.md":                "",
		"/a/wallet.json.bak":         "",
		"/proc/1/status":             "",
		"/home/u/secretsx/a":         "",
		"/a/privatekey/x":            "",
		"/a/sshx/.sshy":              "",
	} {
		got, _ := m.match(path)
		if got != want {
			t.Errorf("match(%s) = %q, want %q", path, got, want)
		}
	}
}

func TestWordClassCache(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Paths.Root = t.TempDir()
	b := newBuilder(cfg)
	ps := b.compilePaths()
	if len(b.errs) > 0 {
		t.Fatal(b.errs)
	}
	base := cfg.Paths.Root
	for _, tc := range []struct {
		word                 string
		protected, sensitive bool
	}{
		{"ward.db", true, false},
		{"wallet.json", true, true},
		{"notes.md", false, false},
		{"../other/.env", true, true},
		{"/proc/self/environ", false, true},
		{"", false, false},
	} {
		for range 2 { // computed, then cached
			c := ps.wordClass(base, tc.word)
			if got := c&wordProtected != 0; got != tc.protected {
				t.Errorf("%q protected = %v, want %v", tc.word, got, tc.protected)
			}
			if got := c&wordSensitive != 0; got != tc.sensitive {
				t.Errorf("%q sensitive = %v, want %v", tc.word, got, tc.sensitive)
			}
		}
	}
}

func ptr[T any](v T) *T { return &v }

func TestCleanRel(t *testing.T) {
	for p, want := range map[string]bool{
		"a": true, "a/b.txt": true, "notes/2026/x.md": true, "..x/y": true, "a/.hidden": true,
		"": false, "/a": false, "a/": false, "a//b": false, "./a": false, "a/./b": false, "a/../b": false, "..": false, ".": false,
	} {
		if got := cleanRel(p); got != want {
			t.Errorf("cleanRel(%q) = %v, want %v", p, got, want)
		}
		if want && filepath.Clean(p) != p {
			t.Errorf("cleanRel accepts %q but Clean changes it", p)
		}
	}
}

// TestBaseAlternatingWorkdirs resolves the working directories of calls
// that alternate between agents: each call gets its own directory's
// resolution (a symlinked one resolved), whether base finds it as the
// last one it returned, in its table, or not yet at all.
func TestBaseAlternatingWorkdirs(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Paths.Root = t.TempDir()
	b := newBuilder(cfg)
	ps := b.compilePaths()
	if len(b.errs) > 0 {
		t.Fatal(b.errs)
	}
	top := t.TempDir()
	real := filepath.Join(top, "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, filepath.Join(top, "link")); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"": ps.root, real: resolveDir(real), filepath.Join(top, "link"): resolveDir(real), top: resolveDir(top)}
	order := []string{real, real, filepath.Join(top, "link"), "", real, top, filepath.Join(top, "link"), top, top, "", real}
	for i, wd := range order {
		got, err := ps.base(&policy.Request{Workdir: wd})
		if err != nil {
			t.Fatalf("call %d: base(%q): %v", i, wd, err)
		}
		if got != want[wd] {
			t.Errorf("call %d: base(%q) = %q, want %q", i, wd, got, want[wd])
		}
	}
	if _, err := ps.base(&policy.Request{Workdir: "relative/dir"}); err == nil {
		t.Errorf("base of a relative workdir: no error")
	}
}
