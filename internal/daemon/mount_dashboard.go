package daemon

import (
	"github.com/wardhq/ward/internal/dashboard"
)

// mountDashboard serves the owner dashboard at / and its assets under
// /assets/. The page needs no token: it holds no data and asks the owner
// for one, which its script sends to the API under /v1.
func mountDashboard(s *Server) error {
	h, err := dashboard.New()
	if err != nil {
		return err
	}
	s.Mux.Handle("GET /{$}", h)
	s.Mux.Handle("GET "+dashboard.AssetPrefix, h)
	return nil
}
