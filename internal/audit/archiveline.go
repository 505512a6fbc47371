package audit

import (
	"encoding/hex"
	"fmt"
	"time"

	"github.com/wardhq/ward/internal/store"
)

// The lines of the archive files. Decisions keep the names of ward audit
// query --json (the policy_decisions columns); trust rows keep exactly the
// bytes their hash covers: times in Unix nanoseconds, detail in base64,
// prev and hash in hex.

type decisionLine struct {
	ID             string        `json:"id"`
	Time           time.Time     `json:"timestamp"`
	TurnID         string        `json:"turn_id,omitempty"`
	SessionID      string        `json:"session_id,omitempty"`
	InputSource    string        `json:"input_source,omitempty"`
	Authority      string        `json:"authority_level,omitempty"`
	Tool           string        `json:"tool"`
	Category       string        `json:"category,omitempty"`
	ArgsHash       string        `json:"args_hash,omitempty"`
	Risk           string        `json:"risk_level"`
	Decision       store.Verdict `json:"action"`
	Reason         string        `json:"reason_code,omitempty"`
	Message        string        `json:"message,omitempty"`
	Rule           string        `json:"rule,omitempty"`
	RulesEvaluated string        `json:"rules_evaluated,omitempty"`
	RulesTriggered string        `json:"rules_triggered,omitempty"`
	LatencyNS      int64         `json:"latency_ns"`
	PolicyHash     string        `json:"policy_hash,omitempty"`
	SpendCategory  string        `json:"spend_category,omitempty"`
	SpendCents     int64         `json:"spend_cents,omitempty"`
	Diagnostic     string        `json:"diagnostic,omitempty"`
	Origin         store.Origin  `json:"origin"`
}

func decisionLineOf(r *store.DecisionRecord) decisionLine {
	return decisionLine{r.ID, r.Time.UTC(), r.TurnID, r.SessionID, r.InputSource, r.Authority, r.Tool, r.Category, r.ArgsHash,
		r.Risk, r.Decision, r.Reason, r.Message, r.Rule, r.RulesEvaluated, r.RulesTriggered, r.Latency.Nanoseconds(),
		r.PolicyHash, r.SpendCategory, r.SpendCents, r.Diagnostic, r.Origin}
}

func (l *decisionLine) record() store.DecisionRecord {
	return store.DecisionRecord{ID: l.ID, Time: l.Time, TurnID: l.TurnID, SessionID: l.SessionID, InputSource: l.InputSource,
		Authority: l.Authority, Tool: l.Tool, Category: l.Category, ArgsHash: l.ArgsHash, Risk: l.Risk, Decision: l.Decision,
		Reason: l.Reason, Message: l.Message, Rule: l.Rule, RulesEvaluated: l.RulesEvaluated, RulesTriggered: l.RulesTriggered,
		Latency: time.Duration(l.LatencyNS), PolicyHash: l.PolicyHash, SpendCategory: l.SpendCategory, SpendCents: l.SpendCents,
		Diagnostic: l.Diagnostic, Origin: l.Origin}
}

type actionLine struct {
	ID          string             `json:"id"`
	Time        time.Time          `json:"time"`
	Kind        store.ActionKind   `json:"kind"`
	PermitID    string             `json:"permit_id,omitempty"`
	PrincipalID string             `json:"principal_id,omitempty"`
	SessionID   string             `json:"session_id,omitempty"`
	Tool        string             `json:"tool,omitempty"`
	ActionType  string             `json:"action_type,omitempty"`
	ArgsHash    string             `json:"args_hash,omitempty"`
	TxHash      string             `json:"tx_hash,omitempty"`
	ChainID     uint64             `json:"chain_id,omitempty"`
	Status      store.ActionStatus `json:"status"`
	BlockReason string             `json:"block_reason,omitempty"`
	GasUsed     uint64             `json:"gas_used,omitempty"`
	GasCostWei  string             `json:"gas_cost_wei,omitempty"`
	Verified    bool               `json:"verified,omitempty"`
	Expected    string             `json:"expected,omitempty"`
	Actual      string             `json:"actual,omitempty"`
	GroundTruth string             `json:"ground_truth,omitempty"`
	Detail      []byte             `json:"detail,omitempty"` // base64 of the JSON as stored
}

func actionLineOf(r *store.ActionRecord) actionLine {
	return actionLine{r.ID, r.Time.UTC(), r.Kind, r.PermitID, r.PrincipalID, r.SessionID, r.Tool, r.ActionType, r.ArgsHash,
		r.TxHash, r.ChainID, r.Status, r.BlockReason, r.GasUsed, r.GasCostWei, r.Verified, r.Expected, r.Actual,
		r.GroundTruth, r.Detail}
}

type trustLine struct {
	Seq       int64  `json:"seq"`
	ID        string `json:"id"`
	TimeNS    int64  `json:"time_ns"`
	Kind      string `json:"kind"`
	SessionID string `json:"session_id"`
	Actor     string `json:"actor"`
	Target    string `json:"target"`
	Detail    []byte `json:"detail,omitempty"` // base64 of the bytes as stored
	Prev      string `json:"prev"`
	Hash      string `json:"hash"`
}

func trustLineOf(r *store.TrustRecord) trustLine {
	return trustLine{r.Seq, r.ID, r.Time.UnixNano(), string(r.Kind), r.SessionID, r.Actor, r.Target, r.Detail,
		hex.EncodeToString(r.Prev[:]), hex.EncodeToString(r.Hash[:])}
}

func (l *trustLine) record() (store.TrustRecord, error) {
	r := store.TrustRecord{Seq: l.Seq, ID: l.ID, Time: time.Unix(0, l.TimeNS).UTC(), Kind: store.TrustKind(l.Kind),
		SessionID: l.SessionID, Actor: l.Actor, Target: l.Target, Detail: l.Detail}
	for _, h := range []struct {
		s   string
		dst *[32]byte
	}{{l.Prev, &r.Prev}, {l.Hash, &r.Hash}} {
		b, err := hex.DecodeString(h.s)
		if err != nil || len(b) != 32 {
			return r, fmt.Errorf("row %d: prev or hash is not 32 bytes of hex", l.Seq)
		}
		copy(h.dst[:], b)
	}
	return r, nil
}
