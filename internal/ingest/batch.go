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

// batchLog holds what a batch's decisions publish and learn until the
// batch is decided: each entry's events, and the immune signatures
// recorded, in order.
type batchLog struct {
	entries []entryLog
	learnt  bool // immune memory or the oracle changed: save once at the end
	sigs    []oracle.Signature
}

// entryLog holds one entry's events for its batch's log.
type entryLog struct {
	batch  *batchLog
	events []event.Event
}

// learnt notes that the entry's rejection taught immune memory and the
// oracle, with the signatures sigs, for the batch to save.
func (l *entryLog) learnt(sigs []oracle.Signature) {
	l.batch.learnt = true
	l.batch.sigs = append(l.batch.sigs, sigs...)
}

// cluster is a group of near-duplicate survivors, as indices into the
// batch, ascending.
type cluster struct {
	members []int
	reps    []int // the one or two closest to the centroid, closest first
	// coordinated maps the members that belong to a coordinated group to
	// the group's size; a cluster with any is validated entry by entry.
	coordinated map[int]int
}

// batch decides xs as one batch under the decision lock, with their
// events and what they teach held in a batchLog. What the batch learnt is
// saved before it returns; a failure to save is its error.
func (p *Pipeline) batch(ctx context.Context, xs []*subject) (err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	log := &batchLog{entries: make([]entryLog, len(xs))}
	for i, x := range xs {
		log.entries[i].batch = log
		x.log = &log.entries[i]
	}
	defer func() {
		if ferr := p.flush(ctx, log); ferr != nil {
			err = errors.Join(err, fmt.Errorf("ingest: save what the batch learnt: %w", ferr))
		}
	}()
	return p.decide(ctx, xs, true)
}

// flush ends a batch: its events are published per entry in order, and
// what the pipeline learnt is saved.
func (p *Pipeline) flush(ctx context.Context, log *batchLog) error {
	if p.cfg.Bus != nil {
		for _, l := range log.entries {
			for _, ev := range l.events {
				p.cfg.Bus.Publish(ev)
			}
		}
	}
	if !log.learnt {
		return nil
	}
	return p.saveMemory(ctx, log.sigs)
}

// planBatch plans the entries of xs that Stage 1 screened (indices) as
// clusters; a lone entry is a cluster of its own, validated fully.
func (p *Pipeline) planBatch(xs []*subject, screened []int) ([]cluster, map[int]string) {
	if len(screened) == 1 {
		return []cluster{{members: screened, reps: screened}}, nil
	}
	es := make([]*knowledge.Entry, len(xs))
	vecs := make([][]float32, len(xs))
	for i, x := range xs {
		es[i], vecs[i] = x.canonical(), x.vec
	}
	return p.plan(es, vecs, screened)
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
// with a claim that contradicts another's, why (naming the earliest entry
// it contradicts). Pairs are shortlisted before
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
	partner := map[int]int{} // the earliest entry each one contradicts
	contradicts := func(e, other int) {
		if p, ok := partner[e]; !ok || other < p {
			partner[e] = other
		}
	}
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
		contradicts(a.entry, b.entry)
		contradicts(b.entry, a.entry)
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
	// The pairs were judged in map order; the reason names the earliest
	// partner, so that a batch gets the same reasons on every run.
	out := make(map[int]string, len(partner))
	for e, p := range partner {
		out[e] = "its claims contradict " + es[p].ID + " in the same batch"
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

// decideCluster decides the entries of cluster c (indices into xs):
// entry by entry when it holds a coordinated group; otherwise its
// representatives are validated, then each other member is validated or
// given their decision. contra says which entries' claims contradict
// another entry of the batch.
func (p *Pipeline) decideCluster(ctx context.Context, xs []*subject, c cluster, contra map[int]string) error {
	if c.coordinated != nil {
		return p.decideCoordinated(ctx, xs, c, contra)
	}
	verdict, passed, err := p.decideReps(ctx, xs, c, contra)
	if err != nil {
		return err
	}
	for _, i := range c.members {
		if slices.Contains(c.reps, i) {
			continue
		}
		if err := p.decideMember(ctx, xs, c, i, verdict, passed, contra[i]); err != nil {
			return err
		}
	}
	if len(c.members) > 1 {
		for _, i := range c.reps {
			xs[i].r.Scores["cluster_size"] = float64(len(c.members))
			xs[i].r.Reasons = append(xs[i].r.Reasons, fmt.Sprintf("batch representative of a cluster of %d entries", len(c.members)))
		}
	}
	return nil
}

// validateFully validates x on its own, flagged and under scrutiny if
// either is set, and returns the layers that passed it.
func (p *Pipeline) validateFully(ctx context.Context, x *subject, scrutiny, flag string) ([]string, error) {
	if flag != "" {
		x.r.Flags = append(x.r.Flags, flag)
	}
	d, err := p.validate(ctx, x, scrutiny)
	if err != nil {
		return nil, err
	}
	x.decided = true
	return d.passed, nil
}

// decideCoordinated validates every member of c on its own, the members
// of its coordinated group under scrutiny.
func (p *Pipeline) decideCoordinated(ctx context.Context, xs []*subject, c cluster, contra map[int]string) error {
	for _, i := range c.members {
		n, ok := c.coordinated[i]
		scrutiny, flag := contra[i], contradicting(contra[i])
		if ok {
			xs[i].r.Scores["cluster_size"] = float64(n)
			scrutiny, flag = fmt.Sprintf("a coordinated cluster of %d near-duplicate newcomers", n), FlagCoordinated
		}
		if _, err := p.validateFully(ctx, xs[i], scrutiny, flag); err != nil {
			return err
		}
	}
	return nil
}

// contradicting is the flag of an entry whose claims contradict another's
// for why ("" for none).
func contradicting(why string) string {
	if why == "" {
		return ""
	}
	return FlagContradiction
}

// decideReps validates c's representatives and returns what their
// verdict means for the other members (outcome; Quarantined when they
// disagree, or when one was rejected only under the scrutiny of its own
// contradiction) and the layers that passed the first.
func (p *Pipeline) decideReps(ctx context.Context, xs []*subject, c cluster, contra map[int]string) (Verdict, []string, error) {
	var passed []string
	for k, i := range c.reps {
		ok, err := p.validateFully(ctx, xs[i], contra[i], contradicting(contra[i]))
		if err != nil {
			return "", nil, err
		}
		if k == 0 {
			passed = ok
		}
	}
	verdict := outcome(xs[c.reps[0]].r)
	for _, i := range c.reps[1:] {
		if outcome(xs[i].r) != verdict {
			verdict = Quarantined
		}
	}
	for _, i := range c.reps {
		if (contra[i] != "" || xs[i].suspect != "") && verdict == Rejected {
			// Rejected under the scrutiny its own contradiction or
			// resemblance raised: that says nothing of the members.
			verdict = Quarantined
		}
	}
	return verdict, passed, nil
}

// decideMember decides member i of c, given its representatives' verdict
// and the layers that passed the first: validated fully under the scrutiny
// of its contradiction (contra, "" for none) or when the verdict is
// undecided, otherwise given the representative's decision.
func (p *Pipeline) decideMember(ctx context.Context, xs []*subject, c cluster, i int, verdict Verdict, passed []string, contra string) error {
	x, rep := xs[i], xs[c.reps[0]]
	var err error
	switch {
	case contra != "":
		x.r.Scores["cluster_size"] = float64(len(c.members))
		_, err = p.validateFully(ctx, x, contra, FlagContradiction)
	case x.suspect != "":
		// A propagated pass would skip the scrutiny it is due.
		_, err = p.validateFully(ctx, x, "", "")
	case verdict == Rejected:
		err = p.propagateReject(ctx, x, rep)
	case verdict == Adopted:
		err = p.propagatePass(ctx, x, rep, passed)
	default:
		_, err = p.validateFully(ctx, x, "", "")
	}
	return err
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

// propagateReject rejects x, a member of a cluster whose representative
// rep was rejected, with rep's layer and attack.
func (p *Pipeline) propagateReject(ctx context.Context, x, rep *subject) error {
	cos := float64(embed.Cosine(x.vec, rep.vec))
	x.r.Flags = append(x.r.Flags, FlagPropagated)
	x.r.Scores["cluster_similarity"] = cos
	r := rep.r
	why := []string{fmt.Sprintf("propagated from %s: its batch representative (cosine %.3f) was rejected by %s", r.EntryID, cos, failedLayer(r.Stage, r.Layer))}
	if len(r.Reasons) > 1 {
		why = append(why, r.Reasons[1:]...)
	}
	f := fault{stage: StageStage2, layer: r.Layer, attack: r.Attack, code: r.Code, why: why, stored: true}
	if err := p.conclude(ctx, x, decision{reject: &f}); err != nil {
		return err
	}
	x.decided = true
	return nil
}

// propagatePass passes x, a member of a cluster whose representative rep
// passed consensus with the layers passed. A member that is not a trusted
// clade member, of a representative that was, is validated fully: its
// representative skipped L1.
func (p *Pipeline) propagatePass(ctx context.Context, x, rep *subject, passed []string) error {
	trusted := !x.untrusted && p.trusted(x.e, x.r)
	if !trusted && slices.Contains(rep.r.Flags, FlagTrustedMember) {
		_, err := p.validateFully(ctx, x, "", "")
		return err
	}
	cos := float64(embed.Cosine(x.vec, rep.vec))
	x.r.Flags = append(x.r.Flags, FlagPropagated)
	x.r.Scores["cluster_similarity"] = cos
	for _, l := range passed {
		x.r.Scores[l] = rep.r.Scores[l]
	}
	x.r.Scores["consensus"] = rep.r.Scores["consensus"]
	if err := p.conclude(ctx, x, decision{passed: passed, trusted: trusted}); err != nil {
		return err
	}
	x.r.Reasons = append(x.r.Reasons, fmt.Sprintf("propagated from %s: its batch representative (cosine %.3f) passed consensus", rep.r.EntryID, cos))
	x.decided = true
	return nil
}

// unit returns a copy of v scaled to unit length (a zero vector stays
// zero).
func unit(v []float32) []float32 {
	out := slices.Clone(v)
	embed.Normalize(out)
	return out
}
