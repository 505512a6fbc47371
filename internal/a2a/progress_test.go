package a2a

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	spec "github.com/a2aproject/a2a-go/a2a"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/gate"
)

// TestProgressStatus: a call's progress steps reach the task as working
// status updates, given to RunWith as an option, and to a Run of a
// Config without RunWith in its context.
func TestProgressStatus(t *testing.T) {
	report := func(p func(toolName, step string, index, total int)) json.RawMessage {
		if p != nil {
			p("x", "reading", 0, 2)
			p("x", "done", 1, 2)
		}
		return json.RawMessage(`{"ok":true}`)
	}
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"RunWith", Config{RunWith: func(ctx context.Context, _ auth.Principal, _ string, _ json.RawMessage, opts facade.CallOptions) (json.RawMessage, error) {
			if o := gate.OptionsFromContext(ctx); o.Progress != nil {
				t.Error("RunWith's context carries a progress listener")
			}
			return report(opts.Progress), nil
		}}},
		{"Run", Config{Run: func(ctx context.Context, _ auth.Principal, _ string, _ json.RawMessage) (json.RawMessage, error) {
			return report(gate.OptionsFromContext(ctx).Progress), nil
		}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := New(tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			srv := serve(t, h)
			resp, err := http.Post(srv.URL, "application/json", bytes.NewReader(body("message/stream", sendParams("query_state", map[string]any{"kind": "gate"}))))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var got []string
			for ev := range sseEvents(t, resp) {
				su, ok := ev.(*spec.TaskStatusUpdateEvent)
				if !ok || su.Status.State != spec.TaskStateWorking || su.Status.Message == nil {
					continue
				}
				b, _ := json.Marshal(su.Status.Message.Parts)
				for _, want := range []string{"step 1 of 2: reading", "step 2 of 2: done"} {
					if strings.Contains(string(b), want) {
						got = append(got, want)
					}
				}
			}
			if want := []string{"step 1 of 2: reading", "step 2 of 2: done"}; !slices.Equal(got, want) {
				t.Errorf("working updates = %q, want %q", got, want)
			}
		})
	}
}
