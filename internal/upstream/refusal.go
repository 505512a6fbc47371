package upstream

import (
	"cmp"
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/wardhq/ward/internal/egress"
	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
)

// KindEgressRefused is the kind of the action record of a sandboxed
// server's refused egress connection.
const KindEgressRefused = store.ActionEgressRefused

// Bounds of the egress refusals recorded one by one: a server that floods
// refusals gets RefusalBurst records per RefusalWindow, then one summary
// record per window of those it made beyond them, counted per
// destination and reason (at most refusalKeys of them, the rest counted
// together).
const (
	RefusalBurst  = 10
	RefusalWindow = time.Minute
	refusalKeys   = 32
)

// refusals records one sandboxed server's egress refusals as
// egress_refused action records and log warnings, bounded as above. Its
// methods are safe for concurrent use (refused is called on the proxy's
// connection goroutines); run, owned by the server's connection, writes
// each window's summary when the window has passed and the last one when
// the server ends.
type refusals struct {
	server  string
	actions store.ActionLog
	log     *slog.Logger
	now     func() time.Time
	window  time.Duration

	mu         sync.Mutex
	start      time.Time // the window's start; zero before the first refusal
	written    int       // records written one by one in the window
	suppressed map[refusalKey]int
	others     int // suppressed beyond refusalKeys destinations
	closed     bool
}

type refusalKey struct {
	target string
	reason egress.Reason
}

func newRefusals(server string, actions store.ActionLog, log *slog.Logger, now func() time.Time) *refusals {
	return &refusals{server: server, actions: actions, log: log, now: now, window: RefusalWindow, suppressed: map[refusalKey]int{}}
}

// refused records r, or counts it for the window's summary.
func (f *refusals) refused(ctx context.Context, r egress.Refusal) {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return
	}
	now := f.now()
	var summary []byte
	if f.start.IsZero() || now.Sub(f.start) >= f.window {
		summary = f.takeSummary(now)
		f.start, f.written = now, 0
	}
	record := f.written < RefusalBurst
	if record {
		f.written++
	} else {
		k := refusalKey{r.Target, r.Reason}
		if _, ok := f.suppressed[k]; ok || len(f.suppressed) < refusalKeys {
			f.suppressed[k]++
		} else {
			f.others++
		}
	}
	f.mu.Unlock()
	if summary != nil {
		f.write(ctx, now, summary)
	}
	if record {
		f.log.Warn("sandboxed upstream server: egress refused", "server", f.server, "target", r.Target, "reason", r.Reason.String())
		detail, _ := json.Marshal(refusalDetail{Server: f.server, Target: r.Target, Reason: r.Reason.String()})
		f.write(ctx, now, detail)
	}
}

// refusalDetail is an egress_refused record's detail: one refusal
// (Target, Reason), or a summary (Suppressed, Refusals, Since, Until) of
// those beyond RefusalBurst in a window.
type refusalDetail struct {
	Server     string         `json:"server"`
	Target     string         `json:"target,omitempty"`
	Reason     string         `json:"reason,omitempty"`
	Suppressed int            `json:"suppressed,omitempty"`
	Refusals   []refusalCount `json:"refusals,omitempty"`
	Since      *time.Time     `json:"since,omitempty"`
	Until      *time.Time     `json:"until,omitempty"`
}

type refusalCount struct {
	Target string `json:"target"`
	Reason string `json:"reason"`
	Count  int    `json:"count"`
}

// takeSummary returns the detail of the window's summary record and
// clears its counts; nil when nothing was suppressed. f.mu is held.
func (f *refusals) takeSummary(now time.Time) []byte {
	if len(f.suppressed) == 0 && f.others == 0 {
		return nil
	}
	d := refusalDetail{Server: f.server, Suppressed: f.others}
	for k, n := range f.suppressed {
		d.Refusals = append(d.Refusals, refusalCount{Target: k.target, Reason: k.reason.String(), Count: n})
		d.Suppressed += n
	}
	slices.SortFunc(d.Refusals, func(a, b refusalCount) int {
		return cmp.Or(b.Count-a.Count, cmp.Compare(a.Target, b.Target), cmp.Compare(a.Reason, b.Reason))
	})
	if f.others > 0 {
		d.Refusals = append(d.Refusals, refusalCount{Target: "(others)", Reason: "", Count: f.others})
	}
	since, until := f.start, now
	d.Since, d.Until = &since, &until
	clear(f.suppressed)
	f.others = 0
	b, _ := json.Marshal(d)
	f.log.Warn("sandboxed upstream server: egress refusals beyond the record rate", "server", f.server, "suppressed", d.Suppressed)
	return b
}

// run writes the summary of each window once it has passed (checked
// every window) and, when done is closed (the server ended), the pending
// one; refusals after that are not recorded.
func (f *refusals) run(ctx context.Context, done <-chan struct{}) {
	tick := time.NewTicker(f.window)
	defer tick.Stop()
	for {
		select {
		case <-done:
			f.flush(ctx, true)
			return
		case <-tick.C:
			f.flush(ctx, false)
		}
	}
}

// flush writes the window's summary if the window has passed (or final:
// whatever is pending) and starts a new window.
func (f *refusals) flush(ctx context.Context, final bool) {
	f.mu.Lock()
	now := f.now()
	var summary []byte
	if final || (!f.start.IsZero() && now.Sub(f.start) >= f.window) {
		summary = f.takeSummary(now)
		f.start, f.written = time.Time{}, 0
	}
	f.closed = f.closed || final
	f.mu.Unlock()
	if summary != nil {
		f.write(ctx, now, summary)
	}
}

// write appends one record; a failure is logged (the connection was
// refused either way).
func (f *refusals) write(ctx context.Context, now time.Time, detail []byte) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	rec := &store.ActionRecord{ID: id.New(now), Time: now, Kind: KindEgressRefused, Status: store.StatusBlocked, Detail: detail}
	if err := f.actions.AppendAction(ctx, rec); err != nil {
		f.log.Error("sandboxed upstream server: an egress refusal could not be recorded", "server", f.server, "error", err)
	}
}
