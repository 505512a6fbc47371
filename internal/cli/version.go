package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
)

// build describes the running binary: what 'ward version' prints.
type build struct {
	Version  string `json:"version"`
	Module   string `json:"module,omitempty"`
	Commit   string `json:"commit,omitempty"`
	Time     string `json:"commit_time,omitempty"`
	Modified bool   `json:"modified"`
	Go       string `json:"go"`
}

// buildInfo reads the version Go stamped into the binary: the main
// module's version (a tag, a pseudo-version, or "(devel)"), the VCS
// revision and whether the tree had uncommitted changes. Version set by
// -ldflags wins over the module version.
func buildInfo() build {
	bi, ok := debug.ReadBuildInfo()
	return buildOf(bi, ok)
}

func buildOf(bi *debug.BuildInfo, ok bool) build {
	b := build{Version: Version, Go: runtime.Version()}
	if !ok || bi == nil {
		return b
	}
	b.Module = bi.Main.Path
	if Version == "dev" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		b.Version = bi.Main.Version
	}
	if bi.GoVersion != "" {
		b.Go = bi.GoVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Commit = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
}

// String is the one line 'ward version' prints.
func (b build) String() string {
	s := "ward " + b.Version
	if b.Commit != "" {
		s += " (commit " + b.Commit
		if b.Modified {
			s += ", modified"
		}
		s += ")"
	}
	return s + " " + b.Go
}

// versionString is the version ward reports to clients and archives.
func versionString() string { return buildInfo().Version }

func version(_ context.Context, io IO, args []string) int {
	fs := flags(io, "version", "", `Print ward's version: the module version (or the one set at build time),
the VCS commit it was built from and whether the tree had uncommitted
changes, and the Go version.`)
	asJSON := fs.Bool("json", false, `print {"version","module","commit","commit_time","modified","go"} as JSON`)
	if st, ok := parse(fs, args); !ok {
		return st
	}
	if fs.NArg() > 0 {
		return usageErr(io, "version takes no arguments (got %q)", fs.Arg(0))
	}
	b := buildInfo()
	if *asJSON {
		json.NewEncoder(io.Out).Encode(b)
		return exitOK
	}
	fmt.Fprintln(io.Out, b)
	return exitOK
}
