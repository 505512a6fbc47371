package daemon

import (
	"testing"
	"time"

	"github.com/wardhq/ward/internal/config"
)

// [grimoire.reasoning] reaches the reasoner as written: both providers,
// in order, and a provider ward cannot call is a configuration error.
func TestNewReasonerFromConfig(t *testing.T) {
	t.Setenv("WARD_TEST_REASONER_KEY", "sk-1")
	r, err := NewReasoner(config.Reasoning{K: 4, Threshold: 0.6, Providers: []config.LLM{
		{Endpoint: "http://127.0.0.1:8080/v1", Model: "a", APIKeyEnv: "WARD_TEST_REASONER_KEY", Timeout: time.Second},
		{Endpoint: "https://other.example/v1", Model: "b", Timeout: time.Second},
	}})
	if err != nil {
		t.Fatal(err)
	}
	ps := r.Providers()
	if len(ps) != 2 || ps[0].Endpoint != "http://127.0.0.1:8080/v1" || ps[0].Model != "a" || ps[1].Model != "b" || r.Threshold() != 0.6 {
		t.Errorf("providers %+v threshold %v", ps, r.Threshold())
	}
	if ps[0].APIKey != nil {
		t.Error("Providers hands out the key")
	}
	if _, err := NewReasoner(config.Reasoning{Providers: []config.LLM{{Endpoint: "ftp://x", Model: "a"}}}); err == nil {
		t.Error("an ftp endpoint is accepted")
	}
}
