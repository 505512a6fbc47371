package schema

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/tool"
)

// FuzzValidate: random argument text against a valid schema never panics,
// agrees with the library's verdict, and reports bounded errors that do
// not echo long argument values.
func FuzzValidate(f *testing.F) {
	s := swapSchema(f)
	for _, seed := range []string{
		``, `{}`, `null`, `[]`, `{"to":"` + addrA + `","amount":"1"}`,
		`{"to":"0x1","amount":1,"side":"x","route":{"fee":1},"tokens":[1,"a","a"],"deadline":"x"}`,
		`{"memo":"` + strings.Repeat("z", 100) + `","x":{"y":[[[]]]}}`,
		`{"deadline":1e400}`, `{"slippage_bps":-0.0}`, `{"\u0000":1}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		err := s.Validate(json.RawMessage(raw))
		args, perr := tool.ParseArgs(raw)
		if perr == nil {
			libOK := s.resolved.Validate(args.Map()) == nil
			if libOK != (err == nil) {
				t.Fatalf("Validate = %v but the library says valid=%v", err, libOK)
			}
		} else if err == nil {
			t.Fatalf("undecodable arguments validated")
		}
		if err == nil {
			return
		}
		var errs Errors
		if !errors.As(err, &errs) || len(errs) == 0 || len(errs) > MaxErrors {
			t.Fatalf("Validate = %v (%T): want 1..%d Errors", err, err, MaxErrors)
		}
		for _, e := range errs {
			if len(e.Message) > 600 || len(e.Path) > 32*(64*4+8) {
				t.Fatalf("error too long: %q", e)
			}
		}
		if perr == nil {
			for _, v := range longStrings(args.Map()) {
				if strings.Contains(err.Error(), v) {
					t.Fatalf("error echoes an argument value: %q", v)
				}
			}
		}
	})
}

// longStrings returns the string values longer than 64 bytes in v.
func longStrings(v any) []string {
	var out []string
	switch x := v.(type) {
	case string:
		if len(x) > 64 {
			out = append(out, x)
		}
	case []any:
		for _, e := range x {
			out = append(out, longStrings(e)...)
		}
	case map[string]any:
		for _, e := range x {
			out = append(out, longStrings(e)...)
		}
	}
	return out
}

// FuzzCompile: any schema text either fails to compile with a
// *CompileError or yields a schema that validates arbitrary arguments and
// reads its parameters without panicking or overflowing the stack; the
// same holds for the schema embedded as a property by Object.
func FuzzCompile(f *testing.F) {
	swap, err := os.ReadFile("testdata/swap.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(swap, []byte(`{"to":"x"}`))
	corpus, err := os.ReadFile("testdata/generated.json")
	if err != nil {
		f.Fatal(err)
	}
	var cases []struct {
		Schema json.RawMessage   `json:"schema"`
		Valid  []json.RawMessage `json:"valid"`
	}
	if err := json.Unmarshal(corpus, &cases); err != nil {
		f.Fatal(err)
	}
	for _, c := range cases {
		f.Add([]byte(c.Schema), []byte(c.Valid[0]))
	}
	f.Add([]byte(`{"type":"object","$ref":"#"}`), []byte(`{}`))
	f.Add([]byte(`{"type":"object","properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"oneOf":[{"type":"string"},{"not":{"type":"integer"}}]}}}`), []byte(`{"a":1}`))
	f.Add([]byte(`{"type":"object","patternProperties":{"^x":{"type":"integer"}},"propertyNames":{"maxLength":3},"dependentRequired":{"a":["b"]}}`), []byte(`{"xyzw":"s","a":1}`))
	f.Add([]byte(`{"type":"object","if":{"required":["a"]},"then":{"required":["b"]},"else":{"maxProperties":0}}`), []byte(`{"c":1}`))
	f.Add([]byte(`{"type":"object","properties":{"l":{"type":"array","prefixItems":[{"const":1}],"items":false,"contains":{"type":"string"},"minContains":2}}}`), []byte(`{"l":[2,"a",3]}`))
	f.Add([]byte(exponential(8)), []byte(`{"a":"x"}`))
	f.Fuzz(func(t *testing.T, schemaText, args []byte) {
		check := func(text []byte) {
			s, err := Compile(text)
			var ce *CompileError
			if err != nil {
				if !errors.As(err, &ce) {
					t.Fatalf("Compile = %v (%T), want a *CompileError", err, err)
				}
				return
			}
			for _, a := range [][]byte{args, []byte(`{}`), []byte(`{"a":[1,{"b":null}],"c":"d"}`)} {
				err := s.Validate(json.RawMessage(a))
				var errs Errors
				if err != nil && (!errors.As(err, &errs) || len(errs) == 0) {
					t.Fatalf("Validate = %v (%T), want Errors", err, err)
				}
			}
			for _, p := range s.Params() {
				if p.Schema == nil || s.Deref(p.Schema) != p.Schema {
					t.Fatalf("param %s: Schema %v is not dereferenced", p.Name, p.Schema)
				}
			}
		}
		check(schemaText)
		if json.Valid(schemaText) {
			obj, err := Object([]Property{{Name: "p", Schema: schemaText, Required: true}})
			if err != nil {
				t.Fatalf("Object: %v", err)
			}
			check(obj)
		}
	})
}
