package upstream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wardhq/ward/internal/egress"
	"github.com/wardhq/ward/internal/sandbox"
)

// Confinement is how a command server runs. The zero value is the
// strictest: in the sandbox (its own user, PID, IPC, UTS, mount and
// network namespaces, seccomp, cgroup or rlimit limits), no network, a
// read-only view of the host limited to its command (ReadOnlyPaths), a
// private writable directory, and the default limits.
type Confinement struct {
	// Off runs the server as a plain child process with the operator's
	// privileges (sandbox = false); ward warns at every start.
	Off bool
	// Network gives the server the network (network = true): with Hosts
	// empty, all of the host's network; with Hosts, only those.
	Network bool
	// Hosts (hosts = [...], with network = true) are the only
	// destinations the server reaches: "name", "name:port" or an
	// address, port 443 when none is given (egress.Config.Hosts). The
	// server keeps a network namespace of its own with loopback only, and
	// reaches them through ward's egress proxy at sandbox.EgressAddr,
	// named in its HTTPS_PROXY, HTTP_PROXY and ALL_PROXY.
	Hosts []string
	// Paths are host paths the server may read beyond its command's.
	Paths []string
	// Memory bounds the bytes of memory of all the server's processes
	// (0: DefaultMemory); Processes its processes (0: DefaultProcesses).
	Memory    int64
	Processes int
	// CPU bounds the server's CPU time, in cores (cpu = 0.5: half of one
	// core; 0: one core), by the cpu cgroup where ward can make one; where
	// it cannot, ward says at start that the limit is not in force.
	CPU float64
}

// Default limits of a sandboxed server: an MCP server is a long-lived
// program, often an interpreter, bigger than a Stage 3 job.
const (
	DefaultMemory    = 512 << 20
	DefaultProcesses = 64
	// MinMemory is the smallest memory limit the sandbox can start a
	// program with.
	MinMemory = 32 << 20
	// MaxProcesses bounds the processes key.
	MaxProcesses = 4096
)

// libDirs are the standard library directories a dynamically linked
// program needs; those that exist are readable by every sandboxed server.
var libDirs = []string{"/lib", "/lib64", "/usr/lib", "/usr/lib64"}

// netFiles are what a program needs to resolve names and check TLS
// certificates; those that exist are readable by a server with network.
var netFiles = []string{"/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf", "/etc/ssl/certs", "/etc/ca-certificates"}

// ReadOnlyPaths returns what a sandboxed server sees of the host, read
// only, and the resolved absolute path of its program. The rule: the
// program is looked up in PATH (path, ward's PATH when empty) and its
// symbolic links resolved; readable are the directory of the program as
// named and as resolved, the install prefix two levels above the resolved
// program when that program is in a directory named bin (node, python
// and the like find their modules there: /opt/node/bin/node gives
// /opt/node) unless the prefix is / or home, the standard library
// directories that exist (/lib, /lib64, /usr/lib, /usr/lib64), the name
// service and certificate files when the server has network, and the
// server's declared paths. home is ward's home directory, never exposed
// as a prefix.
func ReadOnlyPaths(cfg Server, path, home string) (program string, ro []string, err error) {
	prog := cfg.Command[0]
	if !strings.Contains(prog, "/") {
		if path == "" {
			path = os.Getenv("PATH")
		}
		prog = ""
		for _, d := range filepath.SplitList(path) {
			if !filepath.IsAbs(d) {
				continue
			}
			if p := filepath.Join(d, cfg.Command[0]); isExec(p) {
				prog = p
				break
			}
		}
		if prog == "" {
			return "", nil, fmt.Errorf("command %q: %w", cfg.Command[0], exec.ErrNotFound)
		}
	} else if prog, err = filepath.Abs(prog); err != nil {
		return "", nil, err
	}
	resolved, err := filepath.EvalSymlinks(prog)
	if err != nil {
		return "", nil, fmt.Errorf("command %q: %w", cfg.Command[0], err)
	}
	add := func(p string) {
		if p != "/" && !slices.Contains(ro, p) {
			ro = append(ro, p)
		}
	}
	add(filepath.Dir(prog))
	add(filepath.Dir(resolved))
	if bin := filepath.Dir(resolved); filepath.Base(bin) == "bin" {
		if prefix := filepath.Dir(bin); prefix != "/" && (home == "" || prefix != filepath.Clean(home)) {
			add(prefix)
		}
	}
	extra := libDirs
	if cfg.Sandbox.Network { // with hosts too: TLS needs the certificates
		extra = append(slices.Clone(libDirs), netFiles...)
	}
	for _, p := range extra {
		if _, err := os.Stat(p); err == nil {
			add(p)
		}
	}
	for _, p := range cfg.Sandbox.Paths {
		if _, err := os.Stat(p); err != nil {
			return "", nil, fmt.Errorf("declared path: %w", err)
		}
		add(filepath.Clean(p))
	}
	// A path inside another is already visible.
	slices.Sort(ro)
	ro = slices.CompactFunc(ro, func(a, b string) bool { return strings.HasPrefix(b, a+"/") })
	return prog, ro, nil
}

func isExec(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// sandboxTransport starts a command server in the sandbox and speaks to
// it over the sandbox's pipes.
type sandboxTransport struct {
	name   string
	spec   sandbox.ProcSpec
	stderr *tail
	log    *slog.Logger
	// temp is a private directory made for this connection, removed
	// when the server has ended ("": the directory is the data
	// directory's and stays).
	temp string
	// refusals records the egress proxy's refusals (nil without hosts).
	refusals *refusals
}

// sandboxSpec returns the ProcSpec of a sandboxed command server whose
// private directory is dir, with env its environment (HOME and TMPDIR
// are replaced by dir); rec, if not nil, is told of the egress proxy's
// refusals and of connections over the sandbox's cap.
func sandboxSpec(cfg Server, env []string, dir string, rec *refusals) (sandbox.ProcSpec, error) {
	home, _ := os.UserHomeDir()
	var path string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	prog, ro, err := ReadOnlyPaths(cfg, path, home)
	if err != nil {
		return sandbox.ProcSpec{}, err
	}
	env = slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		return strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "TMPDIR=")
	})
	env = append(env, "HOME="+dir, "TMPDIR="+dir)
	args := slices.Clone(cfg.Command)
	full := cfg.Sandbox.Network && len(cfg.Sandbox.Hosts) == 0
	spec := sandbox.ProcSpec{
		Path: prog, Args: args, Env: env, ReadOnly: ro, Writable: dir, Network: full,
		Limits: sandbox.Limits{
			Memory:    cmpOr(cfg.Sandbox.Memory, DefaultMemory),
			Processes: cmpOr(cfg.Sandbox.Processes, DefaultProcesses),
			CPU:       cfg.Sandbox.CPU,
			Output:    tailBytes,
		},
		Require: requirement(full),
	}
	if len(cfg.Sandbox.Hosts) > 0 {
		ec := egress.Config{Hosts: cfg.Sandbox.Hosts}
		if rec != nil {
			ec.Refused = rec.refused
			spec.EgressOverCap = func(ctx context.Context) { rec.refused(ctx, egress.Refusal{Reason: egress.OverCap}) }
		}
		proxy, err := egress.New(ec)
		if err != nil {
			return sandbox.ProcSpec{}, err
		}
		spec.Egress = proxy.ServeConn
		spec.Env = append(slices.DeleteFunc(spec.Env, isProxyVar), proxyEnv()...)
	}
	return spec, nil
}

// proxyEnv points the usual proxy variables of HTTP clients (curl, Go,
// Python, Node with NODE_USE_ENV_PROXY) at the sandbox's egress.
func proxyEnv() []string {
	u := "http://" + sandbox.EgressAddr
	var env []string
	for _, k := range proxyVars {
		if k == "NODE_USE_ENV_PROXY" {
			env = append(env, k+"=1")
		} else if k == "NO_PROXY" || k == "no_proxy" {
			env = append(env, k+"=")
		} else {
			env = append(env, k+"="+u)
		}
	}
	return env
}

var proxyVars = []string{"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy", "NO_PROXY", "no_proxy", "NODE_USE_ENV_PROXY"}

func isProxyVar(kv string) bool {
	k, _, _ := strings.Cut(kv, "=")
	return slices.Contains(proxyVars, k)
}

func cmpOr[T int | int64 | float64](v, d T) T {
	if v == 0 {
		return d
	}
	return v
}

// requirement is what a sandboxed server does not start without: the
// isolation of a Stage 3 job (less the network namespace when the
// operator granted the network), where the server's own user may be a
// user namespace or, when ward runs as root and the kernel refuses the
// user namespace one (a private directory under a data directory only
// root may search), an unprivileged host uid of the sandbox's own.
func requirement(network bool) sandbox.Requirement {
	r := sandbox.DefaultRequirement
	r.All &^= sandbox.MechUserNS
	if network {
		r.All &^= sandbox.MechNetNS
	}
	r.AnyOf = append(slices.Clone(r.AnyOf), sandbox.MechUserNS|sandbox.MechUnprivileged)
	return r
}

// privateDir returns the private directory of server name: dir/name when
// ward has a data directory (dir is DATA/upstream), else a fresh
// temporary one (temp true).
func privateDir(dir, name string) (path string, temp bool, err error) {
	if dir == "" {
		p, err := os.MkdirTemp("", "ward-upstream-"+name+"-")
		return p, true, err
	}
	p, err := filepath.Abs(filepath.Join(dir, name))
	if err != nil {
		return "", false, err
	}
	return p, false, os.MkdirAll(p, 0o700)
}

func (t *sandboxTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	// The server outlives the connect call's deadline: Close ends it.
	p, err := sandbox.Start(context.WithoutCancel(ctx), t.spec)
	if err != nil {
		t.removeTemp()
		return nil, fmt.Errorf("start in the sandbox (sandbox = false runs it unconfined): %w", err)
	}
	t.logStart(p.Enforced)
	ended := make(chan struct{})
	inner, err := (&mcp.IOTransport{Reader: &endReader{ReadCloser: p.Stdout, ended: ended}, Writer: p.Stdin}).Connect(ctx)
	if err != nil {
		p.Kill()
		t.removeTemp()
		return nil, err
	}
	c := &sandboxConn{Connection: inner, p: p, ended: ended}
	// The refusal summaries' writer is the watcher's: it stops, writing
	// what is pending, once the server and its egress have ended.
	var summaries sync.WaitGroup
	stopSummaries := make(chan struct{})
	if t.refusals != nil {
		summaries.Go(func() { t.refusals.run(context.WithoutCancel(ctx), stopSummaries) })
	}
	// The watcher is owned by the connection: it ends with the server,
	// which Close makes sure of.
	go func() {
		defer close(c.ended)
		defer t.removeTemp()
		res, err := p.Wait()
		close(stopSummaries)
		summaries.Wait()
		if res != nil {
			t.stderr.Write(res.Output)
		}
		if c.closing.Load() {
			return
		}
		switch {
		case res != nil && res.Breach != sandbox.BreachNone:
			fmt.Fprintf(t.stderr, "\nsandbox: stopped at its %s limit", res.Breach)
			t.log.Warn("sandboxed upstream server stopped at a limit", "server", t.name, "limit", res.Breach.String())
		case err != nil:
			var notes []string
			if res != nil {
				notes = res.Notes
			}
			fmt.Fprintf(t.stderr, "\n%v", err)
			t.log.Warn("sandboxed upstream server ended", "server", t.name, "error", err, "notes", strings.Join(notes, "; "))
		case res != nil:
			t.log.Warn("sandboxed upstream server exited", "server", t.name, "exit", res.ExitCode)
		}
	}()
	return c, nil
}

// logStart says which limits are in force for the server as it starts:
// the isolation itself is required (Require refuses a start without it),
// but the CPU limit is not, so ward says when it is not in force.
func (t *sandboxTransport) logStart(m sandbox.Mechanism) {
	attrs := []any{"server", t.name, "in_force", m.String()}
	if !m.Has(sandbox.MechCgroupCPU) {
		t.log.Warn("sandboxed upstream server started without its cpu limit: no cpu cgroup on this host", append(attrs, "cpu", t.spec.Limits.CPU)...)
		return
	}
	t.log.Info("sandboxed upstream server started", append(attrs, "cpu", cmpOr(t.spec.Limits.CPU, 1))...)
}

func (t *sandboxTransport) removeTemp() {
	if t.temp != "" {
		os.RemoveAll(t.temp)
	}
}

// endReader is a server's standard output that, at its end, waits a
// moment for the server to end, so that the error the client reports
// carries the server's standard error and the limit it hit.
type endReader struct {
	io.ReadCloser
	ended <-chan struct{}
}

func (r *endReader) Read(p []byte) (int, error) {
	n, err := r.ReadCloser.Read(p)
	if err == io.EOF {
		select {
		case <-r.ended:
		case <-time.After(closeGrace):
		}
	}
	return n, err
}

// closeGrace is how long a server has to exit once its input is closed
// before its sandbox is killed.
const closeGrace = 2 * time.Second

// sandboxConn is the MCP connection to a sandboxed server; closing it
// ends the server.
type sandboxConn struct {
	mcp.Connection
	p       *sandbox.Process
	ended   chan struct{}
	closing atomic.Bool
	once    sync.Once
	err     error
}

func (c *sandboxConn) Close() error {
	c.once.Do(func() {
		c.closing.Store(true)
		err := c.Connection.Close()
		select {
		case <-c.ended:
		case <-time.After(closeGrace):
			c.p.Kill()
			<-c.ended
		}
		if err != nil && !errors.Is(err, os.ErrClosed) {
			c.err = err
		}
	})
	return c.err
}

var _ mcp.Transport = (*sandboxTransport)(nil)

func (c Confinement) validate(command bool) error {
	set := c.Network || len(c.Hosts) > 0 || len(c.Paths) > 0 || c.Memory != 0 || c.Processes != 0 || c.CPU != 0
	switch {
	case set && !command:
		return errors.New("sandbox settings (network, hosts, paths, memory, processes, cpu) apply to a command only")
	case set && c.Off:
		return errors.New("network, hosts, paths, memory, processes and cpu confine a sandboxed server: not with sandbox = false")
	case c.CPU != 0 && !(c.CPU >= sandbox.MinCPU && c.CPU <= sandbox.MaxCPU):
		return fmt.Errorf("cpu %g: want %g to %d cores", c.CPU, sandbox.MinCPU, sandbox.MaxCPU)
	case len(c.Hosts) > 0 && !c.Network:
		return errors.New("hosts are what network = true reaches: set network = true with them")
	case c.Memory != 0 && c.Memory < MinMemory:
		return fmt.Errorf("memory %d below %d bytes", c.Memory, MinMemory)
	case c.Processes < 0 || c.Processes > MaxProcesses:
		return fmt.Errorf("processes must be 1 to %d", MaxProcesses)
	}
	for _, p := range c.Paths {
		if !filepath.IsAbs(p) || filepath.Clean(p) == "/" {
			return fmt.Errorf("path %q must be absolute and not /", p)
		}
	}
	for _, h := range c.Hosts {
		if err := egress.ValidHost(h); err != nil {
			return err
		}
	}
	return nil
}

// String says how a server runs, for ward upstream list: "" when it is
// not a command.
func (c Confinement) String(command bool) string {
	switch {
	case !command:
		return ""
	case c.Off:
		return "off"
	case c.Network && len(c.Hosts) > 0:
		return "sandboxed with network to " + strings.Join(c.Hosts, ", ")
	case c.Network:
		return "sandboxed with network"
	}
	return "sandboxed"
}
