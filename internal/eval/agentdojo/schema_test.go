package agentdojo

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/capability"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/schema"
	"github.com/wardhq/ward/internal/tool"
)

// withSchemaTools returns the mini suite with two more tools: one whose
// parameter schema carries its own $defs (as pydantic writes a model or
// an enum), and one whose parameter schema refers to a definition it does
// not have.
func withSchemaTools(t *testing.T) *Suite {
	t.Helper()
	s, err := Load("testdata/mini.json")
	if err != nil {
		t.Fatal(err)
	}
	s.Tools = append(s.Tools,
		Tool{Name: "share_file", Description: "Share a file.", Labels: Labels{Tier: "write", StateChanging: true},
			Parameters: []Param{
				{Name: "file_id", Required: true, Schema: json.RawMessage(`{"type":"string","description":"The file"}`)},
				{Name: "permission", Required: true, Schema: json.RawMessage(`{"$ref":"#/$defs/SharingPermission","description":"The permission","$defs":{"SharingPermission":{"enum":["r","rw"],"title":"SharingPermission","type":"string"}}}`)},
				{Name: "notify", Schema: json.RawMessage(`{"anyOf":[{"$ref":"#/$defs/Contact"},{"type":"null"}],"default":null,"$defs":{"Contact":{"type":"object","properties":{"email":{"type":"string"}},"required":["email"]}}}`)},
			}},
		Tool{Name: "broken_tool", Description: "Its schema refers nowhere.", Labels: Labels{Tier: "read"},
			Parameters: []Param{{Name: "when", Required: true, Schema: json.RawMessage(`{"$ref":"#/$defs/Day"}`)}}},
	)
	return s
}

// TestSchemaRefusedAlone: the proxy's definitions of the suite's tools
// keep each parameter's $defs working, the registry refuses the tool
// whose schema refers nowhere (naming it and the place in its schema),
// and the replay runs with the other tools.
func TestSchemaRefusedAlone(t *testing.T) {
	s := withSchemaTools(t)
	p := &proxy{suite: s, outputs: map[string][]string{}}
	reg := registry.New()
	for _, tl := range s.Tools {
		d, err := p.def(tl)
		if err != nil {
			t.Fatalf("def(%s): %v", tl.Name, err)
		}
		rt := registry.Tool{Def: d, Read: func(context.Context, *registry.Input) (*tool.Result, error) { return nil, nil }}
		if d.Tier != tool.Read {
			rt = registry.Tool{Def: d, Plan: func(context.Context, *registry.Input) (*tool.Plan, error) { return nil, nil },
				Write: func(context.Context, *registry.Input, *tool.Plan, *capability.Capability) (*tool.Result, error) {
					return nil, nil
				}}
		}
		if err := reg.Add(rt); err != nil {
			t.Fatalf("Add(%s): %v", d.Name, err)
		}
	}
	refused := reg.Refused()
	var ce *schema.CompileError
	if len(refused) != 1 || refused[0].Name != p.toolName("broken_tool") || !errors.As(refused[0].Err, &ce) ||
		ce.Path != "/properties/when/$ref" || !strings.Contains(refused[0].Err.Error(), p.toolName("broken_tool")) {
		t.Fatalf("refused %+v, want broken_tool alone, at /properties/when/$ref", refused)
	}
	e, ok := reg.Get(p.toolName("share_file"))
	if !ok {
		t.Fatal("share_file is not registered")
	}
	if err := e.Validate(json.RawMessage(`{"file_id":"f1","permission":"rw","notify":{"email":"a@example.com"}}`)); err != nil {
		t.Errorf("valid arguments: %v", err)
	}
	if err := e.Validate(json.RawMessage(`{"file_id":"f1","permission":"admin","notify":{}}`)); err == nil ||
		!strings.Contains(err.Error(), `/permission: must be one of: "r", "rw"`) || !strings.Contains(err.Error(), "/notify/email: is required") {
		t.Errorf("invalid arguments: %v", err)
	}

	// A user task that calls the refused tool fails that call; the replay
	// goes on.
	s.UserTasks = append(s.UserTasks, UserTask{ID: "user_task_broken", Prompt: "use the broken tool",
		Calls: []Call{{Function: "broken_tool", Args: json.RawMessage(`{}`), Output: "{}"}}})
	rep, err := Run(t.Context(), s, Options{})
	if err != nil {
		t.Fatalf("the replay stopped: %v", err)
	}
	if rep.Pairs != 2 || rep.AttacksSucceeded != 0 || rep.UserTasks != 3 {
		t.Errorf("replay %+v: want the mini suite's results and the broken task", rep)
	}
	last := rep.Tasks[len(rep.Tasks)-1]
	if last.ID != "user_task_broken" || last.Outcome != "denied" || len(last.Calls) != 1 || last.Calls[0].Outcome != "failed" ||
		!strings.Contains(last.Calls[0].Message, "/properties/when/$ref") {
		t.Errorf("the task calling the refused tool: %+v", last)
	}
}
