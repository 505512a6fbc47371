package ingest

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/oracle"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
)

// The clade's immune system across machines (seed 001 §9, the relay). A
// member's pipeline exchanges five kinds of FleetMessage with the other
// members of the operator's clade through a transport that authenticates
// each message's sending member (FleetMessage.From) and drops replays;
// this file is what a member does with them, and what it publishes, and
// knows nothing of the transport.
//
// What a member publishes through Config.Fleet (nil: nothing):
//   - filter: its oracle's Export, when a rejection taught the oracle;
//   - signature: each immune signature a rejection recorded;
//   - report: its own counts of a source's decided and failed entries,
//     when it decides one of the source's entries or rolls some back;
//   - entry: a clade entry of its own, by ShareWithClade;
//   - verdict: its judgement of an entry another member shared.
//
// What HandleFleet does with a message from another member of the clade
// (anything else is refused; the member's own messages are ignored, so
// nothing is applied twice): a filter is merged into the oracle, bounded
// by oracle.MaxFill so that no member can make it flag everything, and
// saved; a signature joins immune memory, saved; an entry goes through
// every stage as untrusted input whatever its sharer's trust, and this
// member's judgement counts as its own verdict and is published; a verdict
// counts through CladeVerdict, once per entry and member, on an entry
// this member holds with the same content; a report replaces what the
// member reported before about the source, the member counting as one
// buyer towards the blacklist.
//
// Publishing never blocks a decision for long nor fails one: a message
// that cannot be published is counted (FleetStats) and dropped; a member
// that missed it gets the oracle's next export, which holds everything.
//
// Bodies are JSON objects with a version "v" (FleetVersion), decoded
// strictly: an unknown field, trailing data, a body above the kind's size
// bound or another version is refused before anything changes.

// FleetKind is the kind of a FleetMessage. The zero value is no kind and
// is refused.
type FleetKind uint8

// Fleet message kinds.
const (
	FleetFilter FleetKind = iota + 1
	FleetSignature
	FleetEntry
	FleetVerdict
	FleetReport
)

var fleetKindNames = [...]string{"", "filter", "signature", "entry", "verdict", "report"}

// Valid reports whether k is one of the kinds above.
func (k FleetKind) Valid() bool { return k >= FleetFilter && k <= FleetReport }

func (k FleetKind) String() string {
	if !k.Valid() {
		return fmt.Sprintf("FleetKind(%d)", uint8(k))
	}
	return fleetKindNames[k]
}

// MarshalText encodes k by name; it fails for an invalid kind.
func (k FleetKind) MarshalText() ([]byte, error) {
	if !k.Valid() {
		return nil, fmt.Errorf("ingest: fleet kind %d", uint8(k))
	}
	return []byte(fleetKindNames[k]), nil
}

// UnmarshalText decodes a kind's name; it fails for any other text.
func (k *FleetKind) UnmarshalText(b []byte) error {
	i := slices.Index(fleetKindNames[1:], string(b))
	if i < 0 {
		return fmt.Errorf("ingest: unknown fleet kind %.32q", b)
	}
	*k = FleetKind(i + 1)
	return nil
}

// FleetMessage is one message between members of a clade.
type FleetMessage struct {
	Kind FleetKind
	// From is the sending member's 0x address, which the transport has
	// authenticated.
	From string
	Body []byte
}

// FleetPublisher sends a message of kind with body to the other members
// of the clade. Publish should return quickly (a transport buffers); the
// pipeline gives it FleetPublishTimeout.
type FleetPublisher interface {
	Publish(ctx context.Context, kind FleetKind, body []byte) error
}

// Fleet parameters.
const (
	// FleetVersion is the version of every body's encoding.
	FleetVersion = 1
	// MaxFleetFilterBody bounds a filter body: two filters of up to
	// oracle.MaxFilterBytes, in base64, and their headers.
	MaxFleetFilterBody = 3 << 20
	// MaxFleetBody bounds the body of any other kind (an entry's content
	// and supplied embedding at their bounds fit).
	MaxFleetBody = 256 << 10
	// MaxReportCount bounds the counts of a report.
	MaxReportCount = 1 << 30
	// FleetPublishTimeout bounds one Publish.
	FleetPublishTimeout = 2 * time.Second
)

// Fleet errors. Callers branch on them with errors.Is; ErrNotMember,
// ErrOwnShare and ErrNoEntry (clade.go) are returned too.
var (
	// ErrFleetMessage: the message is malformed, of no kind or too large,
	// or its body breaks the rules of its kind.
	ErrFleetMessage = errors.New("malformed fleet message")
	// ErrNoFleet: the pipeline is not a member of a clade (no Self, Clade
	// or Members), or has no FleetPublisher to share through.
	ErrNoFleet = errors.New("this ward is not a clade member with a fleet publisher")
	// ErrWrongContent: a verdict's or share's content is not that of the
	// entry this member holds under the same id.
	ErrWrongContent = errors.New("content differs from the entry held under that id")
)

// FleetStats counts what the pipeline published.
type FleetStats struct {
	Published     uint64 `json:"published"`
	PublishErrors uint64 `json:"publish_errors"`
}

type filterBody struct {
	V      int    `json:"v"`
	Oracle []byte `json:"oracle"` // an oracle.Oracle Export
}

type signatureBody struct {
	V        int                  `json:"v"`
	ID       string               `json:"id"`       // 16 bytes, hex
	Class    string               `json:"class"`    // 16 bytes, hex
	Centroid string               `json:"centroid"` // 32 bytes, hex
	Sketch   string               `json:"sketch"`   // 16 bytes, hex, big-endian words
	Dim      uint32               `json:"dim"`
	Attack   knowledge.AttackType `json:"attack"`
	Reason   reason.Code          `json:"reason"`
}

type entryBody struct {
	V     int             `json:"v"`
	Entry knowledge.Entry `json:"entry"`
}

type verdictBody struct {
	V       int    `json:"v"`
	EntryID string `json:"entry_id"`
	// Content is SHA-256 of the judged entry's normalised content
	// (oracle.ContentHash), hex: a verdict counts only on the entry with
	// that content.
	Content  string `json:"content_sha256"`
	Rejected bool   `json:"rejected"`
}

type reportBody struct {
	V       int    `json:"v"`
	Source  string `json:"source"` // the source agent's 0x address
	Decided int    `json:"decided"`
	Failed  int    `json:"failed"`
}

// maxBody is the largest body of kind k.
func (k FleetKind) maxBody() int {
	if k == FleetFilter {
		return MaxFleetFilterBody
	}
	return MaxFleetBody
}

// decodeBody decodes body, of kind, strictly into v (a pointer to a body
// struct) and checks its version.
func decodeBody(kind FleetKind, body []byte, v any, version *int) error {
	if len(body) > kind.maxBody() {
		return fmt.Errorf("%w: %d bytes, above %d", ErrFleetMessage, len(body), kind.maxBody())
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: %v", ErrFleetMessage, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("%w: data after the body", ErrFleetMessage)
	}
	if *version != FleetVersion {
		return fmt.Errorf("%w: version %d, want %d", ErrFleetMessage, *version, FleetVersion)
	}
	return nil
}

// outbox holds what the pipeline learnt that the clade should hear, until
// the call that learnt it publishes it (flushFleet) outside the decision
// lock.
type outbox struct {
	mu      sync.Mutex
	filter  bool
	sigs    []oracle.Signature
	sources map[string]bool
}

func (o *outbox) learnt(sigs []oracle.Signature) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.filter = true
	o.sigs = append(o.sigs, sigs...)
}

func (o *outbox) touched(agent string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.sources == nil {
		o.sources = map[string]bool{}
	}
	o.sources[strings.ToLower(agent)] = true
}

func (o *outbox) take() (filter bool, sigs []oracle.Signature, sources []string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	filter, sigs = o.filter, o.sigs
	for a := range o.sources {
		sources = append(sources, a)
	}
	o.filter, o.sigs, o.sources = false, nil, nil
	slices.Sort(sources)
	return filter, sigs, sources
}

// fleetOn reports whether the pipeline takes part in a clade's fleet.
func (p *Pipeline) fleetOn() bool {
	return p.cfg.Self != "" && p.cfg.Clade != "" && p.cfg.Members != nil
}

// FleetStats returns what the pipeline published and failed to publish.
func (p *Pipeline) FleetStats() FleetStats {
	return FleetStats{Published: p.published.Load(), PublishErrors: p.publishErrors.Load()}
}

// RepublishFilter publishes the oracle's export to the clade once, as a
// member does when it joins: a rejection whose filter was lost with the
// process (killed after the decision and before the relay queued the
// message) still reaches the others, and a member that was away has what
// this one learnt meanwhile. Filters merge by union, so a copy a member
// already holds changes nothing. Outside a clade it does nothing.
func (p *Pipeline) RepublishFilter(ctx context.Context) error {
	if p.cfg.Fleet == nil || !p.fleetOn() {
		return nil
	}
	data, err := p.cfg.Oracle.Export()
	if err != nil {
		p.publishErrors.Add(1)
		return fmt.Errorf("ingest: publish %s: %w", FleetFilter, err)
	}
	return p.send(ctx, FleetFilter, filterBody{V: FleetVersion, Oracle: data})
}

// send publishes body, of kind, counting the outcome.
func (p *Pipeline) send(ctx context.Context, kind FleetKind, body any) error {
	b, err := json.Marshal(body)
	if err == nil && len(b) > kind.maxBody() {
		err = fmt.Errorf("%w: %d bytes, above %d", ErrFleetMessage, len(b), kind.maxBody())
	}
	if err == nil {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), FleetPublishTimeout)
		err = p.cfg.Fleet.Publish(ctx, kind, b)
		cancel()
	}
	if err != nil {
		p.publishErrors.Add(1)
		return fmt.Errorf("ingest: publish %s: %w", kind, err)
	}
	p.published.Add(1)
	return nil
}

// flushFleet publishes what the outbox holds: the oracle's export if a
// rejection taught it, the signatures recorded, and this member's counts
// of each source it decided entries of. Failures are counted, not
// returned: a decision never waits on the clade.
func (p *Pipeline) flushFleet(ctx context.Context) {
	if p.cfg.Fleet == nil {
		return
	}
	filter, sigs, sources := p.out.take()
	if filter {
		if data, err := p.cfg.Oracle.Export(); err != nil {
			p.publishErrors.Add(1)
		} else {
			p.send(ctx, FleetFilter, filterBody{V: FleetVersion, Oracle: data})
		}
	}
	for _, s := range sigs {
		p.send(ctx, FleetSignature, signatureBodyOf(s))
	}
	for _, a := range sources {
		m, ok := p.rep.get(a)
		if c := m.Buyers[LocalBuyer]; ok && c.Decided > 0 {
			p.send(ctx, FleetReport, reportBody{V: FleetVersion, Source: a, Decided: c.Decided, Failed: c.Failed})
		}
	}
}

func signatureBodyOf(s oracle.Signature) signatureBody {
	var sk [16]byte
	for i, w := range s.Sketch {
		for j := range 8 {
			sk[8*i+j] = byte(w >> (56 - 8*j))
		}
	}
	return signatureBody{V: FleetVersion, ID: hex.EncodeToString(s.ID[:]), Class: hex.EncodeToString(s.Class[:]),
		Centroid: hex.EncodeToString(s.Centroid[:]), Sketch: hex.EncodeToString(sk[:]), Dim: s.Dim, Attack: s.Attack, Reason: s.Reason}
}

// signature is the signature b describes.
func (b *signatureBody) signature() (oracle.Signature, error) {
	var s oracle.Signature
	var sk [16]byte
	for _, f := range []struct {
		name string
		hex  string
		dst  []byte
	}{{"id", b.ID, s.ID[:]}, {"class", b.Class, s.Class[:]}, {"centroid", b.Centroid, s.Centroid[:]}, {"sketch", b.Sketch, sk[:]}} {
		if len(f.hex) != 2*len(f.dst) {
			return s, fmt.Errorf("%w: %s of %d hex digits, want %d", ErrFleetMessage, f.name, len(f.hex), 2*len(f.dst))
		}
		if _, err := hex.Decode(f.dst, []byte(f.hex)); err != nil {
			return s, fmt.Errorf("%w: %s is not hex", ErrFleetMessage, f.name)
		}
	}
	for i := range s.Sketch {
		for j := range 8 {
			s.Sketch[i] = s.Sketch[i]<<8 | uint64(sk[8*i+j])
		}
	}
	s.Dim, s.Attack, s.Reason = b.Dim, b.Attack, b.Reason
	if s.Attack == knowledge.NoAttack || s.Attack == knowledge.ProvenanceForgery {
		// The pipeline remembers neither (pipeline.go): a member that
		// sends one sends what no member records.
		return s, fmt.Errorf("%w: a signature of attack %s", ErrFleetMessage, s.Attack)
	}
	if err := s.Check(); err != nil {
		return s, fmt.Errorf("%w: %v", ErrFleetMessage, err)
	}
	return s, nil
}

// HandleFleet applies m, received from another member of the operator's
// clade (see the top of this file for what each kind does). It is safe for
// concurrent use.
//
// It refuses, changing nothing: any message when the pipeline has no Self,
// Clade or Members (ErrNoFleet); a message from anyone who is not a member
// of the operator's clade (ErrNotMember); a malformed one
// (ErrFleetMessage); a filter of another banding or size
// (oracle.ErrMismatch) or that would fill the oracle past oracle.MaxFill
// (oracle.ErrSaturated); a shared entry that is not a clade entry of the
// sender's own; a verdict on an entry this member does not hold
// (ErrNoEntry), with other content (ErrWrongContent) or on the sender's
// own share (ErrOwnShare); a report about a source that is not an
// address, or with counts out of range. A message from this member itself
// is ignored: it was applied when it was made. Other errors are the
// State's: what could not be saved does not count.
func (p *Pipeline) HandleFleet(ctx context.Context, m FleetMessage) error {
	if !m.Kind.Valid() {
		return fmt.Errorf("ingest: fleet: %w: kind %d", ErrFleetMessage, uint8(m.Kind))
	}
	if !p.fleetOn() {
		return fmt.Errorf("ingest: fleet %s: %w", m.Kind, ErrNoFleet)
	}
	if !isAddress(m.From) {
		return fmt.Errorf("ingest: fleet %s: %w: sender is not an address", m.Kind, ErrNotMember)
	}
	from := strings.ToLower(m.From)
	if strings.EqualFold(from, p.cfg.Self) {
		return nil
	}
	if mem, ok := p.cfg.Members.Member(from); !ok || mem.Clade != p.cfg.Clade {
		return fmt.Errorf("ingest: fleet %s from %s: %w", m.Kind, from, ErrNotMember)
	}
	var err error
	switch m.Kind {
	case FleetFilter:
		err = p.fleetFilter(ctx, m.Body)
	case FleetSignature:
		err = p.fleetSignature(ctx, m.Body)
	case FleetEntry:
		err = p.fleetEntry(ctx, from, m.Body)
	case FleetVerdict:
		err = p.fleetVerdict(ctx, from, m.Body)
	case FleetReport:
		err = p.fleetReport(ctx, from, m.Body)
	}
	if err != nil {
		return fmt.Errorf("ingest: fleet %s from %s: %w", m.Kind, from, err)
	}
	return nil
}

// isAddress reports whether s is an address spelled with a lower-case 0x.
func isAddress(s string) bool {
	_, err := tool.ParseAddress(s)
	return err == nil && strings.HasPrefix(s, "0x")
}

func (p *Pipeline) fleetFilter(ctx context.Context, body []byte) error {
	var b filterBody
	if err := decodeBody(FleetFilter, body, &b, &b.V); err != nil {
		return err
	}
	if err := p.cfg.Oracle.Merge(b.Oracle); err != nil {
		return err
	}
	return p.saveMemory(ctx, nil)
}

func (p *Pipeline) fleetSignature(ctx context.Context, body []byte) error {
	var b signatureBody
	if err := decodeBody(FleetSignature, body, &b, &b.V); err != nil {
		return err
	}
	sig, err := b.signature()
	if err != nil {
		return err
	}
	added, err := p.cfg.Immune.Add(sig)
	if err != nil || !added {
		return err
	}
	return p.saveMemory(ctx, []oracle.Signature{sig})
}

// fleetEntry runs an entry the member from shared through every stage,
// untrusted, and publishes this member's judgement of it, which it counts
// as its own verdict. An entry the pipeline did not judge on its content
// (held by the oracle or immune memory, pending, a replay, a forgery, a
// blacklisted source) gets no verdict.
func (p *Pipeline) fleetEntry(ctx context.Context, from string, body []byte) error {
	var b entryBody
	if err := decodeBody(FleetEntry, body, &b, &b.V); err != nil {
		return err
	}
	e := &b.Entry
	switch {
	case e.ID == "":
		return fmt.Errorf("%w: a shared entry needs an id", ErrFleetMessage)
	case e.Source.Provenance != knowledge.Clade || !strings.EqualFold(e.Source.Agent, from) || e.Source.CladeID != p.cfg.Clade:
		return fmt.Errorf("%w: a shared entry must be a clade entry of the sender's own, in clade %s", ErrFleetMessage, p.cfg.Clade)
	}
	rs, err := p.run(ctx, []*knowledge.Entry{e}, true, true)
	if err = errors.Join(err, p.account(ctx, []*knowledge.Entry{e}, rs, true)); err != nil || len(rs) == 0 {
		return err
	}
	rejected, judged := contentVerdict(rs[0])
	if !judged {
		return nil
	}
	_, err = p.CladeVerdict(ctx, e.ID, p.cfg.Self, rejected)
	sum := oracle.ContentHash(e.Content)
	if p.cfg.Fleet != nil {
		p.send(ctx, FleetVerdict, verdictBody{V: FleetVersion, EntryID: e.ID, Content: hex.EncodeToString(sum[:]), Rejected: rejected})
	}
	return err
}

// contentVerdict is what r says of its entry's content: rejected for an attack
// on it, or adopted or confirmed; judged is false otherwise.
func contentVerdict(r *Report) (rejected, judged bool) {
	switch {
	case r.Verdict == Adopted || r.Verdict == Confirmed:
		return false, true
	case r.Verdict == Rejected && r.Attack != knowledge.NoAttack && r.Attack != knowledge.ProvenanceForgery:
		return true, true
	}
	return false, false
}

func (p *Pipeline) fleetVerdict(ctx context.Context, from string, body []byte) error {
	var b verdictBody
	if err := decodeBody(FleetVerdict, body, &b, &b.V); err != nil {
		return err
	}
	var sum [32]byte
	switch {
	case b.EntryID == "" || len(b.EntryID) > knowledge.MaxID:
		return fmt.Errorf("%w: entry id of %d bytes, want 1 to %d", ErrFleetMessage, len(b.EntryID), knowledge.MaxID)
	case len(b.Content) != 2*len(sum):
		return fmt.Errorf("%w: content hash of %d hex digits, want %d", ErrFleetMessage, len(b.Content), 2*len(sum))
	}
	if _, err := hex.Decode(sum[:], []byte(b.Content)); err != nil {
		return fmt.Errorf("%w: content hash is not hex", ErrFleetMessage)
	}
	e, err := p.held(ctx, b.EntryID)
	if err != nil {
		return err
	}
	if oracle.ContentHash(e.Content) != sum {
		return ErrWrongContent
	}
	_, err = p.CladeVerdict(ctx, b.EntryID, from, b.Rejected)
	return err
}

func (p *Pipeline) fleetReport(ctx context.Context, from string, body []byte) error {
	var b reportBody
	if err := decodeBody(FleetReport, body, &b, &b.V); err != nil {
		return err
	}
	switch {
	case !isAddress(b.Source):
		return fmt.Errorf("%w: a report's source must be a 0x address", ErrFleetMessage)
	case b.Decided < 1 || b.Decided > MaxReportCount || b.Failed < 0 || b.Failed > b.Decided:
		return fmt.Errorf("%w: %d failed of %d decided, want 0 ≤ failed ≤ decided, 1 ≤ decided ≤ %d", ErrFleetMessage, b.Failed, b.Decided, MaxReportCount)
	}
	if err := p.rep.report(strings.ToLower(b.Source), from, BuyerCount{Decided: b.Decided, Failed: b.Failed}); err != nil {
		return err
	}
	return p.saveReputation(ctx)
}

// held returns the entry id that the Grimoire view or the quarantine store
// holds, or ErrNoEntry.
func (p *Pipeline) held(ctx context.Context, id string) (*knowledge.Entry, error) {
	if k, ok := p.grim.Get(id); ok {
		return k.Entry, nil
	}
	q, err := p.cfg.Store.QuarantinedEntry(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrNoEntry
	}
	if err != nil {
		return nil, fmt.Errorf("entry %s: %w", id, err)
	}
	return &q.Entry, nil
}

// ShareWithClade publishes e, a clade entry of this member's own (source
// agent Self, clade Clade, signed) that the pipeline holds (in the
// Grimoire view or quarantine, with the same content), for the other
// members to validate; their verdicts then count here too. It fails with
// ErrNoFleet without a publisher or clade membership, ErrFleetMessage for
// an entry that is not such an entry, ErrNoEntry or ErrWrongContent if the
// pipeline does not hold it, or with the publisher's error.
func (p *Pipeline) ShareWithClade(ctx context.Context, e *knowledge.Entry) error {
	if p.cfg.Fleet == nil || !p.fleetOn() {
		return fmt.Errorf("ingest: share: %w", ErrNoFleet)
	}
	switch {
	case e == nil:
		return fmt.Errorf("ingest: share: %w: no entry", ErrFleetMessage)
	case e.ID == "" || e.Source.Provenance != knowledge.Clade || !strings.EqualFold(e.Source.Agent, p.cfg.Self) ||
		e.Source.CladeID != p.cfg.Clade || len(e.Source.Signature) == 0:
		return fmt.Errorf("ingest: share: %w: want a signed clade entry with an id, of %s in clade %s", ErrFleetMessage, p.cfg.Self, p.cfg.Clade)
	}
	if err := e.Validate(); err != nil {
		return fmt.Errorf("ingest: share: %w: %v", ErrFleetMessage, err)
	}
	h, err := p.held(ctx, e.ID)
	if err != nil {
		return fmt.Errorf("ingest: share %s: %w", e.ID, err)
	}
	if oracle.ContentHash(h.Content) != oracle.ContentHash(e.Content) {
		return fmt.Errorf("ingest: share %s: %w", e.ID, ErrWrongContent)
	}
	return p.send(ctx, FleetEntry, entryBody{V: FleetVersion, Entry: *e})
}
