package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Environment and argv[0] by which a child recognises itself.
const (
	envChild  = "WARD_SANDBOX_CHILD"
	childArg0 = "ward-sandbox"
)

// threadAllowance is how many tasks beyond Limits.Processes the pids
// cgroup (and RLIMIT_NPROC) admit: both count threads, and the child's Go
// runtime uses several. The exact process count is enforced by polling the
// cgroup's process list.
const threadAllowance = 12

// Without a memory cgroup the child sets RLIMIT_DATA to Memory plus its
// data segment before the job (see dataSegment), and Run polls its RSS
// against Memory.

// readyTimeout bounds the child's start-up: a binary that does not call
// Main never reports ready.
const readyTimeout = 10 * time.Second

var errNotReady = errors.New("the child never reported ready: does the binary call sandbox.Main first thing?")

// poll is how often Run samples the counters it cannot get events for.
const poll = 5 * time.Millisecond

// When ward runs as root, each sandbox runs as its own host uid and gid,
// sandboxIDBase plus a sequence number modulo sandboxIDs, so that
// concurrent sandboxes cannot reach each other's files. Inside its user
// namespace the job is jobUID.
const (
	sandboxIDBase = 1 << 30
	sandboxIDs    = 1 << 16
	jobUID        = 1000
)

// childConfig travels to the child in envChild.
type childConfig struct {
	Job       string        `json:"job"`
	WallClock time.Duration `json:"wall_clock"`
	Memory    int64         `json:"memory"`
	CPUTime   time.Duration `json:"cpu_time"`
	Disk      int64         `json:"disk"`
	Nproc     int           `json:"nproc"`      // RLIMIT_NPROC, 0 to leave it
	DataLimit bool          `json:"data_limit"` // set RLIMIT_DATA (no memory cgroup)
	CPU       int           `json:"cpu"`        // the CPU to pin to, -1 for none
	// Mount is the empty directory where the child builds its minimal root
	// (buildRoot), "" without a mount namespace; Work is the private
	// directory, ReadOnly the host paths it also sees.
	Mount    string   `json:"mount,omitempty"`
	Work     string   `json:"work"`
	ReadOnly []string `json:"read_only,omitempty"`
	ProcFS   bool     `json:"procfs,omitempty"`  // mount a /proc of its PID namespace
	SetID    int      `json:"set_id"`            // the uid and gid to switch to after the root, -1 for none
	Seccomp  bool     `json:"seccomp,omitempty"` // install the seccomp filter before the job
	Network  bool     `json:"network,omitempty"` // the filter lets sockets of any family through
	// Egress: bring up loopback, listen on EgressAddr and hand its
	// connections to the parent on fdEgress (the program has a network
	// namespace of its own and a ProcSpec.Egress).
	Egress bool `json:"egress,omitempty"`
	// WorkAt is where the private directory appears in the root: rootWork,
	// or a writable directory's own host path.
	WorkAt string `json:"work_at,omitempty"`
	// Path, Args and Env are the program the execJob replaces the child
	// with once it is confined.
	Path string   `json:"path,omitempty"`
	Args []string `json:"args,omitempty"`
	Env  []string `json:"env,omitempty"`
}

var (
	runSeq    atomic.Uint64
	noCgroups bool // tests force the rlimit fallbacks
)

// Run runs spec in a new sandbox and waits for it to exit or be killed. It
// returns an error only when the sandbox could not be started or ctx ended
// first (the sandbox is then killed); a breached limit or a failed job is a
// Result. Run is safe for concurrent use.
func Run(ctx context.Context, spec Spec) (*Result, error) {
	lim, err := spec.Limits.withDefaults()
	if err != nil {
		return nil, err
	}
	if spec.Job == "" {
		return nil, errors.New("sandbox: no job named")
	}
	out := &boundedBuffer{max: lim.Output}
	l, err := launch(launchSpec{job: spec.Job, lim: lim, readOnly: spec.ReadOnly, require: spec.Require,
		stdin: bytes.NewReader(spec.Input), stdout: out, out: out})
	if err != nil {
		return nil, err
	}
	defer l.cleanup()
	return l.s.wait(ctx, l.c, l.enforced)
}

// launchSpec is what launch starts: a job of this binary, or (job execJob)
// the program path with args and env.
type launchSpec struct {
	job       string
	lim       Limits
	readOnly  []string
	require   Requirement
	stdin     io.Reader
	stdout    io.Writer
	out       *boundedBuffer // the child's stderr, kept for the Result
	path      string
	args, env []string
	writable  string // a host directory to use as the private one; "" for a fresh one
	network   bool
	egress    *os.File // the child's end of the egress socket, nil for none
}

// launched is a started sandbox: its supervisor's view, the child, the
// mechanisms known at start, and what to undo once it has been waited for.
type launched struct {
	s        *run
	c        started
	enforced Mechanism
	undo     []func()
}

func (l *launched) cleanup() {
	for i := len(l.undo) - 1; i >= 0; i-- {
		l.undo[i]()
	}
}

// launch confines and starts the child of ls, blocked before its job until
// the supervisor (run.wait) lets it go: it makes the child's directories,
// cgroup and configuration and the pipes that hold it and carry its
// status, starts it with the strongest confinement that works, and puts it
// under supervision. On error nothing is left behind.
func launch(ls launchSpec) (_ *launched, err error) {
	l := &launched{}
	defer func() {
		if err != nil {
			l.cleanup()
		}
	}()
	root := os.Geteuid() == 0
	seq := runSeq.Add(1)
	hostID := sandboxIDBase + int(seq%sandboxIDs)
	dir, mnt, err := l.directories(ls, root, hostID)
	if err != nil {
		return nil, err
	}
	var cg *cgroups
	if !noCgroups && ls.lim.Without&(MechCgroupMemory|MechCgroupPids|MechCgroupCPU|MechCgroup2) == 0 {
		cg = newCgroups(fmt.Sprintf("ward-sandbox-%d-%d", os.Getpid(), seq), ls.lim)
	}
	l.undo = append(l.undo, cg.remove)
	cfg := ls.childConfig(cg, dir)

	goR, goW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	l.undo = append(l.undo, func() { goW.Close() })
	statR, statW, err := os.Pipe()
	if err != nil {
		goR.Close()
		return nil, err
	}
	l.undo = append(l.undo, func() { statR.Close() })

	cmd, a, start, err := startChild(attempts(root, hostID, mnt != "", ls.network), func(a attempt) (*exec.Cmd, error) {
		return ls.command(cfg, a, dir, mnt, goR, statW)
	})
	goR.Close()
	statW.Close()
	if err != nil {
		return nil, fmt.Errorf("sandbox: start: %w", err)
	}
	s, enforced, err := supervise(ls, cfg, cg, cmd, a.mech, dir)
	if err != nil {
		return nil, err
	}
	l.undo = append(l.undo, s.net.close)
	l.s, l.enforced = s, enforced
	l.c = started{cmd: cmd, cfg: cfg, start: start, goW: goW, statR: statR, out: ls.out}
	return l, nil
}

// directories returns the child's private directory (ls.writable, owned by
// hostID when ward runs as root, or a fresh one) and, unless the mount
// namespace is off, an empty directory nothing else uses for its tmpfs
// root. l undoes what they made.
func (l *launched) directories(ls launchSpec, root bool, hostID int) (dir, mnt string, err error) {
	dir = ls.writable
	if dir == "" {
		if dir, err = privateDir(root, hostID); err != nil {
			return "", "", err
		}
		l.undo = append(l.undo, func() { os.RemoveAll(dir) })
	} else if root {
		if err := os.Chown(dir, hostID, hostID); err != nil {
			return "", "", fmt.Errorf("sandbox: writable directory: %w", err)
		}
	}
	if ls.lim.Without.Has(MechMountNS) {
		return dir, "", nil
	}
	if mnt, err = os.MkdirTemp("", "ward-sandbox-root-"); err != nil {
		return "", "", fmt.Errorf("sandbox: root directory: %w", err)
	}
	l.undo = append(l.undo, func() { os.Remove(mnt) })
	if err := os.Chmod(mnt, 0o755); err != nil {
		return "", "", fmt.Errorf("sandbox: root directory: %w", err)
	}
	return dir, mnt, nil
}

// childConfig returns the configuration the child is given, before the
// confinement it starts with is known.
func (ls launchSpec) childConfig(cg *cgroups, dir string) childConfig {
	cfg := newChildConfig(ls.job, ls.lim, cg)
	cfg.Work, cfg.ReadOnly = dir, ls.readOnly
	cfg.Seccomp = !ls.lim.Without.Has(MechSeccomp)
	cfg.Network = ls.network
	cfg.Path, cfg.Args, cfg.Env = ls.path, ls.args, ls.env
	if ls.writable != "" {
		cfg.WorkAt = ls.writable
	}
	return cfg
}

// command returns the command that starts the child with the confinement
// of attempt a, holding it on goR and reporting its status on statW.
func (ls launchSpec) command(cfg childConfig, a attempt, dir, mnt string, goR, statW *os.File) (*exec.Cmd, error) {
	cfg.SetID, cfg.ProcFS = a.setID, a.mech.Has(MechPIDNS)
	// Without a namespace of its own the listener would be on the
	// host's loopback: no egress (and the requirement refuses it).
	cfg.Egress = ls.egress != nil && a.mech.Has(MechNetNS)
	if a.mountns {
		cfg.Mount = mnt
	}
	enc, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	extra := []*os.File{goR, statW}
	if ls.egress != nil {
		extra = append(extra, ls.egress)
	}
	return &exec.Cmd{
		Path:        "/proc/self/exe",
		Args:        []string{childArg0},
		Env:         []string{envChild + "=" + string(enc), "GOMAXPROCS=1", fmt.Sprintf("GOMEMLIMIT=%d", ls.lim.Memory*3/4), "TMPDIR=" + dir, "HOME=" + dir, "PATH=/usr/local/bin:/usr/bin:/bin"},
		Dir:         dir,
		Stdin:       ls.stdin,
		Stdout:      ls.stdout,
		Stderr:      ls.out,
		ExtraFiles:  extra,
		SysProcAttr: a.attr,
		WaitDelay:   time.Second,
	}, nil
}

// supervise returns the supervisor's view of the started child cmd, which
// started with the mechanisms mech, and the mechanisms then enforced:
// it adds the child to its cgroup (killing and reaping it if that fails)
// and opens its network counters.
func supervise(ls launchSpec, cfg childConfig, cg *cgroups, cmd *exec.Cmd, mech Mechanism, dir string) (*run, Mechanism, error) {
	s := &run{pid: cmd.Process.Pid, pidns: mech.Has(MechPIDNS), cg: cg, dir: dir, lim: ls.lim, require: ls.require}
	if err := cg.add(s.pid); err != nil {
		s.kill()
		cmd.Wait()
		return nil, 0, fmt.Errorf("sandbox: cgroup: %w", err)
	}
	enforced := cfg.rlimits(mech | cg.mechs())
	// With an egress the program talks to the listener on loopback: the
	// counters move, and the namespace (loopback only) is the
	// confinement.
	if enforced.Has(MechNetNS) && ls.egress == nil {
		s.net = openNetCounters(s.pid)
	}
	return s, enforced, nil
}

// privateDir makes the sandbox's private directory, owned by hostID when
// ward runs as root. The caller removes it.
func privateDir(root bool, hostID int) (string, error) {
	dir, err := os.MkdirTemp("", "ward-sandbox-")
	if err != nil {
		return "", fmt.Errorf("sandbox: private directory: %w", err)
	}
	if root {
		if err := os.Chown(dir, hostID, hostID); err != nil {
			os.RemoveAll(dir)
			return "", fmt.Errorf("sandbox: private directory: %w", err)
		}
	}
	return dir, nil
}

// newChildConfig is the child's configuration for job under lim: the
// rlimits stand in for the cgroups that cg could not provide.
func newChildConfig(job string, lim Limits, cg *cgroups) childConfig {
	cfg := childConfig{Job: job, WallClock: lim.WallClock, Memory: lim.Memory, CPUTime: lim.CPUTime, Disk: lim.Disk, CPU: -1}
	if lim.CPU <= 1 {
		cfg.CPU = pickCPU()
	}
	if !cg.has(MechCgroupMemory) {
		cfg.DataLimit = true
	}
	if !cg.has(MechCgroupPids) {
		cfg.Nproc = lim.Processes + threadAllowance
	}
	return cfg
}

// rlimits adds to m, the mechanisms in force, the rlimits cfg has the child
// set: RLIMIT_NPROC counts only inside a user namespace.
func (cfg childConfig) rlimits(m Mechanism) Mechanism {
	if cfg.Nproc > 0 && m.Has(MechUserNS) {
		m |= MechRlimitNproc
	}
	if cfg.DataLimit {
		m |= MechRlimitData
	}
	return m
}

// startChild starts the command that command builds for the first of
// attempts the kernel allows, moving on to the next only when the kernel
// refused the isolation (EPERM, EINVAL, ENOSPC, EACCES, EUSERS). It returns
// the started command, the mechanisms of the attempt that started it and
// when it started, or the last error.
func startChild(attempts []attempt, command func(attempt) (*exec.Cmd, error)) (*exec.Cmd, attempt, time.Time, error) {
	var err error
	for _, a := range attempts {
		var cmd *exec.Cmd
		if cmd, err = command(a); err != nil {
			break
		}
		start := time.Now()
		if err = cmd.Start(); err == nil {
			return cmd, a, start, nil
		}
		if !errors.Is(err, syscall.EPERM) && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.ENOSPC) && !errors.Is(err, syscall.EACCES) && !errors.Is(err, syscall.EUSERS) {
			break
		}
	}
	return nil, attempt{}, time.Time{}, err
}

// started is a started child as its run sees it: the command, what it was
// told, and the parent's ends of its pipes.
type started struct {
	cmd   *exec.Cmd
	cfg   childConfig
	start time.Time
	goW   *os.File // a byte on it lets the job start
	statR *os.File // the child's status lines
	out   *boundedBuffer
}

// wait supervises c until it exits and makes its Result: the mechanisms
// enforced, the first breach, the exit and the output. It returns an error
// as Run does.
func (s *run) wait(ctx context.Context, c started, enforced Mechanism) (*Result, error) {
	exited := make(chan error, 1)
	go func() { exited <- c.cmd.Wait() }()
	status := make(chan string, 4)
	var statusDone sync.WaitGroup
	statusDone.Go(func() {
		sc := bufio.NewScanner(io.LimitReader(c.statR, 4096))
		for sc.Scan() {
			select {
			case status <- sc.Text():
			default:
			}
		}
	})
	defer statusDone.Wait()

	res := &Result{Enforced: enforced, ExitCode: -1}
	ready, childErr, runErr := s.supervise(ctx, c, exited, status, res)
	res.Elapsed = time.Since(c.start)
	if !s.pidns {
		s.kill() // whatever outlived the child without a PID namespace
	}
	c.statR.Close()
	s.lateBreach(res, status)
	if ps := c.cmd.ProcessState; ps != nil {
		res.ExitCode = ps.ExitCode()
		res.CPU = ps.UserTime() + ps.SystemTime()
		if res.Breach == BreachNone {
			res.Breach = classifyExit(ps, s.lim, c.cfg.DataLimit, s.killed, c.out.bytes())
		}
	}
	res.Output, res.Truncated = c.out.result()
	if _, ok := errors.AsType[*NotEnforcedError](runErr); ok {
		return res, runErr
	}
	if runErr != nil {
		return res, fmt.Errorf("sandbox: %w", runErr)
	}
	var ee *exec.ExitError
	if childErr != nil && !errors.As(childErr, &ee) && !errors.Is(childErr, exec.ErrWaitDelay) {
		return res, fmt.Errorf("sandbox: wait: %w", childErr)
	}
	res.ok = res.Breach == BreachNone && res.ExitCode == 0 && ready
	return res, nil
}

// supervise runs until the child exits, recording in res when it became
// ready and the first breach. It lets the job start once the child reports
// ready, pinned to its CPU, and kills the sandbox on a breach, at the wall
// clock, when the child does not report ready in time, or when ctx ends. It
// returns whether the child became ready, cmd.Wait's error, and why Run gave
// up if it did (errNotReady or ctx's error).
func (s *run) supervise(ctx context.Context, c started, exited <-chan error, status <-chan string, res *Result) (ready bool, childErr, runErr error) {
	wall := time.NewTimer(s.lim.WallClock)
	defer wall.Stop()
	tick := time.NewTicker(poll)
	defer tick.Stop()
	readyBy := time.NewTimer(min(s.lim.WallClock, readyTimeout))
	defer readyBy.Stop()
	for {
		select {
		case childErr = <-exited:
			return ready, childErr, runErr
		case line := <-status:
			switch {
			case strings.HasPrefix(line, "ready") && !ready:
				ready = true
				res.Startup = time.Since(c.start)
				// The child reports what it put in force itself: the
				// minimal root and seccomp.
				if m, err := ParseMechanism(strings.TrimSpace(strings.TrimPrefix(line, "ready"))); err == nil {
					res.Enforced |= m & (MechMountNS | MechSeccomp)
				}
				if pin(s.pid, c.cfg.CPU) {
					res.Enforced |= MechAffinity
				}
				if missing := s.require.Missing(res.Enforced); len(missing) > 0 {
					runErr = &NotEnforcedError{Enforced: res.Enforced, Missing: missing}
					s.kill()
					continue
				}
				if _, err := c.goW.Write([]byte{1}); err != nil {
					s.kill()
				}
			case strings.HasPrefix(line, "note ") && len(res.Notes) < 8:
				res.Notes = append(res.Notes, strings.TrimPrefix(line, "note "))
			case strings.HasPrefix(line, "breach "):
				var b Breach
				if b.UnmarshalText([]byte(strings.TrimPrefix(line, "breach "))) == nil && b != BreachNone && res.Breach == BreachNone {
					res.Breach = b
				}
			}
		case <-readyBy.C:
			if !ready {
				runErr = errNotReady
				s.kill()
			}
		case <-wall.C:
			res.Breach = BreachWallClock
			s.kill()
		case <-ctx.Done():
			runErr = ctx.Err()
			s.kill()
		case <-tick.C:
			if b := s.check(); b != BreachNone {
				if res.Breach == BreachNone {
					res.Breach = b
				}
				s.kill()
			}
		}
	}
}

// lateBreach records in res, if it has none yet, a breach that came after
// supervise stopped watching: the kernel stopped the job and the child
// exited before a poll saw it, or the child's last status lines.
func (s *run) lateBreach(res *Result, status <-chan string) {
	if res.Breach == BreachNone {
		res.Breach = s.check()
	}
	for {
		select {
		case line := <-status:
			var b Breach
			if strings.HasPrefix(line, "breach ") && b.UnmarshalText([]byte(strings.TrimPrefix(line, "breach "))) == nil && res.Breach == BreachNone {
				res.Breach = b
			}
			continue
		default:
		}
		break
	}
}

// classifyExit names the limit behind a child's death that no counter
// recorded: SIGXCPU, or a SIGKILL that Run did not send (the kernel sends it
// at the RLIMIT_CPU hard limit; an OOM kill was ruled out by the memory
// cgroup's counter before), SIGXFSZ (RLIMIT_FSIZE), or the Go runtime's
// out-of-memory abort under RLIMIT_DATA.
func classifyExit(ps *os.ProcessState, lim Limits, dataLimit, killed bool, out []byte) Breach {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	if !ok {
		return BreachNone
	}
	cpu := ps.UserTime() + ps.SystemTime()
	switch {
	case ws.Signaled() && ws.Signal() == syscall.SIGXCPU:
		return BreachCPU
	case ws.Signaled() && ws.Signal() == syscall.SIGKILL && (!killed || cpu >= lim.CPUTime):
		return BreachCPU
	case ws.Signaled() && ws.Signal() == syscall.SIGXFSZ:
		return BreachDisk
	case dataLimit && ws.Exited() && ws.ExitStatus() == 2 &&
		(bytes.Contains(out, []byte("runtime: out of memory")) || bytes.Contains(out, []byte("runtime: cannot allocate memory"))):
		// Fail closed: a job that prints this itself only gets itself rejected.
		return BreachMemory
	}
	return BreachNone
}

type attempt struct {
	attr    *syscall.SysProcAttr
	mech    Mechanism
	mountns bool // the child has its own mount namespace and builds its root
	setID   int  // the ids the child switches to once its root is built, -1 for none
}

// attempts lists the ways to start the child, most isolated first: fresh
// user, mount, network, PID, IPC and UTS namespaces, the child root of its
// user namespace until its root is built and the job unprivileged (jobUID)
// after; as root without a user namespace, the same namespaces with the
// job as hostID; last, no namespaces at all. Without root only ward's own
// uid can be mapped, so the job stays root of its user namespace, its
// capabilities there held in check by seccomp (see docs/sandbox.md).
// mountns false leaves the mount namespace out; network true the network
// namespace.
func attempts(root bool, hostID int, mountns, network bool) []attempt {
	nsFlags := uintptr(syscall.CLONE_NEWNET | syscall.CLONE_NEWPID | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS)
	netns := MechNetNS
	if network {
		nsFlags &^= syscall.CLONE_NEWNET
		netns = 0
	}
	if mountns {
		nsFlags |= syscall.CLONE_NEWNS
	}
	if !root {
		uid, gid := os.Getuid(), os.Getgid()
		userns := &syscall.SysProcAttr{
			Setpgid:     true,
			Pdeathsig:   syscall.SIGKILL,
			Cloneflags:  nsFlags | syscall.CLONE_NEWUSER,
			UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: uid, Size: 1}},
			GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: gid, Size: 1}},
		}
		return []attempt{
			{attr: userns, mech: MechUserNS | netns | MechPIDNS, mountns: mountns, setID: -1},
			{attr: &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}, setID: -1},
		}
	}
	// The user namespace's root is a second host id, owner of nothing.
	rootID := hostID + sandboxIDs
	userns := &syscall.SysProcAttr{
		Setpgid:                    true,
		Pdeathsig:                  syscall.SIGKILL,
		Cloneflags:                 nsFlags | syscall.CLONE_NEWUSER,
		UidMappings:                []syscall.SysProcIDMap{{ContainerID: 0, HostID: rootID, Size: 1}, {ContainerID: jobUID, HostID: hostID, Size: 1}},
		GidMappings:                []syscall.SysProcIDMap{{ContainerID: 0, HostID: rootID, Size: 1}, {ContainerID: jobUID, HostID: hostID, Size: 1}},
		GidMappingsEnableSetgroups: true,
		// Host root is not mapped: without switching to the namespace's
		// root before exec the child would lose its capabilities there.
		Credential: &syscall.Credential{Uid: 0, Gid: 0, Groups: []uint32{}},
	}
	cred := &syscall.Credential{Uid: uint32(hostID), Gid: uint32(hostID), Groups: []uint32{}}
	return []attempt{
		{attr: userns, mech: MechUserNS | netns | MechPIDNS, mountns: mountns, setID: jobUID},
		{attr: &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL, Cloneflags: nsFlags}, mech: netns | MechPIDNS | MechUnprivileged, mountns: mountns, setID: hostID},
		{attr: &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL, Credential: cred}, mech: MechUnprivileged, setID: -1},
	}
}

// pickCPU chooses the CPU a sandbox is pinned to, rotating over the CPUs
// this process may use so that concurrent sandboxes spread out.
func pickCPU() int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil || set.Count() == 0 {
		return -1
	}
	n := int(runSeq.Load() % uint64(set.Count()))
	for cpu := 0; cpu < runtime.NumCPU()*4 && cpu < 1024; cpu++ {
		if set.IsSet(cpu) {
			if n == 0 {
				return cpu
			}
			n--
		}
	}
	return -1
}

// pin sets the CPU affinity of every thread of pid to cpu. New threads
// inherit their creator's mask, so two passes leave none unpinned. The job
// may widen its own mask again (sched_setaffinity needs no privilege); the
// cpu cgroup's quota is what holds it to one CPU's worth of time.
func pin(pid, cpu int) bool {
	if cpu < 0 {
		return false
	}
	var set unix.CPUSet
	set.Set(cpu)
	for range 2 {
		tasks, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
		if err != nil {
			return false
		}
		for _, t := range tasks {
			tid, err := strconv.Atoi(t.Name())
			if err != nil || unix.SchedSetaffinity(tid, &set) != nil {
				return false
			}
		}
	}
	return true
}

// run is the parent's view of one live sandbox.
type run struct {
	pid     int
	pidns   bool
	cg      *cgroups
	net     *netCounters
	dir     string
	lim     Limits
	require Requirement
	killed  bool // Run sent SIGKILL
}

// kill stops every process of the sandbox. With a PID namespace, killing
// its init (the child) makes the kernel kill the rest; without one, the
// process group and every process in the cgroups are killed too.
func (s *run) kill() {
	s.killed = true
	unix.Kill(s.pid, unix.SIGKILL)
	if !s.pidns {
		unix.Kill(-s.pid, unix.SIGKILL)
		s.cg.killAll()
	}
}

// check samples the counters that have no event to wait on and returns the
// first breach they show.
func (s *run) check() Breach {
	if s.cg.oomKilled() || (!s.cg.has(MechCgroupMemory) && residentBytes(s.pid) >= s.lim.Memory) {
		return BreachMemory
	}
	if s.cg.forkFailed() {
		return BreachProcesses
	}
	procs := s.cg.processes()
	if !s.cg.has(MechCgroupPids) {
		procs = descendants(s.pid)
	}
	if procs > s.lim.Processes {
		return BreachProcesses
	}
	if s.net.attempted() {
		return BreachNetwork
	}
	if diskUsage(s.dir) >= s.lim.Disk {
		return BreachDisk
	}
	return BreachNone
}

// boundedBuffer keeps the first max bytes written to it and drops the rest
// without failing the writer.
type boundedBuffer struct {
	mu        sync.Mutex
	buf       []byte
	max       int
	truncated bool
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	room := b.max - len(b.buf)
	if len(p) > room {
		b.truncated = true
		b.buf = append(b.buf, p[:max(room, 0)]...)
	} else {
		b.buf = append(b.buf, p...)
	}
	return len(p), nil
}

func (b *boundedBuffer) bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf
}

func (b *boundedBuffer) result() ([]byte, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf, b.truncated
}
