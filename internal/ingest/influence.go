package ingest

import (
	"container/list"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/store"
)

// The gate's view of the dual memory (seed 001 §6.2): query_grimoire
// remembers, per session, the adopted external entries it returned; a
// write the session commits is tagged with them (A/B decision tracking,
// what causal rollback attributes a loss by); and every write the session
// previews first consults the lessons, with the sources of those entries
// among the facts, so that a lesson about a source applies when the agent
// is about to act on that source's knowledge.
//
// With a State, the retrievals are saved as they happen (one row per
// session and entry: store.Influences, which keeps a session's
// adopt.MaxInfluences most recent and forgets them after InfluenceWindow)
// before the session's answer returns, and Restore reloads them.
const (
	// InfluenceWindow is how long an external entry the session retrieved
	// counts as influencing its decisions.
	InfluenceWindow = store.InfluenceWindow
	// MaxInfluenceSessions is how many sessions' retrievals are kept in
	// memory; the least recently active is forgotten first.
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
	if session != "" && len(ins) > 0 && p.cfg.State != nil {
		if err := p.cfg.State.NoteInfluences(context.WithoutCancel(ctx), session, ins, now); err != nil {
			return nil, false, fmt.Errorf("ingest: record the session's retrievals: %w", err)
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
// lesson's promotion; a lesson it promotes is written to the PLAYBOOK,
// after the matched lessons are saved to the State. A failure to save is
// logged and the advice returned regardless.
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
	for i, m := range ms {
		l := &m.Lesson
		out[i] = adopt.Advice{ID: l.ID, Summary: l.Summary, Advice: l.Advice, Reason: l.Reason, Confidence: l.Confidence}
	}
	// The advice stands whether or not its matches are saved: a failure
	// is logged, and the next match saves the lesson again.
	if err := p.saveLessons(ctx, ms, now); err != nil {
		slog.Default().Warn("grimoire: saving lesson matches", "err", err)
	}
	return out
}

// saveLessons saves the lessons matched (ms; Consult made them the most
// recently used) and, when one was just promoted, rewrites the PLAYBOOK.
func (p *Pipeline) saveLessons(ctx context.Context, ms []adopt.Match, now time.Time) error {
	promoted := false
	for _, m := range ms {
		promoted = promoted || m.Promote
	}
	if p.cfg.State != nil {
		matched := map[string]bool{}
		for _, m := range ms {
			matched[m.Lesson.ID] = true
		}
		var used []adopt.Lesson // least recently used first, as saved
		for _, l := range p.lessons.List() {
			if matched[l.ID] {
				used = append(used, l)
			}
		}
		slices.Reverse(used)
		if err := p.cfg.State.SaveLessons(context.WithoutCancel(ctx), used, nil); err != nil {
			return fmt.Errorf("ingest: save lesson matches: %w", err)
		}
	}
	if promoted && p.cfg.Playbook != nil {
		if err := p.cfg.Playbook.Write(ctx, p.lessons.Promoted(now)); err != nil {
			return fmt.Errorf("ingest: %w", err)
		}
	}
	return nil
}

// loadInfluences notes in memory the retrievals the State holds from the
// last InfluenceWindow, each session's in order, the sessions in the
// order they were last active.
func (p *Pipeline) loadInfluences(ctx context.Context) error {
	ins, err := p.cfg.State.InfluencesSince(ctx, p.cfg.Now().Add(-InfluenceWindow))
	if err != nil {
		return fmt.Errorf("influences: %w", err)
	}
	sessions := map[string]time.Time{} // the latest retrieval of each
	for _, in := range ins {
		if in.At.After(sessions[in.Session]) {
			sessions[in.Session] = in.At
		}
	}
	order := slices.SortedFunc(maps.Keys(sessions), func(a, b string) int {
		if c := sessions[a].Compare(sessions[b]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	bySession := map[string][]store.Influence{}
	for _, in := range ins {
		bySession[in.Session] = append(bySession[in.Session], in)
	}
	for _, sess := range order { // the least recently active first: the last is the most recent
		for _, in := range bySession[sess] {
			p.influence.note(sess, []adopt.Influence{in.Influence}, in.At)
		}
	}
	return nil
}
