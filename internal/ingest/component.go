package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

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

// AddComponent checks c, a ward_v1 WASM component (a condition or a
// sizing, its module set and no Func), by compiling its module under its
// limits, as the evaluation will, and adds it to lib. A module that does
// not follow the ward_v1 ABI (an import the host lacks, no ward_run),
// limits out of range and a name lib already holds are refused, and lib
// is left unchanged.
func AddComponent(ctx context.Context, lib *skill.Library, c skill.Component) error {
	switch {
	case !skill.ValidComponentName(c.Name):
		return fmt.Errorf("wasm component %.64q: the name is not 1 to 64 letters, digits, '_', '-' or '.'", c.Name)
	case len(c.WASM) == 0 || c.Func != "" || c.Expr != "":
		return fmt.Errorf("wasm component %s: a ward_v1 module and nothing else", c.Name)
	}
	if _, ok := lib.Get(c.Name); ok {
		return fmt.Errorf("wasm component %s: the skill library already holds a component of that name", c.Name)
	}
	m, err := wasm.LoadComponent(ctx, c.WASM, ComponentLimits(c.Limits))
	if err != nil {
		return fmt.Errorf("wasm component %s: %w", c.Name, err)
	}
	m.Close(context.WithoutCancel(ctx))
	if err := lib.Add(c); err != nil {
		return fmt.Errorf("wasm component %s: %w", c.Name, err)
	}
	return nil
}
