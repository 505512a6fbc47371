// Package pgtest gives tests a real PostgreSQL server: the one named by
// WARD_POSTGRES_URL, or else one it starts itself from the installed
// server binaries (initdb and pg_ctl into a temporary directory, listening
// on loopback only), shared by every test of the binary and stopped by
// Main. A test that needs PostgreSQL and finds neither fails: it never
// skips (.ci/run installs the server).
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// EnvURL names the variable that points the tests at a running server
// (a URL of a role that may CREATE DATABASE).
const EnvURL = "WARD_POSTGRES_URL"

var (
	once    sync.Once
	baseURL string
	srvErr  error
	srv     *server
)

// Main runs the tests and stops the server pgtest started, if any. Use it
// from TestMain: os.Exit(pgtest.Main(m)).
func Main(m *testing.M) int {
	code := m.Run()
	if srv != nil {
		srv.stop()
	}
	return code
}

// URL returns the URL of the shared server's maintenance database,
// starting the server on first use.
func URL(t testing.TB) string {
	t.Helper()
	once.Do(func() {
		if u := os.Getenv(EnvURL); u != "" {
			baseURL = u
			return
		}
		srv, srvErr = start()
		if srvErr == nil {
			baseURL = srv.url
		}
	})
	if srvErr != nil {
		t.Fatalf("pgtest: no PostgreSQL server: set %s or install the postgresql package: %v", EnvURL, srvErr)
	}
	return baseURL
}

// NewDatabase creates an empty database on the shared server and returns
// its URL; the database is dropped when the test ends.
func NewDatabase(t testing.TB) string {
	t.Helper()
	base := URL(t)
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := "ward_test_" + hex.EncodeToString(b[:])
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("pgtest: connect %s: %v", redact(base), err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("pgtest: create database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			return
		}
		defer conn.Close(ctx)
		_, _ = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("pgtest: parse %s: %v", redact(base), err)
	}
	u.Path = "/" + name
	return u.String()
}

func redact(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparseable URL)"
	}
	return u.Redacted()
}

// server is a PostgreSQL cluster pgtest started.
type server struct {
	dir, bin, url string
	asUser        string // run the binaries as this user ("" : as ourselves)
}

// binDir finds the directory of initdb and pg_ctl: PATH, then the newest
// of Debian's /usr/lib/postgresql/*/bin.
func binDir() (string, error) {
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		if q, err := filepath.EvalSymlinks(p); err == nil {
			p = q
		}
		return filepath.Dir(p), nil
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool {
		vi, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[i])))
		vj, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[j])))
		return vi > vj
	})
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "pg_ctl")); err == nil {
			return d, nil
		}
	}
	return "", errors.New("pg_ctl not found on PATH nor in /usr/lib/postgresql/*/bin")
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func start() (*server, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "ward-pgtest-")
	if err != nil {
		return nil, err
	}
	s := &server{dir: dir, bin: bin}
	// initdb refuses to run as root: run the server as postgres.
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("running as root and no postgres user: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			return nil, err
		}
		s.asUser = "postgres"
	}
	data := filepath.Join(dir, "data")
	if out, err := s.run("initdb", "-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"); err != nil {
		return nil, fmt.Errorf("initdb: %v: %s", err, out)
	}
	// A port found free may be taken before the server binds it: retry.
	var port int
	var lastErr error
	for range 5 {
		if port, err = freePort(); err != nil {
			return nil, err
		}
		opts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -k %s -c max_connections=400 -c shared_buffers=128MB", port, dir)
		out, err := s.run("pg_ctl", "-D", data, "-l", filepath.Join(dir, "log"), "-o", opts, "-w", "-t", "60", "start")
		if err == nil {
			lastErr = nil
			break
		}
		logs, _ := os.ReadFile(filepath.Join(dir, "log"))
		lastErr = fmt.Errorf("pg_ctl start: %v: %s\n%s", err, out, logs)
	}
	if lastErr != nil {
		return nil, lastErr
	}
	s.url = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
	return s, nil
}

func (s *server) run(name string, args ...string) ([]byte, error) {
	path := filepath.Join(s.bin, name)
	var cmd *exec.Cmd
	if s.asUser != "" {
		cmd = exec.Command("runuser", append([]string{"-u", s.asUser, "--", path}, args...)...)
	} else {
		cmd = exec.Command(path, args...)
	}
	cmd.Dir = s.dir
	return cmd.CombinedOutput()
}

func (s *server) stop() {
	_, _ = s.run("pg_ctl", "-D", filepath.Join(s.dir, "data"), "-m", "immediate", "-w", "stop")
	_ = os.RemoveAll(s.dir)
}
