package api

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"time"

	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
)

// call answers POST /v1/call/{facade}: the body is the facade's JSON
// arguments, the answer its JSON result; a refusal is the gate's reason
// code with a 4xx status (5xx when ward itself failed).
func (a *Server) call(ctx context.Context, r *request) (any, error) {
	name := r.PathValue("facade")
	if len(name) > 64 {
		return nil, &Error{Status: http.StatusNotFound, Code: CodeNotFound, Message: "no such tool"}
	}
	body := bytes.TrimSpace(r.body)
	if len(body) == 0 {
		body = []byte("{}")
	}
	if !json.Valid(body) {
		return nil, &Error{Status: http.StatusBadRequest, Code: CodeBadJSON, Message: "the body is not valid JSON"}
	}
	s, err := a.session(r)
	if err != nil {
		return nil, err
	}
	res, err := a.cfg.Tools.CallWith(ctx, s, name, body, facade.CallOptions{})
	if err != nil {
		return nil, err
	}
	return json.RawMessage(res), nil
}

// toolView is a registered tool as GET /v1/tools lists it.
type toolView struct {
	*tool.Def
	Action string `json:"action,omitempty"`
	Venue  string `json:"venue,omitempty"`
}

// listTools answers GET /v1/tools: the facade tools the caller's session
// offers its model, and the registered tools behind them.
func (a *Server) listTools(ctx context.Context, r *request) (any, error) {
	s, err := a.session(r)
	if err != nil {
		return nil, err
	}
	entries := s.View().Entries()
	tools := make([]toolView, 0, len(entries))
	for _, e := range entries {
		tools = append(tools, toolView{Def: e.Def, Action: e.Action, Venue: e.Venue})
	}
	return map[string]any{"session_id": s.ID(), "facades": facade.Defs(s.View()), "tools": tools}, nil
}

// sessionView is one session seen in the audit trail.
type sessionView struct {
	ID          string    `json:"session_id"`
	InputSource string    `json:"input_source"`
	FirstSeen   time.Time `json:"first_seen"`
	LastSeen    time.Time `json:"last_seen"`
	Decisions   int       `json:"decisions"`
	Denied      int       `json:"denied"`
	Quarantined int       `json:"quarantined"`
	// The stored session, when it still exists: whose it is, its name,
	// its taint and how it is reviewed.
	Principal string   `json:"principal_id,omitempty"`
	Name      *string  `json:"name,omitempty"`
	Taint     string   `json:"taint,omitempty"`
	Isolated  bool     `json:"isolated,omitempty"`
	Parent    string   `json:"parent,omitempty"`
	Reviewers []string `json:"reviewers,omitempty"`
	Judge     string   `json:"judge,omitempty"`
}

// maxScanned bounds the decisions GET /v1/sessions reads.
const maxScanned = 20_000

// listSessions answers GET /v1/sessions: the sessions that made calls since
// ?since (default 24h), most recent first, from the newest decisions of the
// audit trail (at most 20,000 of them are read; "truncated" says so).
func (a *Server) listSessions(ctx context.Context, r *request) (any, error) {
	now := a.cfg.Now()
	since, err := timeParam(r, "since", now)
	if err != nil {
		return nil, err
	}
	if since.IsZero() {
		since = now.Add(-24 * time.Hour)
	}
	limit, err := limitParam(r, 100, 1000)
	if err != nil {
		return nil, err
	}
	recs, err := a.cfg.Store.QueryDecisions(ctx, store.DecisionFilter{Since: since, Origin: store.OriginGate, Limit: maxScanned})
	if err != nil {
		return nil, err
	}
	by := map[string]*sessionView{}
	for i := range recs {
		d := &recs[i]
		if d.SessionID == "" {
			continue
		}
		v := by[d.SessionID]
		if v == nil {
			v = &sessionView{ID: d.SessionID, InputSource: d.InputSource, FirstSeen: d.Time, LastSeen: d.Time}
			by[d.SessionID] = v
		}
		v.Decisions++
		switch d.Decision {
		case store.VerdictDeny:
			v.Denied++
		case store.VerdictQuarantine:
			v.Quarantined++
		}
		if d.Time.Before(v.FirstSeen) {
			v.FirstSeen = d.Time
		}
		if d.Time.After(v.LastSeen) {
			v.LastSeen = d.Time
		}
	}
	// The stored sessions: their state, and those that made no call in
	// the window (a session under review, say) as well.
	stored, err := a.cfg.Tools.Sessions(ctx, store.SessionFilter{Limit: 10_000})
	if err != nil {
		return nil, err
	}
	for i := range stored {
		rec := &stored[i]
		v := by[rec.ID]
		if v == nil {
			if rec.Active.Before(since) && rec.Level == 0 {
				continue
			}
			v = &sessionView{ID: rec.ID, FirstSeen: rec.Created, LastSeen: rec.Active}
			by[rec.ID] = v
		}
		name := rec.Name
		v.Principal, v.Name, v.Taint, v.Isolated, v.Parent = rec.PrincipalID, &name, rec.Level.String(), rec.Isolated, rec.ParentID
		v.Reviewers, v.Judge = rec.Reviewers, rec.Judge
	}
	out := make([]sessionView, 0, len(by))
	for _, v := range by {
		out = append(out, *v)
	}
	slices.SortFunc(out, func(x, y sessionView) int {
		if c := y.LastSeen.Compare(x.LastSeen); c != 0 {
			return c
		}
		return cmp.Compare(x.ID, y.ID)
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return map[string]any{"sessions": out, "since": since, "truncated": len(recs) == maxScanned}, nil
}
