// Package config reads ward.toml: every key optional, defaults as in the
// seeds, unknown keys an error. Every problem (TOML syntax, a wrong type, an
// unknown key, an invalid value, a CEL expression that does not compile) is
// reported with its line and column, and a file with any problem yields no
// configuration at all.
//
// It composes the plain Config structs of lower layers; they never import
// it. The TOML contract is documented in docs/configuration.md.
package config

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/wardhq/ward/internal/addrbook"
	"github.com/wardhq/ward/internal/catalog"
	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/telemetry"
	"github.com/wardhq/ward/internal/upstream"
	"github.com/wardhq/ward/internal/wasm"
)

// File is a loaded, validated ward.toml.
type File struct {
	Path   string
	Policy rules.Config
	// Snapshot is Policy compiled; it is what validated the policy.
	Snapshot *policy.Snapshot
	Store    Store
	// The tool gate: which tools, which chain, permits and hooks.
	Tools Tools
	// Chains are the chains ward trades on ([chain] or [[chain]]), at
	// least one: the embedded dev chain when none is configured. Chain is
	// the first, which a tool call that names no chain uses.
	Chains []Chain
	Chain  Chain
	// Book is the address book: the one shipped with ward, with each
	// chain's entries and address_book file over it.
	Book  *addrbook.Book
	Gate  GateConfig
	Hooks hook.Config
	// Upstream are the MCP servers ward fronts ([[upstream]]).
	Upstream []upstream.Server
	// WASM are the compiled modules ward serves as read tools
	// ([[wasm_tool]]); each is loaded and checked when ward starts.
	WASM []wasm.Config
	// Trust configures reviewers, the judge and the address book ([trust]).
	Trust Trust
	// Grimoire configures knowledge ingestion ([grimoire]).
	Grimoire Grimoire
	// Sessions bounds each principal's sessions ([sessions]).
	Sessions store.SessionLimits
	// Audit says what an unwritable audit record stops ([audit]).
	Audit Audit
	// Telemetry configures the export of traces ([telemetry]); the zero
	// value exports nothing.
	Telemetry telemetry.Config
	// Relay configures the relay between clade members ([relay]).
	Relay Relay
	// Streaming bounds the stream_ tools' subscriptions ([streaming]).
	Streaming Streaming
	// Source is the file's bytes, recorded with the policy hash.
	Source []byte
	// Warnings are the file's problems that do not stop it from loading,
	// which ward policy lint prints.
	Warnings []Diagnostic
}

// Store configures the database.
type Store struct {
	Path        string // default "ward.db"
	Synchronous string // "full" (default) or "normal"
	// URL, when set, is a PostgreSQL database (postgres://user@host/db)
	// that every ward instance configured with it shares, in place of the
	// data directory's SQLite file. A password is better given through
	// PGPASSWORD or a ~/.pgpass file than in the URL.
	URL string
}

// Diagnostic is one problem found in a file.
type Diagnostic struct {
	Line, Col int // 1-based; 0 when the problem has no single place
	Key       string
	Msg       string
	// Warning marks a problem that does not stop the file from loading
	// (a rule naming a tool ward does not know: File.Warnings).
	Warning bool
}

func (d Diagnostic) String() string {
	loc := ""
	if d.Line > 0 {
		loc = fmt.Sprintf("%d:%d: ", d.Line, d.Col)
	}
	if d.Warning {
		loc += "warning: "
	}
	if d.Key != "" {
		return loc + d.Key + ": " + d.Msg
	}
	return loc + d.Msg
}

// Error lists every problem in a file.
type Error struct {
	File  string
	Diags []Diagnostic
}

func (e *Error) Error() string {
	var b strings.Builder
	for i, d := range e.Diags {
		if i > 0 {
			b.WriteByte('\n')
		}
		if e.File != "" {
			b.WriteString(e.File)
			b.WriteByte(':')
		}
		b.WriteString(d.String())
	}
	return b.String()
}

// Default returns the configuration of an empty file.
func Default() (*File, error) { return Parse("", nil) }

// Load reads and validates a file.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	return Parse(path, data)
}

// LoadWith is Load with the parameter schemas of tools beyond ward's
// catalogue (the pinned schemas of upstream tools; nil for none), against
// which CEL rules that name them are type-checked too.
func LoadWith(path string, schemas func(tool string) json.RawMessage) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	return parse(path, data, schemas)
}

// Parse validates a file's contents; name is used in messages only. Every
// problem is reported at once: unknown keys and values of the wrong type
// first (a file with those is not decoded further), then every invalid
// value of every section, the policy's included.
func Parse(name string, data []byte) (*File, error) { return parse(name, data, nil) }

func parse(name string, data []byte, schemas func(string) json.RawMessage) (*File, error) {
	raw, shape, bad, err := decodeShaped(name, data)
	if err != nil {
		return nil, err
	}
	idx := indexPositions(data)
	m := newMerger()
	cfg := m.policy(raw.Policy)
	cfg.ArgSchemas = catalogSchemas(schemas)
	snap, diags := compilePolicy(cfg, idx, m)
	f := &File{Path: name, Policy: cfg, Snapshot: snap, Source: data, Store: Store{Path: "ward.db", Synchronous: "full"}}
	diags = append(diags, storeSection(f, &raw, idx)...)
	diags = append(diags, gateSections(f, &raw, idx)...)
	diags = append(diags, upstreamSections(f, &raw, idx)...)
	diags = append(diags, wasmSections(f, &raw, idx)...)
	diags = append(diags, trustSection(f, &raw, idx)...)
	diags = append(diags, grimoireSection(f, &raw, idx)...)
	diags = append(diags, sessionsSection(f, &raw, idx)...)
	diags = append(diags, streamingSection(f, &raw, idx)...)
	diags = append(diags, telemetrySection(f, &raw, idx)...)
	diags = append(diags, relaySection(f, &raw, idx)...)
	diags = append(diags, unknownTools(cfg, f.Upstream, idx, m)...)
	// A value removed for its type may leave a default another check
	// objects to: the type is the problem to report.
	diags = slices.DeleteFunc(diags, func(d Diagnostic) bool {
		return slices.ContainsFunc(bad, func(p []string) bool { return under(d.Key, p) })
	})
	diags = append(shape, diags...)
	if !slices.ContainsFunc(diags, func(d Diagnostic) bool { return !d.Warning }) {
		f.Warnings = diags
		return f, nil
	}
	if len(diags) > 0 {
		slices.SortStableFunc(diags, func(a, b Diagnostic) int {
			if a.Line != b.Line {
				return cmp.Compare(a.Line, b.Line)
			}
			return cmp.Compare(a.Col, b.Col)
		})
		return nil, &Error{File: name, Diags: diags}
	}
	return f, nil
}

// decodeShaped decodes data, the file name: a syntax error, or values that
// do not decode, fail it; keys unknown or of the wrong type (bad, reported
// in shape) are left out of what decodes.
func decodeShaped(name string, data []byte) (raw fileTOML, shape []Diagnostic, bad [][]string, err error) {
	fail := func(ds ...Diagnostic) error { return &Error{File: name, Diags: ds} }
	shape, bad, syntax := checkShape(data)
	if syntax {
		return raw, nil, nil, fail(shape...)
	}
	if len(bad) == 0 {
		dec := toml.NewDecoder(strings.NewReader(string(data))).DisallowUnknownFields()
		if err := dec.Decode(&raw); err != nil {
			return raw, nil, nil, fail(decodeDiagnostics(err)...)
		}
	} else if err := withoutKeys(data, bad, &raw); err != nil {
		return raw, nil, nil, fail(shape...) // what is left does not decode: report what is known
	}
	return raw, shape, bad, nil
}

// compilePolicy compiles cfg and returns the snapshot with the policy's
// diagnostics, each placed in the file.
func compilePolicy(cfg rules.Config, idx *positions, m *merger) (*policy.Snapshot, []Diagnostic) {
	diags := idx.locate(m.errs, m)
	snap, err := rules.Compile(cfg)
	if err != nil {
		var es rules.Errors
		if !errors.As(err, &es) {
			diags = append(diags, Diagnostic{Msg: err.Error()})
		} else {
			diags = appendNew(diags, idx.locate(es, m))
		}
	}
	return snap, diags
}

// storeSection reads [store] into f.Store.
func storeSection(f *File, raw *fileTOML, idx *positions) []Diagnostic {
	s := raw.Store
	if s == nil {
		return nil
	}
	var diags []Diagnostic
	if s.Path != nil {
		f.Store.Path = *s.Path
	}
	if s.Synchronous != nil {
		f.Store.Synchronous = *s.Synchronous
	}
	if s.URL != nil {
		f.Store.URL = *s.URL
		if err := checkStoreURL(f.Store.URL); err != nil {
			diags = append(diags, idx.at("store.url", err.Error()))
		}
	}
	if f.Store.Path == "" {
		diags = append(diags, idx.at("store.path", "must not be empty"))
	}
	if f.Store.Synchronous != "full" && f.Store.Synchronous != "normal" {
		diags = append(diags, idx.at("store.synchronous", `must be "full" or "normal"`))
	}
	return diags
}

// catalogSchemas returns the parameter schemas of ward's native tools, by
// name, and of the tools extra knows (nil: none), against which the policy
// type-checks CEL rules that name them.
func catalogSchemas(extra func(string) json.RawMessage) func(string) json.RawMessage {
	all := catalog.All()
	m := make(map[string]json.RawMessage, len(all))
	for _, t := range all {
		m[t.Def.Name] = t.Def.Params
	}
	return func(name string) json.RawMessage {
		if s, ok := m[name]; ok || extra == nil {
			return s
		}
		return extra(name)
	}
}

// under reports whether key is the key path p or below it.
func under(key string, p []string) bool {
	pk := strings.Join(p, ".")
	return key == pk || strings.HasPrefix(key, pk+".")
}

// appendNew appends the diagnostics of more that are not in ds already
// (a value the merge rejected may fail compilation for the same reason).
func appendNew(ds, more []Diagnostic) []Diagnostic {
	for _, d := range more {
		if !slices.ContainsFunc(ds, func(e Diagnostic) bool { return e.Key == d.Key }) {
			ds = append(ds, d)
		}
	}
	return ds
}

// decodeDiagnostics places an error of go-toml's decoder, which the shape
// check lets through only for a value out of its type's range.
func decodeDiagnostics(err error) []Diagnostic {
	var sm *toml.StrictMissingError
	if errors.As(err, &sm) {
		out := make([]Diagnostic, 0, len(sm.Errors))
		for _, e := range sm.Errors {
			line, col := e.Position()
			out = append(out, Diagnostic{Line: line, Col: col, Key: strings.Join(e.Key(), "."), Msg: "unknown key"})
		}
		return out
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, col := de.Position()
		msg := strings.TrimPrefix(de.Error(), "toml: ")
		if strings.Contains(msg, "struct field") || strings.Contains(msg, " type ") {
			msg = "value out of range" // never a Go type name
		}
		return []Diagnostic{{Line: line, Col: col, Key: strings.Join(de.Key(), "."), Msg: msg}}
	}
	return []Diagnostic{{Msg: err.Error()}}
}

// checkStoreURL accepts a postgres:// or postgresql:// URL with a host.
func checkStoreURL(raw string) error {
	u, err := url.Parse(raw)
	switch {
	case raw == "":
		return errors.New("must not be empty (leave it out for the SQLite file)")
	case err != nil:
		return errors.New("is not a URL")
	case u.Scheme != "postgres" && u.Scheme != "postgresql":
		return fmt.Errorf("scheme %q: want postgres:// (PostgreSQL is the only database server ward supports)", u.Scheme)
	case u.Host == "" && u.Query().Get("host") == "":
		return errors.New("names no host")
	}
	return nil
}
