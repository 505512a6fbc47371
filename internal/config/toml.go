package config

import (
	"fmt"
	"slices"
	"time"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// The TOML shape of ward.toml. Pointers tell an absent key (keep the
// default) from a present one.
type fileTOML struct {
	Policy *policyTOML `toml:"policy"`
	Store  *storeTOML  `toml:"store"`
	Tools  *toolsTOML  `toml:"tools"`
	// Chain is [chain] (one table) or [[chain]] (several): chain.go.
	Chain any        `toml:"chain"`
	Gate  *gateTOML  `toml:"gate"`
	Hooks *hooksTOML `toml:"hooks"`
	// Upstream are the [[upstream]] MCP servers (upstream.go).
	Upstream []upstreamTOML `toml:"upstream"`
	// WASMTool are the [[wasm_tool]] modules served as tools (wasm.go).
	WASMTool []wasmToolTOML `toml:"wasm_tool"`
	// Trust configures reviewers, the judge and the address book (trust.go).
	Trust *trustTOML `toml:"trust"`
	// Grimoire configures knowledge ingestion (grimoire.go).
	Grimoire *grimoireTOML `toml:"grimoire"`
	// Sessions and Audit (sessions.go).
	Sessions *sessionsTOML `toml:"sessions"`
	Audit    *auditTOML    `toml:"audit"`
	// Telemetry is [telemetry] (telemetry.go).
	Telemetry *telemetryTOML `toml:"telemetry"`
	// Relay is [relay] (relay.go).
	Relay *relayTOML `toml:"relay"`
	// Streaming is [streaming] (streaming.go).
	Streaming *streamingTOML `toml:"streaming"`
}

type storeTOML struct {
	Path        *string `toml:"path"`
	Synchronous *string `toml:"synchronous"`
	URL         *string `toml:"url"`
}

type policyTOML struct {
	BuiltinRules *bool                   `toml:"builtin_rules"`
	CELCostLimit *int64                  `toml:"cel_cost_limit"`
	Treasury     *treasuryTOML           `toml:"treasury"`
	Commands     *commandsTOML           `toml:"commands"`
	Paths        *pathsTOML              `toml:"paths"`
	Args         *argsTOML               `toml:"args"`
	Tools        []toolTOML              `toml:"tools"`
	RateLimits   []rateLimitTOML         `toml:"rate_limits"`
	Validate     []validateTOML          `toml:"validate"`
	Builtin      map[string]overrideTOML `toml:"builtin"`
	Rules        []ruleTOML              `toml:"rules"`
	Provenance   *provenanceTOML         `toml:"provenance"`
}

type provenanceTOML struct {
	Require map[string][]string `toml:"require"`
}

type treasuryTOML struct {
	MaxTransferPerPaymentCents    *int64    `toml:"max_transfer_per_payment_cents"`
	MaxTransferHourlyCents        *int64    `toml:"max_transfer_hourly_cents"`
	MaxTransferDailyCents         *int64    `toml:"max_transfer_daily_cents"`
	MinReserveCents               *int64    `toml:"min_reserve_cents"`
	MaxX402PerRequestCents        *int64    `toml:"max_x402_per_request_cents"`
	MaxX402HourlyCents            *int64    `toml:"max_x402_hourly_cents"`
	MaxX402DailyCents             *int64    `toml:"max_x402_daily_cents"`
	X402AllowedDomains            *[]string `toml:"x402_allowed_domains"`
	MaxInferenceDailyCents        *int64    `toml:"max_inference_daily_cents"`
	MaxTransfersPerTurn           *int64    `toml:"max_transfers_per_turn"`
	RequireConfirmationAboveCents *int64    `toml:"require_confirmation_above_cents"`
	QuarantineUntrustedAboveCents *int64    `toml:"quarantine_untrusted_above_cents"`
	AllowInsecureX402             *bool     `toml:"allow_insecure_x402"`
	TransferTools                 *[]string `toml:"transfer_tools"`
	X402Tools                     *[]string `toml:"x402_tools"`
	InferenceCategories           *[]string `toml:"inference_categories"`
}

type commandsTOML struct {
	Tools             *[]string `toml:"tools"`
	ProcessNames      *[]string `toml:"process_names"`
	ForbiddenPatterns *[]string `toml:"forbidden_patterns"`
	SelfModTools      *[]string `toml:"self_mod_tools"`
	SelfModPerHour    *int64    `toml:"self_mod_per_hour"`
	Protect           *[]string `toml:"protect"`
}

type pathsTOML struct {
	Root           *string   `toml:"root"`
	Home           *string   `toml:"home"`
	AllowedRoots   *[]string `toml:"allowed_roots"`
	WriteProtected *[]string `toml:"write_protected"`
	ReadSensitive  *[]string `toml:"read_sensitive"`
	WriteTools     *[]string `toml:"write_tools"`
	ReadTools      *[]string `toml:"read_tools"`
	RootTools      *[]string `toml:"root_tools"`
}

type argsTOML struct {
	Amount        *[]string `toml:"amount"`
	X402Amount    *[]string `toml:"x402_amount"`
	InferenceCost *[]string `toml:"inference_cost"`
	URL           *[]string `toml:"url"`
	Path          *[]string `toml:"path"`
	Command       *[]string `toml:"command"`
}

type selectorTOML struct {
	By         string   `toml:"by"`
	Names      []string `toml:"names"`
	Categories []string `toml:"categories"`
	Levels     []string `toml:"levels"`
}

type toolTOML struct {
	Name     string `toml:"name"`
	Category string `toml:"category"`
	Risk     string `toml:"risk"`
	Tier     string `toml:"tier"`
}

type rateLimitTOML struct {
	ID         string        `toml:"id"`
	Priority   *int64        `toml:"priority"`
	AppliesTo  *selectorTOML `toml:"applies_to"`
	Scope      string        `toml:"scope"`
	Window     string        `toml:"window" shape:"duration"`
	Max        *int64        `toml:"max"`
	ReasonCode string        `toml:"reason_code"`
	Message    string        `toml:"message"`
}

type validateTOML struct {
	Tools    []string `toml:"tools"`
	Args     []string `toml:"args"`
	Kind     string   `toml:"kind"`
	Required bool     `toml:"required"`
}

type overrideTOML struct {
	Enabled   *bool         `toml:"enabled"`
	Priority  *int64        `toml:"priority"`
	AppliesTo *selectorTOML `toml:"applies_to"`
}

type ruleTOML struct {
	ID         string        `toml:"id"`
	Priority   *int64        `toml:"priority"`
	AppliesTo  *selectorTOML `toml:"applies_to"`
	When       string        `toml:"when"`
	Action     string        `toml:"action"`
	ReasonCode string        `toml:"reason_code"`
	Message    string        `toml:"message"`
}

// DefaultRulePriority is the priority of a user rule that does not set one.
const DefaultRulePriority = 100

// merger applies a policyTOML over the defaults, collecting errors with
// their key paths (relative to [policy]) and remembering where merged list
// entries came from in the file.
type merger struct {
	errs rules.Errors
	// origin maps a list name and merged index to the index of the entry in
	// the file; entries from the defaults have none.
	origin map[string]map[int]int
}

func newMerger() *merger { return &merger{origin: map[string]map[int]int{}} }

func (m *merger) errorf(path, format string, args ...any) {
	m.errs = append(m.errs, &rules.Error{Path: path, Msg: fmt.Sprintf(format, args...)})
}

func (m *merger) from(list string, merged, file int) {
	if m.origin[list] == nil {
		m.origin[list] = map[int]int{}
	}
	m.origin[list][merged] = file
}

// fileIndex translates a merged list index back to the file's index.
func (m *merger) fileIndex(list string, merged int) (int, bool) {
	i, ok := m.origin[list][merged]
	return i, ok
}

func set[T any](dst *T, src *T) {
	if src != nil {
		*dst = *src
	}
}

func (m *merger) policy(p *policyTOML) rules.Config {
	cfg := rules.DefaultConfig()
	if p == nil {
		return cfg
	}
	if p.BuiltinRules != nil {
		cfg.DisableBuiltin = !*p.BuiltinRules
	}
	if p.Provenance != nil {
		cfg.Provenance.Require = p.Provenance.Require
	}
	if p.CELCostLimit != nil {
		if *p.CELCostLimit <= 0 {
			m.errorf("cel_cost_limit", "must be positive")
		} else {
			cfg.CELCostLimit = uint64(*p.CELCostLimit)
		}
	}
	policyTables(&cfg, p)
	m.policyTools(&cfg, p)
	m.rateLimits(&cfg, p)
	m.policyRules(&cfg, p)
	return cfg
}

// policyTables merges the tables of plain values: treasury, commands,
// paths and argument names.
func policyTables(cfg *rules.Config, p *policyTOML) {
	if t := p.Treasury; t != nil {
		c := &cfg.Treasury
		set(&c.MaxTransferPerPaymentCents, t.MaxTransferPerPaymentCents)
		set(&c.MaxTransferHourlyCents, t.MaxTransferHourlyCents)
		set(&c.MaxTransferDailyCents, t.MaxTransferDailyCents)
		set(&c.MinReserveCents, t.MinReserveCents)
		set(&c.MaxX402PerRequestCents, t.MaxX402PerRequestCents)
		set(&c.MaxX402HourlyCents, t.MaxX402HourlyCents)
		set(&c.MaxX402DailyCents, t.MaxX402DailyCents)
		set(&c.X402AllowedDomains, t.X402AllowedDomains)
		set(&c.MaxInferenceDailyCents, t.MaxInferenceDailyCents)
		set(&c.RequireConfirmationAboveCents, t.RequireConfirmationAboveCents)
		set(&c.QuarantineUntrustedAboveCents, t.QuarantineUntrustedAboveCents)
		set(&c.AllowInsecureX402, t.AllowInsecureX402)
		set(&c.TransferTools, t.TransferTools)
		set(&c.X402Tools, t.X402Tools)
		if t.MaxTransfersPerTurn != nil {
			c.MaxTransfersPerTurn = int(*t.MaxTransfersPerTurn)
		}
		if t.InferenceCategories != nil {
			c.InferenceCategories = categories(*t.InferenceCategories)
		}
	}
	if c := p.Commands; c != nil {
		set(&cfg.Commands.Tools, c.Tools)
		set(&cfg.Commands.ProcessNames, c.ProcessNames)
		set(&cfg.Commands.ForbiddenPatterns, c.ForbiddenPatterns)
		set(&cfg.Commands.SelfModTools, c.SelfModTools)
		set(&cfg.Commands.Protect, c.Protect)
		if c.SelfModPerHour != nil {
			cfg.Commands.SelfModPerHour = int(*c.SelfModPerHour)
		}
	}
	if c := p.Paths; c != nil {
		d := &cfg.Paths
		set(&d.Root, c.Root)
		set(&d.Home, c.Home)
		set(&d.AllowedRoots, c.AllowedRoots)
		set(&d.WriteProtected, c.WriteProtected)
		set(&d.ReadSensitive, c.ReadSensitive)
		set(&d.WriteTools, c.WriteTools)
		set(&d.ReadTools, c.ReadTools)
		set(&d.RootTools, c.RootTools)
	}
	if a := p.Args; a != nil {
		d := &cfg.Args
		set(&d.Amount, a.Amount)
		set(&d.X402Amount, a.X402Amount)
		set(&d.InferenceCost, a.InferenceCost)
		set(&d.URL, a.URL)
		set(&d.Path, a.Path)
		set(&d.Command, a.Command)
	}
}

// policyTools merges [[policy.tools]]: a tool of the defaults is replaced
// by the one of the same name.
func (m *merger) policyTools(cfg *rules.Config, p *policyTOML) {
	for i, t := range p.Tools {
		path := fmt.Sprintf("tools.%d", i)
		spec := rules.ToolSpec{Name: t.Name, Category: tool.Category(t.Category)}
		var err error
		if spec.Risk, err = tool.ParseRisk(t.Risk); err != nil {
			m.errorf(path+".risk", "%v", err)
		}
		if t.Tier != "" {
			if spec.Tier, err = tool.ParseTier(t.Tier); err != nil {
				m.errorf(path+".tier", "%v", err)
			}
		}
		if j := slices.IndexFunc(cfg.Tools, func(s rules.ToolSpec) bool { return s.Name == t.Name }); j >= 0 {
			cfg.Tools[j] = spec
			m.from("tools", j, i)
		} else {
			cfg.Tools = append(cfg.Tools, spec)
			m.from("tools", len(cfg.Tools)-1, i)
		}
	}
}

// rateLimits merges [[policy.rate_limits]] after the defaults.
func (m *merger) rateLimits(cfg *rules.Config, p *policyTOML) {
	for i, l := range p.RateLimits {
		path := fmt.Sprintf("rate_limits.%d", i)
		rl := rules.RateLimit{ID: l.ID, Scope: l.Scope, Code: reason.Code(l.ReasonCode), Message: l.Message}
		if l.Priority != nil {
			rl.Priority = int(*l.Priority)
		} else {
			rl.Priority = DefaultRulePriority
		}
		rl.AppliesTo = m.selector(path+".applies_to", l.AppliesTo)
		if l.Max == nil {
			m.errorf(path+".max", "a rate limit needs max")
		} else {
			rl.Max = int(*l.Max)
		}
		if l.Window != "" {
			d, err := time.ParseDuration(l.Window)
			if err != nil {
				m.errorf(path+".window", "invalid duration %q (for example \"90s\", \"1h\")", l.Window)
			}
			rl.Window = d
		}
		if rl.Code == "" {
			rl.Code = reason.WindowRateLimit
			switch rl.Scope {
			case "turn":
				rl.Code = reason.PerTurnLimit
			case "session":
				rl.Code = reason.SessionLimit
			}
		}
		if rl.Message == "" {
			rl.Message = fmt.Sprintf("rate limit %s reached (max %d)", rl.ID, rl.Max)
		}
		cfg.Limits = append(cfg.Limits, rl)
		m.from("rate_limits", len(cfg.Limits)-1, i)
	}
}

// policyRules merges [[policy.validate]], [policy.builtin.ID] overrides
// and the user's [[policy.rules]].
func (m *merger) policyRules(cfg *rules.Config, p *policyTOML) {
	for i, v := range p.Validate {
		cfg.Validate = append(cfg.Validate, rules.Validation{Tools: v.Tools, Args: v.Args, Kind: v.Kind, Required: v.Required})
		m.from("validate", len(cfg.Validate)-1, i)
	}
	if len(p.Builtin) > 0 {
		cfg.Builtin = make(map[string]rules.Override, len(p.Builtin))
		for id, o := range p.Builtin {
			path := "builtin." + id
			ov := rules.Override{Disabled: o.Enabled != nil && !*o.Enabled}
			if o.Priority != nil {
				n := int(*o.Priority)
				ov.Priority = &n
			}
			if o.AppliesTo != nil {
				sel := m.selector(path+".applies_to", o.AppliesTo)
				ov.AppliesTo = &sel
			}
			cfg.Builtin[id] = ov
		}
	}
	for i, r := range p.Rules {
		path := fmt.Sprintf("rules.%d", i)
		u := rules.UserRule{ID: r.ID, When: r.When, Code: reason.Code(r.ReasonCode), Message: r.Message, Priority: DefaultRulePriority}
		if r.Priority != nil {
			u.Priority = int(*r.Priority)
		}
		u.AppliesTo = m.selector(path+".applies_to", r.AppliesTo)
		if r.Action == "" {
			m.errorf(path+".action", "a rule needs an action (allow, quarantine or deny)")
		} else if a, err := policy.ParseAction(r.Action); err != nil {
			m.errorf(path+".action", "%v", err)
		} else {
			u.Action = a
		}
		cfg.Rules = append(cfg.Rules, u)
	}
}

func categories(in []string) []tool.Category {
	out := make([]tool.Category, len(in))
	for i, c := range in {
		out[i] = tool.Category(c)
	}
	return out
}

func (m *merger) selector(path string, s *selectorTOML) policy.Selector {
	if s == nil {
		return policy.All()
	}
	by, err := policy.ParseSelectBy(s.By)
	if s.By == "" {
		by, err = policy.SelectAll, nil
		if len(s.Names)+len(s.Categories)+len(s.Levels) > 0 {
			m.errorf(path+".by", "say what the lists select by: by = \"name\", \"category\" or \"risk\"")
		}
	}
	if err != nil {
		m.errorf(path+".by", "%v", err)
		return policy.All()
	}
	sel := policy.Selector{By: by}
	check := func(key string, want policy.SelectBy, n int) {
		if n > 0 && by != want {
			m.errorf(path+"."+key, "%s is only used with by = %q", key, want)
		}
	}
	check("names", policy.SelectName, len(s.Names))
	check("categories", policy.SelectCategory, len(s.Categories))
	check("levels", policy.SelectRisk, len(s.Levels))
	switch by {
	case policy.SelectName:
		sel.Names = s.Names
	case policy.SelectCategory:
		sel.Categories = categories(s.Categories)
	case policy.SelectRisk:
		for j, l := range s.Levels {
			r, err := tool.ParseRisk(l)
			if err != nil {
				m.errorf(fmt.Sprintf("%s.levels.%d", path, j), "%v", err)
				continue
			}
			sel.Risks = append(sel.Risks, r)
		}
	}
	return sel
}
