package cli

import "github.com/wardhq/ward/internal/daemon"

// mountAPI adds this surface to ward serve's mux.
func mountAPI(s *daemon.Server) error {
	return nil
}
