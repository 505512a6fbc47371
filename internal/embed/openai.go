package embed

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/wardhq/ward/internal/llm"
	"github.com/wardhq/ward/internal/taint"
)

// OpenAIConfig configures an [OpenAI] embeddings client.
type OpenAIConfig struct {
	// Endpoint is the API base URL, such as "https://api.openai.com/v1";
	// requests go to Endpoint + "/embeddings". Required, http or https.
	Endpoint string
	// Model is sent as "model". Required.
	Model string
	// Key, if not nil, is sent as a bearer token. It is read with Use for
	// each request, whatever its labels (llm.Embed).
	Key *taint.String
	// Dim is the expected dimension; 0 means learnt from the first answer.
	Dim int
	// Timeout bounds each request. 0 means 30 seconds.
	Timeout time.Duration
	// Client is the HTTP client; nil means a new client with no other
	// settings than Timeout.
	Client *http.Client
}

// StatusError reports a non-2xx answer from the endpoint. The body is not
// kept: it may echo the request.
type StatusError = llm.StatusError

// OpenAI is an [Embedder] that calls an OpenAI-compatible embeddings
// endpoint. It is safe for concurrent use. Its dimension is fixed by the
// configuration or by the first successful answer; a later answer of another
// dimension fails with ErrDimension.
type OpenAI struct {
	ep  llm.Endpoint
	dim atomic.Int64
}

// NewOpenAI validates cfg and returns a client. It does no I/O.
func NewOpenAI(cfg OpenAIConfig) (*OpenAI, error) {
	u, err := url.Parse(cfg.Endpoint)
	if err != nil {
		return nil, fmt.Errorf("new openai embedder: endpoint: %w", err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("new openai embedder: endpoint must be an http or https URL")
	}
	if cfg.Model == "" {
		return nil, errors.New("new openai embedder: model is required")
	}
	if cfg.Dim < 0 {
		return nil, errors.New("new openai embedder: negative dimension")
	}
	if cfg.Timeout < 0 {
		return nil, errors.New("new openai embedder: negative timeout")
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 30 * time.Second
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: cfg.Timeout}
	}
	o := &OpenAI{ep: llm.Endpoint{URL: strings.TrimSuffix(cfg.Endpoint, "/") + "/embeddings", Model: cfg.Model,
		APIKey: cfg.Key, Client: cfg.Client, Timeout: cfg.Timeout}}
	o.dim.Store(int64(cfg.Dim))
	return o, nil
}

// Dim returns the dimension, or 0 before it is configured or learnt.
func (o *OpenAI) Dim() int { return int(o.dim.Load()) }

// Name returns "openai/MODEL".
func (o *OpenAI) Name() string { return "openai/" + o.ep.Model }

// Embed sends texts in one request (llm.Embed) and returns their vectors
// in order. It fails with a *StatusError on a non-2xx answer, with an error
// wrapping ErrResponse on a body that is too large, not JSON, or has the
// wrong number or order of vectors, and with ErrDimension on a dimension
// change.
func (o *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return [][]float32{}, nil
	}
	out, err := llm.Embed(ctx, o.ep, texts)
	if err != nil {
		return nil, fmt.Errorf("openai embed: %w", err)
	}
	want := len(out[0])
	for _, v := range out {
		if len(v) != want {
			return nil, fmt.Errorf("openai embed: %w: vectors of %d and %d in one answer", ErrDimension, want, len(v))
		}
	}
	if o.dim.CompareAndSwap(0, int64(want)) {
		return out, nil
	}
	if d := o.Dim(); d != want {
		return nil, fmt.Errorf("openai embed: %w: got %d, want %d", ErrDimension, want, d)
	}
	return out, nil
}
