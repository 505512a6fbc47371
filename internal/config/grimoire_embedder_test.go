package config

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestGrimoireEmbedder(t *testing.T) {
	t.Setenv("WARD_TEST_EMBED_KEY", "sk-x")
	f, err := Parse("t.toml", []byte(`[grimoire.embedder]
endpoint = "http://127.0.0.1:8000/v1"
model = "text-embedding-3-small"
api_key_env = "WARD_TEST_EMBED_KEY"
dimensions = 1536
timeout = "10s"
`))
	if err != nil {
		t.Fatal(err)
	}
	want := Embedder{Endpoint: "http://127.0.0.1:8000/v1", Model: "text-embedding-3-small", APIKeyEnv: "WARD_TEST_EMBED_KEY", Dimensions: 1536, Timeout: 10 * time.Second}
	if f.Grimoire.Embedder != want {
		t.Errorf("embedder = %+v, want %+v", f.Grimoire.Embedder, want)
	}
	d, _ := Default()
	if d.Grimoire.Embedder != (Embedder{}) {
		t.Errorf("default embedder = %+v, want the hashed one (zero)", d.Grimoire.Embedder)
	}
}

func TestGrimoireEmbedderDiagnostics(t *testing.T) {
	const e = "[grimoire.embedder]\nendpoint = \"http://x/v1\"\nmodel = \"m\"\n"
	for _, c := range []struct {
		name, in, key, msg string
		line               int
	}{
		{"no model", "[grimoire.embedder]\nendpoint = \"http://x/v1\"\n", "grimoire.embedder", "endpoint and model", 1},
		{"not a url", "[grimoire.embedder]\nendpoint = \"ftp://x\"\nmodel = \"m\"\n", "grimoire.embedder.endpoint", "http(s) URL", 2},
		{"unset key variable", e + "api_key_env = \"WARD_SURELY_UNSET_VAR\"\n", "grimoire.embedder.api_key_env", "not set", 4},
		{"dimensions zero", e + "dimensions = 0\n", "grimoire.embedder.dimensions", "1 to 4096", 4},
		{"dimensions too large", e + "dimensions = 5000\n", "grimoire.embedder.dimensions", "1 to 4096", 4},
		{"bad timeout", e + "timeout = \"-1s\"\n", "grimoire.embedder.timeout", "invalid duration", 4},
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
	if _, err := Parse("t.toml", []byte(e+"api_key = \"sk-inline\"\n")); err == nil {
		t.Error("an inline api_key was accepted; keys come from api_key_env only")
	}
}
