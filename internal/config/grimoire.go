package config

import (
	"fmt"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/tool"
)

// Grimoire configures knowledge ingestion ([grimoire]).
type Grimoire struct {
	// Strictness of Stage 2 consensus (default standard).
	Strictness knowledge.Strictness
	// Identities are the agent addresses whose signed entries Stage 1
	// accepts (the local identity registry).
	Identities []string
	// IdentityRegistry is the ERC-8004 identity registry contract on the
	// provider's chain; Stage 1 also accepts an address that owns one of
	// its identity tokens. Zero: the local registry only.
	IdentityRegistry tool.Address
	// Clade is the operator's own clade id ("" for none: no member is
	// trusted, every entry is validated in full).
	Clade string
	// Members are the clade members known to the registry
	// ([[grimoire.members]]); each is also an accepted identity.
	Members []CladeMember
	// Reasoning is L2 with a language model ([grimoire.reasoning]).
	Reasoning Reasoning
	// Embedder is an embeddings endpoint in place of the hashed embedder
	// ([grimoire.embedder]).
	Embedder Embedder
	// CuratorInterval is how often ward serve runs the Curator (decay and
	// TTL pruning of adopted external entries): DefaultCuratorInterval
	// unless set, between MinCuratorInterval and MaxCuratorInterval.
	CuratorInterval time.Duration
	// Playbook is the path of the PLAYBOOK file that ward writes the
	// promoted lessons to and causal rollback reverts ("" for none: no
	// PLAYBOOK is kept).
	Playbook string
	// Sandbox configures Stage 3: the agent's strategy and an LLM
	// decomposer ([grimoire.sandbox]).
	Sandbox Sandbox
	// Components are the WASM skill components Stage 3 may run
	// ([[grimoire.wasm_component]]).
	Components []WASMComponent
}

// Bounds of [grimoire] curator_interval. The Curator is cheap and its TTLs
// are days: more often than a minute buys nothing, and less often than
// daily lets expired entries linger for a day.
const (
	DefaultCuratorInterval = time.Hour
	MinCuratorInterval     = time.Minute
	MaxCuratorInterval     = 24 * time.Hour
)

// CladeMember is one [[grimoire.members]] table: an identity, the clade it
// belongs to (default: the operator's) and the operator's confidence in it,
// in [0, 1]. A member of the operator's clade above 0.8 is trusted (seed 001
// §9): its entries skip L1 and the sandbox.
type CladeMember struct {
	Address    string
	Clade      string
	Confidence float64
}

type grimoireTOML struct {
	Strictness *string           `toml:"strictness"`
	Identities []string          `toml:"identities"`
	Registry   *string           `toml:"identity_registry"`
	Clade      *string           `toml:"clade"`
	Members    []cladeMemberTOML `toml:"members"`
	Reasoning  *reasoningTOML    `toml:"reasoning"`
	Embedder   *embedderTOML     `toml:"embedder"`
	Curator    *string           `toml:"curator_interval" shape:"duration"`
	Playbook   *string           `toml:"playbook"`
	Sandbox    *sandboxTOML      `toml:"sandbox"`
	// WASMComponent are the [[grimoire.wasm_component]] tables
	// (grimoire_component.go).
	WASMComponent []wasmComponentTOML `toml:"wasm_component"`
}

type cladeMemberTOML struct {
	Address    string   `toml:"address"`
	Clade      *string  `toml:"clade"`
	Confidence *float64 `toml:"confidence"`
}

func grimoireSection(f *File, raw *fileTOML, idx *positions) []Diagnostic {
	f.Grimoire = Grimoire{Strictness: knowledge.Standard, CuratorInterval: DefaultCuratorInterval}
	g := raw.Grimoire
	if g == nil {
		return nil
	}
	var diags []Diagnostic
	if g.Strictness != nil {
		if err := f.Grimoire.Strictness.UnmarshalText([]byte(*g.Strictness)); err != nil {
			diags = append(diags, idx.at("grimoire.strictness", "must be relaxed, standard, strict or paranoid"))
		}
	}
	for i, a := range g.Identities {
		if len(a) != 42 || a[:2] != "0x" {
			diags = append(diags, idx.at("grimoire.identities", fmt.Sprintf("entry %d is not a 0x address", i+1)))
		}
	}
	f.Grimoire.Identities = g.Identities
	if g.Registry != nil && *g.Registry != "" {
		a, err := tool.ParseAddress(*g.Registry)
		switch {
		case err != nil:
			diags = append(diags, idx.at("grimoire.identity_registry", err.Error()))
		case a == tool.Address{}:
			diags = append(diags, idx.at("grimoire.identity_registry", "is the zero address, not a contract"))
		}
		f.Grimoire.IdentityRegistry = a
	}
	if g.Curator != nil {
		d, err := time.ParseDuration(*g.Curator)
		if err != nil || d < MinCuratorInterval || d > MaxCuratorInterval {
			diags = append(diags, idx.at("grimoire.curator_interval", fmt.Sprintf("invalid duration %q: want %v to %v", *g.Curator, MinCuratorInterval, MaxCuratorInterval)))
		} else {
			f.Grimoire.CuratorInterval = d
		}
	}
	if g.Playbook != nil {
		if p := *g.Playbook; p == "" || strings.ContainsRune(p, 0) || len(p) > 4096 {
			diags = append(diags, idx.at("grimoire.playbook", "must be a file path"))
		} else {
			f.Grimoire.Playbook = p
		}
	}
	diags = append(diags, cladeMembers(&f.Grimoire, g, idx)...)
	diags = append(diags, reasoningSection(&f.Grimoire, g, idx)...)
	diags = append(diags, embedderSection(&f.Grimoire, g, idx)...)
	diags = append(diags, sandboxSection(&f.Grimoire, g, idx)...)
	diags = append(diags, componentSections(f, g, idx)...)
	return diags
}

// maxCladeID is the longest clade id (knowledge.MaxID).
const maxCladeID = knowledge.MaxID

// cladeMembers reads [grimoire] clade and [[grimoire.members]].
func cladeMembers(out *Grimoire, g *grimoireTOML, idx *positions) []Diagnostic {
	var diags []Diagnostic
	if g.Clade != nil {
		out.Clade = *g.Clade
		if out.Clade == "" || len(out.Clade) > maxCladeID {
			diags = append(diags, idx.at("grimoire.clade", fmt.Sprintf("must be 1 to %d bytes", maxCladeID)))
		}
	}
	seen := map[string]int{}
	for i, m := range g.Members {
		key := fmt.Sprintf("grimoire.members.%d", i)
		cm := CladeMember{Address: m.Address, Clade: out.Clade}
		if _, err := tool.ParseAddress(m.Address); err != nil {
			diags = append(diags, idx.at(key+".address", "must be a 0x address of 40 hex digits"))
		} else if j, dup := seen[strings.ToLower(m.Address)]; dup {
			diags = append(diags, idx.at(key+".address", fmt.Sprintf("member %d has the same address", j+1)))
		} else {
			seen[strings.ToLower(m.Address)] = i
		}
		if m.Clade != nil {
			cm.Clade = *m.Clade
		}
		switch {
		case m.Clade == nil && cm.Clade == "":
			diags = append(diags, idx.at(key, "clade is required when [grimoire] clade is not set"))
		case cm.Clade == "" || len(cm.Clade) > maxCladeID:
			diags = append(diags, idx.at(key+".clade", fmt.Sprintf("must be 1 to %d bytes", maxCladeID)))
		}
		switch {
		case m.Confidence == nil:
			diags = append(diags, idx.at(key, "confidence is required, in [0, 1]"))
		case !(*m.Confidence >= 0 && *m.Confidence <= 1):
			diags = append(diags, idx.at(key+".confidence", "must be in [0, 1]"))
		default:
			cm.Confidence = *m.Confidence
		}
		out.Members = append(out.Members, cm)
	}
	return diags
}
