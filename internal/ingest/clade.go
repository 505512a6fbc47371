package ingest

import (
	"context"
	"errors"
	"fmt"
	"maps"
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
// clade) costs its sharer SharePenalty of trust, once.
//
// With a State, every vote and every demotion is saved (store.Clade)
// before the pipeline or Members act on it, and the State's answer decides
// whether a sharer was demoted for a share already, so that neither a
// restart nor a second process demotes twice; Restore reloads the votes
// and applies the demotions and drops again.

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
	maxCladeTallies = store.MaxCladeEntries
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
	return ok && t.rejections() >= CladeRejections
}

// rejections counts the members who rejected the entry.
func (t *tally) rejections() int {
	n := 0
	for _, rej := range t.votes {
		if rej {
			n++
		}
	}
	return n
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
func (p *Pipeline) rejectedShare(ctx context.Context, e *knowledge.Entry, r *Report) error {
	if e.Source.Provenance != knowledge.Clade || p.cfg.Members == nil {
		return nil
	}
	t := p.clade.get(e.ID)
	if _, member := p.cfg.Members.Member(e.Source.Agent); !member || t.penalised {
		return nil
	}
	c, ok, err := p.demote(ctx, e.ID, e.Source.Agent)
	if err != nil {
		return err
	}
	t.penalised = true
	if ok {
		r.Scores["sharer_confidence"] = c
	}
	return nil
}

// demote charges the member sharer SharePenalty for its share entryID,
// saving the demotion first if the pipeline has a State; ok is false, and
// nothing charged, if the State says it paid for this share already. c is
// the sharer's confidence after.
func (p *Pipeline) demote(ctx context.Context, entryID, sharer string) (c float64, ok bool, err error) {
	if p.cfg.State != nil {
		d := store.CladeDemotion{EntryID: entryID, Member: strings.ToLower(sharer), By: SharePenalty, At: p.cfg.Now()}
		saved, err := p.cfg.State.DemoteSharer(context.WithoutCancel(ctx), d)
		if err != nil || !saved {
			return 0, false, err
		}
	}
	c, ok = p.cfg.Members.Demote(sharer, SharePenalty)
	return c, ok, nil
}

// CladeVerdict records that member (an address of the operator's clade)
// validated the entry id and rejected it or not; a member's later verdict
// replaces its earlier one. When CladeRejections members have rejected the
// entry, its confidence in the Grimoire view drops to
// CladeRejectedConfidence (now if it is adopted, else when it is), and its
// sharer loses SharePenalty of trust, once. With a State the verdict (and
// the demotion it causes) is saved before it counts, and Restore drops the
// entry again after a restart.
//
// It fails with ErrNotMember for a member outside the operator's clade,
// ErrOwnShare for the entry's own sharer, ErrNoEntry for an id neither
// the Grimoire view nor the quarantine store holds, and with the State's
// error if the verdict could not be saved (it then does not count).
func (p *Pipeline) CladeVerdict(ctx context.Context, entryID, member string, rejected bool) (*CladeTally, error) {
	if p.cfg.Members == nil || p.cfg.Clade == "" {
		return nil, ErrNotMember
	}
	if m, ok := p.cfg.Members.Member(member); !ok || m.Clade != p.cfg.Clade {
		return nil, ErrNotMember
	}
	e, err := p.held(ctx, entryID)
	if err != nil {
		return nil, fmt.Errorf("clade verdict: %w", err)
	}
	sharer := e.Source.Agent
	if strings.EqualFold(sharer, member) {
		return nil, ErrOwnShare
	}
	member = strings.ToLower(member)
	p.mu.Lock()
	defer p.mu.Unlock()
	t := p.clade.get(entryID)
	votes := maps.Clone(t.votes)
	votes[member] = rejected
	after := tally{votes: votes, penalised: t.penalised}
	charge := after.rejections() >= CladeRejections && !t.penalised
	if p.cfg.State != nil {
		now := p.cfg.Now()
		var d *store.CladeDemotion
		if _, isMember := p.cfg.Members.Member(sharer); charge && isMember {
			d = &store.CladeDemotion{EntryID: entryID, Member: strings.ToLower(sharer), By: SharePenalty, At: now}
		}
		saved, err := p.cfg.State.VoteClade(context.WithoutCancel(ctx), store.CladeVote{EntryID: entryID, Member: member, Rejected: rejected, At: now}, d)
		if err != nil {
			return nil, fmt.Errorf("clade verdict on %s: %w", entryID, err)
		}
		if d != nil && !saved {
			after.penalised, charge = true, false // paid for this share already
		}
	}
	*t = after
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
		if charge {
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

// loadClade replaces the clade's verdicts in memory with those the State
// holds, charges every saved demotion to Members again (a restart reloads
// their configured confidence), and drops the entries the clade rejected
// in the Grimoire view.
func (p *Pipeline) loadClade(ctx context.Context) error {
	votes, err := p.cfg.State.CladeVotes(ctx)
	if err != nil {
		return fmt.Errorf("clade: %w", err)
	}
	dems, err := p.cfg.State.CladeDemotions(ctx)
	if err != nil {
		return fmt.Errorf("clade: %w", err)
	}
	demoted := map[string]bool{}
	for _, d := range dems {
		demoted[d.EntryID] = true
		if p.cfg.Members != nil {
			p.cfg.Members.Demote(d.Member, d.By) // false: no longer a member
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clade = newCladeBook()
	for _, v := range votes {
		t := p.clade.get(v.EntryID)
		t.votes[v.Member] = v.Rejected
		t.penalised = demoted[v.EntryID]
	}
	for _, id := range p.clade.order {
		if p.clade.rejected(id) {
			p.grim.setConfidence(id, CladeRejectedConfidence)
		}
	}
	return nil
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
