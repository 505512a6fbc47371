package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/knowledge"
)

// RejectionLessonConfidence is the confidence of the lesson a rejection
// leaves: below a rollback's or a sandbox breach's (0.8), because a
// rejection stopped the entry before it could do harm and, unlike them, may
// be a false positive.
const RejectionLessonConfidence = 0.5

// rejectionLessonID is the id of the lesson of rejections of agent's
// entries for code: one lesson per source and reason, which each new
// rejection refreshes, so a source cannot fill the lessons store with its
// rejections.
func rejectionLessonID(agent, code string) string {
	h := sha256.Sum256([]byte(strings.ToLower(agent) + "\x00" + code))
	return "reject-" + hex.EncodeToString(h[:8])
}

// teaches reports whether a rejection for f leaves a lesson: every one
// whose source is established (its provenance holds and it is not a
// replay). A lesson keyed on an unverified source would let anyone write
// lessons against a genuine agent by posting unsigned or replayed copies,
// as it would for immune memory (see the package comment).
func (f *fault) teaches() bool {
	return f.layer != knowledge.LayerProvenance && f.layer != knowledge.LayerReplay && f.lesson == ""
}

// rejectionLesson stores the lesson of x's rejection for f, keyed on its
// source and reason (rejectionLessonID): a lesson already there keeps its
// creation, matches and promotion, and its confidence unless lower than
// RejectionLessonConfidence, and becomes the most recently used. It
// returns the lesson's id, or "" when the rejection makes no valid lesson
// (an entry without a source agent); an error if it could not be saved.
func (p *Pipeline) rejectionLesson(ctx context.Context, x *subject, f fault) (string, error) {
	now := p.cfg.Now()
	agent := strings.ToLower(x.e.Source.Agent)
	where := failedLayer(f.stage, f.layer)
	l := adopt.Lesson{
		ID:         rejectionLessonID(agent, string(f.code)),
		Summary:    fmt.Sprintf("knowledge from %s was rejected at %s (%s); latest: entry %s", agent, where, f.code, x.e.ID),
		Advice:     fmt.Sprintf("check knowledge from %s independently before acting on it", agent),
		Reason:     string(f.code),
		EntryID:    x.e.ID,
		Keywords:   []string{agent},
		Confidence: RejectionLessonConfidence,
		Created:    now,
		Touched:    now,
	}
	if old, ok := p.lessons.Get(l.ID); ok {
		l.Created, l.Matches, l.Promoted = old.Created, old.Matches, old.Promoted
		l.Confidence = max(l.Confidence, old.ConfidenceAt(now))
	}
	if err := p.addLesson(ctx, l); errors.Is(err, adopt.ErrInvalid) {
		return "", nil
	} else if err != nil {
		return "", err
	}
	return l.ID, nil
}

// addLesson adds l to the lessons, and to the State, if any, with the
// removal of the lessons remove names and of the one l evicts. On a
// failure to save, l is not added.
func (p *Pipeline) addLesson(ctx context.Context, l adopt.Lesson, remove ...string) error {
	evicted, err := p.lessons.Add(l)
	if err != nil {
		return err
	}
	if evicted != "" {
		remove = append(remove, evicted)
	}
	if p.cfg.State == nil {
		return nil
	}
	added, ok := p.lessons.Get(l.ID)
	if !ok {
		return nil
	}
	if err := p.cfg.State.SaveLessons(context.WithoutCancel(ctx), []adopt.Lesson{added}, remove); err != nil {
		p.lessons.Remove(l.ID)
		return err
	}
	return nil
}

// sweepLessons removes the lessons decayed to 0 by now (adopt.Lessons.Sweep)
// from the lessons and the State, if any, and rewrites the PLAYBOOK, if
// configured, when one of them was a heuristic in it. It returns their ids.
func (p *Pipeline) sweepLessons(ctx context.Context, now time.Time) ([]string, error) {
	promoted := map[string]bool{}
	for _, l := range p.lessons.Promoted(now) {
		promoted[l.ID] = true
	}
	swept := p.lessons.Sweep(now)
	if len(swept) == 0 {
		return nil, nil
	}
	if p.cfg.State != nil {
		if err := p.cfg.State.SaveLessons(context.WithoutCancel(ctx), nil, swept); err != nil {
			return swept, fmt.Errorf("sweep lessons: %w", err)
		}
	}
	for _, id := range swept {
		if promoted[id] && p.cfg.Playbook != nil {
			if err := p.cfg.Playbook.Write(ctx, p.lessons.Promoted(now)); err != nil {
				return swept, fmt.Errorf("sweep lessons: playbook: %w", err)
			}
			break
		}
	}
	return swept, nil
}

// Lessons returns the pipeline's lessons store. A lesson added through it
// directly reaches the State only when a consultation matches it.
func (p *Pipeline) Lessons() *adopt.Lessons { return p.lessons }

// loadLessons replaces the lessons with those the State holds.
func (p *Pipeline) loadLessons(ctx context.Context) error {
	ls, err := p.cfg.State.Lessons(ctx)
	if err != nil {
		return fmt.Errorf("lessons: %w", err)
	}
	if err := p.lessons.Replace(ls); err != nil {
		return fmt.Errorf("lessons: %w", err)
	}
	return nil
}
