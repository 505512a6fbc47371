// Package adopt is Stage 4 of knowledge ingestion as policy (seed 001
// sections 6 and 6.2): the confidence and TTL an entry that passed
// validation is adopted at, how independent confirmations raise it, the
// decisions external entries influenced, how far an entry may propagate,
// the Curator's decay and pruning cycle, and the lessons store with its
// PLAYBOOK.
//
// Everything but the PLAYBOOK is a pure function of values: a Record is
// adopted with Adopt, confirmed with Confirm, reinforced with Retrieve and
// decayed by Cycle, each returning a new Record and never touching the
// argument. Times are always passed in, so results are reproducible. The
// Lessons store is in memory and safe for concurrent use; the Playbook is
// the package's only I/O, a Markdown file with a single writer.
//
// Errors are refusals of malformed input (a NaN confidence, an unknown
// provenance, a negative generation) and wrap ErrInvalid; a policy outcome
// (no credit for a duplicate, a gate not met) is a value, not an error.
// The numbers and the reasons for the choices the seed leaves open are in
// docs/adoption.md.
package adopt

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/knowledge"
)

// ErrInvalid is wrapped by every error returned for malformed input.
var ErrInvalid = errors.New("invalid adoption input")

// Day is 24 hours, the unit of the seed's durations.
const Day = 24 * time.Hour

// Seed 6.1: initial confidence and TTL by source.
const (
	SelfInitialMax   = 0.9 // self-generated knowledge enters at its own confidence, at most 0.9
	CladeInitial     = 0.2
	PurchasedInitial = 0.2
	CrossUserInitial = 0.1
	CladeTTL         = 14 * Day
	PurchasedTTL     = 14 * Day
	CrossUserTTL     = 7 * Day
	ExternalWeight   = 0.8 // seed 6.2: retrieval weight of the external partition
)

// The seed's relationship discounts (its Weismann barrier).
const (
	InheritanceFactor   = 0.85 // per generation
	MaxGeneration       = 32   // 0.85^32 ≈ 0.0055: deeper lineages are refused
	CladeDiscount       = 0.80
	CommonsDiscount     = 0.50
	MarketplaceDiscount = 0.60
)

// Terms returns the seed 6.1 row for a provenance: the highest initial
// confidence and the TTL within which an unconfirmed entry must be
// confirmed (0 for self-generated knowledge, which has the standard
// lifetime: decay only). ok is false for an invalid provenance.
func Terms(pv knowledge.Provenance) (initial float64, ttl time.Duration, ok bool) {
	switch pv {
	case knowledge.Self:
		return SelfInitialMax, 0, true
	case knowledge.Clade:
		return CladeInitial, CladeTTL, true
	case knowledge.Purchased:
		return PurchasedInitial, PurchasedTTL, true
	case knowledge.CrossUser:
		return CrossUserInitial, CrossUserTTL, true
	}
	return 0, 0, false
}

// Relationship is how the author of an entry is related to the agent, the
// seed's Weismann-barrier table. The zero value, Direct, applies no
// discount and is allowed only for self-generated knowledge.
type Relationship uint8

// Relationships.
const (
	Direct Relationship = iota
	Inheritance
	CladeSibling
	Commons
	Marketplace
)

var relationshipNames = [...]string{Direct: "direct", Inheritance: "inheritance", CladeSibling: "clade", Commons: "commons", Marketplace: "marketplace"}

// String returns the relationship's stable name.
func (r Relationship) String() string {
	if int(r) < len(relationshipNames) {
		return relationshipNames[r]
	}
	return fmt.Sprintf("relationship(%d)", uint8(r))
}

// MarshalText encodes a valid relationship as its name.
func (r Relationship) MarshalText() ([]byte, error) {
	if int(r) >= len(relationshipNames) {
		return nil, fmt.Errorf("adopt: %w: relationship %d", ErrInvalid, uint8(r))
	}
	return []byte(r.String()), nil
}

// UnmarshalText decodes a name.
func (r *Relationship) UnmarshalText(b []byte) error {
	for i, n := range relationshipNames {
		if n == string(b) {
			*r = Relationship(i)
			return nil
		}
	}
	return fmt.Errorf("adopt: %w: unknown relationship %q", ErrInvalid, b)
}

// DefaultRelationship is the relationship a provenance implies when the
// caller knows no better: purchased knowledge is the marketplace's, clade
// knowledge a sibling's, cross-user knowledge the commons', self-generated
// knowledge direct.
func DefaultRelationship(pv knowledge.Provenance) Relationship {
	switch pv {
	case knowledge.Purchased:
		return Marketplace
	case knowledge.Clade:
		return CladeSibling
	case knowledge.CrossUser:
		return Commons
	}
	return Direct
}

// Discount returns the multiplicative confidence discount of a
// relationship: inheritance 0.85^generation (generation 1 to
// MaxGeneration), clade 0.80, commons 0.50, marketplace 0.60, direct 1.
// The generation must be 0 for every other relationship.
func Discount(r Relationship, generation int) (float64, error) {
	if r == Inheritance {
		if generation < 1 || generation > MaxGeneration {
			return 0, fmt.Errorf("adopt: %w: inheritance generation %d, want 1 to %d", ErrInvalid, generation, MaxGeneration)
		}
		return math.Pow(InheritanceFactor, float64(generation)), nil
	}
	if generation != 0 {
		return 0, fmt.Errorf("adopt: %w: generation %d for %s knowledge", ErrInvalid, generation, r)
	}
	switch r {
	case Direct:
		return 1, nil
	case CladeSibling:
		return CladeDiscount, nil
	case Commons:
		return CommonsDiscount, nil
	case Marketplace:
		return MarketplaceDiscount, nil
	}
	return 0, fmt.Errorf("adopt: %w: relationship %d", ErrInvalid, uint8(r))
}

// Class is an entry's memory class, which sets the Curator's base
// stability. The zero value is Standard, the shortest-lived. The class is
// assigned by ward (the pipeline or the operator), never read from the
// entry: a poisoner must not be able to ask for a longer memory.
type Class uint8

// Memory classes.
const (
	Standard  Class = iota // base stability 7 days
	MEV                    // MEV knowledge: 90 days
	Emergency              // emergency knowledge: 180 days
)

var classNames = [...]string{Standard: "standard", MEV: "mev", Emergency: "emergency"}

// String returns the class's stable name.
func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return fmt.Sprintf("class(%d)", uint8(c))
}

// MarshalText encodes a valid class as its name.
func (c Class) MarshalText() ([]byte, error) {
	if int(c) >= len(classNames) {
		return nil, fmt.Errorf("adopt: %w: class %d", ErrInvalid, uint8(c))
	}
	return []byte(c.String()), nil
}

// UnmarshalText decodes a name.
func (c *Class) UnmarshalText(b []byte) error {
	for i, n := range classNames {
		if n == string(b) {
			*c = Class(i)
			return nil
		}
	}
	return fmt.Errorf("adopt: %w: unknown memory class %q", ErrInvalid, b)
}

// Status is an adopted entry's validation status. The zero value is
// Pending: an entry is confirmed only by an independent confirmation.
type Status uint8

// Validation statuses.
const (
	Pending Status = iota
	Confirmed
)

var statusNames = [...]string{Pending: "pending", Confirmed: "confirmed"}

// String returns the status's stable name.
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("status(%d)", uint8(s))
}

// MarshalText encodes a valid status as its name.
func (s Status) MarshalText() ([]byte, error) {
	if int(s) >= len(statusNames) {
		return nil, fmt.Errorf("adopt: %w: status %d", ErrInvalid, uint8(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText decodes a name.
func (s *Status) UnmarshalText(b []byte) error {
	for i, n := range statusNames {
		if n == string(b) {
			*s = Status(i)
			return nil
		}
	}
	return fmt.Errorf("adopt: %w: unknown status %q", ErrInvalid, b)
}

// Origin is what ward knows about an entry beyond the entry itself.
type Origin struct {
	// Relationship overrides DefaultRelationship(provenance) when set;
	// Direct is refused for external knowledge.
	Relationship Relationship
	// Generation is the inheritance depth, from 1; 0 otherwise.
	Generation int
	// Class is the memory class (Standard unless ward knows better).
	Class Class
}

// Record is an adopted entry as the policy sees it: the provenance kept
// for attribution, the confidence earned so far and the Curator's inputs.
// Confidence is the evidence-based confidence; the Curator's decay is
// computed from it (Cycle) and never written back into it.
type Record struct {
	ID           string               `json:"id"`
	Type         knowledge.EntryType  `json:"entry_type"`
	Provenance   knowledge.Provenance `json:"provenance"`
	Agent        string               `json:"agent,omitempty"` // lower-case address
	Anchor       string               `json:"on_chain_anchor,omitempty"`
	ContentHash  string               `json:"content_hash"`
	Relationship Relationship         `json:"relationship"`
	Generation   int                  `json:"generation,omitempty"`
	Class        Class                `json:"class"`
	Claimed      float64              `json:"claimed"`    // what the source claimed
	Ceiling      float64              `json:"ceiling"`    // the relationship's discount: confidence stays below it
	Confidence   float64              `json:"confidence"` // current, evidence-based
	Status       Status               `json:"status"`
	Adopted      time.Time            `json:"adopted"`
	Expires      time.Time            `json:"expires,omitzero"` // the TTL: pruned if still pending then; zero for none
	// Validations counts independent (full-credit) confirmations.
	Validations   int            `json:"validations"`
	Duplicates    int            `json:"duplicates,omitempty"` // confirmations ignored as duplicates or not independent
	Confirmations []Confirmation `json:"confirmations,omitempty"`
	Retrievals    int            `json:"retrievals"`
	LastRetrieved time.Time      `json:"last_retrieved,omitzero"`
}

// Partition returns the Grimoire partition the record lives in: external
// for external provenance, self otherwise.
func (r *Record) Partition() knowledge.Partition {
	if r.Provenance.External() {
		return knowledge.PartitionExternal
	}
	return knowledge.PartitionSelf
}

// Weight returns the record's retrieval weight for a confidence c: c, times
// ExternalWeight in the external partition (seed 6.2). NaN and values
// outside [0, 1] weigh 0.
func (r *Record) Weight(c float64) float64 {
	if !(c >= 0 && c <= 1) {
		return 0
	}
	if r.Partition() == knowledge.PartitionExternal {
		return c * ExternalWeight
	}
	return c
}

// Adopt returns the record of an entry that passed validation, adopted at
// now: its initial confidence is min(claimed × discount, the source's
// initial confidence), never above the claim; its status Pending; its TTL
// the source's. It refuses an entry with a NaN or out-of-range confidence,
// an invalid provenance or type, an external entry without an agent, and
// an origin that does not fit the provenance (Direct for external
// knowledge, a bad generation).
func Adopt(e *knowledge.Entry, o Origin, now time.Time) (Record, error) {
	if e == nil {
		return Record{}, fmt.Errorf("adopt: %w: no entry", ErrInvalid)
	}
	c := e.Confidence
	if math.IsNaN(c) || c < 0 || c > 1 {
		return Record{}, fmt.Errorf("adopt %.128s: %w: confidence %v outside [0, 1]", e.ID, ErrInvalid, c)
	}
	if !e.Type.Valid() {
		return Record{}, fmt.Errorf("adopt %.128s: %w: entry type %d", e.ID, ErrInvalid, uint8(e.Type))
	}
	pv := e.Source.Provenance
	initial, ttl, ok := Terms(pv)
	if !ok {
		return Record{}, fmt.Errorf("adopt %.128s: %w: provenance %d", e.ID, ErrInvalid, uint8(pv))
	}
	if pv.External() && e.Source.Agent == "" {
		return Record{}, fmt.Errorf("adopt %.128s: %w: %s entry without an agent", e.ID, ErrInvalid, pv)
	}
	if int(o.Class) >= len(classNames) {
		return Record{}, fmt.Errorf("adopt %.128s: %w: class %d", e.ID, ErrInvalid, uint8(o.Class))
	}
	rel := o.Relationship
	if rel == Direct {
		rel = DefaultRelationship(pv)
	}
	if rel == Direct && pv.External() {
		return Record{}, fmt.Errorf("adopt %.128s: %w: %s entry without a relationship", e.ID, ErrInvalid, pv)
	}
	ceil, err := Discount(rel, o.Generation)
	if err != nil {
		return Record{}, fmt.Errorf("adopt %.128s: %w", e.ID, err)
	}
	r := Record{
		ID: e.ID, Type: e.Type, Provenance: pv, Agent: strings.ToLower(e.Source.Agent), Anchor: strings.ToLower(e.Source.Anchor),
		ContentHash: ContentHash(e.Content), Relationship: rel, Generation: o.Generation, Class: o.Class,
		Claimed: c, Ceiling: ceil, Confidence: min(c*ceil, initial), Status: Pending, Adopted: now,
	}
	if ttl > 0 {
		r.Expires = now.Add(ttl)
	}
	return r, nil
}

// ContentHash returns the hex SHA-256 of content with surrounding space
// trimmed, runs of white space collapsed to one space and letters
// lower-cased, so that trivially re-spaced copies count as identical.
func ContentHash(content string) string {
	norm := strings.ToLower(strings.Join(strings.Fields(content), " "))
	sum := sha256.Sum256([]byte(norm))
	return hex.EncodeToString(sum[:])
}
