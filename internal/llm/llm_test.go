package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/llm/llmtest"
	"github.com/wardhq/ward/internal/taint"
)

const testKey = "sk-llm-test-93e1c0"

// server is an OpenAI-compatible endpoint: reply answers the n-th request
// (from 1); it records every request.
type server struct{ *llmtest.Server }

type request struct {
	method, path, auth, contentType string
	body                            map[string]any
}

func newServer(t *testing.T, reply func(w http.ResponseWriter, r *http.Request, n int)) *server {
	t.Helper()
	return &server{llmtest.NewServer(t, reply)}
}

func (s *server) requests() []request {
	var out []request
	for _, r := range s.Requests() {
		q := request{method: r.Method, path: r.Path, auth: r.Header["Authorization"], contentType: r.Header["Content-Type"]}
		_ = json.Unmarshal(r.Body, &q.body)
		out = append(out, q)
	}
	return out
}

func (s *server) chat(timeout time.Duration, retries int) Endpoint {
	return Endpoint{URL: ChatURL(s.URL + "/v1/"), Model: "m1", APIKey: taint.New(testKey, taint.UserPII),
		Client: s.Client(), Timeout: timeout, Retries: retries}
}

// echoKey answers status with a body that repeats the bearer token, as a
// careless or hostile server might.
func echoKey(w http.ResponseWriter, r *http.Request, status int) {
	w.WriteHeader(status)
	io.WriteString(w, `{"error": {"message": "bad key `+strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")+`"}}`)
}

// status answers the given statuses in turn, then a completion of ok.
func statuses(ok string, codes ...int) func(http.ResponseWriter, *http.Request, int) {
	return func(w http.ResponseWriter, r *http.Request, n int) {
		if n > len(codes) {
			llmtest.Completion(w, ok)
			return
		}
		w.Header().Set("Retry-After", "0")
		echoKey(w, r, codes[n-1])
	}
}

type verdict struct {
	Approve *bool `json:"approve"`
}

func TestChatJSON(t *testing.T) {
	for _, tc := range []struct{ name, content string }{
		{"plain", `{"approve": true}`},
		{"fenced", "```json\n{\"approve\": true}\n```"},
		{"bare fence", "```\n{\"approve\": true}```"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t, func(w http.ResponseWriter, _ *http.Request, _ int) { llmtest.Completion(w, tc.content) })
			var v verdict
			if err := ChatJSON(t.Context(), s.chat(time.Second, 0), "be careful", []byte(`{"id":"q1"}`), &v); err != nil {
				t.Fatalf("ChatJSON: %v", err)
			}
			if v.Approve == nil || !*v.Approve {
				t.Errorf("answer = %+v, want approve true", v)
			}
			reqs := s.requests()
			if len(reqs) != 1 {
				t.Fatalf("requests = %d, want 1", len(reqs))
			}
			q := reqs[0]
			if q.method != http.MethodPost || q.path != "/v1/chat/completions" || q.auth != "Bearer "+testKey || q.contentType != "application/json" {
				t.Errorf("request = %s %s auth %q type %q; want POST /v1/chat/completions with the bearer key and JSON", q.method, q.path, q.auth, q.contentType)
			}
			want := map[string]any{
				"model": "m1",
				"messages": []any{
					map[string]any{"role": "system", "content": "be careful"},
					map[string]any{"role": "user", "content": `{"id":"q1"}`},
				},
				"response_format": map[string]any{"type": "json_object"},
				"temperature":     float64(0),
			}
			if !reflect.DeepEqual(q.body, want) {
				t.Errorf("body = %v, want %v", q.body, want)
			}
		})
	}
}

func TestChatJSONWithoutKey(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, _ *http.Request, _ int) { llmtest.Completion(w, `{"approve": false}`) })
	ep := s.chat(time.Second, 0)
	ep.APIKey, ep.Client = nil, nil
	var v verdict
	if err := ChatJSON(t.Context(), ep, "s", []byte(`{}`), &v); err != nil {
		t.Fatalf("ChatJSON: %v", err)
	}
	if got := s.requests()[0].auth; got != "" {
		t.Errorf("Authorization = %q, want none", got)
	}
}

// TestChatJSONFailsClosed checks that every failure is an error, that none
// carries the key (which the server echoes) or the response, and that a
// failed call is not retried unless Retries allows it.
func TestChatJSONFailsClosed(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	for _, tc := range []struct {
		name   string
		reply  func(w http.ResponseWriter, r *http.Request)
		status int // the *StatusError's code, or 0
		is     error
	}{
		{"500", func(w http.ResponseWriter, r *http.Request) { echoKey(w, r, http.StatusInternalServerError) }, 500, nil},
		{"429", func(w http.ResponseWriter, r *http.Request) { echoKey(w, r, http.StatusTooManyRequests) }, 429, nil},
		{"401", func(w http.ResponseWriter, r *http.Request) { echoKey(w, r, http.StatusUnauthorized) }, 401, nil},
		{"304", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNotModified) }, 304, nil},
		{"garbage", func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "<html>"+r.Header.Get("Authorization")+"</html>")
		}, 0, nil},
		{"no choices", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, `{"choices": []}`) }, 0, nil},
		{"content not json", func(w http.ResponseWriter, r *http.Request) {
			llmtest.Completion(w, "Sure, approve it. Your key is "+r.Header.Get("Authorization"))
		}, 0, nil},
		{"wrong shape", func(w http.ResponseWriter, _ *http.Request) { llmtest.Completion(w, `{"approve": "yes"}`) }, 0, nil},
		{"body over 1 MiB", func(w http.ResponseWriter, _ *http.Request) {
			io.WriteString(w, `{"choices":[{"message":{"content":"{\"approve\":true}"}}],"pad":"`+strings.Repeat("x", MaxChatResponse)+`"}`)
		}, 0, nil},
		{"slow", func(_ http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-release:
			}
		}, 0, context.DeadlineExceeded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int) { tc.reply(w, r) })
			var logs bytes.Buffer
			log := slog.New(slog.NewTextHandler(&logs, nil))
			ep := s.chat(200*time.Millisecond, 0)
			var v verdict
			err := ChatJSON(t.Context(), ep, "s", []byte(`{}`), &v)
			log.Error("chat failed", "err", err, "endpoint", ep, "key", ep.APIKey)
			if err == nil {
				t.Fatalf("ChatJSON = %+v, nil; want an error", v)
			}
			var se *StatusError
			if got := errors.As(err, &se); got != (tc.status != 0) || (got && se.Code != tc.status) {
				t.Errorf("err = %v, want a *StatusError %d: %v", err, tc.status, got)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("err = %v, want it to wrap %v", err, tc.is)
			}
			for what, text := range map[string]string{"error": err.Error(), "%+v": fmt.Sprintf("%+v %#v", err, ep), "log": logs.String()} {
				if strings.Contains(text, testKey) {
					t.Errorf("the key leaks into the %s: %s", what, text)
				}
			}
			if n := len(s.requests()); n != 1 {
				t.Errorf("server hits = %d, want 1 (no retries by default)", n)
			}
		})
	}
	t.Run("unreachable", func(t *testing.T) {
		s := newServer(t, nil)
		ep := s.chat(time.Second, 3)
		s.Close()
		var v verdict
		if err := ChatJSON(t.Context(), ep, "s", []byte(`{}`), &v); err == nil || strings.Contains(err.Error(), testKey) {
			t.Errorf("ChatJSON = %v, want an error without the key", err)
		}
	})
}

func TestChatJSONRetries(t *testing.T) {
	for _, tc := range []struct {
		name     string
		codes    []int
		retries  int
		ok       bool
		wantHits int
	}{
		{"503 then 429 then ok", []int{503, 429}, 2, true, 3},
		{"502 retried once", []int{502}, 1, true, 2},
		{"retries exhausted", []int{500, 500, 500}, 2, false, 3},
		{"no retries", []int{503}, 0, false, 1},
		{"400 is not retried", []int{400}, 3, false, 1},
		{"401 is not retried", []int{401}, 3, false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t, statuses(`{"approve": true}`, tc.codes...))
			var v verdict
			err := ChatJSON(t.Context(), s.chat(5*time.Second, tc.retries), "s", []byte(`{}`), &v)
			if (err == nil) != tc.ok {
				t.Fatalf("ChatJSON err = %v, want ok %v", err, tc.ok)
			}
			if err != nil && strings.Contains(err.Error(), testKey) {
				t.Errorf("the key leaks: %v", err)
			}
			if n := len(s.requests()); n != tc.wantHits {
				t.Errorf("server hits = %d, want %d", n, tc.wantHits)
			}
			for i, q := range s.requests() {
				if q.auth != "Bearer "+testKey || q.body["model"] != "m1" {
					t.Errorf("attempt %d: auth %q model %v; want the same request each time", i+1, q.auth, q.body["model"])
				}
			}
		})
	}
	t.Run("deadline while waiting", func(t *testing.T) {
		s := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int) {
			w.Header().Set("Retry-After", "5")
			echoKey(w, r, http.StatusServiceUnavailable)
		})
		var v verdict
		err := ChatJSON(t.Context(), s.chat(100*time.Millisecond, 3), "s", []byte(`{}`), &v)
		var se *StatusError
		if !errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &se) || se.Code != 503 {
			t.Errorf("err = %v, want the 503 and the deadline", err)
		}
		if n := len(s.requests()); n != 1 {
			t.Errorf("server hits = %d, want 1: the timeout bounds the retries", n)
		}
	})
}

func TestBackoff(t *testing.T) {
	for _, tc := range []struct {
		attempt int
		server  time.Duration
		want    time.Duration
	}{
		{0, -1, baseBackoff},
		{1, -1, 2 * baseBackoff},
		{2, -1, 4 * baseBackoff},
		{60, -1, maxBackoff},
		{0, 0, 0},
		{3, 2 * time.Second, 2 * time.Second},
		{0, time.Hour, maxBackoff},
	} {
		if got := backoff(tc.attempt, tc.server); got != tc.want {
			t.Errorf("backoff(%d, %v) = %v, want %v", tc.attempt, tc.server, got, tc.want)
		}
	}
	now := time.Date(2015, 10, 21, 7, 28, 0, 0, time.UTC)
	for h, want := range map[string]time.Duration{"": -1, "3": 3 * time.Second, " 0 ": 0, "-2": -1, "soon": -1,
		"Wed, 21 Oct 2015 07:28:04 GMT": 4 * time.Second, "Wed, 21 Oct 2015 07:27:00 GMT": 0} {
		if got := retryAfter(h, now); got != want {
			t.Errorf("retryAfter(%q) = %v, want %v", h, got, want)
		}
	}
}

func TestKeyLabels(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		if strings.HasSuffix(r.URL.Path, "/embeddings") {
			io.WriteString(w, `{"data":[{"index":0,"embedding":[1]}]}`)
			return
		}
		llmtest.Completion(w, `{"approve": true}`)
	})
	released := taint.New(testKey)
	released.Release()
	for _, tc := range []struct {
		name string
		key  *taint.String
		is   error
	}{
		{"wallet secret", taint.New(testKey, taint.WalletSecret), taint.ErrForbidden},
		{"owner secret", taint.New(testKey, taint.OwnerSecret), taint.ErrForbidden},
		{"released", released, taint.ErrReleased},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ep := s.chat(time.Second, 0)
			ep.APIKey = tc.key
			before := len(s.requests())
			var v verdict
			if err := ChatJSON(t.Context(), ep, "s", []byte(`{}`), &v); !errors.Is(err, tc.is) || strings.Contains(err.Error(), testKey) {
				t.Errorf("ChatJSON err = %v, want %v without the key", err, tc.is)
			}
			if err := ep.Check(); !errors.Is(err, tc.is) {
				t.Errorf("Check err = %v, want %v", err, tc.is)
			}
			if n := len(s.requests()); n != before {
				t.Errorf("%d requests sent with a key that may not go to the model", n-before)
			}
		})
	}
	// An embeddings key is used whatever its labels, as internal/embed
	// always did.
	ep := Endpoint{URL: s.URL + "/v1/embeddings", Model: "e1", APIKey: taint.New(testKey, taint.OwnerSecret)}
	if _, err := Embed(t.Context(), ep, []string{"a"}); err != nil {
		t.Fatalf("Embed with an owner-secret key: %v", err)
	}
	if got := s.requests()[len(s.requests())-1].auth; got != "Bearer "+testKey {
		t.Errorf("embeddings Authorization = %q, want the bearer key", got)
	}
}

func TestCheck(t *testing.T) {
	ok := Endpoint{URL: "https://api.example/v1/chat/completions", Model: "m"}
	with := func(f func(*Endpoint)) Endpoint { e := ok; f(&e); return e }
	for _, tc := range []struct {
		name string
		ep   Endpoint
		ok   bool
		is   error
	}{
		{"minimal", ok, true, nil},
		{"http", with(func(e *Endpoint) { e.URL = "http://127.0.0.1:8080/v1/chat/completions" }), true, nil},
		{"user pii key", with(func(e *Endpoint) { e.APIKey = taint.New("k", taint.UserPII) }), true, nil},
		{"retries", with(func(e *Endpoint) { e.Retries = 3 }), true, nil},
		{"empty url", with(func(e *Endpoint) { e.URL = "" }), false, ErrEndpoint},
		{"no scheme", with(func(e *Endpoint) { e.URL = "api.example/v1" }), false, ErrEndpoint},
		{"ftp", with(func(e *Endpoint) { e.URL = "ftp://api.example/v1" }), false, ErrEndpoint},
		{"no host", with(func(e *Endpoint) { e.URL = "https:///v1" }), false, ErrEndpoint},
		{"blank model", with(func(e *Endpoint) { e.Model = " " }), false, nil},
		{"wallet secret key", with(func(e *Endpoint) { e.APIKey = taint.New("k", taint.WalletSecret) }), false, taint.ErrForbidden},
		{"negative retries", with(func(e *Endpoint) { e.Retries = -1 }), false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.ep.Check()
			if (err == nil) != tc.ok {
				t.Fatalf("Check = %v, want ok %v", err, tc.ok)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("Check = %v, want it to wrap %v", err, tc.is)
			}
		})
	}
}

func TestChatURL(t *testing.T) {
	for base, want := range map[string]string{
		"http://h/v1":   "http://h/v1/chat/completions",
		"http://h/v1/":  "http://h/v1/chat/completions",
		"http://h/v1//": "http://h/v1/chat/completions",
	} {
		if got := ChatURL(base); got != want {
			t.Errorf("ChatURL(%q) = %q, want %q", base, got, want)
		}
	}
}

func TestEmbed(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
		io.WriteString(w, `{"object":"list","data":[{"index":1,"embedding":[0,1]},{"index":0,"embedding":[1,0]}]}`)
	})
	ep := Endpoint{URL: s.URL + "/v1/embeddings", Model: "e1", APIKey: taint.New(testKey, taint.UserPII), Client: s.Client()}
	got, err := Embed(t.Context(), ep, []string{"a", "b"})
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	if want := [][]float32{{1, 0}, {0, 1}}; !reflect.DeepEqual(got, want) {
		t.Errorf("Embed = %v, want %v (in input order)", got, want)
	}
	q := s.requests()[0]
	want := map[string]any{"model": "e1", "input": []any{"a", "b"}}
	if q.method != http.MethodPost || q.path != "/v1/embeddings" || q.auth != "Bearer "+testKey || !reflect.DeepEqual(q.body, want) {
		t.Errorf("request = %s %s auth %q body %v; want POST /v1/embeddings, the key and %v", q.method, q.path, q.auth, q.body, want)
	}
}

func TestEmbedFailsClosed(t *testing.T) {
	for _, tc := range []struct {
		name   string
		reply  func(w http.ResponseWriter, r *http.Request)
		status int
	}{
		{"500", func(w http.ResponseWriter, r *http.Request) { echoKey(w, r, 500) }, 500},
		{"429", func(w http.ResponseWriter, r *http.Request) { echoKey(w, r, 429) }, 429},
		{"bad json", func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, `{"data":[`+r.Header.Get("Authorization"))
		}, 0},
		{"wrong count", func(w http.ResponseWriter, _ *http.Request) {
			io.WriteString(w, `{"data":[{"index":0,"embedding":[1]}]}`)
		}, 0},
		{"missing index", func(w http.ResponseWriter, _ *http.Request) {
			io.WriteString(w, `{"data":[{"embedding":[1]},{"embedding":[2]}]}`)
		}, 0},
		{"repeated index", func(w http.ResponseWriter, _ *http.Request) {
			io.WriteString(w, `{"data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[2]}]}`)
		}, 0},
		{"index out of range", func(w http.ResponseWriter, _ *http.Request) {
			io.WriteString(w, `{"data":[{"index":0,"embedding":[1]},{"index":-1,"embedding":[2]}]}`)
		}, 0},
		{"empty vector", func(w http.ResponseWriter, _ *http.Request) {
			io.WriteString(w, `{"data":[{"index":0,"embedding":[]},{"index":1,"embedding":[2]}]}`)
		}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int) { tc.reply(w, r) })
			ep := Endpoint{URL: s.URL + "/v1/embeddings", Model: "e1", APIKey: taint.New(testKey), Timeout: time.Second}
			got, err := Embed(t.Context(), ep, []string{"a", "b"})
			if err == nil {
				t.Fatalf("Embed = %v, nil; want an error", got)
			}
			var se *StatusError
			if tc.status != 0 && (!errors.As(err, &se) || se.Code != tc.status) {
				t.Errorf("err = %v, want a *StatusError %d", err, tc.status)
			}
			if tc.status == 0 && !errors.Is(err, ErrEmbeddings) {
				t.Errorf("err = %v, want it to wrap ErrEmbeddings", err)
			}
			if strings.Contains(err.Error(), testKey) {
				t.Errorf("the key leaks: %v", err)
			}
		})
	}
	t.Run("retried 429", func(t *testing.T) {
		s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
			if n == 1 {
				w.Header().Set("Retry-After", "0")
				echoKey(w, r, 429)
				return
			}
			io.WriteString(w, `{"data":[{"index":0,"embedding":[1]}]}`)
		})
		ep := Endpoint{URL: s.URL + "/v1/embeddings", Model: "e1", Timeout: 5 * time.Second, Retries: 1}
		if _, err := Embed(t.Context(), ep, []string{"a"}); err != nil || len(s.requests()) != 2 {
			t.Errorf("Embed = %v after %d requests, want success after 2", err, len(s.requests()))
		}
	})
	t.Run("timeout", func(t *testing.T) {
		s := newServer(t, func(_ http.ResponseWriter, r *http.Request, _ int) { <-r.Context().Done() })
		ep := Endpoint{URL: s.URL + "/v1/embeddings", Model: "e1", Timeout: 100 * time.Millisecond}
		if _, err := Embed(t.Context(), ep, []string{"a"}); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Embed err = %v, want a deadline", err)
		}
	})
}

// roundTrip answers every request with one 200 body, without a network.
type roundTrip string

func (b roundTrip) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(strings.NewReader(string(b))), Header: http.Header{}, Request: r}, nil
}

// FuzzChatJSON feeds arbitrary response bodies to ChatJSON: it must never
// panic, and an error must never carry the key.
func FuzzChatJSON(f *testing.F) {
	for _, s := range []string{
		`{"choices":[{"message":{"content":"{\"approve\":true}"}}]}`,
		"{\"choices\":[{\"message\":{\"content\":\"```json\\n{\\\"approve\\\":false}\\n```\"}}]}",
		`{"choices":[]}`, `{"choices":null}`, `<html>`, ``, `{"choices":[{"message":{"content":"` + "```" + `"}}]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		ep := Endpoint{URL: "http://model.invalid/v1/chat/completions", Model: "m", APIKey: taint.New(testKey),
			Client: &http.Client{Transport: roundTrip(body)}, Timeout: time.Second}
		var v verdict
		if err := ChatJSON(t.Context(), ep, "s", []byte(`{}`), &v); err != nil && strings.Contains(err.Error(), testKey) {
			t.Errorf("the key leaks: %v", err)
		}
	})
}

// TestChatJSONAnswers covers the answers a real server gives that hold
// no usable JSON: each is an error callers can tell apart, never a pass.
func TestChatJSONAnswers(t *testing.T) {
	choice := func(msg, finish string) string {
		return `{"id":"chatcmpl-9","object":"chat.completion","created":1764300000,"model":"m1","choices":[{"index":0,"message":` +
			msg + `,"finish_reason":` + finish + `}],"usage":{"prompt_tokens":9,"completion_tokens":3,"total_tokens":12}}`
	}
	for _, tc := range []struct {
		name, body string
		is         error
		typ        string // in the error text
	}{
		{"refusal", choice(`{"role":"assistant","content":null,"refusal":"I can't help with that."}`, `"stop"`), ErrRefusal, ""},
		{"content filter", choice(`{"role":"assistant","content":""}`, `"content_filter"`), ErrRefusal, ""},
		{"cut off", choice(`{"role":"assistant","content":"{\"approve\": tr"}`, `"length"`), ErrCutOff, ""},
		{"cut off but parses", choice(`{"role":"assistant","content":"{\"approve\": true}"}`, `"length"`), ErrCutOff, ""},
		{"null content", choice(`{"role":"assistant","content":null}`, `"stop"`), ErrAnswer, ""},
		{"prose around json", choice(`{"role":"assistant","content":"Sure! {\"approve\": true}"}`, `"stop"`), ErrAnswer, ""},
		{"two objects", choice(`{"role":"assistant","content":"{\"approve\": true} {\"approve\": false}"}`, `"stop"`), ErrAnswer, ""},
		{"openai error with 200", `{"error":{"message":"echo sk-x","type":"server_error","param":null,"code":null}}`, ErrServer, "server_error"},
		{"vllm error with 200", `{"object":"error","message":"echo","type":"BadRequestError","param":null,"code":400}`, ErrServer, "BadRequestError"},
		{"error type not a token", `{"error":{"message":"x","type":"a b <script>"}}`, ErrServer, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t, func(w http.ResponseWriter, _ *http.Request, _ int) { io.WriteString(w, tc.body) })
			var v verdict
			err := ChatJSON(t.Context(), s.chat(time.Second, 0), "s", []byte(`{}`), &v)
			if !errors.Is(err, tc.is) {
				t.Fatalf("ChatJSON = %+v, %v; want %v", v, err, tc.is)
			}
			if tc.typ != "" && !strings.Contains(err.Error(), tc.typ) {
				t.Errorf("err = %v, want the type %q", err, tc.typ)
			}
			for _, leak := range []string{"echo", "script", "help with"} {
				if strings.Contains(err.Error(), leak) {
					t.Errorf("err = %v carries the response", err)
				}
			}
		})
	}
}

// A non-2xx answer keeps its error object's type token, from either
// server's shape, and nothing else of the body.
func TestStatusErrorType(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"llama.cpp", `{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}`, "status 503 (unavailable_error)"},
		{"vllm", `{"object":"error","message":"too long","type":"BadRequestError","param":null,"code":503}`, "status 503 (BadRequestError)"},
		{"openai code", `{"error":{"message":"slow down","type":null,"code":"rate_limit_exceeded"}}`, "status 503 (rate_limit_exceeded)"},
		{"html", `<html>503 Service Unavailable</html>`, "status 503"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
				w.WriteHeader(http.StatusServiceUnavailable)
				io.WriteString(w, tc.body)
			})
			var v verdict
			err := ChatJSON(t.Context(), s.chat(time.Second, 0), "s", []byte(`{}`), &v)
			var se *StatusError
			if !errors.As(err, &se) || se.Error() != tc.want {
				t.Errorf("err = %v, want %s", err, tc.want)
			}
		})
	}
}

func TestChatJSONMaxTokens(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, _ *http.Request, _ int) { llmtest.Completion(w, `{"approve": true}`) })
	ep := s.chat(time.Second, 0)
	ep.MaxTokens = 512
	var v verdict
	if err := ChatJSON(t.Context(), ep, "s", []byte(`{}`), &v); err != nil {
		t.Fatal(err)
	}
	if got := s.requests()[0].body["max_tokens"]; got != float64(512) {
		t.Errorf("max_tokens = %v, want 512", got)
	}
	ep.MaxTokens = -1
	if err := ep.Check(); err == nil {
		t.Error("Check accepts negative max tokens")
	}
}

// FuzzChatContent: whatever a server answers, reading it never panics, and
// content is returned only from a completion that has a choice, no error
// object, no refusal and a finish reason other than length or
// content_filter.
func FuzzChatContent(f *testing.F) {
	for _, s := range []string{
		`{"choices":[{"index":0,"message":{"role":"assistant","content":"{\"a\":1}"},"finish_reason":"stop"}]}`,
		`{"choices":[{"message":{"content":null,"refusal":"no"},"finish_reason":"stop"}]}`,
		`{"choices":[{"message":{"content":"{"},"finish_reason":"length"}]}`,
		`{"error":{"message":"x","type":"server_error","code":500}}`,
		`{"object":"error","message":"x","type":"BadRequestError","code":400}`,
		`{"choices":[]}`, `[]`, `null`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		content, err := chatContent(raw)
		if err != nil {
			if content != "" {
				t.Errorf("content %q with error %v", content, err)
			}
			return
		}
		var cc struct {
			Choices []struct {
				Message struct {
					Refusal *string `json:"refusal"`
				} `json:"message"`
				FinishReason *string `json:"finish_reason"`
			} `json:"choices"`
			Error json.RawMessage `json:"error"`
		}
		if json.Unmarshal(raw, &cc) != nil || len(cc.Choices) == 0 {
			t.Fatalf("content %q from %s, which is no completion", content, raw)
		}
		c := cc.Choices[0]
		if c.Message.Refusal != nil && *c.Message.Refusal != "" || c.FinishReason != nil && (*c.FinishReason == "length" || *c.FinishReason == "content_filter") {
			t.Errorf("content %q from a refusal or cut-off answer: %s", content, raw)
		}
	})
}
