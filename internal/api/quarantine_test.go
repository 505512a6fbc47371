package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/api"
)

// item is the part of a quarantined call the tests read.
type item struct {
	ID        string
	Status    string
	Tool      string
	SessionID string `json:"session_id"`
	Reason    string
	Facade    string
	Note      string
	DecidedBy string `json:"decided_by"`
	Outcome   *struct {
		OK     bool
		Code   string
		Permit *struct {
			PermitID string `json:"permit_id"`
		}
	}
}

// hold has the agent preview a swap the policy quarantines and returns the
// item id its refusal names.
func (h *harness) hold(t *testing.T, usdc int64) string {
	t.Helper()
	r := h.do("POST", "/v1/call/preview_action", h.agent, h.swap(usdc))
	h.want(r, http.StatusForbidden, "SWAP_REVIEW")
	var e struct {
		Error struct {
			Message      string
			QuarantineID string `json:"quarantine_id"`
		}
	}
	r.decode(t, &e)
	if e.Error.QuarantineID == "" || !strings.Contains(e.Error.Message, e.Error.QuarantineID) {
		t.Fatalf("refusal = %s", r.body)
	}
	return e.Error.QuarantineID
}

// agentView is the agent's query_state of an item.
func (h *harness) agentView(t *testing.T, qid string) item {
	t.Helper()
	r := h.do("POST", "/v1/call/query_state", h.agent, `{"kind":"quarantine","params":{"id":"`+qid+`"}}`)
	h.want(r, http.StatusOK, "")
	var it item
	r.decode(t, &it)
	return it
}

func TestQuarantineEndToEnd(t *testing.T) {
	h := start(t, harnessOpts{})
	session := h.sessionOf(h.agent, "")

	t.Run("approve", func(t *testing.T) {
		qid := h.hold(t, 200)
		r := h.do("GET", "/v1/quarantine", h.owner, nil)
		h.want(r, http.StatusOK, "")
		var list struct{ Items []item }
		r.decode(t, &list)
		if len(list.Items) != 1 || list.Items[0].ID != qid || list.Items[0].Status != "pending" || list.Items[0].Tool != "uniswap_execute_swap" ||
			list.Items[0].Reason != "SWAP_REVIEW" || list.Items[0].SessionID != session || list.Items[0].Facade != "preview_action" {
			t.Fatalf("queue = %s", r.body)
		}
		if it := h.agentView(t, qid); it.Status != "pending" || it.Outcome != nil {
			t.Errorf("agent's view before the review = %+v", it)
		}

		r = h.do("POST", "/v1/quarantine/"+qid+"/approve", h.owner, `{"note":"once"}`)
		h.want(r, http.StatusOK, "")
		var got item
		r.decode(t, &got)
		if got.Status != "approved" || got.Outcome == nil || !got.Outcome.OK || got.Outcome.Permit == nil || !strings.HasPrefix(got.DecidedBy, "owner:") {
			t.Fatalf("approved item = %s", r.body)
		}
		it := h.agentView(t, qid)
		if it.Status != "approved" || it.Outcome == nil || it.Outcome.Permit == nil || it.Note != "once" || it.DecidedBy != "" {
			t.Fatalf("agent's view after the approval = %+v", it)
		}
		r = h.do("POST", "/v1/call/commit_action", h.agent, `{"permit_id":"`+it.Outcome.Permit.PermitID+`"}`)
		h.want(r, http.StatusOK, "")
		var res struct {
			Data struct {
				TxHashes []string `json:"tx_hashes"`
			}
		}
		r.decode(t, &res)
		if len(res.Data.TxHashes) == 0 || len(res.Data.TxHashes[0]) != 66 {
			t.Errorf("commit = %s, want the real transaction hashes", r.body)
		}
		// The outcome record has the transaction the write sent.
		r = h.do("GET", "/v1/actions?kind=tool_call&permit_id="+it.Outcome.Permit.PermitID, h.owner, nil)
		h.want(r, http.StatusOK, "")
		var calls struct {
			Actions []struct {
				TxHash  string `json:"tx_hash"`
				GasUsed uint64 `json:"gas_used"`
			}
		}
		r.decode(t, &calls)
		if len(calls.Actions) != 1 || len(calls.Actions[0].TxHash) != 66 || !strings.HasPrefix(calls.Actions[0].TxHash, "0x") || calls.Actions[0].GasUsed == 0 {
			t.Errorf("tool_call records = %s", r.body)
		}

		h.want(h.do("POST", "/v1/quarantine/"+qid+"/approve", h.owner, nil), http.StatusConflict, api.CodeAlreadyReviewed)
		h.want(h.do("POST", "/v1/quarantine/"+qid+"/reject", h.owner, nil), http.StatusConflict, api.CodeAlreadyReviewed)
		// The review is in the action log, naming the item, the agent's
		// principal and the owner.
		r = h.do("GET", "/v1/actions?kind=quarantine_approved", h.owner, nil)
		var acts struct {
			Actions []struct {
				ID          string
				PrincipalID string `json:"principal_id"`
				Detail      map[string]string
			}
		}
		r.decode(t, &acts)
		if len(acts.Actions) != 1 || acts.Actions[0].Detail["quarantine_id"] != qid || acts.Actions[0].PrincipalID != h.agentID ||
			!strings.HasPrefix(acts.Actions[0].Detail["by"], "owner:") {
			t.Errorf("review records = %s", r.body)
		}
		// No longer pending; listed as approved.
		h.do("GET", "/v1/quarantine", h.owner, nil).decode(t, &list)
		if len(list.Items) != 0 {
			t.Errorf("pending after approval: %+v", list.Items)
		}
		h.do("GET", "/v1/quarantine?status=approved&session="+session, h.owner, nil).decode(t, &list)
		if len(list.Items) != 1 {
			t.Errorf("approved items: %+v", list.Items)
		}
		r = h.do("GET", "/v1/quarantine/"+qid, h.owner, nil)
		h.want(r, http.StatusOK, "")
	})

	t.Run("reject", func(t *testing.T) {
		qid := h.hold(t, 300)
		r := h.do("POST", "/v1/quarantine/"+qid+"/reject", h.owner, `{"note":"too big"}`)
		h.want(r, http.StatusOK, "")
		var got item
		r.decode(t, &got)
		if got.Status != "rejected" || got.Outcome != nil {
			t.Errorf("rejected item = %s", r.body)
		}
		if it := h.agentView(t, qid); it.Status != "rejected" || it.Note != "too big" {
			t.Errorf("agent's view = %+v", it)
		}
		h.want(h.do("POST", "/v1/quarantine/"+qid+"/approve", h.owner, nil), http.StatusConflict, api.CodeAlreadyReviewed)
		r = h.do("GET", "/v1/actions?kind=quarantine_rejected", h.owner, nil)
		if !strings.Contains(string(r.body), qid) {
			t.Errorf("rejection records = %s", r.body)
		}
	})

	t.Run("bad input", func(t *testing.T) {
		qid := h.hold(t, 400)
		for _, tc := range []struct {
			name, method, path, body string
			status                   int
			code                     string
		}{
			{"unknown id", "POST", "/v1/quarantine/01JD3K7ZQ4Y7K3M9XW2V5T8R00/approve", "", http.StatusNotFound, api.CodeNotFound},
			{"not an id", "GET", "/v1/quarantine/..%2f..%2fetc", "", http.StatusNotFound, api.CodeNotFound},
			{"bad status", "GET", "/v1/quarantine?status=held", "", http.StatusBadRequest, api.CodeBadRequest},
			{"note type", "POST", "/v1/quarantine/" + qid + "/approve", `{"note":1}`, http.StatusBadRequest, api.CodeBadJSON},
			{"long note", "POST", "/v1/quarantine/" + qid + "/reject", `{"note":"` + strings.Repeat("n", 501) + `"}`, http.StatusBadRequest, api.CodeBadRequest},
			{"another session's item", "POST", "/v1/call/query_state", `{"kind":"quarantine","params":{"id":"` + qid + `"}}`, http.StatusNotFound, "QUARANTINE_NOT_FOUND"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				tok := h.owner
				if strings.HasPrefix(tc.path, "/v1/call/") {
					tok = h.peer // the peer's session is not the agent's
				}
				h.want(h.do(tc.method, tc.path, tok, tc.body), tc.status, tc.code)
			})
		}
		if it := h.agentView(t, qid); it.Status != "pending" {
			t.Errorf("bad reviews changed the item: %+v", it)
		}
	})

	t.Run("metrics", func(t *testing.T) {
		body := string(h.do("GET", "/metrics", "", nil).body)
		for _, want := range []string{`ward_quarantine_total{step="held"} 3`, `ward_quarantine_total{step="approved"} 1`,
			`ward_quarantine_total{step="rejected"} 1`, `ward_quarantine_total{step="ran"} 1`, `ward_decisions_total{action="quarantine",reason="SWAP_REVIEW"}`} {
			if !strings.Contains(body, want) {
				t.Errorf("/metrics lacks %s", want)
			}
		}
	})
}
