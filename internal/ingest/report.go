package ingest

import (
	"time"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/reason"
)

// Verdict is what the pipeline decided about an entry.
type Verdict string

// Verdicts.
const (
	Adopted     Verdict = "adopted"     // in the Grimoire's external partition
	Rejected    Verdict = "rejected"    // refused for good
	Quarantined Verdict = "quarantined" // held in quarantine, neither adopted nor rejected
	// Confirmed: the entry passed consensus and repeats an adopted entry
	// (same content, or same structured claim), named in Confirms; it
	// counts as evidence for that entry (adopt.Confirm, with Credit) and
	// is not adopted itself.
	Confirmed Verdict = "confirmed"
)

// Stage is where a decision was made.
type Stage string

// Stages, in pipeline order.
const (
	StageOracle Stage = "oracle"
	StageImmune Stage = "immune"
	StageStage1 Stage = "stage1"
	StageStage2 Stage = "stage2"
	StageAdopt  Stage = "adopt"
)

// Report is the decision on one entry. Reasons start with the reason code
// and are written by ward (signals, layer reasons): they never quote the
// entry's content.
type Report struct {
	EntryID    string               `json:"entry_id"`
	Verdict    Verdict              `json:"verdict"`
	Stage      Stage                `json:"stage"`
	Layer      knowledge.Layer      `json:"layer,omitempty"` // the check or Stage 2 layer that decided
	Code       reason.Code          `json:"reason_code"`
	Attack     knowledge.AttackType `json:"attack,omitempty"`
	Scores     map[string]float64   `json:"scores,omitempty"`
	Reasons    []string             `json:"reasons,omitempty"`
	Flags      []string             `json:"flags,omitempty"`
	Confidence float64              `json:"confidence"` // the adopted entry's initial confidence, or the confirmed one's new confidence; 0 otherwise

	// Adoption (verdicts adopted and confirmed): the Stage 4 record's
	// initial confidence, validation status (pending or confirmed) and
	// TTL (zero for none). For a confirmation they are the confirmed
	// entry's, Confirms names it and Credit is what the confirmation
	// earned (independent, shared_anchor, duplicate_content or
	// not_independent).
	InitialConfidence float64   `json:"initial_confidence,omitempty"`
	ValidationStatus  string    `json:"validation_status,omitempty"`
	Expires           time.Time `json:"expires,omitzero"`
	Confirms          string    `json:"confirms,omitempty"`
	Credit            string    `json:"credit,omitempty"`

	// Lesson is the id of the lesson a rejection left (keyed on the
	// source and reason, or a sandbox breach's); "" when it left none.
	Lesson string `json:"lesson,omitempty"`

	// Votes are the Stage 2 votes on the entry, in the order of the
	// validators, every layer that voted (passing, failing or skipped) and
	// not only the one that decided; nil when it did not reach Stage 2, or
	// took its verdict from its batch representative.
	Votes []Vote `json:"votes,omitempty"`

	// Sandbox is Stage 3's outcome for an actionable entry it evaluated
	// (its plan, evaluation and any breach); nil otherwise.
	Sandbox *SandboxOutcome `json:"sandbox,omitempty"`
}

func newReport(e *knowledge.Entry) *Report {
	return &Report{EntryID: e.ID, Scores: map[string]float64{}}
}
