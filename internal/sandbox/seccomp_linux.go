package sandbox

import (
	"fmt"
	"runtime"
	"unsafe"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// deniedSyscalls are refused with EPERM: nothing a sandboxed job does
// needs them, and each is a way out of the sandbox or into the kernel's
// less travelled code (mounts and namespaces, tracing other processes,
// loading code into the kernel, keys, raw handles, io_uring, which
// bypasses seccomp, and the clock and host name).
var deniedSyscalls = []string{
	"mount", "umount2", "pivot_root", "chroot",
	"fsopen", "fsconfig", "fsmount", "fspick", "move_mount", "open_tree",
	"unshare", "setns",
	"ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
	"kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
	"bpf", "perf_event_open", "userfaultfd",
	"keyctl", "add_key", "request_key",
	"reboot", "swapon", "swapoff", "acct", "quotactl",
	"open_by_handle_at", "name_to_handle_at",
	"io_uring_setup", "io_uring_enter", "io_uring_register",
	"settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
	"sethostname", "setdomainname", "syslog", "vhangup",
	"iopl", "ioperm", "uselib", "lookup_dcookie",
}

// cloneFlagsArg is clone's flags argument (the first everywhere but s390x,
// which ward does not build for).
const cloneFlagsArg = 0

// nsFlags are the clone flags that make namespaces: clone with any of them
// is refused like unshare.
const nsFlags = unix.CLONE_NEWNS | unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET |
	unix.CLONE_NEWIPC | unix.CLONE_NEWUTS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWTIME

// seccompPolicy is the filter's policy: allow by default, refuse
// deniedSyscalls, clone with namespace flags and, unless network is
// granted, sockets of any family but AF_UNIX, or with inet of any family
// but AF_UNIX, AF_INET and AF_INET6 (a program whose network namespace
// has only loopback and the egress listener). clone3 fails with ENOSYS,
// since its flags are behind a pointer the filter cannot read: the C
// library and Go fall back to clone, which the filter can.
func seccompPolicy(network, inet bool) seccomp.Policy {
	groups := []seccomp.SyscallGroup{
		{Action: seccomp.ActionErrno, Names: deniedSyscalls},
		{Action: seccomp.ActionErrno, NamesWithCondtions: []seccomp.NameWithConditions{
			{Name: "clone", Conditions: seccomp.ArgumentConditions{{Argument: cloneFlagsArg, Operation: seccomp.BitsSet, Value: nsFlags}}},
		}},
		{Action: seccomp.ActionErrno | seccomp.Action(unix.ENOSYS), Names: []string{"clone3"}},
	}
	if !network {
		families := seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.NotEqual, Value: unix.AF_UNIX}}
		if inet {
			families = append(families,
				seccomp.Condition{Argument: 0, Operation: seccomp.NotEqual, Value: unix.AF_INET},
				seccomp.Condition{Argument: 0, Operation: seccomp.NotEqual, Value: unix.AF_INET6})
		}
		groups = append(groups, seccomp.SyscallGroup{Action: seccomp.ActionErrno, NamesWithCondtions: []seccomp.NameWithConditions{
			{Name: "socket", Conditions: families},
		}})
	}
	return seccomp.Policy{DefaultAction: seccomp.ActionAllow, Syscalls: groups}
}

// installSeccomp sets no_new_privs and loads the filter on every thread of
// the calling process (SECCOMP_FILTER_FLAG_TSYNC, which also gives every
// thread no_new_privs). The library's filter lets system calls of another
// architecture through (on x86-64 the i386 ABI by int 0x80 would bypass a
// deny list), so a guard that kills the process on any other architecture
// is put in front of it: four instructions, written here because the
// library has no option for it.
func installSeccomp(network, inet bool) error {
	policy := seccompPolicy(network, inet)
	prog, err := policy.Assemble()
	if err != nil {
		return fmt.Errorf("seccomp: %w", err)
	}
	native, err := arch.GetInfo("")
	if err != nil {
		return fmt.Errorf("seccomp: %w", err)
	}
	guard := []bpf.Instruction{
		bpf.LoadAbsolute{Off: 4, Size: 4}, // seccomp_data.arch
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: uint32(native.ID), SkipTrue: 1},
		bpf.RetConstant{Val: uint32(seccomp.ActionKillProcess)},
	}
	raw, err := bpf.Assemble(append(guard, prog...))
	if err != nil {
		return fmt.Errorf("seccomp: %w", err)
	}
	filter := make([]unix.SockFilter, len(raw))
	for i, r := range raw {
		filter[i] = unix.SockFilter{Code: r.Op, Jt: r.Jt, Jf: r.Jf, K: r.K}
	}
	fprog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	// no_new_privs is per thread: the filter must load on the thread that
	// set it (TSYNC then gives it to the others).
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := seccomp.SetNoNewPrivs(); err != nil {
		return fmt.Errorf("seccomp: no_new_privs: %w", err)
	}
	if _, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog))); errno != 0 {
		return fmt.Errorf("seccomp: load: %w", errno)
	}
	return nil
}
