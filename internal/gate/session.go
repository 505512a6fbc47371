package gate

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
	"github.com/wardhq/ward/internal/trust"
)

// Sessions. A session belongs to the principal that opened it; the name a
// client gives it is scoped to that principal, so two principals using one
// name get two sessions, and nothing a client sends reaches another
// principal's session. Its security state (taint level, isolation,
// parent, reviewers and judge, directive, the ledger of what it saw) lives
// in the store (store.Sessions) and is written there before it takes
// effect here: memory caches sessions, bounded, and a session dropped from
// the cache (or forgotten by a restart, or a kill -9) comes back from the
// store as it was. A session is never dropped from the store to make room:
// a principal at its limit of live sessions is refused a new one
// (ErrSessionLimit); clean idle sessions expire after the limits' IdleTTL,
// tainted, under-review and isolated ones only after KeepTTL unused or
// when the owner deletes them.
//
// Review is the principal's, not only the session's: while any session of
// a principal is under review, every session of that principal acts under
// review, so sending another session name does not escape it.
//
// The ledger's observations are sealed at rest with the vault's Box for
// the session when the gate has a vault. An observation of third-party
// content (and the taint it brings) is durable before the output is
// returned; one of a trusted tool's output joins the next group commit: a
// crash that loses it can only turn a later Trusted answer into Unknown,
// which holds a call for review rather than letting one through.

// Owner is who opens a session: the principal, by id, its name (the
// session's author, who never reviews or judges it) and the input source
// its role gives calls.
type Owner struct {
	PrincipalID string
	Name        string
	Source      policy.InputSource
}

// ErrSessionLimit is returned when a principal holds as many live
// sessions as it may; ErrSessionExists when a session it creates exists.
var (
	ErrSessionLimit  = store.ErrSessionLimit
	ErrSessionExists = store.ErrSessionExists
	// ErrNoSession is returned for a session that does not exist (or
	// belongs to another principal: the answer is the same).
	ErrNoSession = errors.New("no such session")
)

// maxCachedSessions bounds the sessions kept in memory; past it the least
// recently used is dropped from memory (never from the store).
const maxCachedSessions = 10_000

// trimEvery is how many cache hits pass between two checks of the
// ledgers' memory against the budget (a session's ledger grows while it
// is used, without a cache miss).
const trimEvery = 64

// DefaultLedgerBytes bounds a session's stored observations.
const DefaultLedgerBytes = 4 << 20

// touchEvery is how often a session's last use is written.
const touchEvery = time.Minute

// sessionTable is the gate's cache of sessions and of each principal's
// review state.
type sessionTable struct {
	mu     sync.Mutex
	byID   map[string]*list.Element // → *Session
	byName map[nameKey]string
	lru    *list.List
	// review counts, per principal, its sessions under review, as far as
	// this process knows (loaded from the store on first sight).
	review map[string]int
	// tainted marks the principals with a tainted session (loaded from the
	// store on first sight; set when one becomes tainted, read again when
	// the owner deletes a session).
	tainted map[string]bool
	// loading serialises a cache miss per session name, so that two
	// requests opening one session build one *Session.
	loading sync.Mutex
	// budget bounds the bytes the cached sessions' ledgers hold together;
	// zero for none (a gate without a session store, whose cache is the
	// only copy). hits counts cache hits since the last check.
	budget int64
	hits   int
}

type nameKey struct{ principal, name string }

func newSessionTable(budget int64) *sessionTable {
	return &sessionTable{byID: map[string]*list.Element{}, byName: map[nameKey]string{}, lru: list.New(), review: map[string]int{}, tainted: map[string]bool{}, budget: budget}
}

func (st *sessionTable) get(id string) *Session {
	st.mu.Lock()
	defer st.mu.Unlock()
	if e, ok := st.byID[id]; ok {
		st.lru.MoveToFront(e)
		s := e.Value.(*Session)
		if st.hits++; st.hits >= trimEvery {
			st.trimLocked(s)
		}
		return s
	}
	return nil
}

// trimLocked drops the least recently used sessions from memory while
// the cached sessions' ledgers hold more than the budget together, never
// keep (the session in use). st.mu is held.
func (st *sessionTable) trimLocked(keep *Session) {
	st.hits = 0
	if st.budget <= 0 {
		return
	}
	var total int64
	for e := st.lru.Front(); e != nil; e = e.Next() {
		total += e.Value.(*Session).ledgerSize()
	}
	for e := st.lru.Back(); e != nil && total > st.budget; {
		prev := e.Prev()
		if s := e.Value.(*Session); s != keep {
			total -= s.ledgerSize()
			st.dropLocked(s)
		}
		e = prev
	}
}

// CachedLedgerBytes is what the trust ledgers of the sessions cached in
// memory hold together (bounded by store.SessionLimits.CacheBytes when the
// gate has a session store).
func (t *Tools) CachedLedgerBytes() int64 {
	st := t.sessions
	st.mu.Lock()
	defer st.mu.Unlock()
	var n int64
	for e := st.lru.Front(); e != nil; e = e.Next() {
		n += e.Value.(*Session).ledgerSize()
	}
	return n
}

// ledgerSize is what the session's ledger holds in memory.
func (s *Session) ledgerSize() int64 {
	if tr := s.trust(); tr != nil && tr.ledger != nil {
		return tr.ledger.Size()
	}
	return 0
}

func (st *sessionTable) named(principal, name string) *Session {
	st.mu.Lock()
	id, ok := st.byName[nameKey{principal, name}]
	st.mu.Unlock()
	if !ok {
		return nil
	}
	return st.get(id)
}

func (st *sessionTable) put(s *Session) *Session {
	st.mu.Lock()
	defer st.mu.Unlock()
	if e, ok := st.byID[s.ID]; ok {
		st.lru.MoveToFront(e)
		return e.Value.(*Session)
	}
	for st.lru.Len() >= maxCachedSessions {
		old := st.lru.Remove(st.lru.Back()).(*Session)
		delete(st.byID, old.ID)
		delete(st.byName, nameKey{old.Principal, old.Name})
	}
	st.byID[s.ID] = st.lru.PushFront(s)
	st.byName[nameKey{s.Principal, s.Name}] = s.ID
	st.trimLocked(s)
	return s
}

func (st *sessionTable) drop(s *Session) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.dropLocked(s)
}

// dropLocked is drop with st.mu held.
func (st *sessionTable) dropLocked(s *Session) {
	if e, ok := st.byID[s.ID]; ok {
		st.lru.Remove(e)
		delete(st.byID, s.ID)
	}
	if st.byName[nameKey{s.Principal, s.Name}] == s.ID {
		delete(st.byName, nameKey{s.Principal, s.Name})
	}
}

// underReview reports whether the principal has a session under review.
func (st *sessionTable) underReview(principal string) bool {
	if principal == "" {
		return false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.review[principal] > 0
}

// reviewed notes a session of principal moving into (+1) or out of (-1)
// review.
func (st *sessionTable) reviewed(principal string, delta int) {
	if principal == "" {
		return
	}
	st.mu.Lock()
	st.review[principal] = max(st.review[principal]+delta, 0)
	st.mu.Unlock()
}

// isTainted reports whether the principal has a tainted session.
func (st *sessionTable) isTainted(principal string) bool {
	if principal == "" {
		return false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.tainted[principal]
}

// taint notes that a session of principal is tainted.
func (st *sessionTable) taint(principal string, tainted bool) {
	if principal == "" {
		return
	}
	st.mu.Lock()
	st.tainted[principal] = tainted
	st.mu.Unlock()
}

// sessions is the gate's store of sessions, or nil when it keeps them in
// memory only (a gate built without one, in tests).
func (t *Tools) sessionStore() store.Sessions { return t.cfg.Sessions }

// OpenSession returns the session owner holds under name, opening a clean
// one the first time (the default session of a principal is name "").
// view is the session's tools (nil: the gate's configured view). A new
// session past the principal's limit fails with ErrSessionLimit.
func (t *Tools) OpenSession(ctx context.Context, owner Owner, name string, view *registry.View) (*Session, error) {
	return t.openSession(ctx, owner, name, TrustOptions{}, view, false)
}

// CreateSession creates the session owner names name with the trust
// options o: ErrSessionExists if it holds one by that name. A parent named
// in o.Parent must be a session of the same principal.
func (t *Tools) CreateSession(ctx context.Context, owner Owner, name string, o TrustOptions, view *registry.View) (*Session, error) {
	return t.openSession(ctx, owner, name, o, view, true)
}

func (t *Tools) openSession(ctx context.Context, owner Owner, name string, o TrustOptions, view *registry.View, mustCreate bool) (*Session, error) {
	if owner.PrincipalID == "" {
		return nil, errors.New("gate: a session needs its principal")
	}
	if len(name) > store.MaxSessionName {
		return nil, fmt.Errorf("gate: a session name is at most %d bytes", store.MaxSessionName)
	}
	if !mustCreate {
		if s := t.sessions.named(owner.PrincipalID, name); s != nil && t.live(s) {
			fresh, err := t.fresh(ctx, s)
			if err != nil {
				return nil, err
			}
			if fresh {
				t.touch(ctx, s)
				return s, nil
			}
		}
	}
	if view == nil {
		var err error
		if view, err = t.view(); err != nil {
			return nil, err
		}
	}
	now := t.cfg.Now()
	if o.Author == "" {
		o.Author = owner.Name
	}
	sid := id.Opaque(now)
	if o.Parent != "" {
		parent, err := t.SessionByID(ctx, o.Parent)
		if err != nil || parent.Principal != owner.PrincipalID {
			return nil, ErrNoSession
		}
	}
	tr, err := NewSessionTrust(sid, o)
	if err != nil {
		return nil, err
	}
	st := t.sessionStore()
	if st == nil {
		if !mustCreate {
			if s := t.sessions.named(owner.PrincipalID, name); s != nil {
				return s, nil
			}
		}
		s := &Session{ID: sid, TurnID: sid, Principal: owner.PrincipalID, Name: name, Source: owner.Source, View: view, Trust: tr}
		return t.sessions.put(s), nil
	}
	return t.openStored(ctx, st, owner, name, o, view, sid, tr, now, mustCreate)
}

// openStored opens session sid in st, or (unless mustCreate) the one owner
// already holds under name there, loaded and cached. A new session is
// bound to its trust state tr, starts with o's directive in its ledger, and
// counts in its principal's reviewed and tainted sessions.
func (t *Tools) openStored(ctx context.Context, st store.Sessions, owner Owner, name string, o TrustOptions, view *registry.View, sid string, tr *SessionTrust, now time.Time, mustCreate bool) (*Session, error) {
	t.sessions.loading.Lock()
	defer t.sessions.loading.Unlock()
	rec := &store.SessionRecord{
		ID: sid, PrincipalID: owner.PrincipalID, Name: name, Created: now, Level: o.Level, Isolated: o.Isolated,
		ParentID: o.Parent, Author: o.Author, Reviewers: o.Reviewers, Judge: o.Judge,
	}
	got, created, err := st.OpenSession(ctx, rec, t.cfg.SessionLimits, mustCreate, now)
	if err != nil {
		return nil, fmt.Errorf("gate: open session: %w", err)
	}
	if !created {
		if s := t.sessions.get(got.ID); s != nil {
			return s, nil
		}
		return t.load(ctx, &got, owner.Source, view)
	}
	s := &Session{ID: sid, TurnID: sid, Principal: owner.PrincipalID, Name: name, Source: owner.Source, View: view, Trust: tr}
	tr.bind(t, s, &got)
	if err := t.knowPrincipal(ctx, owner.PrincipalID); err != nil {
		return nil, err
	}
	if o.Directive != "" {
		// The directive the session starts with, in its ledger.
		if err := tr.persist(ctx, s, trust.Source{Kind: trust.Directive, Ref: "directive"}, []byte(o.Directive), nil, false, nil); err != nil {
			return nil, err
		}
		if err := st.SetDirective(ctx, sid, o.Directive, true, now); err != nil {
			return nil, fmt.Errorf("gate: open session: %w", err)
		}
	}
	if o.Level == trust.Review {
		t.sessions.reviewed(owner.PrincipalID, +1)
	}
	if o.Level != trust.Clean {
		t.sessions.taint(owner.PrincipalID, true)
	}
	return t.sessions.put(s), nil
}

// live reports whether a cached session is still live under the limits:
// one that expired is opened afresh from the store.
func (t *Tools) live(s *Session) bool {
	if t.sessionStore() == nil {
		return true
	}
	tr := s.Trust
	tr.mu.Lock()
	rec := store.SessionRecord{Level: tr.level, Isolated: tr.isolated, Active: tr.active}
	tr.mu.Unlock()
	return !t.cfg.SessionLimits.Expired(&rec, t.cfg.Now())
}

// SessionLive reports whether the session with id sid exists and has not
// expired under the session limits (what holds state for it, such as its
// live data subscriptions, ends when it no longer is). An error is a
// store that cannot say.
func (t *Tools) SessionLive(ctx context.Context, sid string) (bool, error) {
	s, err := t.SessionByID(ctx, sid)
	if errors.Is(err, ErrNoSession) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return t.live(s), nil
}

// touch records the session's use, at most once a touchEvery.
func (t *Tools) touch(ctx context.Context, s *Session) {
	st := t.sessionStore()
	if st == nil || s.Trust == nil {
		return
	}
	now := t.cfg.Now()
	tr := s.Trust
	tr.mu.Lock()
	due := now.Sub(tr.active) >= touchEvery
	if due {
		tr.active = now
	}
	tr.mu.Unlock()
	if due {
		// Best effort by design: a lost touch can only make a session
		// expire earlier, never keep state a decision needs.
		_ = st.TouchSession(context.WithoutCancel(ctx), s.ID, now)
	}
}

// NamedSession returns the session principal holds under name, if any.
func (t *Tools) NamedSession(ctx context.Context, principal, name string, source policy.InputSource, view *registry.View) (*Session, error) {
	if s := t.sessions.named(principal, name); s != nil && t.live(s) {
		t.touch(ctx, s)
		return s, nil
	}
	st := t.sessionStore()
	if st == nil {
		return nil, ErrNoSession
	}
	rec, err := st.SessionByName(ctx, principal, name)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrNoSession
	}
	if err != nil {
		return nil, fmt.Errorf("gate: session: %w", err)
	}
	if t.cfg.SessionLimits.Expired(&rec, t.cfg.Now()) {
		return nil, ErrNoSession
	}
	if view == nil {
		if view, err = t.view(); err != nil {
			return nil, err
		}
	}
	t.sessions.loading.Lock()
	defer t.sessions.loading.Unlock()
	if s := t.sessions.get(rec.ID); s != nil {
		return s, nil
	}
	return t.load(ctx, &rec, source, view)
}

// SessionByID returns the session id, whichever principal holds it (for
// the owner, and for the gate running an approved call as its session).
// The session's input source is what its principal's calls had: taken from
// a cached session, else agent.
func (t *Tools) SessionByID(ctx context.Context, sid string) (*Session, error) {
	if s := t.sessions.get(sid); s != nil {
		return s, nil
	}
	st := t.sessionStore()
	if st == nil {
		return nil, ErrNoSession
	}
	rec, err := st.Session(ctx, sid)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrNoSession
	}
	if err != nil {
		return nil, fmt.Errorf("gate: session: %w", err)
	}
	view, err := t.view()
	if err != nil {
		return nil, err
	}
	t.sessions.loading.Lock()
	defer t.sessions.loading.Unlock()
	if s := t.sessions.get(rec.ID); s != nil {
		return s, nil
	}
	return t.load(ctx, &rec, policy.Agent, view)
}

// DeleteSession deletes a session and everything it saw (the owner
// clearing it): its name opens a clean session again.
func (t *Tools) DeleteSession(ctx context.Context, s *Session) error {
	if st := t.sessionStore(); st != nil {
		if err := st.DeleteSession(ctx, s.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("gate: delete session: %w", err)
		}
	}
	if s.Trust != nil && s.Trust.Level() == trust.Review {
		t.sessions.reviewed(s.Principal, -1)
	}
	t.sessions.drop(s)
	if st := t.sessionStore(); st != nil && s.Principal != "" {
		// The principal's other sessions may have been its only taint.
		if tainted, err := st.Tainted(ctx, s.Principal); err == nil {
			t.sessions.taint(s.Principal, tainted)
		}
	}
	return nil
}

// Sessions lists the sessions f selects, from the store.
func (t *Tools) Sessions(ctx context.Context, f store.SessionFilter) ([]store.SessionRecord, error) {
	st := t.sessionStore()
	if st == nil {
		return nil, nil
	}
	return st.ListSessions(ctx, f)
}

// load builds a session from its stored record and ledger, and caches it.
// The caller holds sessions.loading.
func (t *Tools) load(ctx context.Context, rec *store.SessionRecord, source policy.InputSource, view *registry.View) (*Session, error) {
	obs, err := t.sessionStore().Observations(ctx, rec.ID, 0)
	if err != nil {
		return nil, fmt.Errorf("gate: load session: %w", err)
	}
	tr := &SessionTrust{
		level: rec.Level, isolated: rec.Isolated, parent: rec.ParentID, author: rec.Author,
		reviewers: rec.Reviewers, judge: rec.Judge, judged: rec.Judged, seq: int(rec.LedgerSeq),
		ledger: trust.NewLedger(0), active: rec.Active,
	}
	if rec.DirectiveTrusted {
		tr.directive = rec.Directive
	}
	s := &Session{ID: rec.ID, TurnID: rec.ID, Principal: rec.PrincipalID, Name: rec.Name, Source: source, View: view, Trust: tr}
	tr.bind(t, s, rec)
	for _, o := range obs {
		body := o.Body
		if o.Sealed {
			if tr.box == nil {
				return nil, fmt.Errorf("gate: load session %s: its ledger is sealed and this gate has no vault", rec.ID)
			}
			if body, err = tr.box.Open(o.Body); err != nil {
				return nil, fmt.Errorf("gate: load session %s: observation %d: %w%s", rec.ID, o.Seq, err, t.sealHint())
			}
		}
		args := o.Args
		if o.Sealed && args != nil {
			if args, err = tr.box.Open(o.Args); err != nil {
				return nil, fmt.Errorf("gate: load session %s: observation %d: %w", rec.ID, o.Seq, err)
			}
		}
		tr.ledger.Replay(trust.Source{Kind: o.Kind, Ref: o.Ref, Instructions: o.Instructions}, body, o.JSON, args)
		clear(body)
		clear(args)
	}
	if rec.LedgerDropped {
		tr.ledger.MarkIncomplete()
	}
	if err := t.knowPrincipal(ctx, rec.PrincipalID); err != nil {
		return nil, err
	}
	return t.sessions.put(s), nil
}

// knowPrincipal loads whether the principal has a session under review,
// and one tainted, the first time this process sees it.
func (t *Tools) knowPrincipal(ctx context.Context, principal string) error {
	t.sessions.mu.Lock()
	_, known := t.sessions.review[principal]
	t.sessions.mu.Unlock()
	if known || principal == "" {
		return nil
	}
	under, err := t.sessionStore().UnderReview(ctx, principal)
	if err != nil {
		return fmt.Errorf("gate: load session: %w", err)
	}
	tainted, err := t.sessionStore().Tainted(ctx, principal)
	if err != nil {
		return fmt.Errorf("gate: load session: %w", err)
	}
	t.sessions.mu.Lock()
	if _, known := t.sessions.review[principal]; !known {
		t.sessions.review[principal] = 0
		if under {
			t.sessions.review[principal] = 1
		}
		t.sessions.tainted[principal] = t.sessions.tainted[principal] || tainted
	}
	t.sessions.mu.Unlock()
	return nil
}

// Def returns the definition of the tool name as this ward offers it (its
// catalogue and upstream tools, in the configured view), for answers that
// need a tool's declared category, risk and tier without a session
// (the what-if policy check).
func (t *Tools) Def(name string) (*tool.Def, bool) {
	v, err := t.view()
	if err != nil {
		return nil, false
	}
	e, ok := v.Get(name)
	if !ok {
		return nil, false
	}
	return e.Def, true
}

// view returns the gate's configured view for a session it loads itself.
func (t *Tools) view() (*registry.View, error) {
	if t.cfg.View == nil {
		return nil, errors.New("gate: no view is configured for sessions")
	}
	return t.cfg.View()
}

// bind ties a session's trust state to the store it persists to.
func (st *SessionTrust) bind(t *Tools, s *Session, rec *store.SessionRecord) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.store = t.sessionStore()
	st.sessionID = s.ID
	st.limit = t.cfg.LedgerBytes
	if st.active.IsZero() {
		st.active = rec.Active
	}
	if t.cfg.Vault != nil && st.box == nil {
		if b, err := t.cfg.Vault.Box(s.ID); err == nil {
			st.box = b
		}
	}
}

// persist writes one observation the session's ledger kept, sealed when
// the gate has a vault; with taint the session's move to tainted (and its
// default checkers) is written with it. durable: committed before return.
func (st *SessionTrust) persist(ctx context.Context, s *Session, src trust.Source, body, args []byte, isJSON bool, taint *store.LevelChange) error {
	st.mu.Lock()
	sto, box, limit := st.store, st.box, st.limit
	st.mu.Unlock()
	if sto == nil {
		return nil
	}
	w := &store.ObservationWrite{
		Observation: store.Observation{Time: time.Now(), Kind: src.Kind, Ref: clipRef(src.Ref), Instructions: src.Instructions, JSON: isJSON, Body: body, Args: args},
		Level:       taint, LimitBytes: int64(limit),
	}
	if box != nil {
		sealed, err := box.Seal(body)
		if err != nil {
			return fmt.Errorf("gate: seal observation: %w", err)
		}
		w.Body, w.Sealed = sealed, true
		if args != nil {
			if w.Args, err = box.Seal(args); err != nil {
				return fmt.Errorf("gate: seal observation: %w", err)
			}
		}
	}
	durable := !src.Kind.Trusted() || taint != nil || src.Kind == trust.Directive || src.Kind == trust.Promoted
	_, err := sto.AppendObservation(context.WithoutCancel(ctx), s.ID, w, durable)
	if err != nil {
		return fmt.Errorf("gate: record observation: %w", err)
	}
	return nil
}

func clipRef(ref string) string {
	if len(ref) > store.MaxObservationRef {
		return ref[:store.MaxObservationRef]
	}
	return ref
}

// Shared stores. When several ward instances share one store (a backend
// that is a store.Watcher), another instance may change a session this one
// caches: taint it, put it under review, change its checkers, delete it.
// Two things keep the cache honest. Every use of a cached session by name
// first re-reads its record (fresh): a session whose security state
// changed is dropped and loaded again, so no call is decided on a level
// another instance already left. And every change any instance commits
// arrives as a store.Change (Forget), which drops the session and reloads
// its principal's review and taint from the store, so that a review set
// through one instance binds the principal's other sessions on all.

// shared reports whether the gate's session store is shared with other
// processes.
func (t *Tools) shared() bool {
	_, ok := t.cfg.Sessions.(store.Watcher)
	return ok
}

// fresh reports whether the cached session s still has the security state
// the store holds; if not, it drops s from the cache. On a store no other
// process writes, the cache is the truth and fresh is always true.
func (t *Tools) fresh(ctx context.Context, s *Session) (bool, error) {
	if t.sessionStore() == nil || !t.shared() {
		return true, nil
	}
	rec, err := t.sessionStore().Session(ctx, s.ID)
	if errors.Is(err, store.ErrNotFound) {
		t.sessions.drop(s)
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("gate: session: %w", err)
	}
	tr := s.Trust
	tr.mu.Lock()
	same := rec.Level == tr.level && rec.Judged == tr.judged && rec.Judge == tr.judge &&
		slices.Equal(rec.Reviewers, tr.reviewers) && (!rec.DirectiveTrusted || rec.Directive == tr.directive)
	tr.mu.Unlock()
	if !same {
		t.sessions.drop(s)
	}
	return same, nil
}

// Forget applies a change committed to a shared store by any instance:
// the session it names is dropped from the cache (the next use loads it
// from the store), and its principal's review and taint are read again.
// store.ChangeAll drops every cached session and reloads every principal
// this process knows. It returns the store's error, if reading failed; the
// cache is dropped either way.
func (t *Tools) Forget(ctx context.Context, c store.Change) error {
	st := t.sessionStore()
	if st == nil {
		return nil
	}
	var principals []string
	t.sessions.mu.Lock()
	switch c.Kind {
	case store.ChangeSession:
		if e, ok := t.sessions.byID[c.ID]; ok {
			s := e.Value.(*Session)
			principals = append(principals, s.Principal)
			t.sessions.dropLocked(s)
		}
	case store.ChangePrincipal:
		for _, e := range t.sessions.byID {
			if s := e.Value.(*Session); s.Principal == c.ID {
				t.sessions.dropLocked(s)
			}
		}
		principals = append(principals, c.ID)
	case store.ChangeAll:
		for p := range t.sessions.review {
			principals = append(principals, p)
		}
		t.sessions.byID, t.sessions.byName = map[string]*list.Element{}, map[nameKey]string{}
		t.sessions.lru.Init()
	default:
		t.sessions.mu.Unlock()
		return nil
	}
	t.sessions.mu.Unlock()
	if c.Kind == store.ChangeSession && len(principals) == 0 {
		// Not cached here: find whose it is (a deleted session is
		// nobody's any more: reload every principal).
		rec, err := st.Session(ctx, c.ID)
		switch {
		case err == nil:
			principals = append(principals, rec.PrincipalID)
		case errors.Is(err, store.ErrNotFound):
			return t.Forget(ctx, store.Change{Kind: store.ChangeAll})
		default:
			return fmt.Errorf("gate: forget: %w", err)
		}
	}
	var errs []error
	for _, p := range principals {
		errs = append(errs, t.reloadPrincipal(ctx, p))
	}
	return errors.Join(errs...)
}

// freshPrincipal rereads s's principal's review and taint from the store
// before a write is decided. Other ward instances on the same store tell
// this one of a review or a taint they set by a change notification,
// which arrives milliseconds later; a write decided in that window would
// otherwise use the old view. Reads keep the notified view. A failed read
// refuses the write.
func (t *Tools) freshPrincipal(ctx context.Context, s *Session) error {
	if t.sessionStore() == nil || s.Principal == "" {
		return nil
	}
	if err := t.knowPrincipal(ctx, s.Principal); err != nil {
		return refuse(reason.HookError, "session", "the principal's review state could not be read, so the write is refused", err.Error())
	}
	if err := t.reloadPrincipal(ctx, s.Principal); err != nil {
		return refuse(reason.HookError, "session", "the principal's review state could not be read, so the write is refused", err.Error())
	}
	return nil
}

// reloadPrincipal reads the principal's review and taint from the store,
// if this process has seen the principal (one it has not is loaded on
// first sight, by knowPrincipal).
func (t *Tools) reloadPrincipal(ctx context.Context, principal string) error {
	t.sessions.mu.Lock()
	_, known := t.sessions.review[principal]
	t.sessions.mu.Unlock()
	if !known {
		return nil
	}
	under, err := t.sessionStore().UnderReview(ctx, principal)
	if err != nil {
		return fmt.Errorf("gate: reload principal: %w", err)
	}
	tainted, err := t.sessionStore().Tainted(ctx, principal)
	if err != nil {
		return fmt.Errorf("gate: reload principal: %w", err)
	}
	t.sessions.mu.Lock()
	t.sessions.review[principal] = 0
	if under {
		t.sessions.review[principal] = 1
	}
	t.sessions.tainted[principal] = tainted
	t.sessions.mu.Unlock()
	return nil
}

// sealHint explains a ledger that does not open on a shared store: the
// instances sharing it must share the vault key too.
func (t *Tools) sealHint() string {
	if !t.shared() {
		return ""
	}
	return " (on a shared store every ward instance needs the same vault.key in its data directory)"
}
