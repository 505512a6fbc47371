package daemon

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/wardhq/ward/internal/ingest"
)

type fakeCurator struct {
	mu    sync.Mutex
	times []time.Time
	fail  bool
}

func (f *fakeCurator) Curate(_ context.Context, now time.Time) (*ingest.Curation, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.times = append(f.times, now)
	if f.fail {
		return nil, errors.New("store down")
	}
	return &ingest.Curation{}, nil
}

func (f *fakeCurator) passes() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.times)
}

func TestRunCurator(t *testing.T) {
	for _, tc := range []struct {
		name  string
		every time.Duration
		tick  time.Duration
		fail  bool
	}{
		{"every 10 minutes", 10 * time.Minute, 10 * time.Minute, false},
		{"default interval", 0, time.Hour, false},
		{"failed passes are retried", 10 * time.Minute, 10 * time.Minute, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := &fakeCurator{fail: tc.fail}
				ctx, cancel := context.WithCancel(t.Context())
				var wg sync.WaitGroup
				var samples atomic.Int64
				sample := func(context.Context, time.Time) error {
					samples.Add(1)
					if tc.fail {
						return errors.New("chain down")
					}
					return nil
				}
				wg.Go(func() { runCurator(ctx, f, tc.every, slog.New(slog.NewTextHandler(io.Discard, nil)), sample) })
				synctest.Wait()
				if got := f.passes(); got != 1 {
					t.Fatalf("%d passes at start, want 1", got)
				}
				time.Sleep(3*tc.tick + time.Second) // the bubble's clock
				synctest.Wait()
				if got := f.passes(); got != 4 {
					t.Errorf("%d passes after 3 intervals, want 4", got)
				}
				cancel()
				wg.Wait() // runCurator returns when its context ends
				if got := f.passes(); got != 4 {
					t.Errorf("%d passes after stop, want 4", got)
				}
				if got := samples.Load(); got != 4 {
					t.Errorf("%d market samples, want one per pass (4)", got)
				}
			})
		})
	}
}
