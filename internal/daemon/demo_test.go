package daemon

import (
	"strings"
	"testing"
)

// TestDemo runs `ward demo`'s scenario end to end on the dev chain.
func TestDemo(t *testing.T) {
	var out strings.Builder
	res, err := RunDemo(t.Context(), &out, t.TempDir())
	t.Log("\n" + out.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(res) < 25 {
		t.Errorf("only %d steps ran", len(res))
	}
}
