package ingest

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/wardhq/ward/internal/sandbox"
	"github.com/wardhq/ward/internal/skill"
	"github.com/wardhq/ward/internal/wasm"
)

// SandboxJobs are the jobs a binary that runs a Pipeline with a Stage3
// registers with sandbox.Main: Stage 3's evaluation, whose WASM skill
// components run under package wasm (the ward_v1 interface, its limits)
// inside the sandboxed child.
func SandboxJobs() map[string]sandbox.Job {
	return map[string]sandbox.Job{skill.JobName: skill.NewJob(LoadComponent)}
}

// LoadComponent is skill.Loader over package wasm: the module is checked
// against the ward_v1 ABI and compiled under lim.
func LoadComponent(ctx context.Context, module []byte, lim skill.WASMLimits) (skill.Module, error) {
	c, err := wasm.LoadComponent(ctx, module, ComponentLimits(lim))
	if err != nil {
		return nil, err
	}
	return component{c}, nil
}

// ComponentLimits is the wasm.Limits of a skill component's limits.
func ComponentLimits(lim skill.WASMLimits) wasm.Limits {
	return wasm.Limits{Memory: lim.Memory, WallClock: lim.WallClock, CPU: lim.CPU}
}

type component struct{ c *wasm.Component }

var _ skill.Module = component{}

// Run runs the component, reporting a run a limit stopped as a
// *skill.LimitError.
func (c component) Run(ctx context.Context, input []byte) (json.RawMessage, error) {
	out, err := c.c.Run(ctx, input)
	for _, l := range []struct {
		err   error
		limit string
	}{{wasm.ErrCPUBudget, "cpu"}, {wasm.ErrMemory, "memory"}, {wasm.ErrWallClock, "wall_clock"}, {wasm.ErrOutput, "output"}} {
		if errors.Is(err, l.err) {
			return nil, &skill.LimitError{Limit: l.limit, Err: err}
		}
	}
	return out, err
}

func (c component) Close(ctx context.Context) error { return c.c.Close(ctx) }
