package catalog_test

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog"
	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/stream"
	"github.com/wardhq/ward/internal/tool"
)

// streamFixture is a dev chain of its own (the test moves its prices and
// pools) with the catalogue registered over a subscription hub that
// publishes to a bus.
type streamFixture struct {
	*baseFixture
	hub *stream.Hub
	bus *event.Bus
	sub *event.Subscription
}

func newStreamFixture(t *testing.T, max int, minInterval time.Duration) *streamFixture {
	t.Helper()
	f, err := newFixture("ward stream tests")
	if err != nil {
		t.Fatalf("dev chain fixture: %v", err)
	}
	t.Cleanup(func() { f.dev.Close() })
	bus, err := event.New(event.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(bus.Close)
	hub, err := stream.New(stream.Config{MaxPerSession: max, MinInterval: minInterval, Publish: bus.Publish})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hub.Close)
	env := *f.env
	env.Streams = hub
	r := registry.New()
	if err := catalog.Register(r, &env); err != nil {
		t.Fatal(err)
	}
	r.Freeze()
	f.reg, f.env = r, &env
	sub := bus.Subscribe(256, func(k event.Kind) bool { return k.Family() == "subscription" })
	return &streamFixture{baseFixture: f, hub: hub, bus: bus, sub: sub}
}

// sessionCalls is a session's calls as the gate hands them to a handler,
// without the gate: Read runs the read tool's handler.
type sessionCalls struct {
	reg     *registry.Registry
	session string
}

func (c sessionCalls) Read(ctx context.Context, name string, raw json.RawMessage) (*tool.Result, error) {
	e, ok := c.reg.Get(name)
	if !ok || e.Read == nil {
		return nil, errors.New("no read tool " + name)
	}
	a, err := tool.ParseArgs(raw)
	if err != nil {
		return nil, err
	}
	return e.Read(ctx, &registry.Input{Args: a, Raw: raw, SessionID: c.session, Now: time.Now(), Step: func(int) {}})
}

// Recheck allows every later poll: the gate's decision is tested in
// gate and daemon.
func (sessionCalls) Recheck(context.Context, string, json.RawMessage) error { return nil }

func (sessionCalls) Preview(context.Context, string, json.RawMessage) (json.RawMessage, error) {
	return nil, errors.New("not in this test")
}

// call runs a stream tool as session.
func (f *streamFixture) call(t *testing.T, session, name, args string) (map[string]any, error) {
	t.Helper()
	e := f.entry(t, name)
	if err := e.Validate(json.RawMessage(args)); err != nil {
		return nil, err
	}
	in := input(t, args)
	in.SessionID, in.Session = session, sessionCalls{reg: f.reg, session: session}
	res, err := e.Read(t.Context(), in)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	if err := json.Unmarshal(res.Data, &out); err != nil {
		t.Fatal(err)
	}
	return out, nil
}

func (f *streamFixture) subscribe(t *testing.T, session, name, args string) (id string, value map[string]any) {
	t.Helper()
	out, err := f.call(t, session, name, args)
	if err != nil {
		t.Fatalf("%s %s: %v", name, args, err)
	}
	id, _ = out["subscription_id"].(string)
	value, _ = out["value"].(map[string]any)
	if id == "" || value == nil {
		t.Fatalf("%s answered %v", name, out)
	}
	return id, value
}

// update waits for the next subscription:update of subscription id and returns
// its value. Updates of other subscriptions are skipped.
func (f *streamFixture) update(t *testing.T, id string) map[string]any {
	t.Helper()
	deadline := time.NewTimer(20 * time.Second)
	defer deadline.Stop()
	for {
		select {
		case e := <-f.sub.C():
			d, ok := e.Payload.(event.StreamData)
			if e.Kind != event.SubscriptionUpdate || !ok || d.ID != id {
				continue
			}
			if !e.Success {
				t.Fatalf("update of %s failed: %s %s", id, e.Code, e.Message)
			}
			var v map[string]any
			if err := json.Unmarshal(d.Value, &v); err != nil {
				t.Fatal(err)
			}
			return v
		case <-deadline.C:
			t.Fatalf("no update of %s within 20 s", id)
			return nil
		}
	}
}

// quiet checks that no update of id arrives while the hub polls a few
// times: nothing changed on chain.
func (f *streamFixture) quiet(t *testing.T, id string) {
	t.Helper()
	polls := time.NewTimer(300 * time.Millisecond) // six polls at 50 ms
	defer polls.Stop()
	for {
		select {
		case e := <-f.sub.C():
			if d, ok := e.Payload.(event.StreamData); ok && d.ID == id && e.Kind == event.SubscriptionUpdate {
				t.Fatalf("an update of %s with nothing changed: %+v", id, d)
			}
		case <-polls.C:
			return
		}
	}
}

func TestStreamUpdatesOnChainChanges(t *testing.T) {
	f := newStreamFixture(t, 8, 50*time.Millisecond)
	c := f.c
	ctx := t.Context()

	t.Run("price", func(t *testing.T) {
		id, v := f.subscribe(t, "s1", "stream_subscribe_price", argsOf("token", c.WETH))
		if v["priced"] != true || v["price_usd"] == nil {
			t.Fatalf("initial value %v", v)
		}
		if _, ok := v["age_seconds"]; ok {
			t.Error("the value keeps the price's age, which changes on every read")
		}
		f.quiet(t, id)
		if err := f.dev.SetFeedAnswer(ctx, f.env.Venues.ETHFeed, big.NewInt(2_345_67000000)); err != nil {
			t.Fatal(err)
		}
		if got := f.update(t, id); got["price_usd"] != 2345.67 {
			t.Fatalf("update price_usd = %v, want 2345.67", got["price_usd"])
		}
	})

	t.Run("pool", func(t *testing.T) {
		id, v := f.subscribe(t, "s1", "stream_subscribe_pool", argsOf("pool_address", c.UniswapV3PoolUSDCWETH))
		f.quiet(t, id)
		if err := f.dev.Fund(ctx, f.wallet(), c.USDC, units(5_000, 6)); err != nil {
			t.Fatal(err)
		}
		f.commit(t, "uniswap_execute_swap", argsOf("token_in", c.USDC, "token_out", c.WETH, "amount_in", units(5_000, 6), "fee", 3000), nil)
		got := f.update(t, id)
		if got["price0"] == v["price0"] || got["tick"] == v["tick"] {
			t.Fatalf("after a 5000 USDC swap the pool reads %v, before %v", got, v)
		}
	})

	t.Run("health", func(t *testing.T) {
		id, v := f.subscribe(t, "s1", "stream_subscribe_health", argsOf("protocol", "aave"))
		f.commit(t, "aave_supply_collateral", argsOf("asset", c.WETH, "amount", units(1, 18)), nil)
		// The health read makes several calls, all at one block (each
		// poll pins its own): its first update is the whole change, never
		// a poll straddling the supply's block that reports the position
		// without its collateral value.
		got := f.update(t, id)
		if got["total_collateral_usd"] == v["total_collateral_usd"] {
			t.Fatalf("after supplying 1 WETH the account reads %v, before %v", got, v)
		}
	})

	t.Run("balance", func(t *testing.T) {
		id, v := f.subscribe(t, "s2", "stream_subscribe_balance", argsOf("token", c.DAI))
		if err := f.dev.Fund(ctx, f.wallet(), c.DAI, units(7, 18)); err != nil {
			t.Fatal(err)
		}
		if got := f.update(t, id); got["balance"] == v["balance"] {
			t.Fatalf("after funding 7 DAI the balance reads %v, before %v", got, v)
		}
	})

	t.Run("one poller per watched thing", func(t *testing.T) {
		a, _ := f.subscribe(t, "s3", "stream_subscribe_price", argsOf("token", c.WETH))
		b, _ := f.subscribe(t, "s4", "stream_subscribe_price", argsOf("token", c.WETH, "interval_seconds", 1))
		// s1's price, pool, health; s2's balance; s3's and s4's price.
		if st := f.hub.Stats(); st.Subscriptions != 6 || st.Pollers != 4 {
			t.Fatalf("stats = %+v, want 6 subscriptions on 4 pollers", st)
		}
		if err := f.dev.SetFeedAnswer(ctx, f.env.Venues.ETHFeed, big.NewInt(2_400_00000000)); err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for range 3 { // s1's, s3's and s4's updates, in any order
			for {
				e := <-f.sub.C()
				if d, ok := e.Payload.(event.StreamData); ok && e.Kind == event.SubscriptionUpdate && d.Kind == "price" {
					seen[e.SessionID+" "+d.ID] = true
					break
				}
			}
		}
		if len(seen) != 3 || !seen["s3 "+a] || !seen["s4 "+b] {
			t.Fatalf("price updates went to %v", seen)
		}
	})

	f.hub.Close()
	if st := f.hub.Stats(); st != (stream.Stats{}) {
		t.Fatalf("after Close: %+v", st)
	}
}

func TestStreamRefusals(t *testing.T) {
	f := newStreamFixture(t, 2, 2*time.Second)
	c := f.c
	mine, _ := f.subscribe(t, "alice", "stream_subscribe_price", argsOf("token", c.WETH))

	coded := func(t *testing.T, err error, want reason.Code) {
		t.Helper()
		var se *stream.Error
		if !errors.As(err, &se) || se.Reason() != want {
			t.Fatalf("err = %v, want %s", err, want)
		}
	}
	tests := []struct {
		name, session, tool, args string
		code                      reason.Code // "" for a plain error
		want                      string      // in the message
	}{
		{"unpriced token", "alice", "stream_subscribe_price", argsOf("token", common.HexToAddress("0x00000000000000000000000000000000000000aa")), "", "no price feed"},
		{"not a pool", "alice", "stream_subscribe_pool", argsOf("pool_address", c.USDC), "", ""},
		{"morpho without market", "alice", "stream_subscribe_health", argsOf("protocol", "morpho"), "", "market_id is required"},
		{"market for aave", "alice", "stream_subscribe_health", argsOf("protocol", "aave", "market_id", "0x"+strings.Repeat("ab", 32)), "", "only for protocol morpho"},
		{"interval under the minimum", "bob", "stream_subscribe_price", argsOf("token", c.WETH, "interval_seconds", 1), reason.StreamInterval, ""},
		{"another session's cancel", "mallory", "stream_cancel_subscription", argsOf("subscription_id", mine), reason.StreamNotFound, ""},
		{"no session", "", "stream_subscribe_price", argsOf("token", c.WETH), "", "belong to a session"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := f.hub.Stats()
			_, err := f.call(t, tc.session, tc.tool, tc.args)
			if err == nil {
				t.Fatal("accepted")
			}
			if tc.code != "" {
				coded(t, err, tc.code)
			}
			if tc.want != "" && !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to say %q", err, tc.want)
			}
			if after := f.hub.Stats(); after != before {
				t.Fatalf("a refused call changed the hub: %+v -> %+v", before, after)
			}
		})
	}

	t.Run("over the session's limit", func(t *testing.T) {
		f.subscribe(t, "alice", "stream_subscribe_pool", argsOf("pool_address", c.UniswapV3PoolUSDCWETH))
		_, err := f.call(t, "alice", "stream_subscribe_balance", argsOf("token", c.DAI))
		coded(t, err, reason.StreamLimit)
		if got := f.hub.List("alice"); len(got) != 2 {
			t.Fatalf("alice holds %d subscriptions, want 2", len(got))
		}
	})

	t.Run("lists and cancels only its own", func(t *testing.T) {
		out, err := f.call(t, "mallory", "stream_list_subscriptions", `{}`)
		if err != nil {
			t.Fatal(err)
		}
		if subs, _ := out["subscriptions"].([]any); len(subs) != 0 {
			t.Fatalf("mallory lists %v", subs)
		}
		out, err = f.call(t, "alice", "stream_list_subscriptions", `{}`)
		if err != nil {
			t.Fatal(err)
		}
		if subs, _ := out["subscriptions"].([]any); len(subs) != 2 || out["max_per_session"] != 2.0 {
			t.Fatalf("alice lists %v", out)
		}
		if _, err := f.call(t, "alice", "stream_cancel_subscription", argsOf("subscription_id", mine)); err != nil {
			t.Fatal(err)
		}
		if got := f.hub.List("alice"); len(got) != 1 {
			t.Fatalf("after cancelling, alice holds %v", got)
		}
	})
}
