package api_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestJunkTraffic hammers a running ward serve with malformed requests from
// many goroutines (garbage and oversized bodies, wrong types and content
// types, random paths and methods, bad and missing tokens) and with broken
// requests on raw TCP (truncated, invalid, oversized headers, clients that
// stall), then checks that it still answers /healthz and the API. No
// response may be a 500, and every API error must be JSON with a code.
func TestJunkTraffic(t *testing.T) {
	h := start(t, harnessOpts{maxStreams: 8})
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)

	// Clients that stall mid-header hold connections for the whole test.
	var stalled []net.Conn
	for i := range 20 {
		c, err := net.Dial("tcp", strings.TrimPrefix(h.base, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "POST /v1/call/query_state HTTP/1.1\r\nHost: ward\r\nX-Stall-%d: ", i)
		stalled = append(stalled, c)
	}
	defer func() {
		for _, c := range stalled {
			c.Close()
		}
	}()

	paths := []string{
		"/v1/", "/v1/tools", "/v1/sessions", "/v1/gate", "/v1/gate/halt", "/v1/gate/resume", "/v1/gate/phase", "/v1/gate/spending",
		"/v1/call/query_state", "/v1/call/preview_action", "/v1/call/commit_action", "/v1/call/search_context", "/v1/call/%00",
		"/v1/policy/check", "/v1/decisions", "/v1/decisions?limit=-1&since=%ff", "/v1/reports", "/v1/reports/%2e%2e",
		"/v1/actions?until=9999999h", "/v1/permits", "/v1/permits/01JD3K7ZQ4Y7K3M9XW2V5T8R00", "/v1/permits/x/cancel",
		"/v1/quarantine", "/v1/quarantine?status=%00", "/v1/quarantine/01JD3K7ZQ4Y7K3M9XW2V5T8R00/approve", "/v1/quarantine/x/reject",
		"/v1/events", "/v1/events?since=18446744073709551616", "/v1/events?kinds=" + strings.Repeat("%ff", 50),
		"/v1//gate", "/v1/call/../../etc/passwd", "/v1/" + strings.Repeat("a/", 300), "/metrics", "/healthz",
	}
	methods := []string{"GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "BREW", "PROPFIND", "TRACE"}
	tokens := []string{"", "Bearer", "Bearer ", "Bearer x", "bearer ward_" + strings.Repeat("A", 43), "Basic YTpi",
		"Bearer " + h.agent, "Bearer " + h.peer, "Bearer " + h.agent + "x", "Bearer " + strings.Repeat("ward_", 2000)}
	types := []string{"", "application/json", "text/plain", "multipart/form-data; boundary=x", "application/json; charset=utf-16",
		";;;", "application/problem+json", "application/x-www-form-urlencoded"}
	bodies := []func(r *rand.Rand) []byte{
		func(*rand.Rand) []byte { return nil },
		func(*rand.Rand) []byte { return []byte("{}") },
		func(*rand.Rand) []byte { return []byte(`{"kind":`) },
		func(*rand.Rand) []byte { return []byte(`{"kind":7,"params":[]}`) },
		func(*rand.Rand) []byte { return []byte(`[{"reason":{"deep":true}}]`) },
		func(*rand.Rand) []byte { return []byte(`{"phase":"terminal"} trailing`) },
		func(*rand.Rand) []byte { return []byte(`{"note":"` + strings.Repeat("\\u0000", 100) + `"}`) },
		func(*rand.Rand) []byte { return []byte(`{"kind":"gate","x":1e999999}`) },
		func(*rand.Rand) []byte { return []byte(strings.Repeat("[", 100_000)) },
		func(*rand.Rand) []byte { return bytes.Repeat([]byte(`{"a":`), 10_000) },
		func(*rand.Rand) []byte {
			return append([]byte(`{"reason":"`), append(bytes.Repeat([]byte("x"), 2<<20), '"', '}')...)
		},
		func(*rand.Rand) []byte { return bytes.Repeat([]byte(" "), 1<<20+1) },
		func(r *rand.Rand) []byte {
			b := make([]byte, r.IntN(4096))
			for i := range b {
				b[i] = byte(r.UintN(256))
			}
			return b
		},
		func(*rand.Rand) []byte {
			return []byte(`{"action_type":"swap","venue":"uniswap_v3","params":{"token_in":"0x0","token_out":"` + strings.Repeat("f", 500) + `","amount_in":"-1"}}`)
		},
		func(*rand.Rand) []byte {
			return []byte(`{"tool":{"name":"transfer_credits"},"args":{"amount_cents":1e308},"state":{"executed":[{"tool":"x","count":1000000}]}}`)
		},
	}

	client := &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	const workers, perWorker = 8, 120
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	for w := range workers {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(seed, uint64(w)))
			for range perWorker {
				path := paths[r.IntN(len(paths))]
				method := methods[r.IntN(len(methods))]
				if n := r.IntN(10); n < 7 { // mostly the methods routes take
					method = methods[n%2]
				}
				body := bodies[r.IntN(len(bodies))](r)
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				if strings.HasPrefix(path, "/v1/events") {
					ctx, cancel = context.WithTimeout(context.Background(), 200*time.Millisecond)
				}
				req, err := http.NewRequestWithContext(ctx, method, h.base+path, bytes.NewReader(body))
				if err != nil {
					cancel()
					continue
				}
				if ct := types[r.IntN(len(types))]; ct != "" {
					req.Header.Set("Content-Type", ct)
				}
				tok := tokens[r.IntN(len(tokens))]
				switch r.IntN(10) { // mostly valid tokens, to get past authentication
				case 0, 1, 2, 3:
					tok = "Bearer " + h.agent
				case 4, 5:
					tok = "Bearer " + h.owner
				}
				if tok != "" {
					req.Header.Set("Authorization", tok)
				}
				if r.IntN(5) == 0 {
					req.Header.Set("Last-Event-ID", string(rune(r.IntN(0x10FFFF))))
					req.Header.Set("X-Ward-Session", strings.Repeat("s", r.IntN(100)))
				}
				resp, err := client.Do(req)
				if err != nil {
					cancel()
					continue // a stream cut by its deadline, a body the server stopped reading
				}
				b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
				resp.Body.Close()
				cancel()
				mu.Lock()
				statuses[resp.StatusCode]++
				mu.Unlock()
				checkJunkResponse(t, method, path, resp, b)
			}
		})
	}

	// Broken requests on raw TCP, concurrently with the above.
	raw := []string{
		"GET /v1/gate HTTP/1.1\r\nHost: ward\r\nAuthor",
		"POST /v1/call/query_state HTTP/1.1\r\nHost: ward\r\nAuthorization: Bearer " + h.agent + "\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"kind\":",
		"GARBAGE\r\n\r\n",
		"GET /v1/gate HTTP/9.9\r\nHost: ward\r\n\r\n",
		"GET /v1/gate HTTP/1.1\r\nHost: ward\r\nX-Big: " + strings.Repeat("b", 80<<10) + "\r\n\r\n",
		"POST /v1/gate/halt HTTP/1.1\r\nHost: ward\r\nTransfer-Encoding: chunked\r\nAuthorization: Bearer " + h.agent + "\r\n\r\nzz\r\n",
		"POST /v1/gate/halt HTTP/1.1\r\nHost: ward\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
		"GET /v1/events HTTP/1.1\r\nHost: ward\r\nAuthorization: Bearer " + h.agent + "\r\n\r\n",
		"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",
	}
	for _, req := range raw {
		wg.Go(func() {
			c, err := net.Dial("tcp", strings.TrimPrefix(h.base, "http://"))
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(10 * time.Second))
			io.WriteString(c, req)
			if cw, ok := c.(*net.TCPConn); ok {
				cw.CloseWrite()
			}
			io.Copy(io.Discard, bufio.NewReader(c))
		})
	}
	wg.Wait()
	t.Logf("statuses: %v", statuses)

	// Still serving.
	resp, err := http.Get(h.base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/healthz: %d", resp.StatusCode)
	}
	h.do("POST", "/v1/gate/resume", h.owner, nil) // junk may have halted writes
	h.want(h.do("GET", "/v1/gate", h.agent, nil), http.StatusOK, "")
	h.want(h.do("POST", "/v1/call/query_state", h.agent, `{"kind":"gate"}`), http.StatusOK, "")
	h.want(h.do("POST", "/v1/call/preview_action", h.agent, h.swap(1)), http.StatusOK, "")
}

// checkJunkResponse: no 500; an API error is JSON with a code.
func checkJunkResponse(t *testing.T, method, path string, resp *http.Response, body []byte) {
	t.Helper()
	if resp.StatusCode == http.StatusInternalServerError {
		t.Errorf("%s %s: 500: %s", method, path, body)
		return
	}
	api := strings.HasPrefix(path, "/v1/") || strings.HasPrefix(path, "/metrics")
	if !api || resp.StatusCode < 400 || method == "HEAD" {
		return
	}
	var e struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &e); err != nil || e.Error.Code == "" || e.Error.Message == "" {
		t.Errorf("%s %s: %d with a body that is not a JSON error: %.200q", method, path, resp.StatusCode, body)
	}
}
