package chain

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// An RPC URL's API key reaches the endpoint and nothing else: not the
// errors of a failed dial, not the errors of a working provider.
func TestRPCURLKeyStaysOutOfErrors(t *testing.T) {
	const key = "SECRETAPIKEY123"
	_, err := Dial(t.Context(), "http://127.0.0.1:1/v3/"+key, ProviderConfig{Attempts: 1})
	if err == nil || strings.Contains(err.Error(), key) {
		t.Fatalf("dial error %v", err)
	}

	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.URL.Path)
		u, p, _ := r.BasicAuth()
		body, _ := io.ReadAll(r.Body)
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.Unmarshal(body, &req)
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path != "/v3/"+key || u != "user" || p != "pass" {
			w.WriteHeader(401)
			return
		}
		switch req.Method {
		case "eth_chainId":
			w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":"0x1"}`))
		default:
			w.WriteHeader(500)
		}
	}))
	defer srv.Close()
	u := strings.Replace(srv.URL, "http://", "http://user:pass@", 1) + "/v3/" + key
	p, err := Dial(t.Context(), u, ProviderConfig{Attempts: 1})
	if err != nil {
		t.Fatalf("dial with the key: %v (paths %v)", err, paths)
	}
	defer p.Close()
	if p.ChainID() != 1 {
		t.Errorf("chain id %d", p.ChainID())
	}
	_, err = p.BalanceOf(t.Context(), [20]byte{1})
	if err == nil || strings.Contains(err.Error(), key) || strings.Contains(err.Error(), "pass") {
		t.Errorf("a failing call's error: %v", err)
	}
}
