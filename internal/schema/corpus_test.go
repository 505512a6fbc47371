package schema

import (
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// corpusCase is one schema of testdata/generated.json: what a generator
// wrote (pydantic, zod, zod-to-json-schema; source says how), arguments
// it accepts, arguments it refuses with the errors each gets, and the
// top-level parameters Params must read from it.
type corpusCase struct {
	Name    string            `json:"name"`
	Source  string            `json:"source"`
	Schema  json.RawMessage   `json:"schema"`
	Valid   []json.RawMessage `json:"valid"`
	Invalid []struct {
		Args   json.RawMessage `json:"args"`
		Errors [][2]string     `json:"errors"` // path, message fragment
	} `json:"invalid"`
	Params []wantParam `json:"params"`
}

// wantParam is a Param as the corpus writes it; every field is compared,
// an absent one with its zero value.
type wantParam struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Nullable    bool   `json:"nullable"`
	Description string `json:"description"`
	Format      string `json:"format"`
	Enum        []any  `json:"enum"`
	Required    bool   `json:"required"`
}

func loadCorpus(t *testing.T) []corpusCase {
	t.Helper()
	raw, err := os.ReadFile("testdata/generated.json")
	if err != nil {
		t.Fatal(err)
	}
	var cs []corpusCase
	if err := json.Unmarshal(raw, &cs); err != nil {
		t.Fatal(err)
	}
	return cs
}

// TestGeneratedSchemas compiles what the common schema generators write
// ($defs and definitions, references into properties and into other
// references, a root $ref, nullable unions of both spellings, tuples of
// both drafts, discriminated unions, const, enum, format, defaults that
// do not match their type) and checks real arguments against them.
func TestGeneratedSchemas(t *testing.T) {
	for _, c := range loadCorpus(t) {
		t.Run(c.Name, func(t *testing.T) {
			s, err := Compile(c.Schema)
			if err != nil {
				t.Fatalf("Compile (%s): %v", c.Source, err)
			}
			for i, args := range c.Valid {
				if err := s.Validate(args); err != nil {
					t.Errorf("valid %d: %v", i, err)
				}
			}
			for _, in := range c.Invalid {
				checkErrors(t, s, in.Args, in.Errors)
			}
			checkParams(t, s, c.Params)
		})
	}
}

// checkErrors validates args and wants exactly the errors given (path
// and message fragment), in any order.
func checkErrors(t *testing.T, s *Schema, args json.RawMessage, want [][2]string) {
	t.Helper()
	err := s.Validate(args)
	var errs Errors
	if !errors.As(err, &errs) {
		t.Errorf("%s: Validate = %v, want errors %v", args, err, want)
		return
	}
	for _, w := range want {
		if !slices.ContainsFunc(errs, func(e *Error) bool { return e.Path == w[0] && strings.Contains(e.Message, w[1]) }) {
			t.Errorf("%s: no error at %q containing %q; got %v", args, w[0], w[1], err)
		}
	}
	if len(errs) != len(want) {
		t.Errorf("%s: %d errors, want %d: %v", args, len(errs), len(want), err)
	}
}

// checkParams wants each of want among s.Params(), field for field.
func checkParams(t *testing.T, s *Schema, want []wantParam) {
	t.Helper()
	got := s.Params()
	if !slices.IsSortedFunc(got, func(a, b Param) int { return strings.Compare(a.Name, b.Name) }) {
		t.Errorf("Params not sorted by name")
	}
	for _, w := range want {
		i := slices.IndexFunc(got, func(p Param) bool { return p.Name == w.Name })
		if i < 0 {
			t.Errorf("Params: no %q", w.Name)
			continue
		}
		p := got[i]
		have := wantParam{Name: p.Name, Type: p.Type, Nullable: p.Nullable, Description: p.Description, Format: p.Format, Enum: p.Enum, Required: p.Required}
		if !reflect.DeepEqual(have, w) {
			t.Errorf("Params %s = %+v, want %+v", w.Name, have, w)
		}
		if p.Schema == nil {
			t.Errorf("Params %s: no resolved schema", w.Name)
		}
	}
}

func TestParams(t *testing.T) {
	s, err := Compile(json.RawMessage(`{"type":"object","required":["to","when"],
"properties":{
 "to":{"$ref":"#/$defs/address","description":"Who gets it"},
 "from":{"anyOf":[{"$ref":"#/$defs/address"},{"type":"null"}]},
 "when":{"type":["string","null"],"format":"date-time"},
 "pick":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/choice"}]},
 "wrapped":{"allOf":[{"$ref":"#/$defs/choice"}],"description":"Wrapped"},
 "either":{"anyOf":[{"type":"null"},{"type":"integer","description":"n"},{"type":"string","description":"s"}]},
 "untyped":{"description":"anything"},
 "nested":{"type":"object","properties":{"inner":{"$ref":"#/$defs/address"}}}
},
"allOf":[{"$ref":"#/$defs/extra"}],
"$defs":{
 "address":{"type":"string","pattern":"^0x[0-9a-f]{40}$","description":"A hex address","format":"address"},
 "choice":{"enum":["a","b"],"type":"string","description":"One of two"},
 "extra":{"type":"object","properties":{"memo":{"type":"string"},"to":{"type":"integer"}},"required":["memo"]}
}}`))
	if err != nil {
		t.Fatal(err)
	}
	checkParams(t, s, []wantParam{
		{Name: "to", Type: "string", Description: "Who gets it", Format: "address", Required: true},
		{Name: "from", Type: "string", Nullable: true, Description: "A hex address", Format: "address"},
		{Name: "when", Type: "string", Nullable: true, Format: "date-time", Required: true},
		{Name: "pick", Type: "string", Nullable: true, Description: "One of two", Enum: []any{"a", "b"}},
		{Name: "wrapped", Type: "string", Description: "Wrapped", Enum: []any{"a", "b"}},
		{Name: "either", Type: "integer", Nullable: true},
		{Name: "untyped", Description: "anything"},
		{Name: "nested", Type: "object"},
		{Name: "memo", Type: "string", Required: true},
	})
	ps := s.Params()
	if len(ps) != 9 {
		t.Errorf("%d params, want 9 (the root's and its allOf's, each name once)", len(ps))
	}
	byName := map[string]Param{}
	for _, p := range ps {
		byName[p.Name] = p
	}
	addr := byName["to"].Schema
	if addr == nil || addr.Pattern != "^0x[0-9a-f]{40}$" || byName["from"].Schema != addr {
		t.Errorf("to and from: Schema %+v and %+v, want both the address definition", addr, byName["from"].Schema)
	}
	if w := byName["wrapped"].Schema; w == nil || w != byName["pick"].Schema || len(w.Enum) != 2 {
		t.Errorf("wrapped and pick: Schema %+v and %+v, want both the choice definition", w, byName["pick"].Schema)
	}
	if e := byName["either"].Schema; e == nil || len(e.AnyOf) != 3 {
		t.Errorf("either: Schema %+v, want the three-branch union itself", e)
	}
	inner := byName["nested"].Schema.Properties["inner"]
	if got := s.Deref(inner); got != addr {
		t.Errorf("Deref(nested.inner) = %+v, want the address definition", got)
	}
	if s.Deref(nil) != nil {
		t.Error("Deref(nil) != nil")
	}
}

// Under draft-07 the siblings of $ref do not apply: not their type, nor
// their enum; the description is still read.
func TestParamsDraft7(t *testing.T) {
	s, err := Compile(json.RawMessage(`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object",
"properties":{"a":{"$ref":"#/definitions/n","type":"string","enum":["x"],"description":"own"}},
"definitions":{"n":{"type":"integer","description":"a number"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	checkParams(t, s, []wantParam{{Name: "a", Type: "integer", Description: "own"}})
}

func TestObject(t *testing.T) {
	raw, err := Object([]Property{
		{Name: "perm", Required: true, Schema: json.RawMessage(`{"$ref":"#/$defs/Perm","description":"The permission","$defs":{"Perm":{"enum":["r","rw"],"type":"string"}}}`)},
		{Name: "who/m", Schema: json.RawMessage(`{"type":"array","items":{"$ref":"#/definitions/E"},"definitions":{"E":{"type":"string","maxLength":3}}}`)},
		{Name: "any"},
		{Name: "broken", Schema: json.RawMessage(`{"$ref":"#/$defs/Missing"}`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Compile(raw)
	var ce *CompileError
	if !errors.As(err, &ce) || ce.Path != "/properties/broken/$ref" {
		t.Fatalf("Compile(%s) = %v, want a refusal at /properties/broken/$ref", raw, err)
	}

	raw, err = Object([]Property{
		{Name: "perm", Required: true, Schema: json.RawMessage(`{"$ref":"#/$defs/Perm","description":"The permission","$defs":{"Perm":{"enum":["r","rw"],"type":"string"}}}`)},
		{Name: "who/m", Schema: json.RawMessage(`{"type":"array","items":{"$ref":"#/definitions/E"},"definitions":{"E":{"type":"string","maxLength":3}}}`)},
		{Name: "any"},
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Compile(raw)
	if err != nil {
		t.Fatalf("Compile(%s): %v", raw, err)
	}
	if err := s.Validate(json.RawMessage(`{"perm":"rw","who/m":["abc"],"any":{"x":[1]}}`)); err != nil {
		t.Errorf("valid arguments: %v", err)
	}
	checkErrors(t, s, json.RawMessage(`{"perm":"x","who/m":["abcd"]}`), [][2]string{{"/perm", `must be one of: "r", "rw"`}, {"/who~1m/0", "at most 3 characters"}})
	checkErrors(t, s, json.RawMessage(`{}`), [][2]string{{"/perm", "is required"}})
	checkParams(t, s, []wantParam{{Name: "perm", Type: "string", Description: "The permission", Enum: []any{"r", "rw"}, Required: true}})

	if _, err := Object([]Property{{Name: "a"}, {Name: "a"}}); err == nil {
		t.Error("Object accepted a name given twice")
	}
	if _, err := Object([]Property{{Name: "a", Schema: json.RawMessage(`{`)}}); err == nil {
		t.Error("Object accepted a schema that is not JSON")
	}
}

// agentdojoSuites are the AgentDojo suites the eval replays, kept in the
// repository's testdata/agentdojo with their licence.
var agentdojoSuites = []string{"../../testdata/agentdojo/banking.json", "../../testdata/agentdojo/slack.json"}

// TestAgentDojoSuites builds each tool's schema from the suite's
// per-parameter schemas (Object, as the replay does), compiles it, and
// checks the suite's own ground-truth and attack arguments against it;
// each required parameter left out, and each typed parameter given a
// value of another type, must be refused at that parameter.
func TestAgentDojoSuites(t *testing.T) {
	for _, path := range agentdojoSuites {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var suite struct {
			Tools []struct {
				Name       string `json:"name"`
				Parameters []struct {
					Name     string          `json:"name"`
					Required bool            `json:"required"`
					Schema   json.RawMessage `json:"schema"`
				} `json:"parameters"`
			} `json:"tools"`
			UserTasks []struct {
				Calls []struct {
					Function string          `json:"function"`
					Args     json.RawMessage `json:"args"`
				} `json:"ground_truth_calls"`
			} `json:"user_tasks"`
			InjectionTasks []struct {
				Calls []struct {
					Function string          `json:"function"`
					Args     json.RawMessage `json:"args"`
				} `json:"goal_calls"`
			} `json:"injection_tasks"`
		}
		if err := json.Unmarshal(raw, &suite); err != nil {
			t.Fatal(err)
		}
		args := map[string][]json.RawMessage{}
		for _, u := range suite.UserTasks {
			for _, c := range u.Calls {
				args[c.Function] = append(args[c.Function], c.Args)
			}
		}
		for _, j := range suite.InjectionTasks {
			for _, c := range j.Calls {
				args[c.Function] = append(args[c.Function], c.Args)
			}
		}
		checked := 0
		for _, tl := range suite.Tools {
			t.Run(tl.Name, func(t *testing.T) {
				var props []Property
				for _, p := range tl.Parameters {
					props = append(props, Property{Name: p.Name, Schema: p.Schema, Required: p.Required})
				}
				obj, err := Object(props)
				if err != nil {
					t.Fatal(err)
				}
				s, err := Compile(obj)
				if err != nil {
					t.Fatalf("Compile: %v", err)
				}
				for _, a := range args[tl.Name] {
					if err := s.Validate(a); err != nil {
						t.Errorf("the suite's arguments %s: %v", a, err)
					}
					checked++
				}
				ps := s.Params()
				if len(ps) != len(tl.Parameters) {
					t.Errorf("%d params, want %d", len(ps), len(tl.Parameters))
				}
				for _, p := range ps {
					i := slices.IndexFunc(tl.Parameters, func(q struct {
						Name     string          `json:"name"`
						Required bool            `json:"required"`
						Schema   json.RawMessage `json:"schema"`
					}) bool {
						return q.Name == p.Name
					})
					if i < 0 || tl.Parameters[i].Required != p.Required || p.Type == "" || p.Description == "" {
						t.Errorf("param %+v: want a type, a description and required=%v", p, i >= 0 && tl.Parameters[i].Required)
					}
				}
				valid := fill(ps)
				if err := s.Validate(valid); err != nil {
					t.Errorf("arguments %v of the declared types: %v", valid, err)
				}
				for _, p := range ps {
					if p.Required {
						missing := fill(ps)
						delete(missing, p.Name)
						checkErrors(t, s, mustJSON(t, missing), [][2]string{{"/" + p.Name, "is required"}})
					}
					wrong := fill(ps)
					wrong[p.Name] = []any{"not", "a", p.Type}
					want := "must be " + article(p.Type)
					if p.Nullable {
						want += " or null"
					}
					checkErrors(t, s, mustJSON(t, wrong), [][2]string{{"/" + p.Name, want + ", not an array"}})
				}
			})
		}
		if checked == 0 {
			t.Errorf("%s: no ground-truth arguments checked", path)
		}
	}
}

// fill returns arguments giving every parameter a value of its type.
func fill(ps []Param) map[string]any {
	out := map[string]any{}
	for _, p := range ps {
		out[p.Name] = map[string]any{"string": "x", "number": 1.5, "integer": 2, "boolean": true, "object": map[string]any{}, "array": []any{}}[p.Type]
	}
	return out
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestConcurrentUse hammers one compiled schema from several goroutines:
// validation (valid and invalid arguments, so the report walk runs too),
// Params and Deref only read it (run with -race).
func TestConcurrentUse(t *testing.T) {
	c := loadCorpus(t)[0]
	s, err := Compile(c.Schema)
	if err != nil {
		t.Fatal(err)
	}
	want := len(s.Params())
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				if err := s.Validate(c.Valid[0]); err != nil {
					t.Errorf("valid: %v", err)
					return
				}
				if err := s.Validate(c.Invalid[0].Args); !errors.Is(err, ErrInvalid) {
					t.Errorf("invalid: %v", err)
					return
				}
				ps := s.Params()
				if len(ps) != want {
					t.Errorf("%d params, want %d", len(ps), want)
					return
				}
				for _, p := range ps {
					s.Deref(p.Schema)
				}
			}
		})
	}
	wg.Wait()
}
