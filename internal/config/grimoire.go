package config

import (
	"fmt"

	"github.com/wardhq/ward/internal/knowledge"
)

// Grimoire configures knowledge ingestion ([grimoire]).
type Grimoire struct {
	// Strictness of Stage 2 consensus (default standard).
	Strictness knowledge.Strictness
	// Identities are the agent addresses whose signed entries Stage 1
	// accepts (the local identity registry).
	Identities []string
}

type grimoireTOML struct {
	Strictness *string  `toml:"strictness"`
	Identities []string `toml:"identities"`
}

func grimoireSection(f *File, raw *fileTOML, idx *positions) []Diagnostic {
	f.Grimoire = Grimoire{Strictness: knowledge.Standard}
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
	return diags
}
