package daemon

// MountSurfaces adds ward serve's surfaces to its mux: the MCP endpoint,
// the HTTP API, the A2A endpoint and the dashboard (each in its own
// mount_*.go). It is what `ward serve` passes as ServeConfig.Mount.
func MountSurfaces(s *Server) error {
	for _, m := range []func(*Server) error{mountMCP, mountAPI, mountA2A, mountDashboard} {
		if err := m(s); err != nil {
			return err
		}
	}
	return nil
}
