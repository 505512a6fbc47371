package api

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/tool"
)

// The what-if contract of `ward policy check`, one request per call: the
// request evaluates against the policy in force and the tracked state of
// the store (or the state it seeds), and its decision is returned, not
// recorded. This is the CLI's request format, field for field
// (internal/cli/policy.go).

// checkRequest is one what-if request.
type checkRequest struct {
	Tool struct {
		Name     string `json:"name"`
		Category string `json:"category"`
		Risk     string `json:"risk"`
		Tier     string `json:"tier"`
	} `json:"tool"`
	Args json.RawMessage `json:"args"`
	Turn struct {
		ID          string `json:"id"`
		SessionID   string `json:"session_id"`
		InputSource string `json:"input_source"`
	} `json:"turn"`
	State   *checkState `json:"state"`
	Workdir string      `json:"workdir"`
	Now     string      `json:"now"`
}

type checkState struct {
	BalanceCents *int64 `json:"balance_cents"`
	Workdir      string `json:"workdir"`
	Spend        []struct {
		Category    string  `json:"category"`
		AmountCents int64   `json:"amount_cents"`
		AgeSeconds  float64 `json:"age_seconds"`
	} `json:"spend"`
	Executed []struct {
		Tool       string  `json:"tool"`
		Count      int     `json:"count"`
		Scope      string  `json:"scope"`
		AgeSeconds float64 `json:"age_seconds"`
	} `json:"executed"`
}

// maxSeeded bounds the executions one what-if request may seed.
const maxSeeded = 100_000

// policyCheck answers POST /v1/policy/check.
func (a *Server) policyCheck(ctx context.Context, r *request) (any, error) {
	var cr checkRequest
	if err := decode(r.body, &cr); err != nil {
		return nil, err
	}
	snap := a.cfg.Policy()
	now := a.cfg.Now()
	var tracked *policy.Tracker
	if cr.State == nil {
		tracked = policy.NewTracker()
		if err := gate.Restore(ctx, a.cfg.Store, tracked, snap, now); err != nil {
			return nil, err
		}
	}
	d, err := evaluateCheck(snap, tracked, &cr, now)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(d.AppendJSON(nil)), nil
}

func fieldError(field, format string, args ...any) *Error {
	return badRequest("field %s: %s", field, fmt.Sprintf(format, args...))
}

// evaluateCheck evaluates cr against snap: with the tracked state when cr
// seeds none. Now is the evaluation time unless cr says.
func evaluateCheck(snap *policy.Snapshot, tracked *policy.Tracker, cr *checkRequest, now time.Time) (policy.Decision, error) {
	ref := tool.Ref{Name: cr.Tool.Name, Category: tool.Category(cr.Tool.Category)}
	switch {
	case cr.Tool.Name == "":
		return policy.Decision{}, fieldError("tool.name", "required")
	case !tool.ValidName(cr.Tool.Name):
		return policy.Decision{}, fieldError("tool.name", "not a valid tool name (letters, digits, _ - . :)")
	case cr.Tool.Category != "" && !tool.ValidName(cr.Tool.Category):
		return policy.Decision{}, fieldError("tool.category", "not a valid category")
	}
	if cr.Tool.Risk != "" {
		r, err := tool.ParseRisk(cr.Tool.Risk)
		if err != nil {
			return policy.Decision{}, fieldError("tool.risk", "want safe, caution, dangerous or forbidden")
		}
		ref.Risk = r
	}
	if cr.Tool.Tier != "" {
		t, err := tool.ParseTier(cr.Tool.Tier)
		if err != nil {
			return policy.Decision{}, fieldError("tool.tier", "want read, write or privileged")
		}
		ref.Tier = t
	}
	req := &policy.Request{
		Tool:    ref,
		Turn:    policy.Turn{ID: cr.Turn.ID, SessionID: cr.Turn.SessionID, Source: policy.ParseInputSource(cr.Turn.InputSource)},
		Workdir: cr.Workdir,
		State:   tracked,
		Now:     now,
	}
	if cr.Now != "" {
		t, err := time.Parse(time.RFC3339Nano, cr.Now)
		if err != nil {
			return policy.Decision{}, fieldError("now", "not an RFC 3339 time")
		}
		req.Now = t
	}
	if s := cr.State; s != nil {
		t, err := seedTracker(snap, req, s)
		if err != nil {
			return policy.Decision{}, err
		}
		req.State = t
		if s.Workdir != "" && req.Workdir == "" {
			req.Workdir = s.Workdir
		}
	}
	args, err := tool.ParseArgs(cr.Args)
	if err != nil {
		return policy.Decision{}, fieldError("args", "%s", strings.TrimPrefix(err.Error(), tool.ErrArgs.Error()+": "))
	}
	req.Args = args
	return snap.Evaluate(req), nil
}

func seedTracker(snap *policy.Snapshot, req *policy.Request, s *checkState) (*policy.Tracker, error) {
	t := policy.NewTracker()
	if s.BalanceCents != nil {
		t.SetBalance(*s.BalanceCents)
	}
	age := func(field string, sec float64) (time.Time, error) {
		if sec < 0 || sec > policy.MaxWindow.Seconds() {
			return time.Time{}, fieldError(field, "must be between 0 and %.0f", policy.MaxWindow.Seconds())
		}
		return req.Now.Add(-time.Duration(sec * float64(time.Second))), nil
	}
	for i, sp := range s.Spend {
		field := fmt.Sprintf("state.spend[%d]", i)
		if sp.Category == "" {
			return nil, fieldError(field+".category", "required")
		}
		if sp.AmountCents < 0 {
			return nil, fieldError(field+".amount_cents", "must not be negative")
		}
		at, err := age(field+".age_seconds", sp.AgeSeconds)
		if err != nil {
			return nil, err
		}
		t.RecordSpend(sp.Category, sp.AmountCents, at)
	}
	total := 0
	for i, ex := range s.Executed {
		field := fmt.Sprintf("state.executed[%d]", i)
		if !tool.ValidName(ex.Tool) {
			return nil, fieldError(field+".tool", "required, a valid tool name")
		}
		if ex.Count < 0 {
			return nil, fieldError(field+".count", "must not be negative")
		}
		if total += ex.Count; total > maxSeeded {
			return nil, fieldError(field+".count", "more than %d seeded executions", maxSeeded)
		}
		at, err := age(field+".age_seconds", ex.AgeSeconds)
		if err != nil {
			return nil, err
		}
		e := policy.Execution{Tool: snap.Resolve(tool.Ref{Name: ex.Tool}), At: at}
		switch ex.Scope {
		case "turn":
			e.TurnID, e.SessionID = req.Turn.ID, req.Turn.SessionID
		case "session":
			e.SessionID = req.Turn.SessionID
		case "", "window":
		default:
			return nil, fieldError(field+".scope", `must be "turn", "session" or "window"`)
		}
		for range ex.Count {
			t.Record(e)
		}
	}
	return t, nil
}
