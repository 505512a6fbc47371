package wasm

import "golang.org/x/sys/unix"

// threadClock reads one OS thread's CPU time (user and system), from
// any thread of the process: the thread's CPU-time clock,
// MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED) in the kernel's terms.
type threadClock struct {
	id   int32
	base int64 // the thread's CPU time when the run began
}

// currentThreadClock is the clock of the calling goroutine's thread; the
// goroutine must be locked to it.
func currentThreadClock() threadClock {
	tid := unix.Gettid()
	return threadClock{id: int32(^uint32(tid)<<3 | 4 | 2)}
}

// nanos returns the thread's CPU time; a thread whose clock cannot be
// read counts as over every budget.
func (c threadClock) nanos() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(c.id, &ts); err != nil {
		return 1 << 62
	}
	return ts.Nano()
}

// used returns the thread's CPU time since base.
func (c threadClock) used() int64 { return c.nanos() - c.base }
