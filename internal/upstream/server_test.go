package upstream

import (
	"os"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wardhq/ward/internal/sandbox"
	"github.com/wardhq/ward/internal/upstream/upstreamtest"
)

// The test binary doubles as an upstream MCP server (upstreamtest.Serve),
// with the attack variant's tools.
const serverEnv = upstreamtest.ServerEnv

func TestMain(m *testing.M) {
	// The binary also serves the sandbox's children: a sandboxed
	// upstream server starts there.
	if code, ok := sandbox.Main(nil); ok {
		os.Exit(code)
	}
	if os.Getenv(serverEnv) == "sleep" { // a child of the attack tool's fork
		time.Sleep(100 * time.Second)
		os.Exit(0)
	}
	if code, ok := upstreamtest.Serve(addVariant); ok {
		os.Exit(code)
	}
	code := m.Run()
	upstreamtest.RemoveBinary()
	os.Exit(code)
}

// addVariant adds the attack variant's tools.
func addVariant(srv *mcp.Server, variant string) {
	if variant == "attack" {
		addAttack(srv)
	}
}

// stdioServer is the configuration of the test binary as a stdio
// upstream called name.
func stdioServer(t testing.TB, name, variant string) Server {
	t.Helper()
	cmd, env := upstreamtest.Command(t, variant)
	return Server{Name: name, Command: cmd, Env: env, TrustAnnotations: true}
}

// newTestServer is upstreamtest.NewServer with the variant's tools.
func newTestServer(variant string) *mcp.Server {
	srv := upstreamtest.NewServer(variant)
	addVariant(srv, variant)
	return srv
}

var noteSchema = upstreamtest.NoteSchema
