package hook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// Simulator runs transactions on a fork of a chain's current state without
// broadcasting them (chain.Simulator implements it).
//
// Simulate runs txs in order from the account from and returns what they
// did. A revert is a result (OK false), not an error; an error means the
// simulation itself could not run. Deltas has one entry for each address
// in watch, in watch's order (the zero address is native ETH), and
// excludes gas fees.
type Simulator interface {
	Simulate(ctx context.Context, chainID uint64, from tool.Address, txs []tool.Tx, watch []tool.Address) (SimResult, error)
}

// SimResult is the outcome of a simulated plan.
type SimResult struct {
	// OK is true when every transaction succeeded.
	OK bool `json:"ok"`
	// Reverted is the index of the transaction that reverted when OK is
	// false; RevertReason is its decoded reason. The reason comes from
	// contract code: treat it as untrusted text.
	Reverted     int    `json:"reverted"`
	RevertReason string `json:"revert_reason,omitempty"`
	// GasUsed has the gas of each transaction that ran; TotalGas is their
	// sum.
	GasUsed  []uint64       `json:"gas_used"`
	TotalGas uint64         `json:"total_gas"`
	Deltas   []BalanceDelta `json:"deltas"`
}

// BalanceDelta is how one token's balance of the sender changed. In JSON
// the amounts are decimal strings.
type BalanceDelta struct {
	Token                tool.Address
	Before, After, Delta *big.Int
}

type balanceDeltaJSON struct {
	Token  tool.Address `json:"token"`
	Before *string      `json:"before"`
	After  *string      `json:"after"`
	Delta  *string      `json:"delta"`
}

// MarshalJSON writes the amounts as decimal strings (null when nil).
func (d BalanceDelta) MarshalJSON() ([]byte, error) {
	str := func(x *big.Int) *string {
		if x == nil {
			return nil
		}
		s := x.String()
		return &s
	}
	return json.Marshal(balanceDeltaJSON{Token: d.Token, Before: str(d.Before), After: str(d.After), Delta: str(d.Delta)})
}

// UnmarshalJSON reads the amounts from decimal strings.
func (d *BalanceDelta) UnmarshalJSON(b []byte) error {
	var j balanceDeltaJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	num := func(s *string) (*big.Int, error) {
		if s == nil {
			return nil, nil
		}
		x, ok := new(big.Int).SetString(*s, 10)
		if !ok {
			return nil, fmt.Errorf("balance delta: %q is not a decimal integer", truncText(*s, 80))
		}
		return x, nil
	}
	var out BalanceDelta
	var err error
	out.Token = j.Token
	if out.Before, err = num(j.Before); err != nil {
		return err
	}
	if out.After, err = num(j.After); err != nil {
		return err
	}
	if out.Delta, err = num(j.Delta); err != nil {
		return err
	}
	*d = out
	return nil
}

// change returns the delta, computed from Before and After if Delta is
// nil; nil if neither is known.
func (d BalanceDelta) change() *big.Int {
	if d.Delta != nil {
		return d.Delta
	}
	if d.Before != nil && d.After != nil {
		return new(big.Int).Sub(d.After, d.Before)
	}
	return nil
}

// SimulationConfig configures a Simulation hook.
type SimulationConfig struct {
	Simulator Simulator
	// Timeout bounds one simulation (DefaultSimTimeout when zero).
	Timeout time.Duration
}

// DefaultSimTimeout is a Medium tick budget.
const DefaultSimTimeout = 5 * time.Second

// MaxRevertReason is the longest revert reason a Message quotes, in runes.
const MaxRevertReason = 200

// Simulation runs a plan's transactions on forked state before they are
// allowed. It vetoes with SIMULATION_FAILED when the simulation cannot run
// or does not report a watched token, with SIMULATION_REVERTED when a
// transaction reverts (quoting the reason, cut to MaxRevertReason runes
// and stripped of control characters), and with SIMULATION_FAILED when a
// token leaves the wallet by more than the plan's outgoing amount for it
// (a token the plan only expects to receive may not leave at all). When it
// ran, its Verdict.Sim holds the result (revert reason sanitised). It is
// safe for concurrent use if its Simulator is.
type Simulation struct {
	sim     Simulator
	timeout time.Duration
}

var _ Hook = (*Simulation)(nil)

// NewSimulation validates cfg and returns a Simulation hook.
func NewSimulation(cfg SimulationConfig) (*Simulation, error) {
	switch {
	case cfg.Simulator == nil:
		return nil, errors.New("simulation: no simulator")
	case cfg.Timeout < 0:
		return nil, errors.New("simulation: negative timeout")
	}
	s := &Simulation{sim: cfg.Simulator, timeout: cfg.Timeout}
	if s.timeout == 0 {
		s.timeout = DefaultSimTimeout
	}
	return s, nil
}

const simName = "simulation"

// codeOutflow is the code of a simulated outflow beyond the plan. The
// catalog has no dedicated code yet; SIMULATION_FAILED ("the simulation
// does not confirm the plan") is the closest.
const codeOutflow = reason.SimulationFailed

// Name returns "simulation".
func (*Simulation) Name() string { return simName }

// Check implements Hook.
func (s *Simulation) Check(ctx context.Context, c *Call) Verdict {
	p, v, ok := planOf(simName, c)
	if !ok || len(p.Txs) == 0 {
		return v
	}
	if err := ctx.Err(); err != nil {
		return veto(simName, reason.SimulationFailed, "the pre-flight simulation could not run, so the action is refused", err.Error())
	}
	watch, allowed := outflows(p)
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	res, err := s.sim.Simulate(ctx, p.Chain, p.From, p.Txs, watch)
	if err != nil {
		return veto(simName, reason.SimulationFailed, "the pre-flight simulation could not run, so the action is refused",
			fmt.Sprintf("%s: simulate: %s", c.Def.Name, truncText(cleanText(err.Error()), 500)))
	}
	sim := copyResult(res)
	v = Verdict{Sim: sim}
	if !res.OK {
		label := "?"
		if res.Reverted >= 0 && res.Reverted < len(p.Txs) {
			label = p.Txs[res.Reverted].Label
		}
		msg := fmt.Sprintf("the simulated transaction %d (%s) reverted", res.Reverted, label)
		if sim.RevertReason != "" {
			msg += fmt.Sprintf(" with reason %q (from contract code: untrusted)", sim.RevertReason)
		}
		v = veto(simName, reason.SimulationReverted, msg, fmt.Sprintf("%s: tx %d reverted", c.Def.Name, res.Reverted))
		v.Sim = sim
		return v
	}
	for _, tok := range watch {
		i := -1
		for j, d := range res.Deltas {
			if d.Token == tok {
				i = j
				break
			}
		}
		var change *big.Int
		if i >= 0 {
			change = res.Deltas[i].change()
		}
		if change == nil {
			v = veto(simName, reason.SimulationFailed, "the pre-flight simulation did not report every token the action moves, so it is refused",
				fmt.Sprintf("%s: no balance delta for %s", c.Def.Name, tok))
			v.Sim = sim
			return v
		}
		if out := new(big.Int).Neg(change); out.Cmp(allowed[tok]) > 0 {
			v = veto(simName, codeOutflow,
				fmt.Sprintf("the simulation shows %s of token %s leaving the wallet, more than the plan's %s", out, tok, allowed[tok]),
				fmt.Sprintf("%s: outflow %s > planned %s of %s", c.Def.Name, out, allowed[tok], tok))
			v.Sim = sim
			return v
		}
	}
	return v
}

// Preview simulates p for display (a held call's description, for the
// owner): the result, revert reason sanitised, or the error that kept it
// from running. It decides nothing.
func (s *Simulation) Preview(ctx context.Context, p *tool.Plan) (*SimResult, error) {
	if p == nil || len(p.Txs) == 0 {
		return nil, errors.New("simulation: no transactions")
	}
	watch, _ := outflows(p)
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	res, err := s.sim.Simulate(ctx, p.Chain, p.From, p.Txs, watch)
	if err != nil {
		return nil, err
	}
	return copyResult(res), nil
}

// outflows returns the plan's distinct tokens in order and, for each, the
// sum of its outgoing amounts (0 for tokens only received).
func outflows(p *tool.Plan) ([]tool.Address, map[tool.Address]*big.Int) {
	var watch []tool.Address
	allowed := map[tool.Address]*big.Int{}
	for _, t := range p.Tokens {
		sum, seen := allowed[t.Token]
		if !seen {
			sum = new(big.Int)
			allowed[t.Token] = sum
			watch = append(watch, t.Token)
		}
		if t.Out && t.Amount != nil && t.Amount.Sign() > 0 {
			sum.Add(sum, t.Amount)
		}
	}
	return watch, allowed
}

// copyResult returns a copy of r that shares nothing with it, with the
// revert reason sanitised.
func copyResult(r SimResult) *SimResult {
	cp := r
	cp.RevertReason = truncText(cleanText(r.RevertReason), MaxRevertReason)
	cp.GasUsed = append([]uint64(nil), r.GasUsed...)
	cp.Deltas = make([]BalanceDelta, len(r.Deltas))
	for i, d := range r.Deltas {
		cp.Deltas[i] = BalanceDelta{Token: d.Token, Before: cloneInt(d.Before), After: cloneInt(d.After), Delta: cloneInt(d.Delta)}
	}
	return &cp
}

func cloneInt(x *big.Int) *big.Int {
	if x == nil {
		return nil
	}
	return new(big.Int).Set(x)
}
