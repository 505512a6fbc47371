package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
)

// Keys of the pinning state: the approved hash of each tool, and per
// server the definitions seen that differ from the approved ones.
func approvedKey(server, upstreamName string) string {
	return "upstream:" + server + ":" + upstreamName
}
func pendingKey(server string) string { return "upstream-pending:" + server }

// Action record kinds of pinning.
const (
	KindPinned   = "upstream_tool_pinned"   // first seen: approved on first use
	KindChanged  = "upstream_tool_changed"  // differs from the approved definition: disabled
	KindApproved = "upstream_tool_approved" // the owner approved a changed definition
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
// first use, matching ones pass, changed ones are recorded in pending and
// do not pass. It fails (and so does Open) only when the store fails.
func (s *Set) pin(ctx context.Context, c candidate, pending map[string]map[string]PendingDef) (bool, error) {
	key := approvedKey(c.srv.Name, c.upstream)
	approved, _, ok, err := s.cfg.State.State(ctx, key)
	if err != nil {
		return false, fmt.Errorf("upstream %s: read the approved definition of %s: %w", c.srv.Name, c.upstream, err)
	}
	now := s.cfg.Now()
	switch {
	case !ok || approved == "":
		if err := s.cfg.State.SetState(ctx, key, c.hash, now); err != nil {
			return false, fmt.Errorf("upstream %s: pin %s: %w", c.srv.Name, c.upstream, err)
		}
		if err := s.record(ctx, KindPinned, c.def.Name, c.srv.Name, c.upstream, c.hash, "", "trust on first use", c.canon); err != nil {
			return false, err
		}
		return true, nil
	case approved == c.hash:
		return true, nil
	}
	s.changedDef(ctx, c.srv.Name, c.upstream, c.def.Name, c.hash, approved, c.canon, pending)
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

func (s *Set) record(ctx context.Context, kind, name, server, upstreamName, hash, approved, note string, canon []byte) error {
	return recordAction(ctx, s.cfg.Actions, s.cfg.Now(), kind, name, server, upstreamName, hash, approved, note, canon)
}

func recordAction(ctx context.Context, actions store.ActionLog, now time.Time, kind, name, server, upstreamName, hash, approved, note string, canon []byte) error {
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
	rec := &store.ActionRecord{ID: id.New(now), Time: now, Kind: kind, Tool: name, Status: note, Detail: detail}
	if err := actions.AppendAction(ctx, rec); err != nil {
		return fmt.Errorf("upstream %s: record %s of %s: %w", server, kind, upstreamName, err)
	}
	return nil
}

// writePending replaces a server's pending definitions.
func writePending(ctx context.Context, st store.State, server string, p map[string]PendingDef, now time.Time) error {
	v := ""
	if len(p) > 0 {
		b, err := json.Marshal(p)
		if err != nil {
			return err
		}
		v = string(b)
	}
	if v == "" {
		// Leave no empty key behind for servers that never had one.
		old, _, ok, err := st.State(ctx, pendingKey(server))
		if err != nil {
			return fmt.Errorf("upstream %s: read pending definitions: %w", server, err)
		}
		if !ok || old == "" {
			return nil
		}
	}
	if err := st.SetState(ctx, pendingKey(server), v, now); err != nil {
		return fmt.Errorf("upstream %s: record pending definitions: %w", server, err)
	}
	return nil
}

// Pending returns a server's definitions that wait for approval, sorted by
// tool.
func Pending(ctx context.Context, st store.State, server string) ([]PendingDef, error) {
	m, err := readPending(ctx, st, server)
	if err != nil {
		return nil, err
	}
	out := make([]PendingDef, 0, len(m))
	for _, p := range m {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Tool < out[j].Tool })
	return out, nil
}

func readPending(ctx context.Context, st store.State, server string) (map[string]PendingDef, error) {
	v, _, ok, err := st.State(ctx, pendingKey(server))
	if err != nil {
		return nil, fmt.Errorf("upstream %s: read pending definitions: %w", server, err)
	}
	m := map[string]PendingDef{}
	if !ok || v == "" {
		return m, nil
	}
	if err := json.Unmarshal([]byte(v), &m); err != nil {
		return nil, fmt.Errorf("upstream %s: pending definitions: %w", server, err)
	}
	return m, nil
}

// ErrNotPending is returned by Approve for a tool with no changed
// definition waiting.
var ErrNotPending = errors.New("no changed definition waits for approval")

// Approve records the owner's approval of a server's pending definition of
// upstreamName: its hash becomes the approved one and an
// upstream_tool_approved action record names who approved it. The tool is
// registered again on ward's next start (if the upstream still serves that
// definition).
func Approve(ctx context.Context, st store.State, actions store.ActionLog, server, upstreamName, by string, now time.Time) (PendingDef, error) {
	m, err := readPending(ctx, st, server)
	if err != nil {
		return PendingDef{}, err
	}
	p, ok := m[upstreamName]
	if !ok {
		return PendingDef{}, fmt.Errorf("upstream %s: tool %q: %w", server, upstreamName, ErrNotPending)
	}
	if err := st.SetState(ctx, approvedKey(server, upstreamName), p.Hash, now); err != nil {
		return PendingDef{}, fmt.Errorf("upstream %s: approve %s: %w", server, upstreamName, err)
	}
	delete(m, upstreamName)
	if err := writePending(ctx, st, server, m, now); err != nil {
		return PendingDef{}, err
	}
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
