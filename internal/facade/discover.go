package facade

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// Discovery: what a session may call, as a model finds it out. The
// facades are listed with ward's own hints; each upstream tool the view
// offers is listed under its own name too (Listed) and runs through the
// same gate as through preview_action or query_state; query_state
// {"kind":"tools"} lists every kind, venue and parameter schema; and a
// call that names no venue where several offer the kind, or a kind that
// does not exist, is answered with the valid choices (docs/tools.md).

// Hints are a tool's MCP annotations as ward states them. For an
// upstream tool they are derived from ward's classification of it (its
// tier and egress), never from the annotations the upstream sent: those
// are the upstream's own claims.
type Hints struct {
	Title       string `json:"title,omitempty"`
	ReadOnly    bool   `json:"readOnlyHint"`
	Destructive bool   `json:"destructiveHint"`
	Idempotent  bool   `json:"idempotentHint"`
	OpenWorld   bool   `json:"openWorldHint"`
}

// upstreamPrefix starts the name of every tool ward proxies from an
// upstream MCP server (mcp_<server>_<tool>) and the venue of its adapter
// (mcp_<server>); no native tool uses it.
const upstreamPrefix = "mcp_"

// proxied reports whether e is a tool ward proxies from an upstream MCP
// server.
func proxied(e *registry.Entry) bool {
	return strings.HasPrefix(e.Def.Name, upstreamPrefix) && strings.HasPrefix(e.Venue, upstreamPrefix)
}

// Listed returns every tool session view v may call by name, in a fixed
// order: the facades of Defs, then the upstream tools v offers, sorted by
// name. An upstream tool's entry carries its own name, its (compiled)
// input schema, its description as the owner approved it, a sentence of
// ward's saying what calling it does, and hints from ward's
// classification. Listed reads only v, so one session's list never shows
// another profile's tools.
func Listed(v *registry.View) []Def {
	out := Defs(v)
	if v == nil {
		return out
	}
	for _, e := range v.Entries() {
		if proxied(e) {
			out = append(out, upstreamDef(e))
		}
	}
	return out
}

// Offers reports whether session view v may call the tool name: one of
// Listed(v), found without building the list.
func Offers(v *registry.View, name string) bool {
	if _, ok := listedEntry(v, name); ok {
		return true
	}
	return slices.ContainsFunc(Defs(v), func(f Def) bool { return f.Name == name })
}

// upstreamDef is an upstream tool's entry in Listed.
func upstreamDef(e *registry.Entry) Def {
	d := e.Def
	title := strings.TrimPrefix(e.Venue, upstreamPrefix) + ": " + e.Action
	f := Def{Name: d.Name, Params: d.Params, Tool: d.Name}
	if d.Tier == tool.Read {
		f.Description = d.Description + "\n\n(ward: a read of an upstream server, run through ward's gate: policy, taint and audit. " +
			"Its output is the upstream's.)"
		// A read that sends data out (an HTTP fetch, a message) is not
		// read-only in MCP's sense.
		f.Hints = Hints{Title: title, ReadOnly: !d.Egress, OpenWorld: true}
		return f
	}
	f.Description = d.Description + "\n\n(ward: a state-changing tool of an upstream server. Calling it does not run it: " +
		"ward checks the call (schema, policy, hooks) and returns a permit; commit_action with its permit_id runs it, once.)"
	// ward cannot know what an upstream write does: destructive, not
	// idempotent, whatever the upstream says.
	f.Hints = Hints{Title: title, Destructive: true, OpenWorld: true}
	return f
}

// listedEntry returns the upstream tool called name if session view v
// offers it.
func listedEntry(v *registry.View, name string) (*registry.Entry, bool) {
	if v == nil || !strings.HasPrefix(name, upstreamPrefix) {
		return nil, false
	}
	e, ok := v.Get(name)
	if !ok || !proxied(e) {
		return nil, false
	}
	return e, true
}

// callListed runs the upstream tool e called by its own name: a read runs
// as query_state would run it, a write is previewed as preview_action
// would preview it (the same gate; commit_action runs it), with opts.
func (t *Tools) callListed(ctx context.Context, gs *gate.Session, e *registry.Entry, raw json.RawMessage, opts gate.CallOptions) (json.RawMessage, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage("{}")
	}
	if e.Def.Tier == tool.Read {
		res, err := t.g.ReadWith(ctx, gs, e.Def.Name, raw, opts)
		if err != nil {
			return nil, err
		}
		return json.Marshal(res)
	}
	pv, err := t.g.PreviewWith(ctx, gs, e.Def.Name, raw, opts)
	if err != nil {
		return nil, err
	}
	return json.Marshal(pv)
}

// gateKinds are query_state's own kinds, answered by the gate rather than
// by a tool.
var gateKinds = []string{"gate", "permit", "quarantine", "tools"}

// venues returns the venues at which view v offers kind as a write
// (writes) or as a read, sorted.
func venues(v *registry.View, writes bool, kind string) []string {
	var out []string
	for _, a := range v.Adapters(writes) {
		if a[0] == kind {
			out = append(out, a[1])
		}
	}
	return out
}

// kinds returns the kinds view v offers as writes (writes) or as reads,
// sorted, each once.
func kinds(v *registry.View, writes bool) []string {
	var out []string
	for _, a := range v.Adapters(writes) {
		if len(out) == 0 || out[len(out)-1] != a[0] {
			out = append(out, a[0])
		}
	}
	return out
}

// resolve returns the tool kind resolves to at venue among view v's
// writes (writes) or reads. With no venue it takes the only venue that
// offers kind. When there is none, the refusal says what the valid
// choices are: the venues that offer kind (VENUE_REQUIRED when the call
// named none), or the kinds there are.
func resolve(v *registry.View, writes bool, kind, venue string) (*registry.Entry, *Refusal) {
	at := venues(v, writes, kind)
	if venue == "" && len(at) == 1 {
		venue = at[0]
	}
	if slices.Contains(at, venue) {
		if e, ok := v.Adapter(kind, venue); ok && (e.Def.Tier != tool.Read) == writes {
			return e, nil
		}
	}
	code, what, other, via := reason.ToolUnavailable, "lookup", "an action: preview it with preview_action", "query_state or search_context"
	if writes {
		code, what, other, via = reason.NotPreviewable, "action", "a lookup: call query_state or search_context with it as kind", "preview_action"
	}
	switch {
	case len(at) > 0 && venue == "":
		return nil, refuse(reason.VenueRequired, "adapter", fmt.Sprintf("%s is offered at several venues; name one in venue: %s", quote(kind), choices(at)), "")
	case len(at) > 0:
		return nil, refuse(code, "adapter", fmt.Sprintf("no %s %s at venue %s; the venues that offer it are: %s", quote(kind), what, quote(venue), choices(at)), "")
	case len(venues(v, !writes, kind)) > 0:
		return nil, refuse(code, "adapter", fmt.Sprintf("%s is %s", quote(kind), other), "")
	}
	valid := kinds(v, writes)
	if !writes {
		valid = append(valid, gateKinds...)
		slices.Sort(valid)
	}
	if len(valid) == 0 {
		return nil, refuse(code, "adapter", fmt.Sprintf("no %s %s is available in this session, and %s has none", quote(kind), what, via), "")
	}
	return nil, refuse(code, "adapter", fmt.Sprintf("no %s %s is available in this session; the %s kinds are: %s", quote(kind), what, via, choices(valid)), "")
}

// maxChoices is how many names a refusal lists before it points to
// query_state {"kind":"tools"} for the rest.
const maxChoices = 100

// choices lists names for a refusal, at most maxChoices of them.
func choices(names []string) string {
	if len(names) <= maxChoices {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf(`%s, and %d more (query_state {"kind":"tools"} lists them all)`, strings.Join(names[:maxChoices], ", "), len(names)-maxChoices)
}

// Action is one kind at one venue as query_state {"kind":"tools"} lists
// it: the facade that takes it, the tool it resolves to and the JSON
// schema of the params that tool takes.
type Action struct {
	Kind  string `json:"kind"`
	Venue string `json:"venue"`
	// Call is the facade to call with {kind or action_type, venue,
	// params}: preview_action for a write, query_state (or
	// search_context) for a read; for an upstream read whose kind
	// query_state answers itself (gate, permit, quarantine, tools), the
	// tool's own name.
	Call string `json:"call"`
	// Tool is the tool the kind resolves to; Direct says it is also
	// listed under that name and takes the params as its arguments (an
	// upstream server's tool).
	Tool        string          `json:"tool"`
	Direct      bool            `json:"direct,omitempty"`
	ReadOnly    bool            `json:"read_only"`
	Description string          `json:"description"`
	Params      json.RawMessage `json:"params_schema"`
}

// Kind is one kind and the venues that offer it.
type Kind struct {
	Kind   string   `json:"kind"`
	Call   string   `json:"call"`
	Venues []string `json:"venues"`
}

// ToolsPage is the answer to query_state {"kind":"tools"}.
type ToolsPage struct {
	// Kinds (first page only) are every kind the session may use, with
	// their venues; GateKinds are query_state's own.
	Kinds     []Kind   `json:"kinds,omitempty"`
	GateKinds []string `json:"gate_kinds,omitempty"`
	// Actions are the kinds at each venue with their params schemas, one
	// page of them; NextCursor, when set, is params.cursor of the next.
	Actions    []Action `json:"actions"`
	NextCursor string   `json:"next_cursor,omitempty"`
}

// MaxToolsPageBytes bounds one page of query_state {"kind":"tools"} (its
// kinds index and its actions' schemas and descriptions): a page holds
// actions until the next would pass it, and at least one.
const MaxToolsPageBytes = 256 << 10

// toolsPage answers query_state {"kind":"tools"} for view v: params may
// name a kind and a venue to list only those, and the cursor of a page.
func toolsPage(v *registry.View, params json.RawMessage) (*ToolsPage, error) {
	p, start, err := toolsQuery(params)
	if err != nil {
		return nil, err
	}
	all := listedActions(v, p.Kind, p.Venue)
	if len(all) == 0 && (p.Kind != "" || p.Venue != "") {
		return nil, noMatch(v, p.Kind, p.Venue)
	}
	if start > len(all) {
		return nil, refuse(reason.BadInput, "schema", "params.cursor is not a cursor this query returned", "")
	}
	page := &ToolsPage{Actions: []Action{}}
	size := 0
	if start == 0 {
		page.Kinds, page.GateKinds = kindIndex(v), gateKinds
		for _, k := range page.Kinds {
			size += len(k.Kind) + len(k.Call) + 32
			for _, vn := range k.Venues {
				size += len(vn) + 3
			}
		}
	}
	if err := page.fill(all, start, size); err != nil {
		return nil, err
	}
	return page, nil
}

// toolsParams are the params of query_state {"kind":"tools"}.
type toolsParams struct {
	Kind   string `json:"kind"`
	Venue  string `json:"venue"`
	Cursor string `json:"cursor"`
}

// toolsQuery decodes params and returns them with the index of the first
// action their cursor asks for.
func toolsQuery(params json.RawMessage) (toolsParams, int, error) {
	var p toolsParams
	if len(bytes.TrimSpace(params)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(params))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil {
			return p, 0, refuse(reason.BadInput, "schema", `params of kind "tools" may hold only kind, venue and cursor, as strings`, "")
		}
	}
	if len(p.Kind) > 64 || len(p.Venue) > 64 {
		return p, 0, refuse(reason.BadInput, "schema", "params.kind and params.venue are at most 64 bytes", "")
	}
	if p.Cursor == "" {
		return p, 0, nil
	}
	n, err := strconv.Atoi(p.Cursor)
	if err != nil || n < 0 || strconv.Itoa(n) != p.Cursor {
		return p, 0, refuse(reason.BadInput, "schema", "params.cursor is not a cursor this query returned", "")
	}
	return p, n, nil
}

// listedActions are the actions of view v, writes first, of the kind and
// venue given (any when empty).
func listedActions(v *registry.View, kind, venue string) []Action {
	var all []Action
	for _, writes := range []bool{true, false} {
		call := "query_state"
		if writes {
			call = "preview_action"
		}
		for _, a := range v.Adapters(writes) {
			if (kind != "" && a[0] != kind) || (venue != "" && a[1] != venue) {
				continue
			}
			e, ok := v.Get(a[2])
			if !ok {
				continue
			}
			act := Action{Kind: a[0], Venue: a[1], Call: call, Tool: a[2], Direct: proxied(e),
				ReadOnly: !writes && !e.Def.Egress, Description: e.Def.Description, Params: e.Def.Params}
			if act.Direct && !writes && slices.Contains(gateKinds, act.Kind) {
				// query_state answers this kind itself: the upstream read
				// is reached by its own name only.
				act.Call = act.Tool
			}
			all = append(all, act)
		}
	}
	return all
}

// fill adds to the page the actions of all from start on, as many as fit
// in MaxToolsPageBytes after the size bytes it already holds (at least
// one), and the cursor of the next page if some are left.
func (page *ToolsPage) fill(all []Action, start, size int) error {
	for i := start; i < len(all); i++ {
		a := all[i]
		// Measured as sent: encoding/json escapes <, > and & in the
		// schema, which an estimate from its length would miss.
		b, err := json.Marshal(a)
		if err != nil {
			return refuse(reason.HookError, "schema", "a tool's schema could not be listed", err.Error())
		}
		n := len(b)
		if len(page.Actions) > 0 && size+n > MaxToolsPageBytes {
			page.NextCursor = strconv.Itoa(i)
			break
		}
		size += n
		page.Actions = append(page.Actions, a)
	}
	return nil
}

// kindIndex lists every kind of view v with its venues: writes first.
func kindIndex(v *registry.View) []Kind {
	var out []Kind
	for _, writes := range []bool{true, false} {
		call := "query_state"
		if writes {
			call = "preview_action"
		}
		for _, a := range v.Adapters(writes) {
			if n := len(out); n > 0 && out[n-1].Kind == a[0] && out[n-1].Call == call {
				out[n-1].Venues = append(out[n-1].Venues, a[1])
				continue
			}
			out = append(out, Kind{Kind: a[0], Call: call, Venues: []string{a[1]}})
		}
	}
	return out
}

// noMatch is the refusal of a kinds filter that matches nothing: it lists
// the venues that offer kind, or the kinds (or venues) there are.
func noMatch(v *registry.View, kind, venue string) *Refusal {
	var ks, vs, at []string
	for _, writes := range []bool{true, false} {
		for _, a := range v.Adapters(writes) {
			ks, vs = append(ks, a[0]), append(vs, a[1])
			if a[0] == kind {
				at = append(at, a[1])
			}
		}
	}
	ks, vs, at = sortedSet(ks), sortedSet(vs), sortedSet(at)
	switch {
	case kind == "":
		return refuse(reason.ToolUnavailable, "adapter", fmt.Sprintf("no kind is offered at venue %s in this session; the venues are: %s", quote(venue), choices(vs)), "")
	case len(at) > 0:
		return refuse(reason.ToolUnavailable, "adapter", fmt.Sprintf("no %s at venue %s; the venues that offer it are: %s", quote(kind), quote(venue), choices(at)), "")
	}
	return refuse(reason.ToolUnavailable, "adapter", fmt.Sprintf("no kind %s is offered in this session; the kinds are: %s", quote(kind), choices(ks)), "")
}

func sortedSet(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}
