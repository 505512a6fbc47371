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
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/store"
)

// adopt moves x, which passed consensus, into the Grimoire's external
// partition at rec's confidence and stores rec with it.
func (p *Pipeline) adopt(ctx context.Context, x *subject, passed []string, rec adopt.Record, now time.Time) error {
	e, r := x.e, x.r
	if err := p.cfg.Store.SetQuarantineStatus(ctx, e.ID, store.QuarantinePassed, string(reason.KnowledgeAdopted), knowledge.NoAttack, now); err != nil {
		return fmt.Errorf("ingest %s: pass: %w", e.ID, err)
	}
	p.publish(x.log, event.GrimoireValidationPassed, reason.KnowledgeAdopted, true, event.ValidationPassed{EntryID: e.ID, LayersPassed: slices.Clone(passed), Score: meanScore(r, passed)})
	if err := p.cfg.Store.PutEntry(ctx, &store.GrimoireEntry{Entry: *e, Partition: knowledge.PartitionExternal, Created: now, Adoption: &rec}); err != nil {
		return fmt.Errorf("ingest %s: adopt: %w", e.ID, err)
	}
	conf := rec.Confidence
	if p.clade.rejected(e.ID) {
		conf = CladeRejectedConfidence
	}
	if err := p.grim.add(e, x.vec, knowledge.PartitionExternal, conf, &rec); err != nil {
		return fmt.Errorf("ingest %s: %w", e.ID, err)
	}
	p.grim.observe([]string{e.Content})
	p.publish(x.log, event.GrimoireEntryAdopted, reason.KnowledgeAdopted, true, event.EntryAdopted{EntryID: e.ID, InitialConfidence: conf,
		Partition: knowledge.PartitionExternal.String(), ValidationStatus: rec.Status.String(), Expires: rec.Expires})
	r.Verdict, r.Stage, r.Code, r.Confidence = Adopted, StageAdopt, reason.KnowledgeAdopted, conf
	r.InitialConfidence, r.ValidationStatus, r.Expires = rec.Confidence, rec.Status.String(), rec.Expires
	r.Reasons = []string{string(reason.KnowledgeAdopted), votesPassed(passed)}
	return nil
}

// confirm decides x, which passed consensus and repeats the adopted entry
// k (same content hash, or same structured claim): it is evidence for k
// (adopt.Confirm, whose credit follows seed 6.1b: identical content and
// the same agent earn nothing, a shared on-chain anchor half), not a new
// entry. Its quarantine row passes; k's updated record is stored and k's
// confidence in the view follows it (unless the clade rejected k).
func (p *Pipeline) confirm(ctx context.Context, x *subject, passed []string, k Known, now time.Time) error {
	e := x.e
	rec, credit, err := adopt.Confirm(*k.Adoption, adopt.ConfirmationFrom(e, now))
	full := errors.Is(err, adopt.ErrInvalid) && len(k.Adoption.Confirmations) >= adopt.MaxConfirmations
	if err != nil && !full {
		return fmt.Errorf("ingest %s: confirm %s: %w", e.ID, k.Entry.ID, err)
	}
	if err := p.cfg.Store.SetQuarantineStatus(ctx, e.ID, store.QuarantinePassed, string(reason.KnowledgeAdopted)+" (confirms "+k.Entry.ID+")", knowledge.NoAttack, now); err != nil {
		return fmt.Errorf("ingest %s: pass: %w", e.ID, err)
	}
	p.publish(x.log, event.GrimoireValidationPassed, reason.KnowledgeAdopted, true, event.ValidationPassed{EntryID: e.ID, LayersPassed: slices.Clone(passed), Score: meanScore(x.r, passed)})
	if !full {
		if err := p.cfg.Store.PutAdoption(ctx, &rec); err != nil {
			return fmt.Errorf("ingest %s: confirm %s: %w", e.ID, k.Entry.ID, err)
		}
	}
	conf := rec.Confidence
	if p.clade.rejected(k.Entry.ID) {
		conf = k.Confidence
	}
	p.grim.setAdoption(rec, conf)
	if k.Adoption.Status != adopt.Confirmed && rec.Status == adopt.Confirmed {
		p.rep.confirmed(k.Entry.Source.Agent)
	}
	p.publish(x.log, event.GrimoireEntryConfirmed, reason.KnowledgeAdopted, true, event.EntryConfirmed{EntryID: e.ID, Confirms: k.Entry.ID,
		Credit: credit.String(), Confidence: conf, ValidationStatus: rec.Status.String(), Validations: rec.Validations})
	confirmed(x.r, passed, k, rec, credit, conf, full)
	return nil
}

// confirmed fills in the report of an entry that confirms k.
func confirmed(r *Report, passed []string, k Known, rec adopt.Record, credit adopt.Credit, conf float64, full bool) {
	r.Verdict, r.Stage, r.Code, r.Confidence = Confirmed, StageAdopt, reason.KnowledgeAdopted, conf
	r.InitialConfidence, r.ValidationStatus, r.Expires = k.Adoption.Confidence, rec.Status.String(), rec.Expires
	r.Confirms, r.Credit = k.Entry.ID, credit.String()
	r.Scores["credit_weight"] = credit.Weight()
	r.Reasons = []string{string(reason.KnowledgeAdopted), votesPassed(passed),
		fmt.Sprintf("repeats adopted entry %s: a %s confirmation, its confidence %.3f to %.3f", k.Entry.ID, credit, k.Adoption.Confidence, rec.Confidence)}
	if full {
		r.Reasons[2] = fmt.Sprintf("repeats adopted entry %s, whose confirmation log is full (%d)", k.Entry.ID, adopt.MaxConfirmations)
	}
}

// votesPassed says which layers passed an entry.
func votesPassed(passed []string) string {
	return fmt.Sprintf("%d of %d votes passed (%s)", len(passed), knowledge.Validators, strings.Join(passed, ", "))
}

func meanScore(r *Report, passed []string) float64 {
	score := 0.0
	for _, l := range passed {
		score += r.Scores[l]
	}
	return score / float64(len(passed))
}
