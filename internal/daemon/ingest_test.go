package daemon

import (
	"testing"
	"time"

	"github.com/wardhq/ward/internal/ingest"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/quarantine"
)

// Stage 2's real layers: an entry that contradicts an established
// mechanic is rejected, one that agrees is adopted.
func TestStage2Layers(t *testing.T) {
	reg, err := quarantine.NewLocalRegistry()
	if err != nil {
		t.Fatal(err)
	}
	p, closeP, err := OpenIngest(t.Context(), IngestConfig{ChainID: 1, Registry: reg, Strictness: knowledge.Standard})
	if err != nil {
		t.Fatal(err)
	}
	defer closeP()
	sg := ingest.NewSigner(1, reg)
	now := time.Now().UTC().Truncate(time.Second)
	entry := func(id, content string) *knowledge.Entry {
		e := &knowledge.Entry{ID: id, Content: content, Type: knowledge.TypeInsight, Confidence: 0.3,
			Source: knowledge.Source{Provenance: knowledge.Purchased, Timestamp: now}}
		if err := sg.Sign(e, "seller"); err != nil {
			t.Fatal(err)
		}
		return e
	}
	for _, c := range []struct {
		id, content string
		want        ingest.Verdict
	}{
		{"agree", "Higher utilization increases the borrow rate on lending markets.", ingest.Adopted},
		{"contradict", "Higher utilization decreases the borrow rate on lending markets.", ingest.Rejected},
	} {
		r, err := p.Ingest(t.Context(), entry(c.id, c.content))
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != c.want {
			t.Errorf("%s: %s at %s/%s %v, want %s", c.id, r.Verdict, r.Stage, r.Layer, r.Reasons, c.want)
		}
	}
}
