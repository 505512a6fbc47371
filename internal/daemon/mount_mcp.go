package daemon

import (
	"github.com/wardhq/ward/internal/mcp"
)

// mountMCP adds this surface to ward serve's mux: MCP over streamable HTTP
// at /mcp, for any role's token; the role's input source reaches the policy
// through the session. Live data updates of a session's subscriptions
// reach its MCP sessions as notifications/message.
func mountMCP(s *Server) error {
	srv, err := mcp.New(mcp.Config{Tools: s.Stack.Facade, Session: mcp.NamedSessions(s.Session, s.NamedSession), Version: s.Version, Log: s.Log,
		Updates: s.Stack.Bus, EndStreams: s.Stack.Streams.EndSession})
	if err != nil {
		return err
	}
	s.Background(srv.Deliver)
	s.Mux.Handle("/mcp", s.Authenticate(srv.Handler()))
	return nil
}
