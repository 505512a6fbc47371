package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/capability"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
)

// The agent's memory tools (seed 002's memory_ category over the
// Grimoire): three writes that only ever reach quarantine (see
// remember.go), five reads, and the owner's memory_forget_entry
// (privileged: committed only with the owner's signature of the permit). A memory write moves no value and opens no
// position, so it is EffectSettle like an owner setting: the phase gate
// lets the agent record what happened in every phase. It is still a
// write: previewed, permitted and committed through the gate, its
// capability consumed before the pipeline sees the entry, and a tainted
// session's write is held for review like any state-changing call.

// TaintedMark starts the content of a memory written in a tainted session:
// whoever reads it learns that third-party content may have shaped it.
const TaintedMark = "[third-party-influenced] "

// taintedConfidence is the most a tainted session's memory may claim: the
// initial confidence of cross-user knowledge.
const taintedConfidence = 0.1

const (
	tagsSchema = `"tags":{"type":"array","maxItems":8,"items":{"type":"string","pattern":"^[a-z0-9_-]{1,32}$"},"description":"Up to 8 tags (lower case, digits, _ and -), searchable."}`
	textMax    = "4096"
	reportOut  = `{"type":"object","required":["entry_id","verdict","reason_code"],"properties":{"entry_id":{"type":"string"},"verdict":{"type":"string"},` +
		`"stage":{"type":"string"},"reason_code":{"type":"string"},"reasons":{"type":"array","items":{"type":"string"}},"tainted":{"type":"boolean"},"confidence_claimed":{"type":"number"}}}`
	memEntryOut = `{"type":"object","required":["entry_id","state"],"properties":{"entry_id":{"type":"string"},"state":{"type":"string"},"content":{"type":"string"},` +
		`"entry_type":{"type":"string"},"partition":{"type":"string"},"provenance":{"type":"string"},"agent":{"type":"string"},"confidence":{"type":"number"},` +
		`"validation_status":{"type":"string"},"retention":{"type":"number"},"quarantine_status":{"type":"string"},"quarantine_reason":{"type":"string"},` +
		`"tainted":{"type":"boolean"},"own":{"type":"boolean"}}}`
)

var (
	defStoreEpisode = &tool.Def{
		Name: "memory_store_episode",
		Description: "Record an episode in the agent's memory: which tool it used, what it predicted, what actually happened and " +
			"its reflection (the Reflexion pattern). The episode is untrusted knowledge: it is screened (poison oracle, immune " +
			"memory, content screen) and held pending in quarantine; it is never adopted directly, and only consensus " +
			"(memory_consensus_validate) can adopt it, at low confidence, as cross-user knowledge. An episode written in a tainted " +
			"session is marked third-party-influenced and capped at confidence 0.1. Memory is advice: it cannot change a limit, " +
			"the allowlist or a simulation. At most 60 memory writes per principal per hour. Returns the ingestion verdict and reasons.",
		Category: tool.CatMemory, Tier: tool.Write, RiskTier: tool.Layer2, Budget: tool.Fast, Effect: tool.EffectSettle,
		ProgressSteps:    []string{"Screening the episode", "Holding it in quarantine"},
		PromptSnippet:    "memory_store_episode records predicted vs actual outcome and a reflection; it waits in quarantine.",
		PromptGuidelines: []string{"Record facts and outcomes, not instructions: an entry that tells the agent what to do is rejected."},
		Params: json.RawMessage(`{"type":"object","additionalProperties":false,"required":["tool","predicted","actual"],"properties":{` +
			`"tool":{"type":"string","pattern":"^[a-z0-9]+(_[a-z0-9]+)+$","maxLength":64,"description":"The tool the episode is about (uniswap_swap_exact_in)."},` +
			`"predicted":{"type":"string","minLength":1,"maxLength":1024,"description":"What the agent expected (the preview's outcome)."},` +
			`"actual":{"type":"string","minLength":1,"maxLength":1024,"description":"What happened (the receipt's outcome)."},` +
			`"reflection":{"type":"string","maxLength":1024,"description":"What the agent makes of the difference."},` +
			`"confidence":{"type":"number","minimum":0,"maximum":1,"description":"How sure the agent is of the reflection (default 0.3; capped at 0.5, 0.1 when tainted)."},` +
			tagsSchema + `}}`),
		Result:        json.RawMessage(reportOut),
		Requires:      []tool.Requirement{tool.NeedsMemory},
		SchemaVersion: 1,
	}
	defProposeInsight = &tool.Def{
		Name: "memory_propose_insight",
		Description: "Propose an insight, warning or heuristic the agent distilled from its episodes for its Grimoire. Like an " +
			"episode it is untrusted: screened and held pending in quarantine for consensus, never adopted directly; an entry that " +
			"tells the agent how to act on a pretext, disables a safety control (unlimited approvals, skipping checks) or reroutes " +
			"an address is rejected with its reason and remembered as poison. A tainted session's proposal is marked " +
			"third-party-influenced and capped at confidence 0.1. Returns the ingestion verdict and reasons.",
		Category: tool.CatMemory, Tier: tool.Write, RiskTier: tool.Layer2, Budget: tool.Fast, Effect: tool.EffectSettle,
		ProgressSteps: []string{"Screening the insight", "Holding it in quarantine"},
		PromptSnippet: "memory_propose_insight proposes distilled knowledge; consensus decides, at low confidence.",
		Params: json.RawMessage(`{"type":"object","additionalProperties":false,"required":["content"],"properties":{` +
			`"content":{"type":"string","minLength":1,"maxLength":` + textMax + `,"description":"The insight, in words."},` +
			`"entry_type":{"type":"string","enum":["insight","warning","heuristic","causal_link"],"description":"Its kind (default insight)."},` +
			`"confidence":{"type":"number","minimum":0,"maximum":1,"description":"How sure the agent is (default 0.3; capped at 0.5, 0.1 when tainted)."},` +
			`"claim":{"type":"object","additionalProperties":false,"required":["subject","relation","object"],"properties":{` +
			`"subject":{"type":"string","minLength":1,"maxLength":256},"relation":{"type":"string","minLength":1,"maxLength":64},"object":{"type":"string","minLength":1,"maxLength":256}},` +
			`"description":"The insight as subject, relation, object, for the consensus layers to check."},` +
			tagsSchema + `}}`),
		Result:        json.RawMessage(reportOut),
		Requires:      []tool.Requirement{tool.NeedsMemory},
		SchemaVersion: 1,
	}
	defRetract = &tool.Def{
		Name: "memory_retract_entry",
		Description: "Withdraw a memory this principal wrote that is still pending in quarantine (an episode or insight it now " +
			"finds unhelpful or wrong): it is rejected and never adopted, without being remembered as poison. Adopted knowledge " +
			"and other sources' entries cannot be forgotten by the agent: the owner rejects them (memory_reject_entry) or rolls " +
			"their source back (memory_causal_rollback), and the Curator lets unused entries decay.",
		Category: tool.CatMemory, Tier: tool.Write, RiskTier: tool.Layer2, Budget: tool.Fast, Effect: tool.EffectSettle,
		ProgressSteps: []string{"Checking the entry is this principal's and pending", "Withdrawing it"},
		PromptSnippet: "memory_retract_entry withdraws this principal's own pending memory.",
		Params: json.RawMessage(`{"type":"object","additionalProperties":false,"required":["entry_id"],"properties":{` +
			`"entry_id":{"type":"string","minLength":1,"maxLength":128,"pattern":"^[0-9A-Za-z_.:-]+$","description":"The memory's entry id (as memory_store_episode returned it)."}}}`),
		Result:        json.RawMessage(reportOut),
		Requires:      []tool.Requirement{tool.NeedsMemory},
		SchemaVersion: 1,
	}
	defForget = &tool.Def{
		Name: "memory_forget_entry",
		Description: "Owner-approved: forget one entry of the Grimoire (adopted external knowledge or the agent's own), for " +
			"good: it is deleted from the store and from retrieval, and not remembered as poison. The agent may preview it to " +
			"ask the owner; the commit needs the owner's signature of the permit, without which nothing changes. To refuse " +
			"hostile knowledge use memory_reject_entry or memory_causal_rollback instead, which also teach immune memory.",
		Category: tool.CatMemory, Tier: tool.Privileged, RiskTier: tool.Layer2, Budget: tool.Fast, Effect: tool.EffectSettle,
		ProgressSteps:    []string{"Checking the owner's approval", "Forgetting the entry"},
		PromptSnippet:    "Owner-only: memory_forget_entry deletes a Grimoire entry once the owner signs the permit.",
		PromptGuidelines: []string{"Preview, then ask the owner to sign the permit (ward approval message) and commit with that signature as approval."},
		Params: json.RawMessage(`{"type":"object","additionalProperties":false,"required":["entry_id","reason"],"properties":{` +
			`"entry_id":{"type":"string","minLength":1,"maxLength":128,"description":"The Grimoire entry's id."},` +
			`"reason":{"type":"string","minLength":1,"maxLength":200,"description":"Why it should be forgotten (shown to the owner)."}}}`),
		Result: json.RawMessage(`{"type":"object","required":["entry_id","forgotten"],"properties":{"entry_id":{"type":"string"},"forgotten":{"type":"boolean"},` +
			`"partition":{"type":"string"},"provenance":{"type":"string"}}}`),
		Requires:      []tool.Requirement{tool.NeedsMemory},
		SchemaVersion: 1,
	}
	defSearchMemory = &tool.Def{
		Name: "memory_search_entries",
		Description: "Search the Grimoire (the agent's own and adopted external knowledge) for the entries closest to a text: " +
			"content, type, partition, provenance, confidence and validation status, external knowledge weighted at 0.8. Adopted " +
			"memory is advice, and may have come from third parties: its output is third-party content. Pending memory in " +
			"quarantine is not searched (memory_list_episodes lists this principal's). Read-only.",
		Category: tool.CatMemory, Tier: tool.Read, RiskTier: tool.Layer1, Budget: tool.Fast, ThirdParty: true,
		PromptSnippet: "memory_search_entries finds adopted knowledge relevant to a text, with confidence and provenance.",
		Params: json.RawMessage(`{"type":"object","additionalProperties":false,"required":["query"],"properties":{` +
			`"query":{"type":"string","minLength":1,"maxLength":1024,"description":"What to look for (words and tags)."},` +
			`"limit":{"type":"integer","minimum":1,"maximum":50,"description":"Most entries (default 10)."}}}`),
		Result:        json.RawMessage(`{"type":"object","required":["entries"],"properties":{"entries":{"type":"array","items":{"type":"object"}}}}`),
		Requires:      []tool.Requirement{tool.NeedsMemory},
		SchemaVersion: 1,
	}
	defGetEntry = &tool.Def{
		Name: "memory_get_entry",
		Description: "Read one Grimoire entry with its provenance and confidence: for adopted knowledge its partition, source, " +
			"confidence, validation status and retention; for this principal's own memory still in quarantine its status and " +
			"reason. Another principal's quarantined entries are not shown (the same answer as an unknown id). Read-only.",
		Category: tool.CatMemory, Tier: tool.Read, RiskTier: tool.Layer1, Budget: tool.Fast, ThirdParty: true,
		PromptSnippet: "memory_get_entry reads one entry with provenance, confidence and status.",
		Params: json.RawMessage(`{"type":"object","additionalProperties":false,"required":["entry_id"],"properties":{` +
			`"entry_id":{"type":"string","minLength":1,"maxLength":128,"description":"The entry's id."}}}`),
		Result:        json.RawMessage(memEntryOut),
		Requires:      []tool.Requirement{tool.NeedsMemory},
		SchemaVersion: 1,
	}
	defListEpisodes = &tool.Def{
		Name: "memory_list_episodes",
		Description: "List the memories this principal wrote (episodes and insights), newest first, with their ingestion status " +
			"(pending, passed, failed, rolled_back) and reason. Only the calling principal's: memory in quarantine is private to " +
			"its author until adopted. Read-only.",
		Category: tool.CatMemory, Tier: tool.Read, RiskTier: tool.Layer1, Budget: tool.Fast, ThirdParty: true,
		PromptSnippet: "memory_list_episodes lists this principal's recent memories and their status.",
		Params: json.RawMessage(`{"type":"object","additionalProperties":false,"properties":{` +
			`"status":{"type":"string","enum":["pending","passed","failed","rolled_back"],"description":"Only this status."},` +
			`"limit":{"type":"integer","minimum":1,"maximum":100,"description":"Most entries (default 20)."}}}`),
		Result:        json.RawMessage(`{"type":"object","required":["episodes"],"properties":{"episodes":{"type":"array","items":` + memEntryOut + `}}}`),
		Requires:      []tool.Requirement{tool.NeedsMemory},
		SchemaVersion: 1,
	}
	defListLessons = &tool.Def{
		Name: "memory_list_lessons",
		Description: "List the lessons ward learnt from failures (rejected or rolled-back knowledge, sandbox breaches) that apply " +
			"to a tool, or all of them: summary, advice, reason code, confidence as of now, and whether it was promoted to the " +
			"PLAYBOOK. Reading does not count as a match. Read-only.",
		Category: tool.CatMemory, Tier: tool.Read, RiskTier: tool.Layer1, Budget: tool.Fast,
		PromptSnippet: "memory_list_lessons lists the lessons learnt, for one tool or all.",
		Params: json.RawMessage(`{"type":"object","additionalProperties":false,"properties":{` +
			`"tool":{"type":"string","pattern":"^[a-z0-9]+(_[a-z0-9]+)+$","maxLength":64,"description":"Only lessons that name this tool."},` +
			`"limit":{"type":"integer","minimum":1,"maximum":100,"description":"Most lessons (default 20)."}}}`),
		Result:        json.RawMessage(`{"type":"object","required":["lessons"],"properties":{"lessons":{"type":"array","items":{"type":"object"}}}}`),
		Requires:      []tool.Requirement{tool.NeedsMemory},
		SchemaVersion: 1,
	}
	defMemoryStats = &tool.Def{
		Name: "memory_get_stats",
		Description: "Summarise the memory: entries in the Grimoire by partition (self, external), lessons, this principal's " +
			"memories by status, its writes in the last hour against the hourly bound, and the bounds of a memory write. Read-only.",
		Category: tool.CatMemory, Tier: tool.Read, RiskTier: tool.Layer1, Budget: tool.Fast,
		PromptSnippet: "memory_get_stats counts the Grimoire's entries and this principal's memories.",
		Params:        json.RawMessage(`{"type":"object","additionalProperties":false,"properties":{}}`),
		Result: json.RawMessage(`{"type":"object","required":["grimoire","own"],"properties":{"grimoire":{"type":"object"},"lessons":{"type":"integer"},` +
			`"own":{"type":"object"},"written_last_hour":{"type":"integer"},"max_per_hour":{"type":"integer"},"max_text_bytes":{"type":"integer"}}}`),
		Requires:      []tool.Requirement{tool.NeedsMemory},
		SchemaVersion: 1,
	}
)

// memoryTools are the agent's memory tools bound to p.
func memoryTools(p *Pipeline) []registry.Tool {
	return []registry.Tool{
		{Def: defStoreEpisode, Plan: p.planMemory(defStoreEpisode), Write: p.memoryWrite(defStoreEpisode), Action: "store_episode", Venue: Venue},
		{Def: defProposeInsight, Plan: p.planMemory(defProposeInsight), Write: p.memoryWrite(defProposeInsight), Action: "propose_insight", Venue: Venue},
		{Def: defRetract, Plan: p.planRetract, Write: p.retractTool, Action: "retract_entry", Venue: Venue},
		{Def: defForget, Plan: p.planForget, Privileged: p.forgetTool, Action: "forget_entry", Venue: Venue},
		{Def: defSearchMemory, Read: p.searchTool, Action: "search_memory"},
		{Def: defGetEntry, Read: p.getEntryTool, Action: "memory_entry"},
		{Def: defListEpisodes, Read: p.listEpisodesTool, Action: "memory_episodes"},
		{Def: defListLessons, Read: p.listLessonsTool, Action: "memory_lessons"},
		{Def: defMemoryStats, Read: p.statsTool, Action: "memory_stats"},
	}
}

type memoryArgs struct {
	Tool       string           `json:"tool"`
	Predicted  string           `json:"predicted"`
	Actual     string           `json:"actual"`
	Reflection string           `json:"reflection"`
	Content    string           `json:"content"`
	EntryType  string           `json:"entry_type"`
	Confidence *float64         `json:"confidence"`
	Claim      *knowledge.Claim `json:"claim"`
	Tags       []string         `json:"tags"`
}

// memoryEntry reads a memory write's arguments into the entry it
// proposes, written by a; an error says what is wrong with them.
func memoryEntry(d *tool.Def, in *registry.Input, a Author) (*knowledge.Entry, error) {
	var m memoryArgs
	if err := json.Unmarshal(in.Raw, &m); err != nil {
		return nil, errArgs
	}
	e := &knowledge.Entry{Type: knowledge.TypeInsight, Confidence: 0.3, Claim: m.Claim}
	if m.Confidence != nil {
		e.Confidence = *m.Confidence
	}
	var b strings.Builder
	if a.Tainted {
		b.WriteString(TaintedMark)
		e.Confidence = min(e.Confidence, taintedConfidence)
	}
	switch d {
	case defStoreEpisode:
		if strings.TrimSpace(m.Predicted) == "" || strings.TrimSpace(m.Actual) == "" {
			return nil, errors.New("an episode needs what was predicted and what actually happened")
		}
		fmt.Fprintf(&b, "Episode of %s: predicted %s; actual %s.", m.Tool, strings.TrimSpace(m.Predicted), strings.TrimSpace(m.Actual))
		if r := strings.TrimSpace(m.Reflection); r != "" {
			fmt.Fprintf(&b, " Reflection: %s", r)
		}
	default:
		if strings.TrimSpace(m.Content) == "" {
			return nil, errors.New("an insight needs content")
		}
		if m.EntryType != "" {
			if err := e.Type.UnmarshalText([]byte(m.EntryType)); err != nil || e.Type == knowledge.TypeStrategyFragment {
				return nil, errors.New("entry_type must be insight, warning, heuristic or causal_link")
			}
		}
		b.WriteString(strings.TrimSpace(m.Content))
	}
	if len(m.Tags) > 0 {
		fmt.Fprintf(&b, " Tags: %s.", strings.Join(m.Tags, ", "))
	}
	if b.Len() > MaxMemoryText {
		return nil, fmt.Errorf("the memory is %d bytes, above %d", b.Len(), MaxMemoryText)
	}
	e.Content = b.String()
	// Remember sets the source; the check needs one of the same shape.
	v := *e
	v.Source = knowledge.Source{Provenance: knowledge.CrossUser, Agent: a.Agent, Timestamp: time.Unix(1, 0)}
	if err := v.Validate(); err != nil {
		return nil, errors.New("the memory is not a valid knowledge entry: check its text and claim")
	}
	return e, nil
}

// planMemory checks a memory write's arguments and author; the plan sends
// nothing and moves no value.
func (p *Pipeline) planMemory(d *tool.Def) registry.Planner {
	return func(ctx context.Context, in *registry.Input) (*tool.Plan, error) {
		a, err := p.Author(ctx, in.SessionID)
		if err != nil {
			return nil, err
		}
		e, err := memoryEntry(d, in, a)
		if err != nil {
			return nil, err
		}
		what := "an episode"
		if d != defStoreEpisode {
			what = "a " + e.Type.String()
		}
		return &tool.Plan{Txs: []tool.Tx{}, Summary: fmt.Sprintf("screen %s (%d bytes) into quarantine as untrusted memory, pending consensus", what, len(e.Content))}, nil
	}
}

// memoryWrite consumes the capability, then runs the entry through
// Remember.
func (p *Pipeline) memoryWrite(d *tool.Def) registry.WriteHandler {
	return func(ctx context.Context, in *registry.Input, _ *tool.Plan, c *capability.Capability) (*tool.Result, error) {
		a, err := p.Author(ctx, in.SessionID)
		if err != nil {
			return nil, err
		}
		e, err := memoryEntry(d, in, a)
		if err != nil {
			return nil, err
		}
		in.Step(0)
		if err := c.Consume(d.Name, in.Args.Hash(), in.Tick, in.Now); err != nil {
			return nil, fmt.Errorf("%s: %w", d.Name, err)
		}
		r, err := p.Remember(ctx, a, e)
		if errors.Is(err, ErrMemoryRate) {
			return nil, err
		}
		if err != nil {
			return nil, fmt.Errorf("%s: the pipeline could not decide", d.Name)
		}
		in.Step(1)
		return tool.WriteResult(d, memoryReport(r, a, e), string(Quarantined), string(r.Verdict)+" "+string(r.Code), "ingestion_pipeline")
	}
}

// memoryReport is what a memory write answers: the report less the
// scores, which would help an attacker tune a poisoned entry.
func memoryReport(r *Report, a Author, e *knowledge.Entry) map[string]any {
	return map[string]any{"entry_id": r.EntryID, "verdict": r.Verdict, "stage": r.Stage, "reason_code": r.Code,
		"reasons": r.Reasons, "tainted": a.Tainted, "confidence_claimed": e.Confidence}
}

func (p *Pipeline) planRetract(ctx context.Context, in *registry.Input) (*tool.Plan, error) {
	a, err := p.Author(ctx, in.SessionID)
	if err != nil {
		return nil, err
	}
	id, err := p.ownPending(ctx, in, a)
	if err != nil {
		return nil, err
	}
	return &tool.Plan{Txs: []tool.Tx{}, Summary: fmt.Sprintf("withdraw this principal's pending memory %q", id)}, nil
}

// ownPending returns the entry id of a retract call when it names a's own
// pending memory; any other entry gets one error, so that the tool tells
// nothing of other principals' entries.
func (p *Pipeline) ownPending(ctx context.Context, in *registry.Input, a Author) (string, error) {
	aa, err := decodeID(in)
	if err != nil {
		return "", err
	}
	q, err := p.cfg.Store.QuarantinedEntry(ctx, aa.EntryID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return "", errors.New("retract entry: the store could not be read")
	}
	if err != nil || !a.owns(q.Entry.Source.Agent) || q.Status != store.QuarantinePending {
		return "", errors.New("retract entry: no pending memory of this principal has that id (adopted knowledge and other entries are the owner's to reject)")
	}
	return aa.EntryID, nil
}

func (p *Pipeline) retractTool(ctx context.Context, in *registry.Input, _ *tool.Plan, c *capability.Capability) (*tool.Result, error) {
	a, err := p.Author(ctx, in.SessionID)
	if err != nil {
		return nil, err
	}
	id, err := p.ownPending(ctx, in, a)
	if err != nil {
		return nil, err
	}
	in.Step(0)
	if err := c.Consume(defRetract.Name, in.Args.Hash(), in.Tick, in.Now); err != nil {
		return nil, fmt.Errorf("retract entry: %w", err)
	}
	in.Step(1)
	r, err := p.Reject(ctx, id, knowledge.NoAttack)
	if err != nil {
		return nil, reviewError("retract entry", err)
	}
	return tool.WriteResult(defRetract, memoryReport(r, a, &knowledge.Entry{}), string(Rejected), string(r.Verdict), "quarantine_store")
}

// forgetArgs reads memory_forget_entry's arguments and finds the entry.
func (p *Pipeline) forgetArgs(in *registry.Input) (id string, k Known, err error) {
	var a struct {
		EntryID string `json:"entry_id"`
		Reason  string `json:"reason"`
	}
	if err := json.Unmarshal(in.Raw, &a); err != nil || a.EntryID == "" || strings.TrimSpace(a.Reason) == "" {
		return "", Known{}, errors.New("forget entry: give the entry_id and a reason")
	}
	k, ok := p.grim.Get(a.EntryID)
	if !ok {
		return "", Known{}, fmt.Errorf("forget entry: %w", ErrNoEntry)
	}
	return a.EntryID, k, nil
}

func (p *Pipeline) planForget(_ context.Context, in *registry.Input) (*tool.Plan, error) {
	id, k, err := p.forgetArgs(in)
	if err != nil {
		return nil, err
	}
	return &tool.Plan{Txs: []tool.Tx{}, Summary: fmt.Sprintf("owner setting: forget Grimoire entry %q (%s, %s)", id, k.Partition, k.Entry.Source.Provenance)}, nil
}

// forgetTool forgets the entry once the owner approved this very permit;
// the capability is used up before anything changes.
func (p *Pipeline) forgetTool(ctx context.Context, in *registry.Input, _ *tool.Plan, c *capability.Capability, a *capability.Approval) (*tool.Result, error) {
	if a == nil || c == nil || !a.Valid(c.PermitID()) {
		return nil, errors.New("forget entry: no owner approval of this permit")
	}
	in.Step(0)
	if err := c.Consume(defForget.Name, in.Args.Hash(), in.Tick, in.Now); err != nil {
		return nil, fmt.Errorf("forget entry: %w", err)
	}
	id, _, err := p.forgetArgs(in)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	k, err := p.Forget(ctx, id)
	if errors.Is(err, ErrNoEntry) {
		return nil, fmt.Errorf("forget entry: %w", err)
	}
	if err != nil {
		return nil, errors.New("forget entry: the store could not be written")
	}
	return tool.WriteResult(defForget, map[string]any{"entry_id": id, "forgotten": true, "partition": k.Partition.String(),
		"provenance": k.Entry.Source.Provenance.String()}, "entry forgotten", "entry forgotten", "grimoire_store")
}

func (p *Pipeline) searchTool(ctx context.Context, in *registry.Input) (*tool.Result, error) {
	var a struct {
		Query string `json:"query"`
		Limit int    `json:"limit"`
	}
	if err := json.Unmarshal(in.Raw, &a); err != nil || strings.TrimSpace(a.Query) == "" {
		return nil, errArgs
	}
	if a.Limit == 0 {
		a.Limit = 10
	}
	out, _, err := p.QueryFor(ctx, in.SessionID, a.Query, a.Limit)
	if err != nil {
		return nil, errors.New("search memory: the Grimoire could not be searched")
	}
	return tool.ReadResult(defSearchMemory, out)
}

// memEntry is one entry as the memory reads show it.
type memEntry struct {
	EntryID    string  `json:"entry_id"`
	State      string  `json:"state"` // adopted, self, quarantined or unknown
	Content    string  `json:"content,omitempty"`
	Type       string  `json:"entry_type,omitempty"`
	Partition  string  `json:"partition,omitempty"`
	Provenance string  `json:"provenance,omitempty"`
	Agent      string  `json:"agent,omitempty"`
	Confidence float64 `json:"confidence"`
	Validation string  `json:"validation_status,omitempty"`
	Retention  float64 `json:"retention,omitempty"`
	Status     string  `json:"quarantine_status,omitempty"`
	Reason     string  `json:"quarantine_reason,omitempty"`
	Tainted    bool    `json:"tainted,omitempty"`
	Own        bool    `json:"own"`
}

func quarantinedView(q *store.QuarantinedEntry) memEntry {
	e := q.Entry
	return memEntry{EntryID: e.ID, State: "quarantined", Content: e.Content, Type: e.Type.String(), Partition: knowledge.PartitionQuarantine.String(),
		Provenance: e.Source.Provenance.String(), Agent: e.Source.Agent, Confidence: e.Confidence, Status: string(q.Status), Reason: q.Reason,
		Tainted: strings.HasPrefix(e.Content, TaintedMark), Own: true}
}

func (p *Pipeline) getEntryTool(ctx context.Context, in *registry.Input) (*tool.Result, error) {
	aa, err := decodeID(in)
	if err != nil {
		return nil, err
	}
	if k, ok := p.grim.Get(aa.EntryID); ok {
		e := k.Entry
		state := "adopted"
		if k.Partition == knowledge.PartitionSelf {
			state = "self"
		}
		out := memEntry{EntryID: e.ID, State: state, Content: e.Content, Type: e.Type.String(), Partition: k.Partition.String(),
			Provenance: e.Source.Provenance.String(), Agent: e.Source.Agent, Confidence: k.Confidence, Retention: k.Retention,
			Tainted: strings.HasPrefix(e.Content, TaintedMark)}
		if k.Adoption != nil {
			out.Validation = k.Adoption.Status.String()
		}
		if a, err := p.Author(ctx, in.SessionID); err == nil {
			out.Own = a.owns(e.Source.Agent)
		}
		return tool.ReadResult(defGetEntry, out)
	}
	unknown := memEntry{EntryID: aa.EntryID, State: "unknown"}
	a, err := p.Author(ctx, in.SessionID)
	if err != nil {
		return tool.ReadResult(defGetEntry, unknown)
	}
	q, err := p.cfg.Store.QuarantinedEntry(ctx, aa.EntryID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && !a.owns(q.Entry.Source.Agent)) {
		return tool.ReadResult(defGetEntry, unknown)
	}
	if err != nil {
		return nil, errors.New("get entry: the store could not be read")
	}
	return tool.ReadResult(defGetEntry, quarantinedView(q))
}

func (p *Pipeline) listEpisodesTool(ctx context.Context, in *registry.Input) (*tool.Result, error) {
	var aa struct {
		Status store.QuarantineStatus `json:"status"`
		Limit  int                    `json:"limit"`
	}
	if err := json.Unmarshal(in.Raw, &aa); err != nil {
		return nil, errArgs
	}
	if aa.Limit == 0 {
		aa.Limit = 20
	}
	a, err := p.Author(ctx, in.SessionID)
	if err != nil {
		return nil, err
	}
	qs, err := p.OwnMemory(ctx, a, aa.Status, aa.Limit)
	if err != nil {
		return nil, errors.New("list episodes: the store could not be read")
	}
	out := make([]memEntry, len(qs))
	for i := range qs {
		out[i] = quarantinedView(&qs[i])
	}
	return tool.ReadResult(defListEpisodes, map[string]any{"episodes": out})
}

// lessonView is a lesson as memory_list_lessons shows it.
type lessonView struct {
	ID         string  `json:"id"`
	Summary    string  `json:"summary"`
	Advice     string  `json:"advice,omitempty"`
	Reason     string  `json:"reason,omitempty"`
	EntryID    string  `json:"entry_id,omitempty"`
	Confidence float64 `json:"confidence"`
	Promoted   bool    `json:"promoted"`
}

func (p *Pipeline) listLessonsTool(_ context.Context, in *registry.Input) (*tool.Result, error) {
	var aa struct {
		Tool  string `json:"tool"`
		Limit int    `json:"limit"`
	}
	if err := json.Unmarshal(in.Raw, &aa); err != nil {
		return nil, errArgs
	}
	if aa.Limit == 0 {
		aa.Limit = 20
	}
	now := p.cfg.Now()
	out := []lessonView{}
	for _, l := range p.lessons.List() {
		if len(out) == aa.Limit {
			break
		}
		if aa.Tool != "" && !names(&l, aa.Tool) {
			continue
		}
		out = append(out, lessonView{ID: l.ID, Summary: l.Summary, Advice: l.Advice, Reason: l.Reason, EntryID: l.EntryID,
			Confidence: l.ConfidenceAt(now), Promoted: !l.Promoted.IsZero()})
	}
	return tool.ReadResult(defListLessons, map[string]any{"lessons": out})
}

// names reports whether lesson l is about the tool name: a condition or
// keyword, its summary or its advice names it.
func names(l *adopt.Lesson, name string) bool {
	for _, s := range slices.Concat(l.Conditions, l.Keywords, []string{l.Summary, l.Advice}) {
		if strings.Contains(strings.ToLower(s), name) {
			return true
		}
	}
	return false
}

func (p *Pipeline) statsTool(ctx context.Context, in *registry.Input) (*tool.Result, error) {
	a, err := p.Author(ctx, in.SessionID)
	if err != nil {
		return nil, err
	}
	parts := map[string]int{}
	for _, k := range p.grim.All() {
		parts[k.Partition.String()]++
	}
	qs, err := p.OwnMemory(ctx, a, "", store.MaxQuarantinePending)
	if err != nil {
		return nil, errors.New("memory stats: the store could not be read")
	}
	own := map[string]int{}
	hour := 0
	now := p.cfg.Now()
	for _, q := range qs {
		own[string(q.Status)]++
		if now.Sub(q.QuarantinedAt) < time.Hour {
			hour++
		}
	}
	return tool.ReadResult(defMemoryStats, map[string]any{"grimoire": parts, "lessons": p.lessons.Len(), "own": own,
		"written_last_hour": hour, "max_per_hour": MaxMemoryPerHour, "max_text_bytes": MaxMemoryText})
}
