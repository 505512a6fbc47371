package skill

import (
	"context"
	"errors"
	"fmt"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/interpreter"
)

// DefaultCostLimit is the CEL cost budget of one condition's evaluation at
// one tick. The built-in and parsed conditions cost 2 to 10; a comprehension
// over a few hundred elements exceeds it.
const DefaultCostLimit = 1000

// ErrCostLimit is returned when a condition exceeds its CEL cost budget: a
// resource breach, like a sandbox limit.
var ErrCostLimit = errors.New("skill: cel cost limit exceeded")

// Variables are the market state a condition sees at each tick:
//
//	price     double  the asset's price
//	ret       double  return over the last tick (0.01 = +1 %)
//	chg       double  return over the last ChangeWindow ticks
//	vol       double  standard deviation of the last VolWindow one-tick returns
//	rsi       double  Wilder's RSI over the last RSIWindow ticks, 0-100 (50 before enough data)
//	gas       double  gas price in gwei
//	liquidity double  pool depth in quote currency
//	position  double  the asset's share of the portfolio's equity, 0-1 (more when borrowing)
//	tick      int     ticks since the scenario started
var Variables = []string{"price", "ret", "chg", "vol", "rsi", "gas", "liquidity", "position", "tick"}

var env = func() *cel.Env {
	opts := []cel.EnvOption{cel.Variable("tick", cel.IntType)}
	for _, v := range Variables[:len(Variables)-1] {
		opts = append(opts, cel.Variable(v, cel.DoubleType))
	}
	e, err := cel.NewEnv(opts...)
	if err != nil {
		panic(err) // the declarations above are constant
	}
	return e
}()

// program is one compiled condition.
type program struct{ prg cel.Program }

// compile type-checks a boolean CEL condition and plans it under the cost
// limit (DefaultCostLimit when limit is 0).
func compile(expr string, limit uint64) (*program, error) {
	if limit == 0 {
		limit = DefaultCostLimit
	}
	ast, iss := env.Compile(expr)
	if iss.Err() != nil {
		return nil, fmt.Errorf("skill: condition: %w", iss.Err())
	}
	if !ast.OutputType().IsExactType(cel.BoolType) {
		return nil, fmt.Errorf("skill: condition is %s, not a boolean", ast.OutputType())
	}
	prg, err := env.Program(ast, cel.CostLimit(limit))
	if err != nil {
		return nil, fmt.Errorf("skill: condition: %w", err)
	}
	return &program{prg: prg}, nil
}

// canonical returns expr in CEL's canonical form (parsed and printed
// back), so that expressions differing only in spacing or parentheses
// compare equal.
func canonical(expr string) (string, error) {
	ast, iss := env.Parse(expr)
	if iss.Err() != nil {
		return "", fmt.Errorf("skill: condition: %w", iss.Err())
	}
	return cel.AstToString(ast)
}

// Check reports whether expr is a boolean CEL condition over Variables.
func Check(expr string) error {
	_, err := compile(expr, 0)
	return err
}

func (p *program) eval(_ context.Context, s *state) (bool, error) {
	out, _, err := p.prg.Eval(map[string]any{
		"price": s.price, "ret": s.ret, "chg": s.chg, "vol": s.vol, "rsi": s.rsi,
		"gas": s.gas, "liquidity": s.liquidity, "position": s.position, "tick": int64(s.tick),
	})
	if err != nil {
		var c interpreter.EvalCancelledError
		if errors.As(err, &c) && c.Cause == interpreter.CostLimitExceeded {
			return false, ErrCostLimit
		}
		return false, fmt.Errorf("skill: condition: %w", err)
	}
	b, ok := out.Value().(bool)
	if !ok {
		return false, fmt.Errorf("skill: condition returned %s", out.Type())
	}
	return b, nil
}
