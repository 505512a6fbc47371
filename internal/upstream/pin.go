package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
)

// The pinning state lives in store.Pins: the approved hash of each tool,
// and per server the definitions seen that differ from the approved ones.

// Action record kinds of pinning.
const (
	KindPinned   = store.ActionUpstreamPinned   // first seen: approved on first use
	KindChanged  = store.ActionUpstreamChanged  // differs from the approved definition: disabled
	KindApproved = store.ActionUpstreamApproved // the owner approved a changed definition
)

// PendingDef is a definition that differs from the approved one and waits
// for the owner's approval.
type PendingDef struct {
	Tool     string          `json:"tool"`
	Hash     string          `json:"hash"`
	Approved string          `json:"approved_hash"`
	SeenAt   time.Time       `json:"seen_at"`
	Def      json.RawMessage `json:"definition"`
}

// pin checks c against its approved hash: unknown tools are approved on
// first use (one conditional write: of two processes starting at once, one
// pins its definition and the other is checked against it), matching ones
// pass, changed ones are recorded in pending and do not pass. It fails
// (and so does Open) only when the store fails.
func (s *Set) pin(ctx context.Context, c candidate, pending map[string]map[string]PendingDef) (bool, error) {
	now := s.cfg.Now()
	approved, created, err := s.cfg.State.PinTool(ctx, store.PinnedTool{Server: c.srv.Name, Tool: c.upstream, Hash: c.hash, Approved: now})
	if err != nil {
		return false, fmt.Errorf("upstream %s: pin %s: %w", c.srv.Name, c.upstream, err)
	}
	switch {
	case created:
		if err := s.record(ctx, KindPinned, c.def.Name, c.srv.Name, c.upstream, c.hash, "", "trust on first use", c.canon); err != nil {
			return false, err
		}
		return true, nil
	case approved.Hash == c.hash:
		return true, nil
	case approved.Hash == c.legacy:
		// Pinned by a ward that did not read output schemas: the tool is
		// as approved but for its output schema, which is pinned now, on
		// first use, with its record (ward's upgrade is no change of the
		// tool's).
		p := store.PinnedTool{Server: c.srv.Name, Tool: c.upstream, Hash: c.hash, Approved: now, By: "ward: output schema pinned on first use"}
		ok, err := s.cfg.State.RepinTool(ctx, p, c.legacy)
		if err != nil {
			return false, fmt.Errorf("upstream %s: pin %s: %w", c.srv.Name, c.upstream, err)
		}
		if ok {
			if err := s.record(ctx, KindPinned, c.def.Name, c.srv.Name, c.upstream, c.hash, c.legacy, "output schema pinned on first use", c.canon); err != nil {
				return false, err
			}
			return true, nil
		}
		// Another process moved the pin meanwhile: check against it.
		return s.pin(ctx, c, pending)
	}
	s.changedDef(ctx, c.srv.Name, c.upstream, c.def.Name, c.hash, approved.Hash, c.canon, pending)
	return false, nil
}

// changedDef records a definition that differs from the approved one: a
// warning, its status, the pending entry and an action record.
func (s *Set) changedDef(ctx context.Context, server, upstreamName, name, hash, approved string, canon []byte, pending map[string]map[string]PendingDef) {
	s.log.Warn("upstream tool definition changed since it was approved: disabled until the owner approves it (ward upstream approve)",
		"server", server, "tool", upstreamName, "name", name, "approved_hash", approved, "hash", hash)
	s.setStatus(Status{Server: server, Tool: upstreamName, Name: name, State: Changed, Hash: hash,
		Reason: "definition changed since approval"})
	if pending[server] == nil {
		pending[server] = map[string]PendingDef{}
	}
	pending[server][upstreamName] = PendingDef{Tool: upstreamName, Hash: hash, Approved: approved, SeenAt: s.cfg.Now(), Def: canon}
	if err := s.record(ctx, KindChanged, name, server, upstreamName, hash, approved, "disabled until approved", canon); err != nil {
		s.log.Warn("upstream: the change could not be recorded", "server", server, "tool", upstreamName, "error", err)
	}
}

func (s *Set) record(ctx context.Context, kind store.ActionKind, name, server, upstreamName, hash, approved, note string, canon []byte) error {
	return recordAction(ctx, s.cfg.Actions, s.cfg.Now(), kind, name, server, upstreamName, hash, approved, note, canon)
}

func recordAction(ctx context.Context, actions store.ActionLog, now time.Time, kind store.ActionKind, name, server, upstreamName, hash, approved, note string, canon []byte) error {
	detail, err := json.Marshal(struct {
		Server   string          `json:"server"`
		Tool     string          `json:"tool"`
		Hash     string          `json:"hash"`
		Approved string          `json:"approved_hash,omitempty"`
		Note     string          `json:"note,omitempty"`
		Def      json.RawMessage `json:"definition,omitempty"`
	}{server, upstreamName, hash, approved, note, canon})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	rec := &store.ActionRecord{ID: id.New(now), Time: now, Kind: kind, Tool: name, Detail: detail}
	if err := actions.AppendAction(ctx, rec); err != nil {
		return fmt.Errorf("upstream %s: record %s of %s: %w", server, kind, upstreamName, err)
	}
	return nil
}

// writePending replaces a server's pending definitions.
func writePending(ctx context.Context, st store.Pins, server string, p map[string]PendingDef) error {
	ps := make([]store.PendingTool, 0, len(p))
	for _, d := range p {
		ps = append(ps, store.PendingTool{Server: server, Tool: d.Tool, Hash: d.Hash, ApprovedHash: d.Approved, Seen: d.SeenAt, Def: d.Def})
	}
	if err := st.SetPendingTools(ctx, server, ps); err != nil {
		return fmt.Errorf("upstream %s: record pending definitions: %w", server, err)
	}
	return nil
}

// pendingDef is a pending definition as Pending reports it.
func pendingDef(p store.PendingTool) PendingDef {
	return PendingDef{Tool: p.Tool, Hash: p.Hash, Approved: p.ApprovedHash, SeenAt: p.Seen, Def: p.Def}
}

// Pending returns a server's definitions that wait for approval, sorted by
// tool.
func Pending(ctx context.Context, st store.Pins, server string) ([]PendingDef, error) {
	ps, err := st.PendingTools(ctx, server)
	if err != nil {
		return nil, fmt.Errorf("upstream %s: read pending definitions: %w", server, err)
	}
	out := make([]PendingDef, len(ps))
	for i, p := range ps {
		out[i] = pendingDef(p)
	}
	return out, nil
}

func readPending(ctx context.Context, st store.Pins, server string) (map[string]PendingDef, error) {
	ps, err := Pending(ctx, st, server)
	if err != nil {
		return nil, err
	}
	m := make(map[string]PendingDef, len(ps))
	for _, p := range ps {
		m[p.Tool] = p
	}
	return m, nil
}

// ErrNotPending is returned by Approve for a tool with no changed
// definition waiting.
var ErrNotPending = errors.New("no changed definition waits for approval")

// Approve records the owner's approval of a server's pending definition of
// upstreamName: its hash becomes the approved one and it leaves the
// pending ones, in one write, and an upstream_tool_approved action record
// names who approved it. The tool is registered again on ward's next
// start (if the upstream still serves that definition).
func Approve(ctx context.Context, st store.Pins, actions store.ActionLog, server, upstreamName, by string, now time.Time) (PendingDef, error) {
	sp, err := st.ApproveTool(ctx, server, upstreamName, by, now)
	if errors.Is(err, store.ErrNotFound) {
		return PendingDef{}, fmt.Errorf("upstream %s: tool %q: %w", server, upstreamName, ErrNotPending)
	}
	if err != nil {
		return PendingDef{}, fmt.Errorf("upstream %s: approve %s: %w", server, upstreamName, err)
	}
	p := pendingDef(sp)
	if err := recordAction(ctx, actions, now, KindApproved, ToolName(server, upstreamName), server, upstreamName, p.Hash, p.Approved, "approved by "+by, p.Def); err != nil {
		return PendingDef{}, err
	}
	return p, nil
}

// ApprovedDef returns the canonical definition that hash approved, from
// the action records of its pinning or approval (false if none has it).
func ApprovedDef(ctx context.Context, actions store.ActionLog, server, upstreamName, hash string) (json.RawMessage, bool, error) {
	recs, err := actions.Actions(ctx, store.ActionFilter{Tool: ToolName(server, upstreamName)})
	if err != nil {
		return nil, false, fmt.Errorf("upstream %s: read the approval records of %s: %w", server, upstreamName, err)
	}
	for i := len(recs) - 1; i >= 0; i-- {
		r := recs[i]
		if r.Kind != KindPinned && r.Kind != KindApproved {
			continue
		}
		var d struct {
			Server string          `json:"server"`
			Tool   string          `json:"tool"`
			Hash   string          `json:"hash"`
			Def    json.RawMessage `json:"definition"`
		}
		if json.Unmarshal(r.Detail, &d) == nil && d.Server == server && d.Tool == upstreamName && d.Hash == hash && len(d.Def) > 0 {
			return d.Def, true, nil
		}
	}
	return nil, false, nil
}
