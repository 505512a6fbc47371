package tui

import (
	"fmt"
	"time"
)

// The API's JSON (docs/api.md), decoded at the wire and turned into the
// model's types. Unknown fields are ignored: the API may grow.

// gateWire is GET /v1/gate.
type gateWire struct {
	Phase      string      `json:"phase"`
	Halted     bool        `json:"halted"`
	HaltReason string      `json:"halt_reason"`
	Spend      []spendWire `json:"spend"`
	AgentSpend []struct {
		SessionID string      `json:"session_id"`
		Name      string      `json:"name"`
		Spend     []spendWire `json:"spend"`
	} `json:"agent_spend"`
}

// spendWire is one spending window of GET /v1/gate, the gate's or an
// agent's.
type spendWire struct {
	Window     string `json:"window"`
	SpentCents int64  `json:"spent_cents"`
	HeldCents  int64  `json:"held_cents"`
	LimitCents int64  `json:"limit_cents"`
	Unlimited  bool   `json:"unlimited"`
}

// spend is the window as the model shows it, under name; an unlimited
// window has no limit (0).
func (s spendWire) spend(name string) Spend {
	limit := s.LimitCents
	if s.Unlimited {
		limit = 0
	}
	return Spend{Name: name, UsedCents: s.SpentCents, HeldCents: s.HeldCents, LimitCents: limit}
}

func (w gateWire) gate() Gate {
	g := Gate{Phase: w.Phase, Halted: w.Halted, HaltReason: w.HaltReason}
	for _, s := range w.Spend {
		if s.Window == "session" || s.Window == "tick" {
			continue // the TUI's own session, which spends nothing: agent_spend has the agents'
		}
		g.Spend = append(g.Spend, s.spend(s.Window))
	}
	for _, a := range w.AgentSpend {
		name := a.Name
		if name == "" {
			name = a.SessionID
		}
		for _, s := range a.Spend {
			if s.Window != "session" {
				continue // the session's total; its tick is a moment of it
			}
			g.Spend = append(g.Spend, s.spend("agent "+name))
		}
	}
	return g
}

// quarantineWire is GET /v1/quarantine.
type quarantineWire struct {
	Items []struct {
		ID          string    `json:"id"`
		Time        time.Time `json:"time"`
		ExpiresAt   time.Time `json:"expires_at"`
		SessionID   string    `json:"session_id"`
		Tool        string    `json:"tool"`
		Tier        string    `json:"tier"`
		Reason      string    `json:"reason"`
		Message     string    `json:"message"`
		Rule        string    `json:"rule"`
		Status      string    `json:"status"`
		DecisionID  string    `json:"decision_id"`
		Description *descWire `json:"description"`
	} `json:"items"`
}

func (w quarantineWire) held() []Held {
	var out []Held
	for _, q := range w.Items {
		out = append(out, Held{ID: q.ID, Tool: q.Tool, Tier: q.Tier, Session: q.SessionID, Code: q.Reason, Reason: q.Message,
			Rule: q.Rule, Time: q.Time, Expires: q.ExpiresAt, Description: q.Description.description()})
	}
	return out
}

// reviews maps the decision ids of held calls to their review status
// (approved, rejected, expired, pending).
func (w quarantineWire) reviews() map[string]string {
	out := map[string]string{}
	for _, q := range w.Items {
		if q.DecisionID != "" && q.Status != "" {
			out[q.DecisionID] = q.Status
		}
	}
	return out
}

// reviewedWire is the item POST /v1/quarantine/{id}/approve|reject
// returns: an approval ran the call, and its outcome is a write's permit,
// a read's result, or what stopped it.
type reviewedWire struct {
	Status  string `json:"status"`
	Outcome *struct {
		OK     bool `json:"ok"`
		Permit *struct {
			PermitID string `json:"permit_id"`
		} `json:"permit"`
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"outcome"`
}

// summary says what the review did, in a few words.
func (w reviewedWire) summary() string {
	o := w.Outcome
	switch {
	case o == nil:
		return w.Status
	case !o.OK:
		return fmt.Sprintf("%s; the call failed: %s %s", w.Status, o.Code, o.Message)
	case o.Permit != nil:
		return fmt.Sprintf("%s; permit %s is the agent's to commit", w.Status, o.Permit.PermitID)
	}
	return w.Status + "; the call ran"
}

// decisionsWire is GET /v1/decisions.
type decisionsWire struct {
	Decisions []struct {
		ID       string    `json:"id"`
		Time     time.Time `json:"time"`
		Tool     string    `json:"tool"`
		Decision string    `json:"decision"`
		Reason   string    `json:"reason"`
		Message  string    `json:"message"`
	} `json:"decisions"`
}

func (w decisionsWire) decisions() []Decision {
	var out []Decision
	for _, d := range w.Decisions {
		out = append(out, Decision{ID: d.ID, Time: d.Time, Tool: d.Tool, Decision: d.Decision, Code: d.Reason, Message: d.Message})
	}
	return out
}
