package cli

import (
	"github.com/wardhq/ward/internal/daemon"
	"github.com/wardhq/ward/internal/mcp"
)

// mountMCP adds this surface to ward serve's mux: MCP over streamable HTTP
// at /mcp, for any role's token; the role's input source reaches the policy
// through the session.
func mountMCP(s *daemon.Server) error {
	srv, err := mcp.New(mcp.Config{Tools: s.Stack.Tools, Session: mcp.NamedSessions(s.Session, s.NamedSession), Version: Version, Log: s.Log})
	if err != nil {
		return err
	}
	s.Mux.Handle("/mcp", s.Authenticate(srv.Handler()))
	return nil
}
