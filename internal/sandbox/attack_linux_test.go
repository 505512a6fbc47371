package sandbox

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// attackJobs are Stage 3 jobs written from the attacker's side: native Go
// code in the child that tries to get out. Each reports what it got as
// "NAME ok" or "NAME err ERRNO" lines, so a test can tell refused from
// stopped.
var attackJobs = map[string]Job{
	// Reads each path of its input.
	"read": func(ctx context.Context, in []byte, out io.Writer) error {
		for p := range strings.FieldsSeq(string(in)) {
			_, err := os.ReadFile(p)
			report(out, p, err)
		}
		return nil
	},
	// Creates a file in each directory of its input.
	"write": func(ctx context.Context, in []byte, out io.Writer) error {
		for d := range strings.FieldsSeq(string(in)) {
			err := os.WriteFile(filepath.Join(d, "ward-escape"), []byte("x"), 0o644)
			report(out, d, err)
		}
		return nil
	},
	// Connects to the Unix socket named by its input.
	"unix": func(ctx context.Context, in []byte, out io.Writer) error {
		p := strings.TrimSpace(string(in))
		c, err := net.Dial("unix", p)
		if err == nil {
			c.Close()
		}
		report(out, p, err)
		return nil
	},
	// Forks 1000 processes with the raw system call (no shell needed),
	// each sleeping.
	"fork1000": func(ctx context.Context, in []byte, out io.Writer) error {
		ts := unix.Timespec{Sec: 100}
		forked := 0
		var last error
		for range 1000 {
			pid, _, errno := unix.RawSyscall6(unix.SYS_CLONE, uintptr(unix.SIGCHLD), 0, 0, 0, 0, 0)
			if errno != 0 {
				last = errno
				continue
			}
			if pid == 0 {
				for {
					unix.RawSyscall(unix.SYS_NANOSLEEP, uintptr(unsafe.Pointer(&ts)), 0, 0)
				}
			}
			forked++
		}
		fmt.Fprintf(out, "forked %d, last error %v\n", forked, last)
		<-ctx.Done()
		return nil
	},
	// Allocates 4 GB and touches every page.
	"alloc4g": func(ctx context.Context, in []byte, out io.Writer) error {
		b := make([]byte, 4<<30)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		fmt.Fprintf(out, "allocated %d\n", len(b))
		return nil
	},
	// Calls each system call of probes.
	"syscalls": func(ctx context.Context, in []byte, out io.Writer) error {
		for _, p := range probes {
			fmt.Fprintf(out, "%s %d\n", p.name, p.call())
		}
		return nil
	},
}

func report(out io.Writer, what string, err error) {
	if err != nil {
		fmt.Fprintf(out, "%s err %v\n", what, err)
		return
	}
	fmt.Fprintf(out, "%s ok\n", what)
}

// probes are calls of the system calls the seccomp filter refuses. free
// marks those an unprivileged job in its own namespaces gets without the
// filter on this kind of machine, so that their refusal shows the filter
// at work (the others the kernel refuses anyway, for want of a
// capability, and the filter is a second wall).
var probes = []struct {
	name string
	free bool
	call func() unix.Errno
}{
	{"socket-inet", true, func() unix.Errno { return closeFD(unix.RawSyscall(unix.SYS_SOCKET, unix.AF_INET, unix.SOCK_STREAM, 0)) }},
	{"socket-netlink", true, func() unix.Errno {
		return closeFD(unix.RawSyscall(unix.SYS_SOCKET, unix.AF_NETLINK, unix.SOCK_RAW, unix.NETLINK_ROUTE))
	}},
	{"keyctl", true, func() unix.Errno {
		_, err := unix.KeyctlGetKeyringID(unix.KEY_SPEC_SESSION_KEYRING, true)
		return errno(err)
	}},
	{"add_key", true, func() unix.Errno {
		_, err := unix.AddKey("user", "ward-probe", []byte("x"), unix.KEY_SPEC_PROCESS_KEYRING)
		return errno(err)
	}},
	{"io_uring_setup", true, func() unix.Errno {
		var params [120]byte
		return closeFD(unix.RawSyscall(unix.SYS_IO_URING_SETUP, 1, uintptr(unsafe.Pointer(&params)), 0))
	}},
	{"userfaultfd", true, func() unix.Errno {
		const userModeOnly = 1
		return closeFD(unix.RawSyscall(unix.SYS_USERFAULTFD, unix.O_CLOEXEC|userModeOnly, 0, 0))
	}},
	{"perf_event_open", true, func() unix.Errno {
		attr := unix.PerfEventAttr{Type: unix.PERF_TYPE_SOFTWARE, Config: unix.PERF_COUNT_SW_TASK_CLOCK, Bits: unix.PerfBitExcludeKernel | unix.PerfBitExcludeHv}
		attr.Size = uint32(unsafe.Sizeof(attr))
		fd, err := unix.PerfEventOpen(&attr, 0, -1, -1, unix.PERF_FLAG_FD_CLOEXEC)
		if err == nil {
			unix.Close(fd)
		}
		return errno(err)
	}},
	{"name_to_handle_at", true, func() unix.Errno {
		_, _, err := unix.NameToHandleAt(unix.AT_FDCWD, ".", 0)
		return errno(err)
	}},
	{"clone-newuser", true, func() unix.Errno {
		pid, _, e := unix.RawSyscall6(unix.SYS_CLONE, unix.CLONE_NEWUSER|uintptr(unix.SIGCHLD), 0, 0, 0, 0, 0)
		if e == 0 && pid == 0 {
			unix.RawSyscall(unix.SYS_EXIT_GROUP, 0, 0, 0)
		}
		return e
	}},
	{"mount", false, func() unix.Errno { return errno(unix.Mount("none", ".", "tmpfs", 0, "")) }},
	{"umount2", false, func() unix.Errno { return errno(unix.Unmount(".", unix.MNT_DETACH)) }},
	{"pivot_root", false, func() unix.Errno { return errno(unix.PivotRoot(".", ".")) }},
	{"chroot", false, func() unix.Errno { return errno(unix.Chroot(".")) }},
	{"unshare", false, func() unix.Errno { return errno(unix.Unshare(unix.CLONE_NEWUSER | unix.CLONE_NEWNS)) }},
	{"setns", false, func() unix.Errno { return errno(unix.Setns(0, unix.CLONE_NEWNET)) }},
	{"ptrace-attach", false, func() unix.Errno { return errno(unix.PtraceAttach(1)) }},
	{"bpf", false, func() unix.Errno {
		var attr [64]byte
		return closeFD(unix.RawSyscall(unix.SYS_BPF, unix.BPF_MAP_CREATE, uintptr(unsafe.Pointer(&attr)), 64))
	}},
	{"init_module", false, func() unix.Errno { return errno(unix.InitModule([]byte{0}, "")) }},
	{"finit_module", false, func() unix.Errno { return errno(unix.FinitModule(0, "", 0)) }},
	{"delete_module", false, func() unix.Errno { return errno(unix.DeleteModule("ward_probe", 0)) }},
	{"kexec_load", false, func() unix.Errno {
		_, _, e := unix.RawSyscall6(unix.SYS_KEXEC_LOAD, 0, 0, 0, 0, 0, 0)
		return e
	}},
	{"reboot", false, func() unix.Errno { return errno(unix.Reboot(unix.LINUX_REBOOT_CMD_CAD_OFF)) }},
	{"swapon", false, func() unix.Errno {
		_, _, e := unix.RawSyscall(unix.SYS_SWAPON, uintptr(unsafe.Pointer(&[]byte("/work\x00")[0])), 0, 0)
		return e
	}},
	{"open_by_handle_at", false, func() unix.Errno {
		h := unix.NewFileHandle(1, []byte{0, 0, 0, 0, 0, 0, 0, 0})
		fd, err := unix.OpenByHandleAt(unix.AT_FDCWD, h, unix.O_RDONLY)
		if err == nil {
			unix.Close(fd)
		}
		return errno(err)
	}},
	{"clone3", false, func() unix.Errno {
		_, _, e := unix.RawSyscall(unix.SYS_CLONE3, 0, 0, 0)
		return e
	}},
}

func closeFD(fd, _ uintptr, e unix.Errno) unix.Errno {
	if e == 0 {
		unix.Close(int(fd))
	}
	return e
}

func errno(err error) unix.Errno {
	if err == nil {
		return 0
	}
	if e, ok := err.(unix.Errno); ok {
		return e
	}
	return unix.EINVAL
}

// results parses the "NAME N" lines of the syscalls job.
func results(t *testing.T, out []byte) map[string]unix.Errno {
	t.Helper()
	got := map[string]unix.Errno{}
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		name, n, ok := strings.Cut(line, " ")
		v, err := strconv.Atoi(n)
		if !ok || err != nil {
			t.Fatalf("syscalls output line %q", line)
		}
		got[name] = unix.Errno(v)
	}
	return got
}

// TestSeccompRefuses calls every probe with the filter and without it:
// with it each is refused with EPERM (clone3 with ENOSYS); without it the
// free ones succeed, so the refusals above are the filter's.
func TestSeccompRefuses(t *testing.T) {
	with, err := Run(t.Context(), Spec{Job: "syscalls", Limits: small})
	if err != nil {
		t.Fatal(err)
	}
	lim := small
	lim.Without = MechSeccomp
	without, err := Run(t.Context(), Spec{Job: "syscalls", Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	if !with.OK() || !without.OK() {
		t.Fatalf("the probe job failed: %q / %q", with.Output, without.Output)
	}
	if !with.Enforced.Has(MechSeccomp) || without.Enforced.Has(MechSeccomp) {
		t.Fatalf("enforced %s and %s, want seccomp in the first only", with.Enforced, without.Enforced)
	}
	gotWith, gotWithout := results(t, with.Output), results(t, without.Output)
	for _, p := range probes {
		t.Run(p.name, func(t *testing.T) {
			want := unix.EPERM
			if p.name == "clone3" {
				want = unix.ENOSYS
			}
			if got, ok := gotWith[p.name]; !ok || got != want {
				t.Errorf("with seccomp: %v, want %v", got, want)
			}
			if got := gotWithout[p.name]; p.free && got != 0 {
				t.Errorf("without seccomp: %v, want success (the probe is not testing the filter)", got)
			} else if !p.free && got == 0 {
				t.Errorf("without seccomp the call succeeded: the kernel does not refuse it by itself")
			}
		})
	}
}

// hostFixture is what the filesystem attacks aim at on the host: a fake
// ward data directory with a secret readable and writable by anyone, a
// Unix socket anyone may connect to, all outside the sandbox, so that
// only the mount namespace keeps the job from them.
type hostFixture struct {
	data, secret, sock string
	accepted           *atomic.Int32
}

func newHostFixture(t *testing.T) hostFixture {
	t.Helper()
	data, err := os.MkdirTemp("", "ward-data-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(data) })
	secret := filepath.Join(data, "ward.key")
	if err := os.WriteFile(secret, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(data, 0o777); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(data, "ward.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(sock, 0o777)
	f := hostFixture{data: data, secret: secret, sock: sock, accepted: &atomic.Int32{}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			f.accepted.Add(1)
			c.Close()
		}
	}()
	t.Cleanup(func() { ln.Close(); <-done })
	return f
}

// TestFilesystemAttacks runs the reads, writes and socket connection of a
// job that wants out, with the mount namespace and without it: without,
// the fixture's files and socket are within reach (so the test can tell),
// with, none is.
func TestFilesystemAttacks(t *testing.T) {
	f := newHostFixture(t)
	reads := "/etc/shadow\n/root\n" + f.secret + "\n"
	writes := "/tmp\n" + f.data + "\n/dev/shm\n/\n.\n"
	for _, tc := range []struct {
		name    string
		without Mechanism
		// what a job must not get with the mount namespace and does get
		// without it
		reach []string
	}{
		{"mount namespace", 0, nil},
		{"no mount namespace", MechMountNS, []string{f.secret + " ok", f.data + " ok", f.sock + " ok"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lim := small
			lim.Without = tc.without
			var out []byte
			var enforced Mechanism = ^Mechanism(0)
			for _, job := range []struct{ name, in string }{{"read", reads}, {"write", writes}, {"unix", f.sock}} {
				res, err := Run(t.Context(), Spec{Job: job.name, Input: []byte(job.in), Limits: lim})
				if err != nil {
					t.Fatal(err)
				}
				if !res.OK() {
					t.Fatalf("%s: not OK: %+v", job.name, res)
				}
				out = append(out, res.Output...)
				enforced &= res.Enforced
			}
			t.Logf("enforced %s:\n%s", enforced, out)
			os.Remove(filepath.Join(f.data, "ward-escape"))
			os.Remove("/tmp/ward-escape")
			os.Remove("/dev/shm/ward-escape")
			got := string(out)
			if tc.without == 0 {
				if !enforced.Has(MechMountNS) {
					t.Fatalf("enforced %s: no mount namespace", enforced)
				}
				for _, line := range strings.Split(strings.TrimSpace(got), "\n") {
					if strings.HasSuffix(line, " ok") && line != ". ok" {
						t.Errorf("the job got %q", line)
					}
				}
				if !strings.Contains(got, ". ok") {
					t.Errorf("the job could not write its own directory: %q", got)
				}
				if n := f.accepted.Load(); n != 0 {
					t.Errorf("the host's socket accepted %d connections", n)
				}
				return
			}
			for _, r := range tc.reach {
				if !strings.Contains(got, r) {
					t.Errorf("without the mount namespace the job did not get %q: the attack is not testing it", r)
				}
			}
			for _, denied := range []string{"/etc/shadow ok", "/root ok"} {
				if strings.Contains(got, denied) {
					t.Errorf("the job got %q even without the mount namespace", denied)
				}
			}
		})
	}
}

// TestResourceAttacks: 1000 forks and 4 GB, each stopped, and the parent
// still well.
func TestResourceAttacks(t *testing.T) {
	for _, tc := range []struct {
		job  string
		want Breach
	}{
		{"fork1000", BreachProcesses},
		{"alloc4g", BreachMemory},
	} {
		t.Run(tc.job, func(t *testing.T) {
			res, err := Run(t.Context(), Spec{Job: tc.job, Limits: small})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: breach %s after %v, enforced %s, output %q", tc.job, res.Breach, res.Elapsed, res.Enforced, res.Output)
			if res.Breach != tc.want {
				t.Errorf("breach = %s, want %s", res.Breach, tc.want)
			}
			if strings.Contains(string(res.Output), "forked 1000") || strings.Contains(string(res.Output), "allocated") {
				t.Errorf("the attack completed: %q", res.Output)
			}
		})
	}
	// The parent is unharmed: it still runs a job.
	res, err := Run(t.Context(), Spec{Job: "echo", Input: []byte("still here"), Limits: small})
	if err != nil || !res.OK() || string(res.Output) != "still here" {
		t.Errorf("after the attacks: %v %+v", err, res)
	}
}

// TestRequire: a run whose requirement is not in force is stopped before
// the job's first instruction, with an error naming what is missing.
func TestRequire(t *testing.T) {
	lim := small
	lim.Without = MechSeccomp
	res, err := Run(t.Context(), Spec{Job: "echo", Input: []byte("ran"), Limits: lim, Require: DefaultRequirement})
	ne, ok := err.(*NotEnforcedError)
	if !ok {
		t.Fatalf("err = %v, want *NotEnforcedError", err)
	}
	if strings.Join(ne.Missing, ",") != "seccomp" {
		t.Errorf("missing %q, want seccomp", ne.Missing)
	}
	if res == nil || strings.Contains(string(res.Output), "ran") || res.OK() {
		t.Errorf("the job ran: %+v", res)
	}
	res, err = Run(t.Context(), Spec{Job: "echo", Input: []byte("ran"), Limits: small, Require: DefaultRequirement})
	if err != nil || !res.OK() {
		t.Fatalf("with everything in force: %v %+v", err, res)
	}
	t.Logf("a default run here enforces %s", res.Enforced)
}
