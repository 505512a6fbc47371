package daemon

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// TestSelfPolicy checks that the policy a ward runs protects its own data
// directory and configuration file where they are, keeps the policy's
// hash, and finds the commands of a registered tool by its schema.
func TestSelfPolicy(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "state")
	path := filepath.Join(root, "ward.toml")
	if err := os.WriteFile(path, []byte("[policy.paths]\nroot = \""+root+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	snap, tools, err := selfPolicy(dir, f)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Hash() != f.Snapshot.Hash() {
		t.Error("the data directory changed the policy's hash")
	}
	decide := func(name string, args any) policy.Action {
		t.Helper()
		raw, _ := json.Marshal(args)
		a, err := tool.ParseArgs(raw)
		if err != nil {
			t.Fatal(err)
		}
		d := snap.Evaluate(&policy.Request{Tool: tool.Ref{Name: name, Risk: tool.Caution}, Args: a,
			Turn: policy.Turn{ID: "t", SessionID: "s", Source: policy.Agent}, State: policy.NewTracker()})
		return d.Action()
	}
	for _, tc := range []struct {
		cmd  string
		want policy.Action
	}{
		{"rm -rf " + dir, policy.Deny},
		{"rm -rf state", policy.Deny},
		{"cat state/vault.key", policy.Deny},
		{"sed -i s/deny/allow/ " + path, policy.Deny},
		{"rm -rf ward-data", policy.Allow}, // not this ward's
		{"cat ward.toml", policy.Allow},
	} {
		if got := decide("exec", map[string]string{"command": tc.cmd}); got != tc.want {
			t.Errorf("exec %q: %s, want %s", tc.cmd, got, tc.want)
		}
	}

	// An upstream tool whose parameter is a command only by its
	// description: found once the registry is known.
	reg := registry.New()
	err = reg.Add(registry.Tool{
		Def: &tool.Def{Name: "mcp_box_run", Description: "run", Category: tool.CatData, Tier: tool.Read, RiskTier: tool.Layer1,
			Budget: tool.Fast, SchemaVersion: 1,
			Params: json.RawMessage(`{"type":"object","properties":{"payload":{"type":"string","description":"Shell command line to run"}}}`)},
		Read: func(context.Context, *registry.Input) (*tool.Result, error) { return &tool.Result{}, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	reg.Freeze()
	call := map[string]string{"payload": "rm -rf /"}
	if got := decide("mcp_box_run", call); got != policy.Allow {
		t.Fatalf("before the registry is known: %s, want allow (nothing says payload is a command)", got)
	}
	tools.Store(reg)
	if got := decide("mcp_box_run", call); got != policy.Deny {
		t.Errorf("mcp_box_run rm -rf /: %s, want deny", got)
	}
}
