package native

import (
	"context"
	"fmt"
	"math/big"
	"reflect"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/chain"
)

// callAddress runs a call whose first output is an address.
func CallAddress(ctx context.Context, env *Env, a *chain.ABI, to common.Address, method string, args ...any) (common.Address, error) {
	v, err := Call(ctx, env.Chain, a, to, method, args...)
	if err != nil {
		return common.Address{}, err
	}
	addr, ok := v[0].(common.Address)
	if !ok {
		return common.Address{}, fmt.Errorf("%s at %s did not return an address", method, to.Hex())
	}
	return addr, nil
}

// callBig runs a call whose first output is an integer.
func CallBig(ctx context.Context, env *Env, a *chain.ABI, to common.Address, method string, args ...any) (*big.Int, error) {
	v, err := Call(ctx, env.Chain, a, to, method, args...)
	if err != nil {
		return nil, err
	}
	n, ok := v[0].(*big.Int)
	if !ok {
		return nil, fmt.Errorf("%s at %s did not return an integer", method, to.Hex())
	}
	return n, nil
}

// StructField reads a named field of a struct the ABI decoder produced:
// nil when v is not a struct or has no such field.
func StructField(v any, name string) any {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Struct {
		return nil
	}
	f := rv.FieldByName(name)
	if !f.IsValid() {
		return nil
	}
	return f.Interface()
}
