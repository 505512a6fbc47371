package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// rootWork is the private, writable directory inside the minimal root.
// The ward binary is not in the root: the child is already running it and
// never executes it again (a job that runs a program declares it in
// ReadOnly), and binding it would need the sandbox's ids to search the
// directories above it (/proc/self/exe leads to the host namespace's
// mount, which cannot be bound from another namespace).
const rootWork = "/work"

// rootDevices are bind-mounted from the host into the root's /dev: a job's
// standard library may open them, and they lead nowhere.
var rootDevices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"}

// errMountNS marks a failure of the minimal root before the old root was
// given up: the child still sees the host and may go on without the
// mount namespace (reporting so). After pivot_root a failure is fatal.
var errMountNS = errors.New("mount namespace")

// buildRoot gives the calling process, which must be in a fresh mount
// namespace with CAP_SYS_ADMIN there, a minimal root and leaves it in
// rootWork: a tmpfs at mnt holding only work (bind-mounted read-write at
// rootWork), the binary (rootSelf), the readOnly paths (at their own
// paths), a few devices, and a fresh /proc when the process is in its own
// PID namespace (procfs), all nosuid and nodev, the rest of the tmpfs
// read-only; then pivot_root into it and detach the old root. Mounts are
// made private first, so nothing propagates to or from the host.
func buildRoot(mnt, work, workAt string, readOnly []string, procfs bool) error {
	fail := func(op string, err error) error { return fmt.Errorf("%w: %s: %w", errMountNS, op, err) }
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fail("make mounts private", err)
	}
	if err := unix.Mount("tmpfs", mnt, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=1m,nr_inodes=4096,mode=0755"); err != nil {
		return fail("tmpfs root", err)
	}
	if err := bind(work, filepath.Join(mnt, filepath.Clean(workAt)), false, false); err != nil {
		return fail("private directory", err)
	}
	for _, dev := range rootDevices {
		if err := bind(dev, filepath.Join(mnt, dev), false, true); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fail(dev, err)
		}
	}
	for _, p := range readOnly {
		if !filepath.IsAbs(p) {
			return fail("read-only path", fmt.Errorf("%q is not absolute", p))
		}
		if err := bind(p, filepath.Join(mnt, filepath.Clean(p)), true, false); err != nil {
			return fail("read-only path "+p, err)
		}
	}
	if procfs {
		if err := os.MkdirAll(filepath.Join(mnt, "proc"), 0o555); err != nil {
			return fail("proc", err)
		}
		if err := unix.Mount("proc", filepath.Join(mnt, "proc"), "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
			return fail("proc", err)
		}
	}
	// pivot_root(".", ".") stacks the old root on the new one; detaching
	// it leaves only the new root (no directory for the old one needed).
	if err := unix.Chdir(mnt); err != nil {
		return fail("chdir", err)
	}
	if err := unix.PivotRoot(".", "."); err != nil {
		return fail("pivot_root", err)
	}
	if err := unix.Unmount(".", unix.MNT_DETACH); err != nil {
		return fmt.Errorf("detach the old root: %w", err)
	}
	if err := unix.Mount("", "/", "", unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV, ""); err != nil {
		return fmt.Errorf("read-only root: %w", err)
	}
	if err := unix.Chdir(workAt); err != nil {
		return fmt.Errorf("chdir %s: %w", workAt, err)
	}
	return nil
}

// bind bind-mounts src at dst, creating dst as a file or directory like
// src, nosuid, read-only if ro, and nodev unless dev (a device node is
// useless on a nodev mount). The remount has to
// repeat the flags the source's mount has, which a user namespace may not
// clear (they are locked).
func bind(src, dst string, ro, dev bool) error {
	fi, err := os.Stat(src)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		err = os.MkdirAll(dst, 0o755)
	} else if err = os.MkdirAll(filepath.Dir(dst), 0o755); err == nil {
		var f *os.File
		if f, err = os.OpenFile(dst, os.O_CREATE|os.O_WRONLY, 0o444); err == nil {
			f.Close()
		}
	}
	if err != nil {
		return err
	}
	if err := unix.Mount(src, dst, "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("bind %s: %w", src, err)
	}
	flags := uintptr(unix.MS_BIND | unix.MS_REMOUNT | unix.MS_NOSUID)
	if !dev {
		flags |= unix.MS_NODEV
	}
	if ro {
		flags |= unix.MS_RDONLY
	}
	var st unix.Statfs_t
	if err := unix.Statfs(dst, &st); err == nil {
		for _, f := range []struct{ st, ms uintptr }{
			{unix.ST_RDONLY, unix.MS_RDONLY}, {unix.ST_NOEXEC, unix.MS_NOEXEC}, {unix.ST_NODEV, unix.MS_NODEV},
			{unix.ST_NOATIME, unix.MS_NOATIME}, {unix.ST_NODIRATIME, unix.MS_NODIRATIME}, {unix.ST_RELATIME, unix.MS_RELATIME},
		} {
			if uintptr(st.Flags)&f.st != 0 {
				flags |= f.ms
			}
		}
	}
	if err := unix.Mount("", dst, "", flags, ""); err != nil {
		return fmt.Errorf("remount %s: %w", dst, err)
	}
	return nil
}
