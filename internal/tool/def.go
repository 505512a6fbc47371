package tool

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Def describes one tool (seed 002's ToolDef): what the model reads about
// it, how it is gated, and the JSON schemas of its parameters and result.
// A Def is immutable once registered.
type Def struct {
	// Name follows <prefix>_<action>_<subject> (see ValidDefName).
	Name string `json:"name"`
	// Description is written for the model: when to call the tool, what it
	// returns, what it does not do.
	Description string `json:"description"`
	// Category is one of the 17 DeFi categories (Categories); it drives
	// profile filtering.
	Category Category `json:"category"`
	// Tier decides the handler's signature: read, write or privileged.
	Tier Tier `json:"tier"`
	// RiskTier is Layer1 (read), Layer2 (bounded write) or Layer3
	// (unbounded write; blocked from the conservation phase down).
	RiskTier RiskTier `json:"risk_tier"`
	// Budget bounds one execution of the handler.
	Budget Budget `json:"tick_budget"`
	// ProgressSteps name the handler's steps; each is announced as a
	// tool:update event.
	ProgressSteps []string `json:"progress_steps,omitempty"`
	// Chains lists the chain IDs the tool supports; empty means any.
	Chains []uint64 `json:"supported_chains,omitempty"`
	// PromptSnippet (20-50 tokens) and PromptGuidelines are shown to the
	// model with the tool.
	PromptSnippet    string   `json:"prompt_snippet,omitempty"`
	PromptGuidelines []string `json:"prompt_guidelines,omitempty"`
	// Params and Result are JSON schemas (draft 2020-12) of the arguments
	// and of the result's data.
	Params json.RawMessage `json:"params_schema"`
	Result json.RawMessage `json:"result_schema,omitempty"`
	// OutputSchema is the JSON schema an upstream MCP tool declares for
	// its structured content (MCP's outputSchema; Result describes the
	// whole of a native tool's data instead). Set only when it compiles
	// like Params (schema.Compile); empty when the tool declares none or
	// declares one ward cannot use, so its output is not validated.
	OutputSchema json.RawMessage `json:"output_schema,omitempty"`
	// SchemaVersion is the version of Params and Result, from 1.
	SchemaVersion uint32 `json:"schema_version"`
	// Effect is what a write does to the agent's positions; the phase gate
	// decides by it. Reads have EffectNone.
	Effect Effect `json:"effect,omitempty"`
	// Risk is the level the policy engine sees (seed 003): reads are safe,
	// writes dangerous unless the tool says otherwise.
	Risk Risk `json:"risk,omitempty"`
	// ThirdParty marks a tool whose output is third-party content (token
	// names, web pages, listings).
	ThirdParty bool `json:"third_party_content,omitempty"`
	// Egress marks a tool that sends data out of ward (a message, an email,
	// an HTTP request, a transfer's memo): a tainted session is held to it
	// like to a state-changing call.
	Egress bool `json:"egress,omitempty"`
	// ProvenanceArgs, when set, are the arguments that must have trusted
	// provenance once the session is tainted; otherwise ward derives them
	// from the parameter schema (names, descriptions, types).
	ProvenanceArgs []string `json:"provenance_args,omitempty"`
	// SystemFields, for a tool whose output is third-party content, are the
	// places in its JSON output that the service itself produces (ids,
	// names and lists it generates, the sender it authenticated) rather
	// than a third party: JSON Pointers ("/messages/*/sender") in which "*"
	// is any array index or object key. Their values are trusted output,
	// unless they have instruction-like text; the rest of the output stays
	// third-party. Set by a native tool's definition or, for an upstream
	// tool, only by the operator's config (a server's word is not enough).
	SystemFields []string `json:"system_fields,omitempty"`
	// Requires lists the capabilities (wallet, uniswap_api, memory) the
	// tool needs to be registered at all.
	Requires []Requirement `json:"requires,omitempty"`
	// Unhalted marks a privileged tool that only takes power away (the
	// revocation of a session key): a halt of writes does not stop it,
	// since refusing it would keep in force the power the owner is
	// taking back. Every other check still applies. Only a privileged
	// tool may set it (Validate).
	Unhalted bool `json:"unhalted,omitempty"`
}

// FormatPath is the "format" annotation a parameter schema gives a string
// (or the items of an array) that is a file-system path: the policy's path
// rules check such a parameter of any tool, whatever its name. JSON Schema
// treats an unknown format as an annotation, so validators ignore it.
const FormatPath = "path"

// FormatCommand is the "format" annotation of a parameter that is a
// command line (a string), an argument vector (an array of strings), or
// command lines (an array whose items carry it): the policy's command
// rules analyse it in any tool, whatever its name or description.
const FormatCommand = "command"

// Ref returns what the policy sees of the tool.
func (d *Def) Ref() Ref {
	r := d.Risk
	if r == RiskUnset {
		switch d.Tier.Effective() {
		case Read:
			r = Safe
		default:
			r = Dangerous
		}
	}
	return Ref{Name: d.Name, Category: d.Category, Risk: r, Tier: d.Tier}
}

// SupportsChain reports whether the tool runs on chain id.
func (d *Def) SupportsChain(id uint64) bool {
	return len(d.Chains) == 0 || slices.Contains(d.Chains, id)
}

// Validate reports the first way d is not a usable definition.
func (d *Def) Validate() error {
	switch {
	case !ValidDefName(d.Name):
		return fmt.Errorf("tool %q: name must be <prefix>_<action>_<subject> in lower case with a known prefix", d.Name)
	case strings.TrimSpace(d.Description) == "":
		return fmt.Errorf("tool %s: no description", d.Name)
	case !slices.Contains(Categories(), d.Category):
		return fmt.Errorf("tool %s: category %q is not one of the 17", d.Name, d.Category)
	case d.Tier == TierUnset || d.Tier > Privileged:
		return fmt.Errorf("tool %s: no capability tier", d.Name)
	case d.RiskTier == 0 || d.RiskTier > Layer3:
		return fmt.Errorf("tool %s: no risk tier", d.Name)
	case d.Tier == Read && d.RiskTier != Layer1:
		return fmt.Errorf("tool %s: a read tool is Layer1", d.Name)
	case d.Tier != Read && d.RiskTier == Layer1:
		return fmt.Errorf("tool %s: a write tool is Layer2 or Layer3", d.Name)
	case d.Tier != Read && d.Effect == EffectNone:
		return fmt.Errorf("tool %s: a write tool declares its effect (open, close, unwind, settle)", d.Name)
	case d.Unhalted && d.Tier != Privileged:
		return fmt.Errorf("tool %s: only a privileged tool may be unhalted", d.Name)
	case d.Budget == 0 || d.Budget > Slow:
		return fmt.Errorf("tool %s: no tick budget", d.Name)
	case d.SchemaVersion == 0:
		return fmt.Errorf("tool %s: schema_version starts at 1", d.Name)
	case len(d.Params) == 0 || !json.Valid(d.Params):
		return fmt.Errorf("tool %s: parameter schema missing or not JSON", d.Name)
	case len(d.Result) > 0 && !json.Valid(d.Result):
		return fmt.Errorf("tool %s: result schema is not JSON", d.Name)
	case len(d.OutputSchema) > 0 && !json.Valid(d.OutputSchema):
		return fmt.Errorf("tool %s: output schema is not JSON", d.Name)
	}
	for _, f := range d.SystemFields {
		if err := ValidFieldPath(f); err != nil {
			return fmt.Errorf("tool %s: system field %q: %w", d.Name, f, err)
		}
	}
	return nil
}

// ValidFieldPath checks a path of Def.SystemFields: a JSON Pointer of 1 to
// 16 non-empty segments ("/items/*/id"), or "/" for the whole output.
func ValidFieldPath(p string) error {
	if p == "/" {
		return nil
	}
	if !strings.HasPrefix(p, "/") {
		return errors.New(`want a JSON Pointer starting with "/"`)
	}
	segs := strings.Split(p[1:], "/")
	if len(segs) > 16 {
		return errors.New("more than 16 segments")
	}
	for _, s := range segs {
		if s == "" {
			return errors.New("an empty segment")
		}
	}
	return nil
}

// The 17 tool categories of seed 002.
const (
	CatData         Category = "data"
	CatTrading      Category = "trading"
	CatLending      Category = "lending"
	CatStaking      Category = "staking"
	CatRestaking    Category = "restaking"
	CatDerivatives  Category = "derivatives"
	CatYield        Category = "yield"
	CatLP           Category = "lp"
	CatVault        Category = "vault"
	CatSafety       Category = "safety"
	CatIntelligence Category = "intelligence"
	CatMemory       Category = "memory"
	CatIdentity     Category = "identity"
	CatWallet       Category = "wallet"
	CatStreaming    Category = "streaming"
	CatTestnet      Category = "testnet"
	CatBootstrap    Category = "bootstrap"
)

// Categories returns the 17 categories in the seed's order.
func Categories() []Category {
	return []Category{CatData, CatTrading, CatLending, CatStaking, CatRestaking, CatDerivatives,
		CatYield, CatLP, CatVault, CatSafety, CatIntelligence, CatMemory, CatIdentity, CatWallet,
		CatStreaming, CatTestnet, CatBootstrap}
}

// ProtocolPrefixes and SubsystemPrefixes are the name prefixes of seed 002
// (plus erc20_, weth_ and permit2_ for token-standard tools and the
// facade tools' own names, which FacadeNames lists).
var (
	ProtocolPrefixes  = []string{"uniswap", "aave", "morpho", "compound", "curve", "lido", "rocketpool", "eigenlayer", "pendle", "yearn", "ethena", "maker", "gmx", "panoptic", "erc20", "weth", "permit2", "chainlink"}
	SubsystemPrefixes = []string{"data", "safety", "intel", "memory", "identity", "wallet", "vault", "stream", "testnet", "bootstrap", "chain", "mcp"}
)

// FacadeNames are the 8 tools the model sees (seed 002's Pi-facing layer).
var FacadeNames = []string{"preview_action", "commit_action", "cancel_action", "emergency_halt",
	"query_state", "search_context", "query_grimoire", "update_directive"}

// ValidDefName reports whether name is <prefix>_<action>_<subject>: lower
// case ASCII words joined by '_', at least three words (vault_ tools may
// have two: vault_deposit), starting with a known prefix. The facade tools
// are valid names too.
func ValidDefName(name string) bool {
	if slices.Contains(FacadeNames, name) {
		return true
	}
	if len(name) > 64 {
		return false
	}
	words := strings.Split(name, "_")
	for _, w := range words {
		if w == "" {
			return false
		}
		for i := 0; i < len(w); i++ {
			c := w[i]
			if (c < 'a' || c > 'z') && (c < '0' || c > '9') {
				return false
			}
		}
	}
	if !slices.Contains(ProtocolPrefixes, words[0]) && !slices.Contains(SubsystemPrefixes, words[0]) {
		return false
	}
	return len(words) >= 3 || (len(words) == 2 && words[0] == "vault")
}

// RiskTier is seed 002's three-layer risk classification of a tool.
type RiskTier uint8

// Risk tiers. The zero value is invalid.
const (
	Layer1 RiskTier = iota + 1 // reads, quotes, balances
	Layer2                     // bounded writes: swaps, supply, deposit
	Layer3                     // unbounded writes: leverage, novel protocols
)

var riskTierNames = [...]string{Layer1: "layer1", Layer2: "layer2", Layer3: "layer3"}

func (r RiskTier) String() string {
	if r >= Layer1 && r <= Layer3 {
		return riskTierNames[r]
	}
	return fmt.Sprintf("RiskTier(%d)", uint8(r))
}

// MarshalText implements encoding.TextMarshaler.
func (r RiskTier) MarshalText() ([]byte, error) {
	if r < Layer1 || r > Layer3 {
		return nil, fmt.Errorf("invalid risk tier %d", uint8(r))
	}
	return []byte(r.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (r *RiskTier) UnmarshalText(b []byte) error {
	for i, n := range riskTierNames {
		if n != "" && n == string(b) {
			*r = RiskTier(i)
			return nil
		}
	}
	return fmt.Errorf("unknown risk tier %q (want layer1, layer2 or layer3)", b)
}

// Budget is a tool's tick budget: how long one execution may take.
type Budget uint8

// Tick budgets (seed 002).
const (
	Fast   Budget = iota + 1 // 1 s: reads, cached lookups
	Medium                   // 5 s: queries, simulation
	Slow                     // 15 s: broadcast and confirmation
)

var budgetNames = [...]string{Fast: "fast", Medium: "medium", Slow: "slow"}

func (b Budget) String() string {
	if b >= Fast && b <= Slow {
		return budgetNames[b]
	}
	return fmt.Sprintf("Budget(%d)", uint8(b))
}

// Duration returns the longest one execution may take; an invalid budget
// is Fast's.
func (b Budget) Duration() time.Duration {
	switch b {
	case Medium:
		return 5 * time.Second
	case Slow:
		return 15 * time.Second
	}
	return time.Second
}

// MarshalText implements encoding.TextMarshaler.
func (b Budget) MarshalText() ([]byte, error) {
	if b < Fast || b > Slow {
		return nil, fmt.Errorf("invalid tick budget %d", uint8(b))
	}
	return []byte(b.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (b *Budget) UnmarshalText(t []byte) error {
	for i, n := range budgetNames {
		if n != "" && n == string(t) {
			*b = Budget(i)
			return nil
		}
	}
	return fmt.Errorf("unknown tick budget %q (want fast, medium or slow)", t)
}

// Effect is what a write does to the agent's positions. The phase gate
// allows fewer effects in lower phases: conservation allows
// close (and previews), declining unwind and close, terminal settlement
// only.
type Effect uint8

// Effects of writes.
const (
	EffectNone   Effect = iota // reads
	EffectOpen                 // opens or grows a position: swap into, supply, deposit, borrow
	EffectClose                // closes or shrinks a position: withdraw, repay, remove liquidity
	EffectUnwind               // exits a position to the base asset: swap out, unwrap
	EffectSettle               // settles what is owed: revoke approvals, final transfers
)

var effectNames = [...]string{EffectNone: "", EffectOpen: "open", EffectClose: "close", EffectUnwind: "unwind", EffectSettle: "settle"}

func (e Effect) String() string {
	if int(e) < len(effectNames) {
		return effectNames[e]
	}
	return fmt.Sprintf("Effect(%d)", uint8(e))
}

// MarshalText implements encoding.TextMarshaler.
func (e Effect) MarshalText() ([]byte, error) {
	if int(e) >= len(effectNames) {
		return nil, fmt.Errorf("invalid effect %d", uint8(e))
	}
	return []byte(e.String()), nil
}

// Requirement is a capability a tool needs to be registered (seed 002's
// capability gating).
type Requirement string

// Requirements.
const (
	NeedsWallet     Requirement = "wallet"
	NeedsUniswapAPI Requirement = "uniswap_api"
	NeedsMemory     Requirement = "memory"
)

// PermitRisk is the risk tier of one action (seed 002's adapter risk
// tiers): Elevated and above wait out the announce delay before commit.
type PermitRisk uint8

// Permit risk tiers.
const (
	Routine PermitRisk = iota + 1
	Standard
	Elevated
	High
	Critical
)

var permitRiskNames = [...]string{Routine: "routine", Standard: "standard", Elevated: "elevated", High: "high", Critical: "critical"}

func (r PermitRisk) String() string {
	if r >= Routine && r <= Critical {
		return permitRiskNames[r]
	}
	return fmt.Sprintf("PermitRisk(%d)", uint8(r))
}

// MarshalText implements encoding.TextMarshaler.
func (r PermitRisk) MarshalText() ([]byte, error) {
	if r < Routine || r > Critical {
		return nil, fmt.Errorf("invalid permit risk %d", uint8(r))
	}
	return []byte(r.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (r *PermitRisk) UnmarshalText(b []byte) error {
	v, err := ParsePermitRisk(string(b))
	if err != nil {
		return err
	}
	*r = v
	return nil
}

// ParsePermitRisk parses a permit risk tier name.
func ParsePermitRisk(s string) (PermitRisk, error) {
	for i, n := range permitRiskNames {
		if n != "" && n == s {
			return PermitRisk(i), nil
		}
	}
	return 0, fmt.Errorf("unknown permit risk %q", s)
}

// Result is what a handler returns (seed 002's ToolResult). Writes fill
// the expected and actual outcome and where the actual one was read.
type Result struct {
	Data              json.RawMessage `json:"data"`
	IsError           bool            `json:"is_error"`
	SchemaVersion     uint32          `json:"schema_version"`
	ExpectedOutcome   string          `json:"expected_outcome,omitempty"`
	ActualOutcome     string          `json:"actual_outcome,omitempty"`
	GroundTruthSource string          `json:"ground_truth_source,omitempty"`
	// TxHashes and GasUsed are what a chain write sent: its transactions'
	// hashes, in the order sent, and the gas they used in all. They are
	// for ward's own records (the gate's outcome record), not part of the
	// result's JSON; a write that sends nothing leaves them zero.
	TxHashes []string `json:"-"`
	GasUsed  uint64   `json:"-"`
}

// ReadResult returns the result of a read tool.
func ReadResult(d *Def, data any) (*Result, error) {
	b, err := json.Marshal(data)
	if err != nil {
		return nil, fmt.Errorf("%s: encode result: %w", d.Name, err)
	}
	return &Result{Data: b, SchemaVersion: d.SchemaVersion}, nil
}

// WriteResult returns the result of a write tool with its ground truth.
func WriteResult(d *Def, data any, expected, actual, source string) (*Result, error) {
	r, err := ReadResult(d, data)
	if err != nil {
		return nil, err
	}
	if expected == "" || actual == "" || source == "" {
		return nil, errors.New(d.Name + ": a write result needs expected and actual outcomes and their source")
	}
	r.ExpectedOutcome, r.ActualOutcome, r.GroundTruthSource = expected, actual, source
	return r, nil
}
