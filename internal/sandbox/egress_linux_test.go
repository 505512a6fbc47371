package sandbox

import (
	"bufio"
	"context"
	"net"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// TestStartEgress: a program with an egress reaches the parent through
// the listener at EgressAddr and nothing else: a direct connection to an
// outside address or to another loopback port fails, and so does a
// netlink socket, which the filter refuses.
func TestStartEgress(t *testing.T) {
	// Bash alone (it forks nothing): the child that stays beside it is
	// not counted against the limit.
	egressLimits := startLimits
	egressLimits.Processes = 1
	var served atomic.Int32
	egress := func(ctx context.Context, conn net.Conn) {
		line, err := bufio.NewReader(conn).ReadString('\n')
		if err != nil {
			return
		}
		served.Add(1)
		conn.Write([]byte("parent got " + line))
	}
	// A host port open outside: the program must not reach it directly.
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var reached atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			reached.Add(1)
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	script := `exec 3<>/dev/tcp/127.0.0.1/3128 && echo hello >&3 && read -r line <&3 && echo "via egress: $line" >&2
true 4<>/dev/tcp/10.1.2.3/80 2>/dev/null && echo "direct outside: connected" >&2
true 4<>/dev/tcp/127.0.0.1/` + strconv.Itoa(port) + ` 2>/dev/null && echo "direct host port: connected" >&2
true 4<>/dev/tcp/127.0.0.1/80 2>/dev/null && echo "loopback 80: connected" >&2
exit 0`
	p, err := Start(t.Context(), ProcSpec{
		Path: "/bin/bash", Args: []string{"bash", "-c", script}, Env: []string{"PATH=/usr/bin:/bin"},
		ReadOnly: shell, Limits: egressLimits, Egress: egress, Require: DefaultRequirement,
	})
	if err != nil {
		t.Fatal(err)
	}
	p.Stdin.Close()
	p.Stdout.Close()
	res, err := p.Wait()
	if err != nil {
		t.Fatal(err)
	}
	out := string(res.Output)
	t.Logf("exit %d, breach %s, enforced %s, stderr %q", res.ExitCode, res.Breach, res.Enforced, out)
	if !res.OK() {
		t.Errorf("program not OK: exit %d, breach %s", res.ExitCode, res.Breach)
	}
	if !strings.Contains(out, "via egress: parent got hello") || served.Load() != 1 {
		t.Errorf("the egress served %d connections, stderr %q; want the program's line back", served.Load(), out)
	}
	if strings.Contains(out, "connected") || reached.Load() != 0 {
		t.Errorf("a direct connection got through: stderr %q, host listener reached %d times", out, reached.Load())
	}
	if !res.Enforced.Has(MechNetNS | MechSeccomp | MechMountNS) {
		t.Errorf("enforced %s, want netns, seccomp and mountns", res.Enforced)
	}
}

// TestEgressSeccompFamilies: with an egress the filter refuses sockets of
// every family but AF_UNIX, AF_INET and AF_INET6 (three conditions, all
// of which must hold to refuse), without it every family but AF_UNIX, and
// with the network none.
func TestEgressSeccompFamilies(t *testing.T) {
	for _, tc := range []struct {
		network, inet bool
		conds         int
	}{{false, false, 1}, {false, true, 3}, {true, false, 0}} {
		pol := seccompPolicy(tc.network, tc.inet)
		got := 0
		for _, g := range pol.Syscalls {
			for _, nc := range g.NamesWithCondtions {
				if nc.Name == "socket" {
					got = len(nc.Conditions)
				}
			}
		}
		if got != tc.conds {
			t.Errorf("network %v inet %v: %d socket conditions, want %d", tc.network, tc.inet, got, tc.conds)
		}
		if _, err := pol.Assemble(); err != nil {
			t.Errorf("network %v inet %v: %v", tc.network, tc.inet, err)
		}
	}
}

// TestEgressBounded: a program that opens 200 connections to the egress
// and holds them gets at most MaxEgressConns served at once; the rest
// are closed, each reported to EgressOverCap, and every handler ends
// with the sandbox.
func TestEgressBounded(t *testing.T) {
	var active, most, total, over atomic.Int32
	egress := func(ctx context.Context, conn net.Conn) {
		total.Add(1)
		n := active.Add(1)
		defer active.Add(-1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		<-ctx.Done()
	}
	script := `for i in $(seq 200); do exec {fd}<>/dev/tcp/127.0.0.1/3128 || exit 3; done; sleep 1`
	p, err := Start(t.Context(), ProcSpec{
		Path: "/bin/bash", Args: []string{"bash", "-c", script}, Env: []string{"PATH=/usr/bin:/bin"},
		ReadOnly: shell, Limits: startLimits, Egress: egress, EgressOverCap: func(context.Context) { over.Add(1) },
	})
	if err != nil {
		t.Fatal(err)
	}
	p.Stdin.Close()
	p.Stdout.Close()
	res, err := p.Wait()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("exit %d, served %d, at most %d at once, %d over the cap, stderr %q", res.ExitCode, total.Load(), most.Load(), over.Load(), res.Output)
	if total.Load()+over.Load() != 200 || over.Load() == 0 {
		t.Errorf("served %d and reported %d over the cap; want 200 in all, some over the cap", total.Load(), over.Load())
	}
	if most.Load() > MaxEgressConns || most.Load() < MaxEgressConns/2 {
		t.Errorf("%d served at once, want up to %d", most.Load(), MaxEgressConns)
	}
	if a := active.Load(); a != 0 {
		t.Errorf("%d handlers still running after Wait", a)
	}
}
