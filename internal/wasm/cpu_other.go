//go:build !linux

package wasm

// threadClock has no per-thread CPU clock to read outside Linux: every
// run counts as over its CPU budget, so WASM tools refuse to run rather
// than run unbounded. ward is built and tested on Linux (cpu_linux.go).
type threadClock struct {
	base int64
}

func currentThreadClock() threadClock { return threadClock{} }

func (c threadClock) nanos() int64 { return 1 << 62 }

func (c threadClock) used() int64 { return c.nanos() - c.base }
