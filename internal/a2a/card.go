package a2a

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	spec "github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
)

// examples are the arguments shown in the card for each facade tool.
var examples = map[string][]string{
	"preview_action": {
		`{"action_type":"swap","venue":"uniswap_v3","params":{"token_in":"<USDC address>","token_out":"<WETH address>","amount_in":"10000000"}}`,
		`{"action_type":"deposit","venue":"vault","params":{"assets":"1000000000"}}`,
	},
	"commit_action":    {`{"permit_id":"<permit_id from preview_action>"}`},
	"cancel_action":    {`{"permit_id":"<permit_id from preview_action>"}`},
	"emergency_halt":   {`{"reason":"balances look wrong"}`},
	"query_state":      {`{"kind":"gate"}`, `{"kind":"permit","params":{"permit_id":"<permit_id>"}}`, `{"kind":"balances"}`},
	"search_context":   {`{"kind":"gas"}`, `{"kind":"price","params":{"token":"<token address>"}}`},
	"query_grimoire":   {`{"query":"what went wrong with the last swap?","limit":5}`},
	"update_directive": {`{"directive":"keep at least 1,000 USDC in the wallet"}`},
}

// buildCard makes the card's fixed part; the URL is set per request when
// not configured.
func buildCard(cfg Config) (spec.AgentCard, error) {
	card := spec.AgentCard{
		Name: "ward",
		Description: "ward is a safety runtime between autonomous agents and their tools. Every call passes the owner's policy and safety hooks; " +
			"a state-changing action is first previewed (validated, checked and simulated, returning a single-use permit) and only then committed. " +
			"Send one tool call per message as a data part {\"tool\": \"<skill id>\", \"arguments\": {...}} (or a text part holding that JSON). " +
			"A refused call fails the task with a reason code; a call held for the owner's review leaves the task input-required.",
		URL:                cfg.URL,
		Version:            cfg.Version,
		ProtocolVersion:    protocolVersion,
		PreferredTransport: spec.TransportProtocolJSONRPC,
		Capabilities:       spec.AgentCapabilities{Streaming: true},
		DefaultInputModes:  []string{mediaJSON, mediaText},
		DefaultOutputModes: []string{mediaJSON, mediaText},
		SecuritySchemes: spec.NamedSecuritySchemes{
			"bearer": spec.HTTPAuthSecurityScheme{Scheme: "bearer",
				Description: "a ward token: 'ward token create --role peer' for another agent (peer authority), --role agent for the agent ward guards"},
		},
		Security: []spec.SecurityRequirements{{"bearer": spec.SecuritySchemeScopes{}}},
		Skills:   []spec.AgentSkill{},
	}
	for _, f := range cfg.Skills {
		var schema bytes.Buffer
		if err := json.Compact(&schema, f.Params); err != nil {
			return spec.AgentCard{}, fmt.Errorf("a2a: skill %s: schema: %w", f.Name, err)
		}
		tags := []string{"read"}
		if f.Writes {
			tags = []string{"write"}
		}
		var ex []string
		args := examples[f.Name]
		if len(args) == 0 {
			args = []string{"{}"}
		}
		for _, a := range args {
			ex = append(ex, fmt.Sprintf(`{"tool":%q,"arguments":%s}`, f.Name, a))
		}
		card.Skills = append(card.Skills, spec.AgentSkill{
			ID: f.Name, Name: f.Name, Tags: tags, Examples: ex,
			Description: f.Description + " Arguments (JSON Schema): " + schema.String(),
			InputModes:  []string{mediaJSON, mediaText}, OutputModes: []string{mediaJSON, mediaText},
		})
	}
	if _, err := json.Marshal(card); err != nil {
		return spec.AgentCard{}, fmt.Errorf("a2a: agent card: %w", err)
	}
	return card, nil
}

// cardURLKey is the context key of the JSON-RPC endpoint's URL derived
// from a card request.
type cardURLKey struct{}

// Card serves the Agent Card (public: it shows what ward offers, never
// state) with a2asrv's card handler. Without a configured URL the card's
// URL is derived from the request: its Host, and https over TLS.
func (h *Handler) Card() http.Handler {
	card := h.card
	var lib http.Handler
	if card.URL != "" {
		lib = a2asrv.NewStaticAgentCardHandler(&card)
	} else {
		lib = a2asrv.NewAgentCardHandler(a2asrv.AgentCardProducerFn(func(ctx context.Context) (*spec.AgentCard, error) {
			c := card
			c.URL, _ = ctx.Value(cardURLKey{}).(string)
			return &c, nil
		}))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if card.URL == "" {
			scheme := "http"
			if r.TLS != nil {
				scheme = "https"
			}
			host := r.Host
			if host == "" {
				host = "localhost"
			}
			w.Header().Set("Vary", "Host")
			r = r.WithContext(context.WithValue(r.Context(), cardURLKey{}, scheme+"://"+host+RPCPath))
		}
		lib.ServeHTTP(w, r)
	})
}
