package sandbox

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestCgroup2Protocol checks the cgroup v2 driver's file protocol against
// a fake directory tree: which files it writes and reads, not that any
// kernel enforced them (this machine's cgroup2 hierarchy has no memory,
// pids or cpu controller; see TestCgroup2Here).
func TestCgroup2Protocol(t *testing.T) {
	root := t.TempDir()
	parent := "/ward.service"
	pdir := filepath.Join(root, parent)
	if err := os.MkdirAll(pdir, 0o755); err != nil {
		t.Fatal(err)
	}
	put := func(path, content string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(path string) string {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	lim := small.withDefaultsT(t)

	put(filepath.Join(pdir, "cgroup.controllers"), "cpuset cpu io pids hugetlb\n")
	if cg := newCgroup2(root, parent, "missing-memory", lim); cg != nil {
		t.Fatalf("a hierarchy without the memory controller was used: %+v", cg)
	}

	put(filepath.Join(pdir, "cgroup.controllers"), "cpuset cpu io memory hugetlb pids rdma misc\n")
	put(filepath.Join(pdir, "cgroup.subtree_control"), "")
	cg := newCgroup2(root, parent, "ward-sandbox-1-1", lim)
	if cg == nil {
		t.Fatal("newCgroup2 = nil with every controller available")
	}
	dir := filepath.Join(pdir, "ward-sandbox-1-1")
	if got, want := read(filepath.Join(pdir, "cgroup.subtree_control")), "+memory +pids +cpu"; got != want {
		t.Errorf("subtree_control = %q, want %q", got, want)
	}
	for file, want := range map[string]string{
		"memory.max":       "33554432",
		"memory.swap.max":  "0",
		"memory.oom.group": "1",
		"pids.max":         "22",
		"cpu.max":          "100000 100000",
	} {
		if got := read(filepath.Join(dir, file)); got != want {
			t.Errorf("%s = %q, want %q", file, got, want)
		}
	}
	lim.CPU = 0.5
	half := newCgroup2(root, parent, "ward-sandbox-1-2", lim)
	if got := read(filepath.Join(pdir, "ward-sandbox-1-2", "cpu.max")); half == nil || got != "50000 100000" {
		t.Errorf("cpu 0.5: cpu.max = %q, want \"50000 100000\"", got)
	}
	if want := MechCgroupMemory | MechCgroupPids | MechCgroupCPU | MechCgroup2; cg.mechs() != want {
		t.Errorf("mechanisms %s, want %s", cg.mechs(), want)
	}
	if err := cg.add(4242); err != nil {
		t.Fatal(err)
	}
	if got := read(filepath.Join(dir, "cgroup.procs")); got != "4242" {
		t.Errorf("cgroup.procs = %q, want 4242", got)
	}
	if cg.oomKilled() || cg.forkFailed() {
		t.Error("a breach before any event")
	}
	put(filepath.Join(dir, "memory.events"), "low 0\nhigh 0\nmax 7\noom 1\noom_kill 1\noom_group_kill 1\n")
	put(filepath.Join(dir, "pids.events"), "max 3\n")
	put(filepath.Join(dir, "cgroup.procs"), "4242\n4243\n")
	if !cg.oomKilled() {
		t.Error("oom_kill 1 in memory.events not seen")
	}
	if !cg.forkFailed() {
		t.Error("max 3 in pids.events not seen")
	}
	if n := cg.processes(); n != 2 {
		t.Errorf("processes = %d, want 2", n)
	}
	if got := cg.groups(); len(got) != 1 || got[0] != dir {
		t.Errorf("groups = %q, want the one directory", got)
	}
}

// TestCgroup2Here mounts a cgroup2 hierarchy at a temporary directory and
// checks that the driver uses it exactly when the kernel offers the three
// controllers there; on this machine (v1 hybrid) they are bound to the v1
// hierarchies, so it must not, and a run says cgroup v1.
func TestCgroup2Here(t *testing.T) {
	mnt := t.TempDir()
	if err := unix.Mount("none", mnt, "cgroup2", 0, ""); err != nil {
		t.Fatalf("mount cgroup2: %v", err)
	}
	t.Cleanup(func() { unix.Unmount(mnt, unix.MNT_DETACH) })
	b, err := os.ReadFile(filepath.Join(mnt, "cgroup.controllers"))
	if err != nil {
		t.Fatal(err)
	}
	have := strings.Fields(string(b))
	usable := slices.Contains(have, "memory") && slices.Contains(have, "pids") && slices.Contains(have, "cpu")
	cg := newCgroup2(mnt, "/", "ward-sandbox-probe", small.withDefaultsT(t))
	defer cg.remove()
	t.Logf("cgroup2 controllers here: %q; driver used it: %v", have, cg != nil)
	if (cg != nil) != usable {
		t.Errorf("driver used the hierarchy: %v, controllers usable: %v", cg != nil, usable)
	}
	res, err := Run(t.Context(), Spec{Job: "echo", Limits: small})
	if err != nil {
		t.Fatal(err)
	}
	if res.Enforced.Has(MechCgroup2) != usable {
		t.Errorf("a run enforced %s with cgroup2 controllers usable: %v", res.Enforced, usable)
	}
}

// TestCPULimit: a job that spins for a second of wall clock under a
// quarter of a core gets at most about a quarter of a second of CPU where
// the cpu cgroup is in force (under one core it gets up to a second, less
// when the machine is busy, so that is logged, not compared).
func TestCPULimit(t *testing.T) {
	for _, bad := range []float64{-1, 0.001, 2000, math.NaN()} {
		if _, err := (Limits{CPU: bad}).withDefaults(); err == nil {
			t.Errorf("cpu %g accepted", bad)
		}
	}
	spin := func(cpu float64) *Result {
		lim := small
		lim.WallClock, lim.CPU = time.Second, cpu
		res, err := Run(t.Context(), Spec{Job: "spin", Limits: lim})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("cpu %g: %v of CPU in %v, breach %s, enforced %s", cpu, res.CPU, res.Elapsed, res.Breach, res.Enforced)
		return res
	}
	quarter, full := spin(0.25), spin(1)
	if !quarter.Enforced.Has(MechCgroupCPU) {
		t.Logf("no cpu cgroup here: the limit is not in force, and the Result says so (%s)", quarter.Enforced)
		return
	}
	if quarter.CPU > 400*time.Millisecond {
		t.Errorf("a quarter core used %v of CPU in a second (one core: %v)", quarter.CPU, full.CPU)
	}
}
