package api

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"time"

	"github.com/wardhq/ward/internal/store"
)

// decisionView is one decision of the audit trail on the wire.
type decisionView struct {
	ID             string          `json:"id"`
	Time           time.Time       `json:"time"`
	TurnID         string          `json:"turn_id,omitempty"`
	SessionID      string          `json:"session_id,omitempty"`
	InputSource    string          `json:"input_source,omitempty"`
	Authority      string          `json:"authority,omitempty"`
	Tool           string          `json:"tool"`
	Category       string          `json:"category,omitempty"`
	ArgsHash       string          `json:"args_hash"`
	Risk           string          `json:"risk"`
	Decision       store.Verdict   `json:"decision"`
	Reason         string          `json:"reason"`
	Message        string          `json:"message,omitempty"`
	Rule           string          `json:"rule,omitempty"`
	RulesEvaluated json.RawMessage `json:"rules_evaluated"`
	RulesTriggered json.RawMessage `json:"rules_triggered"`
	LatencyNS      int64           `json:"latency_ns"`
	PolicyHash     string          `json:"policy_hash"`
	SpendCategory  string          `json:"spend_category,omitempty"`
	SpendCents     int64           `json:"spend_cents,omitempty"`
	Diagnostic     string          `json:"diagnostic,omitempty"`
	Origin         store.Origin    `json:"origin"`
}

func viewDecision(d *store.DecisionRecord) decisionView {
	list := func(s string) json.RawMessage {
		if s == "" || !json.Valid([]byte(s)) {
			return json.RawMessage("[]")
		}
		return json.RawMessage(s)
	}
	return decisionView{
		ID: d.ID, Time: d.Time, TurnID: d.TurnID, SessionID: d.SessionID, InputSource: d.InputSource, Authority: d.Authority,
		Tool: d.Tool, Category: d.Category, ArgsHash: d.ArgsHash, Risk: d.Risk, Decision: d.Decision, Reason: d.Reason,
		Message: d.Message, Rule: d.Rule, RulesEvaluated: list(d.RulesEvaluated), RulesTriggered: list(d.RulesTriggered),
		LatencyNS: d.Latency.Nanoseconds(), PolicyHash: d.PolicyHash, SpendCategory: d.SpendCategory, SpendCents: d.SpendCents,
		Diagnostic: d.Diagnostic, Origin: d.Origin,
	}
}

// decisionFilter reads `ward audit query`'s filters from the query string:
// tool, decision, reason, session (session_id), turn (turn_id), origin,
// since, until, limit.
func (a *Server) decisionFilter(r *request) (store.DecisionFilter, error) {
	var f store.DecisionFilter
	var err error
	var decision, origin string
	for _, p := range []struct {
		dst   *string
		names []string
	}{
		{&f.Tool, []string{"tool"}}, {&decision, []string{"decision"}}, {&f.Reason, []string{"reason"}},
		{&f.SessionID, []string{"session", "session_id"}}, {&f.TurnID, []string{"turn", "turn_id"}}, {&origin, []string{"origin"}},
	} {
		if *p.dst, err = param(r, p.names...); err != nil {
			return f, err
		}
	}
	if decision != "" {
		if f.Decision, err = store.ParseVerdict(decision); err != nil {
			return f, badRequest("decision must be allow, quarantine or deny")
		}
	}
	if origin != "" {
		if f.Origin, err = store.ParseOrigin(origin); err != nil {
			return f, badRequest("origin must be gate or check")
		}
	}
	now := a.cfg.Now()
	if f.Since, err = timeParam(r, "since", now); err != nil {
		return f, err
	}
	if f.Until, err = timeParam(r, "until", now); err != nil {
		return f, err
	}
	f.Limit, err = limitParam(r, 100, 10_000)
	return f, err
}

// decisions answers GET /v1/decisions: the audit trail's decisions, newest
// first, or with ?report=NAME that report's rows.
func (a *Server) decisions(ctx context.Context, r *request) (any, error) {
	f, err := a.decisionFilter(r)
	if err != nil {
		return nil, err
	}
	if name, err := param(r, "report"); err != nil {
		return nil, err
	} else if name != "" {
		return a.runReport(ctx, name, f)
	}
	recs, err := a.cfg.Store.QueryDecisions(ctx, f)
	if err != nil {
		return nil, err
	}
	out := make([]decisionView, len(recs))
	for i := range recs {
		out[i] = viewDecision(&recs[i])
	}
	return map[string]any{"decisions": out}, nil
}

// reportNames answers GET /v1/reports.
func (a *Server) reportNames(context.Context, *request) (any, error) {
	return map[string]any{"reports": store.Reports()}, nil
}

// report answers GET /v1/reports/{name} with the decision filters.
func (a *Server) report(ctx context.Context, r *request) (any, error) {
	f, err := a.decisionFilter(r)
	if err != nil {
		return nil, err
	}
	return a.runReport(ctx, r.PathValue("name"), f)
}

func (a *Server) runReport(ctx context.Context, name string, f store.DecisionFilter) (any, error) {
	if !slices.Contains(store.Reports(), store.Report(name)) {
		return nil, &Error{Status: http.StatusNotFound, Code: CodeNotFound, Message: "no report is named " + quoted(name) + " (see GET /v1/reports)"}
	}
	rows, err := a.cfg.Store.DecisionReport(ctx, store.Report(name), f)
	if err != nil {
		return nil, err
	}
	type row struct {
		Key   string `json:"key"`
		Count int64  `json:"count"`
	}
	out := make([]row, len(rows))
	for i, x := range rows {
		out[i] = row{x.Key, x.Count}
	}
	return map[string]any{"report": name, "rows": out}, nil
}

// actionView is one record of the action log on the wire.
type actionView struct {
	ID          string          `json:"id"`
	Time        time.Time       `json:"time"`
	Kind        string          `json:"kind"`
	PermitID    string          `json:"permit_id,omitempty"`
	PrincipalID string          `json:"principal_id,omitempty"`
	SessionID   string          `json:"session_id,omitempty"`
	Tool        string          `json:"tool,omitempty"`
	ActionType  string          `json:"action_type,omitempty"`
	ArgsHash    string          `json:"args_hash,omitempty"`
	TxHash      string          `json:"tx_hash,omitempty"`
	ChainID     uint64          `json:"chain_id,omitempty"`
	TxURL       string          `json:"tx_url,omitempty"` // the transaction on the chain's explorer
	Status      string          `json:"status,omitempty"`
	BlockReason string          `json:"block_reason,omitempty"`
	GasUsed     uint64          `json:"gas_used,omitempty"`
	GasCostWei  string          `json:"gas_cost_wei,omitempty"`
	Verified    bool            `json:"verified"`
	Expected    string          `json:"expected,omitempty"`
	Actual      string          `json:"actual,omitempty"`
	GroundTruth string          `json:"ground_truth,omitempty"`
	Detail      json.RawMessage `json:"detail,omitempty"`
}

// actions answers GET /v1/actions: the action log (every step of every
// write, the halts, phases and quarantine reviews), oldest first, filtered
// by permit (permit_id), principal (principal_id), session (session_id),
// tool, kind, since, until, limit.
func (a *Server) actions(ctx context.Context, r *request) (any, error) {
	var f store.ActionFilter
	var err error
	for _, p := range []struct {
		dst   *string
		names []string
	}{
		{&f.PermitID, []string{"permit", "permit_id"}}, {&f.SessionID, []string{"session", "session_id"}},
		{&f.PrincipalID, []string{"principal", "principal_id"}},
		{&f.Tool, []string{"tool"}},
	} {
		if *p.dst, err = param(r, p.names...); err != nil {
			return nil, err
		}
	}
	kind, err := param(r, "kind")
	if err != nil {
		return nil, err
	}
	if kind != "" {
		if f.Kind, err = store.ParseActionKind(kind); err != nil {
			return nil, badRequest("kind %q is not an action kind", clip(kind, 64))
		}
	}
	now := a.cfg.Now()
	if f.Since, err = timeParam(r, "since", now); err != nil {
		return nil, err
	}
	if f.Until, err = timeParam(r, "until", now); err != nil {
		return nil, err
	}
	if f.Limit, err = limitParam(r, 100, 10_000); err != nil {
		return nil, err
	}
	recs, err := a.cfg.Store.Actions(ctx, f)
	if err != nil {
		return nil, err
	}
	out := make([]actionView, len(recs))
	for i, x := range recs {
		out[i] = actionView{
			ID: x.ID, Time: x.Time, Kind: x.Kind.String(), PermitID: x.PermitID, PrincipalID: x.PrincipalID, SessionID: x.SessionID, Tool: x.Tool, ActionType: x.ActionType,
			ArgsHash: x.ArgsHash, TxHash: x.TxHash, Status: x.Status.String(), BlockReason: x.BlockReason, GasUsed: x.GasUsed,
			GasCostWei: x.GasCostWei, Verified: x.Verified, Expected: x.Expected, Actual: x.Actual, GroundTruth: x.GroundTruth,
		}
		if len(x.Detail) > 0 && json.Valid(x.Detail) {
			out[i].Detail = x.Detail
		}
		if x.TxHash != "" && x.ChainID != 0 {
			out[i].ChainID = x.ChainID
			if a.cfg.TxURL != nil {
				out[i].TxURL = a.cfg.TxURL(x.ChainID, x.TxHash)
			}
		}
	}
	return map[string]any{"actions": out}, nil
}
