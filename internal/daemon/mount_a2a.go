package daemon

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/wardhq/ward/internal/a2a"
	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/facade"
)

// mountA2A adds the A2A surface to ward serve's mux: the public Agent Card
// and JSON-RPC at /a2a for agent, peer and owner tokens, each call in the
// token's A2A session (peers with peer authority). Its calls end before
// the stack closes.
func mountA2A(s *Server) error {
	// The profile, hence the facades offered, is the same for every
	// token: the configured view tells the card which.
	view, err := s.Stack.View(s.File.Tools)
	if err != nil {
		return err
	}
	h, err := a2a.New(a2a.Config{
		RunWith: func(ctx context.Context, p auth.Principal, tool string, args json.RawMessage, opts facade.CallOptions) (json.RawMessage, error) {
			sess, err := s.Session(ctx, p, a2a.SessionID)
			if err != nil {
				return nil, err
			}
			return s.Stack.Facade.CallWith(ctx, sess, tool, args, opts)
		},
		Skills: facade.Defs(view), Lookups: s.Stack.Facade,
		Version: s.Version,
		Log:     s.Log,
	})
	if err != nil {
		return err
	}
	h.Register(s.Mux, func(next http.Handler) http.Handler {
		return s.Authenticate(next, auth.Agent, auth.Peer, auth.Owner)
	})
	// a2asrv runs calls detached from their requests: the store stays
	// open until they have ended.
	s.OnShutdown(h.Shutdown)
	return nil
}
