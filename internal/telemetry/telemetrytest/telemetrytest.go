// Package telemetrytest is an in-process OTLP/HTTP (protobuf) collector
// for tests: it decodes what ward exports into spans and keeps the raw
// bodies, so a test can check the span tree, the attributes, and that no
// value it sent through a call was exported in any form.
package telemetrytest

import (
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// Collector is an OTLP/HTTP trace receiver at URL (its /v1/traces). It is
// safe for concurrent use.
type Collector struct {
	URL string

	mu    sync.Mutex
	spans []*tracepb.Span
	raw   [][]byte
	bad   []string
}

// New starts a Collector, closed when t ends.
func New(t testing.TB) *Collector {
	c := &Collector{}
	srv := httptest.NewServer(http.HandlerFunc(c.serve))
	t.Cleanup(srv.Close)
	c.URL = srv.URL
	return c
}

func (c *Collector) serve(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(r.Body)
	c.mu.Lock()
	defer c.mu.Unlock()
	var req coltracepb.ExportTraceServiceRequest
	switch {
	case r.Method != http.MethodPost || r.URL.Path != "/v1/traces":
		c.bad = append(c.bad, r.Method+" "+r.URL.Path)
	case r.Header.Get("Content-Type") != "application/x-protobuf":
		c.bad = append(c.bad, "content type "+r.Header.Get("Content-Type"))
	case err != nil || proto.Unmarshal(b, &req) != nil:
		c.bad = append(c.bad, fmt.Sprintf("undecodable body (%d bytes)", len(b)))
	default:
		c.raw = append(c.raw, b)
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				c.spans = append(c.spans, ss.Spans...)
			}
		}
	}
	w.Header().Set("Content-Type", "application/x-protobuf")
	out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	w.Write(out)
}

// Spans returns the spans received so far; it fails t if any request was
// not an OTLP/HTTP protobuf export.
func (c *Collector) Spans(t testing.TB) *Spans {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.bad) > 0 {
		t.Fatalf("the collector got requests it could not take: %v", c.bad)
	}
	s := &Spans{All: append([]*tracepb.Span(nil), c.spans...), byID: map[string]*tracepb.Span{}}
	for _, sp := range s.All {
		s.byID[hex.EncodeToString(sp.SpanId)] = sp
	}
	return s
}

// Raw returns the bodies of the exports received so far.
func (c *Collector) Raw() [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([][]byte(nil), c.raw...)
}

// Spans are received spans.
type Spans struct {
	All  []*tracepb.Span
	byID map[string]*tracepb.Span
}

// Named returns the spans called name.
func (s *Spans) Named(name string) []*tracepb.Span {
	var out []*tracepb.Span
	for _, sp := range s.All {
		if sp.Name == name {
			out = append(out, sp)
		}
	}
	return out
}

// Parent returns sp's parent among the spans, nil when it is not one of
// them (a root, or a remote parent).
func (s *Spans) Parent(sp *tracepb.Span) *tracepb.Span {
	return s.byID[hex.EncodeToString(sp.ParentSpanId)]
}

// Children returns the spans whose parent is sp.
func (s *Spans) Children(sp *tracepb.Span) []*tracepb.Span {
	var out []*tracepb.Span
	for _, c := range s.All {
		if s.Parent(c) == sp {
			out = append(out, c)
		}
	}
	return out
}

// Attr returns sp's string attribute key ("" when it has none).
func Attr(sp *tracepb.Span, key string) string {
	for _, kv := range sp.Attributes {
		if kv.Key == key {
			return kv.Value.GetStringValue()
		}
	}
	return ""
}
