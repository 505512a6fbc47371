package sqlite

import (
	"testing"

	"github.com/wardhq/ward/internal/knowledge"
)

// TestSignatureAttack: immune_signatures.attack keeps the names oracle's
// own attack enum gave it, "unknown" for knowledge.NoAttack.
func TestSignatureAttack(t *testing.T) {
	for _, tc := range []struct {
		a    knowledge.AttackType
		want string
	}{
		{knowledge.NoAttack, "unknown"},
		{knowledge.EmbeddingAnomaly, "embedding_anomaly"},
		{knowledge.ConfidenceInflation, "confidence_inflation"},
		{knowledge.ProvenanceForgery, "provenance_forgery"},
		{knowledge.ContentInjection, "content_injection"},
		{knowledge.CausalGraphPoisoning, "causal_graph_poisoning"},
	} {
		got, err := signatureAttack(tc.a)
		if err != nil || got != tc.want {
			t.Errorf("signatureAttack(%d) = %q, %v; want %q", tc.a, got, err, tc.want)
		}
		back, err := parseSignatureAttack([]byte(got))
		if err != nil || back != tc.a {
			t.Errorf("parseSignatureAttack(%q) = %d, %v; want %d", got, back, err, tc.a)
		}
	}
	if _, err := signatureAttack(knowledge.AttackType(99)); err == nil {
		t.Error("an out-of-range attack was encoded")
	}
	if _, err := parseSignatureAttack([]byte("semantic_contradiction")); err == nil {
		t.Error("an unknown attack name was decoded")
	}
}
