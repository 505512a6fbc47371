package skill

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"time"
)

// WASMLimits bound one run of a WASM component: package wasm's limits of
// the same names (zero fields take its defaults: 256 MiB, 5 s, 100 ms).
type WASMLimits struct {
	Memory    int64         `json:"memory,omitempty"`
	WallClock time.Duration `json:"wall_clock,omitempty"`
	CPU       time.Duration `json:"cpu,omitempty"`
}

// Module is a compiled WASM component (package wasm's Component): each
// Run instantiates it afresh with input as its arguments and returns the
// value of its result. An error that a limit stopped it is a *LimitError.
type Module interface {
	Run(ctx context.Context, input []byte) (json.RawMessage, error)
	Close(ctx context.Context) error
}

// Loader compiles a component's module under its limits. The job that
// evaluates fragments with WASM components needs one (NewJob); this
// package does not run WebAssembly itself.
type Loader func(ctx context.Context, module []byte, lim WASMLimits) (Module, error)

// LimitError is a component's run stopped by one of its limits: Limit is
// "cpu", "memory", "wall_clock" or "output".
type LimitError struct {
	Limit string
	Err   error
}

func (e *LimitError) Error() string { return e.Err.Error() }
func (e *LimitError) Unwrap() error { return e.Err }

// ComponentError is a WASM component that failed during an evaluation:
// stopped by a limit (Limit set), trapped, or returned something other
// than its kind's result. The evaluation is void.
type ComponentError struct {
	Name  string
	Limit string
	Err   error
}

func (e *ComponentError) Error() string {
	return fmt.Sprintf("component %s: %v", e.Name, e.Err)
}
func (e *ComponentError) Unwrap() error { return e.Err }

// NewJob returns the sandbox job JobName with WASM components compiled by
// load: it reads a JSON Request, evaluates it and writes the JSON
// Evaluation. A condition over its cost budget, and a component that
// failed, are reported in the Evaluation (Exceeded, Component), not as
// errors. Job is NewJob(nil): a request with WASM components fails.
func NewJob(load Loader) func(ctx context.Context, input []byte, output io.Writer) error {
	return func(ctx context.Context, input []byte, output io.Writer) error {
		var req Request
		if err := json.Unmarshal(input, &req); err != nil {
			return fmt.Errorf("skill: request: %w", err)
		}
		ev, err := EvaluateWASM(ctx, &req, load)
		var ce *ComponentError
		switch {
		case errors.Is(err, ErrCostLimit):
			ev, err = &Evaluation{Exceeded: "cel_cost", Reasons: []string{err.Error()}}, nil
		case errors.As(err, &ce):
			ev, err = &Evaluation{Component: ce.Name, Reasons: []string{ce.Error()}}, nil
			if ce.Limit != "" {
				ev.Exceeded = "wasm_" + ce.Limit
			}
		}
		if err != nil {
			return err
		}
		return json.NewEncoder(output).Encode(ev)
	}
}

// components compiles the WASM components a request provides, by name.
func components(ctx context.Context, req *Request, load Loader) (map[string]*component, func(), error) {
	out := map[string]*component{}
	closeAll := func() {
		for _, c := range out {
			c.m.Close(context.WithoutCancel(ctx))
		}
	}
	for _, c := range req.Components {
		if len(c.WASM) == 0 || c.Func != "" {
			closeAll()
			return nil, nil, fmt.Errorf("skill: component %s is not a ward_v1 module", c.Name)
		}
		if _, dup := out[c.Name]; dup {
			closeAll()
			return nil, nil, fmt.Errorf("skill: component %s provided twice", c.Name)
		}
		if load == nil {
			closeAll()
			return nil, nil, errors.New("skill: this job runs no WASM components")
		}
		m, err := load(ctx, c.WASM, c.Limits)
		if err != nil {
			closeAll()
			return nil, nil, &ComponentError{Name: c.Name, Err: fmt.Errorf("load: %w", err)}
		}
		out[c.Name] = &component{name: c.Name, kind: c.Kind, m: m}
	}
	return out, closeAll, nil
}

// component is a compiled WASM component of one evaluation.
type component struct {
	name string
	kind ComponentKind
	m    Module
}

// marketJSON is the market state a component receives: the variables a
// CEL condition sees (Variables), by the same names.
type marketJSON struct {
	Price     float64 `json:"price"`
	Ret       float64 `json:"ret"`
	Chg       float64 `json:"chg"`
	Vol       float64 `json:"vol"`
	RSI       float64 `json:"rsi"`
	Gas       float64 `json:"gas"`
	Liquidity float64 `json:"liquidity"`
	Position  float64 `json:"position"`
	Tick      int     `json:"tick"`
}

// componentInput is a component's arguments: {"kind": "condition" or
// "sizing", "args": ..., "market": ...}.
type componentInput struct {
	Kind   ComponentKind   `json:"kind"`
	Args   json.RawMessage `json:"args"`
	Market marketJSON      `json:"market"`
}

// run runs the component on args and s and returns its result.
func (c *component) run(ctx context.Context, args json.RawMessage, s *state) (json.RawMessage, error) {
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	in, err := json.Marshal(componentInput{Kind: c.kind, Args: args, Market: marketJSON{
		Price: s.price, Ret: s.ret, Chg: s.chg, Vol: s.vol, RSI: s.rsi,
		Gas: s.gas, Liquidity: s.liquidity, Position: s.position, Tick: s.tick,
	}})
	if err != nil {
		return nil, &ComponentError{Name: c.name, Err: err}
	}
	out, err := c.m.Run(ctx, in)
	if err != nil {
		ce := &ComponentError{Name: c.name, Err: err}
		var le *LimitError
		if errors.As(err, &le) {
			ce.Limit = le.Limit
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, ce
	}
	return out, nil
}

// wasmCondition is a condition evaluated by a WASM component.
type wasmCondition struct {
	c    *component
	args json.RawMessage
}

func (w *wasmCondition) eval(ctx context.Context, s *state) (bool, error) {
	out, err := w.c.run(ctx, w.args, s)
	if err != nil {
		return false, err
	}
	switch string(bytes.TrimSpace(out)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, &ComponentError{Name: w.c.name, Err: errors.New("a condition's result is not a JSON boolean")}
}

// size runs a sizing component: its result is the action's size, a
// number in [0, 1].
func (w *wasmCondition) size(ctx context.Context, s *state) (float64, error) {
	out, err := w.c.run(ctx, w.args, s)
	if err != nil {
		return 0, err
	}
	var x float64
	if err := json.Unmarshal(out, &x); err != nil || math.IsNaN(x) || x < 0 || x > 1 {
		return 0, &ComponentError{Name: w.c.name, Err: errors.New("a sizing result is not a number in [0, 1]")}
	}
	return x, nil
}
