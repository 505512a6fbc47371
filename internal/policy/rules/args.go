package rules

import (
	"errors"
	"fmt"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// errAmbiguous means two spellings of one argument disagree.
var errAmbiguous = errors.New("ambiguous argument")

// arg returns the value of the first of names present in args. If two
// spellings are present with different values it returns errAmbiguous: a
// rule reading one spelling and a handler reading the other is a bypass.
func arg(a *tool.Args, names []string) (v tool.Value, name string, ok bool, err error) {
	for _, n := range names {
		w, found := a.Get(n)
		if !found {
			continue
		}
		if !ok {
			v, name, ok = w, n, true
			continue
		}
		if !v.Equal(w) {
			return v, name, true, fmt.Errorf("%w: %q and %q differ", errAmbiguous, name, n)
		}
	}
	return v, name, ok, nil
}

// stringArg returns a string argument.
func stringArg(a *tool.Args, names []string) (s string, ok bool, res policy.Result) {
	v, name, ok, err := arg(a, names)
	if err != nil {
		return "", false, policy.Denies(reason.AmbiguousArgument, err.Error())
	}
	if !ok {
		return "", false, policy.NoOpinion
	}
	s, isStr := v.Str()
	if !isStr {
		return "", false, policy.Denies(reason.BadInput, fmt.Sprintf("argument %q must be a string, not %s", name, v.Kind()))
	}
	return s, true, policy.NoOpinion
}

// amountOf is amountArg memoised for the evaluation: the transfer rules
// and the meter all read the same amount. key names the argument list.
func amountOf(r *policy.Request, key string, names []string) (cents int64, ok bool, res policy.Result) {
	n, ok, err := r.MemoInt(key, func() (int64, bool, error) {
		n, ok, res := amountArg(r.Args, names)
		if res.Opinion {
			return 0, false, &resultError{res}
		}
		return n, ok, nil
	})
	if err != nil {
		return 0, false, err.(*resultError).res
	}
	return n, ok, policy.NoOpinion
}

// resultError carries a deny result through a memo.
type resultError struct{ res policy.Result }

func (e *resultError) Error() string { return e.res.Message }

// amountArg returns an amount in cents. Missing is (0, false); present but
// not a non-negative integer is a deny result.
func amountArg(a *tool.Args, names []string) (cents int64, ok bool, res policy.Result) {
	v, name, ok, err := arg(a, names)
	if err != nil {
		return 0, false, policy.Denies(reason.AmbiguousArgument, err.Error())
	}
	if !ok {
		return 0, false, policy.NoOpinion
	}
	n, err := v.Int()
	if err != nil {
		return 0, false, policy.Denies(reason.InvalidAmount, fmt.Sprintf("argument %q must be an integer number of cents (%v)", name, err))
	}
	if n < 0 {
		return 0, false, policy.Denies(reason.InvalidAmount, fmt.Sprintf("argument %q must not be negative", name))
	}
	return n, true, policy.NoOpinion
}
