package ingest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/rollback"
	"github.com/wardhq/ward/internal/store"
)

// What causal rollback does to the Grimoire (seed 001, section 7).
const (
	// RollbackPenalty is the confidence each of the source's adopted
	// entries that stays loses (guilt by association, floor 0; regained
	// by independent confirmation).
	RollbackPenalty = 0.2
	// RollbackLessonConfidence is the confidence of the lesson a rollback
	// stores.
	RollbackLessonConfidence = 0.8
)

// RollbackAttack is the attack a rolled-back entry's immune signature
// records: knowledge whose use the decision found caused the agent's fall,
// which is what the seed's causal graph poisoning names, whatever its
// phrasing.
const RollbackAttack = knowledge.CausalGraphPoisoning

// ErrRollbackInput is wrapped by Rollback's errors for an unusable source
// or an Input rollback.Decide refuses (which also wraps rollback.ErrInvalid
// or rollback.ErrDegenerate).
var ErrRollbackInput = errors.New("invalid rollback input")

// Lowered is an adopted entry whose confidence a rollback lowered.
type Lowered struct {
	EntryID string  `json:"entry_id"`
	From    float64 `json:"from"`
	To      float64 `json:"to"`
}

// RollbackReport is what Rollback decided and did. When the decision keeps
// the knowledge, only Source, Decision and Playbook are set.
type RollbackReport struct {
	Source   string            `json:"source_agent"`
	Decision rollback.Decision `json:"decision"`
	// RolledBack are the entries moved back to quarantine as rolled_back
	// and out of the Grimoire; Lowered the source's other adopted
	// entries, RollbackPenalty lower.
	RolledBack []string  `json:"rolled_back,omitempty"`
	Lowered    []Lowered `json:"lowered,omitempty"`
	// Lesson is the id of the lesson stored; Reverted the lessons derived
	// from the rolled-back entries, removed with their PLAYBOOK
	// heuristics; Playbook says what happened to the PLAYBOOK.
	Lesson   string   `json:"lesson,omitempty"`
	Reverted []string `json:"reverted_heuristics,omitempty"`
	Playbook string   `json:"playbook"`
	// Notes are entries named by the decision records that were not
	// rolled back, and why.
	Notes      []string       `json:"notes,omitempty"`
	Reputation *SourceMetrics `json:"reputation,omitempty"`
}

// The Playbook values of a RollbackReport.
const (
	PlaybookUnchanged     = "unchanged"
	PlaybookRewritten     = "rewritten"
	PlaybookNotConfigured = "not configured: no PLAYBOOK revert"
)

// Rollback decides with rollback.Decide whether knowledge from the source
// agent caused the agent's performance to fall, and when it did, undoes
// it:
//
//   - the source's adopted entries that the decision records name
//     (Attribution.Entries; every adopted entry of the source when the
//     records name none) go back to quarantine as rolled_back and leave
//     the Grimoire, store and view;
//   - each rolled-back entry's immune signature is recorded (reason
//     KNOWLEDGE_ROLLED_BACK, attack RollbackAttack) and its content
//     flagged in the oracle, as a rejection's are, so a copy or a variant
//     is held in quarantine;
//   - the source's other adopted entries lose RollbackPenalty confidence;
//   - lessons derived from the rolled-back entries are removed and the
//     PLAYBOOK, if configured, rewritten without them;
//   - a lesson naming the source and the decision's reason is stored;
//   - the source's reputation takes β += the number rolled back;
//   - grimoire:causal_rollback is published.
//
// An entry is the source's when its signed source agent is, whatever the
// decision records claim. When the decision keeps the knowledge nothing
// changes. in.Source defaults to source and must otherwise equal it. It
// fails wrapping ErrRollbackInput for unusable input; on a store error it
// returns the report of what it did before.
func (p *Pipeline) Rollback(ctx context.Context, source string, in rollback.Input) (*RollbackReport, error) {
	source, in, err := rollbackInput(source, in)
	if err != nil {
		return nil, err
	}
	d, err := rollback.Decide(in)
	if err != nil {
		return nil, fmt.Errorf("ingest: rollback: %w: %w", ErrRollbackInput, err)
	}
	out := &RollbackReport{Source: source, Decision: d, Playbook: PlaybookUnchanged}
	if !d.Rollback {
		return out, nil
	}

	defer p.flushFleet(ctx) // after the unlock below: publishing never holds the decision lock
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.cfg.Now()
	back, rest, notes := p.rollbackTargets(source, d.Attribution.Entries)
	out.Notes = append(out.Notes, notes...)
	why := "rolled_back: " + d.Reason.String()
	if err := p.quarantineBack(ctx, out, back, why, now); err != nil {
		return out, err
	}
	if err := p.lowerRest(ctx, out, rest); err != nil {
		return out, err
	}
	promoted := p.revertLessons(out)
	if err := p.rollbackLesson(ctx, out, why, now); err != nil {
		return out, err
	}
	if err := p.rewritePlaybook(ctx, out, promoted, now); err != nil {
		return out, err
	}
	if err := p.settleRollback(ctx, out); err != nil {
		return out, err
	}
	return out, nil
}

// rollbackInput is source, normalised, and in naming it: in.Source
// defaults to source and must otherwise equal it.
func rollbackInput(source string, in rollback.Input) (string, rollback.Input, error) {
	source = strings.ToLower(strings.TrimSpace(source))
	switch {
	case source == "" || len(source) > knowledge.MaxID:
		return "", in, fmt.Errorf("ingest: rollback: %w: source agent of %d bytes", ErrRollbackInput, len(source))
	case in.Source == "":
		in.Source = source
	case !strings.EqualFold(strings.TrimSpace(in.Source), source):
		return "", in, fmt.Errorf("ingest: rollback: %w: the input names another source", ErrRollbackInput)
	}
	return source, in, nil
}

// rollbackTargets splits source's adopted external entries into those
// going back to quarantine (the named ones, or all when none is named)
// and the rest, in Grimoire order, with a note for each named entry that
// is not one of them. p.mu is held.
func (p *Pipeline) rollbackTargets(source string, named []string) (back, rest []Known, notes []string) {
	var mine []Known
	for _, k := range p.grim.All() {
		if k.Adoption != nil && k.Partition == knowledge.PartitionExternal && strings.EqualFold(k.Entry.Source.Agent, source) {
			mine = append(mine, k)
		}
	}
	for _, eid := range named {
		if !slices.ContainsFunc(mine, func(k Known) bool { return k.Entry.ID == eid }) {
			notes = append(notes, fmt.Sprintf("%.128s: not an adopted entry of the source", eid))
		}
	}
	for _, k := range mine {
		if len(named) == 0 || slices.Contains(named, k.Entry.ID) {
			back = append(back, k)
		} else {
			rest = append(rest, k)
		}
	}
	return back, rest, notes
}

// quarantineBack moves each entry of back to quarantine and remembers it
// as a rollback attack, reporting it in out. p.mu is held.
func (p *Pipeline) quarantineBack(ctx context.Context, out *RollbackReport, back []Known, why string, now time.Time) error {
	for _, k := range back {
		note, err := p.unadopt(ctx, k, why, now)
		if err != nil {
			return err
		}
		if note != "" {
			out.Notes = append(out.Notes, note)
		}
		out.RolledBack = append(out.RolledBack, k.Entry.ID)
		if err := p.remember(ctx, &subject{e: k.Entry, vec: k.Embedding}, reason.KnowledgeRolledBack, RollbackAttack); err != nil {
			return fmt.Errorf("ingest: rollback %s: remember: %w", k.Entry.ID, err)
		}
	}
	return nil
}

// lowerRest lowers the confidence of each entry of rest by
// RollbackPenalty (floor 0), durably, reporting it in out. p.mu is held.
func (p *Pipeline) lowerRest(ctx context.Context, out *RollbackReport, rest []Known) error {
	for _, k := range rest {
		rec := *k.Adoption
		from := rec.Confidence
		rec.Confidence = max(from-RollbackPenalty, 0)
		if err := p.cfg.Store.PutAdoption(ctx, &rec); err != nil {
			return fmt.Errorf("ingest: rollback: lower %s: %w", k.Entry.ID, err)
		}
		p.grim.setAdoption(rec, max(k.Confidence-RollbackPenalty, 0))
		out.Lowered = append(out.Lowered, Lowered{EntryID: k.Entry.ID, From: from, To: rec.Confidence})
	}
	return nil
}

// revertLessons removes the lessons drawn from the entries out rolled
// back, reporting them in out, and says whether one had been promoted.
// p.mu is held.
func (p *Pipeline) revertLessons(out *RollbackReport) (promoted bool) {
	for _, l := range p.lessons.List() {
		if l.EntryID != "" && slices.Contains(out.RolledBack, l.EntryID) {
			p.lessons.Remove(l.ID)
			out.Reverted = append(out.Reverted, l.ID)
			promoted = promoted || !l.Promoted.IsZero()
		}
	}
	slices.Sort(out.Reverted)
	return promoted
}

// rollbackLesson records the lesson of the rollback out reports (distrust
// the source), replacing the reverted ones. p.mu is held.
func (p *Pipeline) rollbackLesson(ctx context.Context, out *RollbackReport, why string, now time.Time) error {
	lesson := adopt.Lesson{
		ID: "rollback-" + id.New(now),
		Summary: fmt.Sprintf("causal rollback of knowledge from %s (%s): %d entries back to quarantine, %d lowered by %.1f",
			out.Source, out.Decision.Reason, len(out.RolledBack), len(out.Lowered), RollbackPenalty),
		Advice:     fmt.Sprintf("distrust knowledge from %s until independently confirmed", out.Source),
		Reason:     why,
		Keywords:   []string{out.Source},
		Confidence: RollbackLessonConfidence,
		Created:    now,
	}
	if len(out.RolledBack) > 0 {
		lesson.EntryID = out.RolledBack[0]
	}
	if err := p.addLesson(ctx, lesson, out.Reverted...); err != nil {
		return fmt.Errorf("ingest: rollback: lesson: %w", err)
	}
	out.Lesson = lesson.ID
	return nil
}

// rewritePlaybook rewrites the playbook from the promoted lessons when a
// reverted lesson had been promoted, and says in out what became of it.
// p.mu is held.
func (p *Pipeline) rewritePlaybook(ctx context.Context, out *RollbackReport, promoted bool, now time.Time) error {
	switch {
	case p.cfg.Playbook == nil:
		out.Playbook = PlaybookNotConfigured
	case promoted:
		if err := p.cfg.Playbook.Write(ctx, p.lessons.Promoted(now)); err != nil {
			return fmt.Errorf("ingest: rollback: playbook: %w", err)
		}
		out.Playbook = PlaybookRewritten
	}
	return nil
}

// settleRollback charges the rollback to the source's reputation
// (durably, and for the fleet), reports the reputation in out and
// publishes grimoire:causal_rollback. p.mu is held.
func (p *Pipeline) settleRollback(ctx context.Context, out *RollbackReport) error {
	p.rep.rolledBack(out.Source, len(out.RolledBack))
	if p.cfg.Fleet != nil {
		p.out.touched(out.Source)
	}
	if err := p.saveReputation(ctx); err != nil {
		return fmt.Errorf("ingest: rollback: %w", err)
	}
	if m, ok := p.rep.get(out.Source); ok {
		out.Reputation = &m
	}
	p.publish(nil, event.GrimoireCausalRollback, "", true, event.CausalRollback{Source: out.Source, Count: len(out.RolledBack),
		Reason: out.Decision.Reason.String(), Entries: slices.Clone(out.RolledBack)})
	return nil
}

// unadopt moves the adopted entry k back to quarantine as rolled_back and
// deletes it from the Grimoire. A row already rolled back (a rollback
// interrupted after this step) is not an error; nor is another row of the
// agent holding the same content, which keeps the content in quarantine:
// both come back as a note.
func (p *Pipeline) unadopt(ctx context.Context, k Known, why string, now time.Time) (string, error) {
	note := ""
	q := &store.QuarantinedEntry{Entry: *k.Entry, QuarantinedAt: k.Adoption.Adopted}
	err := p.cfg.Store.RollbackQuarantined(ctx, q, why, now)
	switch {
	case errors.Is(err, store.ErrQuarantineDecided):
		row, rerr := p.cfg.Store.QuarantinedEntry(ctx, k.Entry.ID)
		if rerr != nil || row.Status != store.QuarantineRolledBack {
			return "", fmt.Errorf("ingest: rollback %s: %w", k.Entry.ID, err)
		}
		note = k.Entry.ID + ": rolled back before"
	case errors.Is(err, store.ErrQuarantineExists):
		note = k.Entry.ID + ": its content is held in quarantine under another id"
	case err != nil:
		return "", fmt.Errorf("ingest: rollback %s: %w", k.Entry.ID, err)
	}
	if err := p.cfg.Store.DeleteEntry(ctx, k.Entry.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
		return "", fmt.Errorf("ingest: rollback %s: %w", k.Entry.ID, err)
	}
	p.grim.remove(k.Entry.ID)
	return note, nil
}
