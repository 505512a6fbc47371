package config

import (
	"fmt"
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
	Timeout    *string `toml:"timeout" shape:"duration"`
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
	l := readLLM("grimoire.embedder", llmTOML{Endpoint: e.Endpoint, Model: e.Model, APIKeyEnv: e.APIKeyEnv, Timeout: e.Timeout}, defaultEmbedderTimeout, bad)
	out.Embedder = Embedder{Endpoint: l.Endpoint, Model: l.Model, APIKeyEnv: l.APIKeyEnv, Timeout: l.Timeout}
	if e.Dimensions != nil {
		if *e.Dimensions < 1 || *e.Dimensions > maxEmbedderDimensions {
			bad("grimoire.embedder.dimensions", "must be 1 to %d", maxEmbedderDimensions)
		}
		out.Embedder.Dimensions = *e.Dimensions
	}
	return diags
}
