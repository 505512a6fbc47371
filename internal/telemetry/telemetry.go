// Package telemetry is ward's OpenTelemetry tracing: a span per tool call
// through the gate, with child spans for the policy, each hook, the plan,
// the execution (a commit's chain send) and the upstream MCP call.
//
// The contract of what a span carries is the attribute keys below and
// nothing else: the tool's name (once the gate resolved it: never a name
// the agent made up), ward's session id, the decision (allow, deny, hold),
// its reason code, the stage that refused, the rule or hook that decided,
// the permit id and the risk tiers. Argument values, addresses, amounts,
// messages, diagnostics, errors' text and results are never recorded: they
// are the agent's (possibly hostile) input or the owner's secrets.
//
// Provider is made by New from a Config: with no endpoint it is the no-op
// provider (nothing is recorded or exported, at the cost of a context
// value per span); with one, spans go to an OTLP collector through a
// batching exporter with a bounded queue, so a slow or dead collector
// drops spans and never blocks a call. Shutdown flushes what is queued.
//
// Code below the daemon starts spans with Start, which takes the tracer
// from the span already in the context: the gate starts a call's span with
// the provider it was configured with, and everything under it follows
// without a global.
package telemetry

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// Instrumentation is the name of ward's tracer (the instrumentation scope
// of every span ward makes).
const Instrumentation = "github.com/wardhq/ward"

// The attribute keys of ward's spans: the whole vocabulary, so that a
// review of this list is a review of what leaves the process.
const (
	Tool         = attribute.Key("ward.tool.name")      // the resolved tool's name
	Session      = attribute.Key("ward.session.id")     // ward's session id, not the client's session name
	Decision     = attribute.Key("ward.decision")       // allow, deny or hold
	Reason       = attribute.Key("ward.reason")         // the reason code of a refusal (reason catalog)
	Stage        = attribute.Key("ward.stage")          // the stage that refused: profile, schema, policy, a hook's name, permit, handler, ...
	Rule         = attribute.Key("ward.rule")           // the policy rule that decided
	Hook         = attribute.Key("ward.hook.name")      // the hook a hook span is
	Permit       = attribute.Key("ward.permit.id")      // a permit the gate issued or found for the session
	RiskTier     = attribute.Key("ward.tool.risk_tier") // the tool's risk layer (layer1..layer3)
	PermitRisk   = attribute.Key("ward.permit.risk")    // the permit's risk tier (standard..critical)
	UpstreamName = attribute.Key("ward.upstream.server")
	UpstreamTool = attribute.Key("ward.upstream.tool")
)

// The decisions a span records.
const (
	Allow = "allow"
	Deny  = "deny"
	Hold  = "hold"
)

// Protocols an exporter speaks.
const (
	HTTPProtobuf = "http/protobuf"
	GRPC         = "grpc"
)

// Config configures tracing ([telemetry] in ward.toml). The zero Config
// exports nothing.
type Config struct {
	// Endpoint is the collector's base URL (http://host:4318 for
	// OTLP/HTTP, http://host:4317 for gRPC); empty disables tracing. An
	// OTLP/HTTP URL without a path gets /v1/traces, as
	// OTEL_EXPORTER_OTLP_ENDPOINT does; http:// sends in the clear,
	// https:// over TLS.
	Endpoint string
	// Protocol is HTTPProtobuf (default) or GRPC.
	Protocol string
	// ServiceName is the service.name resource attribute (default "ward";
	// OTEL_SERVICE_NAME overrides it).
	ServiceName string
	// SampleRatio is the fraction of new traces recorded, in (0, 1];
	// 0 means 1. A trace a client started is recorded when the client
	// sampled it (parent-based).
	SampleRatio float64
	// Headers are sent with every export (a collector's API key); they
	// add to OTEL_EXPORTER_OTLP_HEADERS.
	Headers map[string]string
	// QueueSize bounds the spans waiting for export (default 2048); when
	// it is full, new spans are dropped.
	QueueSize int
	// Timeout bounds one export (default 10 s).
	Timeout time.Duration
}

// Validate reports the first problem of c.
func (c Config) Validate() error {
	if c.Endpoint == "" {
		return nil
	}
	u, err := url.Parse(c.Endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errors.New("telemetry: the OTLP endpoint must be an http:// or https:// URL with a host")
	}
	if u.User != nil {
		return errors.New("telemetry: the OTLP endpoint must not carry credentials: send them as headers")
	}
	switch c.Protocol {
	case "", HTTPProtobuf, GRPC:
	default:
		return fmt.Errorf("telemetry: unknown OTLP protocol %q (want %q or %q)", c.Protocol, HTTPProtobuf, GRPC)
	}
	if math.IsNaN(c.SampleRatio) || c.SampleRatio < 0 || c.SampleRatio > 1 {
		return errors.New("telemetry: the sample ratio must be in (0, 1]")
	}
	if c.QueueSize < 0 || c.Timeout < 0 {
		return errors.New("telemetry: the queue size and timeout must not be negative")
	}
	return nil
}

// Provider is ward's tracer provider and what stops it.
type Provider struct {
	tp  trace.TracerProvider
	sdk *sdktrace.TracerProvider // nil when disabled
}

// New validates cfg and returns its provider: the no-op provider when cfg
// has no endpoint. Nothing is dialled here: the exporter connects on its
// first export, so a collector that is down does not stop ward starting.
func New(ctx context.Context, cfg Config) (*Provider, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Endpoint == "" {
		return &Provider{tp: noop.NewTracerProvider()}, nil
	}
	if cfg.ServiceName == "" {
		cfg.ServiceName = "ward"
	}
	if cfg.SampleRatio == 0 {
		cfg.SampleRatio = 1
	}
	if cfg.QueueSize == 0 {
		cfg.QueueSize = sdktrace.DefaultMaxQueueSize
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 10 * time.Second
	}
	exp, err := exporter(ctx, cfg)
	if err != nil {
		return nil, err
	}
	// The service name given here is a default: OTEL_SERVICE_NAME and
	// OTEL_RESOURCE_ATTRIBUTES, read by WithFromEnv after it, win.
	res, err := resource.New(ctx, resource.WithAttributes(semconv.ServiceName(cfg.ServiceName)), resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil && res == nil {
		return nil, fmt.Errorf("telemetry: resource: %w", err)
	}
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithResource(res),
		sdktrace.WithSampler(sdktrace.ParentBased(sdktrace.TraceIDRatioBased(cfg.SampleRatio))),
		// Never blocking: a full queue drops spans, never a call.
		sdktrace.WithBatcher(exp, sdktrace.WithMaxQueueSize(cfg.QueueSize), sdktrace.WithExportTimeout(cfg.Timeout)),
	)
	return &Provider{tp: tp, sdk: tp}, nil
}

func exporter(ctx context.Context, cfg Config) (sdktrace.SpanExporter, error) {
	u, _ := url.Parse(cfg.Endpoint) // Validate parsed it
	if cfg.Protocol == GRPC {
		opts := []otlptracegrpc.Option{otlptracegrpc.WithEndpointURL(cfg.Endpoint), otlptracegrpc.WithTimeout(cfg.Timeout)}
		if len(cfg.Headers) > 0 {
			opts = append(opts, otlptracegrpc.WithHeaders(cfg.Headers))
		}
		exp, err := otlptracegrpc.New(ctx, opts...)
		if err != nil {
			return nil, fmt.Errorf("telemetry: otlp grpc exporter: %w", err)
		}
		return exp, nil
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/v1/traces"
	}
	opts := []otlptracehttp.Option{otlptracehttp.WithEndpointURL(u.String()), otlptracehttp.WithTimeout(cfg.Timeout)}
	if len(cfg.Headers) > 0 {
		opts = append(opts, otlptracehttp.WithHeaders(cfg.Headers))
	}
	exp, err := otlptracehttp.New(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("telemetry: otlp http exporter: %w", err)
	}
	return exp, nil
}

// TracerProvider returns the provider spans are made with.
func (p *Provider) TracerProvider() trace.TracerProvider { return p.tp }

// Enabled reports whether spans are exported.
func (p *Provider) Enabled() bool { return p.sdk != nil }

// Shutdown exports the spans still queued and stops the exporter, within
// ctx: spans a collector has not taken by then are lost, and said so.
func (p *Provider) Shutdown(ctx context.Context) error {
	if p.sdk == nil {
		return nil
	}
	if err := p.sdk.Shutdown(ctx); err != nil {
		return fmt.Errorf("telemetry: flush on shutdown: %w", err)
	}
	return nil
}

// Start starts a span named name as a child of ctx's span, with the tracer
// provider of that span: nothing is recorded under a context without a
// recording span. Under a context without a span (or with one whose span
// context is not valid, as no recording span's is) it returns ctx itself
// and that span, which is what the no-op tracer would return in a copy of
// ctx: the tool gate starts a span per decision, and the copy was an
// allocation of each.
func Start(ctx context.Context, name string) (context.Context, trace.Span) {
	parent := trace.SpanFromContext(ctx)
	if !parent.SpanContext().IsValid() {
		return ctx, parent
	}
	return parent.TracerProvider().Tracer(Instrumentation).Start(ctx, name)
}

// propagator reads W3C trace context (traceparent, tracestate).
var propagator = propagation.TraceContext{}

// Extract returns ctx carrying the remote span context of a W3C
// traceparent in h, so that ward's spans continue the client's trace; ctx
// as it is when h has none or an invalid one.
func Extract(ctx context.Context, h http.Header) context.Context {
	if h == nil || h.Get("traceparent") == "" {
		return ctx
	}
	return propagator.Extract(ctx, propagation.HeaderCarrier(h))
}

// ExtractMeta is Extract for an MCP request's _meta, where a client may
// put traceparent and tracestate instead of (or besides) HTTP headers.
// Values that are not strings are ignored.
func ExtractMeta(ctx context.Context, meta map[string]any) context.Context {
	tp, _ := meta["traceparent"].(string)
	if tp == "" {
		return ctx
	}
	c := propagation.MapCarrier{"traceparent": tp}
	if ts, ok := meta["tracestate"].(string); ok {
		c["tracestate"] = ts
	}
	return propagator.Extract(ctx, c)
}

// ForCall returns ctx carrying the trace context of one call that arrived
// in a longer-lived session (an MCP tools/call): the traceparent header of
// the call's own HTTP request (h; nil over stdio), else the one in its
// _meta, else none: never the trace of the request that opened the
// session, which ctx may carry.
func ForCall(ctx context.Context, h http.Header, meta map[string]any) context.Context {
	if trace.SpanContextFromContext(ctx).IsValid() {
		ctx = trace.ContextWithSpanContext(ctx, trace.SpanContext{})
	}
	if c := Extract(ctx, h); trace.SpanContextFromContext(c).IsValid() {
		return c
	}
	return ExtractMeta(ctx, meta)
}

// InjectMeta returns the W3C trace context of ctx's span as MCP _meta
// entries (traceparent, tracestate), so that a server ward calls continues
// ward's trace; nil when the span is not recorded (telemetry off, or not
// sampled).
func InjectMeta(ctx context.Context) map[string]any {
	span := trace.SpanFromContext(ctx)
	if !span.IsRecording() {
		return nil
	}
	c := propagation.MapCarrier{}
	propagator.Inject(ctx, c)
	if len(c) == 0 {
		return nil
	}
	out := make(map[string]any, len(c))
	for k, v := range c {
		out[k] = v
	}
	return out
}

// Handler returns next with each request's W3C trace context extracted
// into its context (Extract).
func Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("traceparent") != "" {
			r = r.WithContext(Extract(r.Context(), r.Header))
		}
		next.ServeHTTP(w, r)
	})
}

// Refused sets a refusal's decision, reason and stage on span.
func Refused(span trace.Span, decision, code, stage string) {
	span.SetAttributes(Decision.String(decision), Reason.String(code), Stage.String(stage))
}

// HookName returns the span name of a hook's check: "ward.hook." and the
// hook's name with spaces as underscores.
func HookName(hook string) string {
	return "ward.hook." + strings.ReplaceAll(hook, " ", "_")
}
