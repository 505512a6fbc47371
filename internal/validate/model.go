package validate

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/wardhq/ward/internal/knowledge"
)

// Model is one established mechanic L3b checks candidates against:
// Subject Relation Object, under Conditions. For the directional relations
// ("increases", "decreases") Subject and Object are the quantities;
// "requires", "implies" and "bounded_by" read as Subject requires Object and
// so on.
type Model struct {
	Statement  string   `json:"statement"`
	Subject    string   `json:"subject"`
	Relation   string   `json:"relation"`
	Object     string   `json:"object"`
	Conditions []string `json:"conditions,omitempty"`

	parsed *keyed // set by LoadModels
}

// ErrModel is wrapped by every error LoadModels returns for a bad line.
var ErrModel = errors.New("invalid mental model")

//go:embed models.jsonl
var shippedModels string

var shipped = sync.OnceValues(func() ([]Model, error) {
	return LoadModels(strings.NewReader(shippedModels))
})

// ShippedModels returns the generic DeFi mechanics ward ships (lending,
// AMMs, gas, derivatives, oracles), parsed once. The slice is shared: do not
// modify it. An error means the embedded file is defective (the tests load
// it).
func ShippedModels() ([]Model, error) { return shipped() }

// ReadModelsFile reads a file of mental models (see LoadModels); errors
// name the file.
func ReadModelsFile(path string) ([]Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ms, err := LoadModels(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ms, nil
}

// LoadModels reads mental models as JSON Lines, one Model per line; blank
// lines and lines starting with # are ignored. Every model needs a
// statement, subject, object and one of the relations increases, decreases,
// requires, implies, bounded_by. An error names the line and wraps ErrModel
// (or the reader's error).
func LoadModels(r io.Reader) ([]Model, error) {
	var out []Model
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var m Model
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&m); err != nil {
			return nil, fmt.Errorf("line %d: %w: %v", n, ErrModel, err)
		}
		switch {
		case strings.TrimSpace(m.Statement) == "":
			return nil, fmt.Errorf("line %d: %w: statement is empty", n, ErrModel)
		case strings.TrimSpace(m.Subject) == "" || strings.TrimSpace(m.Object) == "":
			return nil, fmt.Errorf("line %d: %w: subject and object are required", n, ErrModel)
		}
		switch m.Relation {
		case RelIncreases, RelDecreases, RelRequires, RelImplies, RelBoundedBy:
		default:
			return nil, fmt.Errorf("line %d: %w: relation %q is not one of increases, decreases, requires, implies, bounded_by", n, ErrModel, m.Relation)
		}
		k := key(m.claim())
		m.parsed = &k
		out = append(out, m)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read mental models: %w", err)
	}
	return out, nil
}

func (m Model) keyed() keyed {
	if m.parsed != nil {
		return *m.parsed
	}
	return key(m.claim())
}

func (m Model) claim() Claim {
	c := Claim{Subject: phrase(m.Subject), Relation: m.Relation, Object: phrase(m.Object), Conditions: m.Conditions}
	switch m.Relation {
	case RelIncreases:
		c.Direction = 1
	case RelDecreases:
		c.Direction = -1
	}
	return c
}

// Consistency is Layer 3b: it fails a candidate with a claim that
// contradicts a mental model — the same subject and object (fuzzy match on
// word stems) with the opposite direction, or the denial of a model's requirement,
// implication or bound. The seed makes this a vote, not a veto: models can be
// wrong for novel conditions, so a contradiction under conditions the model
// does not name scores 0.6 and an unconditional one 0.9. Reasons quote the
// model's statement.
func Consistency(c Candidate, models []Model) Vote {
	v := Vote{Layer: knowledge.LayerConsistency, Pass: true}
	for _, cl := range keyAll(c.claims()) {
		for _, m := range models {
			mc := m.keyed()
			if !contradicts(cl, mc) {
				continue
			}
			score := 0.9
			if len(cl.Conditions) > 0 && len(mc.Conditions) == 0 {
				score = 0.6
			}
			v.Score = max(v.Score, score)
			v.Reasons = append(v.Reasons, fmt.Sprintf("contradicts mental model %q: claim %s", m.Statement, cl.Claim))
		}
	}
	v.Pass = v.Score < FailScore
	return v
}
