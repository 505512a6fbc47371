package cli

import "github.com/wardhq/ward/internal/daemon"

// mountDashboard adds this surface to ward serve's mux.
func mountDashboard(s *daemon.Server) error {
	return nil
}
