package cli

import "github.com/wardhq/ward/internal/daemon"

// mountA2A adds this surface to ward serve's mux.
func mountA2A(s *daemon.Server) error {
	return nil
}
