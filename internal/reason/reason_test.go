package reason

import (
	"os"
	"strings"
	"testing"
)

func TestCatalogCodesAreValidAndUnique(t *testing.T) {
	seen := map[Code]bool{}
	for _, e := range Catalog() {
		if !e.Code.Valid() {
			t.Errorf("catalog code %q is not a valid code", e.Code)
		}
		if seen[e.Code] {
			t.Errorf("catalog lists %q twice", e.Code)
		}
		seen[e.Code] = true
		if e.Meaning == "" {
			t.Errorf("%s has no meaning", e.Code)
		}
		if !Known(e.Code) {
			t.Errorf("Known(%s) = false", e.Code)
		}
	}
	if Known("NIGHT_LIMIT") {
		t.Error("a user code is reported as ward's own")
	}
}

func TestValid(t *testing.T) {
	for c, want := range map[Code]bool{
		"ALLOWED": true, "X402_DOMAIN_NOT_ALLOWED": true, "A": true,
		"": false, "lower": false, "1ABC": false, "HAS SPACE": false, "HAS-DASH": false,
		Code(strings.Repeat("A", 65)): false,
	} {
		if got := c.Valid(); got != want {
			t.Errorf("Valid(%q) = %v, want %v", c, got, want)
		}
	}
}

// TestDocumented keeps docs/policy.md's reason code table complete.
func TestDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/policy.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range Catalog() {
		if !strings.Contains(string(doc), "`"+string(e.Code)+"`") {
			t.Errorf("docs/policy.md does not document %s", e.Code)
		}
	}
}
