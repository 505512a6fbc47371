//go:build unix

package daemon

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// lockName is the file in a data directory whose exclusive lock marks the
// directory as in use by one ward process.
const lockName = "ward.lock"

// lockData takes an exclusive, non-blocking flock on dir's lock file for
// as long as the process keeps it (release, or the process ending, kill -9
// included: the kernel drops the lock with the descriptor). A second ward
// on the same directory is refused with the holder's pid: two processes
// writing one SQLite file, one vault key and one dev chain would each
// believe their in-process state (holds, limits, nonces) is the truth.
// Several instances share state through PostgreSQL ([store] url), each
// with its own data directory.
func lockData(dir string) (release func() error, err error) {
	path := filepath.Join(dir, lockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("data directory: lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder, _ := os.ReadFile(path)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			who := "another process"
			if pid := strings.TrimSpace(string(holder)); pid != "" {
				if _, perr := strconv.Atoi(pid); perr == nil {
					who = "ward process " + pid
				}
			}
			return nil, fmt.Errorf("data directory %s is in use by %s (it holds %s): stop it, or give this ward its own --data directory (instances share state through [store] url)", dir, who, path)
		}
		return nil, fmt.Errorf("data directory: lock %s: %w", path, err)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return f.Close, nil
}
