// Package knowledge is the vocabulary of the Grimoire, ward's store of what
// an agent knows: entries, their types and provenance, the partitions they
// live in, the ingestion strictness levels and the attack types a rejected
// entry is classified by (seed 001).
//
// An Entry is a value. Validate checks its shape only (bounds, formats,
// enums); whether its signature holds is internal/quarantine's question,
// and whether its content is true is the ingestion pipeline's. Every enum's
// zero value is invalid, or for Strictness the strictest level, so that an
// omitted field never admits an entry. Enums encode as their stable
// snake_case names in JSON and text.
package knowledge

import (
	"errors"
	"fmt"
	"math"
	"time"
	"unicode/utf8"
)

// ErrInvalid is wrapped by every error Validate and the enums' decoders
// return.
var ErrInvalid = errors.New("invalid knowledge entry")

// Bounds an entry must keep.
const (
	MaxContent    = 16 << 10 // longest content, in bytes (at least 1)
	MaxID         = 128      // longest entry id, listing or clade, in bytes
	MaxEmbedding  = 4096     // most dimensions of a supplied embedding
	MaxField      = 1024     // longest claim or heuristic string, in bytes
	MaxItems      = 64       // most conditions, actions or parameters
	SignatureSize = 65       // an EIP-712 signature: r, s, v
)

// Entry is one piece of knowledge, with the seed's QuarantinedEntry fields
// (less the pipeline's status, which the quarantine store keeps).
type Entry struct {
	ID         string     `json:"id"`
	Content    string     `json:"content"`
	Type       EntryType  `json:"entry_type"`
	Source     Source     `json:"source"`
	Confidence float64    `json:"confidence"` // as claimed by the source, in [0, 1]
	Embedding  []float32  `json:"embedding,omitempty"`
	Claim      *Claim     `json:"claim,omitempty"`
	Heuristic  *Heuristic `json:"heuristic,omitempty"`
}

// Source is who made an entry and how it reached the agent.
type Source struct {
	Provenance Provenance `json:"provenance"`
	// Agent is the author's address: "0x" and 40 hex digits (either
	// case). Required for external provenance.
	Agent string `json:"agent,omitempty"`
	// Signature is the author's EIP-712 signature (r, s, v) over the
	// entry; see internal/quarantine. Empty for unsigned entries, which
	// Stage 1 rejects when external.
	Signature []byte `json:"signature,omitempty"`
	// Anchor is the hash of the on-chain transaction anchoring the entry
	// ("0x" and 64 hex digits), if any.
	Anchor    string    `json:"on_chain_anchor,omitempty"`
	ListingID string    `json:"listing_id,omitempty"`
	CladeID   string    `json:"clade_id,omitempty"`
	Timestamp time.Time `json:"timestamp"` // when the author made it
}

// Claim is an entry's verifiable statement in structured form: Subject
// Relation Object, holding under Conditions.
type Claim struct {
	Subject    string   `json:"subject"`
	Relation   string   `json:"relation"`
	Object     string   `json:"object"`
	Conditions []string `json:"conditions,omitempty"`
}

// Heuristic is an actionable entry's structured form: when Conditions
// hold, take Actions with Parameters.
type Heuristic struct {
	Conditions []string          `json:"conditions,omitempty"`
	Actions    []string          `json:"actions"`
	Parameters map[string]string `json:"parameters,omitempty"`
}

// Validate reports the first way e breaks the bounds above, as an error
// wrapping ErrInvalid; it does not check the signature.
func (e *Entry) Validate() error {
	if err := e.validate(); err != nil {
		return fmt.Errorf("knowledge: %w: %w", ErrInvalid, err)
	}
	return nil
}

func (e *Entry) validate() error {
	if len(e.ID) > MaxID {
		return fmt.Errorf("id of %d bytes, above %d", len(e.ID), MaxID)
	}
	if len(e.Content) == 0 || len(e.Content) > MaxContent {
		return fmt.Errorf("content of %d bytes, want 1 to %d", len(e.Content), MaxContent)
	}
	if !utf8.ValidString(e.Content) {
		return errors.New("content is not valid UTF-8")
	}
	if !e.Type.Valid() {
		return fmt.Errorf("entry type %d", uint8(e.Type))
	}
	if math.IsNaN(e.Confidence) || e.Confidence < 0 || e.Confidence > 1 {
		return fmt.Errorf("confidence %v outside [0, 1]", e.Confidence)
	}
	if err := e.Source.validate(); err != nil {
		return err
	}
	if len(e.Embedding) > MaxEmbedding {
		return fmt.Errorf("embedding of %d dimensions, above %d", len(e.Embedding), MaxEmbedding)
	}
	for i, x := range e.Embedding {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return fmt.Errorf("embedding dimension %d is %v", i, x)
		}
	}
	if c := e.Claim; c != nil {
		for _, f := range []struct{ name, v string }{{"subject", c.Subject}, {"relation", c.Relation}, {"object", c.Object}} {
			if f.v == "" {
				return fmt.Errorf("claim without %s", f.name)
			}
		}
		if err := checkStrings("claim", []string{c.Subject, c.Relation, c.Object}); err != nil {
			return err
		}
		if err := checkStrings("claim condition", c.Conditions); err != nil {
			return err
		}
	}
	if h := e.Heuristic; h != nil {
		if len(h.Actions) == 0 {
			return errors.New("heuristic without actions")
		}
		if err := checkStrings("heuristic condition", h.Conditions); err != nil {
			return err
		}
		if err := checkStrings("heuristic action", h.Actions); err != nil {
			return err
		}
		if len(h.Parameters) > MaxItems {
			return fmt.Errorf("%d heuristic parameters, above %d", len(h.Parameters), MaxItems)
		}
		for k, v := range h.Parameters {
			if k == "" {
				return errors.New("heuristic parameter with an empty name")
			}
			if err := checkStrings("heuristic parameter", []string{k, v}); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Source) validate() error {
	if !s.Provenance.Valid() {
		return fmt.Errorf("provenance %d", uint8(s.Provenance))
	}
	if s.Agent != "" && !isHex(s.Agent, 20) {
		return fmt.Errorf("agent %.50q is not a 20-byte 0x-hex address", s.Agent)
	}
	if s.Agent == "" && s.Provenance.External() {
		return fmt.Errorf("%s entry without an agent address", s.Provenance)
	}
	if len(s.Signature) != 0 && len(s.Signature) != SignatureSize {
		return fmt.Errorf("signature of %d bytes, want %d", len(s.Signature), SignatureSize)
	}
	if s.Anchor != "" && !isHex(s.Anchor, 32) {
		return fmt.Errorf("on-chain anchor %.80q is not a 32-byte 0x-hex hash", s.Anchor)
	}
	if len(s.ListingID) > MaxID || len(s.CladeID) > MaxID {
		return fmt.Errorf("listing or clade id above %d bytes", MaxID)
	}
	if s.Timestamp.IsZero() || s.Timestamp.Unix() < 0 {
		return fmt.Errorf("source timestamp %v not after 1970", s.Timestamp)
	}
	return nil
}

func checkStrings(what string, ss []string) error {
	if len(ss) > MaxItems {
		return fmt.Errorf("%d %ss, above %d", len(ss), what, MaxItems)
	}
	for _, s := range ss {
		if len(s) > MaxField {
			return fmt.Errorf("%s of %d bytes, above %d", what, len(s), MaxField)
		}
		if !utf8.ValidString(s) {
			return fmt.Errorf("%s is not valid UTF-8", what)
		}
	}
	return nil
}

// isHex reports whether s is "0x" followed by n bytes in hex digits.
func isHex(s string, n int) bool {
	if len(s) != 2+2*n || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return false
	}
	for i := 2; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') && (c < 'A' || c > 'F') {
			return false
		}
	}
	return true
}
