package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/trust"
)

// What an agent writes to its memory (the memory_ tools' writes) is
// untrusted knowledge: it may repeat what a web page or a token's metadata
// told the agent, so it enters the Grimoire like an external entry, never
// straight into adopted knowledge. Remember runs it through the oracle,
// immune memory, Stage 1's content screen and confidence ceiling, and
// leaves it pending in quarantine; only consensus
// (memory_consensus_validate) adopts it, at the low initial confidence of
// cross-user knowledge, in the external partition, where retrieval weighs
// it at 0.8. An adopted memory is advice: the gate's limits, allowlist and
// simulation do not read the Grimoire, so memory cannot override them.
//
// Its provenance is the gate's session, authenticated by its bearer token,
// rather than an EIP-712 signature: the entry's agent is the principal's
// memory address (MemoryAgent), and the session's taint is recorded with
// it. The principal's entries are its own: other principals cannot list or
// read its pending ones.

// Bounds of the agent's memory writes.
const (
	// MaxMemoryText is the longest text of one memory write, in bytes.
	MaxMemoryText = 4096
	// MaxMemoryPerHour is how many memory writes one principal may make in
	// an hour, counted from the quarantine collection (durable, shared by
	// every instance on the store).
	MaxMemoryPerHour = 60
	// AgentConfidence is the most confidence an agent's own memory may
	// claim: the cross-user ceiling.
	AgentConfidence = 0.5
)

// Errors of Remember, which the memory tools show the agent.
var (
	// ErrMemoryRate: the principal made MaxMemoryPerHour writes in the
	// last hour.
	ErrMemoryRate = errors.New("memory: too many memory writes in the last hour")
	// ErrNoSession: the call has no session known to the store.
	ErrNoSession = errors.New("memory: the call has no known session")
)

// Sessions is what the memory tools read of the gate's sessions: the
// principal that holds one and its taint level (store.Sessions does).
type Sessions interface {
	Session(ctx context.Context, id string) (store.SessionRecord, error)
}

// Author is who writes a memory: the principal, its memory address and
// whether its session was tainted (or under review) when it wrote.
type Author struct {
	Principal string
	Agent     string
	Tainted   bool
}

// MemoryAgent returns the 0x address that stands for principal's memory in
// the quarantine collection (its capacity and replay guard are per
// address): the first 20 bytes of SHA-256 of a fixed label and the
// principal's id.
func MemoryAgent(principal string) string {
	h := sha256.Sum256([]byte("ward agent memory\x00" + principal))
	return "0x" + hex.EncodeToString(h[:20])
}

// Author returns the author of a memory written in session. Without
// Config.Sessions, or when the store cannot say, it fails: a memory with
// no known provenance is not written.
func (p *Pipeline) Author(ctx context.Context, session string) (Author, error) {
	if p.cfg.Sessions == nil || session == "" {
		return Author{}, ErrNoSession
	}
	s, err := p.cfg.Sessions.Session(ctx, session)
	if errors.Is(err, store.ErrNotFound) {
		return Author{}, ErrNoSession
	}
	if err != nil {
		return Author{}, fmt.Errorf("memory: the session: %w", err)
	}
	if s.PrincipalID == "" {
		return Author{}, ErrNoSession
	}
	// Any level but clean counts as tainted, an unknown one included.
	return Author{Principal: s.PrincipalID, Agent: MemoryAgent(s.PrincipalID), Tainted: s.Level != trust.Clean}, nil
}

// Remember runs e, written by a, through ingestion as untrusted knowledge
// (see above) and returns the decision: quarantined (pending consensus),
// held (the oracle or immune memory knew it) or rejected with its reason.
// e's source is set here: cross-user provenance, a's agent, now; its
// confidence is capped at AgentConfidence. It refuses, writing nothing,
// when a has made MaxMemoryPerHour writes in the last hour. An error
// means nothing was decided.
func (p *Pipeline) Remember(ctx context.Context, a Author, e *knowledge.Entry) (*Report, error) {
	if a.Agent == "" {
		return nil, ErrNoSession
	}
	now := p.cfg.Now()
	recent, err := p.cfg.Store.ListQuarantined(ctx, store.QuarantineFilter{Agent: a.Agent})
	if err != nil {
		return nil, fmt.Errorf("memory: %w", err)
	}
	n := 0
	for _, q := range recent {
		if now.Sub(q.QuarantinedAt) < time.Hour {
			n++
		}
	}
	if n >= MaxMemoryPerHour {
		return nil, ErrMemoryRate
	}
	c := *e
	c.Source = knowledge.Source{Provenance: knowledge.CrossUser, Agent: a.Agent, Timestamp: now}
	c.Confidence = min(c.Confidence, AgentConfidence)
	xs, err := p.prepare(ctx, []*knowledge.Entry{&c}, true)
	if err != nil {
		return nil, err
	}
	x := xs[0]
	if err := p.stage1Memory(ctx, x, now); err != nil {
		return nil, err
	}
	return x.r, p.account(ctx, []*knowledge.Entry{x.e}, []*Report{x.r}, true)
}

// stage1Memory is Stage 1 for the agent's own memory: the stages of stage1
// but the signature and identity check, which the gate's authenticated
// session replaces. The principal's memory address is a source like any
// other: its reputation, blacklist and causal rollback apply to it.
func (p *Pipeline) stage1Memory(ctx context.Context, x *subject, now time.Time) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	x.decided = true
	if x.invalid != nil {
		p.refuseInvalid(x)
		return nil
	}
	if stage, code, ok := p.known(x); ok {
		return p.hold(ctx, x, stage, code)
	}
	if p.rep.blacklisted(x.e.Source.Agent) {
		return p.refuseBlacklisted(ctx, x)
	}
	ok, err := p.quarantine(ctx, x, now, reason.KnowledgeQuarantined)
	if err != nil {
		return err
	}
	if !ok {
		return p.reject(ctx, x, fault{stage: StageStage1, layer: knowledge.LayerReplay, code: reason.KnowledgeReplayed})
	}
	if f, ok := p.screen(x); !ok {
		return p.reject(ctx, x, f)
	}
	await(x)
	return nil
}

// OwnMemory returns the entries a's principal wrote (pending, decided or
// rolled back), newest first, at most limit.
func (p *Pipeline) OwnMemory(ctx context.Context, a Author, status store.QuarantineStatus, limit int) ([]store.QuarantinedEntry, error) {
	if a.Agent == "" {
		return nil, ErrNoSession
	}
	all, err := p.cfg.Store.ListQuarantined(ctx, store.QuarantineFilter{Agent: a.Agent, Status: status})
	if err != nil {
		return nil, fmt.Errorf("memory: %w", err)
	}
	out := make([]store.QuarantinedEntry, 0, min(limit, len(all)))
	for i := len(all) - 1; i >= 0 && len(out) < limit; i-- {
		out = append(out, all[i])
	}
	return out, nil
}

// owns reports whether agent is a's memory address.
func (a Author) owns(agent string) bool {
	return a.Agent != "" && strings.EqualFold(agent, a.Agent)
}

// ForgottenReason is the reason a forgotten entry's grimoire:entry_pruned
// event carries.
const ForgottenReason = "forgotten_by_owner"

// Forget durably deletes the Grimoire entry id (self or adopted external
// knowledge) at the owner's request, and returns it as it was. It is not
// remembered as poison: the owner found it unhelpful, not hostile (the
// owner's memory_reject_entry and memory_causal_rollback are for that).
// ErrNoEntry: no entry of the Grimoire has that id.
func (p *Pipeline) Forget(ctx context.Context, id string) (Known, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	k, ok := p.grim.Get(id)
	if !ok {
		return Known{}, ErrNoEntry
	}
	if err := p.cfg.Store.DeleteEntry(ctx, id); err != nil && !errors.Is(err, store.ErrNotFound) {
		return Known{}, fmt.Errorf("forget %s: %w", id, err)
	}
	p.grim.remove(id)
	p.publish(nil, event.GrimoireEntryPruned, "", true, event.EntryPruned{EntryID: id, Reason: ForgottenReason,
		Source: k.Entry.Source.Provenance.String(), Agent: strings.ToLower(k.Entry.Source.Agent)})
	return k, nil
}
