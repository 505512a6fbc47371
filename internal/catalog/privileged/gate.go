package privileged

import (
	"context"
	"errors"
	"fmt"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
	"github.com/wardhq/ward/internal/trust"
)

// gateTools are the privileged tools over the gate's own state: the
// phase, the halt, the calling session's directive and review, pending
// permits and held calls. Each calls the operation POST /v1/gate/phase,
// /v1/gate/halt, /v1/sessions/{name}/directive, /v1/sessions/{name}/level,
// /v1/permits/{id}/cancel, /v1/quarantine/{id}/reject and
// /v1/gate/spending call.
func gateTools() []spec {
	return []spec{setPhase, haltWrites, setDirective, setReview, cancelPermit, rejectHeld, setSpendingLimits, changeAllowlist}
}

const okResult = `{"type":"object","required":["done"],"properties":{"done":{"type":"boolean"}}}`

var setPhase = spec{
	name: "safety_set_gate_phase", action: "set_phase", category: tool.CatSafety,
	description: "Owner-approved: set ward's PolicyCage phase (thriving, stable, conservation, declining, terminal), which decides " +
		"which writes the phase gate allows from then on. Pending permits previewed in another phase can no longer be committed. " +
		"The commit needs the owner's signature of the permit; without it nothing changes.",
	params: `{"type":"object","additionalProperties":false,"required":["phase"],"properties":{` +
		`"phase":{"type":"string","enum":["thriving","stable","conservation","declining","terminal"],"description":"The new phase."}}}`,
	result: `{"type":"object","required":["phase","previous"],"properties":{"phase":{"type":"string"},"previous":{"type":"string"}}}`,
	check: func(_ context.Context, _ *Config, in *registry.Input) (string, error) {
		p, err := hook.ParsePhase(str(in, "phase"))
		if err != nil {
			return "", errors.New("phase must be thriving, stable, conservation, declining or terminal")
		}
		return "set the phase to " + p.String(), nil
	},
	run: func(ctx context.Context, cfg *Config, in *registry.Input, by string) (any, string, string, error) {
		p, _ := hook.ParsePhase(str(in, "phase"))
		prev, err := cfg.Gate.Phase(ctx)
		if err != nil {
			return nil, "", "", err
		}
		if err := cfg.Gate.SetPhase(ctx, p, by); err != nil {
			return nil, "", "", err
		}
		now, err := cfg.Gate.Phase(ctx)
		if err != nil {
			return nil, "", "", err
		}
		return map[string]string{"phase": now.String(), "previous": prev.String()}, "phase " + p.String(), "phase " + now.String(), nil
	},
}

var haltWrites = spec{
	name: "safety_halt_gate_writes", action: "halt_writes", category: tool.CatSafety,
	description: "Owner-approved: halt every write, recorded as the owner's halt with a reason, until the owner resumes over the API " +
		"(POST /v1/gate/resume). For an emergency that cannot wait for the owner's signature, use emergency_halt instead, " +
		"which needs none.",
	params: `{"type":"object","additionalProperties":false,"required":["reason"],"properties":{` +
		`"reason":{"type":"string","minLength":1,"maxLength":200,"description":"Why writes stop."}}}`,
	result: okResult,
	check: func(_ context.Context, _ *Config, in *registry.Input) (string, error) {
		return fmt.Sprintf("halt every write (%q)", str(in, "reason")), nil
	},
	run: func(ctx context.Context, cfg *Config, in *registry.Input, by string) (any, string, string, error) {
		if err := cfg.Gate.Halt(ctx, in.SessionID, str(in, "reason")+" ("+by+")"); err != nil {
			return nil, "", "", err
		}
		return map[string]bool{"done": true}, "writes halted", "writes halted", nil
	},
}

var setDirective = spec{
	name: "safety_set_agent_directive", action: "set_directive", category: tool.CatSafety,
	description: "Owner-approved: record the owner's directive for this session. Unlike update_directive, the owner's directive " +
		"vouches for its values (recipients, amounts, URLs it names get trusted provenance), even in a session that has read " +
		"third-party content. The owner signs the exact text.",
	params: `{"type":"object","additionalProperties":false,"required":["directive"],"properties":{` +
		`"directive":{"type":"string","minLength":1,"maxLength":4000,"description":"The directive, 1 to 4000 bytes."}}}`,
	result: `{"type":"object","required":["recorded","trusted"],"properties":{"recorded":{"type":"boolean"},"trusted":{"type":"boolean"}}}`,
	check: func(_ context.Context, _ *Config, in *registry.Input) (string, error) {
		d := str(in, "directive")
		if len(d) == 0 || len(d) > 4000 {
			return "", errors.New("directive must be 1 to 4000 bytes")
		}
		return fmt.Sprintf("record the owner's directive for this session (%d bytes)", len(d)), nil
	},
	run: func(ctx context.Context, cfg *Config, in *registry.Input, _ string) (any, string, string, error) {
		if err := cfg.Gate.SetDirective(ctx, in.SessionID, str(in, "directive")); err != nil {
			return nil, "", "", err
		}
		return map[string]bool{"recorded": true, "trusted": true}, "owner directive recorded", "owner directive recorded", nil
	},
}

var setReview = spec{
	name: "safety_set_session_review", action: "set_review", category: tool.CatSafety,
	description: "Owner-approved: put this tainted session under review (level review: every state-changing call waits for the " +
		"owner), or lift its review back to tainted (level tainted). A clean session cannot be changed this way.",
	params: `{"type":"object","additionalProperties":false,"required":["level"],"properties":{` +
		`"level":{"type":"string","enum":["tainted","review"],"description":"The session's new taint level."}}}`,
	result: `{"type":"object","required":["level"],"properties":{"level":{"type":"string"}}}`,
	check: func(_ context.Context, _ *Config, in *registry.Input) (string, error) {
		lv, err := trust.ParseLevel(str(in, "level"))
		if err != nil || lv == trust.Clean {
			return "", errors.New("level must be tainted or review")
		}
		return "set this session's level to " + lv.String(), nil
	},
	run: func(ctx context.Context, cfg *Config, in *registry.Input, by string) (any, string, string, error) {
		lv, _ := trust.ParseLevel(str(in, "level"))
		if err := cfg.Gate.SetLevel(ctx, in.SessionID, lv, by); err != nil {
			return nil, "", "", err
		}
		return map[string]string{"level": lv.String()}, "level " + lv.String(), "level " + lv.String(), nil
	},
}

var cancelPermit = spec{
	name: "safety_cancel_pending_permit", action: "cancel_permit", category: tool.CatSafety,
	description: "Owner-approved: cancel any pending permit, whichever session previewed it (cancel_action cancels only this " +
		"session's own). Its holds on the spending and rate limits are released.",
	params: `{"type":"object","additionalProperties":false,"required":["permit_id"],"properties":{` +
		`"permit_id":{"type":"string","minLength":1,"maxLength":64,"pattern":"^[0-9A-Za-z_-]+$","description":"The permit to cancel."}}}`,
	result: `{"type":"object","required":["permit_id","status"],"properties":{"permit_id":{"type":"string"},"status":{"type":"string"}}}`,
	check: func(_ context.Context, _ *Config, in *registry.Input) (string, error) {
		return "cancel permit " + str(in, "permit_id"), nil
	},
	run: func(ctx context.Context, cfg *Config, in *registry.Input, by string) (any, string, string, error) {
		id := str(in, "permit_id")
		if err := cfg.Gate.CancelByOwner(ctx, id, by); err != nil {
			return nil, "", "", err
		}
		return map[string]string{"permit_id": id, "status": "cancelled"}, "permit cancelled", "permit cancelled", nil
	},
}

var rejectHeld = spec{
	name: "safety_reject_held_call", action: "reject_held", category: tool.CatSafety,
	description: "Owner-approved: reject a call held in quarantine for the owner's review, with an optional note; it never runs. " +
		"(Approving a held call runs it, so only the owner does that, over the API or the dashboard.)",
	params: `{"type":"object","additionalProperties":false,"required":["id"],"properties":{` +
		`"id":{"type":"string","minLength":1,"maxLength":64,"pattern":"^[0-9A-Za-z_-]+$","description":"The held call's quarantine id."},` +
		`"note":{"type":"string","maxLength":500,"description":"Why it is rejected."}}}`,
	result: `{"type":"object","required":["id","status"],"properties":{"id":{"type":"string"},"status":{"type":"string"}}}`,
	check: func(_ context.Context, _ *Config, in *registry.Input) (string, error) {
		return "reject held call " + str(in, "id"), nil
	},
	run: func(ctx context.Context, cfg *Config, in *registry.Input, by string) (any, string, string, error) {
		id := str(in, "id")
		status, err := cfg.Gate.Reject(ctx, id, by, str(in, "note"))
		if err != nil {
			return nil, "", "", err
		}
		return map[string]string{"id": id, "status": status}, "status rejected", "status " + status, nil
	},
}
