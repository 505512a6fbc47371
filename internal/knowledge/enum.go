package knowledge

import "fmt"

// EntryType is what kind of knowledge an entry carries. The zero value is
// invalid: an entry must say what it is.
type EntryType uint8

// Entry types (the seed's five).
const (
	TypeInsight EntryType = iota + 1
	TypeHeuristic
	TypeWarning
	TypeStrategyFragment
	TypeCausalLink
)

var entryTypeNames = [...]string{TypeInsight: "insight", TypeHeuristic: "heuristic", TypeWarning: "warning", TypeStrategyFragment: "strategy_fragment", TypeCausalLink: "causal_link"}

// Provenance is where an entry came from. The zero value is invalid.
type Provenance uint8

// Provenances: Self for what the agent generated itself, the seed's three
// for external knowledge.
const (
	Self Provenance = iota + 1
	Purchased
	Clade
	CrossUser
)

var provenanceNames = [...]string{Self: "self", Purchased: "purchased", Clade: "clade", CrossUser: "cross_user"}

// External reports whether p is external knowledge, which must be signed
// and pass the whole ingestion pipeline.
func (p Provenance) External() bool { return p == Purchased || p == Clade || p == CrossUser }

// Partition is the part of the Grimoire an entry lives in. The zero value
// is invalid, so that no entry lands in a partition by omission.
type Partition uint8

// Partitions.
const (
	PartitionSelf Partition = iota + 1
	PartitionExternal
	PartitionQuarantine
	PartitionLessons
)

var partitionNames = [...]string{PartitionSelf: "self", PartitionExternal: "external", PartitionQuarantine: "quarantine", PartitionLessons: "lessons"}

// Strictness is how hard ingestion validates. The zero value is Paranoid,
// the strictest, so that an unset level never loosens validation; the
// seed's default for marketplace purchases is Standard.
type Strictness uint8

// Strictness levels, strictest first.
const (
	Paranoid Strictness = iota
	Strict
	Standard
	Relaxed
)

var strictnessNames = [...]string{Paranoid: "paranoid", Strict: "strict", Standard: "standard", Relaxed: "relaxed"}

// Validators is the number of Stage 2 consensus validators.
const Validators = 3

// Threshold returns how many of the Validators must pass an entry: 1 for
// Relaxed, 2 for Standard, 3 for Strict and Paranoid (and for an invalid
// level).
func (s Strictness) Threshold() int {
	switch s {
	case Relaxed:
		return 1
	case Standard:
		return 2
	default:
		return 3
	}
}

// SandboxRequired reports whether actionable entries must pass the Stage 3
// sandbox: from Strict up (and for an invalid level).
func (s Strictness) SandboxRequired() bool { return s != Relaxed && s != Standard }

// AttackType classifies a rejected entry for immune memory. The zero value,
// NoAttack, means none was identified.
type AttackType uint8

// Attack types (the seed's five canonical ones, from its immune memory
// table).
const (
	NoAttack AttackType = iota
	EmbeddingAnomaly
	ConfidenceInflation
	ProvenanceForgery
	ContentInjection
	CausalGraphPoisoning
)

var attackNames = [...]string{NoAttack: "", EmbeddingAnomaly: "embedding_anomaly", ConfidenceInflation: "confidence_inflation", ProvenanceForgery: "provenance_forgery", ContentInjection: "content_injection", CausalGraphPoisoning: "causal_graph_poisoning"}

// Layer is the check or layer of the ingestion pipeline that decided an
// entry, set by the check or layer that made the catch. The zero value,
// NoLayer, is none.
type Layer uint8

// Layers, by stage.
const (
	NoLayer Layer = iota
	// Stage 1's checks.
	LayerProvenance // the signature and the registered source
	LayerReplay     // an entry delivered before
	LayerReputation // a blacklisted source
	LayerContent    // prompt-injection patterns in the content
	LayerConfidence // more confidence than the provenance allows
	LayerEmbedding  // a supplied embedding that does not match the content
	// Stage 2's consensus layers (seed 4.1-4.3), and the operator's review.
	LayerAnomaly     // L1: embedding-space anomaly detection (TrustRAG)
	LayerDivergence  // L2: reasoning divergence
	LayerOnChain     // L3: on-chain verification
	LayerConsistency // L3b: mental-model consistency
	LayerReview      // an operator's rejection of a pending entry
	// Stage 3.
	LayerSandbox
)

var layerNames = [...]string{NoLayer: "", LayerProvenance: "provenance", LayerReplay: "replay", LayerReputation: "reputation",
	LayerContent: "content", LayerConfidence: "confidence", LayerEmbedding: "embedding",
	LayerAnomaly: "L1", LayerDivergence: "L2", LayerOnChain: "L3", LayerConsistency: "L3b", LayerReview: "review",
	LayerSandbox: "sandbox"}

func name[T ~uint8](names []string, v T) string {
	if int(v) < len(names) && (v == 0 || names[v] != "") {
		return names[v]
	}
	return fmt.Sprintf("%d", uint8(v))
}

func valid[T ~uint8](names []string, v T) bool { return int(v) < len(names) && names[v] != "" }

func parse[T ~uint8](what string, names []string, b []byte) (T, error) {
	for i, n := range names {
		if n != "" && n == string(b) {
			return T(i), nil
		}
	}
	return 0, fmt.Errorf("knowledge: %w: unknown %s %q", ErrInvalid, what, b)
}

// String returns the type's stable name, such as "strategy_fragment".
func (t EntryType) String() string { return name(entryTypeNames[:], t) }

// Valid reports whether t is one of the entry types.
func (t EntryType) Valid() bool { return valid(entryTypeNames[:], t) }

// MarshalText encodes a valid type as its name.
func (t EntryType) MarshalText() ([]byte, error) {
	if !t.Valid() {
		return nil, fmt.Errorf("knowledge: %w: entry type %d", ErrInvalid, uint8(t))
	}
	return []byte(t.String()), nil
}

// UnmarshalText decodes a name.
func (t *EntryType) UnmarshalText(b []byte) (err error) {
	*t, err = parse[EntryType]("entry type", entryTypeNames[:], b)
	return err
}

// String returns the provenance's stable name, such as "cross_user".
func (p Provenance) String() string { return name(provenanceNames[:], p) }

// Valid reports whether p is one of the provenances.
func (p Provenance) Valid() bool { return valid(provenanceNames[:], p) }

// MarshalText encodes a valid provenance as its name.
func (p Provenance) MarshalText() ([]byte, error) {
	if !p.Valid() {
		return nil, fmt.Errorf("knowledge: %w: provenance %d", ErrInvalid, uint8(p))
	}
	return []byte(p.String()), nil
}

// UnmarshalText decodes a name.
func (p *Provenance) UnmarshalText(b []byte) (err error) {
	*p, err = parse[Provenance]("provenance", provenanceNames[:], b)
	return err
}

// String returns the partition's stable name.
func (p Partition) String() string { return name(partitionNames[:], p) }

// Valid reports whether p is one of the partitions.
func (p Partition) Valid() bool { return valid(partitionNames[:], p) }

// MarshalText encodes a valid partition as its name.
func (p Partition) MarshalText() ([]byte, error) {
	if !p.Valid() {
		return nil, fmt.Errorf("knowledge: %w: partition %d", ErrInvalid, uint8(p))
	}
	return []byte(p.String()), nil
}

// UnmarshalText decodes a name.
func (p *Partition) UnmarshalText(b []byte) (err error) {
	*p, err = parse[Partition]("partition", partitionNames[:], b)
	return err
}

// String returns the level's stable name.
func (s Strictness) String() string { return name(strictnessNames[:], s) }

// Valid reports whether s is one of the levels.
func (s Strictness) Valid() bool { return valid(strictnessNames[:], s) }

// MarshalText encodes a valid level as its name.
func (s Strictness) MarshalText() ([]byte, error) {
	if !s.Valid() {
		return nil, fmt.Errorf("knowledge: %w: strictness %d", ErrInvalid, uint8(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText decodes a name.
func (s *Strictness) UnmarshalText(b []byte) (err error) {
	*s, err = parse[Strictness]("strictness", strictnessNames[:], b)
	return err
}

// String returns the attack type's stable name, "" for NoAttack.
func (a AttackType) String() string { return name(attackNames[:], a) }

// Valid reports whether a is NoAttack or one of the attack types.
func (a AttackType) Valid() bool { return a == NoAttack || valid(attackNames[:], a) }

// MarshalText encodes a valid attack type as its name ("" for NoAttack).
func (a AttackType) MarshalText() ([]byte, error) {
	if !a.Valid() {
		return nil, fmt.Errorf("knowledge: %w: attack type %d", ErrInvalid, uint8(a))
	}
	return []byte(a.String()), nil
}

// UnmarshalText decodes a name; "" is NoAttack.
func (a *AttackType) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*a = NoAttack
		return nil
	}
	v, err := parse[AttackType]("attack type", attackNames[:], b)
	*a = v
	return err
}

// String returns the layer's stable name, such as "L3b"; "" for NoLayer.
func (l Layer) String() string { return name(layerNames[:], l) }

// Valid reports whether l is NoLayer or one of the layers.
func (l Layer) Valid() bool { return l == NoLayer || valid(layerNames[:], l) }

// MarshalText encodes a valid layer as its name ("" for NoLayer).
func (l Layer) MarshalText() ([]byte, error) {
	if !l.Valid() {
		return nil, fmt.Errorf("knowledge: %w: layer %d", ErrInvalid, uint8(l))
	}
	return []byte(l.String()), nil
}

// UnmarshalText decodes a name; "" is NoLayer.
func (l *Layer) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*l = NoLayer
		return nil
	}
	v, err := parse[Layer]("layer", layerNames[:], b)
	*l = v
	return err
}
