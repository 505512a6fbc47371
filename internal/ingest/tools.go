package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/capability"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
)

// MaxToolEntries is the most entries one quarantine call takes.
const MaxToolEntries = 100

// The seed's ingestion tools, named by ward's <prefix>_<action>_<subject>
// rule in the memory subsystem: quarantine_entries, consensus_validate,
// reject_entry, ingestion_report and adopt_entry. Adoption follows
// consensus inside the pipeline (consensus_validate adopts), so adopt_entry
// adopts nothing: it reads an entry's adoption record. An agent that could
// adopt on demand could skip the sandbox that holds an actionable entry.
// (sandbox_heuristic and causal_rollback are not built.)
var (
	defQuarantine = &tool.Def{
		Name: "memory_quarantine_entries",
		Description: "Receive external knowledge entries (purchased, clade or cross-user) into quarantine. Each entry is screened " +
			"against known poison (oracle, immune memory), its EIP-712 provenance is verified against the identity registry, and its " +
			"content, claimed confidence and supplied embedding are checked. Entries that pass wait in quarantine for " +
			"memory_consensus_validate; nothing reaches the Grimoire here. Returns one report per entry: verdict, stage, reasons.",
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
			"source agent or all. Read-only.",
		Category: tool.CatMemory, Tier: tool.Read, RiskTier: tool.Layer1, Budget: tool.Fast,
		PromptSnippet: "memory_ingestion_report summarises what ingestion accepted and rejected, per source.",
		Params: json.RawMessage(`{"type":"object","additionalProperties":false,"properties":{` +
			`"agent":{"type":"string","pattern":"^0x[0-9a-fA-F]{40}$","description":"Only this source agent's entries (0x-prefixed hex address)."}}}`),
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

// Tools returns the ingestion tools bound to p, for the daemon to register:
// the writes through preview_action {action_type, venue "grimoire"}, the
// report through query_state {kind "ingestion_report"}. Every write handler
// consumes its capability before it changes anything.
func Tools(p *Pipeline) []registry.Tool {
	return []registry.Tool{
		{Def: defQuarantine, Plan: planQuarantine, Write: p.quarantineTool, Action: "quarantine_entries", Venue: Venue},
		{Def: defValidate, Plan: planID(defValidate, "validate"), Write: p.validateTool, Action: "consensus_validate", Venue: Venue},
		{Def: defReject, Plan: planID(defReject, "reject"), Write: p.rejectTool, Action: "reject_entry", Venue: Venue},
		{Def: defReport, Read: p.reportTool, Action: "ingestion_report"},
		{Def: defAdoption, Read: p.adoptionTool, Action: "adopt_entry"},
	}
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
	rs, err := p.Quarantine(ctx, es)
	if err != nil {
		return nil, errors.New("quarantine entries: the pipeline could not decide")
	}
	held := 0
	for _, r := range rs {
		if r.Verdict == Quarantined {
			held++
		}
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
