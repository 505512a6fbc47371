package hook_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/hook/hooktest"
	"github.com/wardhq/ward/internal/reason"
)

func TestRateLimiterWindow(t *testing.T) {
	now := hooktest.Now
	at := func(c *hook.Call, t time.Time) *hook.Call { c.Now = t; return c }
	tests := []struct {
		name   string
		cfg    hook.RateConfig
		writes []time.Duration // ago
		now    time.Time
		veto   bool
	}{
		{"room", hook.RateConfig{Max: 3, Window: time.Minute}, []time.Duration{10 * time.Second, 20 * time.Second}, now, false},
		{"full", hook.RateConfig{Max: 3, Window: time.Minute}, []time.Duration{10 * time.Second, 20 * time.Second, 59 * time.Second}, now, true},
		{"oldest slid out", hook.RateConfig{Max: 3, Window: time.Minute}, []time.Duration{10 * time.Second, 20 * time.Second, time.Minute}, now, false},
		{"window slides with the call's time", hook.RateConfig{Max: 3, Window: time.Minute}, []time.Duration{10 * time.Second, 20 * time.Second, 59 * time.Second}, now.Add(time.Second), false},
		{"zero config refuses writes", hook.RateConfig{}, nil, now, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := hook.NewRateLimiter(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, ago := range tt.writes {
				r.Record("", 0, now.Add(-ago), 0)
			}
			v := r.Check(context.Background(), at(writeCall(), tt.now))
			if v.Veto != tt.veto || (v.Veto && v.Code != reason.HookRateLimit) {
				t.Errorf("Check = %s %q, want veto=%t", v.Code, v.Message, tt.veto)
			}
			if v.Veto && tt.cfg.Max > 0 && !strings.Contains(v.Message, "the limit is 3") {
				t.Errorf("message %q lacks the limit", v.Message)
			}
		})
	}
}

func TestRateLimiterConfig(t *testing.T) {
	for name, cfg := range map[string]hook.RateConfig{
		"negative max":       {Max: -1, Window: time.Minute},
		"max without window": {Max: 1},
		"negative window":    {Window: -time.Second},
	} {
		if _, err := hook.NewRateLimiter(cfg); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
}
