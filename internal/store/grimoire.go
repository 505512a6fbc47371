package store

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/knowledge"
)

// QuarantineStatus is where a quarantined entry is in validation: pending
// until Stage 2 passes or fails it, once. Pending never becomes passed by
// age: there is no timeout promotion.
type QuarantineStatus string

// Quarantine statuses.
const (
	QuarantinePending QuarantineStatus = "pending"
	QuarantinePassed  QuarantineStatus = "passed"
	QuarantineFailed  QuarantineStatus = "failed"
	// QuarantineRolledBack: the entry was adopted, then causal rollback
	// sent it back (RollbackQuarantined). It is kept for review and never
	// pruned by age.
	QuarantineRolledBack QuarantineStatus = "rolled_back"
)

// Quarantine bounds (the seed's defaults), which every backend enforces.
const (
	// MaxQuarantinePending is how many pending entries one agent may have;
	// a put beyond it evicts that agent's oldest pending entry.
	MaxQuarantinePending = 1000
	// QuarantineRetention is how long a passed or failed entry is kept,
	// for the audit trail, before PruneQuarantine removes it.
	QuarantineRetention = 7 * 24 * time.Hour
	// MaxQuarantineReason is the longest reason, in bytes.
	MaxQuarantineReason = 1024
)

// QuarantinedEntry is an external entry in the quarantine collection,
// isolated from the Grimoire until adopted or rejected. Entries are kept
// per agent: Entry.Source.Agent, compared in lower case.
type QuarantinedEntry struct {
	Entry         knowledge.Entry // Entry.ID is the quarantine key
	Status        QuarantineStatus
	Reason        string               // why it passed or failed (a reason code or text)
	Attack        knowledge.AttackType // what attack a failure was classified as
	BatchID       string
	QuarantinedAt time.Time
	DecidedAt     time.Time // zero while pending
}

// QuarantineFilter selects quarantined entries. Zero fields do not filter.
type QuarantineFilter struct {
	Agent  string // any case
	Status QuarantineStatus
	Limit  int // 0: no limit
}

// Reasons a quarantine write was refused.
var (
	// ErrQuarantineExists: the id exists, or the agent already has an
	// entry with the same content (the durable replay guard, for as long
	// as the earlier entry is kept).
	ErrQuarantineExists = errors.New("quarantined entry already exists")
	// ErrQuarantineDecided: the entry passed or failed already.
	ErrQuarantineDecided = errors.New("quarantined entry already decided")
)

// Quarantine is Stage 1's separate collection. Put only entries that passed
// Stage 1 (internal/quarantine): the capacity is per claimed agent, so an
// unverified entry could evict the genuine agent's pending entries.
type Quarantine interface {
	// PutQuarantined durably stores q as pending (its Status, Reason,
	// Attack and DecidedAt are ignored) and, in the same transaction, if
	// its agent now has more than MaxQuarantinePending pending entries,
	// deletes that agent's oldest pending ones (by order of arrival),
	// returning their ids. An invalid entry (CheckQuarantined) is refused
	// unwritten; ErrQuarantineExists writes and evicts nothing.
	PutQuarantined(ctx context.Context, q *QuarantinedEntry) (evicted []string, err error)
	// QuarantinedEntry returns the entry with id, or ErrNotFound.
	QuarantinedEntry(ctx context.Context, id string) (*QuarantinedEntry, error)
	// ListQuarantined returns matching entries in order of arrival.
	ListQuarantined(ctx context.Context, f QuarantineFilter) ([]QuarantinedEntry, error)
	// SetQuarantineStatus durably decides the pending entry id as passed
	// or failed at at, with reason and attack, in one conditional update:
	// ErrNotFound, or ErrQuarantineDecided if it was decided already.
	SetQuarantineStatus(ctx context.Context, id string, status QuarantineStatus, reason string, attack knowledge.AttackType, at time.Time) error
	// PruneQuarantine durably deletes passed and failed entries decided
	// QuarantineRetention or longer before now, and returns how many. It
	// never deletes a pending or rolled_back entry.
	PruneQuarantine(ctx context.Context, now time.Time) (int64, error)
	// RollbackQuarantined durably returns the adopted entry q.Entry to
	// quarantine as rolled_back at at, with reason: its passed row changes
	// status (the only change a decided row allows), or, when the row was
	// pruned, q is inserted as rolled_back. A row that is pending, failed or
	// rolled back already fails with ErrQuarantineDecided; another row of
	// the agent with the same content fails with ErrQuarantineExists.
	RollbackQuarantined(ctx context.Context, q *QuarantinedEntry, reason string, at time.Time) error
}

// GrimoireEntry is an entry of the Grimoire itself, in a partition.
// Adoption is the Stage 4 record of an adopted external entry (its
// evidence confidence, validation status, TTL, class and confirmations;
// see internal/adopt), nil for an entry that has none: self knowledge,
// lessons, or an entry adopted before records were kept.
type GrimoireEntry struct {
	Entry     knowledge.Entry
	Partition knowledge.Partition
	Created   time.Time
	Adoption  *adopt.Record
}

// ErrEntryExists is returned for a Grimoire entry whose id exists.
var ErrEntryExists = errors.New("grimoire entry already exists")

// Grimoire stores the Grimoire's entries. An entry's source and claimed
// confidence are kept for good: no method changes them.
type Grimoire interface {
	// PutEntry durably stores g (see CheckGrimoireEntry); an id that
	// exists fails with ErrEntryExists.
	PutEntry(ctx context.Context, g *GrimoireEntry) error
	// Entry returns the entry with id, or ErrNotFound.
	Entry(ctx context.Context, id string) (*GrimoireEntry, error)
	// Entries returns partition's entries, newest first, up to limit (0:
	// all).
	Entries(ctx context.Context, partition knowledge.Partition, limit int) ([]GrimoireEntry, error)
	// PutAdoption durably sets (or replaces) the adoption record of the
	// entry r.ID, which must exist (ErrNotFound otherwise). The entry
	// itself does not change. A record CheckAdoption refuses is refused
	// unwritten.
	PutAdoption(ctx context.Context, r *adopt.Record) error
	// Adoption returns the adoption record of the entry id, or
	// ErrNotFound when there is no such entry or it has no record.
	Adoption(ctx context.Context, id string) (*adopt.Record, error)
	// Adoptions returns the adoption records of every entry that has one,
	// in order of adoption (the entries' creation, then id), up to limit
	// (0: all).
	Adoptions(ctx context.Context, limit int) ([]adopt.Record, error)
	// DeleteEntry durably deletes the entry id and its adoption record,
	// for the Curator's pruning; ErrNotFound if there is no such entry.
	DeleteEntry(ctx context.Context, id string) error
}

// CheckQuarantined reports why q cannot be quarantined: an empty id, an
// invalid entry, or a zero QuarantinedAt.
func CheckQuarantined(q *QuarantinedEntry) error {
	if q.Entry.ID == "" {
		return errors.New("quarantined entry without an id")
	}
	if err := q.Entry.Validate(); err != nil {
		return err
	}
	if q.QuarantinedAt.IsZero() {
		return errors.New("zero quarantine time")
	}
	if !representable(q.QuarantinedAt) {
		return fmt.Errorf("quarantine time %v outside the years 1678-2262", q.QuarantinedAt)
	}
	if len(q.BatchID) > knowledge.MaxID {
		return fmt.Errorf("batch id above %d bytes", knowledge.MaxID)
	}
	return nil
}

// CheckQuarantineRollback reports why q cannot be returned to quarantine
// as rolled back at at with reason (RollbackQuarantined): an entry
// CheckQuarantined refuses, a reason above MaxQuarantineReason bytes, or a
// time that is zero or outside the years 1678-2262.
func CheckQuarantineRollback(q *QuarantinedEntry, reason string, at time.Time) error {
	if err := CheckQuarantined(q); err != nil {
		return err
	}
	if len(reason) > MaxQuarantineReason {
		return fmt.Errorf("reason of %d bytes, above %d", len(reason), MaxQuarantineReason)
	}
	if !representable(at) {
		return fmt.Errorf("rollback time %v: want a time within the years 1678-2262", at)
	}
	return nil
}

// CheckQuarantineDecision reports why (status, reason, attack) cannot
// decide an entry.
func CheckQuarantineDecision(status QuarantineStatus, reason string, attack knowledge.AttackType) error {
	if status != QuarantinePassed && status != QuarantineFailed {
		return fmt.Errorf("quarantine status %q: want passed or failed", status)
	}
	if len(reason) > MaxQuarantineReason {
		return fmt.Errorf("reason of %d bytes, above %d", len(reason), MaxQuarantineReason)
	}
	if !attack.Valid() {
		return fmt.Errorf("attack type %d", uint8(attack))
	}
	if status == QuarantinePassed && attack != knowledge.NoAttack {
		return fmt.Errorf("a passed entry classified as %s", attack)
	}
	return nil
}

// CheckGrimoireEntry reports why g cannot be stored: an empty id, an
// invalid entry or partition, or a zero Created.
func CheckGrimoireEntry(g *GrimoireEntry) error {
	if g.Entry.ID == "" {
		return errors.New("grimoire entry without an id")
	}
	if !g.Partition.Valid() {
		return fmt.Errorf("partition %d", uint8(g.Partition))
	}
	if g.Created.IsZero() {
		return errors.New("zero creation time")
	}
	if !representable(g.Created) || !representable(g.Entry.Source.Timestamp) {
		return fmt.Errorf("created %v from a source of %v: want times within the years 1678-2262", g.Created, g.Entry.Source.Timestamp)
	}
	if g.Adoption != nil {
		if g.Adoption.ID != g.Entry.ID {
			return fmt.Errorf("adoption record of %.128q for entry %.128q", g.Adoption.ID, g.Entry.ID)
		}
		if err := CheckAdoption(g.Adoption); err != nil {
			return err
		}
	}
	return g.Entry.Validate()
}

// CheckAdoption reports why r cannot be stored: an empty id, a
// confidence or ceiling that is NaN or outside [0, 1], a zero adoption
// time, or a type, provenance, class, status or relationship that does
// not marshal.
func CheckAdoption(r *adopt.Record) error {
	switch {
	case r.ID == "":
		return errors.New("adoption record without an id")
	case !(r.Confidence >= 0 && r.Confidence <= 1):
		return fmt.Errorf("adoption confidence %v outside [0, 1]", r.Confidence)
	case !(r.Ceiling >= 0 && r.Ceiling <= 1):
		return fmt.Errorf("adoption ceiling %v outside [0, 1]", r.Ceiling)
	case r.Adopted.IsZero():
		return errors.New("zero adoption time")
	case !r.Type.Valid():
		return fmt.Errorf("adoption record of entry type %d", uint8(r.Type))
	case !r.Provenance.Valid():
		return fmt.Errorf("adoption record of provenance %d", uint8(r.Provenance))
	}
	for _, m := range []interface{ MarshalText() ([]byte, error) }{r.Class, r.Status, r.Relationship} {
		if _, err := m.MarshalText(); err != nil {
			return err
		}
	}
	return nil
}

// EncodeEmbedding returns v as little-endian IEEE 754 float32s, the form
// every backend stores an embedding in (bit for bit: NaN payloads and
// negative zeros survive), nil for none.
func EncodeEmbedding(v []float32) []byte {
	if len(v) == 0 {
		return nil
	}
	b := make([]byte, 0, 4*len(v))
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
}

// DecodeEmbedding reverses EncodeEmbedding; a length that is not a
// multiple of 4 is an error.
func DecodeEmbedding(b []byte) ([]float32, error) {
	if len(b) == 0 {
		return nil, nil
	}
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("embedding of %d bytes, not float32s", len(b))
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}
