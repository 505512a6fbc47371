package daemon

import (
	"context"
	"log/slog"
	"time"

	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/ingest"
)

// curator is what the Curator loop needs of the ingestion pipeline.
type curator interface {
	Curate(ctx context.Context, now time.Time) (*ingest.Curation, error)
}

var _ curator = (*ingest.Pipeline)(nil)

// runCurator runs one Curator pass at once (entries may have expired while
// ward was down), then one every interval (config.DefaultCuratorInterval
// if not positive), until ctx ends. It logs each pass that pruned and each
// failure; a failed pass is retried at the next tick. It returns when ctx
// ends, never earlier: its caller owns it and waits for it.
func runCurator(ctx context.Context, c curator, every time.Duration, log *slog.Logger) {
	if every <= 0 {
		every = config.DefaultCuratorInterval
	}
	pass := func(now time.Time) {
		res, err := c.Curate(ctx, now)
		if err != nil {
			if ctx.Err() == nil {
				log.Warn("curator: pass failed", "err", err)
			}
			return
		}
		if len(res.Pruned) > 0 {
			log.Info("curator: pruned grimoire entries", "pruned", len(res.Pruned), "kept", len(res.Updates))
		}
	}
	pass(time.Now())
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			pass(now)
		}
	}
}
