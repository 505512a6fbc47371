package ingest

import (
	"context"
	"errors"
	"fmt"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/store"
)

// ErrNotPending is returned by Validate and Reject for a quarantined entry
// that passed or failed already.
var ErrNotPending = errors.New("quarantined entry already decided")

// ErrNoEntry is returned by Validate and Reject for an id the quarantine
// store does not hold.
var ErrNoEntry = errors.New("no such quarantined entry")

// pending loads the pending quarantined entry id and embeds its content.
func (p *Pipeline) pending(ctx context.Context, id string) (*subject, error) {
	q, err := p.cfg.Store.QuarantinedEntry(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrNoEntry
	}
	if err != nil {
		return nil, fmt.Errorf("ingest %s: %w", id, err)
	}
	if q.Status != store.QuarantinePending {
		return nil, ErrNotPending
	}
	vecs, err := p.grim.embed(ctx, []string{q.Entry.Content})
	if err != nil {
		return nil, fmt.Errorf("ingest %s: %w", id, err)
	}
	e := q.Entry
	return &subject{e: &e, vec: vecs[0], r: newReport(&e)}, nil
}

// Validate decides the pending quarantined entry id (one that Quarantine
// admitted, or that the oracle or immune memory held and a reviewer chose
// to validate): it runs Stage 1's content screens again, since a held entry
// skipped them, and then Stage 2, and adopts or rejects it.
func (p *Pipeline) Validate(ctx context.Context, id string) (*Report, error) {
	x, err := p.pending(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := p.revalidate(ctx, x); err != nil {
		return nil, err
	}
	return x.r, p.account(ctx, []*knowledge.Entry{x.e}, []*Report{x.r}, false)
}

func (p *Pipeline) revalidate(ctx context.Context, x *subject) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if f, ok := p.screen(x); !ok {
		return p.reject(ctx, x, f)
	}
	// Held or not when it was quarantined, an entry like one that Stage
	// 2 consensus alone rejected since is judged under scrutiny.
	if m, ok := p.cfg.Immune.Match(features(x.e, x.vec)); ok && consensusOnly(m.Reason) {
		x.r.Scores["immune_distance"] = float64(m.Distance)
		scrutinise(x, m)
	}
	_, err := p.validate(ctx, x, "")
	return err
}

// Reject decides the pending quarantined entry id as rejected by review
// (reason KNOWLEDGE_REJECTED), classified as attack, and remembers it in
// immune memory and the oracle when attack is set.
func (p *Pipeline) Reject(ctx context.Context, id string, attack knowledge.AttackType) (*Report, error) {
	if !attack.Valid() {
		return nil, fmt.Errorf("ingest: invalid attack type %d", attack)
	}
	x, err := p.pending(ctx, id)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	err = p.reject(ctx, x, fault{stage: StageStage2, layer: knowledge.LayerReview, attack: attack, code: reason.KnowledgeRejected, stored: true})
	p.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return x.r, p.account(ctx, []*knowledge.Entry{x.e}, []*Report{x.r}, false)
}

// Summary is the seed's ingestion report over the quarantine collection:
// how many entries were received, passed, failed and are pending, failures
// by attack type, and the accept rate of the decided ones.
type Summary struct {
	Agent      string         `json:"agent,omitempty"`
	Received   int            `json:"received"`
	Pending    int            `json:"pending"`
	Passed     int            `json:"passed"`
	Failed     int            `json:"failed"`
	ByAttack   map[string]int `json:"failures_by_attack,omitempty"`
	ByReason   map[string]int `json:"failures_by_reason,omitempty"`
	AcceptRate float64        `json:"accept_rate"`
	Grimoire   int            `json:"grimoire_entries"`
	// Source is agent's ingestion metrics and reputation (reputation.go),
	// the part of the report attached to reviews; Blacklisted lists the
	// blacklisted sources when no agent is given.
	Source      *SourceMetrics `json:"source,omitempty"`
	Blacklisted []string       `json:"blacklisted_sources,omitempty"`
}

// Summarise returns the ingestion report of agent's entries (every agent's
// when agent is empty) still held by the quarantine store, which keeps
// decided entries for the seed's 7-day audit retention.
func (p *Pipeline) Summarise(ctx context.Context, agent string) (*Summary, error) {
	qs, err := p.cfg.Store.ListQuarantined(ctx, store.QuarantineFilter{Agent: agent})
	if err != nil {
		return nil, fmt.Errorf("ingestion report: %w", err)
	}
	s := &Summary{Agent: agent, Received: len(qs), ByAttack: map[string]int{}, ByReason: map[string]int{}, Grimoire: p.grim.Len()}
	for _, q := range qs {
		switch q.Status {
		case store.QuarantinePending:
			s.Pending++
		case store.QuarantinePassed:
			s.Passed++
		case store.QuarantineFailed:
			s.Failed++
			if q.Attack != knowledge.NoAttack {
				s.ByAttack[q.Attack.String()]++
			}
			s.ByReason[q.Reason]++
		}
	}
	if d := s.Passed + s.Failed; d > 0 {
		s.AcceptRate = float64(s.Passed) / float64(d)
	}
	if agent == "" {
		s.Blacklisted = p.rep.blacklist()
	} else if m, ok := p.rep.get(agent); ok {
		s.Source = &m
	}
	return s, nil
}
