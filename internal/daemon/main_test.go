package daemon

import (
	"os"
	"testing"

	"github.com/wardhq/ward/internal/ingest"
	"github.com/wardhq/ward/internal/sandbox"
	"github.com/wardhq/ward/internal/upstream/upstreamtest"
)

// TestMain lets the test binary serve as a sandbox child (Stage 3
// re-executes the running binary to evaluate a strategy in isolation) and
// as the upstream MCP server the upstream tests front.
func TestMain(m *testing.M) {
	if code, ok := sandbox.Main(ingest.SandboxJobs()); ok {
		os.Exit(code)
	}
	if code, ok := upstreamtest.Serve(nil); ok {
		os.Exit(code)
	}
	code := m.Run()
	upstreamtest.RemoveBinary()
	os.Exit(code)
}
