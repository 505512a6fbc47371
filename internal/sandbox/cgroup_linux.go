package sandbox

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// cgroups are the sandbox's own cgroup v1 groups, created under the
// parent's own group of each hierarchy so that the sandbox stays inside
// whatever limits ward itself runs under. A controller whose hierarchy is
// missing or not writable is skipped; Result.Enforced says which were used.
// cgroup v2 is not implemented (see docs/sandbox.md). A nil *cgroups is
// valid and has no controllers.
type cgroups struct {
	dirs map[string]string // controller → directory of the sandbox's group
	mech Mechanism
}

var cgroupControllers = []struct {
	name string
	mech Mechanism
}{
	{"memory", MechCgroupMemory},
	{"pids", MechCgroupPids},
	{"cpu", MechCgroupCPU},
}

const cfsPeriod = 100000 // µs

func newCgroups(name string, lim Limits) *cgroups {
	mounts := v1Mounts()
	own := ownCgroups()
	cg := &cgroups{dirs: map[string]string{}}
	for _, c := range cgroupControllers {
		mnt, ok := mounts[c.name]
		if !ok {
			continue
		}
		dir := filepath.Join(mnt, own[c.name], name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			continue
		}
		var err error
		switch c.name {
		case "memory":
			err = write(dir, "memory.limit_in_bytes", lim.Memory)
			if err == nil {
				// Without swap accounting the file is absent; with it, swap
				// must not extend the limit.
				if e := write(dir, "memory.memsw.limit_in_bytes", lim.Memory); e != nil && !errors.Is(e, os.ErrNotExist) {
					err = e
				}
			}
		case "pids":
			err = write(dir, "pids.max", int64(lim.Processes+threadAllowance))
		case "cpu":
			if err = write(dir, "cpu.cfs_period_us", cfsPeriod); err == nil {
				err = write(dir, "cpu.cfs_quota_us", cfsPeriod)
			}
		}
		if err != nil {
			os.Remove(dir)
			continue
		}
		cg.dirs[c.name] = dir
		cg.mech |= c.mech
	}
	return cg
}

func write(dir, file string, v int64) error {
	return os.WriteFile(filepath.Join(dir, file), []byte(strconv.FormatInt(v, 10)), 0)
}

func (cg *cgroups) has(m Mechanism) bool { return cg != nil && cg.mech.Has(m) }

func (cg *cgroups) mechs() Mechanism {
	if cg == nil {
		return 0
	}
	return cg.mech
}

// add moves pid (all its threads) into every group. The child is blocked
// before its job until Run lets it go, so nothing of the job runs outside.
func (cg *cgroups) add(pid int) error {
	if cg == nil {
		return nil
	}
	for _, dir := range cg.dirs {
		if err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0); err != nil {
			return err
		}
	}
	return nil
}

// oomKilled reports whether the kernel OOM-killed a process of the group.
func (cg *cgroups) oomKilled() bool {
	if !cg.has(MechCgroupMemory) {
		return false
	}
	return keyed(filepath.Join(cg.dirs["memory"], "memory.oom_control"), "oom_kill") > 0
}

// forkFailed reports whether a fork or clone failed at pids.max.
func (cg *cgroups) forkFailed() bool {
	if !cg.has(MechCgroupPids) {
		return false
	}
	return keyed(filepath.Join(cg.dirs["pids"], "pids.events"), "max") > 0
}

// processes counts the processes (not threads) in the group, or 0.
func (cg *cgroups) processes() int {
	if !cg.has(MechCgroupPids) {
		return 0
	}
	return len(cg.pids())
}

func (cg *cgroups) pids() []int {
	dir, ok := cg.dirs["pids"]
	if !ok {
		for _, d := range cg.dirs {
			dir = d
			break
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	if err != nil {
		return nil
	}
	var out []int
	for _, f := range strings.Fields(string(b)) {
		if p, err := strconv.Atoi(f); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// killAll kills every process in the groups until none is left (new ones
// may fork while the first are killed).
func (cg *cgroups) killAll() {
	if cg == nil || len(cg.dirs) == 0 {
		return
	}
	for range 100 {
		pids := cg.pids()
		if len(pids) == 0 {
			return
		}
		for _, p := range pids {
			unix.Kill(p, unix.SIGKILL)
		}
	}
}

// remove deletes the groups, waiting briefly for killed processes to leave
// them.
func (cg *cgroups) remove() {
	if cg == nil {
		return
	}
	deadline := time.Now().Add(2 * time.Second)
	for _, dir := range cg.dirs {
		for os.Remove(dir) != nil && time.Now().Before(deadline) {
			cg.killAll()
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// keyed returns the value of key in a "key value" per line file, or 0.
func keyed(path, key string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if k, v, ok := strings.Cut(line, " "); ok && k == key {
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n
		}
	}
	return 0
}

// v1Mounts maps each cgroup v1 controller to its hierarchy's mount point.
func v1Mounts() map[string]string {
	out := map[string]string{}
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		if !ok {
			continue
		}
		pf, qf := strings.Fields(pre), strings.Fields(post)
		if len(pf) < 5 || len(qf) < 3 || qf[0] != "cgroup" {
			continue
		}
		for opt := range strings.SplitSeq(qf[2], ",") {
			if _, seen := out[opt]; !seen {
				out[opt] = pf[4]
			}
		}
	}
	return out
}

// ownCgroups maps each v1 controller to this process's group path.
func ownCgroups() map[string]string {
	out := map[string]string{}
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return out
	}
	for line := range strings.SplitSeq(strings.TrimSpace(string(b)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 || parts[1] == "" {
			continue
		}
		for c := range strings.SplitSeq(parts[1], ",") {
			out[c] = parts[2]
		}
	}
	return out
}
