package llmtest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// Server is a scripted OpenAI-compatible endpoint for tests written by
// hand rather than recorded: reply answers its n-th request (from 1), and
// it keeps every request, with the Headers it sent. It closes when the
// test ends.
type Server struct {
	*httptest.Server
	mu    sync.Mutex
	reqs  []Request
	reply func(w http.ResponseWriter, r *http.Request, n int)
}

// NewServer starts a Server answering with reply.
func NewServer(t testing.TB, reply func(w http.ResponseWriter, r *http.Request, n int)) *Server {
	t.Helper()
	s := &Server{reply: reply}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		q := Request{Method: r.Method, Path: r.URL.Path, Header: map[string]string{}, Body: raw}
		for _, h := range Headers {
			q.Header[h] = r.Header.Get(h)
		}
		s.mu.Lock()
		s.reqs = append(s.reqs, q)
		n := len(s.reqs)
		s.mu.Unlock()
		s.reply(w, r, n)
	}))
	t.Cleanup(s.Close)
	return s
}

// Requests returns the requests so far, in the order they arrived.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Completion writes a chat completion whose message content is content.
func Completion(w http.ResponseWriter, content string) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion",
		"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": content}, "finish_reason": "stop"}},
	})
}
