package api

import (
	"context"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/store"
)

// metrics is the API's Prometheus registry (its own, not the global one).
// Counters count from the API's start. Decisions are read from the audit
// trail at each scrape (decisionTail); tool calls, permits, vetoes and
// quarantined calls from the event recorder; the rest at each scrape.
type metrics struct {
	reg *prometheus.Registry

	requests    *prometheus.CounterVec
	reqDuration *prometheus.HistogramVec
	toolCalls   *prometheus.CounterVec
	toolTime    *prometheus.HistogramVec
	permits     *prometheus.CounterVec
	vetoes      *prometheus.CounterVec
	quarantine  *prometheus.CounterVec

	pending   prometheus.Gauge
	halted    prometheus.Gauge
	phase     *prometheus.GaugeVec
	spend     *prometheus.GaugeVec
	scrapeErr prometheus.Counter

	tail *decisionTail
	a    *Server
}

func newMetrics(a *Server) *metrics {
	m := &metrics{reg: prometheus.NewRegistry(), a: a}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ward_api_requests_total",
		Help: "API requests by route and HTTP status."}, []string{"route", "code"})
	m.reqDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "ward_api_request_duration_seconds",
		Help: "API request latency by route (event streams: their lifetime).", Buckets: prometheus.ExponentialBuckets(0.0005, 4, 10)}, []string{"route"})
	m.toolCalls = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ward_tool_calls_total",
		Help: "Tool handler runs by tool and outcome (ok, error: the tool reported an error, failed: it did not finish)."}, []string{"tool", "outcome"})
	m.toolTime = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "ward_tool_call_duration_seconds",
		Help: "Tool handler run time by tool.", Buckets: prometheus.ExponentialBuckets(0.001, 4, 9)}, []string{"tool"})
	m.permits = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ward_permits_total",
		Help: "Permits by what happened to them: created, consumed, cancelled, expired."}, []string{"state"})
	m.vetoes = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ward_gate_vetoes_total",
		Help: "Writes the gate refused, by reason code."}, []string{"reason"})
	m.quarantine = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ward_quarantine_total",
		Help: "Quarantined calls by step: held, approved, rejected, ran, failed."}, []string{"step"})
	m.pending = prometheus.NewGauge(prometheus.GaugeOpts{Name: "ward_permits_pending", Help: "Pending, unexpired permits (counted up to 10,000)."})
	m.halted = prometheus.NewGauge(prometheus.GaugeOpts{Name: "ward_gate_halted", Help: "1 while writes are halted."})
	m.phase = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "ward_gate_phase", Help: "1 for the PolicyCage phase in force."}, []string{"phase"})
	m.spend = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "ward_spend_daily_cents",
		Help: "Spend in the sliding 24 hours: executed, held by pending permits, and the limit (absent when unlimited)."}, []string{"kind"})
	m.scrapeErr = prometheus.NewCounter(prometheus.CounterOpts{Name: "ward_metrics_read_errors_total",
		Help: "Store reads that failed while collecting metrics."})
	m.tail = &decisionTail{log: a.cfg.Store, from: a.cfg.Now(), seen: map[string]time.Time{},
		count: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ward_decisions_total",
			Help: "Policy decisions by action and reason code, from the audit trail."}, []string{"action", "reason"}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "ward_decision_latency_seconds",
			Help: "Policy evaluation latency, from the audit trail.", Buckets: prometheus.ExponentialBuckets(1e-6, 4, 10)}),
		skipped: prometheus.NewCounter(prometheus.CounterOpts{Name: "ward_decisions_uncounted_total",
			Help: "About how many decisions were left out of ward_decisions_total because more than 100,000 arrived between two scrapes."}),
		errs: m.scrapeErr,
	}
	bus := a.cfg.Bus
	m.reg.MustRegister(m.requests, m.reqDuration, m.toolCalls, m.toolTime, m.permits, m.vetoes, m.quarantine,
		m.pending, m.halted, m.phase, m.spend, m.scrapeErr, m.tail.count, m.tail.latency, m.tail.skipped,
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "ward_events_published_total", Help: "Events published on the bus."},
			func() float64 { return float64(bus.Stats().Published) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "ward_events_dropped_total",
			Help: "Event deliveries dropped because a subscriber's buffer was full."},
			func() float64 { return float64(bus.Stats().Dropped) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "ward_event_subscribers", Help: "Open event subscriptions."},
			func() float64 { return float64(bus.Stats().Subscribers) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "ward_api_event_streams", Help: "Open GET /v1/events streams."},
			func() float64 { return float64(a.streams.Load()) }),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return m
}

func (m *metrics) request(route string, status int, d time.Duration) {
	m.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
	m.reqDuration.WithLabelValues(route).Observe(d.Seconds())
}

// event counts one bus event (called by the recorder only).
func (m *metrics) event(e event.Event) {
	switch e.Kind {
	case event.ToolEnd:
		outcome := "ok"
		if !e.Success {
			outcome = "error"
		}
		m.toolCalls.WithLabelValues(e.Tool, outcome).Inc()
		m.toolTime.WithLabelValues(e.Tool).Observe(float64(e.DurationMS) / 1000)
	case event.ToolError:
		m.toolCalls.WithLabelValues(e.Tool, "failed").Inc()
	case event.PermitCreated:
		m.permits.WithLabelValues("created").Inc()
	case event.PermitConsumed:
		m.permits.WithLabelValues("consumed").Inc()
	case event.PermitCancelled:
		m.permits.WithLabelValues("cancelled").Inc()
	case event.PermitExpired:
		m.permits.WithLabelValues("expired").Inc()
	case event.GateVetoed:
		m.vetoes.WithLabelValues(e.Code).Inc()
	case event.QuarantineHeld:
		m.quarantine.WithLabelValues("held").Inc()
	case event.QuarantineDecided:
		if e.Message == facade.QuarantineApproved.String() || e.Message == facade.QuarantineRejected.String() {
			m.quarantine.WithLabelValues(e.Message).Inc()
		}
	case event.QuarantineOutcome:
		step := "ran"
		if !e.Success {
			step = "failed"
		}
		m.quarantine.WithLabelValues(step).Inc()
	}
}

// refresh reads what the scrape reports from the store and the gate.
func (m *metrics) refresh(ctx context.Context) {
	a := m.a
	now := a.cfg.Now()
	m.tail.refresh(ctx)
	if ps, err := a.cfg.Store.PendingPermits(ctx, now, 10_000); err == nil {
		m.pending.Set(float64(len(ps)))
	} else {
		m.scrapeErr.Inc()
	}
	if halted, _, err := a.cfg.Tools.Halted(ctx); err == nil {
		m.halted.Set(b2f(halted))
	} else {
		m.scrapeErr.Inc()
	}
	if p, err := a.cfg.Tools.Phase(ctx); err == nil {
		for ph := hook.Thriving; ph <= hook.Terminal; ph++ {
			m.phase.WithLabelValues(ph.String()).Set(b2f(ph == p))
		}
	} else {
		m.scrapeErr.Inc()
	}
	st, err := a.cfg.Spending.Stats(ctx, "", a.cfg.Tools.Tick(now), now)
	if err != nil {
		m.scrapeErr.Inc()
		return
	}
	m.spend.WithLabelValues("executed").Set(float64(st.DailyCents))
	m.spend.WithLabelValues("held").Set(float64(st.DailyHeldCents))
	if st.Limits.DailyCents != hook.Unlimited {
		m.spend.WithLabelValues("limit").Set(float64(st.Limits.DailyCents))
	} else {
		m.spend.DeleteLabelValues("limit")
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// metricsHandler serves /metrics: to loopback clients without a token
// (unless Config.MetricsToken), otherwise with an owner token.
func (a *Server) metricsHandler() http.Handler {
	prom := promhttp.HandlerFor(a.metrics.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError, Timeout: 10 * time.Second})
	serve := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
		a.metrics.refresh(ctx)
		cancel()
		prom.ServeHTTP(w, r)
	})
	authed := a.cfg.Authenticate(serve, auth.Owner)
	return a.observe("metrics", methods(map[string]http.Handler{http.MethodGet: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" && !a.cfg.MetricsToken && loopbackClient(r.RemoteAddr) {
			serve.ServeHTTP(w, r)
			return
		}
		authed.ServeHTTP(w, r)
	})}))
}

func loopbackClient(remote string) bool {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// decisionTail counts the audit trail's decisions into Prometheus
// counters, reading at each scrape those made since the last one. A
// decision's record can become visible a little after a later one's (the
// store commits in batches), so every read goes back tailOverlap before
// the newest decision seen, and the ids read in that overlap are
// remembered so that none counts twice.
type decisionTail struct {
	log     store.DecisionLog
	count   *prometheus.CounterVec
	latency prometheus.Histogram
	skipped prometheus.Counter
	errs    prometheus.Counter

	mu   sync.Mutex
	from time.Time            // the newest decision counted (the start before any)
	seen map[string]time.Time // ids counted at or after from - tailOverlap
}

const (
	tailOverlap = 10 * time.Second
	tailPage    = 5000
	tailPages   = 20
)

func (d *decisionTail) refresh(ctx context.Context) {
	d.mu.Lock()
	defer d.mu.Unlock()
	since := d.from.Add(-tailOverlap)
	newest := d.from
	var until time.Time // exclusive; zero: none
	for page := 0; ; page++ {
		if page == tailPages {
			// Too far behind: what is older than this is not counted.
			if n, err := d.log.CountDecisions(ctx, store.DecisionFilter{Since: since, Until: until}); err == nil {
				d.skipped.Add(float64(n))
			}
			break
		}
		recs, err := d.log.QueryDecisions(ctx, store.DecisionFilter{Since: since, Until: until, Limit: tailPage})
		if err != nil {
			d.errs.Inc()
			return
		}
		for i := range recs {
			r := &recs[i]
			if _, ok := d.seen[r.ID]; ok {
				continue
			}
			d.seen[r.ID] = r.Time
			d.count.WithLabelValues(r.Decision.String(), r.Reason).Inc()
			d.latency.Observe(r.Latency.Seconds())
			if r.Time.After(newest) {
				newest = r.Time
			}
		}
		if len(recs) < tailPage {
			break
		}
		// Newest first: the next page ends at this one's oldest instant
		// (included again: a page may split an instant's decisions).
		next := recs[len(recs)-1].Time.Add(time.Nanosecond)
		if !until.IsZero() && !next.Before(until) {
			break // a whole page of one instant
		}
		until = next
	}
	d.from = newest
	cut := d.from.Add(-tailOverlap)
	for id, t := range d.seen {
		if t.Before(cut) {
			delete(d.seen, id)
		}
	}
}
