package config

import (
	"strings"
	"testing"
)

func TestTelemetry(t *testing.T) {
	t.Setenv("WARD_TEST_OTLP_KEY", "k-123")
	for _, tc := range []struct {
		name, toml string
		wantErr    string // a substring of the error; "" for none
		check      func(t *testing.T, f *File)
	}{
		{"absent: nothing exported", "", "", func(t *testing.T, f *File) {
			if f.Telemetry.Endpoint != "" {
				t.Errorf("endpoint %q", f.Telemetry.Endpoint)
			}
		}},
		{"endpoint and options", `[telemetry]
otlp_endpoint = "http://127.0.0.1:4318"
otlp_protocol = "grpc"
service_name = "ward-prod"
sample_ratio = 0.25
otlp_headers_env = { "x-api-key" = "WARD_TEST_OTLP_KEY" }
`, "", func(t *testing.T, f *File) {
			c := f.Telemetry
			if c.Endpoint != "http://127.0.0.1:4318" || c.Protocol != "grpc" || c.ServiceName != "ward-prod" || c.SampleRatio != 0.25 || c.Headers["x-api-key"] != "k-123" {
				t.Errorf("got %+v", c)
			}
		}},
		{"empty endpoint", "[telemetry]\notlp_endpoint = \"\"\n", "telemetry.otlp_endpoint: must not be empty", nil},
		{"not a URL", "[telemetry]\notlp_endpoint = \"collector:4318\"\n", "telemetry.otlp_endpoint", nil},
		{"credentials in the URL", "[telemetry]\notlp_endpoint = \"http://u:p@host:4318\"\n", "must not carry credentials", nil},
		{"options without an endpoint", "[telemetry]\nsample_ratio = 0.5\n", "is needed by the other [telemetry] keys", nil},
		{"unknown protocol", "[telemetry]\notlp_endpoint = \"http://h:4318\"\notlp_protocol = \"http/json\"\n", `telemetry.otlp_protocol: must be "http/protobuf" or "grpc"`, nil},
		{"ratio zero", "[telemetry]\notlp_endpoint = \"http://h:4318\"\nsample_ratio = 0.0\n", "telemetry.sample_ratio", nil},
		{"ratio above one", "[telemetry]\notlp_endpoint = \"http://h:4318\"\nsample_ratio = 1.5\n", "telemetry.sample_ratio", nil},
		{"wrong type", "[telemetry]\notlp_endpoint = 4318\n", "otlp_endpoint", nil},
		{"unknown key", "[telemetry]\notlp_endpoint = \"http://h:4318\"\nendpoint = \"x\"\n", "unknown key", nil},
		{"unset header variable", "[telemetry]\notlp_endpoint = \"http://h:4318\"\notlp_headers_env = { \"x-api-key\" = \"WARD_TEST_UNSET_VAR\" }\n", `"WARD_TEST_UNSET_VAR" is not set`, nil},
		{"bad header name", "[telemetry]\notlp_endpoint = \"http://h:4318\"\notlp_headers_env = { \"x key\" = \"WARD_TEST_OTLP_KEY\" }\n", "not a valid header name", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse("ward.toml", []byte(tc.toml))
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("got %v, want no error", err)
				}
				tc.check(t, f)
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("got %v, want an error containing %q", err, tc.wantErr)
			}
			// A header's value is a secret: no error repeats it.
			if strings.Contains(err.Error(), "k-123") {
				t.Errorf("the error carries the header's value: %v", err)
			}
		})
	}
}
