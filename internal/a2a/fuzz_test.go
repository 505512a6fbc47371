package a2a

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/reason"
)

// fakeGate answers calls as the gate would: refuse_me is refused,
// hold_me is held for review, anything else returns a result.
func fakeGate(_ context.Context, _ auth.Principal, tool string, _ json.RawMessage) (json.RawMessage, error) {
	switch tool {
	case "refuse_me":
		return nil, &gate.Refusal{Code: reason.ToolUnavailable, Message: "no such tool", Detail: "internal"}
	case "hold_me":
		return nil, &gate.Refusal{Code: reason.ConfirmationRequired, Message: "held", Stage: "policy", Quarantine: "01JD3K7ZQ4Y7K3M9XW2V5T8R00"}
	case "query_state":
		return json.RawMessage(`{"status":"pending","id":"01JD3K7ZQ4Y7K3M9XW2V5T8R00"}`), nil
	}
	return json.RawMessage(`{"ok":true}`), nil
}

// FuzzServeHTTP feeds the JSON-RPC endpoint arbitrary bodies, seeded from
// testdata/rpc: whatever arrives, the reply is a 200 or 413 carrying
// well-formed JSON-RPC (one response, or one per event of a stream), and
// nothing panics.
func FuzzServeHTTP(f *testing.F) {
	seeds, err := filepath.Glob("testdata/rpc/*.json")
	if err != nil || len(seeds) == 0 {
		f.Fatalf("no corpus: %v", err)
	}
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	h := newHandler(f, fakeGate)
	f.Fuzz(func(t *testing.T, b []byte) {
		rec := httptest.NewRecorder()
		r := httptest.NewRequest("POST", RPCPath, bytes.NewReader(b))
		h.ServeHTTP(rec, r.WithContext(auth.WithPrincipal(r.Context(), alice)))
		if rec.Code != http.StatusOK && rec.Code != http.StatusRequestEntityTooLarge {
			t.Fatalf("HTTP %d for %q", rec.Code, b)
		}
		var replies []string
		if rec.Header().Get("Content-Type") == "text/event-stream" {
			sc := bufio.NewScanner(rec.Body)
			sc.Buffer(nil, 4<<20)
			for sc.Scan() {
				if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
					replies = append(replies, d)
				}
			}
		} else {
			replies = append(replies, rec.Body.String())
		}
		if len(replies) == 0 {
			t.Fatalf("no reply to %q", b)
		}
		for _, rp := range replies {
			var env map[string]json.RawMessage
			if err := json.Unmarshal([]byte(rp), &env); err != nil {
				t.Fatalf("reply %q to %q: %v", rp, b, err)
			}
			_, hasID := env["id"]
			_, hasResult := env["result"]
			rawErr, hasError := env["error"]
			if string(env["jsonrpc"]) != `"2.0"` || !hasID || hasResult == hasError || len(env) != 3 {
				t.Fatalf("reply %q to %q is not one JSON-RPC response", rp, b)
			}
			var e wireError
			if hasError && (json.Unmarshal(rawErr, &e) != nil || e.Code == 0 || e.Message == "") {
				t.Fatalf("error %s", rawErr)
			}
		}
	})
}
