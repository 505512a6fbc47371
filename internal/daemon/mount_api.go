package daemon

import (
	"context"
	"errors"
	"fmt"

	"github.com/wardhq/ward/internal/api"
	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/facade"
)

// mountAPI adds the HTTP API (/v1/, /metrics) to ward serve's mux. Its
// event recorder stops when the stack's event bus closes; its event
// streams end when the HTTP server shuts down.
func mountAPI(s *Server) error {
	st := s.Stack
	a, err := api.New(api.Config{
		Authenticate: s.Authenticate, Session: s.Session,
		Tools: st.Facade, Store: st.Store, Policy: st.Engine.Snapshot,
		Spending: st.Hooks.Spending, Bus: st.Bus, Log: s.Log,
		Trust: api.Trust{
			Create: func(ctx context.Context, p auth.Principal, o api.SessionOptions) (*facade.Session, error) {
				return s.CreateSession(ctx, p, SessionOptions(o))
			},
			Named: s.NamedSession, ByID: s.SessionByID,
		},
		Tokens: api.Tokens{Store: st.Store, Invalidate: s.Verifier.Invalidate},
		Ops: api.Ops{
			Reload: func(ctx context.Context, p auth.Principal) (any, error) {
				rep, err := s.Reload(ctx, p.Name, p.ID)
				if errors.Is(err, ErrReloadRefused) {
					err = fmt.Errorf("%w: %w", api.ErrRefused, err)
				}
				return rep, err
			},
			Policy:    func(ctx context.Context) (any, error) { return s.PolicyViewIn(ctx) },
			Upstreams: func(ctx context.Context) (any, error) { return s.Upstreams(ctx) },
			Approve: func(ctx context.Context, p auth.Principal, server, tool string) (any, error) {
				a, err := s.ApproveUpstream(ctx, p, server, tool)
				if errors.Is(err, ErrNotPending) {
					err = fmt.Errorf("%w: %w", api.ErrNotPending, err)
				}
				return a, err
			},
		},
		Safe:     safeAPI(st),
		OwnerTxs: ownerTxAPI(st),
		TxURL: func(id uint64, hash string) string {
			if c, ok := st.Book.Chain(id); ok {
				return c.TxURL(hash)
			}
			return ""
		},
	})
	if err != nil {
		return err
	}
	a.Mount(s.Mux)
	return nil
}
