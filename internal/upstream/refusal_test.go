package upstream

import (
	"context"
	"encoding/json"
	"io"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/wardhq/ward/internal/egress"
	"github.com/wardhq/ward/internal/store"
)

// actionLog keeps appended records in memory.
type actionLog struct {
	mu   sync.Mutex
	recs []store.ActionRecord
}

func (l *actionLog) AppendAction(_ context.Context, r *store.ActionRecord) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.recs = append(l.recs, *r)
	return nil
}

func (l *actionLog) Actions(context.Context, store.ActionFilter) ([]store.ActionRecord, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]store.ActionRecord(nil), l.recs...), nil
}

func (l *actionLog) FailedLookups(context.Context, string, time.Time) (int, error) { return 0, nil }

func (l *actionLog) details(t *testing.T) []refusalDetail {
	recs, _ := l.Actions(t.Context(), store.ActionFilter{})
	var out []refusalDetail
	for _, r := range recs {
		var d refusalDetail
		if r.Kind != KindEgressRefused || json.Unmarshal(r.Detail, &d) != nil {
			t.Fatalf("record %+v", r)
		}
		out = append(out, d)
	}
	return out
}

// TestRefusalsWindow: a flood is recorded RefusalBurst times one by one
// and once as a summary written when its window has passed, with no
// refusal after it; the next window records one by one again; more than
// refusalKeys destinations are counted together; refusals after the
// server ended are not recorded.
func TestRefusalsWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		log := &actionLog{}
		f := newRefusals("net", log, slogTo(io.Discard), time.Now)
		done := make(chan struct{})
		var wg sync.WaitGroup
		wg.Go(func() { f.run(t.Context(), done) })

		ctx := t.Context()
		for i := range 500 {
			target := "a.example.com:443"
			if i >= 100 {
				target = "h" + string(rune('a'+i%50)) + ".example.com:443" // 50 destinations
			}
			f.refused(ctx, egress.Refusal{Target: target, Reason: egress.NotListed})
		}
		f.refused(ctx, egress.Refusal{Reason: egress.OverCap})
		if got := len(log.details(t)); got != RefusalBurst {
			t.Fatalf("%d records during the flood, want %d", got, RefusalBurst)
		}
		time.Sleep(2 * RefusalWindow)
		synctest.Wait()
		got := log.details(t)
		if len(got) != RefusalBurst+1 {
			t.Fatalf("%d records after the window, want %d and a summary", len(got), RefusalBurst)
		}
		sum := got[RefusalBurst]
		n := 0
		for _, c := range sum.Refusals {
			n += c.Count
		}
		if sum.Suppressed != 501-RefusalBurst || n != sum.Suppressed || len(sum.Refusals) != refusalKeys+1 || sum.Refusals[0].Target != "a.example.com:443" {
			t.Errorf("summary: suppressed %d, %d counted in %d entries (first %+v); want %d in %d", sum.Suppressed, n, len(sum.Refusals), sum.Refusals[0], 501-RefusalBurst, refusalKeys+1)
		}

		f.refused(ctx, egress.Refusal{Target: "b.example.com:443", Reason: egress.NotPublic})
		if got := log.details(t); len(got) != RefusalBurst+2 || got[len(got)-1].Reason != "not_public" {
			t.Errorf("the next window's first refusal: %+v", got[len(got)-1])
		}
		close(done)
		wg.Wait()
		f.refused(ctx, egress.Refusal{Target: "c.example.com:443", Reason: egress.NotListed})
		if got := len(log.details(t)); got != RefusalBurst+2 {
			t.Errorf("%d records after the server ended, want %d", got, RefusalBurst+2)
		}
	})
}
