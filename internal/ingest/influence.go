package ingest

import (
	"container/list"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/knowledge"
)

// The gate's view of the dual memory (seed 001 §6.2): query_grimoire
// remembers, per session, the adopted external entries it returned; a
// write the session commits is tagged with them (A/B decision tracking,
// what causal rollback attributes a loss by); and every write the session
// previews first consults the lessons, with the sources of those entries
// among the facts, so that a lesson about a source applies when the agent
// is about to act on that source's knowledge.
const (
	// InfluenceWindow is how long an external entry the session retrieved
	// counts as influencing its decisions.
	InfluenceWindow = 24 * time.Hour
	// MaxInfluenceSessions is how many sessions' retrievals are kept; the
	// least recently active is forgotten first.
	MaxInfluenceSessions = 10_000
)

// influences is the per-session memory of retrieved external entries.
type influences struct {
	mu       sync.Mutex
	ll       *list.List // of *sessionInfluence, most recently active first
	bySess   map[string]*list.Element
	sessions int // capacity
}

type sessionInfluence struct {
	id      string
	entries []retrieved // oldest first, at most adopt.MaxInfluences, one per entry
}

type retrieved struct {
	in adopt.Influence
	at time.Time
}

func newInfluences(capacity int) *influences {
	return &influences{ll: list.New(), bySess: map[string]*list.Element{}, sessions: capacity}
}

// note records that session retrieved ins at at.
func (m *influences) note(session string, ins []adopt.Influence, at time.Time) {
	if session == "" || len(ins) == 0 {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	el, ok := m.bySess[session]
	if !ok {
		if m.ll.Len() >= m.sessions {
			last := m.ll.Back()
			delete(m.bySess, last.Value.(*sessionInfluence).id)
			m.ll.Remove(last)
		}
		el = m.ll.PushFront(&sessionInfluence{id: session})
		m.bySess[session] = el
	}
	m.ll.MoveToFront(el)
	s := el.Value.(*sessionInfluence)
	for _, in := range ins {
		for i := range s.entries {
			if s.entries[i].in.EntryID == in.EntryID {
				s.entries = append(s.entries[:i], s.entries[i+1:]...)
				break
			}
		}
		s.entries = append(s.entries, retrieved{in: in, at: at})
		if len(s.entries) > adopt.MaxInfluences {
			s.entries = s.entries[len(s.entries)-adopt.MaxInfluences:]
		}
	}
}

// of returns what influences session's decisions at now: the entries it
// retrieved in the InfluenceWindow before now, oldest first.
func (m *influences) of(session string, now time.Time) []adopt.Influence {
	m.mu.Lock()
	defer m.mu.Unlock()
	el, ok := m.bySess[session]
	if !ok {
		return nil
	}
	var out []adopt.Influence
	for _, r := range el.Value.(*sessionInfluence).entries {
		if d := now.Sub(r.at); d >= 0 && d < InfluenceWindow {
			out = append(out, r.in)
		}
	}
	return out
}

// QueryFor answers query_grimoire for session: JSON of the entries closest
// to q, and whether any is not the agent's own. The adopted external
// entries among them are reinforced (the Curator's stability) and
// remembered as influencing the session's decisions for InfluenceWindow.
func (p *Pipeline) QueryFor(ctx context.Context, session, q string, limit int) (json.RawMessage, bool, error) {
	hits, err := p.grim.Query(ctx, q, limit)
	if err != nil {
		return nil, false, err
	}
	now := p.cfg.Now()
	external := false
	var ids []string
	var ins []adopt.Influence
	for _, h := range hits {
		external = external || h.Partition != knowledge.PartitionSelf
		if h.Partition != knowledge.PartitionExternal {
			continue
		}
		ids = append(ids, h.ID)
		if k, ok := p.grim.Get(h.ID); ok {
			ins = append(ins, adopt.Influence{EntryID: h.ID, Provenance: k.Entry.Source.Provenance,
				Agent: strings.ToLower(k.Entry.Source.Agent), Confidence: h.Confidence})
		}
	}
	p.influence.note(session, ins, now)
	// Failing to record a reinforcement loses it, never the answer.
	if err := p.Retrieved(ctx, ids, now); err != nil {
		slog.Default().Warn("grimoire: recording retrievals", "err", err)
	}
	out, err := json.Marshal(map[string]any{"entries": hits})
	return out, external, err
}

// Influences returns the external entries that influence session's
// decision at now: those query_grimoire returned to it in the
// InfluenceWindow before now, at most adopt.MaxInfluences, oldest first.
func (p *Pipeline) Influences(session string, now time.Time) []adopt.Influence {
	return p.influence.of(session, now)
}

// ConsultLessons consults the lessons before session takes the action
// toolName with the given text (its canonical arguments and plan summary):
// the facts are the tool, the text, and the source agents and entry ids
// of the knowledge influencing the session. A match counts toward the
// lesson's promotion; a lesson it promotes is written to the PLAYBOOK.
// The matches are saved with the lessons; a failure to save is logged and
// the advice returned regardless.
func (p *Pipeline) ConsultLessons(ctx context.Context, session, toolName, text string, now time.Time) []adopt.Advice {
	var facts []string
	for _, in := range p.influence.of(session, now) {
		facts = append(facts, in.Agent, in.EntryID)
	}
	ms := p.lessons.Consult(adopt.Situation{Action: toolName, Conditions: facts, Text: text, At: now})
	if len(ms) == 0 {
		return nil
	}
	out := make([]adopt.Advice, len(ms))
	promoted := false
	for i, m := range ms {
		l := &m.Lesson
		out[i] = adopt.Advice{ID: l.ID, Summary: l.Summary, Advice: l.Advice, Reason: l.Reason, Confidence: l.Confidence}
		promoted = promoted || m.Promote
	}
	if err := p.saveLessons(ctx, now, promoted); err != nil {
		slog.Default().Warn("grimoire: saving lesson matches", "err", err)
	}
	return out
}

// saveLessons saves the lessons store and, when a lesson was just
// promoted, rewrites the PLAYBOOK.
func (p *Pipeline) saveLessons(ctx context.Context, now time.Time, promoted bool) error {
	var errs []error
	if promoted && p.cfg.Playbook != nil {
		if err := p.cfg.Playbook.Write(ctx, p.lessons.Promoted(now)); err != nil {
			errs = append(errs, err)
		}
	}
	if p.cfg.State != nil {
		if err := p.saveLessonState(ctx, now); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("ingest: %w", err)
	}
	return nil
}
