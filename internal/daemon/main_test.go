package daemon

import (
	"os"
	"testing"

	"github.com/wardhq/ward/internal/ingest"
	"github.com/wardhq/ward/internal/sandbox"
)

// TestMain lets the test binary serve as a sandbox child: Stage 3
// re-executes the running binary to evaluate a strategy in isolation.
func TestMain(m *testing.M) {
	if code, ok := sandbox.Main(ingest.SandboxJobs()); ok {
		os.Exit(code)
	}
	os.Exit(m.Run())
}
