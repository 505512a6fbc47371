package gate

import (
	"context"
	"encoding/json"

	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// handlerCalls is the session of a call as its handler may use it
// (registry.Input.Session): a WASM tool's guest calls read tools and
// previews writes through it, each one a call of the session like the
// agent's own, with its policy decision, taint and audit record, and the
// options of the call whose handler makes it (its facade and progress
// listener).
type handlerCalls struct {
	t    *Tools
	s    *Session
	opts CallOptions
}

var _ registry.SessionCalls = handlerCalls{}

// Read runs a read tool of the session. A tool that changes state is
// refused, and the refusal recorded: a handler never reaches a write
// except as a preview.
func (c handlerCalls) Read(ctx context.Context, name string, raw json.RawMessage) (*tool.Result, error) {
	if e, ok := c.s.View.Get(name); ok && e.Def.Tier != tool.Read {
		var h string
		if a, err := tool.ParseArgs(raw); err == nil {
			h = a.HashHex()
		}
		return nil, c.t.vetoed(ctx, c.s, name, h, refuse(reason.ToolUnavailable, "handler",
			name+" changes state: a tool's handler may only read, and return writes as requests to preview", "a handler called a write tool directly"))
	}
	return c.t.ReadWith(ctx, c.s, name, raw, c.opts)
}

// Preview previews a write as the session (preview_action).
func (c handlerCalls) Preview(ctx context.Context, name string, raw json.RawMessage) (json.RawMessage, error) {
	pv, err := c.t.PreviewWith(ctx, c.s, name, raw, c.opts)
	if err != nil {
		return nil, err
	}
	return json.Marshal(pv)
}
