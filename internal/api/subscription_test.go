package api_test

import (
	"encoding/json"
	"math/big"
	"net/http"
	"testing"

	"github.com/wardhq/ward/internal/event"
)

// TestSubscriptionEvents subscribes an agent session to WETH's price
// through /v1/call/query_state, moves the price on the dev chain, and
// reads the change on the owner's event stream; then it checks the
// statuses of the stream refusals.
func TestSubscriptionEvents(t *testing.T) {
	h := start(t, harnessOpts{})
	s := h.open(t, "?kinds=subscription")
	if s.resp.StatusCode != http.StatusOK {
		t.Fatalf("stream: %d", s.resp.StatusCode)
	}
	r := h.do("POST", "/v1/call/query_state", h.agent, `{"kind":"subscribe_price","params":{"token":"`+h.weth+`"}}`)
	h.want(r, http.StatusOK, "")
	var sub struct {
		Data struct {
			ID string `json:"subscription_id"`
		} `json:"data"`
	}
	r.decode(t, &sub)
	if sub.Data.ID == "" {
		t.Fatalf("subscribe answered %s", r.body)
	}
	st := h.srv.Stack
	if err := st.Dev.SetFeedAnswer(t.Context(), st.Env.Venues.ETHFeed, big.NewInt(1_999_00000000)); err != nil {
		t.Fatal(err)
	}
	_, e := s.next(t, string(event.SubscriptionUpdate))
	d, ok := e.Payload.(event.StreamData)
	var v struct {
		PriceUSD float64 `json:"price_usd"`
	}
	if !ok || d.ID != sub.Data.ID || json.Unmarshal(d.Value, &v) != nil || v.PriceUSD != 1999 || !e.Success || e.SessionID == "" {
		t.Fatalf("event = %+v, payload %+v", e, e.Payload)
	}

	for _, tc := range []struct {
		name, body string
		status     int
		code       string
	}{
		{"interval under the minimum", `{"kind":"subscribe_price","params":{"token":"` + h.weth + `","interval_seconds":1}}`, http.StatusBadRequest, "STREAM_INTERVAL_TOO_SHORT"},
		{"unknown subscription", `{"kind":"unsubscribe","params":{"subscription_id":"sub_999999"}}`, http.StatusNotFound, "STREAM_NOT_FOUND"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.want(h.do("POST", "/v1/call/query_state", h.agent, tc.body), tc.status, tc.code)
		})
	}
}
