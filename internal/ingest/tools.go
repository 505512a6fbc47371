package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/capability"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/rollback"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
)

// MaxToolEntries is the most entries one quarantine call takes.
const MaxToolEntries = 100

// The seed's ingestion tools, named by ward's <prefix>_<action>_<subject>
// rule in the memory subsystem: quarantine_entries, consensus_validate,
// reject_entry, ingestion_report, adopt_entry, sandbox_heuristic and
// causal_rollback (a write: it changes the Grimoire). Adoption follows
// consensus inside the pipeline (consensus_validate adopts), so adopt_entry
// adopts nothing: it reads an entry's adoption record. An agent that could
// adopt on demand could skip the sandbox that holds an actionable entry.
// sandbox_heuristic runs Stage 3's evaluation on demand and decides nothing.
var (
	defQuarantine = &tool.Def{
		Name: "memory_quarantine_entries",
		Description: "Receive external knowledge entries (purchased, clade or cross-user) into quarantine. Each entry is screened " +
			"against known poison (oracle, immune memory), its EIP-712 provenance is verified against the identity registry, and its " +
			"content, claimed confidence and supplied embedding are checked. One entry that passes waits in quarantine for " +
			"memory_consensus_validate. Several entries are validated together as one batch: those that pass are decided by " +
			"Stage 2 consensus here, with entries whose claims contradict another of the batch validated fully, and adopted " +
			"(at low initial confidence) or rejected. Returns one report per entry: verdict, stage, reasons.",
		Category: tool.CatMemory, Tier: tool.Write, RiskTier: tool.Layer2, Budget: tool.Medium, Effect: tool.EffectOpen,
		PromptSnippet: "memory_quarantine_entries screens external knowledge entries into quarantine.",
		Params: json.RawMessage(`{"type":"object","additionalProperties":false,"required":["entries"],"properties":{` +
			`"entries":{"type":"array","minItems":1,"maxItems":100,"description":"Entries as delivered by their author, signature included (base64 of the 65-byte r,s,v).",` +
			`"items":{"type":"object","required":["id","content","entry_type","source","confidence"],"properties":{` +
			`"id":{"type":"string","minLength":1,"maxLength":128},"content":{"type":"string","minLength":1,"maxLength":16384},` +
			`"entry_type":{"type":"string","enum":["insight","heuristic","warning","strategy_fragment","causal_link"]},` +
			`"confidence":{"type":"number","minimum":0,"maximum":1},"source":{"type":"object"},` +
			`"embedding":{"type":"array","maxItems":4096,"items":{"type":"number"}},"claim":{"type":"object"},"heuristic":{"type":"object"}}}}}}`),
		Requires:      []tool.Requirement{tool.NeedsMemory},
		SchemaVersion: 1,
	}
	defValidate = &tool.Def{
		Name: "memory_consensus_validate",
		Description: "Run Stage 2 consensus validation on one pending quarantined entry: every validation layer votes and the entry " +
			"is adopted into the Grimoire at low initial confidence when enough pass for the strictness level, otherwise rejected and " +
			"remembered as poison. Returns the report: verdict, the layer that decided, per-layer scores and reasons.",
		Category: tool.CatMemory, Tier: tool.Write, RiskTier: tool.Layer2, Budget: tool.Medium, Effect: tool.EffectOpen,
		PromptSnippet: "memory_consensus_validate decides a quarantined entry by consensus: adopt or reject.",
		Params: json.RawMessage(`{"type":"object","additionalProperties":false,"required":["entry_id"],"properties":{` +
			`"entry_id":{"type":"string","minLength":1,"maxLength":128,"description":"The quarantined entry's id."}}}`),
		Requires:      []tool.Requirement{tool.NeedsMemory},
		SchemaVersion: 1,
	}
	defReject = &tool.Def{
		Name: "memory_reject_entry",
		Description: "Reject one pending quarantined entry for good, optionally classifying the attack it carries; a classified " +
			"rejection is remembered (immune memory and the poison oracle) so re-posts and reworded variants are held. Cannot be undone.",
		Category: tool.CatMemory, Tier: tool.Write, RiskTier: tool.Layer2, Budget: tool.Fast, Effect: tool.EffectClose,
		PromptSnippet: "memory_reject_entry rejects a quarantined entry and remembers its pattern.",
		Params: json.RawMessage(`{"type":"object","additionalProperties":false,"required":["entry_id"],"properties":{` +
			`"entry_id":{"type":"string","minLength":1,"maxLength":128,"description":"The quarantined entry's id."},` +
			`"attack":{"type":"string","enum":["","embedding_anomaly","confidence_inflation","provenance_forgery","content_injection","causal_graph_poisoning"],"description":"The attack type, if one is identified."}}}`),
		Requires:      []tool.Requirement{tool.NeedsMemory},
		SchemaVersion: 1,
	}
	defReport = &tool.Def{
		Name: "memory_ingestion_report",
		Description: "Report knowledge ingestion metrics over the quarantine collection (decided entries are kept 7 days): entries " +
			"received, pending, passed and failed, failures by attack type and reason, the accept rate, and the Grimoire's size; for one " +
			"source agent (with its metrics per stage, adoptions, confirmations, rollbacks and Beta safety reputation) or all (with " +
			"the blacklisted sources). Read-only.",
		Category: tool.CatMemory, Tier: tool.Read, RiskTier: tool.Layer1, Budget: tool.Fast,
		PromptSnippet: "memory_ingestion_report summarises what ingestion accepted and rejected, per source.",
		Params: json.RawMessage(`{"type":"object","additionalProperties":false,"properties":{` +
			`"agent":{"type":"string","pattern":"^0x[0-9a-fA-F]{40}$","description":"Only this source agent's entries (0x-prefixed hex address)."}}}`),
		Requires:      []tool.Requirement{tool.NeedsMemory},
		SchemaVersion: 1,
	}
	defSandbox = &tool.Def{
		Name: "memory_sandbox_heuristic",
		Description: "Evaluate an actionable heuristic in the Stage 3 sandbox without deciding anything: the entry (by id, from " +
			"quarantine or the Grimoire) or a heuristic given inline (text such as \"when RSI below 30, buy 10 %\", or conditions, " +
			"actions and parameters) is decomposed into conditions and actions, resolved against the skill library, and simulated " +
			"against the agent's configured strategy (or holding, when none is configured) over seeded market scenarios inside the process sandbox. Returns the plan (reused and novel components, " +
			"coverage), the metrics of both strategies (mean return, maximum drawdown, worst-case loss, turnover), pass or fail with " +
			"reasons, and any resource breach. Nothing is adopted, rejected or promoted. Read-only.",
		Category: tool.CatMemory, Tier: tool.Read, RiskTier: tool.Layer1, Budget: tool.Slow,
		PromptSnippet: "memory_sandbox_heuristic backtests a heuristic against the agent's strategy (or holding) in the sandbox.",
		Params: json.RawMessage(`{"type":"object","additionalProperties":false,"properties":{` +
			`"entry_id":{"type":"string","minLength":1,"maxLength":128,"description":"A quarantined or adopted entry's id."},` +
			`"text":{"type":"string","minLength":1,"maxLength":1024,"description":"A heuristic in words: when/if X, do Y."},` +
			`"heuristic":{"type":"object","description":"conditions, actions (arrays of strings) and parameters (string map)."}}}`),
		Requires:      []tool.Requirement{tool.NeedsMemory},
		SchemaVersion: 1,
	}
	defRollback = &tool.Def{
		Name: "memory_causal_rollback",
		Description: "Decide whether knowledge from one source agent caused the agent's performance to fall, and if so undo it. " +
			"Input: the agent's daily returns, market factor series aligned by day (ETH returns, TVL changes, gas, volatility), the " +
			"decision records with the external entries each used, the first day the source's knowledge was in use, and optionally " +
			"peer agents' daily returns. Give only source_agent to use what ward recorded: its daily market samples (the wallet's " +
			"value, ETH, gas, a TVL index) and the writes the gate tagged with the external entries that influenced them. The decision runs factor decomposition (over 70% market-explained: keep), the residual Sharpe " +
			"change (below 0.3: keep), source attribution (never used: keep), then a counterfactual (7+ baseline days) or a peer " +
			"comparison. On rollback the source's entries used by those decisions go back to quarantine as rolled_back, its other " +
			"entries lose 0.2 confidence, a lesson is stored, PLAYBOOK heuristics derived from them are reverted and the source's " +
			"reputation falls. Returns the decision with every step's numbers and what was done.",
		Category: tool.CatMemory, Tier: tool.Write, RiskTier: tool.Layer2, Budget: tool.Medium, Effect: tool.EffectClose,
		PromptSnippet: "memory_causal_rollback attributes a performance drop to a knowledge source and rolls it back if warranted.",
		Params: json.RawMessage(fmt.Sprintf(`{"type":"object","additionalProperties":false,"required":["source_agent"],"properties":{`+
			`"source_agent":{"type":"string","pattern":"^0x[0-9a-fA-F]{40}$","description":"The suspected source agent."},`+
			`"returns":{"type":"array","minItems":3,"maxItems":%[1]d,"items":{"type":"number"},"description":"The agent's daily returns; day i is index i. Omit to use the recorded history (then give no factors, decisions or peers)."},`+
			`"first_use":{"type":"integer","minimum":0,"maximum":%[1]d,"description":"The first day the source's knowledge was in use; required with returns; with the recorded history, the first recorded day it influenced a write unless given."},`+
			`"factors":{"type":"array","maxItems":%[2]d,"items":{"type":"object","additionalProperties":false,"required":["name","values"],"properties":{`+
			`"name":{"type":"string","maxLength":64},"values":{"type":"array","maxItems":%[1]d,"items":{"type":"number"}}}},"description":"Market factor series, one value per day."},`+
			`"decisions":{"type":"array","maxItems":%[3]d,"items":{"type":"object","additionalProperties":false,"required":["day","id"],"properties":{`+
			`"day":{"type":"integer","minimum":0},"id":{"type":"string","minLength":1,"maxLength":128},`+
			`"used":{"type":"array","maxItems":%[4]d,"items":{"type":"object","additionalProperties":false,"required":["entry_id","source"],"properties":{`+
			`"entry_id":{"type":"string","maxLength":128},"source":{"type":"string","maxLength":128}}}}}},"description":"Decision records and the external entries each used."},`+
			`"peers":{"type":"array","maxItems":%[5]d,"items":{"type":"array","maxItems":%[1]d,"items":{"type":"number"}},"description":"Peer agents' daily returns, agents not using the source."}}}`,
			MaxRollbackDays, MaxRollbackFactors, MaxRollbackDecisions, adopt.MaxInfluences, MaxRollbackPeers)),
		Requires:      []tool.Requirement{tool.NeedsMemory},
		SchemaVersion: 1,
	}
	defAdoption = &tool.Def{
		Name: "memory_adopt_entry",
		Description: "Report the Stage 4 adoption of one knowledge entry: for an adopted entry its adoption record (source, " +
			"relationship and discount ceiling, evidence confidence, validation status pending or confirmed, TTL, memory class, " +
			"confirmations and their credit, retention); for an entry still in quarantine its status. Adoption itself follows " +
			"consensus (memory_consensus_validate): this tool adopts nothing. Read-only.",
		Category: tool.CatMemory, Tier: tool.Read, RiskTier: tool.Layer1, Budget: tool.Fast,
		PromptSnippet: "memory_adopt_entry shows how an entry was adopted: confidence, status, expiry, confirmations.",
		Params: json.RawMessage(`{"type":"object","additionalProperties":false,"required":["entry_id"],"properties":{` +
			`"entry_id":{"type":"string","minLength":1,"maxLength":128,"description":"The entry's id."}}}`),
		Requires:      []tool.Requirement{tool.NeedsMemory},
		SchemaVersion: 1,
	}
)

// Venue is the memory tools' venue in preview_action.
const Venue = "grimoire"

// Tools returns the ingestion tools and the agent's memory tools
// (remember_tools.go) bound to p, for the daemon to register:
// the writes through preview_action {action_type, venue "grimoire"}, the
// report through query_state {kind "ingestion_report"}. Every write handler
// consumes its capability before it changes anything.
func Tools(p *Pipeline) []registry.Tool {
	return append([]registry.Tool{
		{Def: defQuarantine, Plan: planQuarantine, Write: p.quarantineTool, Action: "quarantine_entries", Venue: Venue},
		{Def: defValidate, Plan: planID(defValidate, "validate"), Write: p.validateTool, Action: "consensus_validate", Venue: Venue},
		{Def: defReject, Plan: planID(defReject, "reject"), Write: p.rejectTool, Action: "reject_entry", Venue: Venue},
		{Def: defReport, Read: p.reportTool, Action: "ingestion_report"},
		{Def: defAdoption, Read: p.adoptionTool, Action: "adopt_entry"},
		{Def: defRollback, Plan: planRollback, Write: p.rollbackTool, Action: "causal_rollback", Venue: Venue},
		{Def: defSandbox, Read: p.sandboxTool, Action: "sandbox_heuristic"},
	}, memoryTools(p)...)
}

type entriesArgs struct {
	Entries []*knowledge.Entry `json:"entries"`
}

type idArgs struct {
	EntryID string               `json:"entry_id"`
	Attack  knowledge.AttackType `json:"attack"`
}

var errArgs = errors.New("invalid arguments")

func decodeEntries(in *registry.Input) ([]*knowledge.Entry, error) {
	var a entriesArgs
	if err := json.Unmarshal(in.Raw, &a); err != nil || len(a.Entries) == 0 || len(a.Entries) > MaxToolEntries {
		return nil, errArgs
	}
	return a.Entries, nil
}

func decodeID(in *registry.Input) (idArgs, error) {
	var a idArgs
	if err := json.Unmarshal(in.Raw, &a); err != nil || a.EntryID == "" {
		return idArgs{}, errArgs
	}
	return a, nil
}

func planQuarantine(_ context.Context, in *registry.Input) (*tool.Plan, error) {
	es, err := decodeEntries(in)
	if err != nil {
		return nil, err
	}
	if len(es) > 1 {
		return &tool.Plan{Txs: []tool.Tx{}, Summary: fmt.Sprintf("validate %d knowledge entries as one batch: quarantine, consensus and adoption", len(es))}, nil
	}
	return &tool.Plan{Txs: []tool.Tx{}, Summary: fmt.Sprintf("screen %d knowledge entries into quarantine", len(es))}, nil
}

func planID(d *tool.Def, verb string) registry.Planner {
	return func(_ context.Context, in *registry.Input) (*tool.Plan, error) {
		a, err := decodeID(in)
		if err != nil {
			return nil, err
		}
		return &tool.Plan{Txs: []tool.Tx{}, Summary: fmt.Sprintf("%s quarantined knowledge entry %q", verb, a.EntryID)}, nil
	}
}

func (p *Pipeline) quarantineTool(ctx context.Context, in *registry.Input, _ *tool.Plan, c *capability.Capability) (*tool.Result, error) {
	es, err := decodeEntries(in)
	if err != nil {
		return nil, err
	}
	if err := c.Consume(defQuarantine.Name, in.Args.Hash(), in.Tick, in.Now); err != nil {
		return nil, fmt.Errorf("quarantine entries: %w", err)
	}
	// Several entries are one batch (IngestBatch: the cross-entry
	// contradiction check needs them together); one waits for
	// memory_consensus_validate.
	var rs []*Report
	if len(es) > 1 {
		rs, err = p.IngestBatch(ctx, es)
	} else {
		rs, err = p.Quarantine(ctx, es)
	}
	if err != nil {
		return nil, errors.New("quarantine entries: the pipeline could not decide")
	}
	held, adopted := 0, 0
	for _, r := range rs {
		switch r.Verdict {
		case Quarantined:
			held++
		case Adopted, Confirmed:
			adopted++
		}
	}
	if len(es) > 1 {
		return tool.WriteResult(defQuarantine, map[string]any{"reports": rs}, fmt.Sprintf("%d entries validated as a batch", len(es)),
			fmt.Sprintf("%d adopted, %d held in quarantine, %d rejected", adopted, held, len(rs)-held-adopted), "ingestion_pipeline")
	}
	return tool.WriteResult(defQuarantine, map[string]any{"reports": rs},
		fmt.Sprintf("%d entries screened", len(es)), fmt.Sprintf("%d held in quarantine, %d rejected", held, len(rs)-held), "ingestion_pipeline")
}

func (p *Pipeline) validateTool(ctx context.Context, in *registry.Input, _ *tool.Plan, c *capability.Capability) (*tool.Result, error) {
	a, err := decodeID(in)
	if err != nil {
		return nil, err
	}
	if err := c.Consume(defValidate.Name, in.Args.Hash(), in.Tick, in.Now); err != nil {
		return nil, fmt.Errorf("consensus validate: %w", err)
	}
	r, err := p.Validate(ctx, a.EntryID)
	if err != nil {
		return nil, reviewError("consensus validate", err)
	}
	return tool.WriteResult(defValidate, r, "adopted or rejected", string(r.Verdict), "ingestion_pipeline")
}

func (p *Pipeline) rejectTool(ctx context.Context, in *registry.Input, _ *tool.Plan, c *capability.Capability) (*tool.Result, error) {
	a, err := decodeID(in)
	if err != nil {
		return nil, err
	}
	if err := c.Consume(defReject.Name, in.Args.Hash(), in.Tick, in.Now); err != nil {
		return nil, fmt.Errorf("reject entry: %w", err)
	}
	r, err := p.Reject(ctx, a.EntryID, a.Attack)
	if err != nil {
		return nil, reviewError("reject entry", err)
	}
	return tool.WriteResult(defReject, r, "rejected", string(r.Verdict), "quarantine_store")
}

// reviewError keeps the store's internals from the agent.
func reviewError(op string, err error) error {
	if errors.Is(err, ErrNoEntry) || errors.Is(err, ErrNotPending) {
		return fmt.Errorf("%s: %w", op, err)
	}
	return fmt.Errorf("%s: the pipeline could not decide", op)
}

func (p *Pipeline) reportTool(ctx context.Context, in *registry.Input) (*tool.Result, error) {
	var a struct {
		Agent string `json:"agent"`
	}
	if len(in.Raw) > 0 {
		if err := json.Unmarshal(in.Raw, &a); err != nil {
			return nil, errArgs
		}
	}
	s, err := p.Summarise(ctx, a.Agent)
	if err != nil {
		return nil, errors.New("ingestion report: the quarantine store could not be read")
	}
	return tool.ReadResult(defReport, s)
}

// Adoption is what adopt_entry reports about one entry: State is adopted
// (Record and Retention set), quarantined (the quarantine Status and
// Reason set) or unknown.
type Adoption struct {
	EntryID   string        `json:"entry_id"`
	State     string        `json:"state"`
	Record    *adopt.Record `json:"record,omitempty"`
	Retention float64       `json:"retention,omitempty"`
	Weight    float64       `json:"retrieval_weight,omitempty"` // the record's evidence confidence × retention, × 0.8 external
	Status    string        `json:"quarantine_status,omitempty"`
	Reason    string        `json:"quarantine_reason,omitempty"`
}

// Adoption returns what adopt_entry reports about the entry id: its record
// from the Grimoire view, else its quarantine row. An error is a store
// failure; an id found nowhere is State unknown.
func (p *Pipeline) Adoption(ctx context.Context, id string) (*Adoption, error) {
	out := &Adoption{EntryID: id, State: "unknown"}
	if k, ok := p.grim.Get(id); ok && k.Adoption != nil {
		rec := *k.Adoption
		out.State, out.Record, out.Retention = "adopted", &rec, k.Retention
		out.Weight = rec.Weight(rec.Confidence * k.Retention)
		return out, nil
	}
	q, err := p.cfg.Store.QuarantinedEntry(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	out.State, out.Status, out.Reason = "quarantined", string(q.Status), q.Reason
	return out, nil
}

func (p *Pipeline) adoptionTool(ctx context.Context, in *registry.Input) (*tool.Result, error) {
	a, err := decodeID(in)
	if err != nil {
		return nil, err
	}
	out, err := p.Adoption(ctx, a.EntryID)
	if err != nil {
		return nil, errors.New("adopt entry: the store could not be read")
	}
	return tool.ReadResult(defAdoption, out)
}

// Bounds of a causal_rollback call.
const (
	MaxRollbackDays      = 1000 // days of returns, and of each factor and peer series
	MaxRollbackFactors   = 8
	MaxRollbackPeers     = 32
	MaxRollbackDecisions = 5000
)

// rollbackArgs are causal_rollback's arguments.
type rollbackArgs struct {
	Source    string            `json:"source_agent"`
	Returns   []float64         `json:"returns"`
	FirstUse  *int              `json:"first_use"`
	Factors   []rollback.Factor `json:"factors"`
	Decisions []rollback.Record `json:"decisions"`
	Peers     [][]float64       `json:"peers"`
}

// decodeRollback decodes and checks causal_rollback's arguments. Its
// errors wrap errArgs and say what is wrong by field and index, never
// quoting the input.
func decodeRollback(in *registry.Input) (rollbackArgs, error) {
	var a rollbackArgs
	dec := json.NewDecoder(bytes.NewReader(in.Raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return a, fmt.Errorf("%w: not a causal rollback request", errArgs)
	}
	n := len(a.Returns)
	bad := func(format string, v ...any) (rollbackArgs, error) {
		return rollbackArgs{}, fmt.Errorf("%w: "+format, append([]any{errArgs}, v...)...)
	}
	if _, err := tool.ParseAddress(a.Source); err != nil || a.Source[1] != 'x' { // 0x, not 0X
		return bad("source_agent must be a 0x-prefixed 40-digit hex address")
	}
	if n == 0 {
		// The recorded history (see Pipeline.RecordedRollback).
		switch {
		case len(a.Factors) > 0 || len(a.Decisions) > 0 || len(a.Peers) > 0:
			return bad("factors, decisions and peers need returns: without returns the recorded history is used")
		case a.FirstUse != nil && (*a.FirstUse < 0 || *a.FirstUse > MaxRollbackDays):
			return bad("first_use %d outside [0, %d]", *a.FirstUse, MaxRollbackDays)
		}
		return a, nil
	}
	switch {
	case a.FirstUse == nil:
		return bad("first_use is required with returns")
	case n < 3 || n > MaxRollbackDays:
		return bad("returns has %d days, want 3 to %d", n, MaxRollbackDays)
	case *a.FirstUse < 0 || *a.FirstUse > n-2:
		return bad("first_use %d outside [0, %d]: the post window needs 2 days", *a.FirstUse, n-2)
	case len(a.Factors) > MaxRollbackFactors:
		return bad("%d factors, at most %d", len(a.Factors), MaxRollbackFactors)
	case len(a.Peers) > MaxRollbackPeers:
		return bad("%d peers, at most %d", len(a.Peers), MaxRollbackPeers)
	case len(a.Decisions) > MaxRollbackDecisions:
		return bad("%d decisions, at most %d", len(a.Decisions), MaxRollbackDecisions)
	}
	for i, f := range a.Factors {
		if len(f.Values) != n || len(f.Name) > 64 {
			return bad("factor %d has %d values for %d days of returns (or a name above 64 bytes)", i, len(f.Values), n)
		}
	}
	for i, p := range a.Peers {
		if len(p) != n {
			return bad("peer %d has %d values for %d days of returns", i, len(p), n)
		}
	}
	for i, d := range a.Decisions {
		switch {
		case d.Day < 0 || d.ID == "" || len(d.ID) > knowledge.MaxID:
			return bad("decision %d needs a day of at least 0 and an id of 1 to %d bytes", i, knowledge.MaxID)
		case len(d.Used) > adopt.MaxInfluences:
			return bad("decision %d used %d entries, at most %d", i, len(d.Used), adopt.MaxInfluences)
		}
		for j, u := range d.Used {
			if len(u.EntryID) > knowledge.MaxID || len(u.Source) > knowledge.MaxID {
				return bad("decision %d, entry %d: entry_id or source above %d bytes", i, j, knowledge.MaxID)
			}
		}
	}
	return a, nil
}

func planRollback(_ context.Context, in *registry.Input) (*tool.Plan, error) {
	a, err := decodeRollback(in)
	if err != nil {
		return nil, err
	}
	if len(a.Returns) == 0 {
		return &tool.Plan{Txs: []tool.Tx{}, Summary: fmt.Sprintf("causal rollback check of knowledge from %s over the recorded history",
			strings.ToLower(a.Source))}, nil
	}
	return &tool.Plan{Txs: []tool.Tx{}, Summary: fmt.Sprintf("causal rollback check of knowledge from %s over %d days (first use day %d)",
		strings.ToLower(a.Source), len(a.Returns), *a.FirstUse)}, nil
}

func (p *Pipeline) rollbackTool(ctx context.Context, in *registry.Input, _ *tool.Plan, c *capability.Capability) (*tool.Result, error) {
	a, err := decodeRollback(in)
	if err != nil {
		return nil, err
	}
	if err := c.Consume(defRollback.Name, in.Args.Hash(), in.Tick, in.Now); err != nil {
		return nil, fmt.Errorf("causal rollback: %w", err)
	}
	var ri rollback.Input
	if len(a.Returns) == 0 {
		if ri, err = p.RecordedRollback(ctx, a.Source, a.FirstUse); err != nil {
			if errors.Is(err, ErrShortSeries) {
				return nil, fmt.Errorf("causal rollback: %w: %w", errArgs, err)
			}
			return nil, errors.New("causal rollback: the recorded history could not be read")
		}
	} else {
		ri = rollback.Input{Returns: a.Returns, Factors: a.Factors, Decisions: a.Decisions,
			Source: a.Source, FirstUse: *a.FirstUse, Peers: a.Peers}
	}
	r, err := p.Rollback(ctx, a.Source, ri)
	switch {
	case errors.Is(err, rollback.ErrDegenerate):
		return nil, fmt.Errorf("causal rollback: %w: the returns have no variance in a window", errArgs)
	case errors.Is(err, ErrRollbackInput):
		return nil, fmt.Errorf("causal rollback: %w: the series cannot be used (a value that is not finite, or too few days for the factors)", errArgs)
	case err != nil:
		return nil, errors.New("causal rollback: the Grimoire could not be updated")
	}
	actual := "kept: " + r.Decision.Reason.String()
	if r.Decision.Rollback {
		actual = fmt.Sprintf("rolled back %d entries (%s), lowered %d", len(r.RolledBack), r.Decision.Reason, len(r.Lowered))
	}
	return tool.WriteResult(defRollback, r, "a causal rollback decision", actual, "causal_rollback")
}
