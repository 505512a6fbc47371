package mcp

import (
	"context"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestProgress checks the forwarding of progress steps on its own: values
// only increase, a burst over the queue is cut rather than blocking the
// call, steps after stop are ignored, and stop returns once the sender is
// done.
func TestProgress(t *testing.T) {
	var mu sync.Mutex
	var got []*sdk.ProgressNotificationParams
	arrived := make(chan struct{}, 256)
	client := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
			mu.Lock()
			got = append(got, r.Params)
			mu.Unlock()
			arrived <- struct{}{}
		},
	})
	server := sdk.NewServer(&sdk.Implementation{Name: "s", Version: "1"}, nil)
	const burst = 100
	server.AddTool(&sdk.Tool{Name: "steps", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		p := startProgress(ctx, req.Session, req.Params.GetProgressToken())
		p.report("t", "first", 0, 3)
		p.report("t", "again", 0, 3) // not an increase: dropped
		p.report("t", "second", 1, 3)
		for i := range burst {
			p.report("t", "burst", 2+i, burst+2)
		}
		p.stop()
		p.report("t", "late", burst+5, burst+6) // after stop: ignored
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "done"}}}, nil
	})
	st, ct := sdk.NewInMemoryTransports()
	ss, err := server.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := client.Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	params := &sdk.CallToolParams{Name: "steps", Arguments: map[string]any{}}
	params.SetProgressToken("tok")
	if _, err := cs.CallTool(context.Background(), params); err != nil {
		t.Fatal(err)
	}
	// Everything was sent before the result, but the client may still be
	// handling the last notifications. At least a queue's worth was sent:
	// the queue is empty when the call starts.
	for range progressQueue {
		<-arrived
	}
	cs.Close()
	mu.Lock()
	defer mu.Unlock()
	if len(got) < progressQueue || len(got) > 2+burst {
		t.Fatalf("got %d notifications, want between %d and %d", len(got), progressQueue, 2+burst)
	}
	if got[0].Message != "first" || got[1].Message != "second" || got[0].Total != 3 {
		t.Errorf("first steps: %+v %+v", got[0], got[1])
	}
	for i, n := range got {
		if n.ProgressToken != "tok" || n.Message == "late" || (i > 0 && n.Progress <= got[i-1].Progress) {
			t.Errorf("notification %d: %+v", i, n)
		}
	}
}
