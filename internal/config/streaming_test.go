package config

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestStreaming(t *testing.T) {
	f, err := Parse("ward.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Streaming{MaxPerSession: 16, MinInterval: 2 * time.Second}); f.Streaming != want {
		t.Errorf("defaults: %+v, want %+v", f.Streaming, want)
	}
	f, err = Parse("ward.toml", []byte("[streaming]\nmax_per_session = 4\nmin_interval = \"10s\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := (Streaming{MaxPerSession: 4, MinInterval: 10 * time.Second}); f.Streaming != want {
		t.Errorf("parsed %+v, want %+v", f.Streaming, want)
	}
	for name, c := range map[string]struct{ src, msg string }{
		"zero subscriptions":     {"[streaming]\nmax_per_session = 0", "streaming.max_per_session"},
		"too many subscriptions": {"[streaming]\nmax_per_session = 5000", "streaming.max_per_session"},
		"interval too short":     {"[streaming]\nmin_interval = \"100ms\"", "streaming.min_interval"},
		"interval not duration":  {"[streaming]\nmin_interval = \"often\"", "streaming.min_interval"},
		"interval a number":      {"[streaming]\nmin_interval = 2", "min_interval"},
		"unknown key":            {"[streaming]\nmax = 3", "unknown key"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("ward.toml", []byte(c.src))
			var ce *Error
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("%v, want an error naming %s", err, c.msg)
			}
		})
	}
}
