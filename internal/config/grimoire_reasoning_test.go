package config

import (
	"errors"
	"strings"
	"testing"
	"time"
)

const p0 = "[[grimoire.reasoning.providers]]\nendpoint = \"http://x/v1\"\nmodel = \"m\"\n"

func TestGrimoireReasoning(t *testing.T) {
	t.Setenv("WARD_TEST_REASONING_KEY", "sk-x")
	f, err := Parse("t.toml", []byte(`[grimoire.reasoning]
k = 12
threshold = 0.6
judge = true

[[grimoire.reasoning.providers]]
endpoint = "http://127.0.0.1:8000/v1"
model = "baseline-model"

[[grimoire.reasoning.providers]]
endpoint = "https://api.example/v1"
model = "augmented-model"
api_key_env = "WARD_TEST_REASONING_KEY"
timeout = "45s"
`))
	if err != nil {
		t.Fatal(err)
	}
	r := f.Grimoire.Reasoning
	want := Reasoning{K: 12, Threshold: 0.6, Judge: true, Providers: []LLM{
		{Endpoint: "http://127.0.0.1:8000/v1", Model: "baseline-model", Timeout: 30 * time.Second},
		{Endpoint: "https://api.example/v1", Model: "augmented-model", APIKeyEnv: "WARD_TEST_REASONING_KEY", Timeout: 45 * time.Second},
	}}
	if r.K != want.K || r.Threshold != want.Threshold || r.Judge != want.Judge || len(r.Providers) != 2 ||
		r.Providers[0] != want.Providers[0] || r.Providers[1] != want.Providers[1] {
		t.Errorf("reasoning = %+v, want %+v", r, want)
	}

	f, err = Parse("t.toml", []byte(p0))
	if err != nil {
		t.Fatal(err)
	}
	if r := f.Grimoire.Reasoning; r.K != 8 || r.Threshold != 0.5 || r.Judge || len(r.Providers) != 1 {
		t.Errorf("defaults = %+v", r)
	}
	if _, err := Parse("t.toml", []byte(p0+"api_key = \"sk-inline\"\n")); err == nil {
		t.Error("an inline api_key was accepted; keys come from api_key_env only")
	}
	d, _ := Default()
	if len(d.Grimoire.Reasoning.Providers) != 0 {
		t.Errorf("default config reasons with a model: %+v", d.Grimoire.Reasoning)
	}
}

func TestGrimoireReasoningDiagnostics(t *testing.T) {
	const p = p0
	for _, c := range []struct {
		name, in, key, msg string
		line               int
	}{
		{"no providers", "[grimoire.reasoning]\nk = 4\n", "grimoire.reasoning", "one or two", 1},
		{"three providers", p + p + p, "grimoire.reasoning", "not 3", 0},
		{"no model", "[[grimoire.reasoning.providers]]\nendpoint = \"http://x/v1\"\n", "grimoire.reasoning.providers.0", "endpoint and model", 1},
		{"not a url", "[[grimoire.reasoning.providers]]\nendpoint = \"x/v1\"\nmodel = \"m\"\n", "grimoire.reasoning.providers.0.endpoint", "http(s) URL", 2},
		{"unset key variable", p + "api_key_env = \"WARD_SURELY_UNSET_VAR\"\n", "grimoire.reasoning.providers.0.api_key_env", "not set", 4},
		{"bad timeout", p + p + "timeout = \"soon\"\n", "grimoire.reasoning.providers.1.timeout", "invalid duration", 7},
		{"k zero", "[grimoire.reasoning]\nk = 0\n" + p, "grimoire.reasoning.k", "1 to 64", 2},
		{"k too large", "[grimoire.reasoning]\nk = 65\n" + p, "grimoire.reasoning.k", "1 to 64", 2},
		{"threshold zero", "[grimoire.reasoning]\nthreshold = 0.0\n" + p, "grimoire.reasoning.threshold", "(0, 1]", 2},
		{"threshold over 1", "[grimoire.reasoning]\nthreshold = 2\n" + p, "grimoire.reasoning.threshold", "(0, 1]", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("t.toml", []byte(c.in))
			var de *Error
			if !errors.As(err, &de) {
				t.Fatalf("err = %v, want diagnostics", err)
			}
			for _, d := range de.Diags {
				if d.Key == c.key && strings.Contains(d.Msg, c.msg) && (c.line == 0 || d.Line == c.line) {
					return
				}
			}
			t.Errorf("diagnostics %+v, want %q at %s line %d", de.Diags, c.msg, c.key, c.line)
		})
	}
}
