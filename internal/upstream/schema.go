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
	// The newest pinning or approval record of the name says which
	// server's tool it is; the pin says which definition is in force.
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
		}
		if json.Unmarshal(r.Detail, &d) != nil || ToolName(d.Server, d.Tool) != name {
			continue
		}
		pin, err := pins.PinnedTool(ctx, d.Server, d.Tool)
		if errors.Is(err, store.ErrNotFound) {
			return nil, false, nil
		}
		if err != nil {
			return nil, false, fmt.Errorf("upstream %s: read the pin of %s: %w", d.Server, d.Tool, err)
		}
		def, ok, err := ApprovedDef(ctx, actions, d.Server, d.Tool, pin.Hash)
		if err != nil || !ok {
			return nil, false, err
		}
		var in struct {
			InputSchema json.RawMessage `json:"input_schema"`
		}
		if json.Unmarshal(def, &in) != nil || len(in.InputSchema) == 0 {
			return nil, false, nil
		}
		return in.InputSchema, true, nil
	}
	return nil, false, nil
}
