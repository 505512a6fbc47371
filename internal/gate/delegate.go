package gate

import (
	"context"
	"encoding/json"
	"errors"
	"slices"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/trust"
	"github.com/wardhq/ward/internal/vault"
)

// Isolated orchestration (seed 004): an isolated orchestrator never reads
// third-party content. It delegates the call to a tainted child session;
// the child's output is sealed at rest for the child's reviewers and judge
// (a key per reviewer–target pair), and the orchestrator gets metadata
// only. The judge may promote the output, after which the orchestrator can
// read it and its values count as trusted for it.

// Trust record kinds of isolated orchestration.
const (
	TrustOutputWithheld = store.TrustOutputWithheld
	TrustOutputRead     = store.TrustOutputRead
)

// OutputMeta is what an orchestrator learns of a delegated call.
type OutputMeta struct {
	Status    string `json:"status"` // "withheld" or "promoted"
	OutputKey string `json:"output_key"`
	Size      int64  `json:"size"`
	ExitCode  int    `json:"exit_code"`
	Child     string `json:"child_session"`
	Tool      string `json:"tool"`
	// Reviews are the verdicts on promoting the output.
	Reviews []trust.Verdict `json:"reviews,omitempty"`
}

// Output is a withheld output as a reader may see it.
type Output struct {
	OutputMeta
	// Data is the output itself, for a designated reviewer or, once
	// promoted, for the orchestrator.
	Data json.RawMessage `json:"data"`
}

// ErrNoVault is returned when isolated orchestration is not configured.
var ErrNoVault = errors.New("isolated orchestration needs the vault and the withheld-output store")

// Delegate runs a read tool for the orchestrator parent in its tainted
// child session and withholds the output. Fail closed: if the output
// cannot be sealed and stored, nothing is returned.
func (t *Tools) Delegate(ctx context.Context, parent, child *Session, name string, raw json.RawMessage) (*OutputMeta, error) {
	if t.cfg.Vault == nil || t.cfg.Withheld == nil {
		return nil, refuse(reason.TaintCheckFailed, "taint", "isolated orchestration is not configured, so nothing is run", ErrNoVault.Error())
	}
	pt, ct := t.trustOf(parent), t.trustOf(child)
	if ct.Parent() != parent.ID {
		return nil, refuse(reason.TaintIsolation, "taint", "the child session is not this session's child", "")
	}
	if ct.Level() == trust.Clean || ct.Isolated() {
		return nil, refuse(reason.TaintIsolation, "taint", "delegate to a tainted child session (created with a parent, reviewers and a judge)", "")
	}
	// The owner's delegation comes through no facade, with no one
	// listening for its progress.
	res, err := t.ReadWith(ctx, child, name, raw, CallOptions{})
	meta := &OutputMeta{Child: child.ID, Tool: name, Status: string(store.WithheldPending)}
	var plain []byte
	if err != nil {
		var rf *Refusal
		if errors.As(err, &rf) && rf.Stage != "handler" {
			return nil, err // refused before running: nothing to withhold
		}
		meta.ExitCode = 1
		plain, _ = json.Marshal(map[string]string{"error": err.Error()})
	} else {
		if res.IsError {
			meta.ExitCode = 1
		}
		if plain, err = json.Marshal(res); err != nil {
			return nil, refuse(reason.TaintCheckFailed, "taint", "the output could not be sealed, so nothing is returned", err.Error())
		}
	}
	reviewers, judge := ct.Reviewers()
	readers := slices.Clone(reviewers)
	if judge != "" && !slices.Contains(readers, judge) {
		readers = append(readers, judge)
	}
	now := t.cfg.Now()
	key := id.Opaque(now)
	sealed, err := t.cfg.Vault.Seal(key, readers, plain)
	if err != nil {
		return nil, refuse(reason.TaintCheckFailed, "taint", "the output could not be sealed, so nothing is returned", err.Error())
	}
	w := &store.WithheldOutput{
		Key: key, PrincipalID: parent.Principal, SessionID: child.ID, ParentID: parent.ID, Tool: name, Time: now, Size: int64(len(plain)),
		ExitCode: meta.ExitCode, Status: store.WithheldPending, Nonce: sealed.Nonce, Ciphertext: sealed.Ciphertext, Wraps: sealed.Wraps,
	}
	if err := t.cfg.Withheld.PutWithheld(ctx, w); err != nil {
		return nil, refuse(reason.TaintCheckFailed, "taint", "the output could not be stored, so nothing is returned", err.Error())
	}
	if err := t.trustRecord(ctx, &store.TrustRecord{Kind: TrustOutputWithheld, SessionID: child.ID, Actor: "gate", Target: key,
		Detail: jsonOf(map[string]any{"parent": parent.ID, "tool": name, "size": len(plain), "readers": readers})}); err != nil {
		return nil, refuse(reason.TaintCheckFailed, "taint", "the output could not be recorded, so nothing is returned", err.Error())
	}
	meta.OutputKey, meta.Size = key, int64(len(plain))
	// The child's judge decides on promotion at once when it is a
	// built-in (deterministic) checker.
	var promoted bool
	meta.Reviews, promoted = t.judgeOutput(ctx, child, w, plain)
	if promoted {
		meta.Status = string(store.WithheldPromoted)
		src, kept := pt.ledger.Record(trust.Source{Kind: trust.Promoted, Ref: "output:" + key}, plain, true)
		if kept {
			if err := pt.persist(ctx, parent, src, plain, nil, true, nil); err != nil {
				// The promotion stands; the orchestrator only loses the
				// trusted provenance of its values after a restart.
				t.auditFailed("promoted output observation", err)
			}
		}
	}
	clear(plain)
	return meta, nil
}

// judgeOutput runs the child's reviewers and judge on a withheld output and
// promotes it if the judge approves; promoted reports that the promotion
// was recorded and stored.
func (t *Tools) judgeOutput(ctx context.Context, child *Session, w *store.WithheldOutput, plain []byte) (verdicts []trust.Verdict, promoted bool) {
	ct := t.trustOf(child)
	reviewers, judge := ct.Reviewers()
	c := &trust.Case{ID: w.Key, SessionID: child.ID, Tool: w.Tool, Text: string(plain)}
	recorded := true
	run := func(name string, authoritative bool) (trust.Verdict, bool) {
		v, ok := t.runChecker(ctx, ct, child.ID, name, authoritative, c)
		if !ok {
			return v, false
		}
		verdicts = append(verdicts, v)
		if err := t.trustRecord(ctx, &store.TrustRecord{Kind: store.TrustReviewVerdict, SessionID: child.ID, Actor: name, Target: w.Key,
			Detail: jsonOf(map[string]any{"approve": v.Approve, "authoritative": authoritative, "reasons": v.Reasons, "what": "output"})}); err != nil {
			recorded = false
			t.auditFailed("output verdict", err)
		}
		return v, true
	}
	for _, r := range reviewers {
		run(r, false)
	}
	// No promotion on a verdict the trust log does not have.
	if v, ok := run(judge, true); ok && v.Approve && recorded {
		if err := t.promote(ctx, w.Key, judge, plain); err != nil {
			t.auditFailed("output promotion", err)
		} else {
			promoted = true
		}
	}
	return verdicts, promoted
}

// promote releases a withheld output: recorded in the trust log first,
// then stored in the clear (fail closed: no record, no promotion).
func (t *Tools) promote(ctx context.Context, key, by string, plain []byte) error {
	if err := t.trustRecord(ctx, &store.TrustRecord{Kind: store.TrustPromotion, Actor: by, Target: key,
		Detail: jsonOf(map[string]any{"what": "output"})}); err != nil {
		return err
	}
	return t.cfg.Withheld.PromoteWithheld(ctx, key, by, t.cfg.Now(), plain)
}

// OutputReader is who asks to read a withheld output: a token's name (what
// reviewers and judges are named by), its principal, the session it reads
// in (if any), and whether it is the owner.
type OutputReader struct {
	Name, Principal, Session string
	Owner                    bool
}

// ReadOutput returns a withheld output to r: a designated reviewer or
// judge of it (decrypted with its pair key), or, once promoted, the
// orchestrator that delegated it. The producing session can never read it
// as a reviewer; the owner and the other sessions of its principal are
// refused and the denial recorded; anyone else, of another principal, gets
// the answer an unknown key gets (and the lookup counts against its
// guesses).
func (t *Tools) ReadOutput(ctx context.Context, key string, r OutputReader) (*Output, error) {
	reader, readerPrincipal, readerSession := r.Name, r.Principal, r.Session
	if t.cfg.Vault == nil || t.cfg.Withheld == nil {
		return nil, refuse(reason.TaintCheckFailed, "taint", "isolated orchestration is not configured", ErrNoVault.Error())
	}
	if err := t.LookupAllowed(ctx, readerPrincipal); err != nil {
		return nil, err
	}
	unknown := func() (*Output, error) {
		r := refuse(reason.OutputNotFound, "taint", "no withheld output has this key", "")
		t.LookupFailed(ctx, readerPrincipal, readerSession, "output", key, r.Code)
		return nil, r
	}
	w, err := t.cfg.Withheld.Withheld(ctx, key)
	if errors.Is(err, store.ErrNotFound) {
		return unknown()
	}
	if err != nil {
		return nil, refuse(reason.TaintCheckFailed, "taint", "the output could not be read", err.Error())
	}
	if _, designated := w.Wraps[reader]; !designated && !r.Owner && w.PrincipalID != "" && w.PrincipalID != readerPrincipal {
		return unknown()
	}
	out := &Output{OutputMeta: OutputMeta{Status: string(w.Status), OutputKey: w.Key, Size: w.Size, ExitCode: w.ExitCode, Child: w.SessionID, Tool: w.Tool}}
	deny := func(code reason.Code, msg string) (*Output, error) {
		// Refused either way; an unrecorded denial is counted and logged.
		if err := t.trustRecord(ctx, &store.TrustRecord{Kind: store.TrustAccessDenied, SessionID: readerSession, Actor: reader, Target: key,
			Detail: jsonOf(map[string]string{"reason": string(code)})}); err != nil {
			t.auditFailed("access denial", err)
		}
		return nil, refuse(code, "taint", msg, "")
	}
	if w.Status == store.WithheldPromoted && readerSession != "" && readerSession == w.ParentID {
		out.Data = json.RawMessage(w.Plain)
		return out, nil
	}
	if readerSession != "" && readerSession == w.SessionID {
		return deny(reason.SelfReview, "the session that produced this output cannot read it as its reviewer")
	}
	if _, ok := w.Wraps[reader]; !ok {
		return deny(reason.NotReviewer, "only the output's designated reviewers and judge may read it before promotion")
	}
	plain, err := t.cfg.Vault.OpenFor(&vault.Sealed{Target: w.Key, Nonce: w.Nonce, Ciphertext: w.Ciphertext, Wraps: w.Wraps}, reader)
	if err != nil {
		return nil, refuse(reason.TaintCheckFailed, "taint", "the output could not be decrypted, so nothing is returned", err.Error())
	}
	if err := t.trustRecord(ctx, &store.TrustRecord{Kind: store.TrustDecryptionGrant, SessionID: readerSession, Actor: reader, Target: key}); err != nil {
		clear(plain)
		return nil, refuse(reason.TaintCheckFailed, "taint", "the read could not be recorded, so nothing is returned", err.Error())
	}
	out.Data = json.RawMessage(plain)
	return out, nil
}
