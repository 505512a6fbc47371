package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/mcp"
)

// notices collects the live data notifications a client receives.
type notices struct {
	mu      sync.Mutex
	got     []map[string]any
	arrived chan struct{}
}

func (n *notices) add(_ context.Context, r *sdk.LoggingMessageRequest) {
	if r.Params.Logger != mcp.StreamLogger {
		return
	}
	b, _ := json.Marshal(r.Params.Data)
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return
	}
	n.mu.Lock()
	n.got = append(n.got, m)
	n.mu.Unlock()
	select {
	case n.arrived <- struct{}{}:
	default:
	}
}

// wait returns the first notification for which match holds, failing the
// test after 20 s.
func (n *notices) wait(t *testing.T, match func(map[string]any) bool) map[string]any {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		n.mu.Lock()
		for _, m := range n.got {
			if match(m) {
				n.mu.Unlock()
				return m
			}
		}
		n.mu.Unlock()
		select {
		case <-n.arrived:
		case <-deadline:
			t.Fatalf("no matching notification within 20 s; got %v", n.got)
			return nil
		}
	}
}

// streamClient connects over HTTP with a handler for logging
// notifications and asks for them from level info.
func streamClient(t *testing.T, token string) (*sdk.ClientSession, *notices) {
	t.Helper()
	n := &notices{arrived: make(chan struct{}, 1)}
	c := sdk.NewClient(&sdk.Implementation{Name: "ward-stream-test", Version: "1"}, &sdk.ClientOptions{LoggingMessageHandler: n.add})
	tr := &sdk.StreamableClientTransport{Endpoint: endpoint, HTTPClient: &http.Client{Transport: bearer{token}}, MaxRetries: -1}
	cs, err := c.Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatalf("connect over HTTP: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	if err := cs.SetLoggingLevel(t.Context(), &sdk.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatalf("logging/setLevel: %v", err)
	}
	return cs, n
}

func subscribePrice(t *testing.T, cs *sdk.ClientSession) string {
	t.Helper()
	var out struct {
		Data struct {
			ID    string         `json:"subscription_id"`
			Value map[string]any `json:"value"`
		} `json:"data"`
	}
	weth := ward.Stack.Dev.Contracts().WETH
	ok(t, callTool(t, cs, "query_state", fmt.Sprintf(`{"kind":"subscribe_price","params":{"token":%q}}`, weth.Hex()), ""), &out)
	if out.Data.ID == "" || out.Data.Value["price_usd"] == nil {
		t.Fatalf("subscribe_price answered %+v", out)
	}
	return out.Data.ID
}

// TestStreamNotifications subscribes over MCP, moves the price on the dev
// chain and receives the change as a notifications/message; another
// token cannot see or cancel the subscription; the session's limit holds;
// and the subscriptions end with the MCP session.
func TestStreamNotifications(t *testing.T) {
	cs, got := streamClient(t, agentToken)
	id := subscribePrice(t, cs)

	feed := ward.Stack.Env.Venues.ETHFeed
	if err := ward.Stack.Dev.SetFeedAnswer(t.Context(), feed, big.NewInt(3_210_00000000)); err != nil {
		t.Fatal(err)
	}
	n := got.wait(t, func(m map[string]any) bool {
		v, _ := m["value"].(map[string]any)
		return m["subscription_id"] == id && m["event"] == "subscription:update" && v["price_usd"] == 3210.0
	})
	if n["kind"] != "price" || !strings.HasSuffix(n["target"].(string), ward.Stack.Dev.Contracts().WETH.Hex()) {
		t.Errorf("notification = %v", n)
	}

	t.Run("another token", func(t *testing.T) {
		other, _ := streamClient(t, otherToken)
		var list struct {
			Data struct {
				Subscriptions []any `json:"subscriptions"`
			} `json:"data"`
		}
		ok(t, callTool(t, other, "query_state", `{"kind":"subscriptions"}`, ""), &list)
		if len(list.Data.Subscriptions) != 0 {
			t.Fatalf("another token lists %v", list.Data.Subscriptions)
		}
		res := callTool(t, other, "query_state", fmt.Sprintf(`{"kind":"unsubscribe","params":{"subscription_id":%q}}`, id), "")
		if !res.IsError || !strings.HasPrefix(text(res), "STREAM_NOT_FOUND: ") {
			t.Fatalf("another token's cancel: %s", text(res))
		}
		ok(t, callTool(t, cs, "query_state", `{"kind":"subscriptions"}`, ""), &list)
		if len(list.Data.Subscriptions) != 1 {
			t.Fatalf("the owner lists %v after another token's cancel", list.Data.Subscriptions)
		}
	})

	t.Run("limit", func(t *testing.T) {
		subscribePrice(t, cs)
		subscribePrice(t, cs) // three: the test ward's max_per_session
		weth := ward.Stack.Dev.Contracts().WETH
		res := callTool(t, cs, "query_state", fmt.Sprintf(`{"kind":"subscribe_price","params":{"token":%q}}`, weth.Hex()), "")
		if !res.IsError || !strings.HasPrefix(text(res), "STREAM_LIMIT_EXCEEDED: ") {
			t.Fatalf("a fourth subscription: %s", text(res))
		}
	})

	t.Run("ends with the session", func(t *testing.T) {
		sid := gateSessionOf(t, cs).ID()
		if n := len(ward.Stack.Streams.List(sid)); n != 3 {
			t.Fatalf("the session holds %d subscriptions, want 3", n)
		}
		ended := ward.Stack.Bus.Subscribe(16, func(k event.Kind) bool { return k == event.SubscriptionEnded })
		defer ended.Close()
		if err := cs.Close(); err != nil {
			t.Fatal(err)
		}
		deadline := time.After(10 * time.Second)
		for n := 0; n < 3; {
			select {
			case e := <-ended.C():
				if e.SessionID == sid {
					if e.Message != "session ended" {
						t.Errorf("ended because %q", e.Message)
					}
					n++
				}
			case <-deadline:
				t.Fatalf("the closed session still holds %v", ward.Stack.Streams.List(sid))
			}
		}
		if got := ward.Stack.Streams.List(sid); len(got) != 0 {
			t.Fatalf("after its end the session holds %v", got)
		}
	})
}

// TestTypeScriptClientStream subscribes with the official TypeScript MCP
// client (testdata/stream.mjs), moves the price on the dev chain once it
// has subscribed, and checks the notification it received.
func TestTypeScriptClientStream(t *testing.T) {
	node, npm := tsClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join("testdata", "stream.mjs"))
	cmd.Env = append(os.Environ(), "WARD_MCP_URL="+endpoint, "WARD_TOKEN="+agentToken,
		"WARD_WETH="+ward.Stack.Dev.Contracts().WETH.Hex(), "WARD_NPM_DIR="+npm)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	line := func() string {
		if !lines.Scan() {
			t.Fatalf("stream.mjs ended early: %v\n%s", cmd.Wait(), stderr.String())
		}
		return lines.Text()
	}
	var sub struct {
		Subscribed string `json:"subscribed"`
	}
	if err := json.Unmarshal([]byte(line()), &sub); err != nil || sub.Subscribed == "" {
		t.Fatalf("first line: %v %+v\n%s", err, sub, stderr.String())
	}
	if err := ward.Stack.Dev.SetFeedAnswer(t.Context(), ward.Stack.Env.Venues.ETHFeed, big.NewInt(2_987_65000000)); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Level   string `json:"level"`
		Logger  string `json:"logger"`
		Timeout bool   `json:"timeout"`
		Data    struct {
			Event string `json:"event"`
			ID    string `json:"subscription_id"`
			Kind  string `json:"kind"`
			Value struct {
				PriceUSD float64 `json:"price_usd"`
			} `json:"value"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(line()), &got); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("stream.mjs: %v\n%s", err, stderr.String())
	}
	if got.Timeout || got.Logger != mcp.StreamLogger || got.Level != "info" || got.Data.ID != sub.Subscribed ||
		got.Data.Kind != "price" || got.Data.Value.PriceUSD != 2987.65 {
		t.Fatalf("the TypeScript client received %+v", got)
	}
}

// TestStreamOverStdio: ward mcp's one session receives its updates as
// notifications/message too.
func TestStreamOverStdio(t *testing.T) {
	sess := session(t, "stream-stdio", "dev")
	srv, err := mcp.New(mcp.Config{Tools: ward.Stack.Facade, Version: "test",
		Session: func(context.Context, string) (*facade.Session, error) { return facade.NewSession(sess), nil },
		Updates: ward.Stack.Bus, EndStreams: ward.Stack.Streams.EndSession, StreamSweep: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	delivering, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { srv.Deliver(delivering) })
	defer func() { stop(); wg.Wait() }()
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- srv.RunStdio(context.Background(), toServer, fromServer)
		fromServer.Close()
	}()
	n := &notices{arrived: make(chan struct{}, 1)}
	c := sdk.NewClient(&sdk.Implementation{Name: "ward-stream-stdio", Version: "1"}, &sdk.ClientOptions{LoggingMessageHandler: n.add})
	cs, err := c.Connect(context.Background(), &sdk.IOTransport{Reader: toClient, Writer: fromClient}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		cs.Close()
		if err := <-done; err != nil {
			t.Errorf("RunStdio: %v", err)
		}
	}()
	if err := cs.SetLoggingLevel(t.Context(), &sdk.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	id := subscribePrice(t, cs)
	if err := ward.Stack.Dev.SetFeedAnswer(t.Context(), ward.Stack.Env.Venues.ETHFeed, big.NewInt(3_333_00000000)); err != nil {
		t.Fatal(err)
	}
	n.wait(t, func(m map[string]any) bool {
		v, _ := m["value"].(map[string]any)
		return m["subscription_id"] == id && v["price_usd"] == 3333.0
	})
	// The sweep leaves a connected session's subscriptions alone.
	if got := ward.Stack.Streams.List(sess.ID); len(got) != 1 {
		t.Fatalf("the connected stdio session holds %v", got)
	}
}
