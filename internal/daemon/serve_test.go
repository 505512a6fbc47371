package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/store/sqlite"
)

// startServe runs Serve on a free loopback port and returns its base URL
// and a function that stops it and returns Serve's error.
func startServe(t *testing.T, dir string, mount func(*Server) error) (string, func() error) {
	t.Helper()
	st, err := Start(context.Background(), ServeConfig{Addr: "127.0.0.1:0", Data: dir, Mount: mount})
	if err != nil {
		t.Fatalf("serve did not start: %v", err)
	}
	return st.URL, st.Stop
}

func TestServeStartsAuthenticatesAndStops(t *testing.T) {
	dir := t.TempDir()
	start := time.Now()
	var srv *Server
	base, stop := startServe(t, dir, func(s *Server) error {
		srv = s
		s.Mux.Handle("GET /v1/whoami", s.Authenticate(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			p, _ := auth.PrincipalFrom(r.Context())
			json.NewEncoder(w).Encode(p)
		})))
		s.Mux.Handle("POST /v1/owner-only", s.Authenticate(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}), auth.Owner))
		return nil
	})
	// The startup figure is measured by `ward bench serve` on the real
	// binary; here (possibly under the race detector) it is only logged.
	t.Logf("ready after %v", time.Since(start))
	agent, _, err := auth.Create(t.Context(), srv.Stack.Store, auth.Spec{Role: auth.Agent, Name: "test"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	get := func(method, path, tok string) int {
		req, _ := http.NewRequest(method, base+path, nil)
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, tc := range []struct {
		method, path, tok string
		want              int
	}{
		{"GET", "/healthz", "", 200},
		{"GET", "/v1/whoami", "", 401},
		{"GET", "/v1/whoami", "ward_" + strings.Repeat("x", 43), 401},
		{"GET", "/v1/whoami", "not-a-token", 401},
		{"GET", "/v1/whoami", agent, 200},
		{"POST", "/v1/owner-only", agent, 403},
	} {
		if got := get(tc.method, tc.path, tc.tok); got != tc.want {
			t.Errorf("%s %s (token %q): %d, want %d", tc.method, tc.path, tc.tok, got, tc.want)
		}
	}
	// A durable record acknowledged before shutdown survives it.
	err = srv.Stack.Store.AppendAction(t.Context(), &store.ActionRecord{ID: "01JD3K7ZQ4Y7K3M9XW2V5T8R00", Time: time.Now(), Kind: store.ActionExecuted})
	if err != nil {
		t.Fatal(err)
	}
	if err := stop(); err != nil {
		t.Fatalf("serve returned %v", err)
	}
	st, err := sqlite.Open(t.Context(), sqlite.Config{Path: filepath.Join(dir, "ward.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	recs, err := st.Actions(t.Context(), store.ActionFilter{Kind: store.ActionExecuted})
	if err != nil || len(recs) != 1 {
		t.Errorf("acknowledged record after shutdown: %d (%v)", len(recs), err)
	}
}

func TestServeRefusesRemoteWithoutTLS(t *testing.T) {
	err := Serve(t.Context(), ServeConfig{Addr: "0.0.0.0:0", Data: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("err = %v", err)
	}
}

// syncBuffer is a bytes.Buffer safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// An open event stream must not hold shutdown for the grace period (an MCP
// client's standalone SSE stream stays open for as long as its session),
// while a call in flight still finishes.
func TestServeShutdownEndsStreamsAndFinishesCalls(t *testing.T) {
	streamOpen := make(chan struct{})
	callRunning := make(chan struct{})
	var logged syncBuffer
	st, err := Start(context.Background(), ServeConfig{Addr: "127.0.0.1:0", Data: t.TempDir(),
		Log: slog.New(slog.NewTextHandler(&logged, nil)), Mount: func(s *Server) error {
			s.Mux.HandleFunc("GET /stream", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				w.WriteHeader(200)
				w.(http.Flusher).Flush()
				close(streamOpen)
				<-r.Context().Done()
			})
			s.Mux.HandleFunc("POST /call", func(w http.ResponseWriter, r *http.Request) {
				close(callRunning)
				time.Sleep(300 * time.Millisecond)
				w.Write([]byte("done"))
			})
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	base, stop := st.URL, st.Stop
	req, _ := http.NewRequest("GET", base+"/stream", nil)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	<-streamOpen
	answered := make(chan string, 1)
	go func() {
		resp, err := http.Post(base+"/call", "text/plain", nil)
		if err != nil {
			answered <- err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		answered <- string(b)
	}()
	<-callRunning
	if err := stop(); err != nil {
		t.Fatalf("serve returned %v", err)
	}
	// Had the stream held the shutdown, its grace period would have run
	// out and the server would say so. (Not a timing assertion: under a
	// loaded CI closing the stack alone can take seconds.)
	if strings.Contains(logged.String(), "grace period") {
		t.Errorf("the open event stream held the shutdown to its deadline: %s", logged.String())
	}
	if got := <-answered; got != "done" {
		t.Errorf("in-flight call answered %q, want it finished", got)
	}
}

// TestServeStopsSurfacesBeforeTheStore: OnShutdown functions run in the
// order they registered, after the listener stopped and before the stack
// closes (they may still use the store).
func TestServeStopsSurfacesBeforeTheStore(t *testing.T) {
	var order []string
	st, err := Start(context.Background(), ServeConfig{Addr: "127.0.0.1:0", Data: t.TempDir(), Mount: func(s *Server) error {
		for _, name := range []string{"first", "second"} {
			s.OnShutdown(func(ctx context.Context) error {
				if _, _, err := auth.Create(ctx, s.Stack.Store, auth.Spec{Role: auth.Agent, Name: name}, time.Now()); err != nil {
					t.Errorf("%s: the store at shutdown: %v", name, err)
				}
				if _, err := http.Get(s.URL + "/healthz"); err == nil {
					t.Errorf("%s: the listener still answers", name)
				}
				order = append(order, name)
				return nil
			})
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Stop(); err != nil {
		t.Fatalf("serve: %v", err)
	}
	if got := strings.Join(order, " "); got != "first second" {
		t.Errorf("surfaces stopped: %q, want first second", got)
	}
}
