package daemon

import (
	"context"
	"time"
)

// StreamSweep is how often ward serve ends the live data subscriptions of
// sessions that expired or were removed.
const StreamSweep = 30 * time.Second

// endExpiredStreams ends, every interval until ctx ends, the
// subscriptions of each session that is no longer live. A session the
// store cannot answer for keeps its subscriptions until the next pass.
func endExpiredStreams(ctx context.Context, st *Stack, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		for _, id := range st.Streams.Sessions() {
			if live, err := st.Tools.SessionLive(ctx, id); err == nil && !live {
				st.Streams.EndSession(id)
			}
		}
	}
}
