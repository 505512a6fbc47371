package daemon

import (
	"context"
	"time"
)

// periodically runs pass at once and then at every tick of every until
// ctx ends, handing it the time of the tick. A pass runs to its end before
// the next is considered: ticks missed meanwhile are dropped, not queued.
// It returns when ctx ends, never earlier; its caller owns it and waits
// for it.
func periodically(ctx context.Context, every time.Duration, pass func(now time.Time)) {
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
