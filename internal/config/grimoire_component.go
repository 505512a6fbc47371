package config

import (
	"fmt"

	"github.com/wardhq/ward/internal/skill"
	"github.com/wardhq/ward/internal/wasm"
)

// WASMComponent is one [[grimoire.wasm_component]] table: a compiled
// ward_v1 module that Stage 3 runs as a skill component, a condition or a
// sizing the library cannot express in CEL (docs/sandbox.md, "WASM skill
// components"). An entry names it; its bytes come from here only.
type WASMComponent struct {
	Name        string // skill.ValidComponentName
	Description string // what it computes; indexed for the library's search
	Kind        skill.ComponentKind
	// Module is the path of the compiled module; SHA256 its pin (empty
	// leaves it unpinned: ward says so at start).
	Module string
	SHA256 string
	// Limits bound each run (memory, wall clock, CPU; zero fields take
	// package wasm's defaults).
	Limits wasm.Limits
}

type wasmComponentTOML struct {
	Name        *string `toml:"name"`
	Description *string `toml:"description"`
	Kind        *string `toml:"kind"`
	Module      *string `toml:"module"`
	SHA256      *string `toml:"sha256"`
	Limits      *struct {
		MemoryMB  *int64  `toml:"memory_mb"`
		WallClock *string `toml:"wall_clock"`
		CPU       *string `toml:"cpu"`
	} `toml:"limits"`
}

// componentSections reads [[grimoire.wasm_component]] into
// out.Components. A relative module path is the configuration file's
// directory's; the module itself is read, pinned and checked when ward
// starts.
func componentSections(f *File, g *grimoireTOML, idx *positions) []Diagnostic {
	var diags []Diagnostic
	bad := func(key, format string, args ...any) {
		diags = append(diags, idx.at(key, fmt.Sprintf(format, args...)))
	}
	seen := map[string]bool{}
	for i, w := range g.WASMComponent {
		at := fmt.Sprintf("grimoire.wasm_component.%d", i)
		var c WASMComponent
		switch {
		case w.Name == nil:
			bad(at+".name", "a wasm component needs a name")
		case !skill.ValidComponentName(*w.Name):
			bad(at+".name", "must be 1 to 64 letters, digits, '_', '-' or '.'")
		case seen[*w.Name]:
			bad(at+".name", "wasm component %q is configured twice", *w.Name)
		default:
			c.Name = *w.Name
			seen[c.Name] = true
		}
		if w.Description != nil {
			c.Description = *w.Description
		}
		if w.Kind == nil || c.Kind.UnmarshalText([]byte(*w.Kind)) != nil {
			bad(at+".kind", `must be "condition" (the module returns a boolean) or "sizing" (a number in [0, 1])`)
		}
		c.Module, c.SHA256 = moduleKeys(f, at, "a wasm component", w.Module, w.SHA256, bad)
		if l := w.Limits; l != nil {
			runLimits(at, l.MemoryMB, l.WallClock, l.CPU, &c.Limits, bad)
		}
		if err := c.Limits.WithDefaults().Validate(); err != nil {
			bad(at+".limits", "%v", err)
		}
		f.Grimoire.Components = append(f.Grimoire.Components, c)
	}
	return diags
}
