package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/codes"

	"github.com/wardhq/ward/internal/capability"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/telemetry"
	"github.com/wardhq/ward/internal/tool"
)

// ErrDisabled is returned for a call to a tool disabled since ward
// started (its definition changed, or the upstream stopped listing it).
var ErrDisabled = errors.New("the upstream changed this tool's definition since the owner approved it; it is disabled until the owner approves the new one")

// ErrClosed is returned for a call to an upstream server ward has
// disconnected from (a reload removed it).
var ErrClosed = errors.New("ward is no longer connected to this server")

// removedErr is ErrClosed for a call that raced its server's removal: it
// was resolved before the reload and reached the server after it. Its
// reason is the one a call to the removed tool gets afterwards
// (TOOL_NOT_AVAILABLE), not a failure of the tool.
type removedErr struct{ server string }

func (e removedErr) Error() string {
	return "upstream " + e.server + ": " + ErrClosed.Error() + " (a reload removed it)"
}
func (removedErr) Is(target error) bool { return target == ErrClosed }
func (removedErr) Reason() reason.Code  { return reason.ToolUnavailable }

// registryTool returns the registry entry of im: a read handler, or a
// planner and a write handler. Its adapter key is (tool, mcp_<server>).
func (im *imported) registryTool(s *Set) registry.Tool {
	d := im.def
	t := registry.Tool{Def: d, Action: strings.TrimPrefix(d.Name, "mcp_"+im.srv.cfg.Name+"_"), Venue: "mcp_" + im.srv.cfg.Name}
	if d.Tier == tool.Read {
		t.Read = im.read
		return t
	}
	t.Plan = func(ctx context.Context, in *registry.Input) (*tool.Plan, error) {
		if im.disabled.Load() {
			return nil, ErrDisabled
		}
		return &tool.Plan{
			Chain: s.cfg.ChainID, From: s.cfg.From, ValueCents: 0,
			Summary: fmt.Sprintf("call %s on upstream MCP server %s (arguments %.16s…)", im.upstream, im.srv.cfg.Name, in.Args.HashHex()),
		}, nil
	}
	t.Write = im.write
	return t
}

// read is a read tool's handler: the upstream's result as the tool's data.
func (im *imported) read(ctx context.Context, in *registry.Input) (*tool.Result, error) {
	out, err := im.call(ctx, in)
	if err != nil {
		return nil, err
	}
	return &tool.Result{Data: out, SchemaVersion: im.def.SchemaVersion}, nil
}

// write is a write tool's handler. The capability is consumed before the
// upstream is called: without it nothing reaches the upstream.
func (im *imported) write(ctx context.Context, in *registry.Input, _ *tool.Plan, c *capability.Capability) (*tool.Result, error) {
	if im.disabled.Load() {
		return nil, ErrDisabled
	}
	if err := c.Consume(im.def.Name, in.Args.Hash(), in.Tick, in.Now); err != nil {
		return nil, fmt.Errorf("%s: %w", im.def.Name, err)
	}
	out, err := im.call(ctx, in)
	if err != nil {
		return nil, err
	}
	return &tool.Result{
		Data: out, SchemaVersion: im.def.SchemaVersion,
		// ward cannot observe what the upstream did: the outcome is its
		// report, recorded as such (not verified).
		ExpectedOutcome: "the upstream tool succeeds", ActualOutcome: "the upstream reported success",
		GroundTruthSource: "upstream_report",
	}, nil
}

// callOut is an upstream result as ward returns it: the content blocks
// (binary data left out, its size kept) and the structured content.
type callOut struct {
	Server     string          `json:"server"`
	Tool       string          `json:"tool"`
	Content    []contentOut    `json:"content"`
	Structured json.RawMessage `json:"structured_content,omitempty"`
}

type contentOut struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	MIMEType string `json:"mime_type,omitempty"`
	URI      string `json:"uri,omitempty"`
	Name     string `json:"name,omitempty"`
	// Bytes is the size of binary data ward did not pass on.
	Bytes int `json:"omitted_bytes,omitempty"`
}

// call calls the upstream with the validated arguments, within ctx (the
// gate's tick budget). Transport failures and results the upstream marks
// as errors are errors; an error result's text is the upstream's, cleaned
// and cut, like any output of the tool.
func (im *imported) call(ctx context.Context, in *registry.Input) (json.RawMessage, error) {
	if im.disabled.Load() {
		return nil, ErrDisabled
	}
	// CloseIdle waits for the calls in flight.
	im.set.inflight.RLock()
	defer im.set.inflight.RUnlock()
	if im.set.closed.Load() {
		return nil, removedErr{im.srv.cfg.Name}
	}
	raw := in.Raw
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	ctx, span := telemetry.Start(ctx, "ward.upstream.call")
	defer span.End()
	if span.IsRecording() {
		span.SetAttributes(telemetry.UpstreamName.String(im.srv.cfg.Name), telemetry.UpstreamTool.String(im.upstream))
	}
	// The upstream continues ward's trace, from the call's _meta.
	res, err := im.srv.cs.CallTool(ctx, &mcp.CallToolParams{Name: im.upstream, Arguments: raw, Meta: telemetry.InjectMeta(ctx)})
	if err != nil || res.IsError {
		span.SetStatus(codes.Error, "")
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("upstream %s: %w", im.srv.cfg.Name, ctx.Err())
		}
		return nil, fmt.Errorf("upstream %s: %s", im.srv.cfg.Name, clean(err.Error(), 200))
	}
	out := callOut{Server: im.srv.cfg.Name, Tool: im.upstream, Content: make([]contentOut, 0, len(res.Content))}
	for _, c := range res.Content {
		out.Content = append(out.Content, contentOf(c))
	}
	if res.IsError {
		var msg []string
		for _, c := range out.Content {
			if c.Text != "" {
				msg = append(msg, c.Text)
			}
		}
		return nil, fmt.Errorf("upstream %s: %s reported an error: %s", im.srv.cfg.Name, im.upstream, clean(strings.Join(msg, " "), 200))
	}
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return nil, fmt.Errorf("upstream %s: structured content: %w", im.srv.cfg.Name, err)
		}
		out.Structured = b
	}
	return json.Marshal(out)
}

func contentOf(c mcp.Content) contentOut {
	switch c := c.(type) {
	case *mcp.TextContent:
		return contentOut{Type: "text", Text: c.Text}
	case *mcp.ImageContent:
		return contentOut{Type: "image", MIMEType: c.MIMEType, Bytes: len(c.Data)}
	case *mcp.AudioContent:
		return contentOut{Type: "audio", MIMEType: c.MIMEType, Bytes: len(c.Data)}
	case *mcp.ResourceLink:
		return contentOut{Type: "resource_link", URI: c.URI, Name: c.Name, MIMEType: c.MIMEType}
	case *mcp.EmbeddedResource:
		if c.Resource == nil {
			return contentOut{Type: "resource"}
		}
		return contentOut{Type: "resource", URI: c.Resource.URI, MIMEType: c.Resource.MIMEType, Text: c.Resource.Text, Bytes: len(c.Resource.Blob)}
	}
	return contentOut{Type: fmt.Sprintf("%T", c)}
}

// changed is the client's list-changed notification handler: it wakes
// the watch goroutine without blocking the session.
func (s *Set) changed() {
	select {
	case s.notify <- struct{}{}:
	default: // a refresh is already due
	}
}

// watch refreshes the definitions after each list-changed notification,
// and serves approved definitions (pollApprovals), until Close.
func (s *Set) watch(ctx context.Context) {
	defer close(s.done)
	poll := time.NewTicker(s.cfg.ApprovalPoll)
	defer poll.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-poll.C:
			s.pollApprovals(ctx)
		case <-s.notify:
			s.Refresh(ctx)
			if s.cfg.onRefresh != nil {
				s.cfg.onRefresh()
			}
		}
	}
}

// Refresh lists every server's tools again and disables each imported
// tool whose definition no longer matches the approved one or that the
// upstream no longer lists (with a warning and an action record, as at
// start). A server that cannot be listed keeps its tools (its calls fail
// on their own). Tools that appear are registered on the next start only;
// a re-approved definition is served by Reapprove.
func (s *Set) Refresh(ctx context.Context) {
	s.refreshMu.Lock()
	defer s.refreshMu.Unlock()
	for _, srv := range s.servers {
		if srv.dropped.Load() {
			continue
		}
		lctx, cancel := context.WithTimeout(ctx, s.cfg.ConnectTimeout)
		tools, err := list(lctx, srv.cs)
		cancel()
		if err != nil {
			s.log.Warn("upstream: cannot list tools after a change notification", "server", srv.cfg.Name, "error", err)
			continue
		}
		pending, err := readPending(ctx, s.cfg.State, srv.cfg.Name)
		if err != nil {
			s.log.Warn("upstream: cannot read pending definitions", "server", srv.cfg.Name, "error", err)
			pending = map[string]PendingDef{}
		}
		all := map[string]map[string]PendingDef{srv.cfg.Name: pending}
		dirty := false
		for name, im := range srv.tools {
			if im.disabled.Load() {
				continue
			}
			var found *mcp.Tool
			for _, t := range tools {
				if t.Name == name {
					found = t
				}
			}
			if found == nil {
				im.disabled.Store(true)
				s.log.Warn("upstream tool no longer listed: disabled", "server", srv.cfg.Name, "tool", name)
				s.setStatus(Status{Server: srv.cfg.Name, Tool: name, Name: im.def.Name, State: Removed, Reason: "no longer listed by the upstream"})
				continue
			}
			canon, hash, err := DefHash(found)
			if err != nil || hash != im.hash {
				im.disabled.Store(true)
				s.changedDef(ctx, srv.cfg.Name, name, im.def.Name, hash, im.hash, canon, all)
				dirty = true
			}
		}
		if dirty {
			if err := writePending(ctx, s.cfg.State, srv.cfg.Name, all[srv.cfg.Name]); err != nil {
				s.log.Warn("upstream: cannot record pending definitions", "server", srv.cfg.Name, "error", err)
			}
		}
	}
}
