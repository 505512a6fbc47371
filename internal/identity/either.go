package identity

import (
	"context"
	"errors"

	"github.com/wardhq/ward/internal/quarantine"
)

// Union is a registry that knows an address when any of its registries
// does. The daemon puts the operator's local registry (configured
// identities and clade members: the operator's own additions) first and
// the on-chain registry (authoritative for strangers) second, so a local
// identity costs no call and stays known when the chain cannot answer.
type Union struct {
	regs []quarantine.Registry
}

var _ quarantine.Registry = (*Union)(nil)

// Either returns the union of regs, asked in order.
func Either(regs ...quarantine.Registry) *Union {
	return &Union{regs: append([]quarantine.Registry(nil), regs...)}
}

// Known asks each registry in order and reports true at the first that
// knows address. An error from one registry does not stop the others: a
// later one may still know the address. When none knows it, the errors,
// if any, are returned joined, so an unanswered question stays an error
// ("could not decide") and never becomes "unknown".
func (u *Union) Known(ctx context.Context, address string) (bool, error) {
	var errs []error
	for _, r := range u.regs {
		known, err := r.Known(ctx, address)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if known {
			return true, nil
		}
	}
	return false, errors.Join(errs...)
}
