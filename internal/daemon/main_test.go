package daemon

import (
	"os"
	"testing"

	"github.com/wardhq/ward/internal/sandbox"
	"github.com/wardhq/ward/internal/skill"
)

// TestMain lets the test binary serve as a sandbox child: Stage 3
// re-executes the running binary to evaluate a strategy in isolation.
func TestMain(m *testing.M) {
	if code, ok := sandbox.Main(map[string]sandbox.Job{skill.JobName: skill.Job}); ok {
		os.Exit(code)
	}
	os.Exit(m.Run())
}
