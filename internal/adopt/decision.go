package adopt

import "github.com/wardhq/ward/internal/knowledge"

// MaxInfluences is the most external entries one decision records: a
// session's most recent retrievals.
const MaxInfluences = 64

// Influence is one external entry that influenced a decision, with the
// confidence it had then.
type Influence struct {
	EntryID    string               `json:"entry_id"`
	Provenance knowledge.Provenance `json:"provenance"`
	Agent      string               `json:"agent"` // the entry's source agent, lower-case
	Confidence float64              `json:"confidence"`
}
