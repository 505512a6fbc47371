package config

import (
	"fmt"
	"math"
	"time"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// Tools selects the session's tools ([tools]).
type Tools struct {
	Profiles []string // default ["active"]
	Enable   []string
	Disable  []string
}

// GateConfig tunes permits ([gate]).
type GateConfig struct {
	PermitTTL     time.Duration // default 3m
	AnnounceDelay time.Duration // default 30s
	TickPeriod    time.Duration // default 30s
	QuarantineTTL time.Duration // default 24h: how long a quarantined call waits for the owner
	Owner         tool.Address  // approves privileged calls; zero: none can be committed
}

type toolsTOML struct {
	Profile *string  `toml:"profile"`
	Enable  []string `toml:"enable"`
	Disable []string `toml:"disable"`
}

type gateTOML struct {
	PermitTTL     *string `toml:"permit_ttl" shape:"duration"`
	AnnounceDelay *string `toml:"announce_delay" shape:"duration"`
	TickPeriod    *string `toml:"tick_period" shape:"duration"`
	QuarantineTTL *string `toml:"quarantine_ttl" shape:"duration"`
	Owner         *string `toml:"owner"`
}

type hooksTOML struct {
	Spending  *spendingTOML  `toml:"spending"`
	Rate      *rateTOML      `toml:"rate"`
	Allowlist *allowlistTOML `toml:"allowlist"`
	Filter    *filterTOML    `toml:"filter"`
}

type spendingTOML struct {
	PerTickUSD    *float64 `toml:"per_tick_usd"`
	PerSessionUSD *float64 `toml:"per_session_usd"`
	DailyUSD      *float64 `toml:"daily_usd"`
}

type rateTOML struct {
	MaxWrites *int64  `toml:"max_writes"`
	Window    *string `toml:"window" shape:"duration"`
}

type allowlistTOML struct {
	Tokens      []string `toml:"tokens"`
	Contracts   []string `toml:"contracts"`
	Selectors   []string `toml:"selectors"`
	AnyToken    bool     `toml:"any_token"`
	AnyContract bool     `toml:"any_contract"`
	AnySelector bool     `toml:"any_selector"`
}

type filterTOML struct {
	MaxBytes *int64 `toml:"max_bytes"`
}

// Default limits of the tool gate's hooks (docs/configuration.md).
const (
	DefaultPerTickUSD    = 1_000
	DefaultPerSessionUSD = 10_000
	DefaultDailyUSD      = 20_000
	DefaultMaxWrites     = 30
	DefaultRateWindow    = time.Hour
)

// gateSections fills f's tool-gate sections from raw, adding a diagnostic
// per problem.
func gateSections(f *File, raw *fileTOML, idx *positions) []Diagnostic {
	d := &sections{idx: idx}
	d.tools(f, raw)
	d.chains(f, raw)
	d.gate(f, raw)
	f.Hooks = d.hooks(raw)
	return d.diags
}

// sections collects the diagnostics of the gate's sections of a file.
type sections struct {
	idx   *positions
	diags []Diagnostic
}

func (d *sections) bad(key, format string, args ...any) {
	d.diags = append(d.diags, d.idx.at(key, fmt.Sprintf(format, args...)))
}

// dur parses the duration at key, if given, into into.
func (d *sections) dur(key string, s *string, into *time.Duration) {
	if s == nil {
		return
	}
	v, err := time.ParseDuration(*s)
	if err != nil || v < 0 {
		d.bad(key, "invalid duration %q (for example \"30s\", \"3m\")", *s)
		return
	}
	*into = v
}

// tools reads [tools].
func (d *sections) tools(f *File, raw *fileTOML) {
	f.Tools = Tools{Profiles: []string{"active"}}
	if t := raw.Tools; t != nil {
		if t.Profile != nil {
			ps, err := registry.ParseProfiles(*t.Profile)
			if err != nil {
				d.bad("tools.profile", "%v", err)
			} else {
				f.Tools.Profiles = ps
			}
		}
		f.Tools.Enable, f.Tools.Disable = t.Enable, t.Disable
	}
}

// gate reads [gate].
func (d *sections) gate(f *File, raw *fileTOML) {
	f.Gate = GateConfig{PermitTTL: 3 * time.Minute, AnnounceDelay: 30 * time.Second, TickPeriod: 30 * time.Second, QuarantineTTL: 24 * time.Hour}
	if g := raw.Gate; g != nil {
		d.dur("gate.permit_ttl", g.PermitTTL, &f.Gate.PermitTTL)
		d.dur("gate.announce_delay", g.AnnounceDelay, &f.Gate.AnnounceDelay)
		d.dur("gate.tick_period", g.TickPeriod, &f.Gate.TickPeriod)
		d.dur("gate.quarantine_ttl", g.QuarantineTTL, &f.Gate.QuarantineTTL)
		if f.Gate.QuarantineTTL == 0 {
			d.bad("gate.quarantine_ttl", "must be positive")
		}
		if f.Gate.PermitTTL == 0 {
			d.bad("gate.permit_ttl", "must be positive")
		}
		if f.Gate.TickPeriod == 0 {
			d.bad("gate.tick_period", "must be positive")
		}
		if f.Gate.PermitTTL > 0 && f.Gate.AnnounceDelay >= f.Gate.PermitTTL {
			// A permit that may be committed only after it has expired
			// could never be committed.
			d.bad("gate.announce_delay", "must be shorter than gate.permit_ttl (%v), or no elevated permit could ever be committed", f.Gate.PermitTTL)
		}
		if g.Owner != nil {
			a, err := tool.ParseAddress(*g.Owner)
			if err != nil {
				d.bad("gate.owner", "%v", err)
			}
			f.Gate.Owner = a
		}
	}
}

// hooks reads [hooks] over the defaults; when no section so far has an
// error, the hooks validate their configs too.
func (d *sections) hooks(raw *fileTOML) hook.Config {
	h := hook.Config{
		Spending: hook.SpendingConfig{PerTickCents: DefaultPerTickUSD * 100, PerSessionCents: DefaultPerSessionUSD * 100, DailyCents: DefaultDailyUSD * 100},
		Rate:     hook.RateConfig{Max: DefaultMaxWrites, Window: DefaultRateWindow},
	}
	if hs := raw.Hooks; hs != nil {
		if s := hs.Spending; s != nil {
			d.cents("hooks.spending.per_tick_usd", s.PerTickUSD, &h.Spending.PerTickCents)
			d.cents("hooks.spending.per_session_usd", s.PerSessionUSD, &h.Spending.PerSessionCents)
			d.cents("hooks.spending.daily_usd", s.DailyUSD, &h.Spending.DailyCents)
		}
		if r := hs.Rate; r != nil {
			if r.MaxWrites != nil {
				if *r.MaxWrites < 0 || *r.MaxWrites > math.MaxInt32 {
					d.bad("hooks.rate.max_writes", "must be between 0 and %d", math.MaxInt32)
				}
				h.Rate.Max = int(*r.MaxWrites)
			}
			d.dur("hooks.rate.window", r.Window, &h.Rate.Window)
		}
		if a := hs.Allowlist; a != nil {
			d.allowlist(a, &h.Allowlist)
		}
		if fl := hs.Filter; fl != nil && fl.MaxBytes != nil {
			if *fl.MaxBytes < 1024 || *fl.MaxBytes > 16<<20 {
				d.bad("hooks.filter.max_bytes", "must be between 1024 and 16777216")
			}
			h.Filter.MaxBytes = int(*fl.MaxBytes)
		}
	}
	if len(d.diags) == 0 {
		d.checkHooks(h)
	}
	return h
}

// cents reads the amount in USD v of key into cents: unset leaves into as
// it is, an amount too large for cents is unlimited.
func (d *sections) cents(key string, v *float64, into *int64) {
	if v == nil {
		return
	}
	switch {
	case *v < 0 || math.IsNaN(*v):
		d.bad(key, "must not be negative")
	case *v*100 >= math.MaxInt64/2:
		*into = hook.Unlimited
	default:
		*into = int64(math.Round(*v * 100))
	}
}

// allowlist reads [hooks.allowlist] into al.
func (d *sections) allowlist(a *allowlistTOML, al *hook.AllowlistConfig) {
	al.AnyToken, al.AnyContract, al.AnySelector = a.AnyToken, a.AnyContract, a.AnySelector
	for i, s := range a.Tokens {
		v, err := tool.ParseAddress(s)
		if err != nil {
			d.bad(fmt.Sprintf("hooks.allowlist.tokens[%d]", i), "%v", err)
		}
		al.Tokens = append(al.Tokens, v)
	}
	for i, s := range a.Contracts {
		v, err := tool.ParseAddress(s)
		if err != nil {
			d.bad(fmt.Sprintf("hooks.allowlist.contracts[%d]", i), "%v", err)
		}
		al.Contracts = append(al.Contracts, v)
	}
	for i, s := range a.Selectors {
		v, err := hook.ParseSelector(s)
		if err != nil {
			d.bad(fmt.Sprintf("hooks.allowlist.selectors[%d]", i), "%v", err)
		}
		al.Selectors = append(al.Selectors, v)
	}
}

// checkHooks lets the hooks validate their own configs in h (for example
// an Any flag together with a list).
func (d *sections) checkHooks(h hook.Config) {
	if _, err := hook.NewAllowlist(h.Allowlist); err != nil {
		d.bad("hooks.allowlist", "%v", err)
	}
	if _, err := hook.NewSpendingLimiter(h.Spending); err != nil {
		d.bad("hooks.spending", "%v", err)
	}
	if _, err := hook.NewRateLimiter(h.Rate); err != nil {
		d.bad("hooks.rate", "%v", err)
	}
	if _, err := hook.NewResultFilter(h.Filter); err != nil {
		d.bad("hooks.filter", "%v", err)
	}
}
