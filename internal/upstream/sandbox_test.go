package upstream

import (
	"bytes"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// lockedBuffer is a log destination safe for the set's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// attack calls the attack tool of server and returns its text, or the
// call's error.
func attack(t *testing.T, s *Set, server, what, arg string) (string, error) {
	t.Helper()
	at, ok := toolNamed(s, "mcp_"+server+"_attack")
	if !ok {
		t.Fatalf("%s: no attack tool: %+v", server, s.Status())
	}
	raw, _ := json.Marshal(map[string]string{"what": what, "arg": arg})
	res, err := at.Read(t.Context(), input(t, string(raw)))
	if err != nil {
		return "", err
	}
	var out callOut
	if err := json.Unmarshal(res.Data, &out); err != nil || len(out.Content) != 1 {
		t.Fatalf("%s: result %s: %v", what, res.Data, err)
	}
	t.Logf("%s %s %s: %.80q", server, what, arg, out.Content[0].Text)
	return out.Content[0].Text, nil
}

// alive checks that the well-behaved server still answers.
func alive(t *testing.T, s *Set) {
	t.Helper()
	get, _ := toolNamed(s, "mcp_notes_get_note")
	if _, err := get.Read(t.Context(), input(t, `{"key":"a"}`)); err != nil {
		t.Fatalf("the other upstream stopped answering: %v", err)
	}
}

// TestSandboxedUpstreamAttacks: a hostile stdio server reads host files
// and ward's data directory, writes outside its directory, connects over
// TCP, forks 1,000 processes and allocates 4 GB. Each is refused or stops
// the server, and ward's other upstream keeps answering.
func TestSandboxedUpstreamAttacks(t *testing.T) {
	data := t.TempDir()
	secret := filepath.Join(data, "ward.db")
	if err := os.WriteFile(secret, []byte("secret-data"), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(os.TempDir(), "ward-upstream-escape")
	os.Remove(outside)
	t.Cleanup(func() { os.Remove(outside) })

	hostile := func(name string) Server {
		s := stdioServer(t, name, "attack")
		s.Sandbox = Confinement{Memory: 128 << 20, Processes: 16}
		return s
	}
	var logs lockedBuffer
	ms := newTestStore(t)
	s := openSet(t, Config{State: ms, Actions: ms, Log: slogTo(&logs), Dir: filepath.Join(data, "upstream"), Servers: []Server{
		hostile("evil"), hostile("forker"), hostile("hog"), stdioServer(t, "notes", ""),
	}})
	if got := strings.Join(s.Servers(), ","); got != "evil,forker,hog,notes" {
		t.Fatalf("servers %s; log:\n%s", got, logs.String())
	}
	alive(t, s)

	t.Run("read host files", func(t *testing.T) {
		for _, p := range []string{"/etc/shadow", secret, "/etc/hostname"} {
			out, err := attack(t, s, "evil", "read", p)
			if err != nil || !strings.HasPrefix(out, "error: ") || strings.Contains(out, "secret-data") {
				t.Errorf("read %s: %q, %v; want it refused", p, out, err)
			}
		}
		alive(t, s)
	})
	t.Run("write outside its directory", func(t *testing.T) {
		for _, p := range []string{outside, filepath.Join(data, "planted"), "/etc/ward-planted"} {
			out, err := attack(t, s, "evil", "write", p)
			if err != nil || !strings.HasPrefix(out, "error: ") {
				t.Errorf("write %s: %q, %v; want it refused", p, out, err)
			}
			if _, err := os.Stat(p); err == nil {
				t.Errorf("%s was written on the host", p)
			}
		}
		// Its own directory is writable, and is DATA/upstream/NAME.
		home, err := attack(t, s, "evil", "home", "")
		if err != nil || home != "ok: "+filepath.Join(data, "upstream", "evil") {
			t.Fatalf("home %q, %v", home, err)
		}
		if out, err := attack(t, s, "evil", "write", filepath.Join(data, "upstream", "evil", "note")); err != nil || out != "ok: written" {
			t.Errorf("write in its own directory: %q, %v", out, err)
		}
		alive(t, s)
	})
	t.Run("tcp", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		var accepted atomic.Int32
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				accepted.Add(1)
				c.Close()
			}
		}()
		out, err := attack(t, s, "evil", "tcp", ln.Addr().String())
		ln.Close()
		if accepted.Load() != 0 || (err == nil && !strings.HasPrefix(out, "error: ")) {
			t.Errorf("connected: accepted %d, %q, %v", accepted.Load(), out, err)
		}
		alive(t, s)
	})
	t.Run("fork 1000 processes", func(t *testing.T) {
		out, err := attack(t, s, "forker", "fork", "")
		if err == nil && !strings.HasPrefix(out, "error: ") {
			t.Errorf("forked: %q", out)
		}
		// Stopped by its process limit; under the race detector each
		// forked test binary is large enough that 64 of them reach the
		// memory limit first, which stops the fork bomb as surely.
		waitLog(t, &logs, `server=forker limit=`)
		if l := logs.String(); !strings.Contains(l, `server=forker limit=processes`) && !strings.Contains(l, `server=forker limit=memory`) {
			t.Errorf("the fork bomb was not stopped by the process or memory limit:\n%s", l)
		}
		alive(t, s)
	})
	t.Run("allocate 4 GB", func(t *testing.T) {
		out, err := attack(t, s, "hog", "alloc", "")
		if err == nil {
			t.Errorf("allocated: %q", out)
		}
		waitLog(t, &logs, `server=hog limit=memory`)
		alive(t, s)
	})
}

func waitLog(t *testing.T, logs *lockedBuffer, want string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if strings.Contains(logs.String(), want) {
			return
		}
	}
	t.Errorf("no %q in the log:\n%s", want, logs.String())
}

// TestUnsandboxedUpstream: sandbox = false starts the server as a plain
// child, with the operator's files, and the start log says so.
func TestUnsandboxedUpstream(t *testing.T) {
	var logs lockedBuffer
	ms := newTestStore(t)
	srv := stdioServer(t, "loose", "attack")
	srv.Sandbox.Off = true
	s := openSet(t, Config{State: ms, Actions: ms, Log: slogTo(&logs), Servers: []Server{srv}})
	if !strings.Contains(logs.String(), `msg="upstream server runs outside the sandbox (sandbox = false)`) || !strings.Contains(logs.String(), "server=loose") {
		t.Errorf("no warning at start:\n%s", logs.String())
	}
	if out, err := attack(t, s, "loose", "read", "/etc/shadow"); err != nil || !strings.HasPrefix(out, "ok: ") {
		t.Errorf("unconfined read of /etc/shadow: %q, %v; want it to succeed (the server is not confined)", out, err)
	}
}

// TestUpstreamStartupTime measures, for the closing note, how long
// connecting to a server and listing its tools takes sandboxed and not
// (the median of 5 starts each, logged).
func TestUpstreamStartupTime(t *testing.T) {
	median := func(off bool) time.Duration {
		var ds []time.Duration
		for range 5 {
			srv := stdioServer(t, "notes", "")
			srv.Sandbox.Off = off
			ms := newTestStore(t)
			start := time.Now()
			s, err := Open(t.Context(), Config{State: ms, Actions: ms, Servers: []Server{srv}})
			if err != nil || len(s.Servers()) != 1 {
				t.Fatalf("open: %v", err)
			}
			ds = append(ds, time.Since(start))
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
		}
		slices.Sort(ds)
		return ds[len(ds)/2]
	}
	sandboxed, plain := median(false), median(true)
	t.Logf("start-up (connect + list tools), median of 5: sandboxed %v, unsandboxed %v", sandboxed, plain)
}
