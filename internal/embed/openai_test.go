package embed

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/llm"
	"github.com/wardhq/ward/internal/taint"
)

// fakeServer speaks the embeddings protocol; answer decides the response to
// each request.
func fakeServer(t *testing.T, answer func(w http.ResponseWriter, input []string)) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		if got := r.Header.Get("Authorization"); got != "Bearer sk-test" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "m1" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		answer(w, req.Input)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// vectors answers with one vector of dim per input, listed in reverse index
// order; vector i is (i, i, ...).
func vectors(dim int) func(http.ResponseWriter, []string) {
	return func(w http.ResponseWriter, input []string) {
		type item struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var data []item
		for i := len(input) - 1; i >= 0; i-- {
			v := make([]float32, dim)
			for j := range v {
				v[j] = float32(i)
			}
			data = append(data, item{"embedding", i, v})
		}
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": "m1"})
	}
}

// newClient's timeout is generous: the too-large answer streams 64 MiB,
// which under the race detector on a loaded machine takes more than 5 s;
// the timeout itself is tested with a client of its own.
func newClient(t *testing.T, url string, dim int) *OpenAI {
	t.Helper()
	o, err := NewOpenAI(OpenAIConfig{Endpoint: url + "/v1/", Model: "m1", Key: taint.New("sk-test", taint.OwnerSecret), Dim: dim, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestOpenAIEmbed(t *testing.T) {
	srv := fakeServer(t, vectors(3))
	o := newClient(t, srv.URL, 0)
	if o.Dim() != 0 || o.Name() != "openai/m1" {
		t.Errorf("Dim, Name = %d, %q; want 0, openai/m1", o.Dim(), o.Name())
	}
	got, err := o.Embed(t.Context(), []string{"a", "b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		if len(v) != 3 || v[0] != float32(i) {
			t.Errorf("vector %d = %v, want three %d", i, v, i)
		}
	}
	if o.Dim() != 3 {
		t.Errorf("Dim after first answer = %d, want 3", o.Dim())
	}
	if got, err := o.Embed(t.Context(), nil); err != nil || len(got) != 0 {
		t.Errorf("Embed(nil) = %v, %v; want empty, nil", got, err)
	}
}

func TestOpenAIFailures(t *testing.T) {
	raw := func(status int, body string) func(http.ResponseWriter, []string) {
		return func(w http.ResponseWriter, _ []string) {
			w.WriteHeader(status)
			io.WriteString(w, body)
		}
	}
	tests := []struct {
		name   string
		answer func(http.ResponseWriter, []string)
		dim    int
		want   error
	}{
		{"server error", raw(500, `{"error":{"message":"boom"}}`), 0, &StatusError{}},
		{"rate limited", raw(429, ``), 0, &StatusError{}},
		{"bad json", raw(200, `{"data":[`), 0, ErrResponse},
		{"wrong count", func(w http.ResponseWriter, in []string) { vectors(3)(w, in[1:]) }, 0, ErrResponse},
		{"missing index", raw(200, `{"data":[{"embedding":[1]},{"embedding":[2]}]}`), 0, ErrResponse},
		{"repeated index", raw(200, `{"data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[2]}]}`), 0, ErrResponse},
		{"index out of range", raw(200, `{"data":[{"index":0,"embedding":[1]},{"index":2,"embedding":[2]}]}`), 0, ErrResponse},
		{"empty embedding", raw(200, `{"data":[{"index":0,"embedding":[]},{"index":1,"embedding":[]}]}`), 0, ErrResponse},
		{"ragged", raw(200, `{"data":[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[2]}]}`), 0, ErrDimension},
		{"configured dimension", vectors(3), 4, ErrDimension},
		{"too large", func(w http.ResponseWriter, _ []string) {
			io.WriteString(w, `{"data":[{"index":0,"embedding":[`)
			chunk := strings.Repeat("0,", 1<<16)
			for n := 0; n <= llm.MaxEmbeddingsResponse; n += len(chunk) {
				io.WriteString(w, chunk)
			}
		}, 0, ErrResponse},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := newClient(t, fakeServer(t, tc.answer).URL, tc.dim)
			got, err := o.Embed(t.Context(), []string{"a", "b"})
			if got != nil {
				t.Errorf("vectors = %v, want nil", got)
			}
			var se *StatusError
			if _, ok := tc.want.(*StatusError); ok {
				if !errors.As(err, &se) {
					t.Errorf("err = %v, want a *StatusError", err)
				} else if strings.Contains(err.Error(), "boom") {
					t.Errorf("err = %v echoes the body", err)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestOpenAIDimensionChange(t *testing.T) {
	var mu sync.Mutex
	dim := 3
	srv := fakeServer(t, func(w http.ResponseWriter, in []string) {
		mu.Lock()
		d := dim
		mu.Unlock()
		vectors(d)(w, in)
	})
	o := newClient(t, srv.URL, 0)
	if _, err := o.Embed(t.Context(), []string{"a"}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	dim = 5
	mu.Unlock()
	if _, err := o.Embed(t.Context(), []string{"a"}); !errors.Is(err, ErrDimension) {
		t.Errorf("err = %v, want ErrDimension", err)
	}
}

func TestOpenAIKeyAndTimeout(t *testing.T) {
	srv := fakeServer(t, vectors(2))
	key := taint.New("sk-test", taint.OwnerSecret)
	o, err := NewOpenAI(OpenAIConfig{Endpoint: srv.URL + "/v1", Model: "m1", Key: key})
	if err != nil {
		t.Fatal(err)
	}
	key.Release()
	if _, err := o.Embed(t.Context(), []string{"a"}); !errors.Is(err, taint.ErrReleased) {
		t.Errorf("released key: err = %v, want ErrReleased", err)
	}

	unblock := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-unblock:
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	defer close(unblock)
	o, err = NewOpenAI(OpenAIConfig{Endpoint: slow.URL, Model: "m1", Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.Embed(t.Context(), []string{"a"}); err == nil {
		t.Error("slow endpoint: want a timeout error")
	}
}

func TestNewOpenAIValidates(t *testing.T) {
	tests := []OpenAIConfig{
		{Endpoint: "", Model: "m"},
		{Endpoint: "ftp://host", Model: "m"},
		{Endpoint: "http://", Model: "m"},
		{Endpoint: "http://host", Model: ""},
		{Endpoint: "http://host", Model: "m", Dim: -1},
		{Endpoint: "http://host", Model: "m", Timeout: -1},
	}
	for i, cfg := range tests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if _, err := NewOpenAI(cfg); err == nil {
				t.Errorf("NewOpenAI(%+v) = nil error", cfg)
			}
		})
	}
}
