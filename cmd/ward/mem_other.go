//go:build !linux

package main

// totalMemory returns 0 (unknown) where ward does not read the machine's
// memory: the collector then runs without a memory limit.
func totalMemory() uint64 { return 0 }
