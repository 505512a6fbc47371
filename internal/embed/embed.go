// Package embed turns text into vectors and searches them.
//
// The contract: an [Embedder] maps texts to fixed-dimension vectors and says
// its dimension and name; nothing downstream may depend on one embedder's
// quirks, so callers compare vectors only with [Cosine] or an [Index], and
// store the embedder's Name next to every vector so that vectors from
// different embedders are never mixed.
//
// [Hashed] is the default: deterministic and model-free (hashed word
// unigrams, bigrams and character n-grams, IDF-weighted, L2-normalised).
// [OpenAI] calls an OpenAI-compatible embeddings endpoint. [Index] answers
// top-k cosine queries by narrowing with one-bit sign sketches and scoring
// the survivors exactly.
package embed

import (
	"context"
	"errors"

	"github.com/wardhq/ward/internal/llm"
)

// Embedder maps texts to vectors. Embed returns one vector of length Dim per
// text, in order, or an error; it is safe for concurrent use. Dim may be 0
// until an embedder has learnt its dimension. Name identifies the embedder
// and its configuration: vectors with different names are not comparable.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	Dim() int
	Name() string
}

var (
	_ Embedder = (*Hashed)(nil)
	_ Embedder = (*OpenAI)(nil)
)

// Errors callers may branch on. They are wrapped; test with errors.Is.
var (
	// ErrDimension reports a vector whose length is not the expected one.
	ErrDimension = errors.New("embed: dimension mismatch")
	// ErrNotFinite reports a vector holding NaN or an infinity.
	ErrNotFinite = errors.New("embed: vector not finite")
	// ErrResponse reports an embeddings endpoint answer that cannot be used.
	// It is llm.ErrEmbeddings.
	ErrResponse = llm.ErrEmbeddings
)
