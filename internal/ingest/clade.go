package ingest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/quarantine"
	"github.com/wardhq/ward/internal/store"
)

// Intra-clade poisoning defense (seed 001 §9). A member of the operator's
// clade (Config.Clade) whom Members trusts above quarantine.TrustedMember
// is a trusted member: its clade entries still pass the oracle, immune
// memory, Stage 1, L2 and L3, but skip L1 and the sandbox. A member at or
// below it, a member of another clade and anyone else get every stage.
//
// Stigmergic hygiene: the members of the clade report their own
// validation of a shared entry through CladeVerdict; once CladeRejections
// of them reject it, the adopted entry drops to CladeRejectedConfidence.
// Each rejected share (an entry rejected here for an attack, or by the
// clade) costs its sharer SharePenalty of trust.

// Members is the clade membership the pipeline consults:
// quarantine.LocalRegistry today, the on-chain registry later.
type Members interface {
	// Member returns address's membership; false if it has none.
	Member(address string) (quarantine.Member, bool)
	// Demote lowers address's confidence by by (floor 0) and returns the
	// new confidence; false if address is not a member.
	Demote(address string, by float64) (float64, bool)
}

var _ Members = (*quarantine.LocalRegistry)(nil)

// Stigmergic hygiene parameters.
const (
	// CladeRejections is how many members' rejections drop an entry
	// (seed: "rejected by >= 3 of 5 members").
	CladeRejections = 3
	// CladeRejectedConfidence is the near-zero confidence of an entry the
	// clade rejected.
	CladeRejectedConfidence = 0.01
	// SharePenalty is the trust a member loses per rejected share.
	SharePenalty = 0.1
	// maxCladeTallies bounds the entries whose verdicts are remembered;
	// the oldest is forgotten first.
	maxCladeTallies = 10_000
)

// ErrNotMember is returned by CladeVerdict for a member that is not in the
// operator's clade.
var ErrNotMember = errors.New("not a member of the operator's clade")

// ErrOwnShare is returned by CladeVerdict when the member judging an entry
// is the one who shared it.
var ErrOwnShare = errors.New("a member cannot judge its own share")

// CladeTally is where the clade's verdicts on an entry stand.
type CladeTally struct {
	EntryID    string `json:"entry_id"`
	Rejections int    `json:"rejections"`
	Approvals  int    `json:"approvals"`
	// Dropped reports that CladeRejections members rejected the entry:
	// adopted, it is now at CladeRejectedConfidence.
	Dropped bool `json:"dropped"`
	// Confidence is the adopted entry's confidence in the Grimoire view;
	// 0 if it is not adopted.
	Confidence float64 `json:"confidence"`
	// SharerConfidence is the sharer's intra-clade trust after this
	// verdict; -1 if the sharer is not a member.
	SharerConfidence float64 `json:"sharer_confidence"`
}

// cladeBook keeps the clade's verdicts per entry id. The Pipeline's mutex
// guards it.
type cladeBook struct {
	tallies map[string]*tally
	order   []string // entry ids, oldest first
}

type tally struct {
	votes     map[string]bool // member address (lower case) → rejected
	penalised bool            // the sharer has paid for this share
}

func newCladeBook() cladeBook { return cladeBook{tallies: map[string]*tally{}} }

func (b *cladeBook) get(id string) *tally {
	if t, ok := b.tallies[id]; ok {
		return t
	}
	if len(b.order) >= maxCladeTallies {
		delete(b.tallies, b.order[0])
		b.order = slices.Delete(b.order, 0, 1)
	}
	t := &tally{votes: map[string]bool{}}
	b.tallies[id] = t
	b.order = append(b.order, id)
	return t
}

// rejected reports whether CladeRejections members rejected the entry id.
func (b *cladeBook) rejected(id string) bool {
	t, ok := b.tallies[id]
	if !ok {
		return false
	}
	n := 0
	for _, rej := range t.votes {
		if rej {
			n++
		}
	}
	return n >= CladeRejections
}

// trusted reports whether e comes from a trusted member of the operator's
// clade, noting the member's confidence and the flag in r.
func (p *Pipeline) trusted(e *knowledge.Entry, r *Report) bool {
	if p.cfg.Members == nil || p.cfg.Clade == "" || e.Source.Provenance != knowledge.Clade {
		return false
	}
	m, ok := p.cfg.Members.Member(e.Source.Agent)
	if !ok {
		return false
	}
	r.Scores["member_confidence"] = m.Confidence
	if m.Clade != p.cfg.Clade || (e.Source.CladeID != "" && e.Source.CladeID != p.cfg.Clade) || !(m.Confidence > quarantine.TrustedMember) {
		return false
	}
	if !slices.Contains(r.Flags, FlagTrustedMember) {
		r.Flags = append(r.Flags, FlagTrustedMember)
	}
	return true
}

// rejectedShare charges the sharer of a clade entry rejected for an attack,
// once per entry.
func (p *Pipeline) rejectedShare(e *knowledge.Entry, r *Report) {
	if e.Source.Provenance != knowledge.Clade || p.cfg.Members == nil {
		return
	}
	t := p.clade.get(e.ID)
	if t.penalised {
		return
	}
	if c, ok := p.cfg.Members.Demote(e.Source.Agent, SharePenalty); ok {
		t.penalised = true
		r.Scores["sharer_confidence"] = c
	}
}

// CladeVerdict records that member (an address of the operator's clade)
// validated the entry id and rejected it or not; a member's later verdict
// replaces its earlier one. When CladeRejections members have rejected the
// entry, its confidence in the Grimoire view drops to
// CladeRejectedConfidence (now if it is adopted, else when it is), and its
// sharer loses SharePenalty of trust, once. The drop lives in the view: reloading the
// Grimoire from the store restores the initial confidence.
//
// It fails with ErrNotMember for a member outside the operator's clade,
// ErrOwnShare for the entry's own sharer, and ErrNoEntry for an id neither
// the Grimoire view nor the quarantine store holds.
func (p *Pipeline) CladeVerdict(ctx context.Context, entryID, member string, rejected bool) (*CladeTally, error) {
	if p.cfg.Members == nil || p.cfg.Clade == "" {
		return nil, ErrNotMember
	}
	if m, ok := p.cfg.Members.Member(member); !ok || m.Clade != p.cfg.Clade {
		return nil, ErrNotMember
	}
	var sharer string
	if k, ok := p.grim.Get(entryID); ok {
		sharer = k.Entry.Source.Agent
	} else {
		q, err := p.cfg.Store.QuarantinedEntry(ctx, entryID)
		if errors.Is(err, store.ErrNotFound) {
			return nil, ErrNoEntry
		}
		if err != nil {
			return nil, fmt.Errorf("clade verdict on %s: %w", entryID, err)
		}
		sharer = q.Entry.Source.Agent
	}
	if strings.EqualFold(sharer, member) {
		return nil, ErrOwnShare
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	t := p.clade.get(entryID)
	t.votes[strings.ToLower(member)] = rejected
	out := &CladeTally{EntryID: entryID, SharerConfidence: -1}
	for _, rej := range t.votes {
		if rej {
			out.Rejections++
		} else {
			out.Approvals++
		}
	}
	if out.Rejections >= CladeRejections {
		out.Dropped = p.grim.setConfidence(entryID, CladeRejectedConfidence)
		if !t.penalised {
			if _, ok := p.cfg.Members.Demote(sharer, SharePenalty); ok {
				t.penalised = true
			}
		}
	}
	if k, ok := p.grim.Get(entryID); ok {
		out.Confidence = k.Confidence
	}
	if m, ok := p.cfg.Members.Member(sharer); ok {
		out.SharerConfidence = m.Confidence
	}
	return out, nil
}

// setConfidence sets the confidence of the entry id in the view; false if
// the view does not hold it.
func (g *Grimoire) setConfidence(id string, c float64) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	k, ok := g.items[id]
	if !ok {
		return false
	}
	n := *k
	n.Confidence = c
	g.items[id] = &n
	return true
}
