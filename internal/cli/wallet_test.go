package cli

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestWalletPending: `ward wallet pending [ID]` sends the owner's token to
// the daemon's routes of the owner's transactions and prints its answer;
// a malformed id is refused before anything is sent, and an unknown one
// is the command's failure with the daemon's code.
func TestWalletPending(t *testing.T) {
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v1/wallet/pending":
			io.WriteString(w, `{"pending":[{"id":"otx1","kind":"grant_session_key","status":"awaiting_owner"}]}`)
		case "/v1/wallet/pending/otx1":
			io.WriteString(w, `{"id":"otx1","status":"done","done_tx":"0x01"}`)
		default:
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"error":{"code":"NOT_FOUND","message":"no such owner transaction"}}`)
		}
	}))
	defer srv.Close()

	out, errOut, code := run(t, "", "wallet", "pending", "--addr", srv.URL, "--token", "tok")
	if code != exitOK || !strings.Contains(out, `"grant_session_key"`) {
		t.Errorf("wallet pending: %d %q %q", code, out, errOut)
	}
	out, errOut, code = run(t, "", "wallet", "pending", "--addr", srv.URL, "--token", "tok", "otx1")
	if code != exitOK || !strings.Contains(out, `"done"`) {
		t.Errorf("wallet pending otx1: %d %q %q", code, out, errOut)
	}
	_, errOut, code = run(t, "", "wallet", "pending", "--addr", srv.URL, "--token", "tok", "otx2")
	if code != exitFail || !strings.Contains(errOut, "NOT_FOUND") {
		t.Errorf("unknown id: %d %q", code, errOut)
	}
	want := "GET /v1/wallet/pending Bearer tok\nGET /v1/wallet/pending/otx1 Bearer tok\nGET /v1/wallet/pending/otx2 Bearer tok"
	if got := strings.Join(seen, "\n"); got != want {
		t.Errorf("requests:\n%s\nwant:\n%s", got, want)
	}

	seen = nil
	for name, args := range map[string][]string{
		"bad id":        {"wallet", "pending", "--addr", srv.URL, "--token", "tok", "../x"},
		"two arguments": {"wallet", "pending", "--addr", srv.URL, "--token", "tok", "a", "b"},
		"no token":      {"wallet", "pending", "--addr", srv.URL},
		"remote http":   {"wallet", "pending", "--addr", "http://192.0.2.1:8080", "--token", "tok"},
	} {
		t.Setenv("WARD_TOKEN", "")
		if _, errOut, code := run(t, "", args...); code != exitUsage {
			t.Errorf("%s: exit %d (%q), want usage", name, code, errOut)
		}
	}
	if len(seen) != 0 {
		t.Errorf("refused invocations reached the daemon: %v", seen)
	}
}
