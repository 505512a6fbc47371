package upstream

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxTools bounds how many tools one upstream may list.
const maxTools = 1000

// connect starts a session with one upstream and lists its tools, within
// ConnectTimeout. ward's client offers the upstream no capabilities (no
// roots, sampling or elicitation): an upstream cannot call back into ward.
func (s *Set) connect(ctx context.Context, cfg Server) (*server, []*mcp.Tool, error) {
	srv := &server{cfg: cfg, tools: map[string]*imported{}, stderr: &tail{}}
	t, err := s.transport(cfg, srv.stderr)
	if err != nil {
		return nil, nil, fmt.Errorf("upstream %s: %w", cfg.Name, err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "ward", Title: "ward safety runtime"}, &mcp.ClientOptions{
		Capabilities:           &mcp.ClientCapabilities{},
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { s.changed() },
	})
	cctx, cancel := context.WithTimeout(ctx, s.cfg.ConnectTimeout)
	defer cancel()
	cs, err := client.Connect(cctx, t, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("upstream %s: connect: %w%s", cfg.Name, err, srv.stderr.suffix())
	}
	srv.cs = cs
	tools, err := list(cctx, cs)
	if err != nil {
		_ = cs.Close()
		return nil, nil, fmt.Errorf("upstream %s: list tools: %w%s", cfg.Name, err, srv.stderr.suffix())
	}
	return srv, tools, nil
}

// list returns every tool the session lists, up to maxTools.
func list(ctx context.Context, cs *mcp.ClientSession) ([]*mcp.Tool, error) {
	var out []*mcp.Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		if len(out) == maxTools {
			return nil, fmt.Errorf("more than %d tools", maxTools)
		}
		out = append(out, t)
	}
	return out, nil
}

// transport returns the MCP transport of cfg: a command over stdio (its
// standard error kept in stderr for diagnostics), in the sandbox unless
// the operator opted it out, or streamable HTTP.
func (s *Set) transport(cfg Server, stderr *tail) (mcp.Transport, error) {
	if len(cfg.Command) > 0 {
		env, err := childEnv(cfg.Env)
		if err != nil {
			return nil, err
		}
		if !cfg.Sandbox.Off {
			dir, temp, err := privateDir(s.cfg.Dir, cfg.Name)
			if err != nil {
				return nil, fmt.Errorf("private directory: %w", err)
			}
			var rec *refusals
			if len(cfg.Sandbox.Hosts) > 0 {
				rec = newRefusals(cfg.Name, s.cfg.Actions, s.log, s.cfg.Now)
			}
			spec, err := sandboxSpec(cfg, env, dir, rec)
			if err != nil {
				if temp {
					os.RemoveAll(dir)
				}
				return nil, err
			}
			t := &sandboxTransport{name: cfg.Name, spec: spec, stderr: stderr, log: s.log, refusals: rec}
			if temp {
				t.temp = dir
			}
			return t, nil
		}
		s.log.Warn("upstream server runs outside the sandbox (sandbox = false): it has the operator's privileges, files and network", "server", cfg.Name)
		cmd := exec.Command(cfg.Command[0], cfg.Command[1:]...)
		cmd.Env = env
		cmd.Stderr = stderr
		return &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil
	}
	h := http.Header{}
	for k, v := range cfg.Headers {
		x, err := expand(v)
		if err != nil {
			return nil, fmt.Errorf("header %s: %w", k, err)
		}
		h.Set(k, x)
	}
	base, _ := http.DefaultTransport.(*http.Transport)
	if base == nil {
		return nil, errors.New("no default HTTP transport")
	}
	return &mcp.StreamableClientTransport{
		Endpoint:   cfg.URL,
		HTTPClient: &http.Client{Transport: headerTransport{base: base.Clone(), h: h}},
	}, nil
}

// headerTransport adds the configured headers to every request.
type headerTransport struct {
	base http.RoundTripper
	h    http.Header
}

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(t.h) > 0 {
		r = r.Clone(r.Context())
		for k, vs := range t.h {
			r.Header[k] = vs
		}
	}
	return t.base.RoundTrip(r)
}

// inherited are the variables of ward's environment a command gets.
var inherited = []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "TMPDIR"}

// childEnv returns a command's environment: the inherited variables, then
// the configured ones (expanded), which win.
func childEnv(extra map[string]string) ([]string, error) {
	var env []string
	for _, k := range inherited {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, err := expand(extra[k])
		if err != nil {
			return nil, fmt.Errorf("env %s: %w", k, err)
		}
		env = append(env, k+"="+v)
	}
	return env, nil
}

// expand replaces each ${VAR} in s by ward's environment variable VAR.
// Other text, including a lone $, is kept. An unset VAR is an error.
func expand(s string) (string, error) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return "", errors.New("unterminated ${")
		}
		name := s[i+2 : i+j]
		if !validVar(name) {
			return "", fmt.Errorf("${%s}: not a variable name", name)
		}
		v, ok := os.LookupEnv(name)
		if !ok {
			return "", fmt.Errorf("${%s}: not set in ward's environment", name)
		}
		b.WriteString(s[:i])
		b.WriteString(v)
		s = s[i+j+1:]
	}
}

func validVar(n string) bool {
	if n == "" {
		return false
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		switch {
		case c == '_', c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// tail keeps the last bytes a subprocess wrote to its standard error, for
// the message when it fails to start.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailBytes = 1024

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailBytes {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailBytes:]...)
	}
	return len(p), nil
}

// suffix returns "; stderr: ..." with the kept bytes cleaned, or "".
func (t *tail) suffix() string {
	if t == nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimSpace(clean(string(t.buf), tailBytes))
	if s == "" {
		return ""
	}
	return "; stderr: " + s
}
