package sandbox

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// netCounters reads the SNMP counters of the sandbox's network namespace.
// In a fresh namespace no interface is up, so every attempt to reach an
// address fails in the kernel's route lookup; the kernel counts those
// failures (OutNoRoutes) and every connect or datagram sent, and a non-zero
// count is a network breach. The files stay open so the namespace can be
// read after the child exits. A nil *netCounters reports nothing.
type netCounters struct {
	v4, v6 *os.File
}

// Counters that move when a job tries the network.
var (
	netKeys4 = map[string][]string{"Ip": {"OutNoRoutes", "OutRequests"}, "Tcp": {"ActiveOpens"}, "Udp": {"OutDatagrams"}, "Icmp": {"OutMsgs"}}
	netKeys6 = []string{"Ip6OutNoRoutes", "Ip6OutRequests", "Udp6OutDatagrams", "Icmp6OutMsgs"}
)

func openNetCounters(pid int) *netCounters {
	n := &netCounters{}
	n.v4, _ = os.Open("/proc/" + strconv.Itoa(pid) + "/net/snmp")
	n.v6, _ = os.Open("/proc/" + strconv.Itoa(pid) + "/net/snmp6")
	if n.v4 == nil && n.v6 == nil {
		return nil
	}
	return n
}

func (n *netCounters) close() {
	if n == nil {
		return
	}
	for _, f := range []*os.File{n.v4, n.v6} {
		if f != nil {
			f.Close()
		}
	}
}

// attempted reports whether any counter of the namespace is non-zero.
func (n *netCounters) attempted() bool {
	if n == nil {
		return false
	}
	if b := reread(n.v4); b != nil && snmpNonZero(string(b)) {
		return true
	}
	if b := reread(n.v6); b != nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			f := strings.Fields(line)
			if len(f) == 2 && contains(netKeys6, f[0]) && f[1] != "0" {
				return true
			}
		}
	}
	return false
}

func reread(f *os.File) []byte {
	if f == nil {
		return nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil
	}
	b, err := io.ReadAll(io.LimitReader(f, 64<<10))
	if err != nil {
		return nil
	}
	return b
}

// snmpNonZero parses /proc/net/snmp's pairs of header and value lines.
func snmpNonZero(s string) bool {
	lines := strings.Split(s, "\n")
	for i := 0; i+1 < len(lines); i += 2 {
		hdr, val := strings.Fields(lines[i]), strings.Fields(lines[i+1])
		if len(hdr) == 0 || len(hdr) != len(val) {
			continue
		}
		keys := netKeys4[strings.TrimSuffix(hdr[0], ":")]
		for j := 1; j < len(hdr); j++ {
			if contains(keys, hdr[j]) && val[j] != "0" {
				return true
			}
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// diskUsage is the space used under dir: allocated blocks of every file,
// with each file or directory charged at least one 4 KiB block so that
// creating empty files also fills the budget.
func diskUsage(dir string) int64 {
	var total int64
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		used := int64(4096)
		if st, ok := info.Sys().(*syscall.Stat_t); ok && st.Blocks*512 > used {
			used = st.Blocks * 512
		}
		total += used
		return nil
	})
	return total
}

// descendants counts pid and the processes below it, from the parent links
// in /proc/*/stat. It is the process count when there is no pids cgroup;
// the child is a subreaper, so orphans of the job stay below it.
func descendants(pid int) int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	kids := map[int][]int{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The command name may contain spaces and parentheses: the fields
		// after the last ')' are state, ppid, ...
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 2 {
			continue
		}
		if pp, err := strconv.Atoi(f[1]); err == nil {
			kids[pp] = append(kids[pp], p)
		}
	}
	n, stack := 0, []int{pid}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n++
		stack = append(stack, kids[p]...)
	}
	return n
}

// residentBytes is the resident set of pid, from /proc/pid/statm, or 0.
func residentBytes(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}
