//go:build crashtest

package crashpoint

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

var (
	once  sync.Once
	stage string
	at    int
	mu    sync.Mutex
	hits  int
)

// Hit kills the process with SIGKILL the n-th time stage s is reached,
// where WARD_CRASH_AT is "s:n"; otherwise it does nothing.
func Hit(s string) {
	once.Do(func() {
		name, n, ok := strings.Cut(os.Getenv("WARD_CRASH_AT"), ":")
		if i, err := strconv.Atoi(n); ok && err == nil && i > 0 {
			stage, at = name, i
		}
	})
	if s != stage {
		return
	}
	mu.Lock()
	hits++
	kill := hits == at
	mu.Unlock()
	if kill {
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal is on its way
	}
}
