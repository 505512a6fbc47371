package ingest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/wardhq/ward/internal/embed"
	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/oracle"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/validate"
)

// Batch validation (seed 001 §8): "cluster incoming entries, validate one
// or two representatives per cluster fully, check contradictions between
// clusters, propagate verdicts". A batch is decided under the pipeline's
// lock, in four steps:
//
//  1. every entry goes through the oracle, immune memory and Stage 1 on
//     its own: signatures and content screens are per entry;
//  2. the survivors are clustered by embedding (validate.Batch, cosine ≥
//     0.85 to the cluster's leader); clusters of validate.ClusterMin or
//     more near-duplicates (cosine ≥ 0.9) that nothing in the Grimoire
//     resembles are coordinated (validate.Cluster); every survivor's claims
//     are compared with every other's (validate.Contradictions);
//  3. per cluster, in order of its first entry: a cluster holding a
//     coordinated group is validated entry by entry, the group's members
//     under scrutiny (every layer that runs must pass); otherwise the
//     representatives (one, or two for clusters of batchTwoReps or more:
//     the closest to the centroid) run the full Stage 2, and their verdict
//     propagates to the other members:
//     rejected with the representative's layer and attack, or passed (then
//     adopted, or held for the sandbox like any entry). Any entry whose
//     claims contradict another entry of the batch (the seed's cross-entry
//     contradiction seeding) is validated fully under scrutiny, whether a
//     representative or a member. A member of a cluster whose
//     representatives disagree, were not decided, or were rejected only
//     under the scrutiny of their own contradiction, and an untrusted member
//     of a cluster whose representative skipped L1 as a trusted clade
//     member, are validated fully too;
//  4. the events buffered per entry are published in the batch's order,
//     and what immune memory and the oracle learnt is saved once.
//
// A propagated verdict is flagged FlagPropagated and its reasons say
// "propagated from <id>".

// batchTwoReps is the smallest cluster validated through two
// representatives; a cluster whose two disagree is validated fully.
const batchTwoReps = 4

// eventLog buffers the events of a batch per entry.
type eventLog struct {
	cur    int // the entry being decided
	events [][]event.Event
	learnt bool               // immune memory or the oracle changed: save once at the end
	sigs   []oracle.Signature // the immune signatures recorded
}

func (l *eventLog) add(ev event.Event) { l.events[l.cur] = append(l.events[l.cur], ev) }

// cluster is a group of near-duplicate survivors, as indices into the
// batch, ascending.
type cluster struct {
	members []int
	reps    []int // the one or two closest to the centroid, closest first
	// coordinated maps the members that belong to a coordinated group to
	// the group's size; a cluster with any is validated entry by entry.
	coordinated map[int]int
}

// batch decides es (vecs[i] nil and invalid[i] set for an invalid entry).
// What the batch learnt is saved before it returns; a failure to save is
// its error.
func (p *Pipeline) batch(ctx context.Context, es []*knowledge.Entry, vecs [][]float32, invalid []error) (_ []*Report, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	log := &eventLog{events: make([][]event.Event, len(es))}
	p.log = log
	defer func() {
		if ferr := p.flush(ctx, log); ferr != nil {
			err = errors.Join(err, fmt.Errorf("ingest: save what the batch learnt: %w", ferr))
		}
	}()

	reports := make([]*Report, len(es))
	decided := make([]bool, len(es))
	var survivors []int
	for i, e := range es {
		log.cur = i
		if invalid[i] != nil {
			reports[i], decided[i] = p.invalid(e, invalid[i]), true
			continue
		}
		r, done, err := p.stage1(ctx, e, vecs[i])
		if err != nil {
			return prefix(reports, decided), err
		}
		reports[i], decided[i] = r, done
		if !done {
			survivors = append(survivors, i)
		}
	}
	clusters, contra := p.plan(es, vecs, survivors)
	for _, c := range clusters {
		if err := p.decideCluster(ctx, es, vecs, reports, decided, c, contra); err != nil {
			return prefix(reports, decided), err
		}
	}
	return reports, nil
}

// prefix returns the reports of the entries decided before the first
// undecided one.
func prefix(reports []*Report, decided []bool) []*Report {
	n := slices.Index(decided, false)
	if n < 0 {
		n = len(reports)
	}
	return reports[:n]
}

// flush ends a batch: its events are published per entry in order, and
// what the pipeline learnt is saved.
func (p *Pipeline) flush(ctx context.Context, log *eventLog) error {
	p.log = nil
	if p.cfg.Bus != nil {
		for _, evs := range log.events {
			for _, ev := range evs {
				p.cfg.Bus.Publish(ev)
			}
		}
	}
	if !log.learnt {
		return nil
	}
	return p.saveMemory(ctx, log.sigs)
}

// plan clusters the survivors and finds the ones whose claims contradict
// another survivor's (contra: index → why).
func (p *Pipeline) plan(es []*knowledge.Entry, vecs [][]float32, survivors []int) ([]cluster, map[int]string) {
	if len(survivors) == 0 {
		return nil, nil
	}
	cands := make([]validate.Candidate, len(survivors))
	for n, i := range survivors {
		cands[n] = validate.Candidate{Entry: es[i], Embedding: vecs[i]}
	}
	coordinated := map[int]int{} // batch index → size of its coordinated group
	for _, g := range validate.Cluster(cands, nil) {
		if p.novel(vecs, survivors, g) {
			for _, n := range g {
				coordinated[survivors[n]] = len(g)
			}
		}
	}
	var out []cluster
	for _, g := range validate.Batch(cands) {
		c := cluster{members: make([]int, len(g))}
		for k, n := range g {
			c.members[k] = survivors[n]
		}
		// Batch's members are within 0.85 of their leader, Cluster's groups
		// chained at 0.9: they need not coincide, so a cluster holding any
		// coordinated entry is validated entry by entry.
		for _, i := range c.members {
			if n, ok := coordinated[i]; ok {
				if c.coordinated == nil {
					c.coordinated = map[int]int{}
				}
				c.coordinated[i] = n
			}
		}
		if c.coordinated == nil {
			c.reps = representatives(vecs, c.members)
		}
		out = append(out, c)
	}
	return out, contradictions(es, survivors)
}

// novel reports whether no member of group g (positions in survivors) is
// within validate.ClusterSimilarity of an entry of the Grimoire.
func (p *Pipeline) novel(vecs [][]float32, survivors, g []int) bool {
	for _, n := range g {
		if ns := p.grim.Search(vecs[survivors[n]], 1); len(ns) > 0 && ns[0].Score >= validate.ClusterSimilarity {
			return false
		}
	}
	return true
}

// representatives returns the one or two members closest to the centroid
// of their unit embeddings, closest first (ties: the earlier entry).
func representatives(vecs [][]float32, members []int) []int {
	if len(members) == 1 {
		return members
	}
	units := make([][]float32, len(members))
	var centroid []float32
	for k, i := range members {
		units[k] = unit(vecs[i])
		if centroid == nil {
			centroid = make([]float32, len(units[k]))
		}
		for d, x := range units[k] {
			if d < len(centroid) {
				centroid[d] += x
			}
		}
	}
	order := make([]int, len(members))
	sim := make([]float64, len(members))
	for k := range members {
		order[k] = k
		sim[k] = float64(embed.Cosine(units[k], centroid))
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case sim[a] > sim[b]:
			return -1
		case sim[a] < sim[b]:
			return 1
		}
		return 0
	})
	n := 1
	if len(members) >= batchTwoReps {
		n = 2
	}
	reps := make([]int, n)
	for k := range reps {
		reps[k] = members[order[k]]
	}
	return reps
}

// contradictions compares the claims (extracted from the content, plus the
// entry's own) of every pair of survivors and returns, for each survivor
// with a claim that contradicts another's, why. Pairs are shortlisted before
// validate.Contradictions judges them (it keys both claims on every call):
// the claims must share a word of their subjects, or name each other's
// subject as object, and have a shape that can contradict (see mayClash).
func contradictions(es []*knowledge.Entry, survivors []int) map[int]string {
	type ref struct{ entry, claim int }
	claims := make([][]validate.Claim, len(es))
	words := map[ref][2][]string{} // subject and object tokens
	bySubject := map[string][]ref{}
	for _, i := range survivors {
		cs := validate.ExtractClaims(es[i].Content)
		if k := es[i].Claim; k != nil {
			if c, ok := validate.FromKnowledge(k); ok {
				cs = append(cs, c)
			}
		}
		claims[i] = cs
		for n, c := range cs {
			at := ref{i, n}
			subj, obj := claimWords(c.Subject), claimWords(c.Object)
			words[at] = [2][]string{subj, obj}
			for _, t := range subj {
				bySubject[t] = append(bySubject[t], at)
			}
		}
	}
	out := map[int]string{}
	checked := map[[2]ref]bool{}
	judge := func(a, b ref) {
		if a.entry == b.entry {
			return
		}
		if b.entry < a.entry || (b.entry == a.entry && b.claim < a.claim) {
			a, b = b, a
		}
		if checked[[2]ref{a, b}] {
			return
		}
		checked[[2]ref{a, b}] = true
		ca, cb := claims[a.entry][a.claim], claims[b.entry][b.claim]
		if !mayClash(ca, cb, words[a], words[b]) || !validate.Contradictions(ca, cb) {
			return
		}
		if _, ok := out[a.entry]; !ok {
			out[a.entry] = "its claims contradict " + es[b.entry].ID + " in the same batch"
		}
		if _, ok := out[b.entry]; !ok {
			out[b.entry] = "its claims contradict " + es[a.entry].ID + " in the same batch"
		}
	}
	for _, refs := range bySubject {
		for x, a := range refs {
			for _, b := range refs[x+1:] {
				judge(a, b)
			}
		}
	}
	// Swapped directional claims ("Y rises with X" against "X lowers Y"):
	// a's object shares a word with b's subject and the other way round.
	for a, wa := range words {
		if claims[a.entry][a.claim].Direction == 0 {
			continue
		}
		for _, t := range wa[1] {
			for _, b := range bySubject[t] {
				if claims[b.entry][b.claim].Direction != 0 && shares(words[b][1], wa[0]) {
					judge(a, b)
				}
			}
		}
	}
	return out
}

// mayClash reports whether claims a and b, with subject and object words
// wa and wb, pass the necessary conditions of validate.Contradictions: the
// same subject (sharing a word) or swapped subject and object, and a shape
// that can clash (opposite directions on the same object, one relation
// affirmed and denied on the same object, or two values or redirects).
func mayClash(a, b validate.Claim, wa, wb [2][]string) bool {
	if a.Direction != 0 && b.Direction != 0 && a.Object != "" && b.Object != "" {
		if a.Direction != -b.Direction {
			return false
		}
		return shares(wa[0], wb[0]) && shares(wa[1], wb[1]) || // same subject and object
			shares(wa[0], wb[1]) && shares(wa[1], wb[0]) // swapped
	}
	if !shares(wa[0], wb[0]) {
		return false
	}
	switch a.Relation {
	case validate.RelRequires, validate.RelImplies, validate.RelBoundedBy:
		if a.Relation == b.Relation {
			return a.Negated != b.Negated && shares(wa[1], wb[1])
		}
	}
	return (a.Relation == validate.RelIs || a.Redirect) && (b.Relation == validate.RelIs || b.Redirect)
}

// claimWords returns the first three bytes of each word of phrase p,
// lower-cased (a plural in -ies as its singular), deduplicated: two phrases
// validate compares as the same share one, since their word stems do.
func claimWords(p string) []string {
	var out []string
	for _, w := range strings.Fields(strings.ToLower(p)) {
		w = strings.Trim(w, ",:;.!?\"'()[]{}`*")
		if len(w) > 4 && strings.HasSuffix(w, "ies") {
			w = w[:len(w)-3] + "y"
		}
		if len(w) > 3 {
			w = w[:3]
		}
		if w != "" && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

func shares(a, b []string) bool {
	return slices.ContainsFunc(a, func(t string) bool { return slices.Contains(b, t) })
}

// decideCluster runs Stage 2 on a cluster and propagates its verdict.
func (p *Pipeline) decideCluster(ctx context.Context, es []*knowledge.Entry, vecs [][]float32, reports []*Report, decided []bool,
	c cluster, contra map[int]string) error {
	// full validates entry i on its own, flagged and under scrutiny if
	// either is set, and returns the layers that passed it.
	full := func(i int, scrutiny, flag string) ([]string, error) {
		p.log.cur = i
		if flag != "" {
			reports[i].Flags = append(reports[i].Flags, flag)
		}
		r, passed, err := p.decide(ctx, es[i], vecs[i], reports[i], scrutiny)
		if err != nil {
			return nil, err
		}
		reports[i], decided[i] = r, true
		return passed, nil
	}
	contradiction := func(i int) string {
		if contra[i] == "" {
			return ""
		}
		return FlagContradiction
	}
	if c.coordinated != nil {
		for _, i := range c.members {
			n, ok := c.coordinated[i]
			if !ok {
				if _, err := full(i, contra[i], contradiction(i)); err != nil {
					return err
				}
				continue
			}
			reports[i].Scores["cluster_size"] = float64(n)
			why := fmt.Sprintf("a coordinated cluster of %d near-duplicate newcomers", n)
			if _, err := full(i, why, FlagCoordinated); err != nil {
				return err
			}
		}
		return nil
	}
	var passed []string // the layers that passed the first representative
	for k, i := range c.reps {
		ok, err := full(i, contra[i], contradiction(i))
		if err != nil {
			return err
		}
		if k == 0 {
			passed = ok
		}
	}
	rep := reports[c.reps[0]]
	verdict := outcome(rep)
	for _, i := range c.reps[1:] {
		if outcome(reports[i]) != verdict {
			verdict = Quarantined
		}
	}
	for _, i := range c.reps {
		if contra[i] != "" && verdict == Rejected {
			// Rejected under the scrutiny its own contradiction raised:
			// that says nothing of the members.
			verdict = Quarantined
		}
	}
	for _, i := range c.members {
		if slices.Contains(c.reps, i) {
			continue
		}
		switch {
		case contra[i] != "":
			reports[i].Scores["cluster_size"] = float64(len(c.members))
			if _, err := full(i, contra[i], FlagContradiction); err != nil {
				return err
			}
		case verdict == Rejected:
			p.log.cur = i
			r, err := p.propagateReject(ctx, es[i], vecs[i], reports[i], rep, vecs[c.reps[0]])
			if err != nil {
				return err
			}
			reports[i], decided[i] = r, true
		case verdict == Adopted:
			p.log.cur = i
			r, err := p.propagatePass(ctx, es[i], vecs[i], reports[i], rep, vecs[c.reps[0]], passed)
			if err != nil {
				return err
			}
			reports[i], decided[i] = r, true
		default:
			if _, err := full(i, "", ""); err != nil {
				return err
			}
		}
	}
	if len(c.members) > 1 {
		for _, i := range c.reps {
			reports[i].Scores["cluster_size"] = float64(len(c.members))
			reports[i].Reasons = append(reports[i].Reasons, fmt.Sprintf("batch representative of a cluster of %d entries", len(c.members)))
		}
	}
	return nil
}

// outcome is what a representative's verdict means for its cluster:
// Rejected, Adopted (it passed consensus: adopted, confirmed an adopted
// entry or held for the sandbox) or Quarantined (undecided: every member is validated fully).
func outcome(r *Report) Verdict {
	switch {
	case r.Verdict == Rejected && r.Stage == StageStage2:
		return Rejected
	case r.Verdict == Adopted || r.Verdict == Confirmed || r.Code == reason.KnowledgeSandboxRequired:
		return Adopted
	}
	return Quarantined
}

// propagateReject rejects a member of a cluster whose representative rep
// (embedded as repVec) was rejected, with rep's layer and attack.
func (p *Pipeline) propagateReject(ctx context.Context, e *knowledge.Entry, vec []float32, r, rep *Report, repVec []float32) (*Report, error) {
	cos := float64(embed.Cosine(vec, repVec))
	r.Flags = append(r.Flags, FlagPropagated)
	r.Scores["cluster_similarity"] = cos
	why := []string{fmt.Sprintf("propagated from %s: its batch representative (cosine %.3f) was rejected by %s", rep.EntryID, cos, failedLayer(rep.Stage, rep.Layer))}
	if len(rep.Reasons) > 1 {
		why = append(why, rep.Reasons[1:]...)
	}
	return p.reject(ctx, e, vec, r, StageStage2, rep.Layer, rep.Attack, rep.Code, why, true)
}

// propagatePass passes a member of a cluster whose representative rep
// passed consensus with the layers passed. A member that is not a trusted
// clade member, of a representative that was, is validated fully: its
// representative skipped L1.
func (p *Pipeline) propagatePass(ctx context.Context, e *knowledge.Entry, vec []float32, r, rep *Report, repVec []float32, passed []string) (*Report, error) {
	trusted := p.trusted(e, r)
	if !trusted && slices.Contains(rep.Flags, FlagTrustedMember) {
		r, _, err := p.decide(ctx, e, vec, r, "")
		return r, err
	}
	cos := float64(embed.Cosine(vec, repVec))
	r.Flags = append(r.Flags, FlagPropagated)
	r.Scores["cluster_similarity"] = cos
	for _, l := range passed {
		r.Scores[l] = rep.Scores[l]
	}
	r.Scores["consensus"] = rep.Scores["consensus"]
	r, err := p.pass(ctx, e, vec, r, passed, trusted)
	if err != nil {
		return nil, err
	}
	r.Reasons = append(r.Reasons, fmt.Sprintf("propagated from %s: its batch representative (cosine %.3f) passed consensus", rep.EntryID, cos))
	return r, nil
}

// unit returns a copy of v scaled to unit length (a zero vector stays
// zero).
func unit(v []float32) []float32 {
	out := slices.Clone(v)
	embed.Normalize(out)
	return out
}
