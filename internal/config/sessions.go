package config

import (
	"fmt"
	"time"

	"github.com/wardhq/ward/internal/audit"
	"github.com/wardhq/ward/internal/store"
)

// Audit configures what happens when an audit record cannot be written
// ([audit]).
type Audit struct {
	// ReadsBestEffort lets a read-tier call proceed when its decision's
	// record cannot be written (the failure is counted and logged). Writes,
	// commits, owner actions and trust decisions never proceed unrecorded.
	// Default false: a read whose record fails is refused too.
	ReadsBestEffort bool
	// Retain is how long decisions, action records and trust rows stay in
	// the live tables before a retention pass archives them
	// (audit.ParseRetain: "720h", "30d"); zero, the default, keeps
	// everything.
	Retain time.Duration
	// ArchiveDir is where archive files go; empty means audit-archive in
	// the data directory.
	ArchiveDir string
}

type sessionsTOML struct {
	MaxPerPrincipal *int64  `toml:"max_per_principal"`
	IdleTTL         *string `toml:"idle_ttl" shape:"duration"`
	KeepTTL         *string `toml:"keep_ttl" shape:"duration"`
	CacheMB         *int64  `toml:"cache_mb"`
}

type auditTOML struct {
	ReadsBestEffort *bool   `toml:"reads_best_effort"`
	Retain          *string `toml:"retain"`
	ArchiveDir      *string `toml:"archive_dir"`
}

// sessionsSection reads [sessions] and [audit].
func sessionsSection(f *File, raw *fileTOML, idx *positions) []Diagnostic {
	f.Sessions = store.DefaultSessionLimits
	var diags []Diagnostic
	bad := func(key, format string, args ...any) {
		diags = append(diags, idx.at(key, fmt.Sprintf(format, args...)))
	}
	if a := raw.Audit; a != nil {
		if a.ReadsBestEffort != nil {
			f.Audit.ReadsBestEffort = *a.ReadsBestEffort
		}
		if a.Retain != nil {
			d, err := audit.ParseRetain(*a.Retain)
			if err != nil {
				bad("audit.retain", "%v", err)
			}
			f.Audit.Retain = d
		}
		if a.ArchiveDir != nil {
			if *a.ArchiveDir == "" {
				bad("audit.archive_dir", "must not be empty (leave it out for audit-archive in the data directory)")
			}
			f.Audit.ArchiveDir = *a.ArchiveDir
		}
	}
	s := raw.Sessions
	if s == nil {
		return diags
	}
	if s.MaxPerPrincipal != nil {
		if n := *s.MaxPerPrincipal; n < 1 || n > 1_000_000 {
			bad("sessions.max_per_principal", "must be 1 to 1000000")
		} else {
			f.Sessions.MaxPerPrincipal = int(n)
		}
	}
	dur := func(key string, v *string, dst *time.Duration) {
		if v == nil {
			return
		}
		d, err := time.ParseDuration(*v)
		if err != nil || d < time.Minute || d > 10*365*24*time.Hour {
			bad(key, "invalid duration %q (want 1m to 87600h)", *v)
			return
		}
		*dst = d
	}
	if s.CacheMB != nil {
		if n := *s.CacheMB; n < 16 || n > 1<<20 {
			bad("sessions.cache_mb", "must be 16 to 1048576 (MiB)")
		} else {
			f.Sessions.CacheBytes = n << 20
		}
	}
	dur("sessions.idle_ttl", s.IdleTTL, &f.Sessions.IdleTTL)
	dur("sessions.keep_ttl", s.KeepTTL, &f.Sessions.KeepTTL)
	if f.Sessions.KeepTTL < f.Sessions.IdleTTL {
		bad("sessions.keep_ttl", "must not be shorter than idle_ttl: a tainted session would expire before a clean one")
	}
	return diags
}
