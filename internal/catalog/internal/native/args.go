package native

import (
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/registry"
)

// Args reads a call's arguments in order, converting and re-checking
// what the schema cannot. The first failure sticks: later reads return
// zero values and Err reports it, so a handler reads everything it needs
// and checks once. Values are meaningful only when Err is nil.
type Args struct {
	in  *registry.Input
	err error
}

// ArgsOf returns a reader of in's arguments.
func ArgsOf(in *registry.Input) *Args { return &Args{in: in} }

// Err is the first failure, or nil.
func (a *Args) Err() error { return a.err }

// Check records err (a check between reads) unless a read failed first.
func (a *Args) Check(err error) {
	if a.err == nil {
		a.err = err
	}
}

// Has reports whether the call gives name.
func (a *Args) Has(name string) bool {
	_, ok := a.in.Args.Get(name)
	return ok
}

// Address reads a required address.
func (a *Args) Address(name string) common.Address {
	if a.err != nil {
		return common.Address{}
	}
	v, err := ArgAddress(a.in, name)
	a.err = err
	return v
}

// AddressOr reads an optional address, def when it is absent.
func (a *Args) AddressOr(name string, def common.Address) common.Address {
	if a.err != nil {
		return common.Address{}
	}
	v, err := ArgAddressOr(a.in, name, def)
	a.err = err
	return v
}

// Wallet returns the wallet's address, the account a write acts from;
// with no wallet configured it fails. It reads no argument: it belongs
// to the reader so that a planner's prologue checks once.
func (a *Args) Wallet(env *Env) common.Address {
	if a.err != nil {
		return common.Address{}
	}
	v, err := Owner(env)
	a.err = err
	return v
}

// Venue reads an optional contract address that defaults to a configured
// venue, and refuses when there is neither (what names the venue in the
// error, e.g. "Aave pool").
func (a *Args) Venue(name string, def common.Address, what string) common.Address {
	v := a.AddressOr(name, def)
	if a.err == nil {
		a.err = NeedVenue(v, what, name)
	}
	return v
}

// Owner reads an optional address that defaults to the wallet; with
// neither, name is required.
func (a *Args) Owner(env *Env, name string) common.Address {
	if a.err != nil {
		return common.Address{}
	}
	v, err := OwnerArg(env, a.in, name)
	a.err = err
	return v
}

// Whose reads the account a read is about: name, or the wallet; with
// neither, it asks for name.
func (a *Args) Whose(env *Env, name string) common.Address {
	v := a.AddressOr(name, WalletAddress(env))
	if a.err == nil && v == (common.Address{}) {
		a.err = errors.New("pass " + name + ": no wallet is configured")
	}
	return v
}

// Amount reads a required amount in base units.
func (a *Args) Amount(name string) *big.Int {
	if a.err != nil {
		return nil
	}
	v, err := ArgAmount(a.in, name)
	a.err = err
	return v
}

// Positive reads a required amount greater than 0.
func (a *Args) Positive(name string) *big.Int {
	v := a.Amount(name)
	if a.err == nil {
		a.err = Positive(name, v)
	}
	return v
}

// AmountOrMax reads an amount that may be "max" (returned as nil).
func (a *Args) AmountOrMax(name string) *big.Int {
	if a.err != nil {
		return nil
	}
	v, err := ArgAmountMax(a.in, name)
	a.err = err
	return v
}

// PositiveOrMax reads an amount greater than 0 that may be "max"
// (returned as nil).
func (a *Args) PositiveOrMax(name string) *big.Int {
	v := a.AmountOrMax(name)
	if a.err == nil && v != nil {
		a.err = Positive(name, v)
	}
	return v
}

// Spent reads the amount a lending write moves: greater than 0, and
// with orMax it may be "max" (returned as nil).
func (a *Args) Spent(name string, orMax bool) *big.Int {
	if orMax {
		return a.PositiveOrMax(name)
	}
	return a.Positive(name)
}

// OptionalAmount reads an amount that may be absent (returned as nil).
func (a *Args) OptionalAmount(name string) *big.Int {
	if !a.Has(name) {
		return nil
	}
	return a.Amount(name)
}

// Pair reads two different tokens named first and second.
func (a *Args) Pair(first, second string) (common.Address, common.Address) {
	x, y := a.Address(first), a.Address(second)
	if a.err == nil && x == y {
		a.err = fmt.Errorf("%s and %s are the same token", first, second)
	}
	return x, y
}

// Int reads an optional integer, def when it is absent.
func (a *Args) Int(name string, def int64) int64 { return ArgInt(a.in, name, def) }

// String reads an optional string, def when it is absent.
func (a *Args) String(name, def string) string { return ArgString(a.in, name, def) }

// Bool reads an optional boolean, def when it is absent.
func (a *Args) Bool(name string, def bool) bool { return ArgBool(a.in, name, def) }

// Hexes lists addresses in a refusal, such as the configured choices of
// an argument: their hex, comma-separated.
func Hexes(list []common.Address) string {
	s := make([]string, len(list))
	for i, a := range list {
		s[i] = a.Hex()
	}
	return strings.Join(s, ", ")
}
