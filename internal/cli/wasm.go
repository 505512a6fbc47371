package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wardhq/ward/internal/catalog"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/wasm"
)

const toolsAddHelp = `Register a compiled WebAssembly module as a tool (docs/sandbox.md, "WASM
tools"). In order, and changing nothing unless every step before succeeds:

  1. the module is read and checked: it compiles, exports memory and
     ward_run() -> i32, and imports nothing but ward_v1's functions and WASI;
  2. the [[wasm_tool]] table is made (name, description, category, tier,
     schemas, the module's SHA-256 pin) and the configuration with it
     appended is validated as a whole, tool definition and module included;
  3. the module is copied into the data directory by its content
     (DATA/wasm/SHA256.wasm, 0600), so the file the pin names cannot be
     changed under ward by whoever owns the original;
  4. the table is appended to the configuration file (written to a
     temporary file and renamed over it).

ward.toml stays the one record of the tools ward serves: ward serve (or
ward mcp) registers the tool when it next starts. Limits ([wasm_tool.limits]:
memory_mb, wall_clock, cpu, output_kb, calls) take their defaults; edit the
table to change them.`

func toolsAdd(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "tools add", "FILE.wasm", toolsAddHelp)
	name := fs.String("name", "", "the tool's name, <prefix>_<action>_<subject> (intel_score_wallet)")
	desc := fs.String("description", "", "what the tool does, written for the model")
	category := fs.String("category", "", "one of the 17 categories (data, intelligence, safety, ...)")
	tier := fs.String("tier", "read", `"read" (the guest returns a result) or "write_request" (it may also return writes to preview)`)
	params := fs.String("params", "", "the JSON schema of the arguments")
	result := fs.String("result", "", "the JSON schema of the guest's result (optional)")
	data := fs.String("data", "ward-data", "data directory the module is copied into")
	cfgPath := fs.String("config", "ward.toml", "the ward.toml to append the [[wasm_tool]] table to (created if absent)")
	if code, ok := parseInterleaved(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return usageErr(io, "tools add: want one module file, got %d arguments", fs.NArg())
	}
	src := fs.Arg(0)
	b, err := wasm.ReadModule(src)
	if err != nil {
		return usageErr(io, "tools add: %v", err)
	}
	if err := wasm.Check(ctx, b); err != nil {
		return usageErr(io, "tools add: %s: %v", src, err)
	}
	for _, t := range catalog.All() {
		if t.Def.Name == *name {
			return usageErr(io, "tools add: --name %s is a native tool's", *name)
		}
	}
	m := moduleAdd{cmd: "tools add", src: src, module: b, data: *data, config: *cfgPath}
	dest, code, ok := m.run(io, func(dest, sum string) []byte {
		return wasmBlock(*name, *desc, *category, *tier, dest, sum, *params, *result)
	}, func(f *config.File) error {
		c := f.WASM[len(f.WASM)-1]
		c.Module = src // the bytes checked above, pinned
		t, err := wasm.Load(ctx, c)
		if err != nil {
			return err
		}
		t.Close(context.WithoutCancel(ctx))
		return nil
	})
	if !ok {
		return code
	}
	fmt.Fprintf(io.Out, "added %s: module %s (sha256 %s), appended to %s; ward serve registers it when it next starts\n", *name, dest, wasm.Sum(b), *cfgPath)
	return exitOK
}

// moduleAdd is what `ward tools add` and `ward grimoire component add`
// share: a WASM module is copied into DATA/wasm/SHA256.wasm and a table
// naming it there appended to the configuration, both only once the
// configuration with the table parses and check accepts it.
type moduleAdd struct {
	cmd          string // the command, for its messages
	src          string // the module's file, as given
	module       []byte
	data, config string // the data directory and the configuration's path
}

// run appends block(dest, sum) to the configuration and places the module
// at dest, when the configuration with the block parses and check accepts
// it (an error of check is the user's: nothing changes); ok is false
// with the exit code otherwise.
func (m moduleAdd) run(io IO, block func(dest, sum string) []byte, check func(*config.File) error) (dest string, code int, ok bool) {
	sum := wasm.Sum(m.module)
	dataDir, err := filepath.Abs(m.data)
	if err != nil {
		return "", usageErr(io, "%s: --data: %v", m.cmd, err), false
	}
	dest = filepath.Join(dataDir, "wasm", sum+".wasm")
	old, err := os.ReadFile(m.config)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", usageErr(io, "%s: %v", m.cmd, err), false
	}
	next := append([]byte(nil), old...)
	if len(old) > 0 && old[len(old)-1] != '\n' {
		next = append(next, '\n')
	}
	next = append(next, block(dest, sum)...)
	f, err := config.Parse(m.config, next)
	if err != nil {
		return "", usageErr(io, "%s: the configuration with the new table is not valid:\n%v", m.cmd, err), false
	}
	if err := check(f); err != nil {
		return "", usageErr(io, "%s: %s: %v", m.cmd, m.src, err), false
	}
	created, err := place(dest, m.module)
	if err != nil {
		return "", fail(io, "%s: copy the module: %v", m.cmd, err), false
	}
	if err := replaceFile(m.config, next); err != nil {
		if created {
			os.Remove(dest)
		}
		return "", fail(io, "%s: %v", m.cmd, err), false
	}
	return dest, exitOK, true
}

// wasmBlock is the [[wasm_tool]] table of a module. Values are TOML basic
// strings; the schemas literal strings when they hold no single quote.
func wasmBlock(name, desc, category, tier, module, sum, params, result string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "\n[[wasm_tool]]\nname = %s\ndescription = %s\ncategory = %s\ntier = %s\nmodule = %s\nsha256 = %s\n",
		tomlString(name), tomlString(desc), tomlString(category), tomlString(tier), tomlString(module), tomlString(sum))
	if params != "" {
		fmt.Fprintf(&b, "params_schema = %s\n", tomlString(params))
	}
	if result != "" {
		fmt.Fprintf(&b, "result_schema = %s\n", tomlString(result))
	}
	return []byte(b.String())
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// place writes b to dest (0600, its directory 0700) through a temporary
// file; created is false when dest already held a file (the same bytes:
// its name is their hash).
func place(dest string, b []byte) (created bool, err error) {
	if have, err := os.ReadFile(dest); err == nil {
		if wasm.Sum(have) != wasm.Sum(b) {
			return false, fmt.Errorf("%s exists with other bytes", dest)
		}
		return false, nil
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o700); err != nil {
		return false, err
	}
	return true, replaceFile(dest, b)
}

// replaceFile writes b to path through a temporary file in its directory
// and a rename, keeping path's mode when it exists (0600 otherwise).
func replaceFile(path string, b []byte) error {
	mode := os.FileMode(0o600)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".ward-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
