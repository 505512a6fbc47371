package config

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/wardhq/ward/internal/telemetry"
)

type telemetryTOML struct {
	OTLPEndpoint *string  `toml:"otlp_endpoint"`
	OTLPProtocol *string  `toml:"otlp_protocol"`
	ServiceName  *string  `toml:"service_name"`
	SampleRatio  *float64 `toml:"sample_ratio"`
	// HeadersEnv maps a header sent with every export to the environment
	// variable holding its value (a collector's API key stays out of the
	// file).
	HeadersEnv map[string]string `toml:"otlp_headers_env"`
}

// telemetrySection reads [telemetry]. Without otlp_endpoint nothing is
// exported, and the other keys must not be set either (they would do
// nothing, which is likely a mistake).
func telemetrySection(f *File, raw *fileTOML, idx *positions) []Diagnostic {
	t := raw.Telemetry
	if t == nil {
		return nil
	}
	var diags []Diagnostic
	bad := func(key, format string, args ...any) {
		diags = append(diags, idx.at("telemetry."+key, fmt.Sprintf(format, args...)))
	}
	var c telemetry.Config
	if t.OTLPEndpoint != nil {
		c.Endpoint = *t.OTLPEndpoint
		if c.Endpoint == "" {
			bad("otlp_endpoint", "must not be empty: leave it out to export nothing")
		} else if err := (telemetry.Config{Endpoint: c.Endpoint}).Validate(); err != nil {
			bad("otlp_endpoint", "%s", strings.TrimPrefix(err.Error(), "telemetry: "))
		}
	}
	if c.Endpoint == "" && (t.OTLPProtocol != nil || t.ServiceName != nil || t.SampleRatio != nil || t.HeadersEnv != nil) {
		bad("otlp_endpoint", "is needed by the other [telemetry] keys: without it nothing is exported")
	}
	if t.OTLPProtocol != nil {
		c.Protocol = *t.OTLPProtocol
		if c.Protocol != telemetry.HTTPProtobuf && c.Protocol != telemetry.GRPC {
			bad("otlp_protocol", "must be %q or %q", telemetry.HTTPProtobuf, telemetry.GRPC)
		}
	}
	if t.ServiceName != nil {
		c.ServiceName = *t.ServiceName
		if c.ServiceName == "" || len(c.ServiceName) > 128 {
			bad("service_name", "must be 1 to 128 characters")
		}
	}
	if t.SampleRatio != nil {
		c.SampleRatio = *t.SampleRatio
		if math.IsNaN(c.SampleRatio) || c.SampleRatio <= 0 || c.SampleRatio > 1 {
			bad("sample_ratio", "must be more than 0 and at most 1")
		}
	}
	names := make([]string, 0, len(t.HeadersEnv))
	for h := range t.HeadersEnv {
		names = append(names, h)
	}
	slices.Sort(names)
	for _, h := range names {
		v := t.HeadersEnv[h]
		if !headerName(h) {
			bad("otlp_headers_env", "%q is not a valid header name", h)
			continue
		}
		val, ok := os.LookupEnv(v)
		if !ok || val == "" {
			// Only the variable's name: never its value.
			bad("otlp_headers_env", "header %s: the environment variable %q is not set", h, v)
			continue
		}
		if c.Headers == nil {
			c.Headers = map[string]string{}
		}
		c.Headers[h] = val
	}
	if len(diags) > 0 {
		return diags
	}
	f.Telemetry = c
	return nil
}

// headerName reports whether h is an HTTP header name (an RFC 9110 token).
func headerName(h string) bool {
	if h == "" || len(h) > 128 {
		return false
	}
	for _, r := range h {
		if r > 0x7e || r <= ' ' || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r) {
			return false
		}
	}
	return true
}
