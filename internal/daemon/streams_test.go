package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/trust"
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

// priceRule is a ward.toml whose only rule denies data_get_token_price
// (what stream_subscribe_price reads) when deny is set.
func priceRule(deny bool) string {
	return fmt.Sprintf(`[[policy.rules]]
id = "ops.no-prices"
applies_to = { by = "name", names = ["data_get_token_price"] }
when = "%v"
action = "deny"
reason_code = "NO_PRICES"
message = "prices are closed"
`, deny)
}

// TestSubscriptionsEndWhenNoLongerAllowed: a subscription ends, with
// subscription:ended and the reason, when a policy reload denies its
// read, when its session is tainted, when writes are halted and when its
// principal's token is revoked; the others go on.
func TestSubscriptionsEndWhenNoLongerAllowed(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ward.toml")
	if err := os.WriteFile(path, []byte(priceRule(false)), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	running, err := Start(t.Context(), ServeConfig{Addr: "127.0.0.1:0", Data: dir, File: f, Mount: MountSurfaces})
	if err != nil {
		t.Fatal(err)
	}
	defer running.Stop()
	st := running.Stack
	dc := st.Dev.Contracts()
	ended := st.Bus.Subscribe(16, func(k event.Kind) bool { return k == event.SubscriptionEnded })
	subscribe := func(gs *gate.Session, args string) string {
		t.Helper()
		out, err := st.Facade.Call(t.Context(), facade.NewSession(gs), "query_state", json.RawMessage(args))
		if err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		var r struct {
			Data struct {
				ID string `json:"subscription_id"`
			} `json:"data"`
		}
		if err := json.Unmarshal(out, &r); err != nil || r.Data.ID == "" {
			t.Fatalf("%s answered %s", args, out)
		}
		return r.Data.ID
	}
	session := func(name string) *gate.Session {
		t.Helper()
		gs, err := st.Session(t.Context(), name, policy.Agent, "dev")
		if err != nil {
			t.Fatal(err)
		}
		return gs
	}
	price := `{"kind":"subscribe_price","params":{"token":"` + dc.WETH.Hex() + `"}}`
	pool := `{"kind":"subscribe_pool","params":{"pool_address":"` + dc.UniswapV3PoolUSDCWETH.Hex() + `"}}`
	// endOf waits for the subscription:ended event of id.
	endOf := func(id string) event.Event {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			select {
			case e := <-ended.C():
				if d, ok := e.Payload.(event.StreamData); ok && d.ID == id {
					return e
				}
			case <-deadline:
				t.Fatalf("no subscription:ended for %s", id)
			}
		}
	}

	priced, pooled := session("sub-priced"), session("sub-pooled")
	pricedID, pooledID := subscribe(priced, price), subscribe(pooled, pool)
	if err := os.WriteFile(path, []byte(priceRule(true)), 0o600); err != nil {
		t.Fatal(err)
	}
	rep, err := running.Reload(t.Context(), "test", "")
	if err != nil {
		t.Fatal(err)
	}
	if rep.SubscriptionsEnded != 1 {
		t.Errorf("the reload ended %d subscriptions, want 1 (the price's)", rep.SubscriptionsEnded)
	}
	if e := endOf(pricedID); e.Code != "NO_PRICES" || e.SessionID != priced.ID || !strings.Contains(e.Message, "prices are closed") {
		t.Errorf("the denied price subscription ended with %q %q", e.Code, e.Message)
	}
	if l := st.Streams.List(pooled.ID); len(l) != 1 || l[0].ID != pooledID {
		t.Fatalf("the pool subscription, which the new policy allows, is now %+v", l)
	}

	// Reading a token's name and symbol (third-party text) taints the session.
	if _, err := st.Tools.Read(t.Context(), pooled, "data_get_token_info", json.RawMessage(`{"token":"`+dc.WETH.Hex()+`"}`)); err != nil {
		t.Fatal(err)
	}
	if l := st.Tools.Level(pooled); l != trust.Tainted {
		t.Fatalf("after third-party content the session is %v", l)
	}
	// Its reads are allowed, and so is its subscription.
	if n := st.Streams.Recheck(t.Context()); n != 0 {
		t.Errorf("tainting the session ended %d subscriptions, want none (a tainted session may read)", n)
	}
	if l := st.Streams.List(pooled.ID); len(l) != 1 || l[0].ID != pooledID {
		t.Fatalf("the tainted session's subscription is now %+v", l)
	}
	if _, err := st.Streams.Cancel(pooled.ID, pooledID); err != nil {
		t.Fatal(err)
	}

	// A principal with a token: revoking it ends its subscriptions.
	_, bot, err := auth.Create(t.Context(), st.Store, auth.Spec{Role: auth.Agent, Name: "bot"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	v, err := st.View(config.Tools{Profiles: []string{"dev"}})
	if err != nil {
		t.Fatal(err)
	}
	botSession, err := st.Tools.OpenSession(t.Context(), gate.Owner{PrincipalID: bot.ID, Name: "bot", Source: policy.Agent}, "bot-pool", v)
	if err != nil {
		t.Fatal(err)
	}
	botID := subscribe(botSession, pool)
	// Taint is the principal's too, so the halt is tried on another's.
	_, other, err := auth.Create(t.Context(), st.Store, auth.Spec{Role: auth.Agent, Name: "other"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	halted, err := st.Tools.OpenSession(t.Context(), gate.Owner{PrincipalID: other.ID, Name: "other", Source: policy.Agent}, "other-pool", v)
	if err != nil {
		t.Fatal(err)
	}
	haltedID := subscribe(halted, pool)
	if n := st.Streams.Recheck(t.Context()); n != 0 {
		t.Fatalf("a recheck with nothing changed ended %d subscriptions", n)
	}
	if _, err := auth.RevokeRef(t.Context(), st.Store, bot.ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	st.Streams.Recheck(t.Context())
	if e := endOf(botID); e.Code != string(reason.AuthorityInsufficient) {
		t.Errorf("the revoked principal's subscription ended with %q %q", e.Code, e.Message)
	}
	if l := st.Streams.List(halted.ID); len(l) != 1 {
		t.Fatalf("revoking another principal ended %s's subscription", halted.ID)
	}

	if err := st.Tools.Halt(t.Context(), halted, "test"); err != nil {
		t.Fatal(err)
	}
	st.Streams.Recheck(t.Context())
	if e := endOf(haltedID); e.Code != string(reason.Halted) {
		t.Errorf("the subscription ended on a halt with %q %q", e.Code, e.Message)
	}
	if s := st.Streams.Stats(); s.Subscriptions != 0 || s.Pollers != 0 {
		t.Errorf("left after all ended: %+v", s)
	}
}
