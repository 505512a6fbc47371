package daemon

import (
	"context"
	"log/slog"
	"time"

	"github.com/wardhq/ward/internal/catalog"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/ingest"
)

// curator is what the Curator loop needs of the ingestion pipeline.
type curator interface {
	Curate(ctx context.Context, now time.Time) (*ingest.Curation, error)
}

var _ curator = (*ingest.Pipeline)(nil)

// marketSampler returns the Curator's market sample: the wallet's value,
// ETH's price, the base fee and a TVL index read from the chain
// (catalog.Sample), recorded as the day's sample of p. Figures the chain
// cannot give are left out; a sample with none is an error.
func marketSampler(env *catalog.Env, p *ingest.Pipeline) func(context.Context, time.Time) error {
	return func(ctx context.Context, now time.Time) error {
		v, err := catalog.Sample(ctx, env)
		if err != nil {
			return err
		}
		return p.RecordSample(ctx, now, v)
	}
}

// runCurator runs one Curator pass at once (entries may have expired while
// ward was down), then one every interval (config.DefaultCuratorInterval
// if not positive), until ctx ends. Each pass also takes the day's market
// sample for causal rollback with sample, if set (the last of a UTC day
// is the day's). It logs each pass that pruned and each failure; a failed
// pass is retried at the next tick. It returns when ctx ends, never
// earlier: its caller owns it and waits for it.
func runCurator(ctx context.Context, c curator, every time.Duration, log *slog.Logger, sample func(context.Context, time.Time) error) {
	if every <= 0 {
		every = config.DefaultCuratorInterval
	}
	pass := func(now time.Time) {
		if sample != nil {
			if err := sample(ctx, now); err != nil && ctx.Err() == nil {
				log.Warn("curator: market sample failed", "err", err)
			}
		}
		res, err := c.Curate(ctx, now)
		if err != nil {
			if ctx.Err() == nil {
				log.Warn("curator: pass failed", "err", err)
			}
			return
		}
		if len(res.Pruned) > 0 || len(res.Swept) > 0 || res.QuarantinePruned > 0 {
			log.Info("curator: pruned grimoire entries", "pruned", len(res.Pruned), "kept", len(res.Updates),
				"lessons_swept", len(res.Swept), "quarantine_pruned", res.QuarantinePruned)
		}
	}
	periodically(ctx, every, pass)
}
