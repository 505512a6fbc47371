package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime"
	"testing"

	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/policy"
)

// pollers counts the goroutines of subscription pollers.
func pollers() int {
	buf := make([]byte, 1<<22)
	buf = buf[:runtime.Stack(buf, true)]
	return bytes.Count(buf, []byte("internal/stream.(*poller).run"))
}

// TestServeEndsSubscriptions: subscriptions live in ward serve's stack and
// end with it; no poller goroutine outlives the shutdown.
func TestServeEndsSubscriptions(t *testing.T) {
	before := pollers()
	var srv *Server
	started, err := Start(context.Background(), ServeConfig{Addr: "127.0.0.1:0", Data: t.TempDir(), Mount: func(s *Server) error {
		srv = s
		return MountSurfaces(s)
	}})
	if err != nil {
		t.Fatal(err)
	}
	st := srv.Stack
	dc := st.Dev.Contracts()
	ended := st.Bus.Subscribe(16, func(k event.Kind) bool { return k == event.SubscriptionEnded })
	for i, args := range []string{
		`{"kind":"subscribe_price","params":{"token":"` + dc.WETH.Hex() + `"}}`,
		`{"kind":"subscribe_pool","params":{"pool_address":"` + dc.UniswapV3PoolUSDCWETH.Hex() + `"}}`,
	} {
		gs, err := st.Session(t.Context(), "streams-"+string(rune('a'+i)), policy.Agent, "dev")
		if err != nil {
			t.Fatal(err)
		}
		out, err := st.Facade.Call(t.Context(), facade.NewSession(gs), "query_state", json.RawMessage(args))
		if err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		if !bytes.Contains(out, []byte(`"subscription_id":"sub_`)) {
			t.Fatalf("%s answered %s", args, out)
		}
	}
	// A poller just started may not have run yet: let it.
	for i := 0; i < 1000 && pollers()-before < 2; i++ {
		runtime.Gosched()
	}
	if n := pollers() - before; n != 2 {
		t.Fatalf("%d pollers run for two subscriptions of two things, want 2 (%+v)", n, st.Streams.Stats())
	}
	if err := started.Stop(); err != nil {
		t.Fatalf("serve: %v", err)
	}
	if n := pollers() - before; n != 0 {
		t.Errorf("%d pollers outlive ward serve", n)
	}
	var why []string
	for e := range ended.C() { // closed with the bus
		why = append(why, e.Message)
	}
	if len(why) != 2 || why[0] != "ward stopped" || why[1] != "ward stopped" {
		t.Errorf("subscription:ended messages %q, want two \"ward stopped\"", why)
	}
}
