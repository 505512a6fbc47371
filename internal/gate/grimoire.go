package gate

import (
	"context"
	"encoding/json"

	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// QueryGrimoire answers session s's query_grimoire, whose arguments raw
// are {"query": ..., "limit": ...}: the closest entries of the Grimoire,
// recorded in the session's ledger like any tool's output. A ward without
// the Grimoire refuses it (ToolUnavailable).
func (t *Tools) QueryGrimoire(ctx context.Context, s *Session, raw json.RawMessage) (json.RawMessage, error) {
	if t.cfg.Knowledge == nil {
		return nil, refuse(reason.ToolUnavailable, "grimoire", "the Grimoire is not enabled on this ward", "")
	}
	var q struct {
		Query string `json:"query"`
		Limit int    `json:"limit"`
	}
	if err := json.Unmarshal(raw, &q); err != nil {
		return nil, refuse(reason.BadInput, "schema", "the arguments are not valid JSON", err.Error())
	}
	out, external, err := t.cfg.Knowledge.QueryFor(ctx, s.ID, q.Query, q.Limit)
	if err != nil {
		return nil, refuse(reason.ExecutionFailed, "grimoire", "the Grimoire could not be searched", err.Error())
	}
	// Adopted external entries passed the immune system, yet they are
	// other agents' words: an answer that holds any is third-party
	// content for the session, like any third-party output. The agent's
	// own knowledge is not.
	def := grimoireOwn
	if external {
		def = grimoireExternal
	}
	if err := t.observe(ctx, s, def, raw, &tool.Result{Data: out}); err != nil {
		return nil, err
	}
	return out, nil
}

// What the trust model records query_grimoire's output as.
var (
	grimoireOwn      = &tool.Def{Name: "query_grimoire"}
	grimoireExternal = &tool.Def{Name: "query_grimoire", ThirdParty: true}
)
