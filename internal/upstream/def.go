package upstream

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wardhq/ward/internal/schema"
	"github.com/wardhq/ward/internal/tool"
)

// Default categories of imported tools when no override sets one: reads
// are data (every profile loads data); writes are intelligence, which only
// the broad profiles (active, golem, full, dev) and learning load, so an
// upstream write does not appear in a narrow trading, LP or vault profile
// until the operator places it there.
const (
	DefaultReadCategory  = tool.CatData
	DefaultWriteCategory = tool.CatIntelligence
)

// maxDescription bounds an imported tool's description (bytes after the
// "[upstream NAME] " prefix): the description is the upstream's text and
// reaches the model.
const maxDescription = 1024

// Class is an upstream tool's classification.
type Class struct {
	Tier       tool.Tier
	Risk       tool.Risk
	Category   tool.Category
	ThirdParty bool
	// Egress: the tool sends data out.
	Egress bool
	// SystemFields: the operator's system fields of the tool's output.
	SystemFields []string
}

// Classify returns the classification of a tool with annotations a (nil:
// none) under the server-wide and per-tool overrides; the per-tool
// override wins, then the server's, then the annotations. Annotations are
// the server's own claims, so they only make ward stricter unless the
// operator trusts them (trusted):
//
//   - by default a tool is a write, dangerous, third-party content and
//     sends data out (an unknown tool may do anything: MCP's own defaults
//     for destructiveHint and openWorldHint are true);
//   - destructiveHint true keeps it dangerous; readOnlyHint true and
//     openWorldHint false lower nothing;
//   - with trusted, readOnlyHint true makes it a safe read, and
//     openWorldHint false makes its output trusted and its calls not
//     sending data out;
//   - category: DefaultReadCategory or DefaultWriteCategory by tier.
func Classify(a *mcp.ToolAnnotations, server, perTool Override, trusted bool) Class {
	c := Class{Tier: tool.Write, Risk: tool.Dangerous, ThirdParty: true, Egress: true}
	if trusted && a != nil {
		if a.ReadOnlyHint {
			c.Tier, c.Risk = tool.Read, tool.Safe
		}
		if a.OpenWorldHint != nil && !*a.OpenWorldHint {
			c.ThirdParty, c.Egress = false, false
		}
	}
	if a != nil && a.DestructiveHint != nil && *a.DestructiveHint {
		c.Risk = tool.Dangerous
	}
	var cat tool.Category
	for _, o := range []Override{server, perTool} {
		if o.Tier != tool.TierUnset {
			c.Tier = o.Tier
		}
		if o.Risk != tool.RiskUnset {
			c.Risk = o.Risk
		}
		if o.Category != "" {
			cat = o.Category
		}
		if o.ThirdParty != nil {
			c.ThirdParty = *o.ThirdParty
		}
		if o.Egress != nil {
			c.Egress = *o.Egress
		}
	}
	c.SystemFields = perTool.SystemFields
	c.Category = cat
	if cat == "" {
		c.Category = DefaultWriteCategory
		if c.Tier == tool.Read {
			c.Category = DefaultReadCategory
		}
	}
	return c
}

// candidate is an upstream tool converted to a definition, not yet
// checked against its pin.
type candidate struct {
	srv      Server
	upstream string
	def      *tool.Def
	hash     string
	// canon is the canonical definition DefHash hashed.
	canon []byte
	// legacy is the hash without the output schema (legacyHash; hash when
	// the tool declares none).
	legacy string
	// noOutput says why the tool's declared output schema is not used
	// ("" when it is, or none is declared).
	noOutput string
}

// convert turns an upstream tool into ward's definition of it. It fails
// for a name ward cannot sanitise, a read that would shadow a gate query
// kind, and an input schema ward cannot compile (the error names the
// place in the schema). An output schema ward cannot compile costs only
// the output's validation: the definition leaves it out and noOutput says
// why.
func convert(srv Server, t *mcp.Tool) (candidate, error) {
	local := Sanitize(t.Name)
	if local == "" {
		return candidate{}, errors.New("its name has no letters or digits")
	}
	name := ToolName(srv.Name, t.Name)
	cls := Classify(t.Annotations, srv.Defaults, srv.Tools[t.Name], srv.TrustAnnotations)
	if cls.Tier == tool.Read && (local == "permit" || local == "gate") {
		return candidate{}, fmt.Errorf("a read called %q would shadow query_state's own kind", local)
	}
	params, err := json.Marshal(t.InputSchema)
	if err != nil || t.InputSchema == nil {
		return candidate{}, errors.New("no input schema")
	}
	if _, err := schema.Compile(params); err != nil {
		return candidate{}, fmt.Errorf("ward cannot use its input schema: %w", err)
	}
	var output json.RawMessage
	var noOutput string
	if t.OutputSchema != nil {
		raw, err := json.Marshal(t.OutputSchema)
		if err == nil {
			_, err = schema.Compile(raw)
		}
		if err != nil {
			noOutput = fmt.Sprintf("its output schema is not used (its output is not validated): %v", err)
		} else {
			output = raw
		}
	}
	desc := strings.TrimSpace(clean(t.Description, maxDescription))
	if desc == "" {
		desc = "(no description)"
	}
	d := &tool.Def{
		Name:          name,
		Description:   "[upstream " + srv.Name + "] " + desc,
		Category:      cls.Category,
		Tier:          cls.Tier,
		RiskTier:      tool.Layer1,
		Budget:        tool.Medium,
		Params:        params,
		OutputSchema:  output,
		SchemaVersion: 1,
		Risk:          cls.Risk,
		ThirdParty:    cls.ThirdParty,
		Egress:        cls.Egress,
		SystemFields:  cls.SystemFields,
	}
	if cls.Tier == tool.Write {
		// An upstream write's effect is unknown to ward: open (the
		// strictest for the phase gate), Layer3 unless the operator
		// lowered its risk below dangerous, and the slow budget.
		d.Effect, d.RiskTier, d.Budget = tool.EffectOpen, tool.Layer2, tool.Slow
		if cls.Risk.Effective() >= tool.Dangerous {
			d.RiskTier = tool.Layer3
		}
	}
	if err := d.Validate(); err != nil {
		return candidate{}, err
	}
	canon, hash, err := DefHash(t)
	if err != nil {
		return candidate{}, err
	}
	legacy := hash
	if t.OutputSchema != nil {
		if legacy, err = legacyHash(t); err != nil {
			return candidate{}, err
		}
	}
	return candidate{srv: srv, upstream: t.Name, def: d, hash: hash, legacy: legacy, canon: canon, noOutput: noOutput}, nil
}

// ToolName returns ward's name for an upstream tool: mcp_<server>_<tool>
// with the tool's name sanitised (Sanitize). A name over 64 bytes keeps
// its first part and ends in 8 hex digits of the SHA-256 of the
// upstream's name, so distinct long names stay distinct.
func ToolName(server, upstreamName string) string {
	local := Sanitize(upstreamName)
	name := "mcp_" + server + "_" + local
	if len(name) <= 64 {
		return name
	}
	sum := sha256.Sum256([]byte(upstreamName))
	suffix := "_" + hex.EncodeToString(sum[:4])
	keep := strings.TrimRight(name[:64-len(suffix)], "_")
	return keep + suffix
}

// Sanitize returns an upstream tool name as ward's lower-case words:
// camelCase splits into words, every run of other characters becomes one
// '_', and leading and trailing '_' go ("getHTTPStatus" → "get_httpstatus",
// "search-docs.v2" → "search_docs_v2").
func Sanitize(s string) string {
	var b strings.Builder
	under := true // no leading '_'
	lowerBefore := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			if lowerBefore && !under {
				b.WriteByte('_')
			}
			b.WriteByte(c + ('a' - 'A'))
			under, lowerBefore = false, false
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			b.WriteByte(c)
			under, lowerBefore = false, true
		default:
			if !under {
				b.WriteByte('_')
			}
			under, lowerBefore = true, false
		}
	}
	return strings.TrimRight(b.String(), "_")
}

// pinnedDef is what DefHash hashes: the parts of a definition that change
// what a tool does or what the model is told.
type pinnedDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema any             `json:"input_schema"`
	Annotations *pinnedAnnotate `json:"annotations"`
	// OutputSchema is left out when the tool declares none, so that the
	// hash of such a tool is what it was before output schemas counted.
	OutputSchema any `json:"output_schema,omitempty"`
}

type pinnedAnnotate struct {
	Title       string `json:"title,omitempty"`
	ReadOnly    bool   `json:"read_only"`
	Destructive *bool  `json:"destructive,omitempty"`
	Idempotent  bool   `json:"idempotent"`
	OpenWorld   *bool  `json:"open_world,omitempty"`
}

// DefHash returns the canonical JSON of a tool's definition (its name,
// description, input schema, annotations and output schema; object keys
// sorted, numbers as JSON numbers re-encoded by encoding/json) and its
// SHA-256 in hex.
func DefHash(t *mcp.Tool) ([]byte, string, error) {
	return defHash(t, true)
}

// legacyHash is the hash ward gave t before output schemas were part of
// a definition: a pin of it approved t as it is but for its output
// schema, which ward did not yet read.
func legacyHash(t *mcp.Tool) (string, error) {
	_, h, err := defHash(t, false)
	return h, err
}

func defHash(t *mcp.Tool, output bool) ([]byte, string, error) {
	p := pinnedDef{Name: t.Name, Description: t.Description}
	// Round-trip the schemas through a generic value so that their
	// spelling (key order, spacing) does not change the hash.
	raw, err := json.Marshal(t.InputSchema)
	if err != nil {
		return nil, "", fmt.Errorf("input schema: %w", err)
	}
	if err := json.Unmarshal(raw, &p.InputSchema); err != nil {
		return nil, "", fmt.Errorf("input schema: %w", err)
	}
	if t.OutputSchema != nil && output {
		raw, err := json.Marshal(t.OutputSchema)
		if err != nil {
			return nil, "", fmt.Errorf("output schema: %w", err)
		}
		if err := json.Unmarshal(raw, &p.OutputSchema); err != nil {
			return nil, "", fmt.Errorf("output schema: %w", err)
		}
	}
	if a := t.Annotations; a != nil {
		p.Annotations = &pinnedAnnotate{Title: a.Title, ReadOnly: a.ReadOnlyHint, Destructive: a.DestructiveHint,
			Idempotent: a.IdempotentHint, OpenWorld: a.OpenWorldHint}
	}
	canon, err := json.Marshal(p)
	if err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256(canon)
	return canon, hex.EncodeToString(sum[:]), nil
}

// clean returns s without control characters other than newline and tab,
// cut to at most n bytes at a rune boundary (with "…" when cut).
func clean(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return r
		}
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069') {
			return -1
		}
		return r
	}, s)
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
