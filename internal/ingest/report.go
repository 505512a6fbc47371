package ingest

import (
	"github.com/wardhq/ward/internal/event"
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
	Layer      string               `json:"layer,omitempty"` // the check or Stage 2 layer that decided
	Code       reason.Code          `json:"reason_code"`
	Attack     knowledge.AttackType `json:"attack,omitempty"`
	Scores     map[string]float64   `json:"scores,omitempty"`
	Reasons    []string             `json:"reasons,omitempty"`
	Flags      []string             `json:"flags,omitempty"`
	Confidence float64              `json:"confidence"` // the adopted entry's initial confidence; 0 otherwise
}

func newReport(e *knowledge.Entry) *Report {
	return &Report{EntryID: e.ID, Scores: map[string]float64{}}
}

// The seed's grimoire:* events. Each event's Summary holds the seed's
// payload as JSON; Code is the reason code.
const (
	GrimoireEntryQuarantined event.Kind = "grimoire:entry_quarantined" // {entry_id, source, agent, entry_type}
	GrimoireValidationPassed event.Kind = "grimoire:validation_passed" // {entry_id, layers_passed, score}
	GrimoireValidationFailed event.Kind = "grimoire:validation_failed" // {entry_id, failed_layer, reason}
	GrimoireEntryAdopted     event.Kind = "grimoire:entry_adopted"     // {entry_id, initial_confidence, partition}
	GrimoireImmuneMatch      event.Kind = "grimoire:immune_match"      // {entry_id, immune_signature_hash}
	// GrimoireCausalRollback is published by causal rollback (Stage 4),
	// which this package does not implement yet.
	GrimoireCausalRollback event.Kind = "grimoire:causal_rollback" // {source_agent, entries_quarantined, reason}
)

type quarantinedPayload struct {
	EntryID   string `json:"entry_id"`
	Source    string `json:"source"`
	Agent     string `json:"agent,omitempty"`
	EntryType string `json:"entry_type"`
}

type passedPayload struct {
	EntryID      string   `json:"entry_id"`
	LayersPassed []string `json:"layers_passed"`
	Score        float64  `json:"score"`
}

type failedPayload struct {
	EntryID     string `json:"entry_id"`
	FailedLayer string `json:"failed_layer"`
	Reason      string `json:"reason"`
}

type adoptedPayload struct {
	EntryID           string  `json:"entry_id"`
	InitialConfidence float64 `json:"initial_confidence"`
	Partition         string  `json:"partition"`
}

type immunePayload struct {
	EntryID   string `json:"entry_id"`
	Signature string `json:"immune_signature_hash"`
}
