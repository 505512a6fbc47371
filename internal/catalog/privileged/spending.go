package privileged

import (
	"context"
	"errors"
	"fmt"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// usdLimit is the schema of one limit: dollars with at most two decimals,
// or "unlimited".
const usdLimit = `{"type":"string","pattern":"^(unlimited|[0-9]{1,13}(\\.[0-9]{1,2})?)$"`

var setSpendingLimits = spec{
	name: "safety_set_spending_limits", action: "set_spending_limits", category: tool.CatSafety,
	description: "Owner-approved: override ward.toml's spending limits ([hooks.spending] per_tick_usd, per_session_usd, daily_usd) " +
		"with the three given, or clear the override (clear: true) so that ward.toml's limits are in force again. The override is " +
		"stored: it survives a restart, a reload of ward.toml does not undo it, and every instance on the same database obeys it " +
		"from its next check. The commit needs the owner's signature of the permit; without it nothing changes.",
	params: `{"type":"object","additionalProperties":false,"properties":{` +
		`"per_tick_usd":` + usdLimit + `,"description":"USD per session per tick, or unlimited."},` +
		`"per_session_usd":` + usdLimit + `,"description":"USD per session over its life, or unlimited."},` +
		`"daily_usd":` + usdLimit + `,"description":"USD over all sessions in the sliding 24 hours, or unlimited."},` +
		`"clear":{"type":"boolean","description":"Clear the override instead (no limit may be given with it)."}}}`,
	result: `{"type":"object","required":["override"],"properties":{"override":{"type":"boolean"},` +
		`"per_tick_usd":{"type":"string"},"per_session_usd":{"type":"string"},"daily_usd":{"type":"string"}}}`,
	check: func(_ context.Context, _ *Config, in *registry.Input) (string, error) {
		l, err := spendingArgs(in)
		if err != nil {
			return "", err
		}
		if l == nil {
			return "clear the owner's spending limits (ward.toml's are in force again)", nil
		}
		return fmt.Sprintf("set the spending limits to %s per tick, %s per session, %s daily",
			hook.FormatLimitUSD(l.PerTickCents), hook.FormatLimitUSD(l.PerSessionCents), hook.FormatLimitUSD(l.DailyCents)), nil
	},
	run: func(ctx context.Context, cfg *Config, in *registry.Input, by string) (any, string, string, error) {
		l, err := spendingArgs(in)
		if err != nil {
			return nil, "", "", err
		}
		if err := cfg.Gate.SetSpendingLimits(ctx, l, by); err != nil {
			return nil, "", "", err
		}
		now, ok, err := cfg.Gate.SpendingOverride(ctx)
		if err != nil {
			return nil, "", "", err
		}
		want, got := "no override", "no override"
		if l != nil {
			want = limitsText(*l)
		}
		if !ok {
			return map[string]bool{"override": false}, want, got, nil
		}
		got = limitsText(now)
		return map[string]any{"override": true, "per_tick_usd": hook.FormatLimitUSD(now.PerTickCents), "per_session_usd": hook.FormatLimitUSD(now.PerSessionCents),
			"daily_usd": hook.FormatLimitUSD(now.DailyCents)}, want, got, nil
	},
}

// spendingArgs reads the arguments: nil for a clear, else all three
// limits in cents.
func spendingArgs(in *registry.Input) (*hook.SpendingConfig, error) {
	names := []string{"per_tick_usd", "per_session_usd", "daily_usd"}
	given := 0
	for _, n := range names {
		if _, ok := in.Args.Get(n); ok {
			given++
		}
	}
	clear := false
	if v, ok := in.Args.Get("clear"); ok {
		clear, _ = v.Bool()
	}
	switch {
	case clear && given > 0:
		return nil, errors.New("clear takes no limits: give either clear or all three limits")
	case clear:
		return nil, nil
	case given != len(names):
		return nil, errors.New("per_tick_usd, per_session_usd and daily_usd must all be given (or clear: true)")
	}
	var c [3]int64
	for i, n := range names {
		v, err := hook.ParseLimitUSD(str(in, n))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		c[i] = v
	}
	return &hook.SpendingConfig{PerTickCents: c[0], PerSessionCents: c[1], DailyCents: c[2]}, nil
}

func limitsText(l hook.SpendingConfig) string {
	return fmt.Sprintf("per tick %s, per session %s, daily %s", hook.FormatLimitUSD(l.PerTickCents), hook.FormatLimitUSD(l.PerSessionCents), hook.FormatLimitUSD(l.DailyCents))
}
