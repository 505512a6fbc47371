package config

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/sandbox"
)

func TestGrimoireSandbox(t *testing.T) {
	t.Setenv("WARD_TEST_DECOMPOSER_KEY", "sk-x")
	f, err := Parse("t.toml", []byte(`[grimoire.sandbox]
strategy = ["when price drops 5 %, sell everything", "when gas above 100 gwei, wait"]

[grimoire.sandbox.decomposer]
endpoint = "http://127.0.0.1:8000/v1"
model = "decomposer"
api_key_env = "WARD_TEST_DECOMPOSER_KEY"
timeout = "10s"
max_calls = 4
`))
	if err != nil {
		t.Fatal(err)
	}
	sb := f.Grimoire.Sandbox
	if len(sb.Strategy) != 2 || sb.Strategy[1] != "when gas above 100 gwei, wait" || sb.MaxCalls != 4 ||
		sb.Decomposer != (LLM{Endpoint: "http://127.0.0.1:8000/v1", Model: "decomposer", APIKeyEnv: "WARD_TEST_DECOMPOSER_KEY", Timeout: 10 * time.Second}) {
		t.Errorf("sandbox = %+v", sb)
	}
	f, err = Parse("t.toml", []byte("[grimoire.sandbox.decomposer]\nendpoint = \"http://x/v1\"\nmodel = \"m\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if sb := f.Grimoire.Sandbox; sb.MaxCalls != MaxDecomposerCalls || sb.Decomposer.Timeout != 30*time.Second || len(sb.Strategy) != 0 {
		t.Errorf("defaults = %+v", sb)
	}
	if sb := f.Grimoire.Sandbox; sb.Require != nil {
		t.Errorf("require without the key = %+v, want nil (the default requirement)", sb.Require)
	}
	f, err = Parse("t.toml", []byte("[grimoire.sandbox]\nrequire = [\"userns\", \"pidns\", \"netns\", \"mountns\", \"seccomp\", \"memory\", \"processes\", \"cgroup2\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if r := f.Grimoire.Sandbox.Require; r == nil || r.All != sandbox.DefaultRequirement.All|sandbox.MechCgroup2 || !slices.Equal(r.AnyOf, sandbox.DefaultRequirement.AnyOf) {
		t.Errorf("require = %+v, want the default and cgroup2", r)
	}
	d, _ := Default()
	if d.Grimoire.Sandbox.Decomposer.Endpoint != "" || len(d.Grimoire.Sandbox.Strategy) != 0 || d.Grimoire.Sandbox.Require != nil {
		t.Errorf("default config has a sandbox strategy or decomposer: %+v", d.Grimoire.Sandbox)
	}
}

func TestGrimoireSandboxDiagnostics(t *testing.T) {
	const dec = "[grimoire.sandbox.decomposer]\nendpoint = \"http://x/v1\"\nmodel = \"m\"\n"
	for _, c := range []struct {
		name, in, key, msg string
	}{
		{"empty rule", "[grimoire.sandbox]\nstrategy = [\"\"]\n", "grimoire.sandbox.strategy", "rule 1"},
		{"long rule", "[grimoire.sandbox]\nstrategy = [\"" + strings.Repeat("a", 1025) + "\"]\n", "grimoire.sandbox.strategy", "rule 1"},
		{"too many rules", "[grimoire.sandbox]\nstrategy = [" + strings.Repeat("\"when gas above 1 gwei, wait\",", 33) + "]\n", "grimoire.sandbox.strategy", "at most 32"},
		{"no model", "[grimoire.sandbox.decomposer]\nendpoint = \"http://x/v1\"\n", "grimoire.sandbox.decomposer", "endpoint and model"},
		{"not a url", "[grimoire.sandbox.decomposer]\nendpoint = \"x\"\nmodel = \"m\"\n", "grimoire.sandbox.decomposer.endpoint", "http(s) URL"},
		{"eleven calls", dec + "max_calls = 11\n", "grimoire.sandbox.decomposer.max_calls", "1 to 10"},
		{"zero calls", dec + "max_calls = 0\n", "grimoire.sandbox.decomposer.max_calls", "1 to 10"},
		{"bad timeout", dec + "timeout = \"soon\"\n", "grimoire.sandbox.decomposer.timeout", "invalid duration"},
		{"unset key", dec + "api_key_env = \"WARD_SURELY_UNSET_VAR\"\n", "grimoire.sandbox.decomposer.api_key_env", "not set"},
		{"inline key", dec + "api_key = \"sk\"\n", "", "api_key"},
		{"unknown key", "[grimoire.sandbox]\nstrategies = []\n", "", "strategies"},
		{"empty require", "[grimoire.sandbox]\nrequire = []\n", "grimoire.sandbox.require", "no isolation"},
		{"unknown requirement", "[grimoire.sandbox]\nrequire = [\"namespaces\"]\n", "grimoire.sandbox.require", "namespaces"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("t.toml", []byte(c.in))
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), c.key) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("error %q, want %q about %q", err, c.msg, c.key)
			}
		})
	}
}
