package config

import (
	"fmt"
	"time"

	"github.com/wardhq/ward/internal/stream"
)

// Streaming bounds the live data subscriptions of the stream_ tools
// ([streaming]).
type Streaming struct {
	// MaxPerSession is how many subscriptions one session may hold at
	// once (stream.DefaultMaxPerSession unless set, 1 to
	// MaxStreamsPerSession).
	MaxPerSession int
	// MinInterval is the shortest polling interval a subscription may ask
	// for (stream.DefaultMinInterval unless set, MinStreamInterval to
	// MaxStreamInterval).
	MinInterval time.Duration
}

// The bounds of [streaming].
const (
	MaxStreamsPerSession = 1024
	MinStreamInterval    = 500 * time.Millisecond
	MaxStreamInterval    = time.Hour
)

type streamingTOML struct {
	MaxPerSession *int64  `toml:"max_per_session"`
	MinInterval   *string `toml:"min_interval" shape:"duration"`
}

// streamingSection reads [streaming].
func streamingSection(f *File, raw *fileTOML, idx *positions) []Diagnostic {
	f.Streaming = Streaming{MaxPerSession: stream.DefaultMaxPerSession, MinInterval: stream.DefaultMinInterval}
	s := raw.Streaming
	if s == nil {
		return nil
	}
	var diags []Diagnostic
	if s.MaxPerSession != nil {
		if n := *s.MaxPerSession; n < 1 || n > MaxStreamsPerSession {
			diags = append(diags, idx.at("streaming.max_per_session", "must be 1 to 1024"))
		} else {
			f.Streaming.MaxPerSession = int(n)
		}
	}
	if s.MinInterval != nil {
		d, err := time.ParseDuration(*s.MinInterval)
		if err != nil || d < MinStreamInterval || d > MaxStreamInterval {
			diags = append(diags, idx.at("streaming.min_interval", fmt.Sprintf("invalid duration %q (want 500ms to 1h)", *s.MinInterval)))
		} else {
			f.Streaming.MinInterval = d
		}
	}
	return diags
}
