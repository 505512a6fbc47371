package cli

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestSafeCommands: `ward safe list` and `ward safe sign` send the owner's
// token to the daemon's Safe routes and print its answer; a malformed
// hash or signature is refused before anything is sent, and the daemon's
// refusal is the command's failure with its code.
func TestSafeCommands(t *testing.T) {
	hash := "0x" + strings.Repeat("ab", 32)
	sig := "0x" + strings.Repeat("11", 64) + "1c"
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		seen = append(seen, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization")+" "+string(body))
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == "GET" && r.URL.Path == "/v1/safe":
			io.WriteString(w, `{"pending":[{"safe_tx_hash":"`+hash+`"}]}`)
		case strings.Contains(string(body), "1b\""):
			w.WriteHeader(http.StatusConflict)
			io.WriteString(w, `{"error":{"code":"SAFE_SIGNATURE_REFUSED","message":"not an owner"}}`)
		default:
			io.WriteString(w, `{"status":"executed","tx_hash":"0x01"}`)
		}
	}))
	defer srv.Close()

	out, errOut, code := run(t, "", "safe", "list", "--addr", srv.URL, "--token", "tok")
	if code != exitOK || !strings.Contains(out, hash) {
		t.Errorf("safe list: %d %q %q", code, out, errOut)
	}
	out, errOut, code = run(t, "", "safe", "sign", "--addr", srv.URL, "--token", "tok", hash, sig)
	if code != exitOK || !strings.Contains(out, `"executed"`) {
		t.Errorf("safe sign: %d %q %q", code, out, errOut)
	}
	_, errOut, code = run(t, "", "safe", "sign", "--addr", srv.URL, "--token", "tok", hash, sig[:130]+"1b")
	if code != exitFail || !strings.Contains(errOut, "SAFE_SIGNATURE_REFUSED: not an owner") {
		t.Errorf("refused signature: %d %q", code, errOut)
	}
	want := []string{
		"GET /v1/safe Bearer tok ",
		"POST /v1/safe/" + hash + "/signatures Bearer tok {\"signature\":\"" + sig + "\"}",
		"POST /v1/safe/" + hash + "/signatures Bearer tok {\"signature\":\"" + sig[:130] + "1b\"}",
	}
	if strings.Join(seen, "\n") != strings.Join(want, "\n") {
		t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
	}

	seen = nil
	for name, args := range map[string][]string{
		"short hash":      {"safe", "sign", "--addr", srv.URL, "--token", "tok", "0x12", sig},
		"short signature": {"safe", "sign", "--addr", srv.URL, "--token", "tok", hash, "0x1234"},
		"no token":        {"safe", "list", "--addr", srv.URL},
		"remote http":     {"safe", "list", "--addr", "http://192.0.2.1:8080", "--token", "tok"},
		"one argument":    {"safe", "sign", "--addr", srv.URL, "--token", "tok", hash},
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
