package sandbox

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// cgroups are the sandbox's own cgroups, created under the parent's own
// group so that the sandbox stays inside whatever limits ward itself runs
// under: one cgroup v2 group when the unified hierarchy offers the memory,
// pids and cpu controllers to ward's group (newCgroup2), else a group in
// each cgroup v1 hierarchy. A v1 controller whose hierarchy is missing or
// not writable is skipped; Result.Enforced says which were used. A nil
// *cgroups is valid and has no controllers.
type cgroups struct {
	dirs map[string]string // controller → directory of the sandbox's group (v2: the same for all)
	mech Mechanism
	v2   bool
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

// cpuQuota is the cgroup quota of lim.CPU per cfsPeriod, in µs.
func cpuQuota(lim Limits) int64 { return int64(math.Ceil(lim.CPU * cfsPeriod)) }

func newCgroups(name string, lim Limits) *cgroups {
	if root, own, ok := v2Mount(); ok {
		if cg := newCgroup2(root, own, name, lim); cg != nil {
			return cg
		}
	}
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
				err = write(dir, "cpu.cfs_quota_us", cpuQuota(lim))
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
	for _, dir := range cg.groups() {
		if err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0); err != nil {
			return err
		}
	}
	return nil
}

// groups lists the group directories once each.
func (cg *cgroups) groups() []string {
	var out []string
	for _, dir := range cg.dirs {
		if !slices.Contains(out, dir) {
			out = append(out, dir)
		}
	}
	return out
}

// oomKilled reports whether the kernel OOM-killed a process of the group.
func (cg *cgroups) oomKilled() bool {
	if !cg.has(MechCgroupMemory) {
		return false
	}
	if cg.v2 {
		return keyed(filepath.Join(cg.dirs["memory"], "memory.events"), "oom_kill") > 0
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
	if cg.v2 {
		// cgroup.kill (Linux 5.14) kills the whole group at once.
		os.WriteFile(filepath.Join(cg.dirs["memory"], "cgroup.kill"), []byte("1"), 0)
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
	for _, dir := range cg.groups() {
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

// v2Controllers are the cgroup v2 controllers the sandbox needs, all of
// them: with fewer it uses v1 (or the rlimits) for everything.
var v2Controllers = []string{"memory", "pids", "cpu"}

// newCgroup2 makes the sandbox's group name under parent (ward's own
// group, a path relative to root, the cgroup2 mount point) and sets
// memory.max (and memory.swap.max to 0 where swap is accounted),
// pids.max and cpu.max. The controllers must be listed in parent's
// cgroup.controllers; they are enabled in its cgroup.subtree_control,
// which the kernel allows when parent is the root or has no processes of
// its own (a delegated subtree). It returns nil when any of this fails,
// and removes what it made.
func newCgroup2(root, parent, name string, lim Limits) *cgroups {
	pdir := filepath.Join(root, parent)
	b, err := os.ReadFile(filepath.Join(pdir, "cgroup.controllers"))
	if err != nil {
		return nil
	}
	have := strings.Fields(string(b))
	enable := ""
	for _, c := range v2Controllers {
		if !slices.Contains(have, c) {
			return nil
		}
		enable += "+" + c + " "
	}
	if err := os.WriteFile(filepath.Join(pdir, "cgroup.subtree_control"), []byte(strings.TrimSpace(enable)), 0); err != nil {
		return nil
	}
	dir := filepath.Join(pdir, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil
	}
	err = write(dir, "memory.max", lim.Memory)
	if err == nil {
		if e := write(dir, "memory.swap.max", 0); e != nil && !errors.Is(e, os.ErrNotExist) {
			err = e
		}
	}
	if err == nil {
		err = write(dir, "pids.max", int64(lim.Processes+threadAllowance))
	}
	if err == nil {
		// An OOM kill takes the whole sandbox, not one of its processes.
		if e := write(dir, "memory.oom.group", 1); e != nil && !errors.Is(e, os.ErrNotExist) {
			err = e
		}
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "cpu.max"), []byte(fmt.Sprintf("%d %d", cpuQuota(lim), cfsPeriod)), 0)
	}
	if err != nil {
		os.Remove(dir)
		return nil
	}
	cg := &cgroups{dirs: map[string]string{}, mech: MechCgroupMemory | MechCgroupPids | MechCgroupCPU | MechCgroup2, v2: true}
	for _, c := range v2Controllers {
		cg.dirs[c] = dir
	}
	return cg
}

// v2Mount returns the cgroup2 mount point and this process's group in it
// ("0::PATH" in /proc/self/cgroup).
func v2Mount() (root, own string, ok bool) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", "", false
	}
	for line := range strings.SplitSeq(strings.TrimSpace(string(b)), "\n") {
		if p, found := strings.CutPrefix(line, "0::"); found {
			own, ok = p, true
		}
	}
	if !ok {
		return "", "", false
	}
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return "", "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		pre, post, found := strings.Cut(sc.Text(), " - ")
		if !found {
			continue
		}
		pf, qf := strings.Fields(pre), strings.Fields(post)
		if len(pf) >= 5 && len(qf) >= 1 && qf[0] == "cgroup2" {
			return pf[4], own, true
		}
	}
	return "", "", false
}
