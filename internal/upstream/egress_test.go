package upstream

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/sandbox"
	"github.com/wardhq/ward/internal/store"
)

// TestSandboxedServerHosts: a server with network = true and hosts
// reaches a listed host through the egress proxy and nothing else. It
// is a shell program speaking HTTP over bash's /dev/tcp, as an attacker
// would: CONNECT to the listed host:port succeeds; CONNECT to another port
// of the same address, to a name the proxy resolves to loopback (a
// rebinding to the host: "localhost" is listed but is not an address
// listed literally), and a direct connection to the listed host or to an
// outside address without the proxy all fail.
func TestSandboxedServerHosts(t *testing.T) {
	origin := echoOrigin(t)
	other := echoOrigin(t)
	port := strconv.Itoa(origin.Addr().(*net.TCPAddr).Port)
	otherPort := strconv.Itoa(other.Addr().(*net.TCPAddr).Port)
	// connect HOST:PORT sends a CONNECT through the proxy named in
	// HTTPS_PROXY, then a line, and prints the status and the echo.
	script := `proxy=${HTTPS_PROXY#http://}; ph=${proxy%:*}; pp=${proxy##*:}
connect() {
  exec 3<>/dev/tcp/$ph/$pp || { echo "$1 no proxy"; return; }
  printf 'CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n' "$1" "$1" >&3
  read -r status <&3; echo "$1 status ${status%$'\r'}"
  case $status in *" 200 "*) read -r _ <&3; echo ping >&3; read -r echo <&3; echo "$1 echo $echo";; esac
  exec 3>&-
}
connect 127.0.0.1:` + port + `
connect 127.0.0.1:` + otherPort + `
connect localhost:` + port + `
connect example.com:443
(exec 4<>/dev/tcp/127.0.0.1/` + port + `) 2>/dev/null && echo "direct listed: connected"
(exec 4<>/dev/tcp/1.1.1.1/443) 2>/dev/null && echo "direct outside: connected"
echo "proxy $HTTPS_PROXY node $NODE_USE_ENV_PROXY"
`
	cfg := Server{Name: "hosts", Command: []string{"bash", "-c", script},
		Sandbox: Confinement{Network: true, Hosts: []string{"127.0.0.1:" + port, "localhost:" + port}}}
	if err := cfg.Sandbox.validate(true); err != nil {
		t.Fatal(err)
	}
	spec, err := sandboxSpec(cfg, []string{"PATH=/usr/bin:/bin"}, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if spec.Network || spec.Egress == nil || !spec.Require.All.Has(sandbox.MechNetNS) {
		t.Fatalf("spec: network %v, egress %v, requirement %+v; want a network namespace and an egress", spec.Network, spec.Egress != nil, spec.Require)
	}
	p, err := sandbox.Start(t.Context(), spec)
	if err != nil {
		t.Fatal(err)
	}
	p.Stdin.Close()
	out, _ := io.ReadAll(p.Stdout)
	res, err := p.Wait()
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	t.Logf("enforced %s, exit %d, breach %s, stdout:\n%s\nstderr %q", res.Enforced, res.ExitCode, res.Breach, got, res.Output)
	for _, want := range []string{
		"127.0.0.1:" + port + " status HTTP/1.1 200 Connection established",
		"127.0.0.1:" + port + " echo pong ping",
		"127.0.0.1:" + otherPort + " status HTTP/1.1 403 Forbidden",
		"localhost:" + port + " status HTTP/1.1 403 Forbidden",
		"example.com:443 status HTTP/1.1 403 Forbidden",
		"proxy http://" + sandbox.EgressAddr + " node 1",
	} {
		if !strings.Contains(got, want+"\n") {
			t.Errorf("stdout lacks %q", want)
		}
	}
	if strings.Contains(got, "connected") {
		t.Errorf("a direct connection got through:\n%s", got)
	}
	if n := other.served(); n != 0 {
		t.Errorf("the unlisted origin served %d connections", n)
	}
}

type origin struct {
	net.Listener
	n chan struct{}
}

func (o *origin) served() int { return len(o.n) }

// echoOrigin is a TCP server on the host's loopback that answers each
// line with "pong LINE".
func echoOrigin(t *testing.T) *origin {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o := &origin{Listener: ln, n: make(chan struct{}, 100)}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			select {
			case o.n <- struct{}{}:
			default:
			}
			go func() {
				defer c.Close()
				line, err := bufio.NewReader(c).ReadString('\n')
				if err == nil {
					io.WriteString(c, "pong "+line)
				}
			}()
		}
	}()
	return o
}

// TestSandboxedServerCPU: a server that spins is held to its cpu key
// where the cpu cgroup is in force, and ward says at start whether it is.
func TestSandboxedServerCPU(t *testing.T) {
	cfg := Server{Name: "spin", Command: []string{"bash", "-c", "while :; do :; done"}, Sandbox: Confinement{CPU: 0.25}}
	if err := cfg.Sandbox.validate(true); err != nil {
		t.Fatal(err)
	}
	spec, err := sandboxSpec(cfg, []string{"PATH=/usr/bin:/bin"}, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	// The wall clock includes the child's start-up (exec, the runtime's and
	// every package's initialisation: about 0.25 s of a -race test binary
	// here), which must report ready within it; 3 s keeps that from
	// deciding the test, and the CPU bound below scales with the time run.
	spec.Limits.WallClock = 3 * time.Second
	p, err := sandbox.Start(t.Context(), spec)
	if err != nil {
		t.Fatal(err)
	}
	var logs lockedBuffer
	(&sandboxTransport{name: cfg.Name, spec: spec, log: slog.New(slog.NewTextHandler(&logs, nil))}).logStart(p.Enforced)
	res, err := p.Wait()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%v of CPU in %v, enforced %s; log %s", res.CPU, res.Elapsed, res.Enforced, logs.String())
	if res.Enforced.Has(sandbox.MechCgroupCPU) {
		if res.CPU > res.Elapsed*4/10 {
			t.Errorf("a server with cpu = 0.25 used %v of CPU in %v (more than 0.4 of it)", res.CPU, res.Elapsed)
		}
		if !strings.Contains(logs.String(), "sandboxed upstream server started") || !strings.Contains(logs.String(), "cpu=0.25") {
			t.Errorf("start log %q does not give the cpu limit in force", logs.String())
		}
	} else if !strings.Contains(logs.String(), "without its cpu limit") {
		t.Errorf("start log %q does not say the cpu limit is not in force", logs.String())
	}
	(&sandboxTransport{name: cfg.Name, spec: spec, log: slog.New(slog.NewTextHandler(&logs, nil))}).logStart(res.Enforced &^ sandbox.MechCgroupCPU)
	if !strings.Contains(logs.String(), "without its cpu limit") {
		t.Errorf("start log without the cpu cgroup: %q", logs.String())
	}
	if err := (Confinement{CPU: 0.001}).validate(true); err == nil {
		t.Error("cpu 0.001 accepted")
	}
}

// TestEgressRefusalsRecorded, from the attacker's side: a sandboxed
// server with hosts reaches its listed host with no record; its CONNECT
// to an unlisted port becomes one egress_refused record with the server,
// the destination and the reason; a flood of 200 more is recorded one by
// one only up to RefusalBurst per window, the rest counted in one summary
// record written at the latest when the server ends.
func TestEgressRefusalsRecorded(t *testing.T) {
	origin := echoOrigin(t)
	other := echoOrigin(t)
	listed := origin.Addr().String()
	unlisted := other.Addr().String()
	srv := stdioServer(t, "net", "attack")
	srv.Sandbox = Confinement{Network: true, Hosts: []string{listed}}
	var logs lockedBuffer
	ms := newTestStore(t)
	s, err := Open(t.Context(), Config{State: ms, Actions: ms, Log: slogTo(&logs), Servers: []Server{srv}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	refusals := func() []refusalDetail {
		var out []refusalDetail
		for _, r := range ms.actions(store.ActionFilter{Kind: KindEgressRefused}) {
			var d refusalDetail
			if err := json.Unmarshal(r.Detail, &d); err != nil || r.Status != store.StatusBlocked {
				t.Fatalf("record %+v: %v", r, err)
			}
			out = append(out, d)
		}
		return out
	}

	if got, err := attack(t, s, "net", "connect", "3*"+listed); err != nil || got != `ok: {"200":3}` {
		t.Fatalf("connect to the listed host: %q, %v", got, err)
	}
	if got := refusals(); len(got) != 0 {
		t.Errorf("the listed host produced refusal records %+v", got)
	}

	if got, err := attack(t, s, "net", "connect", unlisted); err != nil || got != `ok: {"403":1}` {
		t.Fatalf("connect to an unlisted port: %q, %v", got, err)
	}
	want := refusalDetail{Server: "net", Target: unlisted, Reason: "not_listed"}
	if got := refusals(); len(got) != 1 || !reflect.DeepEqual(got[0], want) {
		t.Fatalf("records %+v, want one %+v", got, want)
	}
	if !strings.Contains(logs.String(), "egress refused") {
		t.Errorf("no warning in the log: %s", logs.String())
	}

	const flood = 200
	if got, err := attack(t, s, "net", "connect", fmt.Sprintf("%d*%s", flood, unlisted)); err != nil || got != fmt.Sprintf(`ok: {"403":%d}`, flood) {
		t.Fatalf("flood: %q, %v", got, err)
	}
	if got := refusals(); len(got) > 2*RefusalBurst {
		t.Errorf("%d records during a flood of %d, want at most %d a minute", len(got), flood, RefusalBurst)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	var single, summaries, counted int
	for _, d := range refusals() {
		if d.Suppressed == 0 {
			single++
			continue
		}
		summaries++
		for _, c := range d.Refusals {
			counted += c.Count
			if c.Target != unlisted || c.Reason != "not_listed" {
				t.Errorf("summary counts %+v", c)
			}
		}
		if d.Since == nil || d.Until == nil || d.Server != "net" {
			t.Errorf("summary %+v", d)
		}
	}
	t.Logf("%d refusals: %d recorded one by one, %d in %d summaries", flood+1, single, counted, summaries)
	if single+counted != flood+1 || summaries == 0 || single > 2*RefusalBurst {
		t.Errorf("%d single records and %d refusals in %d summaries; want %d in all, at most %d single", single, counted, summaries, flood+1, 2*RefusalBurst)
	}
	if n := other.served(); n != 0 {
		t.Errorf("the unlisted origin served %d connections", n)
	}
}
