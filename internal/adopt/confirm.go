package adopt

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/knowledge"
)

// MaxConfirmations is the most credited confirmations a record logs;
// Confirm refuses more. Each needs a distinct source agent or own outcome,
// and 128 full-credit confirmations of even the weakest source (0.1) leave
// less than 10⁻⁵ of the gap to the ceiling, so the bound costs nothing
// but keeps a record's size fixed. Zero-credit confirmations are only
// counted (Duplicates), so they cannot fill the log.
const MaxConfirmations = 128

// SharedAnchorWeight is the credit of a confirmation that traces to an
// on-chain anchor already counted (seed 6.1b).
const SharedAnchorWeight = 0.5

// Confirmation is evidence that an adopted entry holds: another source's
// entry with the same claim, or the agent's own operational outcome
// (provenance Self).
type Confirmation struct {
	// ID names the confirming entry or outcome; for self confirmations it
	// is what makes two of them distinct.
	ID          string               `json:"id"`
	Provenance  knowledge.Provenance `json:"provenance"`
	Agent       string               `json:"agent,omitempty"` // required for external provenance
	Anchor      string               `json:"on_chain_anchor,omitempty"`
	ContentHash string               `json:"content_hash,omitempty"` // ContentHash of the confirming entry, if it is one
	At          time.Time            `json:"at"`
	Credit      Credit               `json:"credit"` // set by Confirm
}

// ConfirmationFrom returns the confirmation a validated external (or self)
// entry gives, observed at.
func ConfirmationFrom(e *knowledge.Entry, at time.Time) Confirmation {
	return Confirmation{ID: e.ID, Provenance: e.Source.Provenance, Agent: e.Source.Agent,
		Anchor: e.Source.Anchor, ContentHash: ContentHash(e.Content), At: at}
}

// Credit is how much a confirmation counts (seed 6.1b). The zero value,
// NoCredit, counts nothing.
type Credit uint8

// Credits, weakest first.
const (
	// NoCredit: not independent (the entry's own source, or a source, or
	// for self confirmations an outcome, already counted).
	NoCredit Credit = iota
	// DuplicateContent: the content hash of the entry or of a counted
	// confirmation; logged, adds nothing.
	DuplicateContent
	// SharedAnchor: the on-chain anchor of the entry or of a counted
	// confirmation; half credit.
	SharedAnchor
	// Independent: unique provenance; full credit.
	Independent
)

var creditNames = [...]string{NoCredit: "not_independent", DuplicateContent: "duplicate_content", SharedAnchor: "shared_anchor", Independent: "independent"}

// String returns the credit's stable name.
func (c Credit) String() string {
	if int(c) < len(creditNames) {
		return creditNames[c]
	}
	return fmt.Sprintf("credit(%d)", uint8(c))
}

// MarshalText encodes a valid credit as its name.
func (c Credit) MarshalText() ([]byte, error) {
	if int(c) >= len(creditNames) {
		return nil, fmt.Errorf("adopt: %w: credit %d", ErrInvalid, uint8(c))
	}
	return []byte(c.String()), nil
}

// UnmarshalText decodes a name.
func (c *Credit) UnmarshalText(b []byte) error {
	for i, n := range creditNames {
		if n == string(b) {
			*c = Credit(i)
			return nil
		}
	}
	return fmt.Errorf("adopt: %w: unknown credit %q", ErrInvalid, b)
}

// Weight returns the share of a confirmation's strength the credit gives:
// 1, 0.5 or 0.
func (c Credit) Weight() float64 {
	switch c {
	case Independent:
		return 1
	case SharedAnchor:
		return SharedAnchorWeight
	}
	return 0
}

// Strength returns how much one full-credit confirmation from a
// provenance closes the gap to the ceiling: the seed 6.1 initial
// confidence of that source (self 0.5, the low end of its range; clade and
// purchased 0.2; cross-user 0.1), 0 for an invalid provenance.
func Strength(pv knowledge.Provenance) float64 {
	switch pv {
	case knowledge.Self:
		return 0.5
	case knowledge.Clade, knowledge.Purchased:
		return 0.2
	case knowledge.CrossUser:
		return 0.1
	}
	return 0
}

// Confirm returns r updated by the confirmation c and the credit c got.
// The update is a noisy-OR bounded by the record's ceiling: with w the
// credit's weight and p the source's Strength,
//
//	confidence' = confidence + w·p·(ceiling − confidence)
//
// so each independent confirmation removes a fixed share of the remaining
// doubt, the order of independent confirmations does not matter, the
// ceiling is approached but never reached, and a zero-credit confirmation
// changes nothing. A confidence already above the ceiling is left as it
// is. The first Independent confirmation makes the record Confirmed;
// each one counts as a validation. Credit, in order: the content hash of
// the entry or of a counted confirmation is DuplicateContent; the entry's
// own agent, or for external sources an agent already counted, or for
// self an outcome ID already counted, is NoCredit; the anchor of the entry
// or of a counted confirmation is SharedAnchor; anything else Independent.
// Credited confirmations are logged in Confirmations; the others only
// counted in Duplicates. Confirm refuses an invalid provenance, an
// external confirmation without an agent, a self confirmation without an
// ID and a record whose log is full; r is never modified.
func Confirm(r Record, c Confirmation) (Record, Credit, error) {
	if !c.Provenance.Valid() {
		return r, NoCredit, fmt.Errorf("adopt %.128s: confirm: %w: provenance %d", r.ID, ErrInvalid, uint8(c.Provenance))
	}
	if c.Provenance.External() && c.Agent == "" {
		return r, NoCredit, fmt.Errorf("adopt %.128s: confirm: %w: %s confirmation without an agent", r.ID, ErrInvalid, c.Provenance)
	}
	if c.Provenance == knowledge.Self && c.ID == "" {
		return r, NoCredit, fmt.Errorf("adopt %.128s: confirm: %w: self confirmation without an id", r.ID, ErrInvalid)
	}
	if len(r.Confirmations) >= MaxConfirmations {
		return r, NoCredit, fmt.Errorf("adopt %.128s: confirm: %w: %d confirmations logged", r.ID, ErrInvalid, len(r.Confirmations))
	}
	c.Agent, c.Anchor = strings.ToLower(c.Agent), strings.ToLower(c.Anchor)
	c.Credit = credit(&r, &c)
	out := r
	if c.Credit.Weight() == 0 {
		out.Duplicates++
		return out, c.Credit, nil
	}
	out.Confirmations = append(slices.Clip(r.Confirmations), c)
	if out.Confidence < out.Ceiling {
		out.Confidence += c.Credit.Weight() * Strength(c.Provenance) * (out.Ceiling - out.Confidence)
		if out.Confidence >= out.Ceiling { // rounding, after some 50 strong confirmations
			out.Confidence = math.Nextafter(out.Ceiling, 0)
		}
	}
	if c.Credit == Independent {
		out.Validations++
		out.Status = Confirmed
	}
	return out, c.Credit, nil
}

func credit(r *Record, c *Confirmation) Credit {
	counted := func(f func(*Confirmation) bool) bool {
		for i := range r.Confirmations {
			if p := &r.Confirmations[i]; p.Credit.Weight() > 0 && f(p) {
				return true
			}
		}
		return false
	}
	if c.ContentHash != "" && (c.ContentHash == r.ContentHash || counted(func(p *Confirmation) bool { return p.ContentHash == c.ContentHash })) {
		return DuplicateContent
	}
	if c.Agent != "" && c.Agent == r.Agent {
		return NoCredit
	}
	if c.Provenance.External() && counted(func(p *Confirmation) bool { return p.Agent == c.Agent }) {
		return NoCredit
	}
	if c.Provenance == knowledge.Self && counted(func(p *Confirmation) bool { return p.Provenance == knowledge.Self && p.ID == c.ID }) {
		return NoCredit
	}
	if c.Anchor != "" && (c.Anchor == r.Anchor || counted(func(p *Confirmation) bool { return p.Anchor == c.Anchor })) {
		return SharedAnchor
	}
	return Independent
}
