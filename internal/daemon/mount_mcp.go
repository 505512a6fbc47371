package daemon

import (
	"github.com/wardhq/ward/internal/mcp"
)

// mountMCP adds this surface to ward serve's mux: MCP over streamable HTTP
// at /mcp, for any role's token; the role's input source reaches the policy
// through the session.
func mountMCP(s *Server) error {
	srv, err := mcp.New(mcp.Config{Tools: s.Stack.Facade, Session: mcp.NamedSessions(s.Session, s.NamedSession), Version: s.Version, Log: s.Log})
	if err != nil {
		return err
	}
	s.Mux.Handle("/mcp", s.Authenticate(srv.Handler()))
	return nil
}
