package adopt

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/knowledge"
)

// MaxInfluences is the most external entries one Decision records.
const MaxInfluences = 64

// Influence is one external entry that influenced a decision, with the
// confidence it had then.
type Influence struct {
	EntryID    string               `json:"entry_id"`
	Provenance knowledge.Provenance `json:"provenance"`
	Agent      string               `json:"agent"` // the entry's source agent, lower-case
	Confidence float64              `json:"confidence"`
}

// Decision ties a decision of the agent to the external entries that
// influenced it (seed 6.2, A/B decision tracking); causal rollback reads
// it to attribute a loss to a source.
type Decision struct {
	ID         string      `json:"id"`
	At         time.Time   `json:"at"`
	Influences []Influence `json:"influences,omitempty"`
}

// Tag returns the decision id made at at under the influence of used:
// every external record among them is recorded with its confidence then
// (self-generated knowledge is not an influence to attribute), once per
// entry, in the order given. It refuses an empty id and more than
// MaxInfluences external records; a decision with no external influence
// is valid and records none.
func Tag(id string, at time.Time, used []Record) (Decision, error) {
	if id == "" {
		return Decision{}, fmt.Errorf("adopt: tag: %w: empty decision id", ErrInvalid)
	}
	d := Decision{ID: id, At: at}
	for i := range used {
		r := &used[i]
		if !r.Provenance.External() || slices.ContainsFunc(d.Influences, func(in Influence) bool { return in.EntryID == r.ID }) {
			continue
		}
		if len(d.Influences) == MaxInfluences {
			return Decision{}, fmt.Errorf("adopt: tag %.128s: %w: more than %d external influences", id, ErrInvalid, MaxInfluences)
		}
		d.Influences = append(d.Influences, Influence{EntryID: r.ID, Provenance: r.Provenance, Agent: r.Agent, Confidence: r.Confidence})
	}
	return d, nil
}

// Influenced returns the decisions among ds that an entry from the source
// agent influenced, in their order. Addresses compare case-insensitively;
// an empty agent influenced nothing.
func Influenced(ds []Decision, agent string) []Decision {
	if agent == "" {
		return nil
	}
	var out []Decision
	for _, d := range ds {
		if slices.ContainsFunc(d.Influences, func(in Influence) bool { return strings.EqualFold(in.Agent, agent) }) {
			out = append(out, d)
		}
	}
	return out
}
