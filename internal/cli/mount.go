package cli

import (
	"github.com/wardhq/ward/internal/daemon"
)

// mountSurfaces adds ward serve's surfaces to its mux: the MCP endpoint,
// the HTTP API, the A2A endpoint and the dashboard (each in its own
// mount_*.go).
func mountSurfaces(s *daemon.Server) error {
	for _, m := range []func(*daemon.Server) error{mountMCP, mountAPI, mountA2A, mountDashboard} {
		if err := m(s); err != nil {
			return err
		}
	}
	return nil
}
