package event

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

// legacyEvent is Event as it was when publishers wrote the summary
// themselves: the wire format the API's clients read.
type legacyEvent struct {
	Kind       Kind      `json:"kind"`
	Seq        uint64    `json:"seq"`
	Time       time.Time `json:"time"`
	SessionID  string    `json:"session_id,omitempty"`
	Tool       string    `json:"tool,omitempty"`
	ParamsHash string    `json:"params_hash,omitempty"`
	PermitID   string    `json:"permit_id,omitempty"`
	Step       string    `json:"step,omitempty"`
	StepIndex  int       `json:"step_index,omitempty"`
	TotalSteps int       `json:"total_steps,omitempty"`
	Success    bool      `json:"success"`
	DurationMS int64     `json:"duration_ms,omitempty"`
	Code       string    `json:"code,omitempty"`
	Message    string    `json:"message,omitempty"`
	Summary    string    `json:"summary,omitempty"`
}

var payloadCases = []struct {
	name    string
	kind    Kind
	payload Payload
	summary string // what the wire's "summary" was before payloads were typed
}{
	{"none", ToolStart, nil, ""},
	{"tool end", ToolEnd, ResultFilter{Report: "redacted 1 secret(s): aws_key"}, "redacted 1 secret(s): aws_key"},
	{"tool end unfiltered", ToolEnd, ResultFilter{}, ""},
	{"permit plan", PermitCreated, PermitPlan{Plan: "swap 1 USDC & 1 DAI for <ETH>"}, "swap 1 USDC & 1 DAI for <ETH>"},
	{"veto", GateVetoed, Veto{Stage: "allowlist"}, "allowlist"},
	{"phase", GatePhase, PhaseChange{By: "owner"}, "owner"},
	{"held", QuarantineHeld, QuarantineItem{ID: "q1"}, "q1"},
	{"decided", QuarantineDecided, QuarantineItem{ID: "q1"}, "q1"},
	{"outcome", QuarantineOutcome, QuarantineItem{ID: "q1"}, "q1"},
	{"tainted by output", TrustTainted, Taint{Level: "tainted", Source: "call:3 fetch_url"}, "call:3 fetch_url"},
	{"level set", TrustTainted, Taint{Level: "review"}, "review"},
	{"verdict", TrustVerdict, Verdict{By: "rules-reviewer"}, "rules-reviewer"},
	{"promoted", TrustPromoted, Promotion{By: "rules-judge"}, "rules-judge"},
	{"quarantined", GrimoireEntryQuarantined, EntryQuarantined{EntryID: "e1", Source: "peer", Agent: "0xab", EntryType: "heuristic"},
		`{"entry_id":"e1","source":"peer","agent":"0xab","entry_type":"heuristic"}`},
	{"quarantined without agent", GrimoireEntryQuarantined, EntryQuarantined{EntryID: "e1", Source: "peer", EntryType: "heuristic"},
		`{"entry_id":"e1","source":"peer","entry_type":"heuristic"}`},
	{"passed", GrimoireValidationPassed, ValidationPassed{EntryID: "e1", LayersPassed: []string{"l1", "l2"}, Score: 0.75},
		`{"entry_id":"e1","layers_passed":["l1","l2"],"score":0.75}`},
	{"passed no layers", GrimoireValidationPassed, ValidationPassed{EntryID: "e1"}, `{"entry_id":"e1","layers_passed":null,"score":0}`},
	{"failed", GrimoireValidationFailed, ValidationFailed{EntryID: "e1", FailedLayer: "stage1", Reason: "KNOWLEDGE_SIGNATURE_INVALID"},
		`{"entry_id":"e1","failed_layer":"stage1","reason":"KNOWLEDGE_SIGNATURE_INVALID"}`},
	{"adopted", GrimoireEntryAdopted, EntryAdopted{EntryID: "e1", InitialConfidence: 0.6, Partition: "external", ValidationStatus: "provisional",
		Expires: time.Date(2026, 2, 3, 4, 5, 6, 7, time.UTC)},
		`{"entry_id":"e1","initial_confidence":0.6,"partition":"external","validation_status":"provisional","expires":"2026-02-03T04:05:06.000000007Z"}`},
	{"adopted forever", GrimoireEntryAdopted, EntryAdopted{EntryID: "e1", InitialConfidence: 1, Partition: "external", ValidationStatus: "confirmed"},
		`{"entry_id":"e1","initial_confidence":1,"partition":"external","validation_status":"confirmed"}`},
	{"confirmed", GrimoireEntryConfirmed, EntryConfirmed{EntryID: "e2", Confirms: "e1", Credit: "full", Confidence: 0.8, ValidationStatus: "confirmed", Validations: 2},
		`{"entry_id":"e2","confirms":"e1","credit":"full","confidence":0.8,"validation_status":"confirmed","validations":2}`},
	{"pruned", GrimoireEntryPruned, EntryPruned{EntryID: "e1", Reason: "ttl_expired", Source: "purchased"},
		`{"entry_id":"e1","reason":"ttl_expired","source":"purchased"}`},
	{"immune", GrimoireImmuneMatch, ImmuneMatch{EntryID: "e1", Signature: "00ff"}, `{"entry_id":"e1","immune_signature_hash":"00ff"}`},
	{"rollback", GrimoireCausalRollback, CausalRollback{Source: "0xab", Count: 2, Reason: "peer_comparison", Entries: []string{"e1", "e2"}},
		`{"source_agent":"0xab","entries_quarantined":2,"reason":"peer_comparison","entry_ids":["e1","e2"]}`},
	{"rollback of nothing", GrimoireCausalRollback, CausalRollback{Source: "0xab", Reason: "none"},
		`{"source_agent":"0xab","entries_quarantined":0,"reason":"none"}`},
	{"subscription update", SubscriptionUpdate, StreamData{ID: "sub_1", Kind: "price", Target: "1/0xab", Value: json.RawMessage(`{"price_usd":2000}`)},
		`{"subscription_id":"sub_1","kind":"price","target":"1/0xab","value":{"price_usd":2000}}`},
	{"subscription ended", SubscriptionEnded, StreamData{ID: "sub_1", Kind: "pool", Target: "1/0xcd"},
		`{"subscription_id":"sub_1","kind":"pool","target":"1/0xcd"}`},
	{"text", "other:kind", Text("anything <at> all"), "anything <at> all"},
}

func sample(kind Kind, p Payload) Event {
	return Event{Kind: kind, Seq: 3, Time: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), SessionID: "s", Tool: "t", Success: true, Code: "C", Payload: p}
}

func TestPayloadWireUnchanged(t *testing.T) {
	for _, c := range payloadCases {
		t.Run(c.name, func(t *testing.T) {
			e := sample(c.kind, c.payload)
			got, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(legacyEvent{Kind: e.Kind, Seq: e.Seq, Time: e.Time, SessionID: e.SessionID, Tool: e.Tool,
				Success: e.Success, Code: e.Code, Summary: c.summary})
			if string(got) != string(want) {
				t.Errorf("wire:\n got %s\nwant %s", got, want)
			}
			if c.payload == nil && strings.Contains(string(got), `"summary"`) {
				t.Errorf("an event without a payload has a summary: %s", got)
			}
		})
	}
}

func TestPayloadRoundTrip(t *testing.T) {
	for _, c := range payloadCases {
		t.Run(c.name, func(t *testing.T) {
			e := sample(c.kind, c.payload)
			raw, _ := json.Marshal(e)
			var back Event
			if err := json.Unmarshal(raw, &back); err != nil {
				t.Fatal(err)
			}
			want := e
			if c.summary == "" {
				want.Payload = nil // no summary on the wire: nothing to decode
			}
			if !reflect.DeepEqual(back, want) {
				t.Errorf("round trip of %s:\n got %#v\nwant %#v", raw, back.Payload, want.Payload)
			}
		})
	}
}

// A summary that is not its kind's payload, or of a kind with no payload
// type, decodes as Text and encodes back to the same bytes.
func TestPayloadUnknownIsText(t *testing.T) {
	for _, c := range []struct {
		name string
		kind Kind
		sum  string
	}{
		{"unknown kind", "grimoire:something_new", `{"entry_id":"e1"}`},
		{"kind without payload", ToolStart, "started"},
		{"not JSON", GrimoireEntryAdopted, "adopted e1"},
		{"more fields", GrimoireEntryPruned, `{"entry_id":"e1","reason":"r","source":"s","extra":1}`},
		{"other field order", GrimoireImmuneMatch, `{"immune_signature_hash":"00","entry_id":"e1"}`},
		{"wrong type", GrimoireCausalRollback, `{"source_agent":"a","entries_quarantined":"two","reason":"r"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			raw, _ := json.Marshal(legacyEvent{Kind: c.kind, Seq: 1, Summary: c.sum})
			var e Event
			if err := json.Unmarshal(raw, &e); err != nil {
				t.Fatal(err)
			}
			if e.Payload != Text(c.sum) {
				t.Errorf("payload = %#v, want Text(%q)", e.Payload, c.sum)
			}
			again, _ := json.Marshal(e)
			if string(again) != string(raw) {
				t.Errorf("re-encoded:\n got %s\nwant %s", again, raw)
			}
		})
	}
}

// A score that has no JSON leaves the summary out, as it always did, and
// does so every time.
func TestPayloadWithoutJSON(t *testing.T) {
	e := sample(GrimoireValidationPassed, ValidationPassed{EntryID: "e1", Score: math.NaN()})
	a, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(e)
	if strings.Contains(string(a), "summary") || string(a) != string(b) {
		t.Errorf("NaN score: %s then %s, want no summary both times", a, b)
	}
}

func TestZeroEventJSON(t *testing.T) {
	got, err := json.Marshal(Event{})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"kind":"","seq":0,"time":"0001-01-01T00:00:00Z","success":false}`; string(got) != want {
		t.Errorf("zero event: got %s, want %s", got, want)
	}
}
