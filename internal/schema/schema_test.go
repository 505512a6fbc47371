package schema

import (
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/tool"
)

const (
	addrA = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
	addrB = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"
)

func swapSchema(t testing.TB) *Schema {
	t.Helper()
	raw, err := os.ReadFile("testdata/swap.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Compile(raw)
	if err != nil {
		t.Fatalf("Compile(swap.json): %v", err)
	}
	return s
}

// want is one expected error: its path and a fragment of its message.
type want struct{ path, msg string }

func TestValidate(t *testing.T) {
	s := swapSchema(t)
	long := strings.Repeat("A", 5000)
	tests := []struct {
		name string
		args string
		want []want // nil: valid
	}{
		{"minimal", `{"to":"` + addrA + `","amount":"1000"}`, nil},
		{"everything", `{"to":"` + addrA + `","amount":"1","side":"sell","slippage_bps":500,"memo":"x",
			"route":{"pool":"` + addrB + `","fee":3000},"tokens":["` + addrA + `","` + addrB + `"],"deadline":null}`, nil},
		{"empty input is an empty object", ``, []want{{"/amount", "is required"}, {"/to", "is required"}}},
		{"missing required", `{"to":"` + addrA + `"}`, []want{{"/amount", "is required"}}},
		{"wrong type", `{"to":"` + addrA + `","amount":1000}`, []want{{"/amount", "must be a string, not an integer"}}},
		{"pattern", `{"to":"0x123","amount":"1"}`, []want{{"/to", "must match the pattern ^0x[0-9a-fA-F]{40}$"}}},
		{"enum", `{"to":"` + addrA + `","amount":"1","side":"hold"}`, []want{{"/side", `must be one of: "buy", "sell"`}}},
		{"minimum", `{"to":"` + addrA + `","amount":"1","slippage_bps":0}`, []want{{"/slippage_bps", "must be >= 1"}}},
		{"maximum", `{"to":"` + addrA + `","amount":"1","slippage_bps":501}`, []want{{"/slippage_bps", "must be <= 500"}}},
		{"integer", `{"to":"` + addrA + `","amount":"1","slippage_bps":1.5}`, []want{{"/slippage_bps", "must be an integer, not a number"}}},
		{"additional property", `{"to":"` + addrA + `","amount":"1","recipient":"x"}`, []want{{"/recipient", "is not an allowed field (allowed: amount, deadline, memo, route, side, slippage_bps, to, tokens)"}}},
		{"min length", `{"to":"` + addrA + `","amount":"1","memo":""}`, []want{{"/memo", "at least 1 characters long (it has 0)"}}},
		{"max length", `{"to":"` + addrA + `","amount":"1","memo":"` + long + `"}`, []want{{"/memo", "at most 16 characters long (it has 5000)"}}},
		{"nested required and extra", `{"to":"` + addrA + `","amount":"1","route":{"fee":7,"hops":2}}`,
			[]want{{"/route/pool", "is required"}, {"/route/fee", "must be one of: 100, 500, 3000, 10000"}, {"/route/hops", "is not an allowed field"}}},
		{"array item", `{"to":"` + addrA + `","amount":"1","tokens":["` + addrA + `","0xnope"]}`, []want{{"/tokens/1", "must match the pattern"}}},
		{"min items", `{"to":"` + addrA + `","amount":"1","tokens":[]}`, []want{{"/tokens", "at least 1 items (it has 0)"}}},
		{"max items", `{"to":"` + addrA + `","amount":"1","tokens":["` + addrA + `","` + addrB + `","` + addrA + `","` + addrB + `"]}`,
			[]want{{"/tokens", "at most 3 items (it has 4)"}, {"/tokens", "items 0 and 2 are equal"}}},
		{"array type", `{"to":"` + addrA + `","amount":"1","tokens":"` + addrA + `"}`, []want{{"/tokens", "must be an array, not a string"}}},
		{"anyOf branch by type", `{"to":"` + addrA + `","amount":"1","deadline":-5}`, []want{{"/deadline", "must be > 0"}}},
		{"anyOf no branch type", `{"to":"` + addrA + `","amount":"1","deadline":"soon"}`, []want{{"/deadline", "must be an integer or null, not a string"}}},
		{"several at once", `{"amount":12,"side":"x","extra":true}`,
			[]want{{"/to", "is required"}, {"/amount", "must be a string"}, {"/extra", "not an allowed field"}, {"/side", "must be one of"}}},
		{"not an object", `[1,2]`, []want{{"", "not one JSON object"}}},
		{"duplicate keys", `{"to":"` + addrA + `","to":"` + addrB + `","amount":"1"}`, []want{{"", "not one JSON object"}}},
		{"hostile key", `{"to":"` + addrA + `","amount":"1","ig\u202enore\nprevious` + long + `":1}`, []want{{"/ig" + "noreprevious" + strings.Repeat("A", 49) + "…", "is not an allowed field"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.Validate(json.RawMessage(tt.args))
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Validate = %v, want nil", err)
				}
				return
			}
			var errs Errors
			if !errors.As(err, &errs) {
				t.Fatalf("Validate = %v (%T), want Errors", err, err)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Error("errors.Is(err, ErrInvalid) = false")
			}
			for _, w := range tt.want {
				if !slices.ContainsFunc(errs, func(e *Error) bool { return e.Path == w.path && strings.Contains(e.Message, w.msg) }) {
					t.Errorf("no error at %q containing %q; got %v", w.path, w.msg, err)
				}
			}
			if len(errs) != len(tt.want) {
				t.Errorf("got %d errors, want %d: %v", len(errs), len(tt.want), err)
			}
			if strings.Contains(err.Error(), "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA") {
				t.Errorf("error echoes a long input value: %.200s", err)
			}
		})
	}
}

func TestValidateInputForms(t *testing.T) {
	s := swapSchema(t)
	raw := `{"to":"` + addrA + `","amount":"5","slippage_bps":600}`
	args, err := tool.ParseArgs([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	var decoded any
	if err := json.Unmarshal([]byte(raw), &decoded); err != nil {
		t.Fatal(err)
	}
	for name, in := range map[string]any{"raw": json.RawMessage(raw), "bytes": []byte(raw), "args": args, "decoded": decoded} {
		t.Run(name, func(t *testing.T) {
			err := s.Validate(in)
			var errs Errors
			if !errors.As(err, &errs) || len(errs) != 1 || errs[0].Path != "/slippage_bps" {
				t.Errorf("Validate(%s) = %v, want one error at /slippage_bps", name, err)
			}
		})
	}
	if err := s.Validate(struct{}{}); err == nil || errors.Is(err, ErrInvalid) {
		t.Errorf("Validate(struct) = %v, want a usage error that is not ErrInvalid", err)
	}
	if err := s.Validate((*tool.Args)(nil)); !errors.Is(err, ErrInvalid) {
		t.Errorf("Validate(nil *tool.Args) = %v, want missing fields", err)
	}
	if err := s.Validate(map[string]any{"to": addrA, "amount": "7"}); err != nil {
		t.Errorf("Validate(valid map) = %v", err)
	}
}

func TestCompile(t *testing.T) {
	const ok = "ok"
	tests := []struct {
		name   string
		schema string
		path   string // ok, or the JSON Pointer of the refusal
	}{
		{"object", `{"type":"object"}`, ok},
		{"object in type list", `{"type":["object"]}`, ok},
		{"draft-07", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"type":"string"}},"dependencies":{"a":["b"]}}`, ok},
		{"draft-07 without the fragment", `{"$schema":"http://json-schema.org/draft-07/schema","type":"object"}`, ok},
		{"draft 2020-12 over http with a fragment", `{"$schema":"http://json-schema.org/draft/2020-12/schema#","type":"object"}`, ok},
		{"root ref", `{"type":"object","properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"type":"integer"}}}`, ok},
		{"ref into properties and items", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"}},"b":{"$ref":"#/properties/a/items"},"c":{"$ref":"#/definitions/x"},"d":{"$ref":"#/definitions/y"}},"definitions":{"x":{"allOf":[{"type":"integer"}]},"y":{"$ref":"#/definitions/x/allOf/0"}}}`, ok},
		{"ref inside a ref's target", `{"type":"object","properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"type":"object","properties":{"b":{"$ref":"#/$defs/y"}}},"y":{"anyOf":[{"$ref":"#/$defs/z"},{"type":"null"}]},"z":{"type":"string"}}}`, ok},
		{"nested $defs", `{"type":"object","properties":{"p":{"$defs":{"X":{"type":"string"}},"$ref":"#/properties/p/$defs/X"}}}`, ok},
		{"root is a reference to an object", `{"$ref":"#/definitions/Args","definitions":{"Args":{"type":"object"}},"$schema":"http://json-schema.org/draft-07/schema#"}`, ok},
		{"escaped pointer", `{"type":"object","properties":{"a/b":{"type":"string"},"c":{"$ref":"#/properties/a~1b"}}}`, ok},
		{"percent-encoded pointer", `{"type":"object","properties":{"a b":{"type":"string"},"c":{"$ref":"#/properties/a%20b"}}}`, ok},
		{"undeclared tuple items read as draft-07", `{"type":"object","properties":{"t":{"type":"array","items":[{"type":"string"}],"additionalItems":false}}}`, ok},
		// "default" is an annotation: pydantic writes null defaults next
		// to non-null types.
		{"default of another type", `{"type":"object","properties":{"a":{"type":"string","default":null}}}`, ok},
		{"pointer index out of range", `{"type":"object","properties":{"c":{"$ref":"#/allOf/3"}},"allOf":[{}]}`, "/properties/c/$ref"},
		{"pointer to keyword value", `{"type":"object","properties":{"c":{"$ref":"#/required"}},"required":["c"]}`, "/properties/c/$ref"},
		{"not JSON", `{"type":`, ""},
		{"boolean schema", `true`, ""},
		{"no type", `{"properties":{}}`, ""},
		{"string root", `{"type":"string"}`, ""},
		{"object or null", `{"type":["object","null"]}`, ""},
		{"root is a reference to a string", `{"$ref":"#/$defs/s","$defs":{"s":{"type":"string"}}}`, ""},
		{"unknown draft", `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object"}`, "/$schema"},
		{"tuple items declared 2020-12", `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"t":{"type":"array","items":[{"type":"string"}]}}}`, "/properties/t/items"},
		{"remote ref", `{"type":"object","properties":{"a":{"$ref":"https://example.com/s.json"}}}`, "/properties/a/$ref"},
		{"anchor ref", `{"type":"object","properties":{"a":{"$ref":"#x"}},"$defs":{"x":{"$anchor":"x"}}}`, "/properties/a/$ref"},
		{"dangling ref", `{"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}`, "/properties/a/$ref"},
		{"dangling ref in items of anyOf", `{"type":"object","properties":{"a":{"anyOf":[{"type":"array","items":{"$ref":"#/definitions/X"}},{"type":"null"}]}}}`, "/properties/a/anyOf/0/items/$ref"},
		{"self ref", `{"type":"object","$ref":"#"}`, "/$ref"},
		{"ref cycle", `{"type":"object","properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"anyOf":[{"$ref":"#/$defs/y"}]},"y":{"allOf":[{"$ref":"#/$defs/x"}]}}}`, "/$defs/y/allOf/0/$ref"},
		{"recursive tree", `{"type":"object","properties":{"child":{"$ref":"#"}}}`, "/properties/child/$ref"},
		{"dynamic ref", `{"type":"object","properties":{"a":{"$dynamicRef":"#x"}}}`, "/properties/a/$dynamicRef"},
		{"unknown type", `{"type":"object","properties":{"a":{"type":"nonsense"}}}`, "/properties/a/type"},
		{"nested id", `{"type":"object","properties":{"a":{"$id":"https://x/y","type":"string"}}}`, "/properties/a/$id"},
		{"bad pattern", `{"type":"object","properties":{"a":{"type":"string","pattern":"(("}}}`, "/properties/a/pattern"},
		{"lookahead pattern", `{"type":"object","$defs":{"e":{"type":"string","pattern":"^(?!\\.)x$"}}}`, "/$defs/e/pattern"},
		{"bad pattern property", `{"type":"object","patternProperties":{"((":{}}}`, "/patternProperties/(("},
		{"hostile name in the path", `{"type":"object","properties":{"a\u202eb/c":{"$ref":"#/$defs/none"}}}`, "/properties/ab~1c/$ref"},
		{"too deep", deep(MaxDepth + 2), "/properties/a" + strings.Repeat("/items", MaxDepth)},
		{"exponential", exponential(16), "/$defs/d" + itoa(6)},
		{"too big", `{"type":"object","description":"` + strings.Repeat("x", MaxSchemaSize) + `"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compile(json.RawMessage(tt.schema))
			if tt.path == ok {
				if err != nil {
					t.Errorf("Compile: %v, want success", err)
				}
				return
			}
			var ce *CompileError
			if !errors.As(err, &ce) {
				t.Fatalf("Compile: %v (%T), want a *CompileError", err, err)
			}
			if ce.Path != tt.path {
				t.Errorf("Compile: path %q, want %q (%v)", ce.Path, tt.path, err)
			}
			if ce.Path != "" && !strings.Contains(err.Error(), " at "+ce.Path+": ") {
				t.Errorf("Compile: %q does not name the path", err)
			}
		})
	}
}

// deep returns a schema whose property a nests n arrays.
func deep(n int) string {
	return `{"type":"object","properties":{"a":` + strings.Repeat(`{"items":`, n) + `{}` + strings.Repeat(`}`, n) + `}}`
}

// exponential returns a schema of n definitions each referring twice to
// the next: n nodes, 2^n ways to walk them.
func exponential(n int) string {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{"a":{"$ref":"#/$defs/d` + itoa(0) + `"}},"$defs":{`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		next := `{"type":"string"}`
		if i+1 < n {
			next = `{"$ref":"#/$defs/d` + itoa(i+1) + `"}`
		}
		b.WriteString(`"d` + itoa(i) + `":{"anyOf":[` + next + `,` + next + `]}`)
	}
	b.WriteString("}}")
	return b.String()
}

func itoa(i int) string { return string(rune('a'+i/26)) + string(rune('a'+i%26)) }

func TestErrorsCapped(t *testing.T) {
	props := map[string]any{}
	var req []string
	for i := range 50 {
		k := "f" + itoa(i)
		props[k] = map[string]any{"type": "string"}
		req = append(req, k)
	}
	raw, _ := json.Marshal(map[string]any{"type": "object", "properties": props, "required": req})
	s, err := Compile(raw)
	if err != nil {
		t.Fatal(err)
	}
	var errs Errors
	if err := s.Validate(json.RawMessage(`{}`)); !errors.As(err, &errs) || len(errs) != MaxErrors {
		t.Errorf("got %d errors, want the cap %d", len(errs), MaxErrors)
	}
}

func TestErrorString(t *testing.T) {
	es := Errors{{Message: "bad"}, {Path: "/a/0", Message: "is required"}}
	if got, want := es.Error(), "arguments: bad; /a/0: is required"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if got := pointer([]string{"a/b", "c~d"}); got != "/a~1b/c~0d" {
		t.Errorf("pointer = %q, want JSON Pointer escaping", got)
	}
}

func BenchmarkValidate(b *testing.B) {
	s := swapSchema(b)
	valid := json.RawMessage(`{"to":"` + addrA + `","amount":"1","side":"sell","tokens":["` + addrA + `"]}`)
	invalid := json.RawMessage(`{"to":"0x1","amount":1,"side":"x"}`)
	b.Run("valid", func(b *testing.B) {
		for b.Loop() {
			if err := s.Validate(valid); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("invalid", func(b *testing.B) {
		for b.Loop() {
			if err := s.Validate(invalid); err == nil {
				b.Fatal("valid")
			}
		}
	})
}

func TestValidateThroughRefs(t *testing.T) {
	s, err := Compile(json.RawMessage(`{"type":"object","properties":{"a":{"type":"array","items":{"type":"string","maxLength":2}},"b":{"$ref":"#/properties/a/items"}},"additionalProperties":false}`))
	if err != nil {
		t.Fatal(err)
	}
	var errs Errors
	if err := s.Validate(json.RawMessage(`{"a":["ok","long"],"b":"xyz"}`)); !errors.As(err, &errs) || len(errs) != 2 ||
		errs[0].Path != "/a/1" || errs[1].Path != "/b" {
		t.Errorf("Validate = %v, want errors at /a/1 and /b", err)
	}
	var decodeErr *Error
	if err := s.Validate(json.RawMessage(`{"a":`)); !errors.As(err, &decodeErr) || errors.Unwrap(decodeErr) == nil {
		t.Errorf("undecodable arguments: %v, want an Error wrapping the decode error", err)
	}
}
