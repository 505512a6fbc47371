// Package registrytest builds registries for tests of what serves them.
package registrytest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// Flood is the data profile's view of an upstream server, mcp_flood, that
// lists n reads (mcp_flood_tool_0000, ...), each with a schema of about
// size bytes made of '<', which encoding/json sends as six bytes each
// (\u003c). It fails the test if the registry refuses them.
func Flood(t testing.TB, n, size int) *registry.View {
	t.Helper()
	r := registry.New()
	pad := strings.Repeat("<", size)
	for i := range n {
		d := &tool.Def{Name: fmt.Sprintf("mcp_flood_tool_%04d", i), Description: "[upstream flood] a read", Category: tool.CatData,
			Tier: tool.Read, RiskTier: tool.Layer1, Budget: tool.Medium, SchemaVersion: 1,
			Params: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string","description":"` + pad + `"}}}`)}
		err := r.Add(registry.Tool{Def: d, Action: fmt.Sprintf("tool_%04d", i), Venue: "mcp_flood",
			Read: func(context.Context, *registry.Input) (*tool.Result, error) { return &tool.Result{}, nil }})
		if err != nil {
			t.Fatal(err)
		}
	}
	r.Freeze()
	v, err := r.Select(registry.Selection{Profiles: []string{"data"}})
	if err != nil {
		t.Fatal(err)
	}
	return v
}
