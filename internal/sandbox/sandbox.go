// Package sandbox runs an untrusted job in a child process of the current
// binary under the Stage 3 resource limits of seed 001: 30 s of wall clock,
// 256 MB of memory, 1 CPU, 100 MB of disk, 10 processes and no network.
//
// Run re-executes /proc/self/exe; the child recognises itself in Main, which
// every binary that calls Run must call first thing (cmd/ward's main and the
// package tests' TestMain do). The child lives in fresh user, network, PID,
// IPC and UTS namespaces where the kernel allows them, in its own cgroups
// where they are writable, under rlimits it sets on itself before the job
// starts, and in a private temporary directory. Run watches it and kills the
// whole sandbox on the first breach; the breach is reported as a value in
// Result, not as an error. An error from Run means the sandbox could not be
// run at all. Which mechanisms were in force is reported in
// Result.Enforced; docs/sandbox.md says what each one covers on the machines
// ward was measured on, and what is not enforced.
//
// The job itself is either the built-in WASM runner (see WASM), which runs a
// third-party module under wazero with no host imports, or a Go function
// registered with Main.
package sandbox

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"
)

// Defaults are the limits of seed 001, section 5.2.
const (
	DefaultWallClock = 30 * time.Second
	DefaultMemory    = 256 << 20
	DefaultDisk      = 100 << 20
	DefaultProcesses = 10
	DefaultOutput    = 1 << 20
)

// Limits bounds one sandbox run. A zero field takes the seed's default, so
// the zero Limits is the seed's sandbox; a negative field is an error.
type Limits struct {
	WallClock time.Duration // from spawn to exit; the whole sandbox is killed when it expires
	Memory    int64         // bytes of memory of all the sandbox's processes
	CPUTime   time.Duration // CPU time of the job process, rounded up to whole seconds (RLIMIT_CPU); default the wall clock
	// CPU is the share of CPU the sandbox may use, in cores (0.5: half
	// of one core's time, 2: two cores'), enforced by the cpu cgroup's
	// quota (cpu.max, cpu.cfs_quota_us) when MechCgroupCPU is in force;
	// default 1. At most one core the sandbox is also pinned to one CPU.
	CPU       float64
	Disk      int64 // bytes written under the sandbox's private directory, and per file
	Processes int   // processes in the sandbox, its own included
	Output    int   // bytes of combined stdout and stderr kept; the rest is dropped
	// Without lists mechanisms not to apply: MechMountNS, MechSeccomp and
	// the cgroup mechanisms (all of them when any is listed) can be left
	// out. Tests use it to measure the fallbacks and a caller's refusal
	// (Spec.Require); zero applies everything the kernel allows.
	Without Mechanism
}

func (l Limits) withDefaults() (Limits, error) {
	if l.WallClock < 0 || l.Memory < 0 || l.CPUTime < 0 || l.Disk < 0 || l.Processes < 0 || l.Output < 0 || l.CPU < 0 || math.IsNaN(l.CPU) {
		return l, fmt.Errorf("sandbox: negative limit in %+v", l)
	}
	l.CPU = cmp.Or(l.CPU, 1)
	if l.CPU < MinCPU || l.CPU > MaxCPU {
		return l, fmt.Errorf("sandbox: cpu %g cores: want %g to %g", l.CPU, MinCPU, float64(MaxCPU))
	}
	l.WallClock = cmp.Or(l.WallClock, DefaultWallClock)
	l.Memory = cmp.Or(l.Memory, DefaultMemory)
	l.CPUTime = cmp.Or(l.CPUTime, l.WallClock)
	l.Disk = cmp.Or(l.Disk, DefaultDisk)
	l.Processes = cmp.Or(l.Processes, DefaultProcesses)
	l.Output = cmp.Or(l.Output, DefaultOutput)
	if l.Memory < minMemory {
		return l, fmt.Errorf("sandbox: memory limit %d below the %d bytes the child's runtime needs", l.Memory, minMemory)
	}
	return l, nil
}

// MinCPU and MaxCPU bound Limits.CPU: a quota below 1 ms per 100 ms
// period is below what the kernel schedules usefully.
const (
	MinCPU = 0.01
	MaxCPU = 1024
)

// minMemory is what the child's Go runtime and wazero need before any job
// runs (measured RSS is about 8 MB; the margin covers the WASM compiler).
const minMemory = 24 << 20

// Spec is one job to run in a sandbox.
type Spec struct {
	Job    string // the name of a job registered with Main, or "wasm" (see WASM)
	Input  []byte // the child's standard input
	Limits Limits
	// ReadOnly are host paths (files or directories) the job sees,
	// read-only, at the same path inside its minimal root; nothing else of
	// the host's filesystem is visible. Jobs that run in-process need none.
	ReadOnly []string
	// Require is the isolation without which the job must not run: when
	// the child reports ready without it, Run kills it before the job's
	// first instruction and returns a *NotEnforcedError. Zero requires
	// nothing.
	Require Requirement
}

// Breach names the limit that stopped a sandbox. The zero value is
// BreachNone.
type Breach uint8

const (
	BreachNone Breach = iota
	BreachWallClock
	BreachMemory
	BreachCPU
	BreachDisk
	BreachProcesses
	BreachNetwork
)

var breachNames = [...]string{"none", "wall_clock", "memory", "cpu", "disk", "processes", "network"}

func (b Breach) String() string {
	if int(b) < len(breachNames) {
		return breachNames[b]
	}
	return fmt.Sprintf("breach(%d)", uint8(b))
}

// MarshalText implements encoding.TextMarshaler.
func (b Breach) MarshalText() ([]byte, error) {
	if int(b) >= len(breachNames) {
		return nil, fmt.Errorf("sandbox: unknown breach %d", uint8(b))
	}
	return []byte(b.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (b *Breach) UnmarshalText(text []byte) error {
	for i, n := range breachNames {
		if n == string(text) {
			*b = Breach(i)
			return nil
		}
	}
	return fmt.Errorf("sandbox: unknown breach %q", text)
}

// Mechanism is a set of isolation mechanisms that were in force for a run.
type Mechanism uint32

const (
	MechUserNS       Mechanism = 1 << iota // own user namespace, job uid unprivileged
	MechNetNS                              // own network namespace: no interfaces up, not even loopback
	MechPIDNS                              // own PID namespace: killing the child kills every process in it
	MechCgroupMemory                       // memory cgroup: the kernel OOM-kills at Limits.Memory
	MechCgroupPids                         // pids cgroup: fork fails past the task cap
	MechCgroupCPU                          // cpu cgroup: CFS quota of Limits.CPU (one CPU by default)
	MechRlimitData                         // RLIMIT_DATA as the memory limit (no memory cgroup)
	MechRlimitNproc                        // RLIMIT_NPROC counted in the sandbox's own user namespace
	MechAffinity                           // the child's threads pinned to one CPU
	MechUnprivileged                       // the job runs as an unprivileged uid outside any namespace
	MechMountNS                            // own mount namespace: a minimal read-only root, the private directory the only writable place
	MechSeccomp                            // a seccomp filter (and no_new_privs) refuses the syscalls a job has no business with
	MechCgroup2                            // the cgroup-* mechanisms are cgroup v2 (memory.max, pids.max, cpu.max), not v1
)

var mechNames = []string{"userns", "netns", "pidns", "cgroup-memory", "cgroup-pids", "cgroup-cpu", "rlimit-data", "rlimit-nproc", "affinity", "unprivileged-uid", "mountns", "seccomp", "cgroup2"}

func (m Mechanism) String() string {
	var parts []string
	for i, n := range mechNames {
		if m&(1<<i) != 0 {
			parts = append(parts, n)
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ",")
}

// Has reports whether every mechanism of x is in m.
func (m Mechanism) Has(x Mechanism) bool { return m&x == x }

// ParseMechanism parses a comma-separated list of the names String
// gives ("userns,netns"); "none" and "" are the empty set.
func ParseMechanism(s string) (Mechanism, error) {
	var m Mechanism
	for name := range strings.SplitSeq(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" || name == "none" {
			continue
		}
		i := slices.Index(mechNames, name)
		if i < 0 {
			return 0, fmt.Errorf("sandbox: unknown mechanism %q", name)
		}
		m |= 1 << i
	}
	return m, nil
}

// Requirement is the isolation a caller needs from a run: every mechanism
// of All, and for each element of AnyOf at least one of its mechanisms
// (e.g. a memory limit by cgroup or by rlimit). The zero Requirement
// requires nothing.
type Requirement struct {
	All   Mechanism
	AnyOf []Mechanism
}

// DefaultRequirement is what Stage 3 requires unless configured otherwise:
// process isolation (user and PID namespaces), no network (a network
// namespace), a mount namespace with the minimal root, seccomp, and a
// memory and a process limit by cgroup or by rlimit.
var DefaultRequirement = Requirement{
	All:   MechUserNS | MechPIDNS | MechNetNS | MechMountNS | MechSeccomp,
	AnyOf: []Mechanism{MechCgroupMemory | MechRlimitData, MechCgroupPids | MechRlimitNproc},
}

// Alternatives a requirement may name besides the mechanisms: a limit
// that a cgroup or an rlimit puts in force.
var requirementAlternatives = map[string]Mechanism{
	"memory":    MechCgroupMemory | MechRlimitData,
	"processes": MechCgroupPids | MechRlimitNproc,
}

// DefaultRequirementNames are the names ParseRequirement reads as
// DefaultRequirement.
var DefaultRequirementNames = []string{"userns", "pidns", "netns", "mountns", "seccomp", "memory", "processes"}

// ParseRequirement reads a requirement from names: each a mechanism's
// name as Mechanism.String gives it ("mountns", "cgroup2"), required
// itself, or "memory" or "processes", a limit by cgroup or by rlimit. It
// refuses an unknown name and an empty list (which would require
// nothing: the zero Requirement is for callers who mean it).
func ParseRequirement(names []string) (Requirement, error) {
	if len(names) == 0 {
		return Requirement{}, errors.New("sandbox: an empty requirement would let a job run with no isolation")
	}
	var r Requirement
	for _, n := range names {
		if alt, ok := requirementAlternatives[n]; ok {
			if !slices.Contains(r.AnyOf, alt) {
				r.AnyOf = append(r.AnyOf, alt)
			}
			continue
		}
		m, err := ParseMechanism(n)
		if err != nil || m == 0 || strings.Contains(n, ",") {
			return Requirement{}, fmt.Errorf("sandbox: requirement %q is not a mechanism (%s) nor memory or processes", n, strings.Join(mechNames, ", "))
		}
		r.All |= m
	}
	return r, nil
}

// Missing returns what of r the mechanisms m lack, one entry per
// unsatisfied part ("mountns", "cgroup-memory|rlimit-data"); none when m
// satisfies r.
func (r Requirement) Missing(m Mechanism) []string {
	var out []string
	for i, n := range mechNames {
		if bit := Mechanism(1) << i; r.All&bit != 0 && m&bit == 0 {
			out = append(out, n)
		}
	}
	for _, alt := range r.AnyOf {
		if alt != 0 && m&alt == 0 {
			out = append(out, strings.ReplaceAll(alt.String(), ",", "|"))
		}
	}
	return out
}

// NotEnforcedError is returned by Run when the sandbox could not put in
// force the isolation Spec.Require asks for; the job did not run. Errors.As
// finds it; ErrNotEnforced matches it with errors.Is.
type NotEnforcedError struct {
	Enforced Mechanism // what was in force
	Missing  []string  // what of the requirement was not (Requirement.Missing)
}

func (e *NotEnforcedError) Error() string {
	return fmt.Sprintf("sandbox: required isolation not in force: %s (in force: %s)", strings.Join(e.Missing, ", "), e.Enforced)
}

// Is reports whether target is ErrNotEnforced.
func (e *NotEnforcedError) Is(target error) bool { return target == ErrNotEnforced }

// ErrNotEnforced is the sentinel of NotEnforcedError.
var ErrNotEnforced = errors.New("sandbox: required isolation not in force")

// Result is the outcome of a run that started. It is not OK unless the job
// exited 0 with no breach; the zero Result is not OK.
type Result struct {
	Breach    Breach        // the limit that stopped the job; BreachNone if none did
	Elapsed   time.Duration // from spawning the child to its exit: the time to stop on a breach
	Startup   time.Duration // from spawning the child to the job's first instruction
	CPU       time.Duration // user and system CPU time of the child and the children it waited for
	ExitCode  int           // the child's exit status; -1 if a signal ended it
	Output    []byte        // combined stdout and stderr, at most Limits.Output bytes; untrusted
	Truncated bool          // output past Limits.Output was dropped
	Enforced  Mechanism     // the isolation that was in force
	Notes     []string      // why a mechanism the child tried is not in force (from the child: untrusted only if the child is)
	ok        bool
}

// OK reports whether the job ran to completion within every limit and
// exited 0.
func (r *Result) OK() bool { return r != nil && r.ok }

// Job is code that runs inside a sandbox child: it reads its input, writes
// its output (bounded by the parent) and returns. ctx ends at the wall
// clock. A Job that returns a *BreachError reports that breach to Run.
type Job func(ctx context.Context, input []byte, output io.Writer) error

// BreachError is returned by a Job that stopped itself on a limit (the WASM
// runner does, when wazero interrupts a guest at the wall clock or refuses
// its memory).
type BreachError struct {
	Breach Breach
	Err    error
}

func (e *BreachError) Error() string { return fmt.Sprintf("sandbox: %s: %v", e.Breach, e.Err) }
func (e *BreachError) Unwrap() error { return e.Err }

// ErrUnsupported is returned by Run on systems where ward has no sandbox.
var ErrUnsupported = errors.New("sandbox: not supported on this system")
