// Package ingest is the knowledge ingestion pipeline (seed 001): the only
// package that knows the order in which an external entry is screened before
// it may reach the Grimoire. Reading Pipeline.Ingest top to bottom is reading
// that order:
//
//  0. the oracle: content flagged as poison here or by a peer (exact hash or
//     a near-duplicate embedding) is quarantined;
//     0b. immune memory: an entry structurally like one rejected before is
//     quarantined with the flag previously_rejected_pattern;
//  1. Stage 1: the quarantine Checker (EIP-712 provenance, identity registry,
//     replay), then the entry is put into the quarantine store as pending and
//     screened: instruction-like text (ContentInjection), claimed confidence
//     above what its provenance allows (ConfidenceInflation), and a supplied
//     embedding that does not match the content (EmbeddingAnomaly);
//  2. Stage 2: every Validator votes and the entry is adopted when at least
//     Strictness.Threshold() of the votes that ran pass, otherwise rejected.
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
// and the Grimoire view. A rejection for an attack records an immune
// signature and flags the content in the oracle, except a provenance
// forgery: it says nothing about the content, every forgery already fails
// Stage 1, and remembering its content or structure would let anyone hold
// genuine knowledge in quarantine here and at every peer by posting an
// unsigned copy of it. A rejection without an attack (a malformed entry, a
// replay) is not remembered either.
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
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"sync"
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
	"github.com/wardhq/ward/internal/trust/screen"
)

// MinEmbeddingCosine is the least cosine similarity a supplied embedding
// must have with the pipeline's own embedding of the content; below it, or
// at another dimension, the entry is an EmbeddingAnomaly.
const MinEmbeddingCosine = 0.8

// Flags a Report may carry.
const (
	FlagPreviouslyRejected = "previously_rejected_pattern"
	FlagOracleExact        = "oracle_exact"
	FlagOracleSimilar      = "oracle_similar"
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
}

// Candidate is an entry under Stage 2 validation: the entry (read-only),
// the pipeline's own embedding of its content and its structured claims (the
// entry's Claim, if any; extracting claims from text is the validators'
// business).
type Candidate struct {
	Entry     *knowledge.Entry
	Embedding []float32
	Claims    []knowledge.Claim
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
}

// Pipeline runs entries through the stages. Make it with New.
type Pipeline struct {
	cfg  Config
	grim *Grimoire
	mu   sync.Mutex // serialises decisions; guards the fields below
	// log buffers a batch's events, published per entry in order when the
	// batch ends; nil outside a batch.
	log   *eventLog
	clade cladeBook
	rep   *ledger // per source metrics and reputation (reputation.go)
	// lessons are the lessons learnt (rollback.go), kept in State.
	lessons *adopt.Lessons
	// influence remembers the external entries each session retrieved
	// (influence.go).
	influence *influences
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
	rs, err := p.run(ctx, es, true)
	return rs, errors.Join(err, p.account(ctx, es, rs, true))
}

// Quarantine runs es through the oracle, immune memory and Stage 1 only:
// an entry that passes is left pending in quarantine (verdict quarantined,
// reason KNOWLEDGE_QUARANTINED) for Validate to decide.
func (p *Pipeline) Quarantine(ctx context.Context, es []*knowledge.Entry) ([]*Report, error) {
	rs, err := p.run(ctx, es, false)
	return rs, errors.Join(err, p.account(ctx, es, rs, true))
}

func (p *Pipeline) run(ctx context.Context, es []*knowledge.Entry, full bool) ([]*Report, error) {
	entries := make([]*knowledge.Entry, len(es))
	invalid := make([]error, len(es))
	var texts []string
	for i, e := range es {
		if e == nil {
			return nil, fmt.Errorf("ingest: entry %d is nil", i)
		}
		c := *e
		if c.ID == "" {
			c.ID = id.New(p.cfg.Now())
		}
		entries[i] = &c
		if invalid[i] = c.Validate(); invalid[i] == nil {
			texts = append(texts, c.Content)
		}
	}
	flat, err := p.grim.embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("ingest: %w", err)
	}
	vecs := make([][]float32, len(entries)) // nil for an invalid entry
	for i := range entries {
		if invalid[i] == nil {
			vecs[i], flat = flat[0], flat[1:]
		}
	}
	if full && len(entries) > 1 {
		return p.batch(ctx, entries, vecs, invalid)
	}
	reports := make([]*Report, 0, len(es))
	for i, e := range entries {
		r, err := p.ingest(ctx, e, vecs[i], invalid[i], full)
		if err != nil {
			return reports, err
		}
		reports = append(reports, r)
	}
	return reports, nil
}

func (p *Pipeline) invalid(e *knowledge.Entry, err error) *Report {
	r := newReport(e)
	r.Verdict, r.Stage, r.Code = Rejected, StageStage1, reason.KnowledgeInvalid
	r.Reasons = []string{string(reason.KnowledgeInvalid), err.Error()}
	p.publish(GrimoireValidationFailed, r.Code, false, failedPayload{EntryID: e.ID, FailedLayer: string(StageStage1), Reason: string(r.Code)})
	return r
}

// ingest decides one entry whose content embeds to vec, or that is
// invalid.
func (p *Pipeline) ingest(ctx context.Context, e *knowledge.Entry, vec []float32, invalid error, full bool) (*Report, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if invalid != nil {
		return p.invalid(e, invalid), nil
	}
	r, done, err := p.stage1(ctx, e, vec)
	if done || err != nil {
		return r, err
	}
	if !full {
		r.Verdict, r.Stage, r.Code = Quarantined, StageStage1, reason.KnowledgeQuarantined
		r.Reasons = []string{string(r.Code)}
		return r, nil
	}
	return p.consensus(ctx, e, vec, r)
}

// stage1 runs the oracle, immune memory and Stage 1 on a valid entry.
// done reports that they decided it (held or rejected: r is final);
// otherwise it waits, screened, as pending in quarantine for Stage 2, and
// r is its report so far.
func (p *Pipeline) stage1(ctx context.Context, e *knowledge.Entry, vec []float32) (r *Report, done bool, err error) {
	r = newReport(e)
	decided := func(r *Report, err error) (*Report, bool, error) { return r, true, err }

	// 0: the oracle.
	if hit := p.cfg.Oracle.Check(e.Content, vec); hit.Any() {
		if hit.Exact {
			r.Flags = append(r.Flags, FlagOracleExact)
		}
		if hit.Similar {
			r.Flags = append(r.Flags, FlagOracleSimilar)
		}
		return decided(p.hold(ctx, e, vec, r, StageOracle, reason.KnowledgeOracleHit))
	}
	// 0b: immune memory.
	if m, ok := p.cfg.Immune.Match(features(e, vec)); ok {
		r.Flags = append(r.Flags, FlagPreviouslyRejected)
		r.Scores["immune_distance"] = float64(m.Distance)
		p.publish(GrimoireImmuneMatch, reason.KnowledgeImmuneMatch, false,
			immunePayload{EntryID: e.ID, Signature: fmt.Sprintf("%x", m.ID)})
		return decided(p.hold(ctx, e, vec, r, StageImmune, reason.KnowledgeImmuneMatch))
	}

	// 1: provenance, then the quarantine collection, then the screens.
	now := p.cfg.Now()
	if err := p.cfg.Checker.Check(ctx, e, now); err != nil {
		return decided(p.refuse(ctx, e, vec, r, err))
	}
	if p.rep.blacklisted(e.Source.Agent) {
		return decided(p.refuseBlacklisted(ctx, e, vec, r))
	}
	if ok, err := p.quarantine(ctx, e, now, reason.KnowledgeQuarantined); err != nil {
		return nil, true, err
	} else if !ok {
		return decided(p.reject(ctx, e, vec, r, StageStage1, knowledge.LayerReplay, knowledge.NoAttack, reason.KnowledgeReplayed, nil, false))
	}
	if layer, attack, code, why := p.screen(e, vec, r); attack != knowledge.NoAttack {
		return decided(p.reject(ctx, e, vec, r, StageStage1, layer, attack, code, why, true))
	}
	return r, false, nil
}

// hold quarantines an entry the oracle or immune memory flagged. Its
// provenance is still checked: a forgery is rejected (and keeps its flags);
// a verified entry waits in the quarantine store for review.
func (p *Pipeline) hold(ctx context.Context, e *knowledge.Entry, vec []float32, r *Report, stage Stage, code reason.Code) (*Report, error) {
	now := p.cfg.Now()
	if err := p.cfg.Checker.Check(ctx, e, now); err != nil {
		if quarantine.Attack(err) == knowledge.ProvenanceForgery {
			return p.refuse(ctx, e, vec, r, err)
		}
		if !errors.Is(err, quarantine.ErrReplayed) && !errors.Is(err, knowledge.ErrInvalid) {
			return nil, fmt.Errorf("ingest %s: %w", e.ID, err)
		}
		r.Reasons = append(r.Reasons, "not stored: "+checkReason(err))
	} else if p.rep.blacklisted(e.Source.Agent) {
		return p.refuseBlacklisted(ctx, e, vec, r)
	} else if _, err := p.quarantine(ctx, e, now, code); err != nil {
		return nil, err
	}
	r.Verdict, r.Stage, r.Code = Quarantined, stage, code
	r.Reasons = append([]string{string(code)}, r.Reasons...)
	return r, nil
}

// refuse reports a Checker refusal: a forgery is rejected and remembered;
// an invalid entry or a replay is rejected without an attack; any other
// failure (the registry could not answer) is an error.
func (p *Pipeline) refuse(ctx context.Context, e *knowledge.Entry, vec []float32, r *Report, err error) (*Report, error) {
	switch {
	case quarantine.Attack(err) == knowledge.ProvenanceForgery:
		return p.reject(ctx, e, vec, r, StageStage1, knowledge.LayerProvenance, knowledge.ProvenanceForgery, reason.KnowledgeForgery, []string{checkReason(err)}, false)
	case errors.Is(err, quarantine.ErrReplayed):
		return p.reject(ctx, e, vec, r, StageStage1, knowledge.LayerReplay, knowledge.NoAttack, reason.KnowledgeReplayed, nil, false)
	case errors.Is(err, knowledge.ErrInvalid):
		return p.reject(ctx, e, vec, r, StageStage1, knowledge.LayerProvenance, knowledge.NoAttack, reason.KnowledgeInvalid, []string{err.Error()}, false)
	}
	return nil, fmt.Errorf("ingest %s: %w", e.ID, err)
}

// checkReason names a Checker refusal without echoing the entry.
func checkReason(err error) string {
	for _, s := range []error{quarantine.ErrUnsigned, quarantine.ErrSignatureLength, quarantine.ErrMalleable,
		quarantine.ErrRecovery, quarantine.ErrSignerMismatch, quarantine.ErrUnknownAgent, quarantine.ErrMalformed,
		quarantine.ErrReplayed, knowledge.ErrInvalid} {
		if errors.Is(err, s) {
			return s.Error()
		}
	}
	return "provenance not verified"
}

// quarantine puts e into the quarantine store as pending; false means the
// store already holds it (the durable replay guard).
func (p *Pipeline) quarantine(ctx context.Context, e *knowledge.Entry, now time.Time, code reason.Code) (bool, error) {
	_, err := p.cfg.Store.PutQuarantined(ctx, &store.QuarantinedEntry{Entry: *e, QuarantinedAt: now})
	if errors.Is(err, store.ErrQuarantineExists) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("ingest %s: quarantine: %w", e.ID, err)
	}
	p.publish(GrimoireEntryQuarantined, code, true, quarantinedPayload{EntryID: e.ID,
		Source: e.Source.Provenance.String(), Agent: strings.ToLower(e.Source.Agent), EntryType: e.Type.String()})
	return true, nil
}

// Ceiling returns the most confidence an entry of provenance pv may claim:
// the seed's cross-source discount applied to certainty (marketplace 0.60,
// clade 0.80, cross-user as commons 0.50), 1 for self-generated knowledge.
func Ceiling(pv knowledge.Provenance) float64 {
	switch pv {
	case knowledge.Self:
		return 1
	case knowledge.Purchased:
		return 0.60
	case knowledge.Clade:
		return 0.80
	case knowledge.CrossUser:
		return 0.50
	}
	return 0
}

// InitialConfidence returns the seed's initial confidence for e's source
// (clade and purchased 0.2, cross-user 0.1), never above what the source
// claimed; self-generated knowledge keeps its own confidence. It does not
// apply the relationship's discount: adoption uses adopt.Adopt, and this
// remains for entries without a record (Grimoire.Seed, and Load's
// fallback).
func InitialConfidence(e *knowledge.Entry) float64 {
	c := e.Confidence
	switch e.Source.Provenance {
	case knowledge.Self:
		return c
	case knowledge.Clade, knowledge.Purchased:
		return min(c, 0.2)
	case knowledge.CrossUser:
		return min(c, 0.1)
	}
	return 0
}

// screen runs Stage 1's content checks on an entry whose provenance holds.
func (p *Pipeline) screen(e *knowledge.Entry, vec []float32, r *Report) (layer knowledge.Layer, attack knowledge.AttackType, code reason.Code, why []string) {
	if signals := detect(e); len(signals) > 0 {
		return knowledge.LayerContent, knowledge.ContentInjection, reason.KnowledgeInjection, signals
	}
	ceil := Ceiling(e.Source.Provenance)
	r.Scores["confidence_ceiling"] = ceil
	if !(e.Confidence <= ceil) {
		return knowledge.LayerConfidence, knowledge.ConfidenceInflation, reason.KnowledgeInflation,
			[]string{fmt.Sprintf("claimed confidence %.2f above %.2f allowed for %s", e.Confidence, ceil, e.Source.Provenance)}
	}
	if len(e.Embedding) > 0 {
		if len(e.Embedding) != len(vec) {
			return knowledge.LayerEmbedding, knowledge.EmbeddingAnomaly, reason.KnowledgeEmbedding,
				[]string{fmt.Sprintf("supplied embedding has %d dimensions, the content's has %d", len(e.Embedding), len(vec))}
		}
		cos := float64(embed.Cosine(e.Embedding, vec))
		r.Scores["embedding_cosine"] = cos
		if !(cos >= MinEmbeddingCosine) {
			return knowledge.LayerEmbedding, knowledge.EmbeddingAnomaly, reason.KnowledgeEmbedding,
				[]string{fmt.Sprintf("supplied embedding matches the content at cosine %.3f, below %.2f", cos, MinEmbeddingCosine)}
		}
	}
	return knowledge.NoLayer, knowledge.NoAttack, "", nil
}

// detect runs screen.Knowledge over every text field of e.
func detect(e *knowledge.Entry) []string {
	texts := []string{e.Content}
	if c := e.Claim; c != nil {
		texts = append(texts, c.Subject, c.Relation, c.Object)
		texts = append(texts, c.Conditions...)
	}
	if h := e.Heuristic; h != nil {
		texts = append(texts, h.Conditions...)
		texts = append(texts, h.Actions...)
		for k, v := range h.Parameters {
			texts = append(texts, k, v)
		}
	}
	seen := map[string]bool{}
	var out []string
	for _, t := range texts {
		for _, s := range screen.Knowledge(t) {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// consensus runs Stage 2 on a pending entry and adopts or rejects it.
func (p *Pipeline) consensus(ctx context.Context, e *knowledge.Entry, vec []float32, r *Report) (*Report, error) {
	r, _, err := p.decide(ctx, e, vec, r, "")
	return r, err
}

// decide runs Stage 2 on a pending entry and adopts, holds or rejects it;
// it also returns the layers that passed it. A trusted clade member's entry
// skips L1. The threshold is the strictness's, capped at the number of
// layers that ran (validate.Decide), and raised to Strict's by a failing
// Scrutiny vote or by scrutiny, the batch's reason to look harder ("" for
// none).
func (p *Pipeline) decide(ctx context.Context, e *knowledge.Entry, vec []float32, r *Report, scrutiny string) (*Report, []string, error) {
	if len(p.cfg.Validators) == 0 {
		r.Verdict, r.Stage, r.Code = Quarantined, StageStage2, reason.KnowledgeNoConsensus
		r.Reasons = []string{string(r.Code), "no stage 2 validators are configured"}
		return r, nil, nil
	}
	c := &Candidate{Entry: e, Embedding: vec}
	if e.Claim != nil {
		c.Claims = []knowledge.Claim{*e.Claim}
	}
	trusted := p.trusted(e, r)
	var (
		votes  []Vote
		passed []string
	)
	for _, v := range p.cfg.Validators {
		if trusted && v.Layer() == knowledge.LayerAnomaly {
			votes = append(votes, Vote{Layer: v.Layer(), Skipped: true,
				Reasons: []string{fmt.Sprintf("skipped for a trusted member of clade %s", p.cfg.Clade)}})
			continue
		}
		vote, err := v.Validate(ctx, c, p.grim)
		if err != nil {
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			r.Verdict, r.Stage, r.Layer, r.Code = Quarantined, StageStage2, v.Layer(), reason.KnowledgeValidationError
			r.Reasons = []string{string(r.Code), v.Layer().String() + " could not decide"}
			return r, nil, nil
		}
		if vote.Layer == knowledge.NoLayer {
			vote.Layer = v.Layer()
		}
		votes = append(votes, vote)
		if !vote.Skipped {
			r.Scores[vote.Layer.String()] = vote.Score
		}
		if vote.Pass && !vote.Skipped {
			passed = append(passed, vote.Layer.String())
		}
	}
	need, ran := p.cfg.Strictness.Threshold(), 0
	var decisive, raised knowledge.Layer
	for _, v := range votes {
		if v.Skipped {
			continue
		}
		ran++
		switch {
		case v.Pass:
		case v.Decisive && decisive == knowledge.NoLayer:
			decisive = v.Layer
		case v.Scrutiny && raised == knowledge.NoLayer:
			raised = v.Layer
		}
	}
	if raised != knowledge.NoLayer || scrutiny != "" {
		need = max(need, knowledge.Strict.Threshold())
	}
	need = max(1, min(need, ran)) // nothing vouches for an entry no layer judged
	r.Scores["consensus"] = float64(len(passed))
	if len(passed) < need || decisive != knowledge.NoLayer {
		why := []string{fmt.Sprintf("%d of %d votes passed, %s needs %d", len(passed), knowledge.Validators, p.cfg.Strictness, need)}
		switch {
		case decisive != knowledge.NoLayer:
			why[0] = decisive.String() + " is decisive: its failure rejects the entry without consensus"
		case raised != knowledge.NoLayer:
			why[0] = fmt.Sprintf("%d of %d votes passed; %s raised scrutiny, which needs %d", len(passed), knowledge.Validators, raised, need)
		case scrutiny != "":
			why[0] = fmt.Sprintf("%d of %d votes passed; %s, which raises scrutiny to %d", len(passed), knowledge.Validators, scrutiny, need)
		}
		layer := decisive
		if layer == knowledge.NoLayer {
			layer = raised
		}
		for _, v := range votes {
			if v.Pass || v.Skipped {
				continue
			}
			if layer == knowledge.NoLayer {
				layer = v.Layer
			}
			for _, s := range v.Reasons {
				why = append(why, v.Layer.String()+": "+s)
			}
		}
		r, err := p.reject(ctx, e, vec, r, StageStage2, layer, classify(layer), reason.KnowledgeConsensusFailed, why, true)
		return r, nil, err
	}
	r, err := p.pass(ctx, e, vec, r, passed, trusted)
	return r, passed, err
}

// actionable reports whether entries of type t suggest actions, which the
// seed sends to the Stage 3 sandbox (§5.3).
func actionable(t knowledge.EntryType) bool {
	return t == knowledge.TypeHeuristic || t == knowledge.TypeStrategyFragment
}

// pass decides an entry that passed consensus: adopted, unless it is
// actionable, the strictness requires the sandbox and its source is not a
// trusted clade member; then Stage 3 decides it (sandbox.go), or, with no
// Stage3 configured, it stays pending in quarantine.
func (p *Pipeline) pass(ctx context.Context, e *knowledge.Entry, vec []float32, r *Report, passed []string, trusted bool) (*Report, error) {
	if !p.cfg.Strictness.SandboxRequired() || !actionable(e.Type) || trusted {
		return p.adopt(ctx, e, vec, r, passed)
	}
	if p.cfg.Stage3 != nil {
		return p.stage3(ctx, e, vec, r, passed)
	}
	return p.sandboxRequired(e, r, passed, "no Stage 3 evaluator is configured"), nil
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

// adopt moves a pending entry that passed consensus into the Grimoire's
// external partition under Stage 4's adoption policy (adopt.Adopt: initial
// confidence and TTL by source, the relationship's discount) and stores its
// record with it. An entry that repeats an adopted one confirms it instead
// (see confirm).
func (p *Pipeline) adopt(ctx context.Context, e *knowledge.Entry, vec []float32, r *Report, passed []string) (*Report, error) {
	now := p.cfg.Now()
	// The provenance picks the relationship (purchased: marketplace, clade:
	// clade, cross_user: commons); entries carry no generation, so nothing
	// arrives as inheritance here.
	rec, err := adopt.Adopt(e, adopt.Origin{}, now)
	if err != nil {
		return nil, fmt.Errorf("ingest %s: adopt: %w", e.ID, err)
	}
	if k, ok := p.grim.confirmable(e); ok {
		return p.confirm(ctx, e, r, passed, k, now)
	}
	if err := p.cfg.Store.SetQuarantineStatus(ctx, e.ID, store.QuarantinePassed, string(reason.KnowledgeAdopted), knowledge.NoAttack, now); err != nil {
		return nil, fmt.Errorf("ingest %s: pass: %w", e.ID, err)
	}
	p.publish(GrimoireValidationPassed, reason.KnowledgeAdopted, true, passedPayload{EntryID: e.ID, LayersPassed: passed, Score: meanScore(r, passed)})
	if err := p.cfg.Store.PutEntry(ctx, &store.GrimoireEntry{Entry: *e, Partition: knowledge.PartitionExternal, Created: now, Adoption: &rec}); err != nil {
		return nil, fmt.Errorf("ingest %s: adopt: %w", e.ID, err)
	}
	conf := rec.Confidence
	if p.clade.rejected(e.ID) {
		conf = CladeRejectedConfidence
	}
	if err := p.grim.add(e, vec, knowledge.PartitionExternal, conf, &rec); err != nil {
		return nil, fmt.Errorf("ingest %s: %w", e.ID, err)
	}
	p.grim.observe([]string{e.Content})
	p.publish(GrimoireEntryAdopted, reason.KnowledgeAdopted, true, adoptedPayload{EntryID: e.ID, InitialConfidence: conf,
		Partition: knowledge.PartitionExternal.String(), ValidationStatus: rec.Status.String(), Expires: rec.Expires})
	r.Verdict, r.Stage, r.Code, r.Confidence = Adopted, StageAdopt, reason.KnowledgeAdopted, conf
	r.InitialConfidence, r.ValidationStatus, r.Expires = rec.Confidence, rec.Status.String(), rec.Expires
	r.Reasons = []string{string(reason.KnowledgeAdopted), fmt.Sprintf("%d of %d votes passed (%s)", len(passed), knowledge.Validators, strings.Join(passed, ", "))}
	return r, nil
}

// confirm decides an entry that passed consensus and repeats the adopted
// entry k (same content hash, or same structured claim): it is evidence for
// k (adopt.Confirm, whose credit follows seed 6.1b: identical content and
// the same agent earn nothing, a shared on-chain anchor half), not a new
// entry. Its quarantine row passes; k's updated record is stored and k's
// confidence in the view follows it (unless the clade rejected k).
func (p *Pipeline) confirm(ctx context.Context, e *knowledge.Entry, r *Report, passed []string, k Known, now time.Time) (*Report, error) {
	rec, credit, err := adopt.Confirm(*k.Adoption, adopt.ConfirmationFrom(e, now))
	full := errors.Is(err, adopt.ErrInvalid) && len(k.Adoption.Confirmations) >= adopt.MaxConfirmations
	if err != nil && !full {
		return nil, fmt.Errorf("ingest %s: confirm %s: %w", e.ID, k.Entry.ID, err)
	}
	if err := p.cfg.Store.SetQuarantineStatus(ctx, e.ID, store.QuarantinePassed, string(reason.KnowledgeAdopted)+" (confirms "+k.Entry.ID+")", knowledge.NoAttack, now); err != nil {
		return nil, fmt.Errorf("ingest %s: pass: %w", e.ID, err)
	}
	p.publish(GrimoireValidationPassed, reason.KnowledgeAdopted, true, passedPayload{EntryID: e.ID, LayersPassed: passed, Score: meanScore(r, passed)})
	if !full {
		if err := p.cfg.Store.PutAdoption(ctx, &rec); err != nil {
			return nil, fmt.Errorf("ingest %s: confirm %s: %w", e.ID, k.Entry.ID, err)
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
	p.publish(GrimoireEntryConfirmed, reason.KnowledgeAdopted, true, confirmedPayload{EntryID: e.ID, Confirms: k.Entry.ID,
		Credit: credit.String(), Confidence: conf, ValidationStatus: rec.Status.String(), Validations: rec.Validations})
	r.Verdict, r.Stage, r.Code, r.Confidence = Confirmed, StageAdopt, reason.KnowledgeAdopted, conf
	r.InitialConfidence, r.ValidationStatus, r.Expires = k.Adoption.Confidence, rec.Status.String(), rec.Expires
	r.Confirms, r.Credit = k.Entry.ID, credit.String()
	r.Scores["credit_weight"] = credit.Weight()
	r.Reasons = []string{string(reason.KnowledgeAdopted),
		fmt.Sprintf("%d of %d votes passed (%s)", len(passed), knowledge.Validators, strings.Join(passed, ", ")),
		fmt.Sprintf("repeats adopted entry %s: a %s confirmation, its confidence %.3f to %.3f", k.Entry.ID, credit, k.Adoption.Confidence, rec.Confidence)}
	if full {
		r.Reasons[2] = fmt.Sprintf("repeats adopted entry %s, whose confirmation log is full (%d)", k.Entry.ID, adopt.MaxConfirmations)
	}
	return r, nil
}

func meanScore(r *Report, passed []string) float64 {
	score := 0.0
	for _, l := range passed {
		score += r.Scores[l]
	}
	return score / float64(len(passed))
}

// reject decides e as rejected: its quarantine row (if stored) fails with
// attack, and an identified attack is remembered by immune memory and, but
// for a forgery, by the oracle.
func (p *Pipeline) reject(ctx context.Context, e *knowledge.Entry, vec []float32, r *Report, stage Stage, layer knowledge.Layer,
	attack knowledge.AttackType, code reason.Code, why []string, stored bool) (*Report, error) {
	if stored {
		err := p.cfg.Store.SetQuarantineStatus(ctx, e.ID, store.QuarantineFailed, string(code), attack, p.cfg.Now())
		if err != nil {
			return nil, fmt.Errorf("ingest %s: fail: %w", e.ID, err)
		}
	}
	if attack != knowledge.NoAttack && attack != knowledge.ProvenanceForgery {
		if err := p.remember(ctx, e, vec, code, attack); err != nil {
			return nil, fmt.Errorf("ingest %s: remember: %w", e.ID, err)
		}
		if err := p.rejectedShare(ctx, e, r); err != nil {
			return nil, fmt.Errorf("ingest %s: demote the sharer: %w", e.ID, err)
		}
	}
	r.Verdict, r.Stage, r.Layer, r.Attack, r.Code = Rejected, stage, layer, attack, code
	r.Reasons = append([]string{string(code)}, why...)
	p.publish(GrimoireValidationFailed, code, false, failedPayload{EntryID: e.ID, FailedLayer: failedLayer(stage, layer), Reason: string(code)})
	return r, nil
}

func failedLayer(stage Stage, layer knowledge.Layer) string {
	if layer == knowledge.NoLayer {
		return string(stage)
	}
	return string(stage) + "/" + layer.String()
}

// remember records a rejected entry's immune signature and flags its
// content in the oracle, and saves both to the State, if any: at once, or
// in a batch when the batch ends.
func (p *Pipeline) remember(ctx context.Context, e *knowledge.Entry, vec []float32, code reason.Code, attack knowledge.AttackType) error {
	// Record fails only for an empty embedding or an out-of-range attack,
	// neither of which reaches here: then there is no signature to save.
	sig, err := p.cfg.Immune.Record(features(e, vec), code, attack)
	p.cfg.Oracle.MarkBad(e.Content, vec)
	var sigs []oracle.Signature
	if err == nil {
		sigs = append(sigs, sig)
	}
	if p.log != nil {
		p.log.learnt = true
		p.log.sigs = append(p.log.sigs, sigs...)
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

func (p *Pipeline) publish(kind event.Kind, code reason.Code, ok bool, payload any) {
	if p.cfg.Bus == nil {
		return
	}
	b, _ := json.Marshal(payload) // plain structs of strings and numbers
	ev := event.Event{Kind: kind, Success: ok, Code: string(code), Summary: string(b)}
	if p.log != nil {
		p.log.add(ev)
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
