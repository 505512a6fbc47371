package sandbox

import (
	"bufio"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"
)

// startLimits are ProcSpec limits for the tests: small, and no wall clock
// but the one each test sets.
var startLimits = Limits{WallClock: 10 * time.Second, Memory: 64 << 20, Disk: 8 << 20, Processes: 10}

// runShell starts bash -c script in a sandbox that sees only the shell's
// directories and extra, and waits for it.
func runShell(t *testing.T, script string, extra ...string) *Result {
	t.Helper()
	p, err := Start(t.Context(), ProcSpec{
		Path: "/bin/bash", Args: []string{"bash", "-c", script}, Env: []string{"PATH=/usr/bin:/bin"},
		ReadOnly: append(append([]string{}, shell...), extra...), Limits: startLimits,
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
	t.Logf("%q: breach %s, exit %d after %v, enforced %s, stderr %q", script, res.Breach, res.ExitCode, res.Elapsed, res.Enforced, res.Output)
	return res
}

func TestStartPipes(t *testing.T) {
	p, err := Start(t.Context(), ProcSpec{Path: "/bin/cat", ReadOnly: shell, Limits: startLimits, Require: DefaultRequirement})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(p.Stdin, "ping")
	line, err := bufio.NewReader(p.Stdout).ReadString('\n')
	if err != nil || line != "ping\n" {
		t.Fatalf("read %q, %v; want ping", line, err)
	}
	p.Stdin.Close()
	res, err := p.Wait()
	if err != nil || !res.OK() {
		t.Fatalf("cat: %v %+v", err, res)
	}
	t.Logf("cat in a sandbox: start-up %v, enforced %s", res.Startup, res.Enforced)
	for _, m := range []Mechanism{MechMountNS, MechSeccomp, MechNetNS, MechPIDNS, MechUserNS} {
		if !res.Enforced.Has(m) {
			t.Errorf("enforced %s, want %s", res.Enforced, m)
		}
	}
}

func TestStartKill(t *testing.T) {
	p, err := Start(t.Context(), ProcSpec{Path: "/bin/sleep", Args: []string{"sleep", "100"}, ReadOnly: shell, Limits: Limits{Memory: 64 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { p.Kill(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Kill did not stop the process")
	}
	if res, err := p.Wait(); err == nil || res.OK() {
		t.Errorf("after Kill: %v %+v, want an error", err, res)
	}
}

// TestStartAttacks: a program that reads host files outside its declared
// paths, connects to the host over TCP, forks past its limit or allocates
// past its memory is refused or stopped.
func TestStartAttacks(t *testing.T) {
	f := newHostFixture(t)
	t.Run("read host files", func(t *testing.T) {
		res := runShell(t, "cat /etc/shadow; cat "+f.secret+"; ls /root; cat /etc/hostname")
		if !res.Enforced.Has(MechMountNS) {
			t.Fatalf("enforced %s: no mount namespace", res.Enforced)
		}
		if strings.Contains(string(res.Output), "secret") || res.ExitCode == 0 {
			t.Errorf("a read succeeded: exit %d, %q", res.ExitCode, res.Output)
		}
		if n := strings.Count(string(res.Output), "No such file or directory"); n != 4 {
			t.Errorf("%d of 4 reads found nothing: %q", n, res.Output)
		}
	})
	t.Run("declared path readable", func(t *testing.T) {
		res := runShell(t, "cat "+f.secret+" >&2", f.data)
		if !res.OK() || string(res.Output) != "secret" {
			t.Errorf("exit %d, stderr %q, want the declared file", res.ExitCode, res.Output)
		}
	})
	t.Run("tcp", func(t *testing.T) {
		ln := listenCounting(t)
		port := ln.Addr().(*net.TCPAddr).Port
		res := runShell(t, fmt.Sprintf("echo hi > /dev/tcp/127.0.0.1/%d", port))
		ln.stop()
		if !res.Enforced.Has(MechSeccomp) || !res.Enforced.Has(MechNetNS) {
			t.Fatalf("enforced %s", res.Enforced)
		}
		if ln.accepted.Load() != 0 || res.ExitCode == 0 {
			t.Errorf("connected: accepted %d, exit %d", ln.accepted.Load(), res.ExitCode)
		}
		if !strings.Contains(string(res.Output), "Operation not permitted") {
			t.Errorf("stderr %q, want the socket refused", res.Output)
		}
	})
	t.Run("fork past the limit", func(t *testing.T) {
		res := runShell(t, "for i in $(seq 1000); do sleep 100 & done; wait")
		if res.Breach != BreachProcesses {
			t.Errorf("breach %s, want processes", res.Breach)
		}
	})
	t.Run("allocate past the memory limit", func(t *testing.T) {
		res := runShell(t, `x=$(head -c 1000000000 /dev/zero | tr '\0' a); echo ${#x}`)
		if res.Breach != BreachMemory {
			t.Errorf("breach %s, want memory", res.Breach)
		}
	})
}
