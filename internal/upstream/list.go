package upstream

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
)

// ServerInfo is what the operator sees of one configured upstream server
// (ward upstream list, GET /v1/upstreams): where it is, its pinned tools
// and the changed definitions that wait for approval. It never holds the
// server's environment, headers or command arguments, which may carry
// secrets.
type ServerInfo struct {
	Name string `json:"name"`
	// Transport is "stdio" or "http"; Target the command's program name
	// or the URL without user info, query or fragment.
	Transport string `json:"transport"`
	Target    string `json:"target"`
	// Sandbox is how a stdio server runs: "sandboxed", "sandboxed with
	// network", or "off" (sandbox = false: unconfined); "" for http.
	Sandbox string       `json:"sandbox,omitempty"`
	Tools   []ToolInfo   `json:"tools"`
	Pending []PendingDef `json:"pending"`
}

// ToolInfo is one pinned tool of an upstream server.
type ToolInfo struct {
	Tool       string    `json:"tool"` // the upstream's name
	Name       string    `json:"name"` // ward's name
	PinnedHash string    `json:"pinned_hash"`
	ApprovedAt time.Time `json:"approved_at"`
	// ApprovedBy is who approved the pinned definition; "" when it was
	// trusted on first use.
	ApprovedBy string `json:"approved_by"`
	// State and Reason are what the running ward made of the tool (empty
	// when listed from the store alone).
	State  ToolState `json:"state,omitempty"`
	Reason string    `json:"reason,omitempty"`
}

// List describes servers from the pins and pending definitions in st,
// with status (Set.Status of a running ward; nil when there is none)
// giving each tool's state. Tools the running ward skipped or found
// changed before their first pin are listed from status too. Servers keep
// their order.
func List(ctx context.Context, st store.Pins, servers []Server, status []Status) ([]ServerInfo, error) {
	out := make([]ServerInfo, 0, len(servers))
	for _, srv := range servers {
		info := ServerInfo{Name: srv.Name, Tools: []ToolInfo{}, Pending: []PendingDef{}}
		info.Transport, info.Target = target(srv)
		info.Sandbox = srv.Sandbox.String(len(srv.Command) > 0)
		pins, err := st.PinnedTools(ctx, srv.Name)
		if err != nil {
			return nil, fmt.Errorf("upstream %s: %w", srv.Name, err)
		}
		seen := map[string]bool{}
		for _, p := range pins {
			ti := ToolInfo{Tool: p.Tool, Name: ToolName(srv.Name, p.Tool), PinnedHash: p.Hash, ApprovedAt: p.Approved.UTC(), ApprovedBy: p.By}
			for _, s := range status {
				if s.Server == srv.Name && s.Tool == p.Tool {
					ti.State, ti.Reason = s.State, s.Reason
				}
			}
			seen[p.Tool] = true
			info.Tools = append(info.Tools, ti)
		}
		for _, s := range status {
			if s.Server == srv.Name && !seen[s.Tool] {
				info.Tools = append(info.Tools, ToolInfo{Tool: s.Tool, Name: s.Name, State: s.State, Reason: s.Reason})
			}
		}
		if info.Pending, err = Pending(ctx, st, srv.Name); err != nil {
			return nil, err
		}
		if info.Pending == nil {
			info.Pending = []PendingDef{}
		}
		out = append(out, info)
	}
	return out, nil
}

// target is how a server is reached, without anything that may be secret.
func target(s Server) (transport, where string) {
	if len(s.Command) > 0 {
		return "stdio", filepath.Base(s.Command[0])
	}
	u, err := url.Parse(s.URL)
	if err != nil {
		return "http", ""
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return "http", u.String()
}

// ApprovedRefs returns what the policy sees of each upstream tool whose
// approved definition st holds (its pin, and the pinning or approval
// record that carries the definition), by ward's name: the category, risk
// and tier the servers' overrides and the approved annotations give it,
// as a running ward would register it. Tools whose approved definition
// ward cannot use, or whose record is missing, are left out. It lets a
// what-if policy check resolve an upstream tool named alone without
// connecting to its server.
func ApprovedRefs(ctx context.Context, pins store.Pins, actions store.ActionLog, servers []Server) (map[string]tool.Ref, error) {
	out := map[string]tool.Ref{}
	for _, srv := range servers {
		ps, err := pins.PinnedTools(ctx, srv.Name)
		if err != nil {
			return nil, fmt.Errorf("upstream %s: %w", srv.Name, err)
		}
		for _, p := range ps {
			canon, ok, err := ApprovedDef(ctx, actions, srv.Name, p.Tool, p.Hash)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			t, err := fromCanon(canon)
			if err != nil {
				continue
			}
			if _, h, err := DefHash(t); err != nil || h != p.Hash {
				continue // not the approved definition after all
			}
			c, err := convert(srv, t)
			if err != nil {
				continue
			}
			out[c.def.Name] = c.def.Ref()
		}
	}
	return out, nil
}

// fromCanon rebuilds the MCP tool of a canonical definition (DefHash).
func fromCanon(canon []byte) (*mcp.Tool, error) {
	var p pinnedDef
	if err := json.Unmarshal(canon, &p); err != nil {
		return nil, err
	}
	t := &mcp.Tool{Name: p.Name, Description: p.Description, InputSchema: p.InputSchema, OutputSchema: p.OutputSchema}
	if a := p.Annotations; a != nil {
		t.Annotations = &mcp.ToolAnnotations{Title: a.Title, ReadOnlyHint: a.ReadOnly, DestructiveHint: a.Destructive,
			IdempotentHint: a.Idempotent, OpenWorldHint: a.OpenWorld}
	}
	return t, nil
}
