package telemetry

import (
	"context"
	"net/http"
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

const (
	traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	spanID  = "00f067aa0ba902b7"
)

func TestExtract(t *testing.T) {
	valid := "00-" + traceID + "-" + spanID + "-01"
	for _, tc := range []struct {
		name string
		ctx  func() context.Context
		want string // the trace id continued; "" for none
	}{
		{"header", func() context.Context { return Extract(t.Context(), http.Header{"Traceparent": {valid}}) }, traceID},
		{"no header", func() context.Context { return Extract(t.Context(), http.Header{}) }, ""},
		{"forged: all-zero trace id", func() context.Context {
			return Extract(t.Context(), http.Header{"Traceparent": {"00-" + strings.Repeat("0", 32) + "-" + spanID + "-01"}})
		}, ""},
		{"garbage", func() context.Context {
			return Extract(t.Context(), http.Header{"Traceparent": {strings.Repeat("x", 4096)}})
		}, ""},
		{"meta", func() context.Context { return ExtractMeta(t.Context(), map[string]any{"traceparent": valid}) }, traceID},
		{"meta not a string", func() context.Context { return ExtractMeta(t.Context(), map[string]any{"traceparent": 42}) }, ""},
		{"nil meta", func() context.Context { return ExtractMeta(t.Context(), nil) }, ""},
		{"call: header over meta", func() context.Context {
			return ForCall(t.Context(), http.Header{"Traceparent": {valid}}, map[string]any{"traceparent": "00-" + strings.Repeat("1", 32) + "-" + spanID + "-01"})
		}, traceID},
		{"call: the session's trace is not the call's", func() context.Context {
			session := Extract(t.Context(), http.Header{"Traceparent": {valid}})
			return ForCall(session, nil, nil)
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := trace.SpanContextFromContext(tc.ctx())
			got := ""
			if sc.IsValid() {
				got = sc.TraceID().String()
				if !sc.IsRemote() {
					t.Error("the extracted span context is not remote")
				}
			}
			if got != tc.want {
				t.Errorf("trace %q, want %q", got, tc.want)
			}
		})
	}
}

func TestNew(t *testing.T) {
	off, err := New(t.Context(), Config{})
	if err != nil || off.Enabled() {
		t.Fatalf("zero config: enabled %v, %v", off.Enabled(), err)
	}
	if _, span := off.TracerProvider().Tracer(Instrumentation).Start(t.Context(), "x"); span.IsRecording() {
		t.Error("the disabled provider records spans")
	}
	if err := off.Shutdown(t.Context()); err != nil {
		t.Error(err)
	}
	on, err := New(t.Context(), Config{Endpoint: "http://127.0.0.1:1"})
	if err != nil || !on.Enabled() {
		t.Fatalf("with an endpoint: enabled %v, %v", on.Enabled(), err)
	}
	ctx, span := on.TracerProvider().Tracer(Instrumentation).Start(t.Context(), "call")
	_, child := Start(ctx, "stage")
	if !span.IsRecording() || !child.IsRecording() || child.SpanContext().TraceID() != span.SpanContext().TraceID() {
		t.Error("Start does not continue the call's trace with its provider")
	}
	child.End()
	span.End()
	on.Shutdown(t.Context()) // the port is closed: the spans are lost, which is the point

	for _, bad := range []Config{
		{Endpoint: "ftp://h"}, {Endpoint: "http://"}, {Endpoint: "http://u:p@h"},
		{Endpoint: "http://h", Protocol: "thrift"}, {Endpoint: "http://h", SampleRatio: 2}, {Endpoint: "http://h", QueueSize: -1},
	} {
		if _, err := New(t.Context(), bad); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

// BenchmarkStartDisabled is what a span costs a call with telemetry off:
// the policy's span in Gate.Decide, a hook's in the chain.
func BenchmarkStartDisabled(b *testing.B) {
	p, _ := New(b.Context(), Config{})
	ctx, call := p.TracerProvider().Tracer(Instrumentation).Start(b.Context(), "ward.preview")
	b.ReportAllocs()
	for b.Loop() {
		_, span := Start(ctx, "ward.policy")
		if span.IsRecording() {
			b.Fatal("recording with telemetry off")
		}
		span.End()
	}
	call.End()
}

// Start makes a child of a recording span with that span's provider, and
// under a context without a valid span context changes nothing and
// allocates nothing.
func TestStart(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer func() { _ = tp.Shutdown(t.Context()) }()
	root, parent := tp.Tracer("test").Start(t.Context(), "root")
	ctx, child := Start(root, "child")
	if !child.IsRecording() || trace.SpanFromContext(ctx) != child {
		t.Fatal("under a recording span: no recording child in the context")
	}
	child.End()
	parent.End()
	if ended := rec.Ended(); len(ended) != 2 || ended[0].Name() != "child" || ended[0].Parent().SpanID() != parent.SpanContext().SpanID() {
		t.Errorf("recorded %v, want child of root, then root", ended)
	}

	remote := Extract(t.Context(), http.Header{"Traceparent": {"00-" + traceID + "-" + spanID + "-01"}})
	if ctx, span := Start(remote, "x"); span.IsRecording() || trace.SpanContextFromContext(ctx).TraceID().String() != traceID {
		t.Error("under a remote span context: want a non-recording span continuing its trace")
	}

	bare := t.Context()
	if ctx, span := Start(bare, "x"); ctx != bare || span.IsRecording() {
		t.Error("without a span: want the context itself and a non-recording span")
	}
	if n := testing.AllocsPerRun(100, func() { Start(bare, "x") }); n != 0 {
		t.Errorf("without a span: %v allocations, want 0", n)
	}
}
