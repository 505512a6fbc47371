package daemon

import (
	"context"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/wardhq/ward/internal/audit"
	"github.com/wardhq/ward/internal/config"
)

// RetentionInterval is how often ward serve runs a retention pass after
// the one at start.
const RetentionInterval = time.Hour

// ArchiveDir is where the audit archive files of the data directory data
// live under f: [audit] archive_dir, else audit-archive in data.
func ArchiveDir(f *config.File, data string) string {
	if f != nil && f.Audit.ArchiveDir != "" {
		return f.Audit.ArchiveDir
	}
	return filepath.Join(data, "audit-archive")
}

// NewArchiver returns the archiver of st with f's [audit] retention and
// the archive directory of data.
func NewArchiver(st audit.ArchiveStore, f *config.File, data string) (*audit.Archiver, error) {
	var retain time.Duration
	if f != nil {
		retain = f.Audit.Retain
	}
	return audit.NewArchiver(audit.ArchiveConfig{Store: st, Dir: ArchiveDir(f, data), Retain: retain})
}

// runRetention runs a retention pass at once and then every interval
// until ctx ends, logging what each pass moved and each failure (the rows
// stay live; the next pass retries). Its caller owns it and waits for it.
func runRetention(ctx context.Context, a *audit.Archiver, every time.Duration, log *slog.Logger) {
	pass := func(now time.Time) {
		res, err := a.Pass(ctx, now)
		if err != nil {
			if ctx.Err() == nil {
				log.Warn("audit retention: pass failed; the rows stay live", "err", err)
			}
			return
		}
		if len(res.Files) > 0 {
			log.Info("audit retention: archived", "files", len(res.Files), "decisions", res.Rows["decisions"],
				"actions", res.Rows["actions"], "trust", res.Rows["trust"])
		}
	}
	periodically(ctx, every, pass)
}
