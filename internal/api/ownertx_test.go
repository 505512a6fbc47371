package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/api"
)

// TestOwnerTxRoutes: GET /v1/wallet/pending and /v1/wallet/pending/{id}
// are the owner's; a malformed id never reaches the daemon, an unknown one
// is 404. (The daemon's view over a real chain is tested in
// internal/daemon.)
func TestOwnerTxRoutes(t *testing.T) {
	var asked []string
	h := start(t, harnessOpts{ownerTxs: api.OwnerTxs{
		Pending: func(context.Context) (any, error) {
			return map[string]any{"pending": []map[string]string{{"id": "otx1", "status": "awaiting_owner"}}}, nil
		},
		Get: func(_ context.Context, id string) (any, error) {
			asked = append(asked, id)
			if id != "otx1" {
				return nil, api.ErrOwnerTxUnknown
			}
			return map[string]string{"id": id, "status": "done"}, nil
		},
	}})
	h.want(h.do("GET", "/v1/wallet/pending", h.agent, nil), http.StatusForbidden, api.CodeForbidden)
	h.want(h.do("GET", "/v1/wallet/pending/otx1", h.agent, nil), http.StatusForbidden, api.CodeForbidden)
	r := h.do("GET", "/v1/wallet/pending", h.owner, nil)
	h.want(r, http.StatusOK, "")
	if !strings.Contains(string(r.body), "otx1") {
		t.Errorf("pending view %s lacks otx1", r.body)
	}
	r = h.do("GET", "/v1/wallet/pending/otx1", h.owner, nil)
	h.want(r, http.StatusOK, "")
	if !strings.Contains(string(r.body), `"done"`) {
		t.Errorf("view %s is not done", r.body)
	}
	h.want(h.do("GET", "/v1/wallet/pending/otx2", h.owner, nil), http.StatusNotFound, api.CodeNotFound)
	h.want(h.do("GET", "/v1/wallet/pending/a.b", h.owner, nil), http.StatusNotFound, api.CodeNotFound)
	if strings.Join(asked, ",") != "otx1,otx2" {
		t.Errorf("the daemon was asked %v, want otx1 and otx2 only", asked)
	}
}
