package cli

import (
	"strings"
	"testing"
)

// TestMCPDemo runs the second half of `ward demo`: an embedded ward serve
// and a scripted agent session over MCP, with the owner over the API.
func TestMCPDemo(t *testing.T) {
	var out strings.Builder
	err := mcpDemo(t.Context(), &out, t.TempDir())
	t.Log("\n" + out.String())
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "\nok "); n < 10 {
		t.Errorf("%d steps passed, want 10", n)
	}
}
