package daemon

import (
	"testing"
	"time"

	"github.com/wardhq/ward/internal/config"
)

// The configured LLM checker is built with its key held as a tainted value
// the checker accepts; without [trust.llm] there is none.
func TestTrustCheckers(t *testing.T) {
	if c, err := trustCheckers(config.Trust{}); err != nil || c != nil {
		t.Fatalf("no llm: %v %v", c, err)
	}
	t.Setenv("WARD_TEST_LLM_KEY", "sk-test-123")
	c, err := trustCheckers(config.Trust{Judge: config.LLMChecker, LLM: config.LLM{
		Endpoint: "http://127.0.0.1:1/v1", Model: "m", APIKeyEnv: "WARD_TEST_LLM_KEY", Timeout: time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c[config.LLMChecker]; !ok {
		t.Fatalf("checkers %v lack %q", c, config.LLMChecker)
	}
}
