package config

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/wardhq/ward/internal/tool"
	"github.com/wardhq/ward/internal/wasm"
)

// wasmToolTOML is one [[wasm_tool]] table: a compiled module served as a
// read tool (package wasm).
type wasmToolTOML struct {
	Name        *string `toml:"name"`
	Description *string `toml:"description"`
	Category    *string `toml:"category"`
	Module      *string `toml:"module"`
	SHA256      *string `toml:"sha256"`
	// Tier is "read" (the guest returns a result) or "write_request"
	// (it may also return write requests, previewed as the session's).
	Tier *string `toml:"tier"`
	// Params and Result are JSON schemas, as JSON text.
	Params *string `toml:"params_schema"`
	Result *string `toml:"result_schema"`
	Limits *struct {
		MemoryMB  *int64  `toml:"memory_mb"`
		WallClock *string `toml:"wall_clock"`
		CPU       *string `toml:"cpu"`
		OutputKB  *int    `toml:"output_kb"`
		Calls     *int    `toml:"calls"`
	} `toml:"limits"`
}

// wasmSections fills f.WASM from raw. A relative module path is the
// configuration file's directory's. The module itself is checked when
// ward starts (wasm.Load), not here: ward policy lint needs no module.
func wasmSections(f *File, raw *fileTOML, idx *positions) []Diagnostic {
	var diags []Diagnostic
	bad := func(key, format string, args ...any) {
		diags = append(diags, idx.at(key, fmt.Sprintf(format, args...)))
	}
	seen := map[string]bool{}
	for i, w := range raw.WASMTool {
		at := fmt.Sprintf("wasm_tool.%d", i)
		var c wasm.Config
		switch {
		case w.Name == nil:
			bad(at+".name", "a wasm tool needs a name")
		case !tool.ValidDefName(*w.Name) || slices.Contains(tool.FacadeNames, *w.Name):
			bad(at+".name", "must be <prefix>_<action>_<subject> in lower case with a known prefix (data_, intel_, safety_, ...)")
		case seen[*w.Name]:
			bad(at+".name", "wasm tool %q is configured twice", *w.Name)
		default:
			c.Name = *w.Name
			seen[c.Name] = true
		}
		if w.Description == nil || *w.Description == "" {
			bad(at+".description", "a wasm tool needs a description, written for the model")
		} else {
			c.Description = *w.Description
		}
		if w.Category == nil || !slices.Contains(tool.Categories(), tool.Category(*w.Category)) {
			bad(at+".category", "must be one of the 17 categories (data, trading, lending, ...; see docs/tools.md)")
		} else {
			c.Category = tool.Category(*w.Category)
		}
		c.Module, c.SHA256 = moduleKeys(f, at, "a wasm tool", w.Module, w.SHA256, bad)
		switch {
		case w.Tier == nil:
			bad(at+".tier", `set "read" or "write_request"`)
		case *w.Tier == "read":
		case *w.Tier == "write_request":
			c.WriteRequests = true
		default:
			bad(at+".tier", `must be "read" or "write_request" (a WASM tool never executes a write)`)
		}
		if w.Params == nil || !json.Valid([]byte(*w.Params)) {
			bad(at+".params_schema", "a wasm tool needs its parameter schema, as JSON")
		} else {
			c.Params = json.RawMessage(*w.Params)
		}
		if w.Result != nil {
			if !json.Valid([]byte(*w.Result)) {
				bad(at+".result_schema", "must be a JSON schema, as JSON")
			}
			c.Result = json.RawMessage(*w.Result)
		}
		if l := w.Limits; l != nil {
			runLimits(at, l.MemoryMB, l.WallClock, l.CPU, &c.Limits, bad)
			if l.OutputKB != nil {
				c.Limits.Output = *l.OutputKB << 10
				if *l.OutputKB <= 0 {
					bad(at+".limits.output_kb", "must be positive")
				}
			}
			if l.Calls != nil {
				if *l.Calls <= 0 {
					bad(at+".limits.calls", "must be 1 to 256 (the read calls and write requests of one run)")
				}
				c.Limits.Calls = *l.Calls
			}
		}
		if err := c.Limits.WithDefaults().Validate(); err != nil {
			bad(at+".limits", "%v", err)
		}
		f.WASM = append(f.WASM, c)
	}
	return diags
}

// moduleKeys reads the module and sha256 keys every table of a WASM
// module has (what names the table, e.g. "a wasm tool"): a relative module
// path is the configuration file's directory's.
func moduleKeys(f *File, at, what string, module, sum *string, bad func(key, format string, args ...any)) (path, pin string) {
	if module == nil || *module == "" {
		bad(at+".module", "%s needs the path of its module", what)
	} else {
		path = *module
		if !filepath.IsAbs(path) && f.Path != "" {
			path = filepath.Join(filepath.Dir(f.Path), path)
		}
	}
	if sum != nil {
		if !validSum(*sum) {
			bad(at+".sha256", "must be the module's SHA-256 as 64 lower-case hex digits")
		}
		pin = *sum
	}
	return path, pin
}

// runLimits reads the limits every WASM module's run has (memory_mb,
// wall_clock, cpu) into lim.
func runLimits(at string, memoryMB *int64, wallClock, cpu *string, lim *wasm.Limits, bad func(key, format string, args ...any)) {
	if memoryMB != nil {
		lim.Memory = *memoryMB << 20
		if *memoryMB <= 0 {
			bad(at+".limits.memory_mb", "must be positive")
		}
	}
	dur := func(key string, s *string, into *time.Duration) {
		if s == nil {
			return
		}
		d, err := time.ParseDuration(*s)
		if err != nil || d <= 0 {
			bad(at+".limits."+key, "must be a positive duration (\"100ms\")")
			return
		}
		*into = d
	}
	dur("wall_clock", wallClock, &lim.WallClock)
	dur("cpu", cpu, &lim.CPU)
}

func validSum(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
