package adopt

import (
	"fmt"
	"math"
	"time"
)

// The Curator's Ebbinghaus decay (seed 6.2 and the Curator cycle).
const (
	BaseStability      = 7 * Day   // Standard knowledge
	MEVStability       = 90 * Day  // MEV knowledge
	EmergencyStability = 180 * Day // emergency knowledge
	// MaxStability caps stability grown by retrievals: nothing outlives
	// emergency knowledge, however often it is retrieved.
	MaxStability    = EmergencyStability
	RetrievalGrowth = 1.5 // stability × 1.5 per retrieval
	RetentionFloor  = 0.1
)

// Stability returns the stability S of a class after n retrievals:
// its base (7, 90 or 180 days) × 1.5^n, at most MaxStability. A negative n
// counts as 0; an unknown class has the base stability.
func Stability(c Class, n int) time.Duration {
	s := BaseStability
	switch c {
	case MEV:
		s = MEVStability
	case Emergency:
		s = EmergencyStability
	}
	f := float64(s) * math.Pow(RetrievalGrowth, float64(max(n, 0)))
	if f >= float64(MaxStability) || math.IsInf(f, 0) {
		return MaxStability
	}
	return max(s, time.Duration(f))
}

// Retention returns R = e^(-t/S), floored at RetentionFloor. A zero or
// negative t (a clock that went back) is 1; a non-positive S is the floor.
func Retention(t, s time.Duration) float64 {
	if t <= 0 {
		return 1
	}
	if s <= 0 {
		return RetentionFloor
	}
	return max(math.Exp(-float64(t)/float64(s)), RetentionFloor)
}

// Retrieve returns r retrieved at: one more retrieval (stability grows
// 1.5×) and the decay clock restarted. A time before the last retrieval
// counts the retrieval but keeps the later time.
func Retrieve(r Record, at time.Time) Record {
	if r.Retrievals < math.MaxInt32 {
		r.Retrievals++
	}
	if at.After(r.LastRetrieved) {
		r.LastRetrieved = at
	}
	return r
}

// Reinforced returns when r's decay clock last restarted: the latest of
// its adoption, its last retrieval and its last credited confirmation.
func (r *Record) Reinforced() time.Time {
	t := r.Adopted
	if r.LastRetrieved.After(t) {
		t = r.LastRetrieved
	}
	for i := range r.Confirmations {
		if c := &r.Confirmations[i]; c.Credit.Weight() > 0 && c.At.After(t) {
			t = c.At
		}
	}
	return t
}

// Update is the Curator's view of a record that stays: its retention now,
// the confidence it is retrieved at (Confidence × Retention, times
// ExternalWeight in the external partition: Weight) and how far it may
// propagate.
type Update struct {
	ID        string  `json:"id"`
	Retention float64 `json:"retention"`
	Effective float64 `json:"effective"` // Confidence × Retention
	Weight    float64 `json:"weight"`    // Effective, × 0.8 if external
	Reach     Scope   `json:"reach"`
}

// PruneReason says why the Curator removes a record.
type PruneReason uint8

// Prune reasons. The zero value is PruneInvalid: a record the Curator
// cannot reason about is removed, never kept.
const (
	PruneInvalid PruneReason = iota // NaN or out-of-range confidence, unknown class
	PruneExpired                    // external, still pending at its TTL
)

var pruneNames = [...]string{PruneInvalid: "invalid", PruneExpired: "ttl_expired"}

// String returns the reason's stable name.
func (p PruneReason) String() string {
	if int(p) < len(pruneNames) {
		return pruneNames[p]
	}
	return fmt.Sprintf("prune(%d)", uint8(p))
}

// MarshalText encodes a valid reason as its name.
func (p PruneReason) MarshalText() ([]byte, error) {
	if int(p) >= len(pruneNames) {
		return nil, fmt.Errorf("adopt: %w: prune reason %d", ErrInvalid, uint8(p))
	}
	return []byte(p.String()), nil
}

// Prune is a record the Curator removes, and why.
type Prune struct {
	ID     string      `json:"id"`
	Reason PruneReason `json:"reason"`
}

// Cycle is one Curator pass at now over entries, suitable for ward's
// heartbeat: it is pure (entries are not modified) and idempotent (the same
// now gives the same result, since decay is computed from the evidence
// confidence and never written back). An external record still Pending at
// or after its Expires is pruned (PruneExpired); a record with a NaN or
// out-of-range confidence or an unknown class is pruned (PruneInvalid);
// every other record gets an Update, in the order of entries, with
// retention R = e^(-t/S), t the time since Reinforced and S its Stability,
// floored at 0.1.
func Cycle(now time.Time, entries []Record) (updates []Update, prunes []Prune) {
	for i := range entries {
		r := &entries[i]
		switch {
		case !(r.Confidence >= 0 && r.Confidence <= 1) || int(r.Class) >= len(classNames):
			prunes = append(prunes, Prune{ID: r.ID, Reason: PruneInvalid})
			continue
		case r.Provenance.External() && r.Status == Pending && !r.Expires.IsZero() && !now.Before(r.Expires):
			prunes = append(prunes, Prune{ID: r.ID, Reason: PruneExpired})
			continue
		}
		ret := Retention(now.Sub(r.Reinforced()), Stability(r.Class, r.Retrievals))
		eff := r.Confidence * ret
		updates = append(updates, Update{ID: r.ID, Retention: ret, Effective: eff, Weight: r.Weight(eff), Reach: Reach(r)})
	}
	return updates, prunes
}
