package ingest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/store"
)

// Curation is what one Curate pass did.
type Curation struct {
	// Updates are the Curator's views of the records it kept: retention,
	// effective confidence, retrieval weight and reach (adopt.Cycle).
	Updates []adopt.Update `json:"updates"`
	// Pruned are the entries deleted from the store and the view, with why.
	Pruned []adopt.Prune `json:"pruned"`
}

// Curate runs one Curator cycle (adopt.Cycle) at now over the adoption
// records of the Grimoire view: it sets each kept entry's retention in the
// view, which weighs its retrieval (Grimoire.Query), and deletes each
// pruned entry (an external entry still pending at its TTL, or a record the
// Curator cannot reason about) from the store and the view, publishing
// grimoire:entry_pruned for it. Decay is never written back to a record, so
// a second pass at the same now changes nothing. Entries added by Seed have
// no record and are not curated.
//
// Curate holds the pipeline's decision lock, so no entry is adopted or
// confirmed during a pass. On a store error it returns what it did before.
func (p *Pipeline) Curate(ctx context.Context, now time.Time) (*Curation, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	updates, prunes := adopt.Cycle(now, p.grim.Adoptions())
	out := &Curation{Updates: updates}
	for _, u := range updates {
		p.grim.setRetention(u.ID, u.Retention)
	}
	for _, pr := range prunes {
		k, _ := p.grim.Get(pr.ID)
		if err := p.cfg.Store.DeleteEntry(ctx, pr.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
			return out, fmt.Errorf("curate: prune %s: %w", pr.ID, err)
		}
		p.grim.remove(pr.ID)
		out.Pruned = append(out.Pruned, pr)
		payload := prunedPayload{EntryID: pr.ID, Reason: pr.Reason.String()}
		if k.Entry != nil {
			payload.Source, payload.Agent = k.Entry.Source.Provenance.String(), strings.ToLower(k.Entry.Source.Agent)
		}
		p.publish(GrimoireEntryPruned, "", true, payload) // no reason code: the payload says why
	}
	return out, nil
}
