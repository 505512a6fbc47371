package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/wardhq/ward/internal/store"
)

// PinnedInputSchema returns the input schema of the approved definition
// of ward's upstream tool name (mcp_<server>_<tool>): the definition the
// action log recorded when the tool's current pin was made (first use) or
// approved. It returns false when the tool has no pin or its definition is
// not recorded; the policy then keeps the tool's arguments untyped.
func PinnedInputSchema(ctx context.Context, pins store.Pins, actions store.ActionLog, name string) (json.RawMessage, bool, error) {
	if !strings.HasPrefix(name, "mcp_") {
		return nil, false, nil
	}
	recs, err := actions.Actions(ctx, store.ActionFilter{Tool: name})
	if err != nil {
		return nil, false, fmt.Errorf("read the approval records of %s: %w", name, err)
	}
	for i := len(recs) - 1; i >= 0; i-- {
		r := recs[i]
		if r.Kind != KindPinned && r.Kind != KindApproved {
			continue
		}
		var d struct {
			Server string `json:"server"`
			Tool   string `json:"tool"`
			Hash   string `json:"hash"`
			Def    struct {
				InputSchema json.RawMessage `json:"input_schema"`
			} `json:"definition"`
		}
		if json.Unmarshal(r.Detail, &d) != nil || ToolName(d.Server, d.Tool) != name || len(d.Def.InputSchema) == 0 {
			continue
		}
		pin, err := pins.PinnedTool(ctx, d.Server, d.Tool)
		if errors.Is(err, store.ErrNotFound) {
			return nil, false, nil
		}
		if err != nil {
			return nil, false, fmt.Errorf("upstream %s: read the pin of %s: %w", d.Server, d.Tool, err)
		}
		if pin.Hash != d.Hash {
			continue // an older definition: the current one is recorded later
		}
		return d.Def.InputSchema, true, nil
	}
	return nil, false, nil
}
