package facade

import "testing"

func TestSchemas(t *testing.T) {
	if _, err := schemas(); err != nil {
		t.Fatal(err)
	}
	if len(defs) != 8 {
		t.Errorf("%d facades, want 8", len(defs))
	}
}
