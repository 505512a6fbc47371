package api

import (
	"context"
	"errors"
	"regexp"
)

// OwnerTxs serves the transactions ward prepared for the owner of its
// ERC-4337 account (a session key's grant or revocation), which only the
// owner can send (docs/chains.md, ERC-4337). Both functions are optional:
// without them the routes answer 404. Each marks done, before answering,
// a transaction whose effect the chain shows.
type OwnerTxs struct {
	// Pending returns the view of the transactions awaiting the owner.
	Pending func(ctx context.Context) (any, error)
	// Get returns one transaction's view (ErrOwnerTxUnknown for none).
	Get func(ctx context.Context, id string) (any, error)
}

// ErrOwnerTxUnknown is an id OwnerTxs.Get does not hold.
var ErrOwnerTxUnknown = errors.New("no such owner transaction")

var ownerTxID = regexp.MustCompile(`^[0-9A-Za-z_-]{1,64}$`)

// ownerTxsPending answers GET /v1/wallet/pending.
func (a *Server) ownerTxsPending(ctx context.Context, _ *request) (any, error) {
	if a.cfg.OwnerTxs.Pending == nil {
		return nil, notFoundRoute()
	}
	return a.cfg.OwnerTxs.Pending(ctx)
}

// ownerTx answers GET /v1/wallet/pending/{id}.
func (a *Server) ownerTx(ctx context.Context, r *request) (any, error) {
	if a.cfg.OwnerTxs.Get == nil {
		return nil, notFoundRoute()
	}
	txID := r.PathValue("id")
	if !ownerTxID.MatchString(txID) {
		return nil, notFound("owner transaction")
	}
	out, err := a.cfg.OwnerTxs.Get(ctx, txID)
	if errors.Is(err, ErrOwnerTxUnknown) {
		return nil, notFound("owner transaction")
	}
	return out, err
}
