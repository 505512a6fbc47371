package ingest

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/embed"
	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/oracle"
	"github.com/wardhq/ward/internal/quarantine"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/trust/canon"
	"github.com/wardhq/ward/internal/trust/screen"
	"github.com/wardhq/ward/internal/validate"
)

// refuseInvalid rejects x, malformed, at Stage 1 without storing it.
func (p *Pipeline) refuseInvalid(x *subject) {
	x.r.Verdict, x.r.Stage, x.r.Code = Rejected, StageStage1, reason.KnowledgeInvalid
	x.r.Reasons = []string{string(reason.KnowledgeInvalid), x.invalid.Error()}
	p.publish(x.log, event.GrimoireValidationFailed, x.r.Code, false, event.ValidationFailed{EntryID: x.e.ID, FailedLayer: string(StageStage1), Reason: string(x.r.Code)})
}

// known checks x against the oracle (stage 0) and immune memory (0b): ok
// reports a hit, with the stage and code to hold x at; the hit's flags are
// on x's report.
func (p *Pipeline) known(x *subject) (stage Stage, code reason.Code, ok bool) {
	hit := p.cfg.Oracle.Check(x.e.Content, x.vec)
	if j := x.canonical(); j.Content != x.e.Content && !hit.Exact {
		hit.Exact = p.cfg.Oracle.Check(j.Content, x.vec).Exact
	}
	if hit.Any() {
		if hit.Exact {
			x.r.Flags = append(x.r.Flags, FlagOracleExact)
		}
		if hit.Similar {
			x.r.Flags = append(x.r.Flags, FlagOracleSimilar)
		}
		return StageOracle, reason.KnowledgeOracleHit, true
	}
	if m, ok := p.cfg.Immune.Match(features(x.e, x.vec)); ok {
		x.r.Scores["immune_distance"] = float64(m.Distance)
		p.publish(x.log, event.GrimoireImmuneMatch, reason.KnowledgeImmuneMatch, false,
			event.ImmuneMatch{EntryID: x.e.ID, Signature: fmt.Sprintf("%x", m.ID)})
		if consensusOnly(m.Reason) {
			// A Stage 2 consensus is statistical: its rejection may be a
			// false positive, and one must not become many. The near-copy
			// goes on to be judged on its own evidence, under scrutiny.
			scrutinise(x, m)
			return "", "", false
		}
		x.r.Flags = append(x.r.Flags, FlagPreviouslyRejected)
		return StageImmune, reason.KnowledgeImmuneMatch, true
	}
	return "", "", false
}

// scrutinise marks x, which matches m, a signature of a rejection by
// Stage 2 consensus alone, for validation under scrutiny.
func scrutinise(x *subject, m oracle.Match) {
	x.r.Flags = append(x.r.Flags, FlagConsensusRejectedPattern)
	x.suspect = fmt.Sprintf("a near-copy (sketch distance %d) of an entry Stage 2 consensus rejected", m.Distance)
}

// consensusOnly reports whether a rejection for code rests on Stage 2's
// consensus alone (L1, L2 and L3b, statistical and fallible), rather than
// on evidence a layer names: a screen, a claim the book or the chain
// contradicts (L3), the sandbox, a rollback. Its immune signature only
// raises scrutiny of near-copies (x.suspect), and its content is not
// flagged in the oracle, whose hits hold entries and reach every peer:
// otherwise one wrong consensus would hold every similar clean entry
// after it, and an attacker who gets a crafted near-copy of a valuable
// fact rejected would poison immune memory against the fact itself.
func consensusOnly(code reason.Code) bool {
	return code == reason.KnowledgeConsensusFailed
}

// hold quarantines an entry the oracle or immune memory flagged. Its
// provenance is still checked: a forgery is rejected (and keeps its flags);
// a verified entry waits in the quarantine store for review.
func (p *Pipeline) hold(ctx context.Context, x *subject, stage Stage, code reason.Code) error {
	now := p.cfg.Now()
	if err := p.cfg.Checker.Check(ctx, x.e, now); err != nil {
		if quarantine.Attack(err) == knowledge.ProvenanceForgery {
			return p.refuse(ctx, x, err)
		}
		if !errors.Is(err, quarantine.ErrReplayed) && !errors.Is(err, knowledge.ErrInvalid) {
			return fmt.Errorf("ingest %s: %w", x.e.ID, err)
		}
		x.r.Reasons = append(x.r.Reasons, "not stored: "+checkReason(err))
	} else if p.rep.blacklisted(x.e.Source.Agent) {
		return p.refuseBlacklisted(ctx, x)
	} else if _, err := p.quarantine(ctx, x, now, code); err != nil {
		return err
	}
	x.r.Verdict, x.r.Stage, x.r.Code = Quarantined, stage, code
	x.r.Reasons = append([]string{string(code)}, x.r.Reasons...)
	return nil
}

// refuse reports a Checker refusal: a forgery is rejected and remembered;
// an invalid entry or a replay is rejected without an attack; any other
// failure (the registry could not answer) is an error.
func (p *Pipeline) refuse(ctx context.Context, x *subject, err error) error {
	f := fault{stage: StageStage1, layer: knowledge.LayerProvenance}
	switch {
	case quarantine.Attack(err) == knowledge.ProvenanceForgery:
		f.attack, f.code, f.why = knowledge.ProvenanceForgery, reason.KnowledgeForgery, []string{checkReason(err)}
	case errors.Is(err, quarantine.ErrReplayed):
		f.layer, f.code = knowledge.LayerReplay, reason.KnowledgeReplayed
	case errors.Is(err, knowledge.ErrInvalid):
		f.code, f.why = reason.KnowledgeInvalid, []string{err.Error()}
	default:
		return fmt.Errorf("ingest %s: %w", x.e.ID, err)
	}
	return p.reject(ctx, x, f)
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

// quarantine puts x into the quarantine store as pending; false means the
// store already holds it (the durable replay guard).
func (p *Pipeline) quarantine(ctx context.Context, x *subject, now time.Time, code reason.Code) (bool, error) {
	e := x.e
	_, err := p.cfg.Store.PutQuarantined(ctx, &store.QuarantinedEntry{Entry: *e, QuarantinedAt: now})
	if errors.Is(err, store.ErrQuarantineExists) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("ingest %s: quarantine: %w", e.ID, err)
	}
	p.publish(x.log, event.GrimoireEntryQuarantined, code, true, event.EntryQuarantined{EntryID: e.ID,
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

// GrossOverclaim returns the claimed confidence above which an entry of
// provenance pv is rejected as ConfidenceInflation rather than discounted:
// where the claim's odds are ten times the odds of Ceiling(pv), the most a
// source of that kind can justify (purchased 0.9375, clade 0.976,
// cross-user 0.909; certainty always; self-generated knowledge is never
// inflated). A claim is a likelihood ratio the source asserts over what
// its kind of source can know; ten is where Jeffreys' scale calls
// evidence strong, so a claim past it asserts strong evidence the source
// cannot have, while a claim short of it is the ordinary optimism of a
// self-assessment (many sources state everything at 0.8 or 0.9), which
// is discounted to the ceiling (the seed: foreign knowledge never enters
// at full confidence) and adoption's discount applies on top. The boundary
// follows from the ceilings and that one conventional ratio; it is not
// fitted to any data set. (It was (1 + ceiling) / 2 before 2026-11-28,
// a ratio of 2.3-3, which refused ordinary sources' default confidences.)
func GrossOverclaim(pv knowledge.Provenance) float64 {
	c := Ceiling(pv)
	if c == 0 {
		return 0
	}
	if c >= 1 {
		return 1
	}
	o := overclaimRatio * c / (1 - c)
	return o / (1 + o)
}

// overclaimRatio is how many times the odds of its provenance's ceiling a
// claim may assert before it is a gross overclaim (see GrossOverclaim).
const overclaimRatio = 10

// verifiedFacts reports whether e states facts a source can be certain
// of: what ward can itself confirm. Config.Verifier (the address book,
// selectors) confirms claims of identity; the mental models (Config.Models,
// validate.Agree) confirm sentences that state a mechanic as ward holds
// it. Together they must confirm at least one claim or sentence per two
// sentences of the content, the book must find nothing false, and no
// model may be contradicted, under any condition; model confirmations
// count only if the text directs no funds to an address the book does not
// know. A source may claim
// near-certainty about a published deployment, a hash or a protocol
// constant; it is still discounted to its ceiling, and a false claim is
// L3's (or L3b's) to reject. Without a Verifier nothing is.
//
// A model confirms only at a confidence of at least GrossOverclaim for
// the entry's provenance: the claim is refused as asserting evidence ten
// times stronger (in odds) than its kind of source can have, and ward's
// confirmation accounts for that evidence only if ward itself holds the
// fact at least that surely (purchased 0.9375, cross-user 0.909, clade
// 0.976: in effect the models ward ships at 0.95 and 0.97, the definitions
// and protocol constants). A rule of thumb ward holds at 0.9 does not make
// a purchased source certain.
//
// What this lets through: up to one unconfirmed sentence per confirmed
// one, stated at a confidence the source cannot justify, is discounted
// rather than refused (it enters as an ordinary claim would, at the
// source's initial confidence, and the other layers still vote on it);
// an unconfirmed sentence past that refuses the entry, and an outcome no
// source can know stated as settled refuses it whatever is confirmed
// (screen).
func (p *Pipeline) verifiedFacts(e *knowledge.Entry) bool {
	if p.cfg.Verifier == nil || e == nil {
		return false
	}
	r := p.cfg.Verifier.Check(e.Content)
	if len(r.False) > 0 {
		return false
	}
	n := validate.Sentences(e.Content)
	if len(r.Verified) > 0 && 2*len(r.Verified) >= n {
		return true
	}
	models := p.cfg.Models
	if models == nil {
		var err error
		if models, err = validate.ShippedModels(); err != nil {
			return false
		}
	}
	if len(r.Unvetted) > 0 {
		// Funds directed to an address the book does not know: nothing
		// ward holds of mechanics vouches for where they go.
		return false
	}
	a := validate.Agree(e.Content, models, GrossOverclaim(e.Source.Provenance))
	confirmed := len(r.Verified) + a.Confirmed
	return !a.Contradicted && confirmed > 0 && 2*confirmed >= n
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

// screen runs Stage 1's content checks on x, whose provenance holds; ok
// is false when one fails, and f says which.
func (p *Pipeline) screen(x *subject) (f fault, ok bool) {
	e, r := x.e, x.r
	f = fault{stage: StageStage1, stored: true}
	if signals := p.bookAnswers(e, x.canonical(), detect(e, x.canonical())); len(signals) > 0 {
		f.layer, f.attack, f.code, f.why = knowledge.LayerContent, knowledge.ContentInjection, reason.KnowledgeInjection, signals
		return f, false
	}
	ceil, gross := Ceiling(e.Source.Provenance), GrossOverclaim(e.Source.Provenance)
	r.Scores["confidence_ceiling"] = ceil
	certain := false
	if !(e.Confidence <= gross) {
		certain = p.verifiedFacts(x.canonical())
	}
	if !(e.Confidence <= gross) && !certain {
		f.layer, f.attack, f.code = knowledge.LayerConfidence, knowledge.ConfidenceInflation, reason.KnowledgeInflation
		f.why = []string{fmt.Sprintf("claimed confidence %.2f is a gross overclaim: above %.2f, odds %d times those of the %.2f a %s source may claim",
			e.Confidence, gross, overclaimRatio, ceil, e.Source.Provenance)}
		return f, false
	}
	if e.Confidence > ceil {
		// An overclaim that states an unknowable outcome as settled (a
		// market's future, a vote, "cannot lose") is inflated whatever
		// the number, and whatever else the entry states that ward can
		// confirm: no source can be that sure of it, and true sentences
		// around it do not make it knowable.
		if phrase := validate.UnknowableCertainty(x.canonical().Content); phrase != "" {
			f.layer, f.attack, f.code = knowledge.LayerConfidence, knowledge.ConfidenceInflation, reason.KnowledgeInflation
			f.why = []string{fmt.Sprintf("claimed confidence %.2f is above the %.2f a %s source may claim, for an outcome no source can be certain of (%q)",
				e.Confidence, ceil, e.Source.Provenance, phrase)}
			return f, false
		}
	}
	if e.Confidence > ceil && !certain {
		// The ceiling is the channel's: text that vouches for itself
		// ("verified by the core team") does not raise it, and an
		// overclaim leaning on such words borrows an authority the
		// provenance does not carry.
		if phrase := validate.SelfVouching(x.canonical().Content); phrase != "" {
			f.layer, f.attack, f.code = knowledge.LayerConfidence, knowledge.ConfidenceInflation, reason.KnowledgeInflation
			f.why = []string{fmt.Sprintf("claimed confidence %.2f is above the %.2f a %s source may claim, on the text's own word for its authority (%q)",
				e.Confidence, ceil, e.Source.Provenance, phrase)}
			return f, false
		}
	}
	if e.Confidence > ceil {
		// Discounted, not refused: adoption never takes more than the
		// source's initial confidence (adopt.Adopt), and the record keeps
		// the claim.
		r.Scores["confidence_claimed"] = e.Confidence
		r.Flags = append(r.Flags, FlagConfidenceDiscounted)
		if certain {
			r.Flags = append(r.Flags, FlagVerifiedFacts)
		}
	}
	if len(e.Embedding) == 0 {
		return fault{}, true
	}
	f.layer, f.attack, f.code = knowledge.LayerEmbedding, knowledge.EmbeddingAnomaly, reason.KnowledgeEmbedding
	if len(e.Embedding) != len(x.vec) {
		f.why = []string{fmt.Sprintf("supplied embedding has %d dimensions, the content's has %d", len(e.Embedding), len(x.vec))}
		return f, false
	}
	cos := float64(embed.Cosine(e.Embedding, x.vec))
	r.Scores["embedding_cosine"] = cos
	if !(cos >= MinEmbeddingCosine) {
		f.why = []string{fmt.Sprintf("supplied embedding matches the content at cosine %.3f, below %.2f", cos, MinEmbeddingCosine)}
		return f, false
	}
	return fault{}, true
}

// bookAnswers returns signals without identifier_redirect when the book
// answers what that lexical signal stands for. The signal marks a text
// that links one identifier to another ("X migrated to Y"), the shape of
// an address-poisoning attack, because the screen cannot tell whether Y
// is what the text says. Config.Verifier can: when it confirms every
// address of the judged content for the identity the text gives it, lists
// them all as issues of one token (bridged USDC.e and native USDC), finds
// no claim false (a replacement the book contradicts is false) and no
// destination it does not know, and the screen no longer sees a redirect
// once those confirmed addresses are set aside, the entry moves the agent
// between issues of one token the book vouches for. A redirect between
// two different things (USDC to the WETH contract), between other
// identifiers (accounts, tickets) or to an unknown address keeps the
// signal.
func (p *Pipeline) bookAnswers(e, judged *knowledge.Entry, signals []string) []string {
	if p.cfg.Verifier == nil || judged == nil || !slices.Contains(signals, screen.SignalRedirect) {
		return signals
	}
	r := p.cfg.Verifier.Check(judged.Content)
	if len(r.False) > 0 || len(r.Unvetted) > 0 || !p.cfg.Verifier.Kin(r.Confirmed) {
		return signals
	}
	all := true
	stripped := reAddress40.ReplaceAllStringFunc(judged.Content, func(a string) string {
		b, err := hex.DecodeString(strings.ToLower(a[2:]))
		if err != nil || !slices.ContainsFunc(r.Confirmed, func(c validate.Address) bool { return string(c[:]) == string(b) }) {
			all = false
			return a
		}
		return "the address"
	})
	if !all {
		return signals
	}
	e2, j2 := *e, *judged
	e2.Content, j2.Content = stripped, stripped
	if slices.Contains(detect(&e2, &j2), screen.SignalRedirect) {
		return signals
	}
	return slices.DeleteFunc(slices.Clone(signals), func(s string) bool { return s == screen.SignalRedirect })
}

var reAddress40 = regexp.MustCompile(`\b0x[0-9a-fA-F]{40}\b`)

// detect runs screen.Knowledge over every text field of e, and over its
// canonical content and the canonical form of every other field where it
// differs: an instruction the screen catches in plain text is caught when
// encoded, hidden or spelt in look-alike letters.
func detect(e, judged *knowledge.Entry) []string {
	texts := []string{e.Content}
	if judged != nil && judged.Content != e.Content {
		texts = append(texts, judged.Content)
	}
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
	for _, t := range texts[1:] {
		if c := canon.Text(t); c != t && c != judged.Content {
			texts = append(texts, c)
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
