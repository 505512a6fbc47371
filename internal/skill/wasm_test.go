package skill

import (
	"errors"
	"testing"

	"github.com/wardhq/ward/internal/knowledge"
)

// TestComponentReferences: an entry names a registered WASM component
// and gives it arguments; it never supplies a module, and a name the
// library does not hold as a WASM component of that kind cannot be
// composed.
func TestComponentReferences(t *testing.T) {
	module := []byte("\x00asm\x01\x00\x00\x00")
	lib := NewLibrary()
	for _, c := range []Component{
		{Name: "vol_target", Kind: KindSizing, Text: "size", WASM: module},
		{Name: "oversold_calm", Kind: KindCondition, Text: "cond", WASM: module},
	} {
		if err := lib.Add(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := lib.Add(Component{Name: "both", Kind: KindCondition, Expr: "rsi < 30.0", WASM: module}); err == nil {
		t.Error("a WASM condition with an expression was added")
	}
	h := &knowledge.Heuristic{
		Conditions: []string{`component: oversold_calm {"rsi_below": 20}`, "gas below 50"},
		Actions:    []string{"buy"},
		Parameters: map[string]string{"size_component": "vol_target", "size_args": `{"target_vol": 0.01}`},
	}
	f, err := Decompose(&knowledge.Entry{Heuristic: h})
	if err != nil {
		t.Fatal(err)
	}
	if c := f.Conditions[0]; c.Component != "oversold_calm" || string(c.Args) != `{"rsi_below": 20}` || c.Expr != "" {
		t.Errorf("condition %+v", c)
	}
	if a := f.Actions[0]; a.SizeFrom != "vol_target" || string(a.SizeArgs) != `{"target_vol": 0.01}` {
		t.Errorf("action %+v", a)
	}
	p, err := lib.Compose(f)
	if err != nil || len(p.Reused) != 1 || p.Reused[0] != "oversold_calm" || len(p.Novel) != 1 || p.Novel[0].Expr != "gas < 50.0" {
		t.Fatalf("Compose = %+v, %v", p, err)
	}
	if got := lib.Needs(f, f); len(got) != 2 || got[0].Name != "oversold_calm" || got[1].Name != "vol_target" {
		t.Errorf("Needs = %v", got)
	}
	if got := Promotion("e1", p); len(got) != 1 || got[0].Expr != "gas < 50.0" || len(got[0].WASM) != 0 {
		t.Errorf("promoted %+v, want the CEL condition alone", got)
	}
	for _, c := range []struct {
		name string
		h    *knowledge.Heuristic
		ok   bool // decomposes (then Compose refuses)
	}{
		{"unregistered", &knowledge.Heuristic{Conditions: []string{"component: drain"}, Actions: []string{"buy"}}, true},
		{"a CEL component", &knowledge.Heuristic{Conditions: []string{"component: rsi_oversold"}, Actions: []string{"buy"}}, true},
		{"a sizing as condition", &knowledge.Heuristic{Conditions: []string{"component: vol_target"}, Actions: []string{"buy"}}, true},
		{"a condition as sizing", &knowledge.Heuristic{Conditions: []string{"rsi below 30"}, Actions: []string{"buy"}, Parameters: map[string]string{"size_component": "oversold_calm"}}, true},
		{"bad name", &knowledge.Heuristic{Conditions: []string{"component: ../../etc/passwd"}, Actions: []string{"buy"}}, false},
		{"args not an object", &knowledge.Heuristic{Conditions: []string{"component: oversold_calm [1]"}, Actions: []string{"buy"}}, false},
		{"size args not an object", &knowledge.Heuristic{Conditions: []string{"rsi below 30"}, Actions: []string{"buy"}, Parameters: map[string]string{"size_component": "vol_target", "size_args": "0x00"}}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := Decompose(&knowledge.Entry{Heuristic: c.h})
			if !c.ok {
				if !errors.Is(err, ErrUndecomposable) {
					t.Errorf("Decompose = %v, want ErrUndecomposable", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := lib.Compose(f); !errors.Is(err, ErrUndecomposable) {
				t.Errorf("Compose = %v, want ErrUndecomposable", err)
			}
			if len(lib.Needs(f)) != 0 {
				t.Error("Needs provided a component the fragment may not have")
			}
		})
	}
}
