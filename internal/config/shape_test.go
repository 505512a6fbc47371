package config

import (
	"errors"
	"regexp"
	"strings"
	"testing"
)

// TestConfigErrorsInUserWords: every problem of a bad file is reported in
// one run, each with its key path, line and column, what was expected and
// what was found, and no Go type names.
func TestConfigErrorsInUserWords(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		want       []string // every line of the error, in order
	}{
		{"duration given as an integer", "[gate]\npermit_ttl = 300\n",
			[]string{`ward.toml:2:14: gate.permit_ttl: expected a duration like "5m", found the integer 300`}},
		{"dotted key at the root", "gate.tick_period = 30\n",
			[]string{`ward.toml:1:20: gate.tick_period: expected a duration like "5m", found the integer 30`}},
		{"several problems at once", "[gate]\npermit_ttl = 300\nquarantine_tl = \"1h\"\n\n[policy]\nbuiltin_rules = \"no\"\n\n[hooks.spending]\ndaily_usd = \"lots\"\n",
			[]string{
				`ward.toml:2:14: gate.permit_ttl: expected a duration like "5m", found the integer 300`,
				`ward.toml:3:1: gate.quarantine_tl: unknown key; did you mean "quarantine_ttl"?`,
				`ward.toml:6:17: policy.builtin_rules: expected true or false, found the string "no"`,
				`ward.toml:9:13: hooks.spending.daily_usd: expected a number, found the string "lots"`,
			}},
		{"unknown table", "[gaet]\npermit_ttl = \"3m\"\n",
			[]string{`ward.toml:1:2: gaet: unknown key; did you mean "gate"?`}},
		{"unknown key far from any", "[gate]\nfrobnicate = 1\n",
			[]string{`ward.toml:2:1: gate.frobnicate: unknown key`}},
		{"a table given a value", "gate = 5\n",
			[]string{`ward.toml:1:8: gate: expected a table, found the integer 5`}},
		{"a table given a list of tables", "[[gate]]\npermit_ttl = \"3m\"\n",
			[]string{`ward.toml:1:3: gate: expected a table, found a list of tables ([[...]])`}},
		{"a list element", "[tools]\nenable = [\"a\", 3]\n",
			[]string{`ward.toml:2:16: tools.enable.1: expected a string, found the integer 3`}},
		{"a list given a string", "[tools]\nenable = \"a\"\n",
			[]string{`ward.toml:2:10: tools.enable: expected a list of strings, found the string "a"`}},
		{"inline tables", "hooks = { spending = { daily_usd = true } }\n",
			[]string{`ward.toml:1:36: hooks.spending.daily_usd: expected a number, found the boolean true`}},
		{"array of tables", "[[policy.rules]]\nid = \"r\"\naction = \"deny\"\nwhen = 5\n\n[[policy.rules]]\nid = \"s\"\naction = \"deny\"\nwhen = 'true'\npriority = \"high\"\n",
			[]string{
				`ward.toml:4:8: policy.rules.0.when: expected a string, found the integer 5`,
				`ward.toml:10:12: policy.rules.1.priority: expected an integer, found the string "high"`,
			}},
		{"chain table", "[chain]\nchain_id = \"1\"\n",
			[]string{`ward.toml:2:12: chain.chain_id: expected an integer, found the string "1"`}},
		{"chain tables", "[[chain]]\nrpc_url = \"http://a\"\nchainid = 1\n",
			[]string{`ward.toml:3:1: chain.0.chainid: unknown key; did you mean "chain_id"?`}},
		{"a type error does not hide other sections' values", "[gate]\npermit_ttl = 300\n\n[store]\nsynchronous = \"fast\"\n\n[[policy.rules]]\nid = \"r\"\naction = \"deny\"\nwhen = 'args.'\n",
			[]string{
				`ward.toml:2:14: gate.permit_ttl: expected a duration like "5m", found the integer 300`,
				`ward.toml:5:15: store.synchronous: must be "full" or "normal"`,
				`ward.toml:10:`,
			}},
		{"values of every section at once", "[gate]\npermit_ttl = \"soon\"\n\n[store]\nsynchronous = \"fast\"\n\n[policy]\ncel_cost_limit = -1\n",
			[]string{
				`ward.toml:2:14: gate.permit_ttl: invalid duration "soon"`,
				`ward.toml:5:15: store.synchronous: must be "full" or "normal"`,
				`ward.toml:8:18: policy.cel_cost_limit: must be positive`,
			}},
		{"a removed value is not reported twice", "[[policy.rules]]\nid = \"r\"\naction = 3\nwhen = 'true'\n",
			[]string{`ward.toml:3:10: policy.rules.0.action: expected a string, found the integer 3`}},
		{"syntax", "[gate]\npermit_ttl = \n",
			[]string{`ward.toml:2:`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("ward.toml", []byte(tc.file))
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("Parse: %v, want a *config.Error", err)
			}
			got := strings.Split(err.Error(), "\n")
			if len(got) != len(tc.want) {
				t.Fatalf("%d problems, want %d:\n%s", len(got), len(tc.want), err)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tc.want[i]) {
					t.Errorf("problem %d:\n got %s\nwant %s", i, got[i], tc.want[i])
				}
			}
			if goType.MatchString(err.Error()) {
				t.Errorf("a Go type name in %q", err)
			}
		})
	}
}

var goType = regexp.MustCompile(`\bu?int(8|16|32|64)?\b|float64|\*string|struct field|config\.|TOML (integer|string)`)

// TestShapeAcceptsDocumentedTypes: an integer where a number is expected,
// and every key of the documented example file, pass the shape check.
func TestShapeAcceptsDocumentedTypes(t *testing.T) {
	for _, file := range []string{
		"[hooks.spending]\ndaily_usd = 60\nper_tick_usd = 1.5\n",
		"[[chain]]\nrpc_url = \"http://a\"\nchain_id = 1\n[[chain.tokens]]\naddress = \"0x0000000000000000000000000000000000000001\"\nsymbol = \"X\"\ndecimals = 6\n",
		"[grimoire.sandbox.decomposer]\nendpoint = \"http://x\"\nmodel = \"m\"\nmax_calls = 2\ntimeout = \"3s\"\n",
	} {
		if ds, bad, _ := checkShape([]byte(file)); len(ds) > 0 || len(bad) > 0 {
			t.Errorf("%q: %v", file, ds)
		}
	}
}
