// Package ingest is the knowledge ingestion pipeline (seed 001): the only
// package that knows the order in which an external entry is screened before
// it may reach the Grimoire. Reading decide and the stage functions it
// calls, top to bottom in this file, is reading that order:
//
//  0. the oracle: content flagged as poison here or by a peer (exact hash or
//     a near-duplicate embedding) is quarantined;
//     0b. immune memory: an entry structurally like one rejected before on
//     evidence is quarantined with the flag previously_rejected_pattern;
//     one like an entry that Stage 2 consensus alone rejected goes on,
//     flagged consensus_rejected_pattern, and Stage 2 judges it under
//     scrutiny (see consensusOnly);
//  1. Stage 1: the quarantine Checker (EIP-712 provenance, identity registry,
//     replay), then the entry is put into the quarantine store as pending and
//     screened: instruction-like text (ContentInjection), a claimed confidence
//     grossly above what its provenance allows (ConfidenceInflation; a
//     smaller overclaim is discounted to the ceiling), and a supplied
//     embedding that does not match the content (EmbeddingAnomaly);
//  2. Stage 2: every Validator votes and the entry is adopted when at least
//     Strictness.Threshold() of the votes that ran pass, otherwise rejected;
//     a failing Decisive vote rejects on its own and a failing Scrutiny vote
//     raises the threshold to Strict's (validate.Weigh grades the layers'
//     evidence). The report lists every vote.
//     A trusted member of the operator's clade (confidence above 0.8) skips
//     L1 and the sandbox (seed §9; clade.go).
//
// Adoption is Stage 4's policy (internal/adopt): the entry enters the
// Grimoire's external partition at the policy's confidence, with its
// adopt.Record (status pending, a TTL by source) stored beside it; an entry
// repeating an adopted one (same content, or same structured claim)
// confirms that one instead (adopt.Confirm, verdict confirmed). Curate runs
// the Curator: decay, and pruning of entries still unconfirmed at their TTL
// (curate.go).
//
// Where the strictness requires the sandbox (strict, paranoid), an
// actionable entry (heuristic, strategy fragment) that passes Stage 2 goes
// through Stage 3 (sandbox.go): it is decomposed and simulated against a
// hold baseline inside the process sandbox, and adopted only if it passes;
// a breach rejects it (KNOWLEDGE_SANDBOX_RESOURCE_EXCEEDED), a worse
// result too (KNOWLEDGE_SANDBOX_FAILED). An entry that cannot be decomposed,
// or any actionable entry when no Stage3 is configured, stays pending in
// quarantine (KNOWLEDGE_SANDBOX_REQUIRED). Causal rollback (Stage 4's
// second half) undoes a source's adopted knowledge (rollback.go). Every
// decision feeds its source's metrics and Beta reputation, and a
// blacklisted source's entries are refused at Stage 1, once the
// signature holds (KNOWLEDGE_SOURCE_BLACKLISTED; reputation.go).
//
// IngestBatch validates a batch as one (seed §8, batch.go): Stage 1 per
// entry, then Stage 2 on one or two representatives per cluster of
// near-duplicates, whose verdict propagates to the other members, except
// for members whose claims contradict another entry of the batch and for
// coordinated clusters of newcomers, which are validated one by one under
// scrutiny.
//
// The pipeline never trusts a supplied embedding: it embeds every entry's
// content itself and uses that vector for the oracle, immune memory, Stage 2
// and the Grimoire view. Every layer judges an entry's canonical text
// (package canon: invisible characters and homoglyphs taken off, hidden
// and encoded text revealed and appended): the embedding is of it, the
// oracle checks and marks it beside the content, Stage 1 screens it beside
// the content, and Stage 2's layers extract their claims from it. What is
// quarantined and adopted keeps the content as it came. A rejection for an attack records an immune
// signature and flags the content in the oracle, except a provenance
// forgery: it says nothing about the content, every forgery already fails
// Stage 1, and remembering its content or structure would let anyone hold
// genuine knowledge in quarantine here and at every peer by posting an
// unsigned copy of it. A rejection without an attack (a malformed entry, a
// replay) is not remembered either. A rejection by Stage 2 consensus
// alone records its signature but flags nothing in the oracle, and its
// signature only raises scrutiny: a statistical verdict must not hold
// every near-copy of a clean entry it got wrong.
//
// With no Validators configured Stage 2 cannot reach consensus: an entry that
// passes Stage 1 stays pending in quarantine (verdict quarantined, reason
// KNOWLEDGE_NO_CONSENSUS) and is never adopted. The same holds when a
// validator fails: its error is not evidence of an attack, so the entry waits.
//
// A Pipeline is safe for concurrent use; decisions are serialised, because
// each adoption changes the Grimoire that the next entry is validated
// against.
//
// What the pipeline learns (immune memory and the oracle's filters, the
// lessons, the sources' reputation, the skill library's promotions, the
// clade's verdicts, the influences of sessions, the daily samples) is held
// in memory for speed and, with a Config.State, written to typed tables as
// it changes, before it is used where the order allows, with failures
// returned (ConsultLessons, whose advice stands either way, logs them);
// LoadMemory, LoadLibrary and Restore load it on start.
package ingest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/embed"
	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/oracle"
	"github.com/wardhq/ward/internal/quarantine"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/trust/canon"
	"github.com/wardhq/ward/internal/validate"
)

// MinEmbeddingCosine is the least cosine similarity a supplied embedding
// must have with the pipeline's own embedding of the content; below it, or
// at another dimension, the entry is an EmbeddingAnomaly.
const MinEmbeddingCosine = 0.8

// Flags a Report may carry.
const (
	FlagPreviouslyRejected = "previously_rejected_pattern"
	// FlagConsensusRejectedPattern: the entry resembles one that Stage 2
	// consensus alone rejected; it was validated under scrutiny (every
	// layer that ran must pass) rather than held (see consensusOnly).
	FlagConsensusRejectedPattern = "consensus_rejected_pattern"
	FlagOracleExact              = "oracle_exact"
	FlagOracleSimilar            = "oracle_similar"
	// FlagTrustedMember: the source is a trusted member of the operator's
	// clade; L1 and the sandbox were skipped.
	FlagTrustedMember = "trusted_clade_member"
	// FlagPropagated: the verdict is a batch representative's, named in
	// the reasons ("propagated from <id>").
	FlagPropagated = "propagated"
	// FlagCoordinated: the entry belongs to a cluster of ClusterMin or more
	// near-duplicate newcomers that nothing in the Grimoire resembles.
	FlagCoordinated = "coordinated_cluster"
	// FlagContradiction: the entry's claims contradict another entry of
	// its batch.
	FlagContradiction = "batch_contradiction"
	// FlagConfidenceDiscounted: the claimed confidence is above the
	// ceiling of the entry's provenance but not a gross overclaim
	// (GrossOverclaim); it is taken at the ceiling, and the claim is in
	// the scores as confidence_claimed.
	FlagConfidenceDiscounted = "confidence_discounted"
	// FlagVerifiedFacts: a claimed confidence above the gross-overclaim
	// boundary was discounted rather than refused, because the entry
	// states facts Config.Verifier confirms (see verifiedFacts).
	FlagVerifiedFacts = "verified_facts"
)

// StageSandbox is where Stage 3 decides an actionable entry, or where it
// waits when Stage 3 cannot evaluate it.
const StageSandbox Stage = "sandbox"

// ParanoidSandboxTicks is how long the sandbox must run an entry under
// Paranoid strictness (seed §13: "extended (100 ticks)").
const ParanoidSandboxTicks = 100

// Store is what the pipeline needs of a backend: the quarantine collection
// and the Grimoire.
type Store interface {
	store.Quarantine
	store.Grimoire
}

// State is the backend that keeps what the pipeline learns: every change
// is written to it, durably, as the pipeline makes it, and Restore,
// LoadMemory and LoadLibrary read it back. *sqlite.Store implements it.
type State interface {
	store.Lessons
	store.Series
	store.Memory
	store.Skills
	store.Reputation
	store.Influences
	store.Clade
}

// Validator is one Stage 2 layer. Validate votes on c against g; an error
// means the layer could not decide (the entry then stays in quarantine), not
// that the entry is bad. Validators must not keep c or g.
type Validator interface {
	Layer() knowledge.Layer
	Validate(ctx context.Context, c *Candidate, g *Grimoire) (Vote, error)
}

// Vote is one layer's verdict on a candidate. A skipped vote (the layer does
// not apply, such as L1 below 50 entries) counts neither way.
type Vote struct {
	Layer   knowledge.Layer `json:"layer"`
	Pass    bool            `json:"pass"`
	Skipped bool            `json:"skipped,omitempty"`
	Score   float64         `json:"score"`
	Reasons []string        `json:"reasons,omitempty"`
	// Decisive marks a failing vote that rejects the entry whatever the
	// other layers say (seed 4.3: a provably false on-chain claim is
	// rejected immediately, no consensus needed).
	Decisive bool `json:"decisive,omitempty"`
	// Scrutiny marks a failing vote that raises the entry to the Strict
	// threshold, every layer that ran must pass (seed 4.4: a contradiction
	// "raises the divergence score and triggers additional scrutiny").
	Scrutiny bool `json:"scrutiny,omitempty"`
	// Code is the reason code a Decisive failure rejects the entry with
	// (KNOWLEDGE_VERIFIABLE_CLAIM_FALSE for L3); "": the consensus's,
	// KNOWLEDGE_CONSENSUS_FAILED.
	Code reason.Code `json:"code,omitempty"`
	// Signals are the layer's named measurements besides Score (L1's
	// rare_token_score), copied into the report's scores.
	Signals map[string]float64 `json:"signals,omitempty"`
}

// Candidate is an entry under Stage 2 validation: the entry (read-only),
// the pipeline's own embedding of its content and its structured claims (the
// entry's Claim, if any; extracting claims from text is the validators'
// business).
type Candidate struct {
	Entry     *knowledge.Entry
	Embedding []float32
	Claims    []knowledge.Claim
	// Confirmed holds the addresses Config.Verifier confirms the entry
	// names as what they are; L2 does not read their identity as changed
	// (validate.Candidate.Confirmed).
	Confirmed []validate.Address
}

// Config configures a Pipeline. Every field but Bus, Validators, Strictness
// and Now is required. The zero Strictness is Paranoid (3 of 3).
type Config struct {
	Embedder   embed.Embedder
	Oracle     *oracle.Oracle
	Immune     *oracle.Immune
	Checker    *quarantine.Checker
	Store      Store
	Bus        *event.Bus // nil: no events
	Validators []Validator
	Strictness knowledge.Strictness
	Now        func() time.Time // nil: time.Now
	// State, if set, keeps what the pipeline learns across restarts: the
	// oracle's filters and the immune memory (saved with each rejection;
	// see LoadMemory), the lessons, the daily samples, the skill
	// library's promotions, the sources' metrics, the influences of
	// sessions and the clade's verdicts (see Restore). Without it they
	// live in memory only.
	State State
	// Clade is the operator's own clade id and Members the registry of
	// clade members (nil: none); see clade.go. Without both, no source is
	// a trusted member and CladeVerdict refuses every member.
	Clade   string
	Members Members
	// Stage3, if set, evaluates actionable entries in the sandbox where
	// the strictness requires it (sandbox.go); nil: they are held in
	// quarantine (KNOWLEDGE_SANDBOX_REQUIRED).
	Stage3 *Stage3
	// Playbook, if set, is the PLAYBOOK that the promoted lessons are
	// written to; causal rollback rewrites it without the heuristics
	// derived from the entries it rolls back (rollback.go). nil: no
	// PLAYBOOK is kept, and a rollback says it skipped the revert.
	Playbook *adopt.Playbook
	// Actions, if set, is the gate's action log: causal rollback over the
	// recorded history reads the decisions the gate tagged from it
	// (RecordedRollback).
	Actions store.ActionLog
	// Verifier, if set, confirms the facts an entry states (the address
	// book, selectors): an entry made of confirmed facts may claim
	// near-certainty and is discounted rather than refused as
	// ConfidenceInflation (verifiedFacts). nil: every gross overclaim is
	// refused.
	Verifier *validate.BookVerifier
	// Models are the mental models that confirm what an entry states for
	// the same check (verifiedFacts; validate.Agree): give the ones
	// Stage2's L3b reads. nil: the ones shipped with ward. They confirm
	// only next to a Verifier.
	Models []validate.Model
	// Self is this ward's own 0x address as a member of Clade: with
	// Clade and Members it makes the pipeline a member of the clade's
	// fleet (fleet.go). "": HandleFleet refuses every message.
	Self string
	// Fleet, if set, publishes what the pipeline learns to the other
	// members of the clade (fleet.go); nil: nothing is published.
	Fleet FleetPublisher
	// Sessions, if set, tells the memory tools who wrote a memory: the
	// session's principal and taint (remember.go). nil: the agent's
	// memory writes are refused.
	Sessions Sessions
}

// Pipeline runs entries through the stages. Make it with New.
type Pipeline struct {
	cfg   Config
	grim  *Grimoire
	mu    sync.Mutex // serialises decisions; guards the fields below
	clade cladeBook
	rep   *ledger // per source metrics and reputation (reputation.go)
	// lessons are the lessons learnt (rollback.go), kept in State.
	lessons *adopt.Lessons
	// influence remembers the external entries each session retrieved
	// (influence.go).
	influence *influences
	// out holds what the clade should hear until it is published
	// (fleet.go); published and publishErrors count the messages.
	out                      outbox
	published, publishErrors atomic.Uint64
	// saving serialises saveMemory's snapshot and write, so that a
	// peer's filter merged outside mu never has an older snapshot
	// overwrite a newer one.
	saving sync.Mutex
}

// New checks cfg and returns a Pipeline with an empty Grimoire view; load
// it from the store with p.Grimoire().Load before ingesting.
func New(cfg Config) (*Pipeline, error) {
	switch {
	case cfg.Embedder == nil:
		return nil, errors.New("ingest: no embedder")
	case cfg.Oracle == nil:
		return nil, errors.New("ingest: no oracle")
	case cfg.Immune == nil:
		return nil, errors.New("ingest: no immune memory")
	case cfg.Checker == nil:
		return nil, errors.New("ingest: no quarantine checker")
	case cfg.Store == nil:
		return nil, errors.New("ingest: no store")
	case !cfg.Strictness.Valid():
		return nil, fmt.Errorf("ingest: invalid strictness %d", cfg.Strictness)
	case len(cfg.Clade) > knowledge.MaxID:
		return nil, fmt.Errorf("ingest: clade id longer than %d bytes", knowledge.MaxID)
	case cfg.Self != "" && !isAddress(cfg.Self):
		return nil, errors.New("ingest: self is not a 0x address")
	}
	for i, v := range cfg.Validators {
		if v == nil {
			return nil, fmt.Errorf("ingest: validator %d is nil", i)
		}
	}
	cfg.Validators = append([]Validator(nil), cfg.Validators...)
	cfg.Stage3 = cfg.Stage3.withDefaults()
	if cfg.Stage3 != nil {
		// The skill library retrieves components by the Grimoire's
		// embedder; if it cannot embed now it keeps its token index.
		emb := cfg.Embedder
		if err := cfg.Stage3.Library.Index(func(texts []string) ([][]float32, error) {
			return emb.Embed(context.Background(), texts)
		}); err != nil {
			slog.Default().Warn("grimoire: the skill library keeps its token index", "err", err)
		}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	lessons, err := adopt.NewLessons(0)
	if err != nil {
		return nil, fmt.Errorf("ingest: %w", err)
	}
	return &Pipeline{cfg: cfg, grim: NewGrimoire(cfg.Embedder), clade: newCladeBook(), rep: newLedger(), lessons: lessons,
		influence: newInfluences(MaxInfluenceSessions)}, nil
}

// Grimoire returns the pipeline's view of the Grimoire, which validators
// read and adoption extends.
func (p *Pipeline) Grimoire() *Grimoire { return p.grim }

// Strictness returns the pipeline's consensus level.
func (p *Pipeline) Strictness() knowledge.Strictness { return p.cfg.Strictness }

// Ingest runs e through every stage and returns the decision. e is not
// modified (an entry without an ID is given one in the report). An error
// means the pipeline could not decide (the embedder, the store or the
// identity registry failed); nothing is adopted then.
func (p *Pipeline) Ingest(ctx context.Context, e *knowledge.Entry) (*Report, error) {
	rs, err := p.IngestBatch(ctx, []*knowledge.Entry{e})
	if err != nil {
		return nil, err
	}
	return rs[0], nil
}

// IngestBatch ingests es as one batch, embedding their contents in one
// call, and returns one report per entry, in order. Every entry goes
// through the oracle, immune memory and Stage 1 on its own; Stage 2 runs
// on representatives of clusters of near-duplicates and their verdicts
// propagate (see batch.go). Events are published per entry, in order, when
// the batch is decided. On an error it returns the reports of the entries
// decided before the first undecided one (all of them when what was
// decided could not be saved to the State).
func (p *Pipeline) IngestBatch(ctx context.Context, es []*knowledge.Entry) ([]*Report, error) {
	rs, err := p.run(ctx, es, true, false)
	return rs, errors.Join(err, p.account(ctx, es, rs, true))
}

// Quarantine runs es through the oracle, immune memory and Stage 1 only:
// an entry that passes is left pending in quarantine (verdict quarantined,
// reason KNOWLEDGE_QUARANTINED) for Validate to decide.
func (p *Pipeline) Quarantine(ctx context.Context, es []*knowledge.Entry) ([]*Report, error) {
	rs, err := p.run(ctx, es, false, false)
	return rs, errors.Join(err, p.account(ctx, es, rs, true))
}

// subject is one entry on its way through the stages: a copy the pipeline
// owns, the pipeline's embedding of its content (nil when invalid says why
// the entry is malformed) and the report each stage fills in.
type subject struct {
	e       *knowledge.Entry
	vec     []float32
	invalid error
	r       *Report
	// log, in a batch, holds the entry's events and what its rejection
	// taught until the batch is decided (batch.go); nil: they are published
	// and saved at once.
	log     *entryLog
	decided bool // r is final
	// untrusted: the entry gets every stage whoever its source is (a
	// clade entry shared for validation, fleet.go).
	untrusted bool
	// judged is e with its content canonical (see canonical).
	judged *knowledge.Entry
	// suspect says why x is validated under scrutiny whatever its batch
	// says: it resembles an entry Stage 2 consensus alone rejected ("" for
	// none; see consensusOnly).
	suspect string
}

// scrutiny joins the batch's reason to look harder at x (why, "" for
// none) with x's own.
func (x *subject) scrutiny(why string) string {
	switch {
	case x.suspect == "":
		return why
	case why == "":
		return x.suspect
	}
	return why + "; " + x.suspect
}

// canonical returns the entry the layers judge: x's entry with its
// content replaced by its canonical text (package canon), the obfuscation
// taken off and hidden and encoded parts appended. The entry itself, which
// is what is quarantined and adopted, keeps its content.
func (x *subject) canonical() *knowledge.Entry {
	if x.judged == nil {
		c := *x.e
		c.Content = canon.Text(x.e.Content)
		x.judged = &c
	}
	return x.judged
}

// run decides es: as one batch when full and there are several (batch.go),
// otherwise one by one, each under the decision lock; full false stops
// after Stage 1; untrusted gives every entry every stage, whoever its
// source. It returns the reports of the entries decided before the first
// undecided one.
func (p *Pipeline) run(ctx context.Context, es []*knowledge.Entry, full, untrusted bool) ([]*Report, error) {
	xs, err := p.prepare(ctx, es, untrusted)
	if err != nil {
		return nil, err
	}
	if full && len(xs) > 1 {
		err := p.batch(ctx, xs)
		return reports(xs), err
	}
	for _, x := range xs {
		if err := p.decideOne(ctx, x, full); err != nil {
			return reports(xs), err
		}
	}
	return reports(xs), nil
}

// prepare copies es, gives an entry without an ID one, checks each and
// embeds the valid ones' contents in one call.
func (p *Pipeline) prepare(ctx context.Context, es []*knowledge.Entry, untrusted bool) ([]*subject, error) {
	xs := make([]*subject, len(es))
	var texts []string
	for i, e := range es {
		if e == nil {
			return nil, fmt.Errorf("ingest: entry %d is nil", i)
		}
		c := *e
		if c.ID == "" {
			c.ID = id.New(p.cfg.Now())
		}
		xs[i] = &subject{e: &c, invalid: c.Validate(), r: newReport(&c), untrusted: untrusted}
		if xs[i].invalid == nil {
			texts = append(texts, c.Content)
		}
	}
	flat, err := p.grim.embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("ingest: %w", err)
	}
	for _, x := range xs {
		if x.invalid == nil {
			x.vec, flat = flat[0], flat[1:]
		}
	}
	return xs, nil
}

// reports returns the reports of xs decided before the first undecided one.
func reports(xs []*subject) []*Report {
	out := make([]*Report, 0, len(xs))
	for _, x := range xs {
		if !x.decided {
			break
		}
		out = append(out, x.r)
	}
	return out
}

func (p *Pipeline) decideOne(ctx context.Context, x *subject, full bool) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.decide(ctx, []*subject{x}, full)
}

// decide runs xs through the stages, in order; the caller holds p.mu.
// Every entry passes Stage 1 on its own; full false leaves the survivors
// pending in quarantine. Otherwise they are planned as clusters (batch.go:
// one entry is a cluster of its own) and each cluster's entries are
// validated, or given their representative's decision.
func (p *Pipeline) decide(ctx context.Context, xs []*subject, full bool) error {
	var screened []int
	for i, x := range xs {
		done, err := p.stage1(ctx, x)
		if err != nil {
			return err
		}
		x.decided = done
		if !done {
			screened = append(screened, i)
		}
	}
	if !full {
		for _, i := range screened {
			await(xs[i])
		}
		return nil
	}
	clusters, contra := p.planBatch(xs, screened)
	for _, c := range clusters {
		if err := p.decideCluster(ctx, xs, c, contra); err != nil {
			return err
		}
	}
	return nil
}

// await leaves x, screened by Stage 1, pending in quarantine for Validate.
func await(x *subject) {
	x.r.Verdict, x.r.Stage, x.r.Code = Quarantined, StageStage1, reason.KnowledgeQuarantined
	x.r.Reasons = []string{string(x.r.Code)}
	x.decided = true
}

// stage1 refuses a malformed entry, then runs the oracle, immune memory
// and Stage 1 on x. done reports that they decided it (held or rejected:
// x.r is final); otherwise it waits, screened, as pending in quarantine for
// Stage 2.
func (p *Pipeline) stage1(ctx context.Context, x *subject) (done bool, err error) {
	if x.invalid != nil {
		p.refuseInvalid(x)
		return true, nil
	}
	if stage, code, ok := p.known(x); ok {
		return true, p.hold(ctx, x, stage, code)
	}
	now := p.cfg.Now()
	if err := p.cfg.Checker.Check(ctx, x.e, now); err != nil {
		return true, p.refuse(ctx, x, err)
	}
	if p.rep.blacklisted(x.e.Source.Agent) {
		return true, p.refuseBlacklisted(ctx, x)
	}
	if ok, err := p.quarantine(ctx, x, now, reason.KnowledgeQuarantined); err != nil {
		return true, err
	} else if !ok {
		return true, p.reject(ctx, x, fault{stage: StageStage1, layer: knowledge.LayerReplay, code: reason.KnowledgeReplayed})
	}
	if f, ok := p.screen(x); !ok {
		return true, p.reject(ctx, x, f)
	}
	return false, nil
}

// validate runs x, screened by Stage 1, through the rest of the stages:
// Stage 2's votes, the consensus they reach, under scrutiny (the batch's
// reason to look harder; "" for none), and what follows from it
// (conclude). It returns the decision, which a batch propagates to the
// entry's cluster; when Stage 2 could not decide, x waits in quarantine and
// the decision passes no layer.
func (p *Pipeline) validate(ctx context.Context, x *subject, scrutiny string) (decision, error) {
	b, ok, err := p.stage2(ctx, x)
	if !ok || err != nil {
		return decision{}, err
	}
	d := p.consensus(x, b, x.scrutiny(scrutiny))
	return d, p.conclude(ctx, x, d)
}

// ballot is what Stage 2 gathered on an entry: the layers' votes, the
// layers that passed it, and whether its source is a trusted clade member
// (whose L1 vote is skipped).
type ballot struct {
	votes   []Vote
	passed  []string
	trusted bool
}

// stage2 has every Stage 2 layer vote on x. ok is false when Stage 2
// cannot decide (no validators are configured, or one could not decide):
// x then stays pending in quarantine, and its report says why. A trusted
// clade member's entry skips L1.
func (p *Pipeline) stage2(ctx context.Context, x *subject) (b ballot, ok bool, err error) {
	if len(p.cfg.Validators) == 0 {
		x.r.Verdict, x.r.Stage, x.r.Code = Quarantined, StageStage2, reason.KnowledgeNoConsensus
		x.r.Reasons = []string{string(x.r.Code), "no stage 2 validators are configured"}
		return b, false, nil
	}
	c := &Candidate{Entry: x.canonical(), Embedding: x.vec}
	if p.cfg.Verifier != nil {
		c.Confirmed = p.cfg.Verifier.Check(c.Entry.Content).Confirmed
	}
	if x.e.Claim != nil {
		c.Claims = []knowledge.Claim{*x.e.Claim}
	}
	b.trusted = !x.untrusted && p.trusted(x.e, x.r)
	for _, v := range p.cfg.Validators {
		vote, err := p.vote(ctx, v, c, b.trusted)
		if err != nil {
			if ctx.Err() != nil {
				return b, false, ctx.Err()
			}
			x.r.Verdict, x.r.Stage, x.r.Layer, x.r.Code = Quarantined, StageStage2, v.Layer(), reason.KnowledgeValidationError
			x.r.Reasons = []string{string(x.r.Code), v.Layer().String() + " could not decide"}
			return b, false, nil
		}
		b.votes = append(b.votes, vote)
		x.r.Votes = b.votes
		if !vote.Skipped {
			x.r.Scores[vote.Layer.String()] = vote.Score
		}
		for k, s := range vote.Signals {
			x.r.Scores[k] = s
		}
		if vote.Pass && !vote.Skipped {
			b.passed = append(b.passed, vote.Layer.String())
		}
	}
	return b, true, nil
}

// vote is v's vote on c; L1 is skipped for a trusted clade member.
func (p *Pipeline) vote(ctx context.Context, v Validator, c *Candidate, trusted bool) (Vote, error) {
	if trusted && v.Layer() == knowledge.LayerAnomaly {
		return Vote{Layer: v.Layer(), Skipped: true,
			Reasons: []string{fmt.Sprintf("skipped for a trusted member of clade %s", p.cfg.Clade)}}, nil
	}
	vote, err := v.Validate(ctx, c, p.grim)
	if err == nil && vote.Layer == knowledge.NoLayer {
		vote.Layer = v.Layer()
	}
	return vote, err
}

// consensus decides x from its ballot by validate.Tally: it passes when
// enough of the votes that ran pass and none that failed is decisive. The
// threshold is the strictness's, capped at the number of layers that ran,
// and raised to Strict's by a failing Scrutiny vote or by scrutiny, the
// batch's reason to look harder ("" for none). The votes are counted as
// the layers weighed them.
func (p *Pipeline) consensus(x *subject, b ballot, scrutiny string) decision {
	votes := make([]validate.Vote, len(b.votes))
	for i, v := range b.votes {
		votes[i] = validate.Vote{Layer: v.Layer, Pass: v.Pass, Skipped: v.Skipped, Decisive: v.Decisive, Scrutiny: v.Scrutiny}
	}
	c := validate.Tally(votes, p.cfg.Strictness, scrutiny != "")
	x.r.Scores["consensus"] = float64(c.Passes)
	if !c.Pass {
		f := p.dissent(b, c, scrutiny)
		return decision{reject: &f}
	}
	return decision{passed: b.passed, trusted: b.trusted}
}

// dissent is the fault of an entry that failed consensus c: the decisive
// layer, else the one that raised scrutiny, else the first that failed,
// and every failing vote's reasons.
func (p *Pipeline) dissent(b ballot, c validate.Consensus, scrutiny string) fault {
	why := []string{fmt.Sprintf("%d of %d votes passed, %s needs %d", c.Passes, knowledge.Validators, p.cfg.Strictness, c.Need)}
	switch {
	case c.Decisive != knowledge.NoLayer:
		why[0] = c.Decisive.String() + " is decisive: its failure rejects the entry without consensus"
	case c.Raised != knowledge.NoLayer:
		why[0] = fmt.Sprintf("%d of %d votes passed; %s raised scrutiny, which needs %d", c.Passes, knowledge.Validators, c.Raised, c.Need)
	case scrutiny != "":
		why[0] = fmt.Sprintf("%d of %d votes passed; %s, which raises scrutiny to %d", c.Passes, knowledge.Validators, scrutiny, c.Need)
	}
	layer := c.Decisive
	if layer == knowledge.NoLayer {
		layer = c.Raised
	}
	code := reason.KnowledgeConsensusFailed
	for _, v := range b.votes {
		if v.Pass || v.Skipped {
			continue
		}
		if layer == knowledge.NoLayer {
			layer = v.Layer
		}
		if v.Decisive && v.Layer == c.Decisive && v.Code != "" {
			code = v.Code
		}
		for _, s := range v.Reasons {
			why = append(why, v.Layer.String()+": "+s)
		}
	}
	return fault{stage: StageStage2, layer: layer, attack: classify(layer), code: code, why: why, stored: true}
}

// conclude carries out decision d on x: rejected; or passed, then, where
// the strictness requires the sandbox, decided by Stage 3, and adopted (or
// confirming an adopted entry) by Stage 4.
func (p *Pipeline) conclude(ctx context.Context, x *subject, d decision) error {
	if d.reject != nil {
		return p.reject(ctx, x, *d.reject)
	}
	if !p.sandboxed(x.e, d.trusted) {
		return p.stage4(ctx, x, d.passed)
	}
	t, err := p.stage3(ctx, x)
	switch {
	case err != nil:
		return err
	case t.wait != "":
		p.awaitSandbox(x, d.passed, t.wait)
		return nil
	case t.reject != nil:
		return p.reject(ctx, x, *t.reject)
	}
	if err := p.stage4(ctx, x, d.passed); err != nil {
		return err
	}
	return p.sandboxPassed(ctx, x, t.out)
}

// stage4 adopts x, which passed consensus (and Stage 3 where required),
// into the Grimoire's external partition under the adoption policy
// (adopt.Adopt: initial confidence and TTL by source, the relationship's
// discount), or, when it repeats an adopted entry, confirms that one.
func (p *Pipeline) stage4(ctx context.Context, x *subject, passed []string) error {
	now := p.cfg.Now()
	// The provenance picks the relationship (purchased: marketplace, clade:
	// clade, cross_user: commons); entries carry no generation, so nothing
	// arrives as inheritance here.
	rec, err := adopt.Adopt(x.e, adopt.Origin{}, now)
	if err != nil {
		return fmt.Errorf("ingest %s: adopt: %w", x.e.ID, err)
	}
	if k, ok := p.grim.confirmable(x.e); ok {
		return p.confirm(ctx, x, passed, k, now)
	}
	return p.adopt(ctx, x, passed, rec, now)
}

// fault is why an entry is rejected: the stage and layer that rejected it,
// the attack it most resembles (NoAttack: none, nothing is remembered),
// the reason code and the reasons after it. stored says its quarantine row
// exists and fails with the code; lesson names the lesson the stage stored
// about it already (a sandbox breach's), "" for none.
type fault struct {
	stage  Stage
	layer  knowledge.Layer
	attack knowledge.AttackType
	code   reason.Code
	why    []string
	stored bool
	lesson string
}

// decision is what consensus decides of an entry, or what a batch takes
// from its cluster's representative: reject it, or pass it with the layers
// that passed; trusted says its source is a trusted clade member, which
// skips the sandbox.
type decision struct {
	reject  *fault
	passed  []string
	trusted bool
}

// actionable reports whether entries of type t suggest actions, which the
// seed sends to the Stage 3 sandbox (§5.3).
func actionable(t knowledge.EntryType) bool {
	return t == knowledge.TypeHeuristic || t == knowledge.TypeStrategyFragment
}

// sandboxed reports whether an entry e that passed consensus goes to
// Stage 3: it is actionable, the strictness requires the sandbox and its
// source is not a trusted clade member.
func (p *Pipeline) sandboxed(e *knowledge.Entry, trusted bool) bool {
	return p.cfg.Strictness.SandboxRequired() && actionable(e.Type) && !trusted
}

// classify names the attack a Stage 2 rejection by layer most resembles:
// an embedding-space anomaly (L1) is an EmbeddingAnomaly; divergence,
// contradiction of claims, a false on-chain claim and mental-model
// conflicts (L2, L3, L3b) are the seed's semantic contradiction,
// CausalGraphPoisoning.
func classify(layer knowledge.Layer) knowledge.AttackType {
	if layer == knowledge.LayerAnomaly {
		return knowledge.EmbeddingAnomaly
	}
	return knowledge.CausalGraphPoisoning
}

// reject decides x as rejected for f: its quarantine row (if stored)
// fails with f's attack, an identified attack is remembered by immune
// memory and, but for a forgery, by the oracle, and a rejection whose
// source is established leaves a lesson keyed on its source and reason
// (lesson.go), named in the report.
func (p *Pipeline) reject(ctx context.Context, x *subject, f fault) error {
	e := x.e
	if f.stored {
		err := p.cfg.Store.SetQuarantineStatus(ctx, e.ID, store.QuarantineFailed, string(f.code), f.attack, p.cfg.Now())
		if err != nil {
			return fmt.Errorf("ingest %s: fail: %w", e.ID, err)
		}
	}
	x.r.Lesson = f.lesson
	if f.teaches() {
		l, err := p.rejectionLesson(ctx, x, f)
		if err != nil {
			return fmt.Errorf("ingest %s: lesson: %w", e.ID, err)
		}
		x.r.Lesson = l
	}
	if f.attack != knowledge.NoAttack && f.attack != knowledge.ProvenanceForgery {
		if judgedContent(f.attack) {
			if err := p.remember(ctx, x, f.code, f.attack); err != nil {
				return fmt.Errorf("ingest %s: remember: %w", e.ID, err)
			}
		}
		if err := p.rejectedShare(ctx, e, x.r); err != nil {
			return fmt.Errorf("ingest %s: demote the sharer: %w", e.ID, err)
		}
	}
	x.r.Verdict, x.r.Stage, x.r.Layer, x.r.Attack, x.r.Code = Rejected, f.stage, f.layer, f.attack, f.code
	x.r.Reasons = append([]string{string(f.code)}, f.why...)
	p.publish(x.log, event.GrimoireValidationFailed, f.code, false, event.ValidationFailed{EntryID: e.ID, FailedLayer: failedLayer(f.stage, f.layer), Reason: string(f.code)})
	return nil
}

func failedLayer(stage Stage, layer knowledge.Layer) string {
	if layer == knowledge.NoLayer {
		return string(stage)
	}
	return string(stage) + "/" + layer.String()
}

// judgedContent reports whether a rejection for attack judged the entry's
// content, so that immune memory and the oracle may learn it. A
// confidence inflation judged only the confidence the entry claims: its
// content was never read by a layer, and the same words at an honest
// confidence are validated like any entry. Were it remembered, anyone
// could get a true fact held everywhere (oracle hits reach every peer) by
// sending it once at 0.99 from a channel whose ceiling is 0.5. The
// rejection still teaches a lesson and still counts against the sharer.
func judgedContent(attack knowledge.AttackType) bool {
	return attack != knowledge.ConfidenceInflation
}

// remember records the immune signature of x, rejected for attack with
// code, and flags its content in the oracle; it saves both to the State,
// if any, at once, or, in a batch, in x's log for when the batch ends.
func (p *Pipeline) remember(ctx context.Context, x *subject, code reason.Code, attack knowledge.AttackType) error {
	// Record fails only for an empty embedding or an out-of-range attack,
	// neither of which reaches here: then there is no signature to save.
	sig, err := p.cfg.Immune.Record(features(x.e, x.vec), code, attack)
	if !consensusOnly(code) {
		p.cfg.Oracle.MarkBad(x.e.Content, x.vec)
		if j := x.canonical(); j.Content != x.e.Content {
			p.cfg.Oracle.MarkBad(j.Content, x.vec) // the same poison, however it is encoded next time
		}
	}
	var sigs []oracle.Signature
	if err == nil {
		sigs = append(sigs, sig)
	}
	if p.cfg.Fleet != nil {
		p.out.learnt(sigs)
	}
	if x.log != nil {
		x.log.learnt(sigs)
		return nil
	}
	return p.saveMemory(ctx, sigs)
}

// saveMemory saves the oracle's filters and the immune signatures sigs
// just recorded, if the pipeline has a State.
func (p *Pipeline) saveMemory(ctx context.Context, sigs []oracle.Signature) error {
	if p.cfg.State == nil {
		return nil
	}
	p.saving.Lock()
	defer p.saving.Unlock()
	f := p.cfg.Oracle.Filters()
	return p.cfg.State.SaveMemory(context.WithoutCancel(ctx), &f, sigs, p.cfg.Immune.Capacity(), p.cfg.Now())
}

// LoadMemory restores what the pipeline saved in st, if anything: the
// filters are merged into o, the signatures replace im's (keeping its
// capacity's newest).
func LoadMemory(ctx context.Context, st store.Memory, o *oracle.Oracle, im *oracle.Immune) error {
	f, ok, err := st.OracleFilters(ctx)
	if err != nil {
		return err
	}
	if ok {
		if err := o.MergeFilters(f); err != nil {
			return fmt.Errorf("oracle filters: %w", err)
		}
	}
	sigs, err := st.ImmuneSignatures(ctx)
	if err != nil {
		return err
	}
	if err := im.Restore(sigs); err != nil {
		return fmt.Errorf("immune memory: %w", err)
	}
	return nil
}

func features(e *knowledge.Entry, vec []float32) oracle.Features {
	return oracle.Features{Source: e.Source.Provenance.String(), Category: e.Type.String(), Confidence: e.Confidence, Embedding: vec}
}

// publish publishes an event of kind on the bus, if any: at once, or, in
// a batch, in the deciding entry's log (log non-nil) for when the batch
// ends.
func (p *Pipeline) publish(log *entryLog, kind event.Kind, code reason.Code, ok bool, payload event.Payload) {
	if p.cfg.Bus == nil {
		return
	}
	ev := event.Event{Kind: kind, Success: ok, Code: string(code), Payload: payload}
	if log != nil {
		log.events = append(log.events, ev)
		return
	}
	p.cfg.Bus.Publish(ev)
}

// finite reports whether every component of v is a finite number.
func finite(v []float32) bool {
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}
