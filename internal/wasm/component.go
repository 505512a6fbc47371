package wasm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/wardhq/ward/internal/registry"
)

// Component is a module run as a Stage 3 skill component (a condition or
// a sizing function the skill library cannot express in CEL): the same
// ward_v1 interface and limits as a WASM tool, without a session, so its
// guest has its arguments (args_get) and result_set, and any call fails
// with ErrNoSession. Each Run instantiates the module afresh. It is safe
// for concurrent use; Close releases the compiled code.
type Component struct {
	t *Tool
}

// LoadComponent checks module against the ward_v1 ABI (as Load does) and
// compiles it under lim (zero fields take the defaults).
func LoadComponent(ctx context.Context, module []byte, lim Limits) (*Component, error) {
	lim = lim.WithDefaults()
	if err := lim.Validate(); err != nil {
		return nil, err
	}
	rt, compiled, err := compile(ctx, module, lim.Memory, nil)
	if err != nil {
		return nil, err
	}
	return &Component{t: &Tool{cfg: Config{Limits: lim}, sum: Sum(module), rt: rt, compiled: compiled}}, nil
}

// Run runs the guest once with input as its arguments and returns the
// value of the "result" it handed over (result_set of {"result": ...}).
// The error wraps ErrCPUBudget, ErrWallClock, ErrMemory or ErrOutput
// when a limit stopped it, and says what was wrong otherwise (a trap, a
// non-zero code, no result, write requests, an output that is not
// {"result": ...}); it carries no text of the guest's.
func (c *Component) Run(ctx context.Context, input []byte) (json.RawMessage, error) {
	b, _, err := c.t.execute(ctx, &registry.Input{Raw: input})
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var o struct {
		Result json.RawMessage `json:"result"`
	}
	if err := dec.Decode(&o); err != nil || dec.More() || len(o.Result) == 0 {
		return nil, errors.New("the guest's output is not a JSON object with a result")
	}
	return o.Result, nil
}

// SHA256 returns the hex SHA-256 of the module.
func (c *Component) SHA256() string { return c.t.sum }

// Close releases the compiled module.
func (c *Component) Close(ctx context.Context) error {
	if err := c.t.Close(ctx); err != nil {
		return fmt.Errorf("wasm component: %w", err)
	}
	return nil
}
