package sandbox

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Main runs the sandboxed job when this process is a child started by Run,
// and returns its exit code and true; otherwise it returns 0 and false at
// once. Call it first thing in main (and in TestMain) and exit with the
// code when ok:
//
//	if code, ok := sandbox.Main(nil); ok { os.Exit(code) }
//
// jobs adds Go jobs by name to the built-in "wasm" job; nil is fine.
func Main(jobs map[string]Job) (code int, ok bool) {
	raw, isChild := os.LookupEnv(envChild)
	if !isChild || len(os.Args) == 0 || os.Args[0] != childArg0 {
		return 0, false
	}
	return child(raw, jobs), true
}

// Descriptors the parent passes in ExtraFiles.
const (
	fdGo     = 3 // the child reads one byte before it runs the job
	fdStatus = 4 // the child writes "ready" and "breach NAME" lines
	fdEgress = 5 // the child sends the egress listener's connections on it (SCM_RIGHTS)
)

func child(raw string, jobs map[string]Job) int {
	status := os.NewFile(fdStatus, "status")
	gate := os.NewFile(fdGo, "go")
	fail := func(format string, a ...any) int {
		fmt.Fprintf(os.Stderr, "sandbox: "+format+"\n", a...)
		return 125
	}
	var cfg childConfig
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
		return fail("config: %v", err)
	}
	job := jobs[cfg.Job]
	switch cfg.Job {
	case wasmJob:
		job = runWASM(cfg)
	case execJob:
		job = func(context.Context, []byte, io.Writer) error { return nil }
	}
	if job == nil {
		return fail("no job %q", cfg.Job)
	}
	if err := confine(cfg); err != nil {
		return fail("%v", err)
	}
	var input []byte
	if cfg.Job != execJob { // a program's stdin is its own
		var err error
		if input, err = io.ReadAll(os.Stdin); err != nil {
			return fail("input: %v", err)
		}
	}
	var egress net.Listener
	if cfg.Egress {
		var err error
		if egress, err = listenEgress(); err != nil {
			return fail("%v", err)
		}
	}
	mechs, err := isolate(cfg, status)
	if err != nil {
		return fail("%v", err)
	}
	if _, err := fmt.Fprintf(status, "ready %s\n", mechs); err != nil {
		return fail("status: %v", err)
	}
	if _, err := gate.Read(make([]byte, 1)); err != nil {
		return fail("not started: %v", err)
	}
	gate.Close()
	if cfg.Job == execJob && egress != nil {
		status.Close()
		unix.CloseOnExec(fdGo)
		unix.CloseOnExec(fdEgress)
		return superviseProgram(cfg, egress, os.NewFile(fdEgress, "egress"))
	}
	if cfg.Job == execJob {
		status.Close()
		// Only the program's own descriptors 0-2 cross the exec.
		unix.CloseOnExec(fdGo)
		unix.CloseOnExec(fdStatus)
		err := unix.Exec(cfg.Path, cfg.Args, cfg.Env)
		fmt.Fprintf(os.Stderr, "sandbox: exec %s: %v\n", cfg.Path, err)
		return 127
	}

	ctx, cancel := context.WithTimeout(context.Background(), cfg.WallClock)
	defer cancel()
	err = job(ctx, input, os.Stdout)
	if be, ok := errors.AsType[*BreachError](err); ok {
		fmt.Fprintf(status, "breach %s\n", be.Breach)
	}
	status.Close()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%v\n", err)
		return 1
	}
	return 0
}

// isolate is the rest of the child's confinement, after its rlimits and
// before its job: the minimal root (when the child has its own mount
// namespace), the switch to the job's unprivileged ids, and the seccomp
// filter, last since it refuses what the first two need. It returns the
// mechanisms it put in force. Without the mount namespace's root (the
// kernel refused it before the host's root was given up) it goes on and
// says so by leaving MechMountNS out, and why in a "note" line on status;
// any other failure is an error.
func isolate(cfg childConfig, status io.Writer) (Mechanism, error) {
	var m Mechanism
	if cfg.Mount != "" {
		workAt := cmp.Or(cfg.WorkAt, rootWork)
		err := buildRoot(cfg.Mount, cfg.Work, workAt, cfg.ReadOnly, cfg.ProcFS)
		switch {
		case err == nil:
			m |= MechMountNS
			os.Setenv("TMPDIR", workAt)
			os.Setenv("HOME", workAt)
		case errors.Is(err, errMountNS):
			fmt.Fprintf(status, "note %s\n", oneLine(err.Error()))
		default:
			return 0, err
		}
	}
	if cfg.SetID >= 0 {
		// The syscall package's versions act on every thread of the process.
		if err := syscall.Setgroups(nil); err != nil {
			return 0, fmt.Errorf("setgroups: %w", err)
		}
		if err := syscall.Setresgid(cfg.SetID, cfg.SetID, cfg.SetID); err != nil {
			return 0, fmt.Errorf("setresgid: %w", err)
		}
		if err := syscall.Setresuid(cfg.SetID, cfg.SetID, cfg.SetID); err != nil {
			return 0, fmt.Errorf("setresuid: %w", err)
		}
	}
	if cfg.Seccomp {
		if err := installSeccomp(cfg.Network, cfg.Egress); err != nil {
			fmt.Fprintf(status, "note %s\n", oneLine(err.Error()))
		} else {
			m |= MechSeccomp
		}
	}
	return m, nil
}

// confine applies the rlimits the child sets on itself before its job. They cannot be raised
// again without CAP_SYS_RESOURCE in the initial user namespace, which the
// job never has.
func confine(cfg childConfig) error {
	cpuSecs := uint64((cfg.CPUTime + time.Second - 1) / time.Second)
	limits := []struct {
		res int
		val uint64
	}{
		{unix.RLIMIT_CPU, cpuSecs},
		{unix.RLIMIT_FSIZE, uint64(cfg.Disk)},
		{unix.RLIMIT_CORE, 0},
	}
	if cfg.Nproc > 0 {
		limits = append(limits, struct {
			res int
			val uint64
		}{unix.RLIMIT_NPROC, uint64(cfg.Nproc)})
	}
	if cfg.DataLimit {
		limits = append(limits, struct {
			res int
			val uint64
		}{unix.RLIMIT_DATA, uint64(cfg.Memory + dataSegment())})
	}
	for _, l := range limits {
		if err := unix.Setrlimit(l.res, &unix.Rlimit{Cur: l.val, Max: l.val}); err != nil {
			return fmt.Errorf("rlimit %d: %w", l.res, err)
		}
	}
	// Orphans of the job reparent to the child, so Run can count them and
	// kill them with it when there is no PID namespace.
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("subreaper: %w", err)
	}
	return nil
}

// dataSegment is the child's data segment (VmData) before its job: mostly
// address space the Go runtime mapped and has not touched (~40 MB for a
// small binary, with RSS ~2 MB); after it VmData grows with RSS. It falls
// back to 64 MB if /proc says nothing.
func dataSegment() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "VmData:"); ok {
				if kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64); err == nil {
					return kb << 10
				}
			}
		}
	}
	return 64 << 20
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }
