package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/ingest"
	"github.com/wardhq/ward/internal/skill"
	"github.com/wardhq/ward/internal/wasm"
)

const componentAddHelp = `Register a compiled WebAssembly module as a Stage 3 skill component: a
condition (the module returns a boolean) or a sizing (a number in [0, 1])
that an entry may name instead of a CEL condition or a fixed size
(docs/sandbox.md, "WASM skill components"). In order, and changing nothing
unless every step before succeeds:

  1. the module is read and, with --sha256, checked against that pin;
  2. it is compiled under the component's limits and checked: it exports
     memory and ward_run() -> i32 and imports nothing but ward_v1's
     functions and WASI;
  3. the name is checked against the skill library's built-in components,
     and the [[grimoire.wasm_component]] table (name, kind, description,
     the module's SHA-256 pin) with the configuration is validated as a
     whole (a name already configured is refused);
  4. the module is copied into the data directory by its content
     (DATA/wasm/SHA256.wasm, 0600);
  5. the table is appended to the configuration file (written to a
     temporary file and renamed over it).

ward serve adds the component to the skill library when it next starts.
Limits ([grimoire.wasm_component.limits]: memory_mb, wall_clock, cpu) take
package wasm's defaults; edit the table to change them.`

func componentAdd(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "grimoire component add", "FILE.wasm", componentAddHelp)
	name := fs.String("name", "", "the component's name, as entries name it (vol_target): 1 to 64 letters, digits, '_', '-' or '.'")
	kind := fs.String("kind", "", `"condition" (the module returns a boolean) or "sizing" (a number in [0, 1])`)
	desc := fs.String("description", "", "what it computes, in words (indexed for the library's search)")
	pin := fs.String("sha256", "", "the SHA-256 the module must have (optional: the module's own is pinned either way)")
	data := fs.String("data", "ward-data", "data directory the module is copied into")
	cfgPath := fs.String("config", "ward.toml", "the ward.toml to append the [[grimoire.wasm_component]] table to (created if absent)")
	if code, ok := parseInterleaved(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return usageErr(io, "grimoire component add: want one module file, got %d arguments", fs.NArg())
	}
	var k skill.ComponentKind
	if k.UnmarshalText([]byte(*kind)) != nil {
		return usageErr(io, `grimoire component add: --kind must be "condition" or "sizing"`)
	}
	if !skill.ValidComponentName(*name) {
		return usageErr(io, "grimoire component add: --name must be 1 to 64 letters, digits, '_', '-' or '.'")
	}
	src := fs.Arg(0)
	b, err := wasm.ReadModule(src)
	if err != nil {
		return usageErr(io, "grimoire component add: %v", err)
	}
	sum := wasm.Sum(b)
	if *pin != "" && !strings.EqualFold(*pin, sum) {
		return usageErr(io, "grimoire component add: %s: %v (--sha256 %s, found %s)", src, wasm.ErrPin, *pin, sum)
	}
	m := moduleAdd{cmd: "grimoire component add", src: src, module: b, data: *data, config: *cfgPath}
	dest, code, ok := m.run(io, func(dest, sum string) []byte {
		return componentBlock(*name, *kind, *desc, dest, sum)
	}, func(f *config.File) error {
		c := f.Grimoire.Components[len(f.Grimoire.Components)-1]
		comp := skill.Component{Name: c.Name, Kind: c.Kind, Text: c.Description, WASM: b,
			Limits: skill.WASMLimits{Memory: c.Limits.Memory, WallClock: c.Limits.WallClock, CPU: c.Limits.CPU}}
		if comp.Text == "" {
			comp.Text = comp.Name
		}
		// The built-in library: a name it holds is refused (ward serve
		// would refuse to start), and the module is compiled and checked.
		return ingest.AddComponent(ctx, skill.NewLibrary(), comp)
	})
	if !ok {
		return code
	}
	fmt.Fprintf(io.Out, "added %s component %s: module %s (sha256 %s), appended to %s; ward serve adds it to the skill library when it next starts\n", *kind, *name, dest, sum, *cfgPath)
	return exitOK
}

// componentBlock is the [[grimoire.wasm_component]] table of a module.
func componentBlock(name, kind, desc, module, sum string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "\n[[grimoire.wasm_component]]\nname = %s\nkind = %s\n", tomlString(name), tomlString(kind))
	if desc != "" {
		fmt.Fprintf(&b, "description = %s\n", tomlString(desc))
	}
	fmt.Fprintf(&b, "module = %s\nsha256 = %s\n", tomlString(module), tomlString(sum))
	return []byte(b.String())
}
