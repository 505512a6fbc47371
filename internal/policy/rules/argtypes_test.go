package rules

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/policy"
)

var testSchemas = map[string]json.RawMessage{
	"pay": json.RawMessage(`{"type":"object","properties":{"amount_cents":{"type":"integer"},"to":{"type":"string"},` +
		`"memo":{"type":["string","null"]},"tags":{"type":"array"}},"additionalProperties":false}`),
	"pay_later": json.RawMessage(`{"type":"object","properties":{"amount_cents":{"type":"integer"},"when":{"type":"string"}},"additionalProperties":false}`),
	"swap":      json.RawMessage(`{"type":"object","properties":{"amount_in":{"type":"string"}},"additionalProperties":false}`),
	"open":      json.RawMessage(`{"type":"object","properties":{"amount_cents":{"type":"integer"}}}`),
	"weird":     json.RawMessage(`{"type":"object","properties":{"amount_cents":{"type":"string"}},"additionalProperties":false}`),
}

func schemaOf(name string) json.RawMessage { return testSchemas[name] }

// TestCELTypedArgs: a rule over tools whose parameter schemas are known is
// type-checked against them; other rules keep dynamic typing.
func TestCELTypedArgs(t *testing.T) {
	for _, tc := range []struct {
		name string
		sel  policy.Selector
		when string
		want string // part of the error; "" compiles
	}{
		{"integer compared with a string", policy.Names("pay"), `args.amount_cents > "5"`, "no matching overload for '_>_' applied to '(int, string)'"},
		{"integer compared with an integer", policy.Names("pay"), `args.amount_cents > 5`, ""},
		{"integer compared with a double", policy.Names("pay"), `args.amount_cents > 5.5`, ""},
		{"string argument compared with an integer", policy.Names("swap"), `args.amount_in > 100`, "(string, int)"},
		{"a field no tool has", policy.Names("pay"), `args.amout_cents > 5`, "undefined field 'amout_cents'"},
		{"has() on a known field", policy.Names("pay"), `has(args.to) && args.to.startsWith("0x")`, ""},
		{"string method on an integer", policy.Names("pay"), `args.amount_cents.startsWith("1")`, "found no matching overload"},
		{"list argument", policy.Names("pay"), `size(args.tags) > 2`, ""},
		{"nullable argument is dynamic", policy.Names("pay"), `args.memo == 5`, ""},
		{"two tools agreeing", policy.Names("pay", "pay_later"), `args.amount_cents > "5"`, "(int, string)"},
		{"two tools, a field of one", policy.Names("pay", "pay_later"), `has(args.when)`, ""},
		{"two tools disagreeing keep that field dynamic", policy.Names("pay", "weird"), `args.amount_cents > "5"`, ""},
		{"open schema: unknown fields are dynamic", policy.Names("open"), `args.other > "5"`, ""},
		{"open schema: known fields are typed", policy.Names("open"), `args.amount_cents > "5"`, "(int, string)"},
		{"a tool with no schema keeps the rule dynamic", policy.Names("pay", "unknown_tool"), `args.amount_cents > "5"`, ""},
		{"by category is dynamic", policy.Categories("finance"), `args.amount_cents > "5"`, ""},
		{"all tools is dynamic", policy.All(), `args.amount_cents > "5"`, ""},
		{"index syntax is dynamic", policy.Names("pay"), `args["amount_cents"] > "5"`, ""},
		{"in is dynamic", policy.Names("pay"), `"amount_cents" in args && args.amount_cents > "5"`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.Paths.Root = t.TempDir()
			cfg.ArgSchemas = schemaOf
			cfg.Rules = []UserRule{{ID: "r", Priority: 100, AppliesTo: tc.sel, When: tc.when, Action: policy.Deny, Code: "X"}}
			_, err := Compile(cfg)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Compile: %v", err)
				}
				return
			}
			var es Errors
			if !errors.As(err, &es) || len(es) != 1 {
				t.Fatalf("Compile: %v, want one error about %q", err, tc.want)
			}
			if es[0].Path != "rules.0.when" || !strings.Contains(es[0].Msg, tc.want) || es[0].Line != 1 || es[0].Col < 1 {
				t.Errorf("error %+v, want rules.0.when at 1:N about %q", es[0], tc.want)
			}
		})
	}
}

// TestCELTypedArgsEvaluateAsBefore: a type-checked rule evaluates exactly
// as the dynamic one, including a call whose argument is missing (denied).
func TestCELTypedArgsEvaluateAsBefore(t *testing.T) {
	cfg := DefaultConfig()
	cfg.ArgSchemas = schemaOf
	cfg.Rules = []UserRule{{ID: "custom.big", Priority: 1, AppliesTo: policy.Names("pay"), When: `args.amount_cents > 500`, Action: policy.Deny, Code: "BIG"}}
	s := compile(t, cfg)
	for _, tc := range []struct {
		args string
		want policy.Action
	}{
		{`{"amount_cents": 900}`, policy.Deny},
		{`{"amount_cents": 100}`, policy.Allow},
		{`{}`, policy.Deny}, // no such key: the rule errors, which denies
	} {
		if d := eval(t, s, "pay", tc.args); d.Action() != tc.want {
			t.Errorf("%s: %v (%s), want %v", tc.args, d.Action(), d.Code(), tc.want)
		}
	}
}
