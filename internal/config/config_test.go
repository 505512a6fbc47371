package config

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/policy/rules"
)

func TestDefaultsAndOverrides(t *testing.T) {
	f, err := Parse("ward.toml", []byte(`
[policy.treasury]
max_transfer_hourly_cents = 7000
quarantine_untrusted_above_cents = 2500
x402_allowed_domains = ["*.example.com", "api.other.org"]

[[policy.tools]]
name = "exec"          # overrides the built-in declaration
category = "shell"
risk = "dangerous"

[[policy.rate_limits]]
id = "custom.swaps-per-minute"
applies_to = { by = "name", names = ["swap_tokens"] }
scope = "window"
window = "1m"
max = 3

[policy.commands]
protect = ["/srv/agent/prompts", "~/agent.py"]

[store]
path = "/var/lib/ward/ward.db"
`))
	if err != nil {
		t.Fatal(err)
	}
	d := rules.DefaultConfig()
	got := f.Policy.Treasury
	if got.MaxTransferHourlyCents != 7000 || got.MaxTransferDailyCents != d.Treasury.MaxTransferDailyCents {
		t.Errorf("treasury hourly %d daily %d: want the override 7000 and the default %d", got.MaxTransferHourlyCents, got.MaxTransferDailyCents, d.Treasury.MaxTransferDailyCents)
	}
	if got.QuarantineUntrustedAboveCents != 2500 || d.Treasury.QuarantineUntrustedAboveCents != 10000 {
		t.Errorf("quarantine_untrusted_above_cents %d (default %d): want the override 2500 and the default 10000",
			got.QuarantineUntrustedAboveCents, d.Treasury.QuarantineUntrustedAboveCents)
	}
	if len(got.X402AllowedDomains) != 2 {
		t.Errorf("domains %v: a list replaces the default", got.X402AllowedDomains)
	}
	if n := len(f.Policy.Tools); n != len(d.Tools) {
		t.Errorf("declaring exec again gave %d tools, want %d (replaced, not added)", n, len(d.Tools))
	}
	if n := len(f.Policy.Limits); n != len(d.Limits)+1 {
		t.Errorf("%d rate limits, want the %d defaults plus one", n, len(d.Limits))
	}
	if p := f.Policy.Commands.Protect; len(p) != 2 || p[0] != "/srv/agent/prompts" || p[1] != "~/agent.py" {
		t.Errorf("commands.protect = %q", p)
	}
	if f.Store.Path != "/var/lib/ward/ward.db" || f.Store.Synchronous != "full" {
		t.Errorf("store %+v", f.Store)
	}
	if f.Snapshot == nil {
		t.Fatal("no snapshot")
	}
	empty, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if empty.Snapshot.Hash() == f.Snapshot.Hash() {
		t.Error("different policies have the same hash")
	}
	again, _ := Default()
	if empty.Snapshot.Hash() != again.Snapshot.Hash() {
		t.Error("the same policy hashes differently")
	}
}

func TestExampleFileIsValid(t *testing.T) {
	data, err := os.ReadFile("../../examples/ward.toml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse("examples/ward.toml", data); err != nil {
		t.Fatalf("the shipped example does not lint: %v", err)
	}
}

func TestLintPositions(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		want []string // "line:col key-fragment message-fragment"
	}{
		{
			name: "syntax error",
			src:  "[policy]\nbuiltin_rules = tru\n",
			want: []string{"2:17"},
		},
		{
			name: "unknown key",
			src:  "[policy.treasury]\nmax_transfer_hourly = 5\n",
			want: []string{"2:1 policy.treasury.max_transfer_hourly unknown key"},
		},
		{
			name: "two unknown keys",
			src:  "[policy]\nbuiltin_rule = true\n[policy.paths]\nrot = \"/x\"\n",
			want: []string{"2:1 policy.builtin_rule unknown key", "4:1 policy.paths.rot unknown key"},
		},
		{
			name: "wrong type",
			src:  "[policy.treasury]\nmax_transfer_daily_cents = \"lots\"\n",
			want: []string{"2:"},
		},
		{
			name: "negative limit",
			src:  "[policy.treasury]\n\nmin_reserve_cents = -5\n",
			want: []string{"3:21 policy.treasury.min_reserve_cents must not be negative"},
		},
		{
			name: "bad domain pattern",
			src:  "[policy.treasury]\nx402_allowed_domains = [\"ok.com\", \"*.*.bad\"]\n",
			want: []string{"2:35 policy.treasury.x402_allowed_domains.1"},
		},
		{
			name: "bad action in the second rule",
			src: `[[policy.rules]]
id = "a"
when = "true"
action = "deny"

[[policy.rules]]
id = "b"
when = "true"
action = "block"
`,
			want: []string{"9:10 policy.rules.1.action unknown action"},
		},
		{
			name: "CEL syntax error points into the expression",
			src:  "[[policy.rules]]\nid = \"x\"\naction = \"deny\"\nwhen = 'args.amount_cents >'\n",
			want: []string{"4:"},
		},
		{
			name: "CEL undeclared variable",
			src:  "[[policy.rules]]\nid = \"x\"\naction = \"deny\"\nwhen = 'balance > 10'\n",
			want: []string{"4:9 policy.rules.0.when undeclared reference"},
		},
		{
			name: "CEL non-boolean condition",
			src:  "[[policy.rules]]\nid = \"x\"\naction = \"deny\"\nwhen = '1 + 2'\n",
			want: []string{"4:8 policy.rules.0.when must be a boolean"},
		},
		{
			name: "duplicate rule id and a builtin id",
			src:  "[[policy.rules]]\nid = \"authority.dangerous-external-block\"\naction = \"deny\"\nwhen = 'true'\n",
			want: []string{"2:6 policy.rules.0.id duplicate rule id"},
		},
		{
			name: "invalid reason code",
			src:  "[[policy.rules]]\nid = \"x\"\naction = \"deny\"\nwhen = 'true'\nreason_code = \"not ok\"\n",
			want: []string{"5:15 policy.rules.0.reason_code invalid reason code"},
		},
		{
			name: "selector mismatch in an inline table",
			src:  "[[policy.rules]]\nid = \"x\"\naction = \"deny\"\nwhen = 'true'\napplies_to = { by = \"risk\", levels = [\"safe\", \"scary\"] }\n",
			want: []string{"5:47 policy.rules.0.applies_to.levels.1 unknown risk level"},
		},
		{
			name: "override of a rule that does not exist",
			src:  "[policy.builtin.\"financial.no-such-rule\"]\nenabled = false\n",
			want: []string{"1:2 policy.builtin.financial.no-such-rule no built-in rule"},
		},
		{
			name: "rate limit without max, index counted from the file",
			src:  "[[policy.rate_limits]]\nid = \"r\"\nscope = \"turn\"\n",
			want: []string{"1:3 policy.rate_limits.0.max a rate limit needs max"},
		},
		{
			name: "bad window",
			src:  "[[policy.rate_limits]]\nid = \"r\"\nscope = \"window\"\nwindow = \"forever\"\nmax = 1\n",
			want: []string{"4:10 policy.rate_limits.0.window invalid duration"},
		},
		{
			name: "invalid forbidden pattern",
			src:  "[policy.commands]\nforbidden_patterns = [\"(unclosed\"]\n",
			want: []string{"2:23 policy.commands.forbidden_patterns.0 invalid regular expression"},
		},
		{
			name: "empty protected path",
			src:  "[policy.commands]\nprotect = [\"prompts\", \"\"]\n",
			want: []string{"2:23 policy.commands.protect.1 empty path"},
		},
		{
			name: "relative root",
			src:  "[policy.paths]\nroot = \"srv/agent\"\n",
			want: []string{"2:8 policy.paths.root must be an absolute path"},
		},
		{
			name: "store synchronous",
			src:  "[store]\nsynchronous = \"sometimes\"\n",
			want: []string{"2:15 store.synchronous"},
		},
		{
			name: "store url not postgres",
			src:  "[store]\nurl = \"mysql://db/ward\"\n",
			want: []string{"store.url: scheme \"mysql\""},
		},
		{
			name: "store url without host",
			src:  "[store]\nurl = \"postgres:///ward\"\n",
			want: []string{"store.url: names no host"},
		},
		{
			name: "relay without key or clade",
			src:  "[relay]\nurls = [\"http://x:4222\"]\n",
			want: []string{"relay: needs key_file", "relay: needs [grimoire] clade", "relay.urls: entry 1"},
		},
		{
			name: "relay listen with urls",
			src:  "[grimoire]\nclade = \"c\"\n[relay]\nurls = [\"nats://x:4222\"]\nlisten = \"127.0.0.1:4300\"\nkey_file = \"k\"\nreplicas = 9\n",
			want: []string{"relay.listen: is for the embedded server", "relay.replicas: want 1 to 5"},
		},
		{
			name: "relay max bytes out of range",
			src:  "[grimoire]\nclade = \"c\"\n[relay]\nkey_file = \"k\"\nmax_bytes = 1000\n",
			want: []string{"relay.max_bytes: 1000: want 1048576 (1 MiB)"},
		},
		{
			name: "tool without risk",
			src:  "[[policy.tools]]\nname = \"x\"\n",
			want: []string{"policy.tools.0.risk"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("w.toml", []byte(tc.src))
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v, want *config.Error", err)
			}
			if len(ce.Diags) < len(tc.want) {
				t.Fatalf("got %d diagnostics (%v), want %d", len(ce.Diags), ce, len(tc.want))
			}
			for i, w := range tc.want {
				got := ce.Diags[i].String()
				for _, frag := range strings.Fields(w) {
					if !strings.Contains(got, strings.TrimSpace(frag)) {
						t.Errorf("diagnostic %d = %q; want it to contain %q (all: %v)", i, got, frag, ce)
					}
				}
				if ce.Diags[i].Line == 0 {
					t.Errorf("diagnostic %q has no line", got)
				}
			}
		})
	}
}
