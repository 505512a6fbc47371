package config

import (
	"fmt"
	"net/url"
	"os"
	"time"
)

// Embedder configures the Grimoire's embedder ([grimoire.embedder]): an
// OpenAI-compatible embeddings endpoint instead of the deterministic,
// model-free hashed embedder that is the default. A zero Embedder (no
// endpoint) is the hashed one.
type Embedder struct {
	Endpoint string // base URL; requests go to Endpoint + "/embeddings"
	Model    string
	// APIKeyEnv names the environment variable holding the API key (read
	// at start, held as a tainted value; never written in ward.toml).
	APIKeyEnv string
	// Dimensions is the dimension the endpoint must answer with (0: learnt
	// from its first answer).
	Dimensions int
	Timeout    time.Duration // default 30s
}

type embedderTOML struct {
	Endpoint   *string `toml:"endpoint"`
	Model      *string `toml:"model"`
	APIKeyEnv  *string `toml:"api_key_env"`
	Dimensions *int    `toml:"dimensions"`
	Timeout    *string `toml:"timeout"`
}

// Bounds of [grimoire.embedder].
const (
	defaultEmbedderTimeout = 30 * time.Second
	maxEmbedderDimensions  = 4096 // knowledge.MaxEmbedding
)

// embedderSection reads [grimoire.embedder] into out.Embedder.
func embedderSection(out *Grimoire, g *grimoireTOML, idx *positions) []Diagnostic {
	e := g.Embedder
	if e == nil {
		return nil
	}
	var diags []Diagnostic
	bad := func(key, format string, args ...any) {
		diags = append(diags, idx.at(key, fmt.Sprintf(format, args...)))
	}
	out.Embedder = Embedder{Timeout: defaultEmbedderTimeout}
	if e.Endpoint != nil {
		out.Embedder.Endpoint = *e.Endpoint
		if u, err := url.Parse(*e.Endpoint); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("grimoire.embedder.endpoint", "must be an http(s) URL")
		}
	}
	if e.Model != nil {
		out.Embedder.Model = *e.Model
	}
	if out.Embedder.Endpoint == "" || out.Embedder.Model == "" {
		bad("grimoire.embedder", "endpoint and model are both required")
	}
	if e.APIKeyEnv != nil {
		out.Embedder.APIKeyEnv = *e.APIKeyEnv
		if *e.APIKeyEnv != "" && os.Getenv(*e.APIKeyEnv) == "" {
			bad("grimoire.embedder.api_key_env", "the environment variable %s is not set", *e.APIKeyEnv)
		}
	}
	if e.Dimensions != nil {
		if *e.Dimensions < 1 || *e.Dimensions > maxEmbedderDimensions {
			bad("grimoire.embedder.dimensions", "must be 1 to %d", maxEmbedderDimensions)
		}
		out.Embedder.Dimensions = *e.Dimensions
	}
	if e.Timeout != nil {
		d, err := time.ParseDuration(*e.Timeout)
		if err != nil || d <= 0 {
			bad("grimoire.embedder.timeout", "invalid duration %q", *e.Timeout)
		}
		out.Embedder.Timeout = d
	}
	return diags
}
