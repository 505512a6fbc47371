// Package llmtest replays recorded exchanges with an OpenAI-compatible
// chat-completions server, for tests of code that calls a model through
// internal/llm, and records them from a live server.
//
// A Cassette is a JSON file of exchanges: each a full HTTP request (method,
// path, the headers that matter, the JSON body) and the response the server
// gave (status, headers, body) in the server's own wire format. A Replay
// serves one provider's exchanges: a request is answered by the first unused
// exchange whose method, path, recorded headers and body (as JSON, so
// modulo whitespace and key order) equal it; a request that matches none is
// answered 418 (not retried) and reported, and so is an exchange never requested. Equal
// requests (a retried call) take their exchanges in recorded order, so
// concurrent calls with different bodies may arrive in any order.
//
// A Recorder is a reverse proxy to a live server that writes what passed
// through it as a Cassette, with the live API key replaced by Key.
//
// A Server is a scripted endpoint for tests whose answers are written by
// hand (a malformed reply, a slow one, an error status): it keeps every
// request it is sent.
package llmtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// Key is the API key tests send and cassettes record; a Recorder writes it
// in place of the live key.
const Key = "sk-ward-replay-key"

// Headers are the request headers a Replay compares when an exchange
// records them.
var Headers = []string{"Authorization", "Content-Type"}

// Cassette is a recorded conversation with one or more providers.
type Cassette struct {
	// Comment says where the exchanges come from.
	Comment string `json:"comment,omitempty"`
	// Models are the model names the providers were called with, by
	// provider index.
	Models    []string   `json:"models"`
	Exchanges []Exchange `json:"exchanges"`
}

// Exchange is one HTTP request and its response.
type Exchange struct {
	// Name says which call this is (baseline, augmented, …).
	Name string `json:"name,omitempty"`
	// Provider is the index of the server the request went to.
	Provider int `json:"provider"`
	// Optional: the call may not be made, as when another call failed
	// first and cancelled it; Err does not miss it.
	Optional bool     `json:"optional,omitempty"`
	Request  Request  `json:"request"`
	Response Response `json:"response"`
}

// Request is what the client sent.
type Request struct {
	Method string            `json:"method"`
	Path   string            `json:"path"`
	Header map[string]string `json:"header"`
	Body   json.RawMessage   `json:"body"`
}

// Response is what the server answered: a JSON Body or, for a body that is
// not JSON, Text.
type Response struct {
	Status int               `json:"status"`
	Header map[string]string `json:"header,omitempty"`
	Body   json.RawMessage   `json:"body,omitempty"`
	Text   string            `json:"text,omitempty"`
}

// ReadCassette reads a cassette file.
func ReadCassette(path string) (*Cassette, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var c Cassette
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &c, nil
}

// Write writes c to path, indented.
func (c *Cassette) Write(path string) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// Replay serves one provider's exchanges of a cassette. It is an
// http.Handler, safe for concurrent use.
type Replay struct {
	mu        sync.Mutex
	exchanges []Exchange
	used      []bool
	problems  []string
	hits      int
}

// NewReplay returns a Replay of c's exchanges with provider.
func NewReplay(c *Cassette, provider int) *Replay {
	r := &Replay{}
	for _, x := range c.Exchanges {
		if x.Provider == provider {
			r.exchanges = append(r.exchanges, x)
		}
	}
	r.used = make([]bool, len(r.exchanges))
	return r
}

// ServeHTTP answers req with the first unused matching exchange.
func (r *Replay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	r.mu.Lock()
	r.hits++
	i, why := r.match(req, body, err)
	if i < 0 {
		r.problems = append(r.problems, fmt.Sprintf("%s %s matches no recorded exchange (%s); body:\n%s", req.Method, req.URL.Path, why, body))
		r.mu.Unlock()
		http.Error(w, `{"error":{"message":"no recorded exchange","type":"llmtest_unmatched"}}`, http.StatusTeapot)
		return
	}
	r.used[i] = true
	x := r.exchanges[i].Response
	r.mu.Unlock()
	for k, v := range x.Header {
		w.Header().Set(k, v)
	}
	w.WriteHeader(x.Status)
	if len(x.Body) > 0 {
		w.Write(x.Body)
	} else {
		io.WriteString(w, x.Text)
	}
}

// match returns the index of the first unused exchange equal to req, or -1
// and why the nearest one differs. r.mu is held.
func (r *Replay) match(req *http.Request, body []byte, readErr error) (int, string) {
	if readErr != nil {
		return -1, "reading the body: " + readErr.Error()
	}
	why := "every exchange is used"
	for i, x := range r.exchanges {
		if r.used[i] {
			continue
		}
		d := differ(x.Request, req, body)
		if d == "" {
			return i, ""
		}
		why = fmt.Sprintf("exchange %d %q differs: %s", i, x.Name, d)
	}
	return -1, why
}

// differ says how req and body differ from the recorded request; "" when
// they do not.
func differ(want Request, req *http.Request, body []byte) string {
	if req.Method != want.Method || req.URL.Path != want.Path {
		return fmt.Sprintf("%s %s, recorded %s %s", req.Method, req.URL.Path, want.Method, want.Path)
	}
	for _, h := range Headers {
		if v, ok := want.Header[h]; ok && req.Header.Get(h) != v {
			return fmt.Sprintf("header %s is %q, recorded %q", h, req.Header.Get(h), v)
		}
	}
	var got, rec any
	if err := json.Unmarshal(body, &got); err != nil {
		return "the body is not JSON"
	}
	if err := json.Unmarshal(want.Body, &rec); err != nil {
		return "the recorded body is not JSON"
	}
	if !reflect.DeepEqual(got, rec) {
		return "the body differs: " + firstDiff("", got, rec)
	}
	return ""
}

// firstDiff names the first path at which got and want differ.
func firstDiff(at string, got, want any) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return at + " is not an object"
		}
		for k := range w {
			if _, ok := g[k]; !ok {
				return fmt.Sprintf("%s.%s is missing", at, k)
			}
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				return fmt.Sprintf("%s.%s is not recorded", at, k)
			}
			if !reflect.DeepEqual(g[k], w[k]) {
				return firstDiff(at+"."+k, g[k], w[k])
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return at + " has another length"
		}
		for i := range w {
			if !reflect.DeepEqual(g[i], w[i]) {
				return firstDiff(fmt.Sprintf("%s[%d]", at, i), g[i], w[i])
			}
		}
	}
	return fmt.Sprintf("%s is %.200v, recorded %.200v", at, got, want)
}

// Hits is how many requests the replay received.
func (r *Replay) Hits() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hits
}

// Err reports the requests that matched no exchange and the exchanges
// never requested; nil when the conversation went as recorded.
func (r *Replay) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var errs []error
	for _, p := range r.problems {
		errs = append(errs, errors.New(p))
	}
	for i, u := range r.used {
		if !u && !r.exchanges[i].Optional {
			errs = append(errs, fmt.Errorf("exchange %d %q was never requested", i, r.exchanges[i].Name))
		}
	}
	return errors.Join(errs...)
}

// Client is an http.Client that hands each request to r in process, with
// no socket: a test in a testing/synctest bubble can use it, so that a
// recorded Retry-After passes in fake time.
func (r *Replay) Client() *http.Client {
	return &http.Client{Transport: roundTripper{r}}
}

type roundTripper struct{ h http.Handler }

func (rt roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	rec := httptest.NewRecorder()
	rt.h.ServeHTTP(rec, req)
	resp := rec.Result()
	resp.Request = req
	return resp, nil
}

// Serve starts an HTTP server replaying provider's exchanges of c and
// fails t at cleanup unless the conversation went as recorded.
func Serve(t testing.TB, c *Cassette, provider int) (*httptest.Server, *Replay) {
	t.Helper()
	r := NewReplay(c, provider)
	srv := httptest.NewServer(r)
	t.Cleanup(func() {
		srv.Close()
		if err := r.Err(); err != nil {
			t.Errorf("provider %d: the requests are not the recorded ones:\n%v", provider, err)
		}
	})
	return srv, r
}

// Recorder forwards requests to a live OpenAI-compatible server and keeps
// each exchange. It is an http.Handler, safe for concurrent use.
type Recorder struct {
	base     string // the live API's base URL, e.g. http://host:8080/v1
	key      string // the live key; "" sends none
	provider int
	client   *http.Client

	mu        sync.Mutex
	exchanges []Exchange
}

// NewRecorder returns a Recorder for provider that forwards a request for
// {prefix}/chat/completions to base + "/chat/completions" with key as the
// bearer token (none if ""), where prefix is anything up to the last path
// element.
func NewRecorder(base, key string, provider int) *Recorder {
	return &Recorder{base: strings.TrimRight(base, "/"), key: key, provider: provider, client: &http.Client{}}
}

// ServeHTTP forwards req and records the exchange.
func (r *Recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	path := req.URL.Path
	out, err := http.NewRequestWithContext(req.Context(), req.Method, r.base+path[strings.LastIndex(path, "/"):], bytes.NewReader(body))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	out.Header.Set("Content-Type", req.Header.Get("Content-Type"))
	if r.key != "" {
		out.Header.Set("Authorization", "Bearer "+r.key)
	}
	resp, err := r.client.Do(out)
	if err != nil {
		http.Error(w, "recorder: "+err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	rb, err := io.ReadAll(resp.Body)
	if err != nil {
		http.Error(w, "recorder: "+err.Error(), http.StatusBadGateway)
		return
	}
	x := Exchange{Provider: r.provider,
		Request:  Request{Method: req.Method, Path: path, Header: map[string]string{}, Body: compact(body)},
		Response: Response{Status: resp.StatusCode, Header: map[string]string{}}}
	for _, h := range Headers {
		if v := req.Header.Get(h); v != "" {
			x.Request.Header[h] = v
		}
	}
	for _, h := range []string{"Content-Type", "Retry-After", "Server"} {
		if v := resp.Header.Get(h); v != "" {
			x.Response.Header[h] = v
			w.Header().Set(h, v)
		}
	}
	if json.Valid(rb) {
		x.Response.Body = compact(rb)
	} else {
		x.Response.Text = string(rb)
	}
	r.mu.Lock()
	r.exchanges = append(r.exchanges, x)
	r.mu.Unlock()
	w.WriteHeader(resp.StatusCode)
	w.Write(rb)
}

// Exchanges returns what was recorded, in the order the responses came.
func (r *Recorder) Exchanges() []Exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Exchange(nil), r.exchanges...)
}

func compact(b []byte) json.RawMessage {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return append(json.RawMessage(nil), b...)
	}
	return buf.Bytes()
}
