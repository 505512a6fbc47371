package config

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/store"
)

func TestSessionsAndAudit(t *testing.T) {
	f, err := Parse("ward.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Sessions != store.DefaultSessionLimits || f.Audit != (Audit{}) {
		t.Errorf("defaults: %+v %+v", f.Sessions, f.Audit)
	}
	f, err = Parse("ward.toml", []byte(`
[sessions]
max_per_principal = 50
idle_ttl = "30m"
keep_ttl = "48h"
cache_mb = 64

[audit]
reads_best_effort = true
retain = "30d"
archive_dir = "/var/lib/ward/archive"
`))
	if err != nil {
		t.Fatal(err)
	}
	want := store.SessionLimits{MaxPerPrincipal: 50, IdleTTL: 30 * time.Minute, KeepTTL: 48 * time.Hour, CacheBytes: 64 << 20}
	if f.Sessions != want || !f.Audit.ReadsBestEffort {
		t.Errorf("parsed %+v %+v, want %+v and reads_best_effort", f.Sessions, f.Audit, want)
	}
	if f.Audit.Retain != 30*24*time.Hour || f.Audit.ArchiveDir != "/var/lib/ward/archive" {
		t.Errorf("parsed [audit] %+v, want retain 720h and the archive_dir", f.Audit)
	}
	for name, c := range map[string]struct{ src, msg string }{
		"zero sessions":         {"[sessions]\nmax_per_principal = 0", "sessions.max_per_principal"},
		"negative sessions":     {"[sessions]\nmax_per_principal = -3", "sessions.max_per_principal"},
		"idle not a duration":   {"[sessions]\nidle_ttl = \"soon\"", "sessions.idle_ttl"},
		"idle under a minute":   {"[sessions]\nidle_ttl = \"5s\"", "sessions.idle_ttl"},
		"keep shorter":          {"[sessions]\nidle_ttl = \"2h\"\nkeep_ttl = \"1h\"", "sessions.keep_ttl"},
		"unknown sessions key":  {"[sessions]\nmax = 3", "unknown key"},
		"cache too small":       {"[sessions]\ncache_mb = 4", "sessions.cache_mb"},
		"cache a string":        {"[sessions]\ncache_mb = \"1G\"", "cache_mb"},
		"audit wrong type":      {"[audit]\nreads_best_effort = \"yes\"", "reads_best_effort"},
		"retain not a duration": {"[audit]\nretain = \"a month\"", "audit.retain"},
		"retain too short":      {"[audit]\nretain = \"10m\"", "audit.retain"},
		"retain a number":       {"[audit]\nretain = 30", "retain"},
		"archive_dir empty":     {"[audit]\narchive_dir = \"\"", "audit.archive_dir"},
	} {
		_, err := Parse("ward.toml", []byte(c.src))
		var ce *Error
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want an error naming %s", name, err, c.msg)
		}
	}
}
