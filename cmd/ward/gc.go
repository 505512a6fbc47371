package main

import (
	"os"
	"runtime/debug"
)

// gcPercent is the collector's target when the operator sets none: the
// heap may grow to five times what is live between collections. On this
// project's 2-core reference machine it took the audited path's p99 at 64
// callers from 2.1-2.2 ms to 1.7-1.8 ms and evaluation's p99 from 2.4-2.7
// to 2.1-2.3 µs (docs/performance.md, "The collector's target"), because
// a third of the slow audited decisions overlapped the end of a
// collection.
const gcPercent = 400

// gcSettings returns the collector settings ward runs with: GOGC and
// GOMEMLIMIT, when the operator sets them, are the runtime's and are left
// alone; otherwise the target is gcPercent, and the heap is held to three
// quarters of the machine's memory (mem bytes; 0 when unknown, and then no
// limit), so that the larger target never costs an out-of-memory kill that
// the default would not.
func gcSettings(getenv func(string) string, mem uint64) (percent int, limit int64) {
	percent, limit = -1, -1 // -1: leave as the runtime has it
	if getenv("GOGC") == "" {
		percent = gcPercent
	}
	if getenv("GOMEMLIMIT") == "" && mem > 0 {
		limit = int64(mem / 4 * 3)
	}
	return percent, limit
}

// tuneGC applies gcSettings to this process.
func tuneGC() {
	percent, limit := gcSettings(os.Getenv, totalMemory())
	if percent >= 0 {
		debug.SetGCPercent(percent)
	}
	if limit > 0 {
		debug.SetMemoryLimit(limit)
	}
}
