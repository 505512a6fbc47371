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
	"errors"
	"fmt"
	"github.com/wardhq/ward/internal/addrbook"
	"os"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/telemetry"
	"github.com/wardhq/ward/internal/upstream"
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
	// Source is the file's bytes, recorded with the policy hash.
	Source []byte
}

// Store configures the database.
type Store struct {
	Path        string // default "ward.db"
	Synchronous string // "full" (default) or "normal"
}

// Diagnostic is one problem found in a file.
type Diagnostic struct {
	Line, Col int // 1-based; 0 when the problem has no single place
	Key       string
	Msg       string
}

func (d Diagnostic) String() string {
	loc := ""
	if d.Line > 0 {
		loc = fmt.Sprintf("%d:%d: ", d.Line, d.Col)
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

// Parse validates a file's contents; name is used in messages only.
func Parse(name string, data []byte) (*File, error) {
	fail := func(ds ...Diagnostic) (*File, error) { return nil, &Error{File: name, Diags: ds} }

	var raw fileTOML
	dec := toml.NewDecoder(strings.NewReader(string(data))).DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return fail(decodeDiagnostics(err)...)
	}
	idx := indexPositions(data)
	m := newMerger()
	cfg := m.policy(raw.Policy)
	if len(m.errs) > 0 {
		return fail(idx.locate(m.errs, m)...)
	}
	snap, err := rules.Compile(cfg)
	if err != nil {
		var es rules.Errors
		if !errors.As(err, &es) {
			return fail(Diagnostic{Msg: err.Error()})
		}
		return fail(idx.locate(es, m)...)
	}
	f := &File{Path: name, Policy: cfg, Snapshot: snap, Source: data, Store: Store{Path: "ward.db", Synchronous: "full"}}
	if s := raw.Store; s != nil {
		if s.Path != nil {
			f.Store.Path = *s.Path
		}
		if s.Synchronous != nil {
			f.Store.Synchronous = *s.Synchronous
		}
		var diags []Diagnostic
		if f.Store.Path == "" {
			diags = append(diags, idx.at("store.path", "must not be empty"))
		}
		if f.Store.Synchronous != "full" && f.Store.Synchronous != "normal" {
			diags = append(diags, idx.at("store.synchronous", `must be "full" or "normal"`))
		}
		if len(diags) > 0 {
			return fail(diags...)
		}
	}
	if ds := gateSections(f, &raw, idx); len(ds) > 0 {
		return fail(ds...)
	}
	if ds := upstreamSections(f, &raw, idx); len(ds) > 0 {
		return fail(ds...)
	}
	if ds := trustSection(f, &raw, idx); len(ds) > 0 {
		return fail(ds...)
	}
	if ds := grimoireSection(f, &raw, idx); len(ds) > 0 {
		return fail(ds...)
	}
	if ds := sessionsSection(f, &raw, idx); len(ds) > 0 {
		return fail(ds...)
	}
	if ds := telemetrySection(f, &raw, idx); len(ds) > 0 {
		return fail(ds...)
	}
	return f, nil
}

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
		return []Diagnostic{{Line: line, Col: col, Key: strings.Join(de.Key(), "."), Msg: msg}}
	}
	return []Diagnostic{{Msg: err.Error()}}
}

// Reload reads and validates the file at path and, only if it is valid in
// every respect, compiles it with res (a symlink resolver the caller owns;
// nil for none) and swaps it into the engine atomically. On any problem the
// engine keeps deciding with its current snapshot and the error lists every
// problem, with positions.
func Reload(e *policy.Engine, path string, res *rules.Resolver) (*File, error) {
	f, err := Load(path)
	if err != nil {
		return nil, err
	}
	pc := f.Policy
	pc.Resolver = res
	snap, err := rules.Compile(pc)
	if err != nil {
		return nil, fmt.Errorf("compile %s: %w", path, err)
	}
	if _, err := e.Swap(snap); err != nil {
		return nil, err
	}
	f.Snapshot = snap
	return f, nil
}
