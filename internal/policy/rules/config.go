// Package rules builds ward's policy: the six built-in rule families of
// seed 003 (authority, command safety, financial, path protection, rate
// limits, validation) and user rules written in CEL, compiled from one
// Config into an immutable policy.Snapshot.
//
// The zero Config is the strictest policy (every treasury limit zero, so no
// money moves); DefaultConfig returns the seed's defaults, which ward.toml
// overrides key by key. Every built-in rule can be disabled, re-prioritised
// or pointed at other tools (Config.Builtin), and the tools each family
// watches and the argument names it reads are configurable.
package rules

import (
	"encoding/json"
	"time"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// Config is a policy's complete, plain description.
type Config struct {
	// DisableBuiltin drops every built-in rule: only Rules remain.
	DisableBuiltin bool `json:"disable_builtin"`
	// Tools declares the tools the policy knows (category, risk, tier); for
	// these, the declaration wins over what a caller claims.
	Tools    []ToolSpec          `json:"tools"`
	Treasury Treasury            `json:"treasury"`
	Commands Commands            `json:"commands"`
	Paths    Paths               `json:"paths"`
	Limits   []RateLimit         `json:"rate_limits"`
	Validate []Validation        `json:"validate"`
	Args     ArgNames            `json:"args"`
	Builtin  map[string]Override `json:"builtin"`
	// Provenance configures the trust rules (which arguments need trusted
	// provenance in any session).
	Provenance Provenance `json:"provenance,omitzero"`
	Rules      []UserRule `json:"rules"`
	// CELCostLimit bounds the runtime cost of one CEL rule evaluation;
	// exceeding it denies the call. Zero means DefaultCELCostLimit.
	CELCostLimit uint64 `json:"cel_cost_limit"`
	// Resolver resolves symlinks for the path rules, with a cache; nil
	// resolves on every call. It is not part of the policy (or its hash).
	Resolver *Resolver `json:"-"`
	// Self describes the running ward, whose own files the policy
	// protects. It is a fact of the deployment, not of the policy, so it
	// is not part of the policy's hash.
	Self Self `json:"-"`
	// ToolParams returns the JSON schema of a tool's parameters, nil for
	// a tool it does not know. Command safety reads it to find the
	// parameters of any tool that carry a command (shell.CommandParams);
	// without it, or for an unknown tool, it reads the names and types of
	// a call's arguments instead. It must be safe for concurrent use and
	// return the same schema for a name every time. The daemon sets it
	// from its tool registry; it is not part of the policy (or its hash).
	ToolParams func(tool string) json.RawMessage `json:"-"`
	// ArgSchemas returns the JSON schema of a tool's parameters when it is
	// known as the policy compiles (ward's catalogue, the pinned tools of
	// upstream servers), nil otherwise. A CEL rule whose selector names
	// only such tools is type-checked against their parameters, so that
	// args.amount > "5" on an integer amount fails to compile instead of
	// denying every call at run time (argtypes.go). Not part of the hash.
	ArgSchemas func(tool string) json.RawMessage `json:"-"`
}

// Self is what ward knows of itself when it runs: where its files are.
// Commands may not delete, move, overwrite, truncate or edit them (nor a
// directory holding them), the files in DataDir may not be read either,
// and the path rules treat them the same way.
type Self struct {
	// DataDir is ward's data directory (its database and keys): an
	// absolute path, or empty.
	DataDir string
	// Files are the configuration and policy files ward loaded (ward.toml):
	// absolute paths.
	Files []string
}

// ToolSpec declares one tool to the policy.
type ToolSpec struct {
	Name     string        `json:"name"`
	Category tool.Category `json:"category"`
	Risk     tool.Risk     `json:"risk"`
	Tier     tool.Tier     `json:"tier"`
}

// Treasury is the seed's TreasuryPolicy, in cents, plus the tools each
// spending limit watches.
type Treasury struct {
	MaxTransferPerPaymentCents    int64    `json:"max_transfer_per_payment_cents"`
	MaxTransferHourlyCents        int64    `json:"max_transfer_hourly_cents"`
	MaxTransferDailyCents         int64    `json:"max_transfer_daily_cents"`
	MinReserveCents               int64    `json:"min_reserve_cents"`
	MaxX402PerRequestCents        int64    `json:"max_x402_per_request_cents"`
	MaxX402HourlyCents            int64    `json:"max_x402_hourly_cents"`
	MaxX402DailyCents             int64    `json:"max_x402_daily_cents"`
	X402AllowedDomains            []string `json:"x402_allowed_domains"`
	MaxInferenceDailyCents        int64    `json:"max_inference_daily_cents"`
	MaxTransfersPerTurn           int      `json:"max_transfers_per_turn"`
	RequireConfirmationAboveCents int64    `json:"require_confirmation_above_cents"`
	// QuarantineUntrustedAboveCents is the value above which a previewed
	// write that pays or lets spend an address the agent supplied without
	// trusted provenance (not the owner's address book, directive or a
	// trusted tool's output) waits for the owner; an unpriced one always
	// waits. Zero, the strictest, holds every such write worth anything.
	// It applies to every tool of ward's catalogue by its plan, whatever
	// its name (financial.untrusted-recipient).
	QuarantineUntrustedAboveCents int64 `json:"quarantine_untrusted_above_cents"`
	// AllowInsecureX402 permits plain-http x402 URLs.
	AllowInsecureX402 bool `json:"allow_insecure_x402"`

	TransferTools []string `json:"transfer_tools"`
	X402Tools     []string `json:"x402_tools"`
	// InferenceCategories are the categories of tools whose cost counts
	// against the daily inference budget.
	InferenceCategories []tool.Category `json:"inference_categories"`
}

// Commands configures command safety.
type Commands struct {
	// Tools run shell commands: their command argument (ArgNames.Command)
	// is required and analysed. The commands of any other tool are
	// analysed too, found by the role of its parameters (see
	// Config.ToolParams).
	Tools []string `json:"tools"`
	// ProcessNames are the agent's own processes, which it may not kill.
	ProcessNames []string `json:"process_names"`
	// ForbiddenPatterns are extra regular expressions (RE2) that deny a
	// command when they match it.
	ForbiddenPatterns []string `json:"forbidden_patterns"`
	// SelfModTools are rate limited together to SelfModPerHour executions
	// in any 60 minutes.
	SelfModTools   []string `json:"self_mod_tools"`
	SelfModPerHour int      `json:"self_mod_per_hour"`
	// Protect are files and directories that are the agent's own (its
	// code, prompts, safety configuration), which commands may not delete,
	// move, overwrite, truncate, edit or change the permissions of (nor a
	// directory holding them): absolute, starting with "~/", or relative
	// to Paths.Root. ward's data directory and configuration file are
	// protected without being listed (Config.Self).
	Protect []string `json:"protect"`
}

// Paths configures path protection.
type Paths struct {
	// Root is the agent's root directory when a call does not say (a
	// request's workdir wins); empty means ward's working directory.
	Root string `json:"root"`
	// Home is what "~" expands to; empty means the user's home directory.
	Home string `json:"home"`
	// AllowedRoots are further directories file tools may reach.
	AllowedRoots []string `json:"allowed_roots"`
	// WriteProtected and ReadSensitive are glob patterns (see PathPattern)
	// added to the built-in lists.
	WriteProtected []string `json:"write_protected"`
	ReadSensitive  []string `json:"read_sensitive"`
	// WriteTools, ReadTools and RootTools are the tools each path rule
	// watches.
	WriteTools []string `json:"write_tools"`
	ReadTools  []string `json:"read_tools"`
	RootTools  []string `json:"root_tools"`
}

// RateLimit caps executed calls of the selected tools per turn, per session
// or per sliding window.
type RateLimit struct {
	ID        string          `json:"id"`
	Priority  int             `json:"priority"`
	AppliesTo policy.Selector `json:"applies_to"`
	// Scope is "turn", "session" or "window".
	Scope  string        `json:"scope"`
	Window time.Duration `json:"window"`
	// Max is the number of executed calls allowed; the call that would
	// exceed it is denied.
	Max     int         `json:"max"`
	Code    reason.Code `json:"reason_code"`
	Message string      `json:"message"`
}

// Validation checks the format of arguments of the selected tools.
type Validation struct {
	Tools []string `json:"tools"`
	Args  []string `json:"args"`
	// Kind is one of npm_package, url, address, git_hash, port, cron,
	// shell_safe.
	Kind string `json:"kind"`
	// Required makes a missing argument a deny.
	Required bool `json:"required"`
}

// ArgNames lists the argument names (alternative spellings) rules read.
// Where a call carries two spellings with different values it is denied as
// ambiguous: a handler might read the other one.
type ArgNames struct {
	Amount        []string `json:"amount"`
	X402Amount    []string `json:"x402_amount"`
	InferenceCost []string `json:"inference_cost"`
	URL           []string `json:"url"`
	Path          []string `json:"path"`
	Command       []string `json:"command"`
}

// Override adjusts one built-in rule.
type Override struct {
	Disabled  bool             `json:"disabled"`
	Priority  *int             `json:"priority,omitempty"`
	AppliesTo *policy.Selector `json:"applies_to,omitempty"`
}

// UserRule is a rule written in CEL.
type UserRule struct {
	ID        string          `json:"id"`
	Priority  int             `json:"priority"`
	AppliesTo policy.Selector `json:"applies_to"`
	When      string          `json:"when"`
	Action    policy.Action   `json:"action"`
	Code      reason.Code     `json:"reason_code"`
	Message   string          `json:"message"`
}

// DefaultCELCostLimit bounds one CEL rule evaluation when the policy does
// not say otherwise.
const DefaultCELCostLimit = 10_000

// DefaultConfig returns the seed's defaults.
func DefaultConfig() Config {
	return Config{
		Tools: []ToolSpec{
			{Name: "exec", Category: "vm", Risk: tool.Caution, Tier: tool.Write},
			{Name: "read_file", Category: "vm", Risk: tool.Safe, Tier: tool.Read},
			{Name: "write_file", Category: "vm", Risk: tool.Caution, Tier: tool.Write},
			{Name: "edit_own_file", Category: "self_mod", Risk: tool.Dangerous, Tier: tool.Write},
			{Name: "install_npm_package", Category: "self_mod", Risk: tool.Dangerous, Tier: tool.Write},
			{Name: "transfer_credits", Category: "financial", Risk: tool.Dangerous, Tier: tool.Write},
			{Name: "x402_fetch", Category: "financial", Risk: tool.Dangerous, Tier: tool.Write},
			{Name: "create_sandbox", Category: "conway", Risk: tool.Caution, Tier: tool.Write},
			{Name: "delete_sandbox", Category: "conway", Risk: tool.Dangerous, Tier: tool.Write},
			{Name: "spawn_child", Category: "replication", Risk: tool.Dangerous, Tier: tool.Write},
			{Name: "inference", Category: "inference", Risk: tool.Caution, Tier: tool.Write},
			{Name: "chat_completion", Category: "inference", Risk: tool.Caution, Tier: tool.Write},
		},
		Treasury: Treasury{
			MaxTransferPerPaymentCents:    1000,
			MaxTransferHourlyCents:        5000,
			MaxTransferDailyCents:         20000,
			MinReserveCents:               50,
			MaxX402PerRequestCents:        500,
			MaxX402HourlyCents:            2000,
			MaxX402DailyCents:             10000,
			X402AllowedDomains:            []string{"*.conway.tech"},
			MaxInferenceDailyCents:        10000,
			MaxTransfersPerTurn:           2,
			RequireConfirmationAboveCents: 1000,
			QuarantineUntrustedAboveCents: 10000,
			TransferTools:                 []string{"transfer_credits"},
			X402Tools:                     []string{"x402_fetch"},
			InferenceCategories:           []tool.Category{"inference"},
		},
		Commands: Commands{
			Tools:          []string{"exec"},
			ProcessNames:   []string{"ward", "automaton", "conway-agent"},
			SelfModTools:   []string{"edit_own_file", "install_npm_package"},
			SelfModPerHour: 10,
		},
		Paths: Paths{
			WriteTools: []string{"write_file", "edit_own_file"},
			ReadTools:  []string{"read_file"},
			RootTools:  []string{"read_file", "write_file", "edit_own_file"},
		},
		Limits: []RateLimit{
			{
				ID: "rate-limits.expensive-per-turn", Priority: 40,
				AppliesTo: policy.Categories("conway", "replication"),
				Scope:     "turn", Max: 20,
				Code: "PER_TURN_LIMIT_EXCEEDED", Message: "too many expensive tool calls in this turn (max 20)",
			},
			{
				ID: "rate-limits.sandbox-ops-per-session", Priority: 50,
				AppliesTo: policy.Names("create_sandbox", "delete_sandbox"),
				Scope:     "session", Max: 10,
				Code: "SESSION_LIMIT_EXCEEDED", Message: "too many sandbox operations in this session (max 10)",
			},
		},
		Validate: []Validation{
			{Tools: []string{"install_npm_package"}, Args: []string{"package_name", "packageName", "package"}, Kind: "npm_package", Required: true},
			{Tools: []string{"install_npm_package"}, Args: []string{"package_name", "packageName", "package"}, Kind: "shell_safe"},
			{Tools: []string{"x402_fetch"}, Args: []string{"url"}, Kind: "url", Required: true},
			{Tools: []string{"transfer_credits"}, Args: []string{"to_address", "toAddress", "to", "recipient"}, Kind: "address"},
			{Tools: []string{"git_checkout", "git_reset", "git_show"}, Args: []string{"commit", "hash", "sha", "ref"}, Kind: "git_hash"},
			{Tools: []string{"expose_port", "open_port", "start_server"}, Args: []string{"port"}, Kind: "port", Required: true},
			{Tools: []string{"schedule_task", "create_cron", "set_heartbeat"}, Args: []string{"schedule", "cron", "cron_expression"}, Kind: "cron", Required: true},
			{Tools: []string{"git_clone"}, Args: []string{"url", "repo"}, Kind: "url", Required: true},
		},
		Args: ArgNames{
			Amount:        []string{"amount_cents", "amountCents"},
			X402Amount:    []string{"max_payment_cents", "maxPaymentCents", "amount_cents", "amountCents"},
			InferenceCost: []string{"estimated_cost_cents", "cost_cents", "costCents"},
			URL:           []string{"url"},
			Path:          []string{"path", "file_path", "filePath"},
			Command:       []string{"command", "cmd"},
		},
		CELCostLimit: DefaultCELCostLimit,
	}
}
