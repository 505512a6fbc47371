package daemon

import (
	"context"

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
