package embed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

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
	// each request and never copied into a Go string.
	Key *taint.String
	// Dim is the expected dimension; 0 means learnt from the first answer.
	Dim int
	// Timeout bounds each request. 0 means 30 seconds.
	Timeout time.Duration
	// Client is the HTTP client; nil means a new client with no other
	// settings than Timeout.
	Client *http.Client
}

// maxResponse bounds the body read from the endpoint.
const maxResponse = 64 << 20

// StatusError reports a non-2xx answer from the endpoint. The body is not
// kept: it may echo the request.
type StatusError struct {
	Code int
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("embed: endpoint answered %d %s", e.Code, http.StatusText(e.Code))
}

// OpenAI is an [Embedder] that calls an OpenAI-compatible embeddings
// endpoint. It is safe for concurrent use. Its dimension is fixed by the
// configuration or by the first successful answer; a later answer of another
// dimension fails with ErrDimension.
type OpenAI struct {
	url     string
	model   string
	key     *taint.String
	timeout time.Duration
	client  *http.Client
	dim     atomic.Int64
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
	o := &OpenAI{
		url:     strings.TrimSuffix(cfg.Endpoint, "/") + "/embeddings",
		model:   cfg.Model,
		key:     cfg.Key,
		timeout: cfg.Timeout,
		client:  cfg.Client,
	}
	o.dim.Store(int64(cfg.Dim))
	return o, nil
}

// Dim returns the dimension, or 0 before it is configured or learnt.
func (o *OpenAI) Dim() int { return int(o.dim.Load()) }

// Name returns "openai/MODEL".
func (o *OpenAI) Name() string { return "openai/" + o.model }

type embeddingsRequest struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type embeddingsResponse struct {
	Data []struct {
		Index     *int      `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

// Embed sends texts in one request and returns their vectors in order. It
// fails with a *StatusError on a non-2xx answer, with an error wrapping
// ErrResponse on a body that is too large, not JSON, or has the wrong number
// or order of vectors, and with ErrDimension on a dimension change.
func (o *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return [][]float32{}, nil
	}
	body, err := json.Marshal(embeddingsRequest{Model: o.model, Input: texts})
	if err != nil {
		return nil, fmt.Errorf("openai embed: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("openai embed: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if o.key != nil {
		if err := o.key.Use(func(k []byte) error {
			req.Header.Set("Authorization", "Bearer "+string(k))
			return nil
		}); err != nil {
			return nil, fmt.Errorf("openai embed: key: %w", err)
		}
	}
	resp, err := o.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("openai embed: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
		return nil, fmt.Errorf("openai embed: %w", &StatusError{Code: resp.StatusCode})
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	if err != nil {
		return nil, fmt.Errorf("openai embed: read: %w", err)
	}
	if len(raw) > maxResponse {
		return nil, fmt.Errorf("openai embed: %w: body over %d bytes", ErrResponse, maxResponse)
	}
	var r embeddingsResponse
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("openai embed: %w: %v", ErrResponse, err)
	}
	return o.collect(r, len(texts))
}

func (o *OpenAI) collect(r embeddingsResponse, n int) ([][]float32, error) {
	if len(r.Data) != n {
		return nil, fmt.Errorf("openai embed: %w: %d vectors for %d texts", ErrResponse, len(r.Data), n)
	}
	out := make([][]float32, n)
	for _, d := range r.Data {
		if d.Index == nil || *d.Index < 0 || *d.Index >= n || out[*d.Index] != nil {
			return nil, fmt.Errorf("openai embed: %w: missing, out of range or repeated index", ErrResponse)
		}
		if len(d.Embedding) == 0 {
			return nil, fmt.Errorf("openai embed: %w: empty embedding", ErrResponse)
		}
		out[*d.Index] = d.Embedding
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
