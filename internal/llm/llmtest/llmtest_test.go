package llmtest

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

func cassette() *Cassette {
	return &Cassette{Models: []string{"m"}, Exchanges: []Exchange{
		{Name: "a", Request: Request{Method: "POST", Path: "/v1/chat/completions", Header: map[string]string{"Authorization": "Bearer " + Key},
			Body: json.RawMessage(`{"model": "m", "n": [1, 2]}`)},
			Response: Response{Status: 429, Header: map[string]string{"Retry-After": "1"}, Text: "slow down"}},
		{Name: "b", Request: Request{Method: "POST", Path: "/v1/chat/completions", Header: map[string]string{"Authorization": "Bearer " + Key},
			Body: json.RawMessage(`{"model": "m", "n": [1, 2]}`)},
			Response: Response{Status: 200, Body: json.RawMessage(`{"ok": true}`)}},
		{Name: "other", Provider: 1, Request: Request{Method: "POST", Path: "/x", Body: json.RawMessage(`{}`)}},
	}}
}

func post(t *testing.T, c *http.Client, auth, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", "http://replay.invalid/v1/chat/completions", strings.NewReader(body))
	req.Header.Set("Authorization", auth)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// Equal requests take their exchanges in order, modulo JSON whitespace and
// key order; only the provider's exchanges are served.
func TestReplay(t *testing.T) {
	r := NewReplay(cassette(), 0)
	c := r.Client()
	if code, body := post(t, c, "Bearer "+Key, `{"n":[1,2],"model":"m"}`); code != 429 || body != "slow down" {
		t.Errorf("first = %d %q, want the 429", code, body)
	}
	if code, body := post(t, c, "Bearer "+Key, `{"model":"m","n":[1,2]}`); code != 200 || body != `{"ok": true}` {
		t.Errorf("second = %d %q, want the 200", code, body)
	}
	if err := r.Err(); err != nil || r.Hits() != 2 {
		t.Errorf("Err = %v after %d hits, want nil after 2", err, r.Hits())
	}
}

// A request that differs in any part that matters is refused (and not
// with a status a client retries) and reported, with why; an exchange
// never requested is reported.
func TestReplayMismatch(t *testing.T) {
	for name, tc := range map[string]struct{ auth, body, why string }{
		"key":   {"Bearer other", `{"model":"m","n":[1,2]}`, "header Authorization"},
		"body":  {"Bearer " + Key, `{"model":"m","n":[2,1]}`, ".n[0]"},
		"extra": {"Bearer " + Key, `{"model":"m","n":[1,2],"x":1}`, ".x is not recorded"},
	} {
		t.Run(name, func(t *testing.T) {
			r := NewReplay(cassette(), 0)
			if code, _ := post(t, r.Client(), tc.auth, tc.body); code != http.StatusTeapot {
				t.Errorf("status %d, want 418", code)
			}
			err := r.Err()
			if err == nil || !strings.Contains(err.Error(), tc.why) || !strings.Contains(err.Error(), `"b" was never requested`) {
				t.Errorf("Err = %v, want %q and the unused exchanges", err, tc.why)
			}
		})
	}
}
