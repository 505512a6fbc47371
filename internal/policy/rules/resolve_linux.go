//go:build linux

package rules

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// resolveSymlinks follows every symlink in the absolute, clean path abs.
// On Linux it opens the deepest existing prefix with O_PATH (no read
// permission needed, nothing is opened for I/O) and asks the kernel for the
// real path through /proc/self/fd: three system calls however deep the path
// is. A dangling final symlink is followed to where a write would create its
// target.
func resolveSymlinks(abs string) (string, error) {
	return resolveDepth(abs, 0)
}

func resolveDepth(abs string, depth int) (string, error) {
	if depth > 40 {
		return "", errSymlinkLoop
	}
	fd, err := unix.Open(abs, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err == nil {
		var buf [4096]byte
		n, rerr := unix.Readlink("/proc/self/fd/"+strconv.Itoa(fd), buf[:])
		unix.Close(fd)
		if rerr == nil && n > 0 && n < len(buf) && buf[0] == '/' {
			return string(buf[:n]), nil
		}
		return resolvePortable(abs, depth)
	}
	switch {
	case errors.Is(err, unix.ENOENT), errors.Is(err, unix.ENOTDIR):
	case errors.Is(err, unix.ELOOP):
		return "", errSymlinkLoop
	default:
		return "", err // an errno: its text names no part of the path
	}
	// The path does not exist (yet). If its last element is a dangling
	// symlink, follow it; otherwise resolve the parent and keep the name.
	if target, lerr := os.Readlink(abs); lerr == nil {
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(abs), target)
		}
		return resolveDepth(filepath.Clean(target), depth+1)
	}
	parent := filepath.Dir(abs)
	if parent == abs {
		return abs, nil
	}
	rp, err := resolveDepth(parent, depth+1)
	if err != nil {
		return "", err
	}
	return filepath.Join(rp, filepath.Base(abs)), nil
}
