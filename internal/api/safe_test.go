package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/api"
	"github.com/wardhq/ward/internal/auth"
)

// TestSafeRoutes: GET /v1/safe and POST /v1/safe/{hash}/signatures are
// the owner's; a malformed hash or signature is refused before the wallet
// sees it; the wallet's refusal is 409 SAFE_SIGNATURE_REFUSED with its
// reason, an unknown hash 404, an accepted signature its outcome. (The
// daemon's Safe over a real chain is tested in internal/daemon.)
func TestSafeRoutes(t *testing.T) {
	const known = "0x" + "ab" + "00000000000000000000000000000000000000000000000000000000000000"
	var got []string
	h := start(t, harnessOpts{safe: api.Safe{
		Pending: func(context.Context) (any, error) {
			return map[string]any{"pending": []map[string]string{{"safe_tx_hash": known}}}, nil
		},
		Sign: func(_ context.Context, _ auth.Principal, hash string, sig []byte) (any, error) {
			got = append(got, fmt.Sprintf("%s %x", hash, sig[64]))
			switch {
			case hash != known:
				return nil, api.ErrSafeUnknown
			case sig[64] == 27:
				return nil, fmt.Errorf("sign safe tx: %w: the signature is not by an owner of the Safe (0x00…)", api.ErrSafeRefused)
			}
			return map[string]any{"status": "executed"}, nil
		},
	}})
	sig := func(v byte) map[string]string {
		return map[string]string{"signature": "0x" + strings.Repeat("11", 64) + fmt.Sprintf("%02x", v)}
	}
	path := "/v1/safe/" + known + "/signatures"

	h.want(h.do("GET", "/v1/safe", h.agent, nil), http.StatusForbidden, api.CodeForbidden)
	r := h.do("GET", "/v1/safe", h.owner, nil)
	h.want(r, http.StatusOK, "")
	if !strings.Contains(string(r.body), known) {
		t.Errorf("pending view %s lacks %s", r.body, known)
	}
	h.want(h.do("POST", path, h.agent, sig(28)), http.StatusForbidden, api.CodeForbidden)
	h.want(h.do("POST", "/v1/safe/0x12/signatures", h.owner, sig(28)), http.StatusNotFound, api.CodeNotFound)
	h.want(h.do("POST", path, h.owner, map[string]string{"signature": "0x1234"}), http.StatusBadRequest, api.CodeBadRequest)
	h.want(h.do("POST", path, h.owner, map[string]string{"sig": "0x1234"}), http.StatusBadRequest, api.CodeBadJSON)
	if len(got) != 0 {
		t.Errorf("the wallet saw refused requests: %v", got)
	}
	r = h.do("POST", path, h.owner, sig(27))
	h.want(r, http.StatusConflict, api.CodeSafeSignatureRefused)
	if !strings.Contains(string(r.body), "not by an owner") {
		t.Errorf("refusal %s does not say why", r.body)
	}
	h.want(h.do("POST", "/v1/safe/0x"+strings.Repeat("cd", 32)+"/signatures", h.owner, sig(28)), http.StatusNotFound, api.CodeNotFound)
	r = h.do("POST", path, h.owner, sig(28))
	h.want(r, http.StatusOK, "")
	if !strings.Contains(string(r.body), "executed") {
		t.Errorf("accepted signature answered %s", r.body)
	}
}
