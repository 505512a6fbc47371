package ingest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/store"
)

// Curation is what one Curate pass did.
type Curation struct {
	// Updates are the Curator's views of the records it kept: retention,
	// effective confidence, retrieval weight and reach (adopt.Cycle).
	Updates []adopt.Update `json:"updates"`
	// Pruned are the entries deleted from the store and the view, with why.
	Pruned []adopt.Prune `json:"pruned"`
	// Swept are the lessons whose confidence had decayed to 0, removed
	// from the lessons and the State.
	Swept []string `json:"lessons_swept,omitempty"`
	// QuarantinePruned is how many passed or failed quarantine rows,
	// decided store.QuarantineRetention or longer before the pass, were
	// deleted. Pending and rolled-back rows are never pruned.
	QuarantinePruned int64 `json:"quarantine_pruned,omitempty"`
}

// Curate runs one Curator cycle (adopt.Cycle) at now over the adoption
// records of the Grimoire view: it sets each kept entry's retention in the
// view, which weighs its retrieval (Grimoire.Query), and deletes each
// pruned entry (an external entry still pending at its TTL, or a record the
// Curator cannot reason about) from the store and the view, publishing
// grimoire:entry_pruned for it. It then sweeps the lessons decayed to 0
// (rewriting the PLAYBOOK if one was a heuristic in it) and prunes the
// quarantine rows decided store.QuarantineRetention (7 days) or longer
// before now (store.Quarantine.PruneQuarantine). Decay is never
// written back to a record, so a second pass at the same now changes
// nothing. Entries added by Seed have no record and are not curated.
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
		payload := event.EntryPruned{EntryID: pr.ID, Reason: pr.Reason.String()}
		if k.Entry != nil {
			payload.Source, payload.Agent = k.Entry.Source.Provenance.String(), strings.ToLower(k.Entry.Source.Agent)
		}
		p.publish(nil, event.GrimoireEntryPruned, "", true, payload) // no reason code: the payload says why
	}
	swept, err := p.sweepLessons(ctx, now)
	out.Swept = swept
	if err != nil {
		return out, fmt.Errorf("curate: %w", err)
	}
	if out.QuarantinePruned, err = p.cfg.Store.PruneQuarantine(ctx, now); err != nil {
		return out, fmt.Errorf("curate: prune quarantine: %w", err)
	}
	return out, nil
}

// RetrievalSpacing is the least time between two retrievals of an entry
// that both count toward its stability: an agent querying in a loop
// reinforces nothing.
const RetrievalSpacing = time.Hour

// Retrieved records that the adopted external entries ids were returned to
// the agent at at (query_grimoire): each one's record counts a retrieval,
// which grows its stability by half (adopt.Retrieve), at most once per
// RetrievalSpacing. Entries of the agent's own knowledge and ids not in the
// view are ignored. The record is stored before the view changes.
func (p *Pipeline) Retrieved(ctx context.Context, ids []string, at time.Time) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, id := range ids {
		k, ok := p.grim.Get(id)
		if !ok || k.Adoption == nil || at.Sub(k.Adoption.LastRetrieved) < RetrievalSpacing {
			continue
		}
		rec := adopt.Retrieve(*k.Adoption, at)
		if err := p.cfg.Store.PutAdoption(ctx, &rec); err != nil {
			return fmt.Errorf("ingest: retrieval of %s: %w", id, err)
		}
		p.grim.setAdoption(rec, k.Confidence)
	}
	return nil
}
