package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// MaxEmbeddingsResponse bounds an embeddings response body.
const MaxEmbeddingsResponse = 64 << 20

// ErrEmbeddings is wrapped by every error for an embeddings answer that
// arrived but cannot be used.
var ErrEmbeddings = errors.New("bad embeddings response")

// Embed posts texts to ep in one embeddings request and returns one
// non-empty vector per text, in the order of texts. It fails with a
// *StatusError on a non-2xx answer and with an error wrapping ErrEmbeddings
// on a body over MaxEmbeddingsResponse, not JSON, or with the wrong number
// of vectors, a missing, out-of-range or repeated index or an empty
// vector. It does not compare the vectors' lengths: that is the
// embedder's business. The key is used whatever its labels. It is safe
// for concurrent use.
func Embed(ctx context.Context, ep Endpoint, texts []string) ([][]float32, error) {
	body, err := json.Marshal(struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}{ep.Model, texts})
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	raw, err := post(ctx, ep, body, MaxEmbeddingsResponse, useBearer)
	if err != nil {
		return nil, err
	}
	if len(raw) > MaxEmbeddingsResponse {
		return nil, fmt.Errorf("%w: body over %d bytes", ErrEmbeddings, MaxEmbeddingsResponse)
	}
	var r struct {
		Data []struct {
			Index     *int      `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrEmbeddings, err)
	}
	n := len(texts)
	if len(r.Data) != n {
		return nil, fmt.Errorf("%w: %d vectors for %d texts", ErrEmbeddings, len(r.Data), n)
	}
	out := make([][]float32, n)
	for _, d := range r.Data {
		if d.Index == nil || *d.Index < 0 || *d.Index >= n || out[*d.Index] != nil {
			return nil, fmt.Errorf("%w: missing, out of range or repeated index", ErrEmbeddings)
		}
		if len(d.Embedding) == 0 {
			return nil, fmt.Errorf("%w: empty embedding", ErrEmbeddings)
		}
		out[*d.Index] = d.Embedding
	}
	return out, nil
}
