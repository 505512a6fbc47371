package policy

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

func rule(id string, prio int, res Result) Rule {
	return Rule{ID: id, Priority: prio, Eval: func(*Request) (Result, error) { return res, nil }}
}

func snapshot(t *testing.T, rules ...Rule) *Snapshot {
	t.Helper()
	s, err := NewSnapshot(rules, SnapshotConfig{Hash: [32]byte{1, 2, 3}})
	if err != nil {
		t.Fatalf("NewSnapshot: %v", err)
	}
	return s
}

func call(name string, risk tool.Risk) *Request {
	return &Request{Tool: tool.Ref{Name: name, Risk: risk}, Turn: Turn{ID: "t1", SessionID: "s1", Source: Agent}}
}

func TestEngineSemantics(t *testing.T) {
	deny := func(code reason.Code) Result { return Denies(code, "no") }
	quar := func(code reason.Code) Result { return Quarantines(code, "wait") }
	for _, tc := range []struct {
		name          string
		rules         []Rule
		wantAction    Action
		wantCode      reason.Code
		wantRule      string
		wantEvaluated []string
		wantTriggered []string
	}{
		{
			name:       "empty rule set allows",
			wantAction: Allow, wantCode: reason.Allowed,
			wantEvaluated: []string{}, wantTriggered: []string{},
		},
		{
			name:       "no opinions allow",
			rules:      []Rule{rule("a", 1, NoOpinion), rule("b", 2, NoOpinion)},
			wantAction: Allow, wantCode: reason.Allowed,
			wantEvaluated: []string{"a", "b"}, wantTriggered: []string{},
		},
		{
			name:       "priority order: lower first, ties keep registration order",
			rules:      []Rule{rule("c", 5, NoOpinion), rule("a", 1, NoOpinion), rule("b1", 3, NoOpinion), rule("b2", 3, NoOpinion)},
			wantAction: Allow, wantCode: reason.Allowed,
			wantEvaluated: []string{"a", "b1", "b2", "c"}, wantTriggered: []string{},
		},
		{
			name:       "first deny wins and stops evaluation",
			rules:      []Rule{rule("later-deny", 20, deny("SECOND")), rule("first-deny", 10, deny("FIRST")), rule("never", 30, NoOpinion)},
			wantAction: Deny, wantCode: "FIRST", wantRule: "first-deny",
			wantEvaluated: []string{"first-deny"}, wantTriggered: []string{"first-deny"},
		},
		{
			name:       "quarantine stands without a later deny",
			rules:      []Rule{rule("q", 1, quar("HOLD")), rule("n", 2, NoOpinion)},
			wantAction: Quarantine, wantCode: "HOLD", wantRule: "q",
			wantEvaluated: []string{"q", "n"}, wantTriggered: []string{"q"},
		},
		{
			name:       "quarantine then deny: deny wins",
			rules:      []Rule{rule("q", 1, quar("HOLD")), rule("d", 2, deny("STOP"))},
			wantAction: Deny, wantCode: "STOP", wantRule: "d",
			wantEvaluated: []string{"q", "d"}, wantTriggered: []string{"q", "d"},
		},
		{
			name:       "first quarantine's reason is kept",
			rules:      []Rule{rule("q1", 1, quar("ONE")), rule("q2", 2, quar("TWO"))},
			wantAction: Quarantine, wantCode: "ONE", wantRule: "q1",
			wantEvaluated: []string{"q1", "q2"}, wantTriggered: []string{"q1", "q2"},
		},
		{
			name:       "explicit allow does not stop a later deny",
			rules:      []Rule{rule("ok", 1, Allows("FINE", "fine")), rule("d", 2, deny("STOP"))},
			wantAction: Deny, wantCode: "STOP", wantRule: "d",
			wantEvaluated: []string{"ok", "d"}, wantTriggered: []string{"ok", "d"},
		},
		{
			name:       "explicit allow is recorded as triggered",
			rules:      []Rule{rule("ok", 1, Allows("FINE", "fine"))},
			wantAction: Allow, wantCode: reason.Allowed,
			wantEvaluated: []string{"ok"}, wantTriggered: []string{"ok"},
		},
		{
			name: "a rule error denies",
			rules: []Rule{rule("q", 1, quar("HOLD")), {ID: "broken", Priority: 2, Eval: func(*Request) (Result, error) {
				return Result{}, errors.New("database on fire")
			}}, rule("never", 3, NoOpinion)},
			wantAction: Deny, wantCode: reason.RuleErr, wantRule: "broken",
			wantEvaluated: []string{"q", "broken"}, wantTriggered: []string{"q", "broken"},
		},
		{
			name: "a panicking rule denies",
			rules: []Rule{{ID: "panics", Priority: 1, Eval: func(r *Request) (Result, error) {
				var m map[string]int
				m["x"]++ // nil map write
				return NoOpinion, nil
			}}},
			wantAction: Deny, wantCode: reason.RuleErr, wantRule: "panics",
			wantEvaluated: []string{"panics"}, wantTriggered: []string{"panics"},
		},
		{
			name: "a panic after a quarantine denies and ends the walk",
			rules: []Rule{rule("q", 1, quar("HOLD")), {ID: "panics", Priority: 2, Eval: func(*Request) (Result, error) {
				panic("rule bug")
			}}, rule("never", 3, deny("STOP"))},
			wantAction: Deny, wantCode: reason.RuleErr, wantRule: "panics",
			wantEvaluated: []string{"q", "panics"}, wantTriggered: []string{"q", "panics"},
		},
		{
			name:       "an invalid action denies",
			rules:      []Rule{rule("weird", 1, Result{Opinion: true, Action: Action(7), Code: "X"})},
			wantAction: Deny, wantCode: reason.RuleErr, wantRule: "weird",
			wantEvaluated: []string{"weird"}, wantTriggered: []string{"weird"},
		},
		{
			name:       "an opinion without a valid reason code denies",
			rules:      []Rule{rule("nocode", 1, Result{Opinion: true, Action: Quarantine, Code: "not a code"})},
			wantAction: Deny, wantCode: reason.RuleErr, wantRule: "nocode",
			wantEvaluated: []string{"nocode"}, wantTriggered: []string{"nocode"},
		},
		{
			// The walk skips consider for a result without an opinion:
			// whatever else such a result holds, it says nothing.
			name: "a result without an opinion is ignored, whatever it holds",
			rules: []Rule{
				rule("deny-fields", 1, Result{Action: Deny, Code: "X", Message: "no"}),
				rule("bad-fields", 2, Result{Action: Action(7), Code: "not a code"}),
			},
			wantAction: Allow, wantCode: reason.Allowed,
			wantEvaluated: []string{"deny-fields", "bad-fields"}, wantTriggered: []string{},
		},
		{
			name: "an error with a deny result is the rule's failure",
			rules: []Rule{{ID: "both", Priority: 1, Eval: func(*Request) (Result, error) {
				return Denies("X", "no"), errors.New("half done")
			}}},
			wantAction: Deny, wantCode: reason.RuleErr, wantRule: "both",
			wantEvaluated: []string{"both"}, wantTriggered: []string{"both"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := snapshot(t, tc.rules...).Evaluate(call("exec", tool.Caution))
			if d.Action() != tc.wantAction || d.Code() != tc.wantCode || d.Rule() != tc.wantRule {
				t.Errorf("got %s %s rule %q; want %s %s rule %q", d.Action(), d.Code(), d.Rule(), tc.wantAction, tc.wantCode, tc.wantRule)
			}
			if got := d.RulesEvaluated(); !slices.Equal(got, tc.wantEvaluated) {
				t.Errorf("rules evaluated %v, want %v", got, tc.wantEvaluated)
			}
			if got := d.RulesTriggered(); !slices.Equal(got, tc.wantTriggered) {
				t.Errorf("rules triggered %v, want %v", got, tc.wantTriggered)
			}
			if tc.wantCode == reason.RuleErr && d.Diagnostic() == "" {
				t.Error("a failed rule left no diagnostic")
			}
			if tc.wantCode == reason.RuleErr && strings.Contains(d.Message(), "fire") {
				t.Errorf("the agent-facing message leaks the internal error: %q", d.Message())
			}
		})
	}
}

func TestSelectors(t *testing.T) {
	fired := func(s *Snapshot, r *Request) []string { d := s.Evaluate(r); return d.RulesTriggered() }
	mark := Denies("HIT", "hit")
	s := snapshot(t,
		Rule{ID: "by-name", Applies: Names("exec"), Eval: func(*Request) (Result, error) { return Quarantines("HIT", "x"), nil }},
		Rule{ID: "by-category", Applies: Categories("financial"), Eval: func(*Request) (Result, error) { return Quarantines("HIT", "x"), nil }},
		Rule{ID: "by-risk", Applies: Risks(tool.Forbidden), Eval: func(*Request) (Result, error) { return mark, nil }},
	)
	for _, tc := range []struct {
		name string
		ref  tool.Ref
		want []string
	}{
		{"name", tool.Ref{Name: "exec", Risk: tool.Caution}, []string{"by-name"}},
		{"category", tool.Ref{Name: "pay", Category: "financial", Risk: tool.Safe}, []string{"by-category"}},
		{"risk", tool.Ref{Name: "nuke", Risk: tool.Forbidden}, []string{"by-risk"}},
		{"unset risk is forbidden", tool.Ref{Name: "mystery"}, []string{"by-risk"}},
		{"none", tool.Ref{Name: "read", Risk: tool.Safe}, []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := call("", 0)
			r.Tool = tc.ref
			if got := fired(s, r); !slices.Equal(got, tc.want) {
				t.Errorf("triggered %v, want %v", got, tc.want)
			}
		})
	}
}

func TestCatalogWins(t *testing.T) {
	s, err := NewSnapshot([]Rule{{ID: "forbid-dangerous", Applies: Risks(tool.Dangerous), Eval: func(*Request) (Result, error) {
		return Denies("DANGER", "x"), nil
	}}}, SnapshotConfig{Catalog: []tool.Ref{{Name: "transfer_credits", Category: "financial", Risk: tool.Dangerous}}})
	if err != nil {
		t.Fatal(err)
	}
	r := call("transfer_credits", tool.Safe) // the caller understates the risk
	r.Tool.Category = "harmless"
	d := s.Evaluate(r)
	if d.Action() != Deny || d.Tool().Category != "financial" || d.Risk() != tool.Dangerous {
		t.Errorf("got %s, category %q, risk %s; the catalog's dangerous/financial should win", d.Action(), d.Tool().Category, d.Risk())
	}
}

func TestNewSnapshotRejects(t *testing.T) {
	ok := func(*Request) (Result, error) { return NoOpinion, nil }
	for name, rules := range map[string][]Rule{
		"empty id":     {{ID: "", Eval: ok}},
		"duplicate id": {{ID: "a", Eval: ok}, {ID: "a", Eval: ok}},
		"no eval":      {{ID: "a"}},
		"bad selector": {{ID: "a", Eval: ok, Applies: Selector{By: SelectName}}},
		"bad risk":     {{ID: "a", Eval: ok, Applies: Risks(tool.Risk(9))}},
	} {
		if _, err := NewSnapshot(rules, SnapshotConfig{}); !errors.Is(err, ErrInvalidRule) {
			t.Errorf("%s: err = %v, want ErrInvalidRule", name, err)
		}
	}
}

func TestDecisionValue(t *testing.T) {
	s := snapshot(t, rule("q", 1, Quarantines("HOLD", "wait")))
	args, err := tool.ParseArgs([]byte(`{"b":2,"a":1}`))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	r := &Request{Tool: tool.Ref{Name: "exec", Risk: tool.Caution}, Args: args, Now: now,
		Turn: Turn{ID: "t9", SessionID: "s9", Source: Peer}}
	d := s.Evaluate(r)
	if d.ArgsHash() != args.Hash() || d.PolicyHash() != s.Hash() || !d.Time().Equal(now) {
		t.Error("decision does not carry the args hash, policy hash and evaluation time")
	}
	if d.Authority() != AuthorityExternal || d.Source() != Peer || d.TurnID() != "t9" || d.SessionID() != "s9" {
		t.Errorf("turn context lost: %s %s %s %s", d.Authority(), d.Source(), d.TurnID(), d.SessionID())
	}
	if d.Latency() <= 0 {
		t.Error("latency not measured")
	}
	// Escalation only makes a decision stricter.
	if e := d.Escalate(Allow, "OK", "fine", ""); e.Action() != Quarantine || e.Code() != "HOLD" {
		t.Errorf("Escalate(Allow) loosened the decision to %s %s", e.Action(), e.Code())
	}
	if e := d.Escalate(Deny, reason.AuditUnavailable, "no audit", "disk full"); e.Action() != Deny || e.Code() != reason.AuditUnavailable || e.Rule() != "" {
		t.Errorf("Escalate(Deny) = %s %s rule %q", e.Action(), e.Code(), e.Rule())
	}
	var zero Decision
	if zero.Action() != Deny {
		t.Errorf("the zero Decision is %s, want deny", zero.Action())
	}
	js := string(d.AppendJSON(nil))
	for _, want := range []string{`"action":"quarantine"`, `"reason_code":"HOLD"`, `"rule":"q"`, `"rules_evaluated":["q"]`,
		`"rules_triggered":["q"]`, `"authority_level":"external"`, `"input_source":"peer"`, `"latency_ns":`} {
		if !strings.Contains(js, want) {
			t.Errorf("JSON %s lacks %s", js, want)
		}
	}
}

func TestAuthorityOf(t *testing.T) {
	for src, want := range map[InputSource]Authority{
		Creator: AuthorityAgent, Agent: AuthorityAgent, System: AuthoritySystem, Heartbeat: AuthoritySystem,
		Peer: AuthorityExternal, External: AuthorityExternal, InputSource(42): AuthorityExternal,
	} {
		if got := AuthorityOf(src); got != want {
			t.Errorf("AuthorityOf(%s) = %s, want %s", src, got, want)
		}
	}
	if ParseInputSource("no-such-source") != External || ParseInputSource("") != External {
		t.Error("unknown input sources must be external")
	}
	if ParseInputSource("Creator") != Creator {
		t.Error("input sources are case-insensitive")
	}
}

func TestEngineSwapIsAtomic(t *testing.T) {
	a := snapshot(t, rule("a", 1, NoOpinion))
	b, _ := NewSnapshot([]Rule{rule("b", 1, Denies("B", "b"))}, SnapshotConfig{Hash: [32]byte{9}})
	e, err := NewEngine(a)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewEngine(nil); !errors.Is(err, ErrNoSnapshot) {
		t.Errorf("NewEngine(nil) err = %v", err)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				d := e.Evaluate(call("exec", tool.Caution))
				// A decision comes wholly from one snapshot.
				if (d.PolicyHash() == a.Hash()) != (d.Action() == Allow) {
					t.Errorf("torn decision: hash %x action %s", d.PolicyHash(), d.Action())
					return
				}
			}
		})
	}
	for i := range 1000 {
		next := a
		if i%2 == 0 {
			next = b
		}
		if _, err := e.Swap(next); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	if _, err := e.Swap(nil); !errors.Is(err, ErrNoSnapshot) {
		t.Errorf("Swap(nil) err = %v", err)
	}
}

func TestDynamicRuleSetCacheIsBounded(t *testing.T) {
	s := snapshot(t, rule("a", 1, NoOpinion))
	for i := range maxDynamic + 100 {
		s.Evaluate(call("tool_"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+itoa(i), tool.Safe))
	}
	if n := len(s.dynamic); n > maxDynamic {
		t.Errorf("cache grew to %d entries, bound is %d", n, maxDynamic)
	}
}

func itoa(i int) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + i%10)}, b...)
		i /= 10
		if i == 0 {
			return string(b)
		}
	}
}

// TestPanicInGroup: a rule found by a same-field lookup that panics denies
// as it does when the rules are walked one by one.
func TestPanicInGroup(t *testing.T) {
	read := func(r *Request) string { return r.Turn.ID }
	var rules []Rule
	for i := range 8 {
		v := fmt.Sprintf("v%d", i)
		eval := func(r *Request) (Result, error) {
			if r.Turn.ID == v {
				return Denies("MATCH", "matched "+v), nil
			}
			return NoOpinion, nil
		}
		if i == 3 {
			eval = func(r *Request) (Result, error) {
				if r.Turn.ID == v {
					panic("rule bug")
				}
				return NoOpinion, nil
			}
		}
		rules = append(rules, Rule{ID: "g" + v, Priority: 1 + i, Eval: eval, Equal: &Equality{Field: "turn.id", Read: read, Value: v}})
	}
	for _, ungrouped := range []bool{false, true} {
		t.Run(fmt.Sprintf("ungrouped=%v", ungrouped), func(t *testing.T) {
			s, err := NewSnapshot(rules, SnapshotConfig{Ungrouped: ungrouped})
			if err != nil {
				t.Fatal(err)
			}
			d := s.Evaluate(&Request{Tool: tool.Ref{Name: "x"}, Turn: Turn{ID: "v3"}})
			if d.Action() != Deny || d.Code() != reason.RuleErr || d.Rule() != "gv3" {
				t.Errorf("got %v %s %s, want deny %s gv3", d.Action(), d.Code(), d.Rule(), reason.RuleErr)
			}
			if got, want := d.RulesEvaluated(), []string{"gv0", "gv1", "gv2", "gv3"}; !slices.Equal(got, want) {
				t.Errorf("evaluated %v, want %v", got, want)
			}
			if got, want := d.RulesTriggered(), []string{"gv3"}; !slices.Equal(got, want) {
				t.Errorf("triggered %v, want %v", got, want)
			}
			d = s.Evaluate(&Request{Tool: tool.Ref{Name: "x"}, Turn: Turn{ID: "v5"}})
			if d.Action() != Deny || d.Code() != "MATCH" || d.Rule() != "gv5" {
				t.Errorf("got %v %s %s, want deny MATCH gv5", d.Action(), d.Code(), d.Rule())
			}
		})
	}
}
