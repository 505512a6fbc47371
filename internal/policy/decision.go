package policy

import (
	"encoding/hex"
	"encoding/json"
	"strconv"
	"time"

	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// Decision is the outcome of evaluating one call. Only a Snapshot makes a
// Decision; the zero value is a deny with no reason, so a Decision that was
// never evaluated never allows anything.
type Decision struct {
	action     Action
	code       reason.Code
	message    string
	rule       string
	diagnostic string
	tool       tool.Ref
	source     InputSource
	turnID     string
	sessionID  string
	argsHash   [32]byte
	policyHash [32]byte
	evaluated  []*compiled // shared, read-only prefix of the applicable rules
	triggered  triggered
	spend      Spend
	hasSpend   bool
	stateful   bool
	at         time.Time
	latency    time.Duration
}

// triggered holds the rules that returned an opinion, inline for the usual
// handful.
type triggered struct {
	n     int
	small [4]*compiled
	more  []*compiled
}

func (t *triggered) add(c *compiled) {
	if t.n < len(t.small) {
		t.small[t.n] = c
	} else {
		t.more = append(t.more, c)
	}
	t.n++
}

func (t *triggered) each(fn func(*compiled)) {
	for i := 0; i < t.n && i < len(t.small); i++ {
		fn(t.small[i])
	}
	for _, c := range t.more {
		fn(c)
	}
}

// Action returns allow, quarantine or deny.
func (d *Decision) Action() Action { return d.action }

// Code returns the stable reason code (ALLOWED when no rule objected).
func (d *Decision) Code() reason.Code { return d.code }

// Message returns the human-readable explanation, safe to show the agent.
func (d *Decision) Message() string { return d.message }

// Rule returns the id of the deciding rule, empty when allowed.
func (d *Decision) Rule() string { return d.rule }

// Diagnostic returns internal detail about a rule failure, for operators and
// the audit trail only; it is never shown to the agent.
func (d *Decision) Diagnostic() string { return d.diagnostic }

// Tool returns the tool as the policy resolved it.
func (d *Decision) Tool() tool.Ref { return d.tool }

// Risk returns the effective risk level the policy applied.
func (d *Decision) Risk() tool.Risk { return d.tool.Risk.Effective() }

// Source returns the call's input source.
func (d *Decision) Source() InputSource { return d.source }

// Authority returns the authority level derived from the input source.
func (d *Decision) Authority() Authority { return AuthorityOf(d.source) }

// TurnID returns the id of the turn the call belongs to.
func (d *Decision) TurnID() string { return d.turnID }

// SessionID returns the id of the session the call belongs to.
func (d *Decision) SessionID() string { return d.sessionID }

// ArgsHash returns the SHA-256 of the canonical JSON of the arguments.
func (d *Decision) ArgsHash() [32]byte { return d.argsHash }

// PolicyHash returns the hash of the policy snapshot that decided.
func (d *Decision) PolicyHash() [32]byte { return d.policyHash }

// Spend returns what the call would spend, if it spends anything.
func (d *Decision) Spend() (Spend, bool) { return d.spend, d.hasSpend }

// Stateful reports whether a rule that read tracked state applied to the
// call, so that admitting it must reserve against the tracker.
func (d *Decision) Stateful() bool { return d.stateful }

// Time returns when the decision was made.
func (d *Decision) Time() time.Time { return d.at }

// Latency returns how long evaluation took.
func (d *Decision) Latency() time.Duration { return d.latency }

// RulesEvaluated returns the ids of the rules that were evaluated, in order.
func (d *Decision) RulesEvaluated() []string {
	ids := make([]string, len(d.evaluated))
	for i, c := range d.evaluated {
		ids[i] = c.ID
	}
	return ids
}

// RulesTriggered returns the ids of the rules that returned an opinion.
func (d *Decision) RulesTriggered() []string {
	ids := make([]string, 0, d.triggered.n)
	d.triggered.each(func(c *compiled) { ids = append(ids, c.ID) })
	return ids
}

// AppendRulesEvaluatedJSON appends the evaluated rule ids as a JSON array.
func (d *Decision) AppendRulesEvaluatedJSON(b []byte) []byte {
	b = append(b, '[')
	for i, c := range d.evaluated {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, c.quotedID...)
	}
	return append(b, ']')
}

// AppendRulesTriggeredJSON appends the triggered rule ids as a JSON array.
func (d *Decision) AppendRulesTriggeredJSON(b []byte) []byte {
	b = append(b, '[')
	first := true
	d.triggered.each(func(c *compiled) {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, c.quotedID...)
	})
	return append(b, ']')
}

// Escalate returns a copy of the decision changed to a stricter action with
// a new reason; if a is not stricter than the current action the decision is
// returned unchanged. It is how later stages (an audit failure, taint) make
// an allowed call stricter; nothing can make a decision more permissive.
func (d Decision) Escalate(a Action, code reason.Code, message, diagnostic string) Decision {
	if !a.stricter(d.action) {
		return d
	}
	d.action = a
	d.code = code
	d.message = message
	d.rule = ""
	d.diagnostic = diagnostic
	return d
}

// MarshalJSON writes the decision in the shape `ward policy check` prints.
func (d Decision) MarshalJSON() ([]byte, error) {
	return d.AppendJSON(nil), nil
}

// AppendJSON appends the decision as one JSON object.
func (d *Decision) AppendJSON(b []byte) []byte {
	b = append(b, `{"action":"`...)
	b = append(b, d.action.String()...)
	b = append(b, `","reason_code":`...)
	b = appendJSONString(b, string(d.code))
	b = append(b, `,"message":`...)
	b = appendJSONString(b, d.message)
	b = append(b, `,"rule":`...)
	b = appendJSONString(b, d.rule)
	b = append(b, `,"rules_evaluated":`...)
	b = d.AppendRulesEvaluatedJSON(b)
	b = append(b, `,"rules_triggered":`...)
	b = d.AppendRulesTriggeredJSON(b)
	b = append(b, `,"args_hash":"`...)
	b = hex.AppendEncode(b, d.argsHash[:])
	b = append(b, `","policy_hash":"`...)
	b = hex.AppendEncode(b, d.policyHash[:])
	b = append(b, `","latency_ns":`...)
	b = strconv.AppendInt(b, int64(d.latency), 10)
	b = append(b, `,"tool":`...)
	b = appendJSONString(b, d.tool.Name)
	b = append(b, `,"category":`...)
	b = appendJSONString(b, string(d.tool.Category))
	b = append(b, `,"risk_level":"`...)
	b = append(b, d.Risk().String()...)
	b = append(b, `","authority_level":"`...)
	b = append(b, d.Authority().String()...)
	b = append(b, `","input_source":"`...)
	b = append(b, d.source.String()...)
	b = append(b, `","turn_id":`...)
	b = appendJSONString(b, d.turnID)
	b = append(b, `,"session_id":`...)
	b = appendJSONString(b, d.sessionID)
	if d.hasSpend {
		b = append(b, `,"spend":{"category":`...)
		b = appendJSONString(b, d.spend.Category)
		b = append(b, `,"amount_cents":`...)
		b = strconv.AppendInt(b, d.spend.Cents, 10)
		b = append(b, '}')
	}
	if d.diagnostic != "" {
		b = append(b, `,"diagnostic":`...)
		b = appendJSONString(b, d.diagnostic)
	}
	b = append(b, `,"timestamp":"`...)
	b = d.at.UTC().AppendFormat(b, time.RFC3339Nano)
	return append(b, `"}`...)
}

func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
