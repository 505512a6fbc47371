package cli

import "github.com/wardhq/ward/internal/daemon"

// mountMCP adds this surface to ward serve's mux.
func mountMCP(s *daemon.Server) error {
	return nil
}
